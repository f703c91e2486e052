#!/usr/bin/env bash
# Install Kamishibai Studio into .venv without make: torch first (CPU build unless an
# NVIDIA GPU is found), then the studio. Usage: packaging/bootstrap.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"
pip=("$VENV/bin/python" -m pip install --quiet)
"$PYTHON" -m venv "$VENV"
"${pip[@]}" --upgrade pip
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    "${pip[@]}" torch
else
    "${pip[@]}" torch==2.13.0 || "${pip[@]}" torch --index-url https://download.pytorch.org/whl/cpu
fi
extra=""
[ "${1:-}" = "--dev" ] && extra="[dev]"
"${pip[@]}" -e ".${extra}"
echo "Installed. Run: $VENV/bin/kamishibai"
