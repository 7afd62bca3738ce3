"""Gate configs: reading and validating config files (``loading``), the light start-up
view of a cached config (``spec``, ``cache``) and what is derived from a config for
models (``schema_export``, ``prompt_export``). This file imports nothing, so that the
editor's first frame can read the cache without loading yaml or pydantic.
"""
