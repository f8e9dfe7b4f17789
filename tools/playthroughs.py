"""Developer tool, not shipped: golden playthroughs (OpenSpiel style): a text trace of a fixed-seed game.

Each step shows the full state, the legal actions and the action applied, so a
rule change shows up as a text diff. Regenerate the committed traces with

    python -m tools.playthroughs --write
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import sys

from unodsl.check import load
from unodsl.cli.files import atomic_write

PLAYTHROUGH_DIR = os.path.join("tests", "playthroughs")
SEED = 20261130
MAX_STEPS = 400


def render_playthrough(path: str, players: int | None = None, seed: int = SEED, max_steps: int = MAX_STEPS,
                       fast: bool | None = None) -> str:
    """Play a seeded game with a seeded uniform policy and return its trace (`fast`: see Game)."""
    game = load(path, fast=fast)
    v = game.variant
    if players is None:
        players = v.allowed_players[0] if v.allowed_players else min(4, v.max_players)
    state = game.new_game(players, seed=seed)
    policy = random.Random(seed)
    lines = [f"variant: {v.name}", f"file: {path}", f"players: {players}", f"seed: {seed}", ""]
    step = 0
    while not state.is_over and step < max_steps:
        lines.extend(_describe(state))
        legal = state.legal_actions()
        lines.append(f"legal: {', '.join(legal)}")
        action = legal[policy.randrange(len(legal))]
        lines.append(f"apply: {action}")
        lines.append("")
        state.apply(action)
        step += 1
    if state.is_over:
        lines.append(f"over: winner {state.winner}, scores {state.scores}, stalled {state.stalled}")
    else:
        lines.append(f"stopped after {max_steps} steps")
        lines.extend(_describe(state))
    return "\n".join(lines) + "\n"


def _describe(state) -> list[str]:
    colors = state.current_color or "-"
    lines = [f"step {len(state.history)}: player {state.current_player} decides '{state.decision}'; "
             f"top {state.top_card}, color {colors}, direction {state.direction:+d}, "
             f"draw {len(state.draw_pile)}, discard {len(state.discard)}"]
    for seat in range(state.n):
        lines.append(f"  p{seat}: {' '.join(state.hand(seat)) or '(no cards)'}")
    extras = []
    if state.stack:
        extras.append(f"stack {state.stack}")
    if state.lock_owner >= 0:
        extras.append(f"lock {state.g.variant.colors[state.lock_color]} until p{state.lock_owner}")
    if state.vulnerable:
        extras.append(f"uno not called: {state.vulnerable}")
    if extras:
        lines.append("  " + "; ".join(extras))
    return lines


def trace_path(variant_path: str) -> str:
    """Where the committed trace of a variant lives."""
    name = os.path.splitext(os.path.basename(variant_path))[0]
    return os.path.join(PLAYTHROUGH_DIR, f"{name}.txt")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or rewrite the golden playthroughs.")
    parser.add_argument("variants", nargs="*", help="variant files (default: variants/*.yaml)")
    parser.add_argument("--write", action="store_true", help="rewrite tests/playthroughs/*.txt")
    args = parser.parse_args(argv)
    paths = args.variants or sorted(glob.glob("variants/*.yaml"))
    for path in paths:
        text = render_playthrough(path)
        if args.write:
            os.makedirs(PLAYTHROUGH_DIR, exist_ok=True)
            atomic_write(trace_path(path), text, force=True)       # --write regenerates the traces
            print(f"wrote {trace_path(path)}")
        else:
            sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
