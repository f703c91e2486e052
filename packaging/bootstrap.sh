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
# Writes $VENV/.installed, and $VENV/.engines-installed when the engines are in.
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

# ${a[@]+"${a[@]}"}: an empty array expands to nothing; a bare "${a[@]}" is an "unbound variable"
# under set -u in bash before 4.4 (macOS ships 3.2)
"$PYTHON" packaging/check_system.py setup ${check_args[@]+"${check_args[@]}"} --again "packaging/bootstrap.sh"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
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
        else  # no route to the PyTorch index (an offline mirror of PyPI): its pinned CPU wheel
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
[ "$engines" = 1 ] && touch "$VENV/.engines-installed"
echo "Installed. Run: $VENV/bin/kamishibai"
