"""The compile step: the engine builds games from parsed variants and never runs the parser itself."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from unodsl.check import check_file, load
from unodsl.effects.parse import with_syntax
from unodsl.engine import Game
from unodsl.engine.program import NotParsed
from unodsl.rulebook.document import render_rulebook

REPO = Path(__file__).resolve().parent.parent


def test_a_game_of_an_unparsed_variant_says_how_to_parse_it():
    variant = dataclasses.replace(check_file(str(REPO / "variants" / "classic.yaml")).variant, syntax=None)
    with pytest.raises(NotParsed, match="with_syntax"):
        Game(variant)
    game = Game(with_syntax(variant))
    assert game.ok and len(game.codes) == 9


def test_the_engine_loads_neither_lark_nor_the_parser():
    code = ("import sys, unodsl.engine, unodsl.engine.savefile, unodsl.engine.program; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark' or m == 'unodsl.effects.parse'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"


def test_each_text_is_parsed_once(monkeypatch):
    from unodsl.effects import parse as P
    calls = []
    real = P.parse

    def counting(text, start="effect"):
        calls.append(id(text))
        return real(text, start)
    monkeypatch.setattr(P, "parse", counting)
    result = check_file(str(REPO / "variants" / "classic.yaml"))
    from unodsl.rulebook.document import render_rulebook
    render_rulebook(result.game)
    Game(result.variant, fast=False)
    assert calls and len(calls) == len(set(calls)) == len(result.variant.syntax.texts)



@pytest.mark.parametrize("condition, always", [("true", True), ("(true)", True), ("not false", True),
                                               ("rule.open_draw", True), ("false", False),
                                               ("hand(next) == 1", False)])
def test_whether_a_draw_is_always_allowed_is_decided_from_the_compiled_condition(tmp_path, condition, always):
    # Read from the condition's compiled constant, not its text: `(true)` or a ruling that holds are always too,
    # and the rulebook says so.
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Draws\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    f"turn: {{may_draw_if: '{condition}'}}\n"
                    "rulings: {open_draw: {value: true, summary: Draw at any time.}}\n", encoding="utf-8")
    game = load(str(path), root="/")
    assert game.may_always_draw is always
    assert ("You may also draw one card instead of playing" in render_rulebook(game)) is always
