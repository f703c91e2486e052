# Set-up and everyday commands. `make run` opens the studio on the sample project;
# `make test` runs the whole test suite. Both create .venv on first use, and first check
# the system packages they need (packaging/system-packages.txt): missing ones are installed
# with apt-get after asking (YES=1: without asking), or the check stops with the command
# to run.
#
# Variables: PYTHON (python3), VENV (.venv), YES=1 (install system packages without asking),
# ENGINES=1 (install torch and the model engines' libraries; automatic for `make test`,
# and for `make run` once checkpoints/ holds *.safetensors weights).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ENGINES_STAMP := $(VENV)/.engines-installed
DIST_STAMP := $(VENV)/.dist-installed
SAMPLE := projects/sample.kamishibai
SYSTEM_PACKAGES ?= packaging/system-packages.txt
CHECK = $(PYTHON) packaging/check_system.py --list $(SYSTEM_PACKAGES) $(if $(filter 1 yes true,$(YES)),--yes)
BOOTSTRAP = PYTHON=$(PYTHON) VENV=$(VENV) packaging/bootstrap.sh $(if $(filter 1 yes true,$(YES)),--yes)
WEIGHTS := $(shell find checkpoints -name '*.safetensors' 2>/dev/null)
INSTALLED := $(STAMP) $(if $(or $(filter 1 yes true,$(ENGINES)),$(WEIGHTS)),$(ENGINES_STAMP))

# The system check must come first, before the long install: no parallel prerequisites.
.NOTPARALLEL:
.PHONY: run test lint bench dist icons sample system-run system-test clean-venv

# the message names the command the user typed (`make dist` and `make bench` check as `make run` does)
system-run:
	@$(CHECK) run --again "make $(or $(MAKECMDGOALS),run)"

system-test:
	@$(CHECK) test --again "make test"

$(STAMP): pyproject.toml packaging/bootstrap.sh
	$(BOOTSTRAP) --dev

$(ENGINES_STAMP): $(STAMP) $(WEIGHTS)
	$(BOOTSTRAP) --dev --engines

$(DIST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,dist]"
	touch $@

# Asked every time: an intact sample (edited or not) is kept as it is; a damaged one (a crash
# cut it short, another file took its name) is renamed sample.damaged-DATE.kamishibai and
# built again, where `make run` used to fail to open it.
sample: | $(INSTALLED)
	$(VENV)/bin/kamishibai sample --keep-intact $(SAMPLE)

run: system-run $(INSTALLED) sample
	$(VENV)/bin/kamishibai open $(SAMPLE)

lint: $(STAMP)
	$(VENV)/bin/ruff check studio tests packaging
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# The tests run every engine's CPU tests (tiny random models), so they need the engines' libraries.
test: system-test $(ENGINES_STAMP) lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

# The app icon at 16-512 px from packaging/io.kamishibai.Studio.svg, in build/icons/hicolor
# (`make dist` puts them in dist/kamishibai/share/icons).
icons: system-run $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) packaging/make_icons.py build/icons

# A one-folder PyInstaller build: dist/kamishibai/ (try `dist/kamishibai/kamishibai --version`).
dist: system-run $(DIST_STAMP)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/kamishibai.spec

# Benchmarks (rewrite docs/BENCHMARKS.md); tests/bench/bench_dist.py builds the app as
# `make dist` does and starts it.
bench: system-run $(INSTALLED) $(DIST_STAMP)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/kamishibai bench

clean-venv:
	rm -rf $(VENV)
