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

# name: (variant, players, seat, seed, match, the script typed at the prompt[, the house rules included])
CASES = {
    # the first screens of a classic game: the narration, the hand grouped by color
    "classic-opening": ("variants/classic.yaml", 4, 0, 7, False, "1\n" * 6 + "quit\n"),
    # down to two cards: `play X uno` is choice 1, the plain play one number down; a wrong entry
    "classic-uno-default": ("variants/classic.yaml", 3, 0, 3, False, "99\n" + "1\n" * 12 + "quit\n"),
    # a match: the score table between rounds
    "classic-match-rounds": ("variants/classic.yaml", 3, 0, 3, True, "1\n" * 70 + "quit\n"),
    # What happened, told (issue 33 item 5); tests/test_screens.py holds each to the line it is kept for.
    # a flip: "all cards turned over", not "you received 7, you lost 7"; a single choice: Enter takes it
    "flip-turned-over": ("variants/flip.yaml", 3, 0, 2, False, "1\n" * 5 + "quit\n"),
    # the mercy rule names what knocked a player out; a draw until says what it looked for
    "no-mercy-knock-out": ("variants/no-mercy.yaml", 3, 0, 2, False, "1\n" * 6 + "quit\n"),
    # a draw until names what it looked for, and the drawer sees the cards turned up (Wild Color Roulette)
    "no-mercy-draw-until": ("variants/no-mercy.yaml", 3, 0, 7, False, "1\n" * 7 + "quit\n"),
    # the start card's effect, named on the start card's line
    "classic-start-card": ("variants/classic.yaml", 3, 0, 8, False, "1\n" + "quit\n"),
    # a stack that grows names who must answer it next
    "stacking-victim": ("variants/classic.yaml", 3, 0, 3, False, "1\n" * 2 + "quit\n", ("stacking-mattel",)),
    # a drawn card that must be played: no "keep", and no "choose [1-1]"
    "force-play-no-keep": ("variants/classic.yaml", 3, 0, 2, False, "1\n" * 6 + "quit\n", ("force-play",)),
    # a hand shown by a challenge: seen at turn N, gone once that player plays
    "classic-hand-seen": ("variants/classic.yaml", 3, 0, 1, False, "1\n" * 4 + "quit\n"),
    # the player forgets UNO and is caught: "p2 catches you without UNO: you draw 2"
    "classic-caught": ("variants/classic.yaml", 3, 0, 5, False, "1\n" * 5 + "2\n" + "1\n" * 2 + "quit\n"),
    # a card typed by name that may not be played says why (a strict restriction, a card that does not match)
    "no-bluffing-refused": ("variants/classic.yaml", 3, 0, 1, False,
                            "1\n" * 6 + "wild draw four\nYellow 5\n1\n" + "quit\n", ("no-bluffing",)),
}


def render_screen(name: str, fast: bool | None = None) -> str:
    """The screen of one case, as a player at a plain terminal sees it (and the summary on quit)."""
    path, players, seat, seed, match, script, *include = CASES[name]
    out = io.StringIO()
    try:
        play_terminal(load(path, fast=fast, include=include[0] if include else ()), players, seat, "heuristic", seed, match,
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
