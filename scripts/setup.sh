#!/usr/bin/env bash
# Create .venv and install unodsl with its test tools and the rl, openspiel, lsp, report, parquet, ray and web extras (tests/test_rl.py,
# tests/test_openspiel.py, tests/test_lsp.py, tests/test_web.py; open_spiel installs from a wheel) into it: once. A later run finds the
# install done for this pyproject.toml and touches neither pip nor the network, so it works
# offline; a changed pyproject.toml (new dependencies) installs again.
# The first run says what it does, one line a step and one a package, instead of a minute of silence.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.venv/.unodsl-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
start=$SECONDS
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv (the first time takes a minute or two: about 100 packages)"
    python3 -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import unodsl, pytest, hypothesis, pettingzoo, gymnasium, pyspiel, pygls, matplotlib, pyarrow, ray, starlette, uvicorn, httpx2, selenium, mcp, choix, Cython" 2>/dev/null; then
    echo "setup: upgrading pip"
    .venv/bin/python -m pip install --quiet --upgrade pip
    echo "setup: installing unodsl (editable) with the extras test, rl, openspiel, lsp, report, parquet, ray, web, web-test, mcp, ladder, compiled"
    # pip's own lines, one per package it fetches, then the install; the rest of its chatter is dropped.
    # The log keeps everything, for a failure.
    log=.venv/setup.log
    set +e
    .venv/bin/python -m pip install --progress-bar off -e ".[test,rl,openspiel,lsp,report,parquet,ray,web,web-test,mcp,ladder,compiled]" 2>&1 \
        | tee "$log" \
        | { grep --line-buffered -E '^(Collecting|Installing collected|Successfully installed)' \
            | sed -u -E 's/^Collecting ([^ ]+).*/  fetching \1/; s/^Installing collected packages:.*/  installing.../; s/^Successfully installed.*/  installed/'; true; }
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" != 0 ]; then
        echo "setup: pip failed (exit $status); the end of its output (all of it is in $log):" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
# Compile unodsl's bytecode now: an editable install does not, and where
# PYTHONDONTWRITEBYTECODE is set every run would compile the sources again.
.venv/bin/python -m compileall -q unodsl
if [ $((SECONDS - start)) -gt 2 ]; then
    echo "setup: ready in $((SECONDS - start)) s; run unodsl as .venv/bin/unodsl, or after '. .venv/bin/activate' as unodsl"
fi
