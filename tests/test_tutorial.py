"""The tutorial's finished house-rules file is checked, played and simulated."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import unodsl

EXAMPLE = "docs/examples/my-house.yaml"


def test_the_finished_file_in_the_tutorial_is_the_example_file():
    text = Path("docs/tutorial.md").read_text(encoding="utf-8")
    section = text.split("## 6. The finished file", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert block == Path(EXAMPLE).read_text(encoding="utf-8")


def test_example_checks_clean_and_plays():
    result = unodsl.check_file(EXAMPLE)
    assert result.diagnostics == []
    game = result.game
    assert len(game.deck) == 110
    swaps = 0
    for seed in range(60):
        state = game.new_game(4, seed=seed, record=True)
        rng = random.Random(seed)
        assert min(len(hand) for hand in state.hands) >= 8        # nothing shrinks a hand before turn one
        while not state.is_over:
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        swaps += sum("play wild_swap_hands" in line for line in state.log)
    assert swaps > 0


def test_example_simulates_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "unodsl.cli", "simulate", EXAMPLE, "-n", "200",
                          "--bots", "heuristic", "--seed", "1", "--json"],
                         capture_output=True, text=True, check=True).stdout
    summary = json.loads(out)
    assert summary["games"] == 200
    assert sum(seat["wins"] for seat in summary["seats"]) + summary["no_winner"] == 200


# ---------------------------------------------------------------------------
# Following the tutorial literally, in a fresh folder outside the clone

import os  # noqa: E402
import textwrap  # noqa: E402

import yaml  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
_STEP = re.compile(r"<!-- tutorial: ([^\n]*?) -->\n(?:```[a-z]*\n(.*?)```|((?:    [^\n]*\n)+))", re.S)


def _unodsl(args: list[str], cwd: Path, stdin: str = ""):
    return subprocess.run([sys.executable, "-m", "unodsl.cli", *args], capture_output=True, text=True, cwd=cwd,
                          input=stdin, timeout=600,
                          env=dict(os.environ, PYTHONPATH=str(REPO), UNODSL_NO_CACHE="1", NO_COLOR="1"))


def _run_commands(block: str, cwd: Path, unodsl=_unodsl) -> None:
    """Run each `unodsl ...` line; after a `$ unodsl ...` line, the lines up to the next command are its output."""
    lines = textwrap.dedent(block).splitlines()
    i = 0
    while i < len(lines):
        command = lines[i].removeprefix("$ ").split()
        assert command[0] == "unodsl", lines[i]
        expected = []
        i += 1
        while i < len(lines) and not lines[i].startswith(("$ ", "unodsl ")):
            expected.append(lines[i])
            i += 1
        stdin = "quit\n" if command[1] == "play" else ""
        result = unodsl(command[1:], cwd, stdin)
        shown = result.stdout + result.stderr
        assert "Traceback" not in shown
        if command[1] == "play":        # scripted: the game starts and `quit` leaves it
            assert result.stdout.startswith("The Garcias' house rules: 3 players"), shown
            assert re.search(r"your hand \(\d+\)", result.stdout) and "You left the game after" in result.stdout, shown
        elif expected:
            assert (result.stdout + result.stderr).splitlines() == expected or \
                result.stdout.splitlines() + result.stderr.splitlines() == expected, (command, shown)
        else:
            assert result.returncode == 0, (command, shown)


def test_the_tutorial_followed_literally_works_at_every_step(tmp_path):
    follow_tutorial(tmp_path / "my-uno")        # "mkdir my-uno && cd my-uno", outside the clone


def follow_tutorial(folder: Path, unodsl=_unodsl) -> None:
    """Do what docs/tutorial.md says, step by step, in `folder`, running its commands with `unodsl(args, cwd, stdin)`."""
    text = Path(REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    folder.mkdir()
    steps = 0
    for match in _STEP.finditer(text):
        directive, fenced, indented = match.group(1).split(), match.group(2), match.group(3)
        body = fenced if fenced is not None else indented
        kind = directive[0]
        steps += 1
        if kind == "create":
            (folder / directive[1]).write_text(body, encoding="utf-8")
        elif kind == "append":
            with open(folder / directive[1], "a", encoding="utf-8") as handle:
                handle.write(body)
        elif kind == "typo":                    # misspell a key, run what the page shows, put it back
            path, right, wrong = folder / directive[1], directive[2], directive[3]
            original = path.read_text(encoding="utf-8")
            path.write_text(original.replace(f"{right}:", f"{wrong}:", 1), encoding="utf-8")
            _run_commands(body, folder, unodsl)
            path.write_text(original, encoding="utf-8")
        elif kind == "on_play":                 # the card's on_play becomes the block shown
            path, card = folder / directive[1], directive[2]
            original = path.read_text(encoding="utf-8")
            head, rest = original.split(f"  {card}:\n", 1)
            before, after = rest.split("    on_play: |\n", 1)
            old_body = re.match(r"((?:      .*\n)+)", after).group(1)
            path.write_text(head + f"  {card}:\n" + before + "    on_play: |\n"
                            + textwrap.indent(body, "      ") + after[len(old_body):], encoding="utf-8")
        elif kind == "derive":                  # derive NEW from OLD without "LINE": copy, drop a line, add
            new, old = directive[1], directive[3]
            dropped = match.group(1).split('"')[1]
            kept = [line for line in (folder / old).read_text(encoding="utf-8").splitlines(keepends=True)
                    if line.rstrip("\n") != dropped]
            (folder / new).write_text("".join(kept) + body, encoding="utf-8")
        elif kind == "same-as":                 # the page's finished file says what the user's file says
            mine = yaml.safe_load((folder / directive[1]).read_text(encoding="utf-8"))
            shown = yaml.safe_load(body)
            shown.pop("description", None)
            assert mine == shown
        elif kind == "run":
            _run_commands(body, folder, unodsl)
        else:
            raise AssertionError(f"unknown tutorial directive {directive}")
    assert steps >= 15
    assert sorted(p.name for p in folder.iterdir()) == ["family.yaml", "garcia.yaml", "my-house.yaml"]


def test_the_tutorial_never_names_a_shipped_file_to_create():
    text = Path(REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    for match in re.finditer(r"<!-- tutorial: (create|append|derive) (\S+)", text):
        assert "/" not in match.group(2), match.group(0)
