"""Developer tool, not shipped: golden screens of the terminal game (`unodsl play`), byte for byte.

Each case plays a seeded game with a scripted stdin (plain text, no colours) and keeps the whole
screen, so a change to what the player reads shows up as a text diff. Regenerate the committed
screens with

    python -m tools.screens --write
"""

from __future__ import annotations

import argparse
import io
import os
import sys

from unodsl.check import load
from unodsl.cli.files import atomic_write
from unodsl.cli.terminal import GameAbandoned, InputEnded, play_terminal

SCREEN_DIR = os.path.join("tests", "screens")

# name: (variant, players, seat, seed, match, the script typed at the prompt)
CASES = {
    # the first screens of a classic game: the narration, the hand grouped by color
    "classic-opening": ("variants/classic.yaml", 4, 0, 7, False, "1\n" * 6 + "quit\n"),
    # down to two cards: `play X uno` is choice 1, the plain play one number down; a wrong entry
    "classic-uno-default": ("variants/classic.yaml", 3, 0, 3, False, "99\n" + "1\n" * 12 + "quit\n"),
    # a match: the score table between rounds
    "classic-match-rounds": ("variants/classic.yaml", 3, 0, 3, True, "1\n" * 70 + "quit\n"),
}


def render_screen(name: str, fast: bool | None = None) -> str:
    """The screen of one case, as a player at a plain terminal sees it (and the summary on quit)."""
    path, players, seat, seed, match, script = CASES[name]
    out = io.StringIO()
    try:
        play_terminal(load(path, fast=fast), players, seat, "heuristic", seed, match,
                      stdin=io.StringIO(script), stdout=out, color=False, interactive=False)
    except GameAbandoned as left:
        out.write(left.summary + "\n")
    except InputEnded:
        out.write("(input ended)\n")
    return out.getvalue()


def screen_path(name: str) -> str:
    """Where the committed screen of a case lives."""
    return os.path.join(SCREEN_DIR, f"{name}.txt")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or rewrite the golden terminal screens.")
    parser.add_argument("cases", nargs="*", help=f"cases (default: all of {', '.join(CASES)})")
    parser.add_argument("--write", action="store_true", help="rewrite tests/screens/*.txt")
    args = parser.parse_args(argv)
    for name in args.cases or list(CASES):
        if name not in CASES:
            parser.error(f"no case {name!r}")
        text = render_screen(name)
        if args.write:
            os.makedirs(SCREEN_DIR, exist_ok=True)
            atomic_write(screen_path(name), text, force=True)
            print(f"wrote {screen_path(name)}")
        else:
            sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
