"""A round won by a rule (round.win_when): a pile running out ends the round. Its events and words, the
rulebook, its diagnostics, that the fast paths settle for it, and both engine modes in lockstep.

The rules themselves are scenarios: tests/scenarios/win-when.yaml over tests/scenarios/variants/win-when.yaml.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.engine import events as E
from unodsl.engine.state import State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

from lockstep import play_both_modes

VARIANT = Path(__file__).parent / "scenarios" / "variants" / "win-when.yaml"
REPO = Path(__file__).resolve().parent.parent
HANDS = [["blue_1", "green_2"], ["red_1", "red_2"], ["green_3", "yellow_3"]]
STOCKS = {"stock of p0": [], "stock of p1": ["red_6"], "stock of p2": ["yellow_6"]}


def _position(game, hands, stocks, top="red_9", turn=0, record=True):
    """Hands, stockpiles and a top card as given, the rest of the deck the draw pile (blue_7 on top)."""
    placed = Counter(game.card_index[c] for c in [*sum(hands, []), *sum(stocks.values(), []), top, "blue_7"])
    rest = sorted((Counter(game.deck) - placed).elements())
    return game.position(hands, [*rest, game.card_index["blue_7"]], [top], dealer=(turn - 1) % len(hands),
                         turn=turn, record=record, piles=stocks)


@pytest.fixture(scope="module")
def game():
    return unodsl.load(str(VARIANT))


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "fast"])
def test_a_plain_draw_settles_and_the_drawer_wins(game, record):
    """A turn's plain draw: the fast draw (Game.simple_draw) ends a turn without settling, so it is off."""
    state = _position(game, HANDS, STOCKS, record=record)
    state.apply("draw")
    assert state.over and state.round_winner == 0 and len(state.hands[0]) == 3
    assert not game.simple_draw and not any(game.plain)


def test_the_round_over_event_and_its_words(game):
    state = _position(game, [["red_3", "blue_1"], *HANDS[1:]], {**STOCKS, "stock of p0": ["green_8"]})
    state.apply("play red_3")
    over = [e for e in state.events if e.kind == E.ROUND_OVER]
    assert [(e.player, e.name) for e in over] == [(0, "rule")]
    assert ("--- round 1 is over, by the round's winning rule: p0 wins it (scores: p0 9, p1 0, p2 0) ---"
            in narrate(state.events_for(1), 1, game))
    loaded = State.from_json(game, state.to_json())        # a round won so is saved and loaded as any
    assert loaded.round_winner == 0 and loaded.over


def test_without_the_rule_the_round_goes_on(tmp_path):
    (tmp_path / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT.read_text(encoding="utf-8").replace("../../../variants/classic.yaml", "classic.yaml")
                    .replace("  win_when: count(stock of self) == 0\n", "  max_turns: 100\n"), encoding="utf-8")
    plain = unodsl.load(str(path))
    state = _position(plain, HANDS, STOCKS)
    state.apply("draw")
    assert not state.over and state.round_winner is None and len(state.hands[0]) == 3


def test_the_rulebook_says_it(game):
    assert ("As soon as the number of cards in your stock pile is 0, you win the round, with the cards you hold"
            in render_rulebook(game))


def test_a_wrong_name_is_located(tmp_path):
    (tmp_path / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: T\nextends: classic.yaml\npiles:\n  stock: {per_player: true}\n"
                    "round:\n  win_when: count(stok of self) == 0\n", encoding="utf-8")
    found = [d.header() for d in check_file(str(path), str(tmp_path)).diagnostics]
    assert found == [f"{path}:7:19: E502 unknown pile 'stok' (did you mean 'stock'?)"]


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2), (5, 3), (3, 4), (2, 5)])
def test_both_modes_play_a_won_round_the_same(players, seed):
    fast, reference = unodsl.load(str(VARIANT)), unodsl.load(str(VARIANT), fast=False)
    play_both_modes(fast, reference, players, seed)


def test_random_games_end_by_the_rule(game):
    """Over random games the rule is what ends most rounds (each player's stockpile runs out first)."""
    by_rule = 0
    for seed in range(40):
        state = game.new_game(3, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.over:
            state.apply_id(rng.choice(state.legal_action_ids()))
        by_rule += [e.name for e in state.events if e.kind == E.ROUND_OVER] == ["rule"]
    assert by_rule >= 30
