# ccg-env developer tasks. Quickstart: `make run`, then `make test`.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# torch is installed first and pinned: 2.13.0 is the CPU wheel on these machines' disk, while an
# unpinned torch (asked for by stable-baselines3) would pull a multi-GB CUDA build.
TORCH := torch==2.13.0
PYTEST_ARGS ?= -q -n 2
# The install compiles the hot engine modules with mypyc (setup.py); here a failed compile is an error, not a
# quiet fall-back to the pure-Python engine.
export CCG_ENV_REQUIRE_COMPILED := 1

.PHONY: venv venv-rllib build run test test-rllib bench mutation mutation-sample wheels wheel-smoke

venv: $(STAMP)

# Reinstall only when the packaging changes, so re-runs are fast.
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install "$(TORCH)"
	$(BIN)/python -m pip install -e ".[train,dev]"
	touch $(STAMP)

# Ray RLlib (the 'rllib' extra) pins gymnasium 1.2.2 while .venv has the newest, so the RLlib support is tested in
# a virtualenv of its own. It shares the source tree, and with it the engine modules `make build` compiles there, so
# this install compiles nothing.
VENV_RLLIB := .venv-rllib
RLLIB_STAMP := $(VENV_RLLIB)/.installed

venv-rllib: $(RLLIB_STAMP)

$(RLLIB_STAMP): pyproject.toml setup.py
	test -x $(VENV_RLLIB)/bin/python || $(PYTHON) -m venv $(VENV_RLLIB)
	$(VENV_RLLIB)/bin/python -m pip install "$(TORCH)"
	CCG_ENV_PURE_PYTHON=1 $(VENV_RLLIB)/bin/python -m pip install -e ".[rllib,train,dev]"
	touch $(RLLIB_STAMP)

# Recompile in place when a compiled module is missing or does not match its source (until then the package runs
# the sources); the install itself compiles, so right after it this only checks.
build: venv
	$(BIN)/python -W ignore -m ccg_env.engine.native || $(BIN)/python setup.py -q build_ext --inplace

run: build
	$(BIN)/ccg-env arena

# The whole suite on the compiled engine, then the engine tier again on the pure-Python sources, then the RLlib
# tests and the env tier in .venv-rllib (ray's pinned gymnasium).
test: build
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	CCG_ENV_PURE_PYTHON=1 $(BIN)/python -m pytest $(PYTEST_ARGS) tests/engine
	$(MAKE) test-rllib

# The RLlib tests fail instead of skipping here (CCG_ENV_REQUIRE_RLLIB); one Ray session at a time, so no workers.
test-rllib: build venv-rllib
	CCG_ENV_REQUIRE_RLLIB=1 $(VENV_RLLIB)/bin/python -m pytest -q -p no:xdist tests/rllib
	$(VENV_RLLIB)/bin/python -m pytest $(PYTEST_ARGS) tests/env

# Every speed script; the mutation tooling (mutation_*.py, mutmut_plugin.py) has targets of its own below.
bench: build
	@set -e; for script in benchmarks/*.py; do \
		[ -e "$$script" ] || { echo "no benchmarks yet"; break; }; \
		case "$$script" in benchmarks/mutation_*|benchmarks/mutmut_*) continue;; esac; \
		echo "== $$script"; $(BIN)/python "$$script"; \
	done

# Mutation testing (slow, hours on one worker; not part of `make test`): mutmut 3 on the pure-Python engine and env
# core as configured in pyproject.toml's [tool.mutmut], one worker, then the score and survivors by module
# (benchmarks/README.md, "Mutation testing"). Each mutant's process is forked from a server that has imported the
# project and collected the tests (benchmarks/mutmut_plugin.py says when a mutant imports them afresh instead).
# mutmut resumes where a previous run stopped (its state is in mutants/).
# MUTANTS narrows a run to mutant names or patterns: make mutation MUTANTS='ccg_env.engine.systems.keywords*'
# (names and patterns re-run mutants that have a verdict; `benchmarks/mutation_report.py --not-run PATH` names the rest)
MUTANTS ?=
mutation: build
	CCG_ENV_PURE_PYTHON=1 $(BIN)/mutmut run --max-children 1 $(MUTANTS)
	$(BIN)/python benchmarks/mutation_report.py

# CI's fixed, seeded sample of the mutation run (a few minutes); fails when its score drops below the recorded one.
mutation-sample: build
	$(BIN)/python benchmarks/mutation_sample.py

# Release files in dist/: the sdist, then from it the wheel with the compiled engine (cp311-...-linux_x86_64) and the
# pure-Python wheel (py3-none-any, CCG_ENV_PURE_PYTHON=1: installs with no build step and no C compiler), each in an
# isolated build environment (setuptools and mypy from the package index, as pyproject.toml's [build-system] pins
# them). The stale egg-info goes first: setuptools would add the files its list remembers to the sdist.
wheels: venv
	rm -rf dist ccg_env.egg-info
	$(BIN)/python -m build --outdir dist .
	sdist_dir=$$(mktemp -d) && tar -xzf dist/ccg_env-*.tar.gz -C "$$sdist_dir" && \
		CCG_ENV_PURE_PYTHON=1 $(BIN)/python -m build --wheel --outdir dist "$$sdist_dir"/ccg_env-*; \
		status=$$?; rm -rf "$$sdist_dir"; exit $$status
	ls dist

# Each wheel installed into a fresh virtualenv outside the source tree (base dependencies from the package index, no C
# compiler on PATH) and run there: import, gymnasium.make, PettingZoo's api_test, an arena, ccg-env --help, the
# missing-extra refusal, README.md's Python blocks (tests/packaging/wheel_smoke.py). CI runs it.
wheel-smoke: wheels
	$(BIN)/python -m tests.packaging.wheel_smoke dist/*.whl
