# The two commands of the README: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SOURCES := pyproject.toml setup.py variants/classic2048/_expectimax.c variants/classic2048/_batch.c
VERSION := $(shell cat $(SOURCES) | cksum | cut -d' ' -f1)
# One .venv: `make play` installs what playing needs (the app and the web extra); `make test`
# (and lint, docs, bench, i18n) adds the test tools, the docs tools and the cluster, postgres
# and rl extras to the same environment.
PLAY_STAMP := $(VENV)/.play-$(VERSION)
STAMP := $(VENV)/.installed-$(VERSION)

.PHONY: play test lint docs bench i18n clean

$(PLAY_STAMP): $(SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[web]'
	# what an editable install of 0.2 left behind (it ran at every start; pip cannot see it)
	rm -f $(VENV)/lib/python*/site-packages/twofold-rl.pth
	rm -f $(VENV)/.play-*
	touch $(PLAY_STAMP)

$(STAMP): $(PLAY_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,web,cluster,postgres,rl,docs]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

play: $(PLAY_STAMP)  ## install and start the app
	$(BIN)/twofold

# pytest-xdist worker processes for make test: three a core on this 2-core machine, since an
# app test waits on Textual's idle checks about half its time (2: 190 s, 4: 137 s, 6: 123 s)
TEST_WORKERS ?= 6

# more pytest options for make test, e.g. PYTEST_ARGS="--order random:7 --durations=20"
PYTEST_ARGS ?=

# the suite starts some 300 Python processes: each reads its modules compiled, as Python does
# by default, even where PYTHONDONTWRITEBYTECODE turns that off (it made each compile them all)
test: $(STAMP)  ## install and run the whole test suite, on TEST_WORKERS processes
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(STAMP)  ## ruff, and the import layers (import-linter contracts in pyproject.toml)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

docs: $(STAMP)  ## the docs as a site in build/site (mkdocs.yml), any warning an error
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(STAMP)  ## the performance targets, measured and reported (several minutes)
	$(BIN)/python benchmarks/bench_2048_moves.py
	$(BIN)/python benchmarks/bench_2048_search.py
	$(BIN)/python benchmarks/bench_2248_hint.py
	$(BIN)/python benchmarks/bench_app.py
	$(BIN)/python benchmarks/bench_browser.py
	$(BIN)/python benchmarks/bench_protocol.py
	$(BIN)/python benchmarks/bench_rl.py
	$(BIN)/python benchmarks/bench_solver.py --games 20 --minutes 5 --stop-at 2048
	$(BIN)/python benchmarks/bench_verify.py
	$(BIN)/python benchmarks/bench_leaderboard.py

i18n: $(STAMP)  ## extract strings, merge into every catalog, compile, check
	$(BIN)/python tools/i18n.py update
	$(BIN)/python tools/i18n.py compile
	$(BIN)/python tools/i18n.py check

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
