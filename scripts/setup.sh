#!/usr/bin/env bash
# Create .venv and install unodsl with its test tools and the rl, openspiel, lsp, report, parquet, ray and web extras (tests/test_rl.py,
# tests/test_openspiel.py, tests/test_lsp.py, tests/test_web.py; open_spiel installs from a wheel) into it: once. A later run finds the
# install done for this pyproject.toml and touches neither pip nor the network, so it works
# offline; a changed pyproject.toml (new dependencies) installs again.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.venv/.unodsl-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import unodsl, pytest, hypothesis, pettingzoo, gymnasium, pyspiel, pygls, matplotlib, pyarrow, ray, starlette, uvicorn, httpx2, selenium, mcp, choix" 2>/dev/null; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test,rl,openspiel,lsp,report,parquet,ray,web,web-test,mcp,ladder]"
    echo "$want" > "$stamp"
fi
# Compile unodsl's bytecode now: an editable install does not, and where
# PYTHONDONTWRITEBYTECODE is set every run would compile the sources again.
.venv/bin/python -m compileall -q unodsl
