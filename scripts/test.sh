#!/usr/bin/env bash
# The test suite on a fresh machine: set up, then run pytest (the same command CI runs): once as
# the engine plays by default, then once more in its reference mode (UNODSL_FAST=0: every rule
# through its one general body, no fast path), which must pass the same. `-rs` ends each run with
# every skipped test and its reason (a missing optional tool, a run behind a variable).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q -rs "$@"
echo "--- the same suite in the engine's reference mode (UNODSL_FAST=0)"
UNODSL_FAST=0 .venv/bin/python -m pytest -q -rs "$@"
