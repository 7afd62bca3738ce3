"""The model in the loop: talking to any OpenAI-compatible endpoint, headless.

settings (where the endpoint comes from) · endpoint (names and warnings, never a key) ·
structured (response_format forms and the per-endpoint fallback) · failures (network
faults as one-line values) · client (one streamed request) · conversation (the messages
sent) · partial (the throttled "so far" preview) · asking (one round trip plus bounded
retries, parsed and journaled). No Textual here: the editor and ``gate-tui ask`` share it.
"""
