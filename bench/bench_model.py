"""Model-in-the-loop benchmark: the streaming preview's cost, and the local model's speed.

Goals (issue 19):
1. **Preview while streaming.** A 20 KB reply streamed at 300 tokens/s (4 characters a
   token: 1,200 characters/s, one token per chunk) never lags the screen by more than
   100 ms. The timeline is replayed with the *measured* cost of every re-parse the
   throttled :class:`~gate_tui.llm.partial.PartialPreview` decides to do: chunk ``i``
   arrives at ``i / 300`` s and is shown once everything before it (parses included) is
   done; the lag is how late the last chunk's work finishes after it arrived, worst case.
2. **Linear total parse work.** Characters handed to the parser over the whole stream,
   divided by the reply's length, for 5, 10, 20 and 40 KB: a constant (≤ 6) for the
   throttled preview, while re-parsing on every chunk grows with the length (shown for
   comparison).
3. (``--editor``) **First token → first character on screen** in the real editor (Pilot,
   scripted server on loopback): the time from the server writing its first chunk to
   the reply pane showing it.
4. (``--local``) **The bundled local model**: time to first token and tokens/s of Gemma
   3 270M behind llama.cpp's server, asked with the real system prompt (``gate-tui
   prompt``) and structured outputs, median of ``--repeat`` requests. Information for the
   README, no goal.

Run: ``python bench/bench_model.py [--editor] [--local]``; exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate_tui.config.loading import load_config  # noqa: E402
from gate_tui.llm.partial import PartialPreview  # noqa: E402
from gate_tui.parsing.pipeline import empty_state, parse  # noqa: E402

CONFIG = load_config(ROOT / "sample_configs" / "ml_project_intake.yaml")
TOKENS_PER_S = 300
CHARS_PER_TOKEN = 4
LAG_GOAL_S = 0.100
WORK_GOAL = 6.0


def big_reply(size: int) -> str:
    """A fenced gate-state reply of about ``size`` characters (long raw answers)."""
    state = empty_state(CONFIG).model_dump(mode="json")
    keys = list(state["gates"])
    each = max(10, (size - 600) // len(keys))
    for number, key in enumerate(keys):
        words = f"answer {number} with some detail about the data, the use and the metric; "
        state["gates"][key]["raw"] = (words * (each // len(words) + 1))[:each]
    state["summary"] = "A long reply used to time the streaming preview."
    return "Here is the state:\n\n```json\n" + json.dumps(state, indent=2) + "\n```\n"


def replay_stream(text: str, throttled: bool = True) -> tuple[float, int, int]:
    """(worst lag in s, characters parsed, parses) for ``text`` streamed one token a chunk."""
    preview = PartialPreview(lambda t: parse(t, CONFIG, actor="assistant"))
    step = CHARS_PER_TOKEN
    busy_until = 0.0
    worst = 0.0
    for index, end in enumerate(range(step, len(text) + step, step)):
        arrived = index / TOKENS_PER_S
        start = time.perf_counter()
        prefix = text[: min(end, len(text))]
        if throttled:
            preview.update(prefix)
        else:
            preview.force(prefix)
        cost = time.perf_counter() - start
        busy_until = max(busy_until, arrived) + cost
        worst = max(worst, busy_until - arrived)
    return worst, preview.parsed_chars, preview.parses


def bench_preview() -> bool:
    ok = True
    print(
        "| reply | chunks | parses | parsed chars / reply chars | worst lag at 300 tok/s | goal |"
    )
    print("|---|---|---|---|---|---|")
    for kb in (5, 10, 20, 40):
        text = big_reply(kb * 1000)
        lag, parsed, parses = replay_stream(text)
        ratio = parsed / len(text)
        met = ratio <= WORK_GOAL and (kb != 20 or lag <= LAG_GOAL_S)
        ok &= met
        goal = f"≤ {WORK_GOAL:g}× work" + (", lag ≤ 100 ms" if kb == 20 else "")
        print(
            f"| {len(text):,} chars | {len(text) // CHARS_PER_TOKEN:,} | {parses} | {ratio:.2f} | "
            f"{lag * 1000:.1f} ms | {goal}: {'met' if met else 'MISSED'} |"
        )
    for kb in (5, 10):
        text = big_reply(kb * 1000)
        _, parsed, parses = replay_stream(text, throttled=False)
        print(
            f"| (every chunk) {len(text):,} chars | {len(text) // CHARS_PER_TOKEN:,} | {parses} | "
            f"{parsed / len(text):.0f} | — | comparison |"
        )
    return ok


def bench_local(repeat: int) -> None:
    from gate_tui.config.prompt_export import prompt_text
    from gate_tui.config.schema_export import state_schema
    from gate_tui.llm.client import stream_chat
    from gate_tui.llm.conversation import build_messages
    from gate_tui.llm.local import local_gguf, server_available, start_server
    from gate_tui.llm.settings import ModelSettings

    problem = server_available()
    gguf, why = local_gguf() if problem is None else (None, problem)
    if gguf is None:
        print(f"local model: skipped ({why})")
        return
    server, why = start_server(gguf)
    if server is None:
        print(f"local model: skipped ({why})")
        return
    try:
        settings = ModelSettings(
            base_url=server.base_url, model=server.model, structured=True, timeout_s=300
        )
        state = json.dumps(empty_state(CONFIG).model_dump(mode="json"), indent=2)
        schema = state_schema(CONFIG)

        def messages_for(
            number: int,
        ) -> list[dict[str, str]]:  # a new message each time, as in a conversation
            return build_messages(
                prompt_text(CONFIG),
                [],
                state,
                f"Message {number}: we have labelled tickets in the warehouse.",
            )[0]

        messages = messages_for(0)
        cold = asyncio.run(
            stream_chat(settings, messages, schema)
        )  # includes the structured-form dance
        ttfts, rates, sizes = [], [], []
        for number in range(1, repeat + 1):
            out = asyncio.run(stream_chat(settings, messages_for(number), schema))
            tokens = (out.usage or {}).get("completion_tokens") or out.chunks
            if out.ttft_s is None or out.total_s <= out.ttft_s:
                continue
            ttfts.append(out.ttft_s)
            rates.append(tokens / (out.total_s - out.ttft_s))
            sizes.append(tokens)
        print(
            f"local model ({server.model}, n_ctx 4096, {len(messages[0]['content']):,}-char "
            f"system prompt, structured):"
        )
        print(
            f"  time to first token, first request (whole prompt evaluated, form fallback "
            f"included): {cold.ttft_s or float('nan'):.2f} s"
        )
        print(
            f"  time to first token, later requests (system prompt cached by the server): median "
            f"{statistics.median(ttfts):.2f} s over {len(ttfts)}"
        )
        print(
            f"  generation: median {statistics.median(rates):.1f} tokens/s "
            f"({statistics.median(sizes):.0f} tokens a reply)"
        )
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--editor",
        action="store_true",
        help="also time first token → first character in the editor",
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="also measure the bundled local model (needs the model-test extra)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="(accepted for make bench; the preview replay is already quick)",
    )
    ns = parser.parse_args()
    ok = bench_preview()
    if ns.editor:
        from bench.bench_model_editor import bench_first_character

        ok &= bench_first_character(ns.repeat)
    if ns.local:
        bench_local(ns.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
