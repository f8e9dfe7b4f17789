"""Piles of each player (`per_player: true`, named `stock of P`) and piles dealt as a round starts (`deal: N`)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lockstep import play_both_modes
from unodsl.agents.view import public_state
from unodsl.check import check_file, load
from unodsl.engine.game import Game
from unodsl.engine.savefile import InvalidState
from unodsl.engine.state import State
from unodsl.rulebook.narration import narrate

REPO = Path(__file__).resolve().parent.parent
CLASSIC = REPO / "variants" / "classic.yaml"
VARIANT = """\
unodsl: 1
name: Seat piles test
extends: {classic}
piles:
  stock: {{per_player: true, face: {face}, deal: 3}}
  bank: {{face: up}}
cards:
  skip:
    on_play: |
      skip next
      move 1 card from stock of self to stock of next
    on_start: nothing
  reverse:
    on_play: |
      reverse
      let nobody = choose player others where false
      move 2 cards from stock of nobody to bank
      self takes all of stock of nobody
      if count(stock of nobody) == 0 and count(cards of stock of nobody) == 0:
          next takes top of stock of next
    on_start: nothing
  number:
    on_play: |
      if card.number == 0:
          self puts 1 card on stock of self where card is number
      if card.number == 9 and top of stock of self.color == current:
          self takes all of stock of self
    on_start: nothing
