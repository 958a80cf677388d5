# ccg-env developer tasks. Quickstart: `make run`, then `make test`.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# torch is installed first and pinned: 2.13.0 is the CPU wheel on these machines' disk, while an
# unpinned torch (asked for by stable-baselines3) would pull a multi-GB CUDA build.
TORCH := torch==2.13.0
PYTEST_ARGS ?= -q -n 2

.PHONY: venv run test bench

venv: $(STAMP)

# Reinstall only when the packaging changes, so re-runs are fast.
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install "$(TORCH)"
	$(BIN)/python -m pip install -e ".[train,dev]"
	touch $(STAMP)

run: venv
	$(BIN)/ccg-env arena

test: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: venv
	@set -e; for script in benchmarks/*.py; do \
		[ -e "$$script" ] || { echo "no benchmarks yet"; break; }; \
		echo "== $$script"; $(BIN)/python "$$script"; \
	done
