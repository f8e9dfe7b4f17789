"""Piles filled by a condition (issue 29, item 3: a pile "filled at set-up with given card kinds"): a pile's
`where: COND` takes the deck's cards that meet COND before the hands are dealt, `deal: N` of them onto each
pile or all of them dealt round the piles; its diagnostics, the deal in both modes and under a chance player,
saves, the observation and the rulebook. The rules in play are scenarios: tests/scenarios/pile-where.yaml."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from unodsl.check import check_file
from unodsl.engine import Game, State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

from test_chance import natural_deal
from test_reliability import play_both_modes

VARIANT = """\
unodsl: 1
name: Wild bank (unit test)
extends: classic
piles:
  bank: {face: up, where: card is wild}
  reserve: {per_player: true, face: down, deal: 2, where: card is number and card.number >= 7}
  lane: {count: 3, face: up, where: card.type == "skip"}
  pot: {face: up, deal: 2}
cards:
  draw_two:
    on_play: |
      if count(reserve of next) > 0:
          next takes top of reserve of next
      next draws 2 and loses turn
"""


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def fast(request):
    return request.param


def _check(tmp_path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return check_file(str(path))


def _game(tmp_path, fast: bool, text: str = VARIANT) -> Game:
    result = _check(tmp_path, text)
    assert [d.header() for d in result.diagnostics] == []
    return Game(result.game.variant, fast=fast)


def _piles(game, state) -> dict:
    return {name: [game.card_names[k] for k in cards] for name, cards in zip(game.pile_names, state.piles)}


def _every_card(state) -> Counter:
    return Counter([*state.draw_pile, *state.discard, *(k for hand in state.hands for k in hand),
                    *(k for pile in state.piles for k in pile)])


@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_the_piles_hold_what_their_condition_takes_and_the_hands_are_full(tmp_path, fast, players):
    game = _game(tmp_path, fast)
    names = game.card_names
    for seed in range(8):
        state = game.new_game(players, seed=seed)
        piles = _piles(game, state)
        assert sorted(piles["bank"]) == ["wild"] * 4 + ["wild_draw_four"] * 4          # all of them
        reserves = [piles[f"reserve of p{p}"] for p in range(players)]
        assert all(len(r) == 2 and all(c.split("_")[1] in "789" for c in r) for r in reserves)
        lanes = [piles[f"lane {i}"] for i in (1, 2, 3)]
        assert sorted(len(lane) for lane in lanes) == [2, 3, 3]                          # 8 Skips, one at a time
        assert all(c.endswith("_skip") for lane in lanes for c in lane)
        # The pot is dealt after the start card from what is left: 108 - 36 filled - 7 a hand - 1 (one card at ten).
        assert len(piles["pot"]) == min(2, 108 - 36 - 7 * players - 1)
        # Every hand dealt in full (a Draw Two turned up adds two to one of them).
        sizes = sorted(len(h) for h in state.hands)
        assert sizes in ([7] * players, [7] * (players - 1) + [9])
        # No hand, no start card, no draw pile card is one the piles took all of.
        rest = [names[k] for k in [*state.draw_pile, *state.discard, *(k for h in state.hands for k in h)]]
        assert not any(c.startswith("wild") or c.endswith("_skip") for c in rest)
        assert _every_card(state) == Counter(game.deck)


def test_the_players_piles_are_filled_from_the_dealers_left_and_run_short_fairly(tmp_path):
    text = (VARIANT.replace("deal: 2, where: card is number and card.number >= 7", "where: card.type == \"wild_draw_four\"")
            .replace("where: card is wild}", "where: card.type == \"wild\"}"))
    game = _game(tmp_path, True, text)
    for seed in range(6):
        state = game.new_game(3, seed=seed)                     # four cards round three piles: 2, 1, 1
        sizes = [len(state.piles[game.pile_names.index(f"reserve of p{p}")]) for p in range(3)]
        assert sizes[(state.dealer + 1) % 3] == 2 and sorted(sizes) == [1, 1, 2]


def test_the_piles_never_take_the_cards_the_hands_need(tmp_path, fast):
    """Ten players need 71 cards of 108; a pile of every number card (76) takes only the 37 the deck can spare."""
    text = "unodsl: 1\nname: Greedy\nextends: classic\npiles:\n  hoard: {face: down, where: card is number}\n"
    game = _game(tmp_path, fast, text)
    for seed in range(4):
        state = game.new_game(10, seed=seed)
        assert [len(h) for h in state.hands] == [7] * 10 and len(state.discard) == 1
        assert len(state.piles[0]) == 108 - 71 and state.draw_pile == []
        assert all(game.card_names[k][-1].isdigit() for k in state.piles[0])
        assert _every_card(state) == Counter(game.deck)
    two = game.new_game(2, seed=1)
    assert len(two.piles[0]) == 76 and not any(game.card_names[k][-1].isdigit() for k in two.draw_pile)


def test_a_new_round_fills_the_piles_again(tmp_path, fast):
    game = _game(tmp_path, fast)
    state = game.new_game(3, seed=5, match=True)
    rng = random.Random(5)
    while state.round == 1 and not state.is_over:
        state.apply_id(rng.choice(state.legal_action_ids()))
    assert state.round == 2
    assert sorted(_piles(game, state)["bank"]) == ["wild"] * 4 + ["wild_draw_four"] * 4
    assert _every_card(state) == Counter(game.deck)


def test_both_modes_play_the_same_games_and_saves_keep_the_piles(tmp_path):
    game = _game(tmp_path, True)
    for seed in range(6):
        state = play_both_modes(game, 3, seed)
        assert State.from_json(game, state.to_json()).piles == state.piles


def test_a_chance_player_told_the_natural_outcomes_deals_the_seeded_deal(tmp_path):
    """Under engine/chance.py the filled piles' cards are asked for, each as likely as its share of the kinds."""
    game = _game(tmp_path, False)
    for seed in range(3):
        state, asked = natural_deal(game, 3, seed)
        assert json.loads(state.to_json()) == json.loads(game.new_game(3, seed=seed).to_json())
        # After the dealer's high cards, the bank's first card: a Wild or a Wild Draw Four, as likely.
        first = next(need for need in asked if game.card_names[need.outcomes[0][0]].startswith("wild"))
        assert sorted(game.card_names[k] for k, _ in first.outcomes) == ["wild", "wild_draw_four"]
        assert [p for _, p in first.outcomes] == [0.5, 0.5]


