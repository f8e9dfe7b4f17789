#!/usr/bin/env bash
# The test suite on a fresh machine: set up, then run pytest (the same command CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q "$@"
