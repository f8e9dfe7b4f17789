#!/usr/bin/env bash
# Create .venv (once) and install unodsl with its test tools into it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
# Compile unodsl's bytecode now: an editable install does not, and where
# PYTHONDONTWRITEBYTECODE is set every run would compile the sources again.
.venv/bin/python -m compileall -q unodsl
