# Set-up and everyday commands. `make run` opens the studio on the sample project;
# `make test` runs the whole test suite. Both create .venv on first use.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SAMPLE := projects/sample.kamishibai

.PHONY: run test lint bench sample clean-venv

$(STAMP): pyproject.toml packaging/bootstrap.sh
	@# torch first (a CPU build unless an NVIDIA GPU is found), then the studio with its dev tools
	PYTHON=$(PYTHON) VENV=$(VENV) packaging/bootstrap.sh --dev
	touch $(STAMP)

$(SAMPLE): | $(STAMP)
	$(VENV)/bin/kamishibai sample $(SAMPLE)

sample: $(SAMPLE)

run: $(STAMP) $(SAMPLE)
	$(VENV)/bin/kamishibai open $(SAMPLE)

lint: $(STAMP)
	$(VENV)/bin/ruff check studio tests
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/kamishibai bench

clean-venv:
	rm -rf $(VENV)