"""


def _game(tmp_path, fast=True, face="down") -> Game:
    (tmp_path / "v.yaml").write_text(VARIANT.format(classic=CLASSIC, face=face), encoding="utf-8")
    return Game(load(str(tmp_path / "v.yaml"), str(tmp_path.anchor)).variant, fast=fast)


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def game(request, tmp_path):
    return _game(tmp_path, request.param)


def _at(g, hands, top, piles, **kw):
    placed = Counter(g.card_index[c] for cards in [*hands, [top], *piles.values()] for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    return g.position(hands, rest, [top], dealer=len(hands) - 1, turn=0, piles=piles, **kw)


def _names(g, cards):
    return [g.card_names[k] for k in cards]


def test_each_seat_at_the_table_is_dealt_its_own_pile_after_the_hands_and_the_start_card(game):
    assert game.pile_names[:3] == ("stock of p0", "stock of p1", "stock of p2")
    assert len(game.pile_names) == game.max_players + 1 and game.pile_names[-1] == "bank"
    state = game.new_game(3, seed=5)
    assert [len(state.piles[i]) for i in range(game.max_players)] == [3, 3, 3] + [0] * (game.max_players - 3)
    assert len(state.draw_pile) == len(game.deck) - 3 * 7 - 1 - 3 * 3
    held = Counter(state.draw_pile + state.discard + [k for h in state.hands for k in h]
                   + [k for pile in state.piles for k in pile])
    assert held == Counter(game.deck)


def test_a_face_down_pile_of_each_player_shows_its_size_only_its_owner_too(game):
    state = game.new_game(3, seed=5)
    for seat in range(3):
        assert state.observation(seat)["piles"] == {"stock of p0": 3, "stock of p1": 3, "stock of p2": 3, "bank": []}
        assert public_state(state, seat)["piles"][:3] == [3, 3, 3]


def test_a_face_up_pile_of_each_player_shows_its_cards_to_everyone(tmp_path):
    g = _game(tmp_path, face="up")
    state = g.new_game(2, seed=5)
    assert state.observation(1)["piles"]["stock of p0"] == sorted(_names(g, state.piles[0]))


def test_the_pile_named_with_its_owner_is_that_players(game):
    s = _at(game, [["red_skip", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_9",
            {"stock of p0": ["blue_5", "green_6"], "stock of p1": ["yellow_7"]})
    s.apply("play red_skip")
    assert _names(game, s.piles[0]) == ["blue_5"] and _names(game, s.piles[1]) == ["yellow_7", "green_6"]
    assert s.piles[2] == [] and s.current_player == 2


def test_a_pile_of_no_player_is_empty_and_takes_nothing(game):
    s = _at(game, [["red_reverse", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_9",
            {"stock of p0": ["blue_5"], "stock of p2": ["yellow_7", "wild"]})
    s.apply("play red_reverse")       # reversed: next is p2, who takes the top of their own pile
    assert _names(game, s.hands[2]) == ["green_3", "yellow_3", "wild"]
    assert _names(game, s.piles[0]) == ["blue_5"] and _names(game, s.piles[2]) == ["yellow_7"]
    assert s.piles[game.pile_names.index("bank")] == []


def test_a_pick_and_a_top_card_read_the_players_own_pile(game):
    s = _at(game, [["red_0", "blue_1", "wild"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_9",
            {"stock of p0": ["blue_5"]})
    s.apply("play red_0")
    assert s.legal_actions() == ["put blue_1"]
    s.apply("put blue_1")
    assert _names(game, s.piles[0]) == ["blue_5", "blue_1"]
    s = _at(game, [["red_9", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_4",
            {"stock of p0": ["blue_5", "red_3"], "stock of p1": ["red_7"]})
    s.apply("play red_9")            # the top of p0's own pile is red, the color in play
    assert _names(game, s.hands[0]) == ["blue_1", "red_3", "blue_5"] and s.piles[0] == []   # top first


def test_saves_keep_each_seats_pile_and_check_them(game):
    state = game.new_game(3, seed=9)
    for _ in range(12):
        state.apply_id(state.legal_action_ids()[0])
    text = state.to_json()
    assert State.from_json(game, text).to_json() == text
    saved = json.loads(text)
    assert len(saved["piles"]) == game.max_players + 1
    saved["piles"] = saved["piles"][:3]
    with pytest.raises(InvalidState, match=f"field 'piles' must have {game.max_players + 1} entries, not 3"):
        State.from_json(game, json.dumps(saved))


@pytest.mark.parametrize("face", ["down", "up"])
def test_both_modes_play_the_same_games(tmp_path, face):
    fast, reference = _game(tmp_path, True, face), _game(tmp_path, False, face)
    for seed in range(12):
        play_both_modes(fast, reference, 2 + seed % 3, seed)


def test_the_shipped_stockpile_plays_the_same_games_in_both_modes():
    path = str(REPO / "variants" / "house-rules" / "stockpile.yaml")
    fast, reference = load(path, fast=True), load(path, fast=False)
    out = 0
    for seed in range(24):
        out += sum(play_both_modes(fast, reference, 2 + seed % 4, seed).eliminated)
    assert out > 0                          # a stockpile runs out in some of them


def test_the_narration_names_whose_pile(tmp_path):
    g = _game(tmp_path, fast=False)
    s = _at(g, [["red_skip", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_9",
            {"stock of p0": ["blue_5", "green_6"]}, record=True)
    s.apply("play red_skip")
    lines = narrate(s.events_for(1), 1, g)
    assert any("1 card moves from p0's stock pile to your stock pile" in line for line in lines), lines


def test_the_rulebook_says_each_player_has_a_pile(tmp_path):
    from unodsl.rulebook.document import render_rulebook
    text = render_rulebook(_game(tmp_path))
    assert "Each player also has a stock pile of their own, dealt 3 cards from the deck" in text
    assert "from the top of your stock pile to the next player's stock pile" in text


def _codes(tmp_path, piles: str, effect: str) -> list[str]:
    path = tmp_path / "x.yaml"
    path.write_text(f"unodsl: 1\nname: X\nextends: {CLASSIC}\npiles: {piles}\ncards:\n  skip:\n    on_play: |\n"
                    + "".join(f"      {line}\n" for line in effect.splitlines()), encoding="utf-8")
    return [f"{d.code} {d.message}" for d in check_file(str(path), root=str(tmp_path.anchor)).errors]


def test_a_pile_of_each_player_is_named_with_its_owner(tmp_path):
    piles = "{stock: {per_player: true, face: down}, bank: {face: up}}"
    assert _codes(tmp_path, piles, "self takes 1 card from stock") == [
        "E557 'stock' is each player's own pile: say whose ('stock of self', 'stock of next')"]
    assert _codes(tmp_path, piles, "next takes top of bank of next") == [
        "E557 'bank' is one pile for the whole table: name it without 'of' ('bank'), or declare it per_player: true"]
    assert _codes(tmp_path, piles, "move 1 card from stok of self to bank") == [
        "E502 unknown pile 'stok' (did you mean 'stock'?)"]
    assert _codes(tmp_path, piles, "if count(cards of stock) > 1:\n    skip next") == [
        "E557 'stock' is each player's own pile: say whose ('stock of self', 'stock of next')"]
    assert _codes(tmp_path, piles, "if count(stock of self) > count(cards of stock of next where card is wild):\n"
                                   "    skip next") == []


def test_a_pile_of_each_player_is_not_played_on(tmp_path):
    assert _codes(tmp_path, "{lane: {per_player: true, face: up, playable: true}}", "skip next") == [
        "E329 the pile 'lane' is each player's own and playable: a pile of each player is not played on yet "
        "(declare one shared playable pile, or take cards from it)"]
