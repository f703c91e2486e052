#!/usr/bin/env bash
# Install Kamishibai Studio into .venv (what `make` runs; works without make too).
#
#   packaging/bootstrap.sh [--dev] [--engines] [--cluster] [--yes]
#
#   --dev      the test and lint tools too (pytest, ruff, import-linter, ...), and Ray for
#              the render farm's tests (the `cluster` extra)
#   --engines  the model engines' libraries: torch, transformers, diffusers, peft
#   --cluster  Ray, to render on a cluster (`kamishibai run-queue --cluster`, docs/CLUSTER.md)
#   --yes      install missing system packages (python3-venv) without asking
#
# torch is installed only when an engine that needs it can run: the `engines` extra comes
# in when it is asked for (--engines, or ENGINES=1 in the environment) or when checkpoints/
# holds model weights (any *.safetensors file below it). The sketch engine, the default,
# needs neither. torch goes in before the extra so that pip keeps the build chosen here: a
# CPU build (from the PyTorch CPU index, TORCH_CPU_INDEX) unless `nvidia-smi -L` finds an
# NVIDIA GPU, then PyPI's default CUDA build.
#
# Writes $VENV/.installed, $VENV/.dev-installed with --dev, and $VENV/.engines-installed when
# the engines are in (the Makefile's stamps).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"
TORCH_CPU_INDEX="${TORCH_CPU_INDEX:-https://download.pytorch.org/whl/cpu}"

dev=0
engines=0
cluster=0
case "${ENGINES:-}" in 1 | yes | true) engines=1 ;; esac
check_args=()
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1 ;;
        --engines) engines=1 ;;
        --cluster) cluster=1 ;;
        --yes) check_args+=(--yes) ;;
        *) echo "usage: packaging/bootstrap.sh [--dev] [--engines] [--cluster] [--yes]" >&2; exit 2 ;;
    esac
done

weights=$(find checkpoints -name '*.safetensors' -print -quit 2>/dev/null || true)
if [ "$engines" = 0 ] && [ -n "$weights" ]; then
    echo "Model weights found ($weights): installing the engines' libraries (torch and friends)."
    engines=1
fi

# The Python the studio needs (pyproject.toml's requires-python), checked before anything runs
# with it: an older one used to pass the system check, get a .venv, and fail only at the last
# step ("requires a different Python"), leaving a .venv that every later run reused.
MIN_PYTHON=3.11
# "MAJOR.MINOR" of a Python, or nothing; the code runs on any Python, 2.7 included.
python_version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true; }
recent_enough() {
    local major=${1%%.*} minor=${1#*.}
    [ "$major" -gt "${MIN_PYTHON%%.*}" ] || { [ "$major" = "${MIN_PYTHON%%.*}" ] && [ "$minor" -ge "${MIN_PYTHON#*.}" ]; }
}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "$PYTHON not found. Kamishibai Studio needs Python $MIN_PYTHON or newer: install it (Debian and Ubuntu:" \
         "sudo apt-get install python3), or name one with PYTHON=/path/to/python3 packaging/bootstrap.sh." >&2
    exit 1
fi
found=$(python_version "$PYTHON")
if [ -z "$found" ] || ! recent_enough "$found"; then
    echo "Kamishibai Studio needs Python $MIN_PYTHON or newer; $PYTHON is ${found:-not a Python it can run}." \
         "Install a newer one (e.g. python3.11 or python3.12) and run: PYTHON=python3.12 packaging/bootstrap.sh" \
         "(make: make run PYTHON=python3.12)." >&2
    exit 1
fi

# ${a[@]+"${a[@]}"}: an empty array expands to nothing; a bare "${a[@]}" is an "unbound variable"
# under set -u in bash before 4.4 (macOS ships 3.2)
"$PYTHON" packaging/check_system.py setup ${check_args[@]+"${check_args[@]}"} --again "packaging/bootstrap.sh"
if [ -x "$VENV/bin/python" ]; then  # made by an earlier run: kept, when it can still be used
    found=$(python_version "$VENV/bin/python")
    if [ -z "$found" ] || ! recent_enough "$found"; then
        echo "$VENV holds Python ${found:-that does not run}, and Kamishibai Studio needs $MIN_PYTHON or newer." \
             "Remove it (rm -rf $VENV, or make clean-venv) and run this again." >&2
        exit 1
    fi
else
    "$PYTHON" -m venv "$VENV"
fi
# A .venv without pip: made by a run that stopped in `python3 -m venv` (Debian without
# python3-venv leaves bin/python behind), or with --without-pip. ensurepip puts it back.
if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    echo "$VENV has no pip: installing it with ensurepip."
    if ! "$VENV/bin/python" -m ensurepip --upgrade >/dev/null; then
        echo "Could not install pip into $VENV. Remove it (rm -rf $VENV, or make clean-venv) and run this again." >&2
        exit 1
    fi
fi
pip=("$VENV/bin/python" -m pip install --quiet)
"${pip[@]}" --upgrade pip

extras=()
[ "$dev" = 1 ] && extras+=(dev cluster)  # the tests run a local Ray cluster
[ "$dev" = 0 ] && [ "$cluster" = 1 ] && extras+=(cluster)
if [ "$engines" = 1 ]; then
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
        echo "NVIDIA GPU found: installing torch with CUDA."
        "${pip[@]}" torch
    else
        echo "No NVIDIA GPU: installing the CPU build of torch."
        cpu_host=$(printf '%s' "$TORCH_CPU_INDEX" | sed -E 's#^[a-z]+://([^/:]+).*#\1#')
        if "$VENV/bin/python" -c "import socket, sys; socket.getaddrinfo(sys.argv[1], 443)" "$cpu_host" 2>/dev/null; then
            "${pip[@]}" torch --index-url "$TORCH_CPU_INDEX"
        else
            # No route to the PyTorch index (a machine that reaches only a mirror of PyPI, or pip's
            # find-links): torch 2.13.0 from the index pip is configured with, whatever build that
            # index holds. A mirror that carries the CPU wheel (2.13.0+cpu) gives the CPU build; PyPI
            # itself has no CPU-only Linux wheel, so reaching PyPI alone gives the larger CUDA build.
            echo "$cpu_host can't be reached: installing torch==2.13.0 from the configured package index."
            "${pip[@]}" "torch==2.13.0"
        fi
    fi
    extras+=(engines)
fi
extras_list=$(IFS=,; echo ${extras[@]+"${extras[*]}"})
spec="."
if [ -n "$extras_list" ]; then spec=".[$extras_list]"; fi
"${pip[@]}" -e "$spec"

touch "$VENV/.installed"
[ "$dev" = 1 ] && touch "$VENV/.dev-installed"
[ "$engines" = 1 ] && touch "$VENV/.engines-installed"
echo "Installed. Run: $VENV/bin/kamishibai"
