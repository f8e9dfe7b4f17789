"""Both engine modes proven equal on the language, not only on the shipped files (issue 28, deliverable 7).

Every example of docs/language.md is played in lockstep with the reference mode (`GameChecker`: the same
legal actions, the same state at every step, the same final state, save/load and clone on the way, cards
conserved):

- every `effect` example placed on a card (the Skip's `on_play`, or where its fence's words say: `on_start`,
  `on_stack`), on the variant its words name (classic, classic in teams, flip);
- every `condition` example as a card's strict restriction;
- every complete variant (a `yaml` block with `unodsl:`), as it is.

The shipped variants and house rules are played so in tests/test_modes.py, and generated variants from the
fuzz templates in tests/test_fuzz_games.py (200 by default, 20,000 with UNODSL_FUZZ=long). Games per example
and player count: UNODSL_MODE_GAMES (default 1).
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
import yaml

from unodsl.check import check_file
from unodsl.engine import Game

from test_docs import LANGUAGE, _blocks, docs_workspace
from test_fuzz_games import GameChecker

REPO = Path(__file__).resolve().parent.parent
GAMES = int(os.environ.get("UNODSL_MODE_GAMES", "1"))

# Where an example goes, by its fence's words: (the base variant, the card, the card's key).
BASES = {"flip": "flip.yaml", "teams": "_docs_teams.yaml"}
CARD = {"flip.yaml": "skip"}


def _indent(text: str, by: int) -> str:
    return textwrap.indent(text.rstrip("\n"), " " * by)


def _on_a_card(kind: str, info: tuple[str, ...], body: str) -> tuple[str, str]:
    """(file name, text) of a variant that puts the example on a Skip, extending the variant it was written for."""
    base = next((BASES[w] for w in info if w in BASES), "classic.yaml")
    lines = ["unodsl: 1", "name: Example on a card", f"extends: {base}"]
    if kind == "condition":
        card = f"    restriction: |\n{_indent(body, 6)}\n    restriction_check: strict"
    else:
        key = "on_start" if "on_start" in info else "on_stack" if "on_stack" in info else "on_play"
        card = f"    {key}: |\n{_indent(body, 6)}"
        if key == "on_stack":
            lines.append("stacking: {answer: any_draw}")
    lines += ["cards:", f"  {CARD.get(base, 'skip')}:", card]
    return base, "\n".join(lines) + "\n"


def _cases() -> list:
    cases = []
    for kind, info, body, line in _blocks(LANGUAGE):
        if kind in ("effect", "condition") and "uno_catch" not in info:
            cases.append(pytest.param(kind, info, body, id=f"line{line}-{kind}"))
        elif kind == "yaml":
            data = yaml.safe_load(body)
            if isinstance(data, dict) and "unodsl" in data:
                cases.append(pytest.param(kind, info, body, id=f"line{line}-variant"))
    return cases


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A copy of variants/ with the teams variant and every `file=` example written into it (as test_docs)."""
    return docs_workspace(tmp_path_factory.mktemp("lockstep"))


def test_every_kind_of_example_is_played():
    kinds = {case.values[0] for case in _cases()}
    assert kinds == {"effect", "condition", "yaml"}
    assert len(_cases()) >= 80


@pytest.mark.parametrize("kind, info, body", _cases())
def test_both_modes_play_the_same_games_of_each_example(workspace, monkeypatch, kind, info, body):
    monkeypatch.chdir(workspace)
    folder = workspace / "variants"
    names = [w[len("file="):] for w in info if w.startswith("file=")]
    if kind == "yaml":
        path = folder / (names[0] if names else f"_example_{abs(hash(body))}.yaml")
        if not names:
            path.write_text(body, encoding="utf-8")
    else:
        _, text = _on_a_card(kind, info, body)
        path = folder / f"_on_a_card_{abs(hash(body))}.yaml"
        path.write_text(text, encoding="utf-8")
    result = check_file(str(path.relative_to(workspace)))
    assert [d.header() for d in result.diagnostics if d.severity == "error"] == [], path.read_text(encoding="utf-8")
    game = result.game
    checker = GameChecker(game, Game(game.variant, game.ruling_overrides, fast=False), f"{path.name}:\n{body}")
    v = game.variant
    counts = list(v.allowed_players or range(v.min_players, v.max_players + 1))
    for n in sorted({counts[0], counts[-1]}):
        for seed in range(GAMES):
            checker.play(n, seed)
    assert checker.actions > 0
