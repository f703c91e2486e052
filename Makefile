# Set-up and everyday commands: `make` (or `make help`) lists them. `make run` opens the
# studio on the sample project; `make test` runs the whole test suite. Both create .venv on
# first use (`make run` without the test and lint tools, which `make test`, `make lint` and
# `make bench` add the first time one of them runs), and first check
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
DEV_STAMP := $(VENV)/.dev-installed
ENGINES_STAMP := $(VENV)/.engines-installed
DIST_STAMP := $(VENV)/.dist-installed
SAMPLE := projects/sample.kamishibai
SYSTEM_PACKAGES ?= packaging/system-packages.txt
CHECK = $(PYTHON) packaging/check_system.py --list $(SYSTEM_PACKAGES) $(if $(filter 1 yes true,$(YES)),--yes)
BOOTSTRAP = PYTHON=$(PYTHON) VENV=$(VENV) packaging/bootstrap.sh $(if $(filter 1 yes true,$(YES)),--yes)
# Whether checkpoints/ holds weights (the first *.safetensors found): their presence asks for the
# engines' libraries, never their times (a converted or copied weights file reinstalled them).
WEIGHTS := $(shell find checkpoints -name '*.safetensors' -print -quit 2>/dev/null)
INSTALLED := $(STAMP) $(if $(or $(filter 1 yes true,$(ENGINES)),$(WEIGHTS)),$(ENGINES_STAMP))

# The system check must come first, before the long install: no parallel prerequisites.
.NOTPARALLEL:
.DEFAULT_GOAL := help
.PHONY: help run test lint bench dist icons sample system-run system-test clean-venv

# One line a target; `make` alone prints it.
help:
	@echo "Kamishibai Studio: make TARGET [YES=1] [ENGINES=1] [PYTHON=python3.12]"
	@echo "  run        open the studio on the sample project (installs .venv on first use)"
	@echo "  test       lint, import contracts and the whole test suite, headless (adds the test tools and engines)"
	@echo "  lint       ruff, the import contracts and mypy"
	@echo "  bench      run the benchmarks and rewrite docs/BENCHMARKS.md (builds the app as dist does)"
	@echo "  dist       build the one-folder app in dist/kamishibai/ with PyInstaller"
	@echo "  icons      draw the app icon at 16-512 px into build/icons/hicolor"
	@echo "  sample     build (or keep, when intact) the sample project, projects/sample.kamishibai"
	@echo "  clean-venv remove .venv (the next command installs it again)"
	@echo "  help       this list"
	@echo "YES=1: install missing system packages without asking; ENGINES=1: install torch and the engines' libraries."

# the message names the command the user typed (`make dist` and `make bench` check as `make run` does)
system-run:
	@$(CHECK) run --again "make $(or $(MAKECMDGOALS),run)"

system-test:
	@$(CHECK) test --again "make test"

# Each stamp hangs on pyproject.toml and bootstrap.sh alone, never on another stamp: every run of
# bootstrap.sh touches .installed, which would make the others look out of date and install again.
# bootstrap.sh installs the engines by itself when checkpoints/ holds weights, and writes their stamp.
$(STAMP): pyproject.toml packaging/bootstrap.sh
	$(BOOTSTRAP)

# the test and lint tools (pytest, ruff, mypy, ...) and Ray for the render farm's tests
$(DEV_STAMP): pyproject.toml packaging/bootstrap.sh
	$(BOOTSTRAP) --dev

$(ENGINES_STAMP): pyproject.toml packaging/bootstrap.sh
	$(BOOTSTRAP) --engines

$(DIST_STAMP): pyproject.toml | $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,dist]"
	touch $@

# Asked every time: an intact sample (edited or not) is kept as it is; a damaged one (a crash
# cut it short, another file took its name) is renamed sample.damaged-DATE.kamishibai and
# built again, where `make run` used to fail to open it.
sample: | $(INSTALLED)
	$(VENV)/bin/kamishibai sample --keep-intact $(SAMPLE)

run: system-run $(INSTALLED) sample
	$(VENV)/bin/kamishibai open $(SAMPLE)

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check studio tests packaging
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# The tests run every engine's CPU tests (tiny random models), so they need the engines' libraries.
test: system-test $(DEV_STAMP) $(ENGINES_STAMP) lint
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
bench: system-run $(INSTALLED) $(DEV_STAMP) $(DIST_STAMP)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/kamishibai bench

clean-venv:
	rm -rf $(VENV)
