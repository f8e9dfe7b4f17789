"""`P draws until COND`: a draw that stops at the first card meeting a condition on that card."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from unodsl.check import check_file, load
from unodsl.rulebook.document import render_rulebook
from unodsl.scenarios import run_scenario_files

REPO = Path(__file__).resolve().parent.parent

# A Skip that makes the next player draw until a card of the current color (after a color choice).
VARIANT = """\
    unodsl: 1
    extends: classic.yaml
    name: Draw to the color
    cards:
      skip:
        on_play: |
          choose color
          next draws until drawn.color == current
          skip next
"""

SCENARIOS = """\
    variant: v.yaml
    scenarios:
      - name: the draw stops at the first card of the color, and every card drawn is kept
        given: {hands: [[red_skip, red_2], [green_1], [yellow_1, yellow_2]], top: red_5, turn: 0,
                draw_pile: [blue_7, wild, green_8, yellow_9, blue_3]}
        actions: [play red_skip, color yellow]
        expect: {hands: [[red_2], [blue_7, green_1, green_8, wild, yellow_9], [yellow_1, yellow_2]],
                 turn: 2, color: yellow}
      - name: a wild drawn has no color, so it does not stop the draw
        given: {hands: [[red_skip, red_2], [green_1], [yellow_1, yellow_2]], top: red_5, turn: 0,
                draw_pile: [wild, wild_draw_four, blue_4]}
        actions: [play red_skip, color blue]
        expect: {hands: [[red_2], [blue_4, green_1, wild, wild_draw_four], [yellow_1, yellow_2]]}
"""


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


@pytest.fixture
def variant(tmp_path):
    shutil.copy(REPO / "variants" / "classic.yaml", tmp_path / "classic.yaml")
    return _write(tmp_path, "v.yaml", VARIANT)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_the_draw_stops_at_the_first_card_meeting_the_condition(tmp_path, variant, fast):
    report = run_scenario_files([_write(tmp_path, "s.yaml", SCENARIOS)], fast=fast)
    assert report.lines() == ["2 passed, 0 failed"]


def test_the_rulebook_says_what_stops_the_draw(variant):
    book = render_rulebook(load(variant))
    assert ("The next player draws cards one at a time, keeping them all, until the color of the card just "
            "drawn is the current color (or no card is left to draw).") in book


def test_drawn_outside_the_condition_is_an_error(tmp_path, variant):
    text = Path(variant).read_text().replace("next draws until drawn.color == current",
                                             "if drawn is wild: skip next")
    Path(variant).write_text(text)
    result = check_file(variant, root=str(tmp_path))
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(8, 10, "E508")]
    assert "known only in the condition of 'P draws until ...'" in result.diagnostics[0].message


def test_the_condition_is_type_checked(tmp_path, variant):
    text = Path(variant).read_text().replace("drawn.color == current", "drawn.colour == current")
    Path(variant).write_text(text)
    result = check_file(variant, root=str(tmp_path))
    assert [d.code for d in result.diagnostics] == ["E502"]
    assert "did you mean 'color'" in result.diagnostics[0].message
