# Set-up and everyday commands. `make run` opens the studio on the sample project;
# `make test` runs the whole test suite. Both create .venv on first use.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SAMPLE := projects/sample.kamishibai
TORCH_CPU_VERSION ?= 2.13.0

.PHONY: run test lint bench sample clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# torch first: a CUDA build only where an NVIDIA GPU is present, else the CPU build.
	@if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then \
		$(PY) -m pip install --quiet torch; \
	else \
		$(PY) -m pip install --quiet torch==$(TORCH_CPU_VERSION) || \
		$(PY) -m pip install --quiet torch --index-url https://download.pytorch.org/whl/cpu; \
	fi
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(SAMPLE): | $(STAMP)
	$(VENV)/bin/kamishibai sample $(SAMPLE)

sample: $(SAMPLE)

run: $(STAMP) $(SAMPLE)
	$(VENV)/bin/kamishibai open $(SAMPLE)

lint: $(STAMP)
	$(VENV)/bin/ruff check studio tests
	$(VENV)/bin/lint-imports

test: $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/kamishibai bench

clean-venv:
	rm -rf $(VENV)
