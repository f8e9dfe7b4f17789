"""`P takes top of PILE` and `P takes all of PILE`: a pile's top card itself, or the whole pile, top included."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from unodsl.check import check_file, load
from unodsl.engine.game import Game

REPO = Path(__file__).resolve().parent.parent
VARIANT = """\
unodsl: 1
name: Take piles test
extends: {classic}
piles:
  beside: {{face: up, playable: true}}
  bank: {{face: down}}
cards:
  skip:
    on_play: |
      skip next
      self takes top of beside
  reverse:
    on_play: |
      reverse
      next takes all of bank
      next takes all of beside
"""


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def game(request, tmp_path):
    (tmp_path / "v.yaml").write_text(VARIANT.format(classic=REPO / "variants" / "classic.yaml"), encoding="utf-8")
    return Game(load(str(tmp_path / "v.yaml"), str(tmp_path.anchor)).variant, fast=request.param)


def _at(g, hands, top, piles, **kw):
    placed = Counter(g.card_index[c] for cards in [*hands, [top], *piles.values()] for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    return g.position(hands, rest, [top], dealer=len(hands) - 1, turn=0, piles=piles, **kw)


def _names(g, cards):
    return sorted(g.card_names[k] for k in cards)


def test_taking_the_top_card_of_a_pile_played_on_shows_the_card_under_it(game):
    st = _at(game, [["red_skip", "blue_1"], ["red_1", "red_2"], ["red_3"]], "red_9",
             {"beside": ["green_4", "wild", "blue_5"]})
    st.apply("play red_skip")
    assert "blue_5" in _names(game, st.hands[0])
    assert [game.card_names[k] for k in st.piles[0]] == ["green_4", "wild"]
    assert st.pile_colors[0] == -1                  # a wild on top: no color named there
    assert st.current_player == 2 and "play red_3 on beside" in st.legal_actions()


def test_taking_a_whole_pile_takes_its_top_card_too(game):
    st = _at(game, [["red_reverse", "blue_1"], ["red_1", "red_2"], ["red_3"]], "red_9",
             {"beside": ["green_4", "blue_5"], "bank": ["yellow_1"]})
    st.apply("play red_reverse")
    taker = 2                                       # reversed: the next player is the one before
    assert {"green_4", "blue_5", "yellow_1"} <= set(_names(game, st.hands[taker]))
    assert st.piles == [[], []] and st.pile_colors[0] == -1


def test_the_discard_piles_top_card_is_never_taken(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: D\nextends: {REPO / 'variants' / 'classic.yaml'}\ncards:\n"
                    "  skip:\n    on_play: self takes top of discard\n", encoding="utf-8")
    codes = [d.code for d in check_file(str(path), root=str(tmp_path.anchor)).errors]
    assert codes == ["E552"]
