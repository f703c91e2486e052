#!/usr/bin/env bash
# Install Kamishibai Studio into .venv without make: torch first (CPU build unless an
# NVIDIA GPU is found), then the studio. Usage: packaging/bootstrap.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    .venv/bin/python -m pip install --quiet torch
else
    .venv/bin/python -m pip install --quiet torch==2.13.0 \
        || .venv/bin/python -m pip install --quiet torch --index-url https://download.pytorch.org/whl/cpu
fi
extra=""
[ "${1:-}" = "--dev" ] && extra="[dev]"
.venv/bin/python -m pip install --quiet -e ".${extra}"
echo "Installed. Run: .venv/bin/kamishibai"