def test_the_observation_shows_a_face_up_pile_and_the_size_of_a_face_down_one(tmp_path):
    game = _game(tmp_path, True)
    state = game.new_game(3, seed=2)
    seen = state.observation(0)["piles"]
    assert sorted(seen["bank"]) == ["wild"] * 4 + ["wild_draw_four"] * 4      # face up: its cards
    assert [seen[f"reserve of p{p}"] for p in range(3)] == [2, 2, 2]         # face down: sizes, the owner's too


def test_misuse_is_located_with_a_did_you_mean(tmp_path):
    bad = ("unodsl: 1\nname: Bad\nextends: classic\nstate:\n  heat: {type: int, initial: 0}\npiles:\n"
           "  bank: {face: up, where: top is wild}\n"
           "  pot: {face: up, where: card.colr == red}\n"
           "  heap: {face: up, where: card.number > heat}\n"
           "  none: {face: up, where: card.number > 99}\n")
    found = [d.header().split(":", 1)[1] for d in _check(tmp_path, bad).diagnostics]
    assert found == [
        "7:27: E562 a pile's where: reads only card, colors, rulings and constants (the pile is filled as the "
        "round is dealt, before any card is in play)",
        "8:26: E502 cards have no attribute 'colr' (did you mean 'color'?)",
        "9:41: E562 a pile's where: reads only card, colors, rulings and constants (the pile is filled as the "
        "round is dealt, before any card is in play); 'heat' is a declared variable, whose value changes during "
        "the game",
        "10:27: W304 no card of the deck meets the where: of pile 'none': the pile is never filled from it"]


def test_the_rulebook_says_what_fills_each_pile(tmp_path):
    text = render_rulebook(_game(tmp_path, True))
    assert ("a bank pile, filled at the start of each round, before the hands are dealt, with all the deck's "
            "cards for which the card is a wild card") in text
    assert "with 2 cards taken at random from the deck's cards for which the card is a number card" in text
    assert "dealt round the piles one at a time" in text


def test_the_narration_says_what_filled_each_pile_as_the_round_is_dealt(tmp_path):
    game = _game(tmp_path, True)
    state = game.new_game(3, seed=2, record=True)
    lines = narrate(state.events_for(1), 1, game)
    assert lines[:3] == [
        "the bank pile is filled first, with the deck's cards for which the card is a wild card",
        "each player's reserve pile is filled first, with 2 of the deck's cards for which the card is a number card "
        "and the number on the card is at least 7",
        "the 3 lane piles are filled first, with the deck's cards for which the card is a Skip"]
