#!/usr/bin/env bash
# The main job on a fresh machine: set up, check every shipped variant, simulate classic UNO.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/unodsl check variants/*.yaml variants/house-rules/*.yaml
.venv/bin/unodsl simulate variants/classic.yaml -n 1000 --players 4 --bots heuristic --seed 1 "$@"
echo
echo "unodsl is installed in .venv: run '. .venv/bin/activate' once in your shell, then 'unodsl play classic'"
echo "(or run .venv/bin/unodsl directly); 'unodsl --help' lists the commands, README.md says more."
