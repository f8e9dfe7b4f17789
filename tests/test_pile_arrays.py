"""Arrays of piles (`count: N`): one pile of it named by its number (`lane 2`, `lane i`), `for each i in lane:`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lockstep import play_both_modes
from unodsl.check import check_file, load
from unodsl.engine.game import Game
from unodsl.engine.savefile import InvalidState
from unodsl.engine.state import State
from unodsl.rulebook.narration import action_from_words, choice_words

REPO = Path(__file__).resolve().parent.parent
CLASSIC = REPO / "variants" / "classic.yaml"
VARIANT = """\
unodsl: 1
name: Pile arrays test
extends: {classic}
piles:
  lane: {{count: 3, face: up, playable: true}}
  vault: {{count: 2, face: down, deal: 2}}
cards:
  skip:
    on_play: |
      skip next
      for each i in lane:
          if count(lane i) > 1 and top of lane i.color == current:
              move 1 card from lane i to vault 1
    on_start: nothing
  reverse:
    on_play: |
      reverse
      for each i in vault:
          self puts 1 card on vault i
    on_start: nothing
  number:
    on_play: |
      let n = card.number
      if count(cards of lane n where card is wild) > 0 or count(lane 7) > 0:
          self takes all of lane n
    on_start: nothing
"""


def _game(tmp_path, fast=True) -> Game:
    (tmp_path / "v.yaml").write_text(VARIANT.format(classic=CLASSIC), encoding="utf-8")
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


def test_each_pile_of_an_array_is_a_pile_of_its_own_named_by_its_number(game):
    assert game.pile_names == ("lane 1", "lane 2", "lane 3", "vault 1", "vault 2")
    state = game.new_game(3, seed=4)
    assert [len(cards) for cards in state.piles] == [0, 0, 0, 2, 2]
    assert state.observation(1)["piles"] == {"lane 1": [], "lane 2": [], "lane 3": [], "vault 1": 2, "vault 2": 2}
    assert set(state.observation(1)["play_piles"]) == {"lane 1", "lane 2", "lane 3"}


def test_a_play_names_the_pile_of_the_array_by_its_number(game):
    s = _at(game, [["red_3", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "green_9",
            {"lane 2": ["red_7"]})
    assert "play red_3 on lane 2" in s.legal_actions() and "play blue_1 on lane 1" in s.legal_actions()
    assert "play blue_1 on lane 2" not in s.legal_actions()
    s.apply("play red_3 on lane 2")
    assert _names(game, s.piles[1]) == ["red_7", "red_3"] and s.observation(0)["pile_in_play"] == "lane 2"
    assert game.action_to_string(game.action_from_string("play red_3 uno on lane 3")) == "play red_3 uno on lane 3"
    words = choice_words(game, "play red_3 uno on lane 3")
    assert words == "play Red 3 on the lane 3 pile and call UNO"
    assert action_from_words(game, words) == "play red_3 uno on lane 3"


def test_for_each_walks_the_piles_of_the_array_in_order(game):
    s = _at(game, [["red_skip", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]], "red_9",
            {"lane 1": ["blue_4", "red_5"], "lane 2": ["green_6"], "lane 3": ["yellow_2", "red_8"]})
    s.apply("play red_skip")
    assert _names(game, s.piles[0]) == ["red_5"] and _names(game, s.piles[2]) == ["red_8"]
    assert _names(game, s.piles[3]) == ["blue_4", "yellow_2"] and s.current_player == 2


def test_a_number_read_at_play_names_the_pile_and_a_number_outside_names_none(game):
    s = _at(game, [["red_2", "blue_1"], ["red_1", "red_4"], ["green_3", "yellow_3"]], "red_9",
            {"lane 2": ["wild", "blue_4"], "lane 1": ["green_5"]})
    s.apply("play red_2")                     # lane 2 holds a wild: taken whole, top card included
    assert _names(game, s.hands[0]) == ["blue_1", "blue_4", "wild"] and s.piles[1] == []   # top first
    s = _at(game, [["green_3", "blue_1"], ["red_1", "red_4"], ["green_3", "yellow_3"]], "green_9",
            {"lane 1": ["wild"]})
    s.apply("play green_3")                   # lane 3 has no wild, and lane 7 is no pile: nothing taken
    assert _names(game, s.hands[0]) == ["blue_1"] and _names(game, s.piles[0]) == ["wild"]


def test_a_save_paused_inside_a_walk_of_the_array_loads_and_goes_on(game):
    s = _at(game, [["red_reverse", "blue_1", "green_2", "yellow_2"], ["red_1", "red_4"], ["green_3", "yellow_3"]],
            "red_9", {})
    s.apply("play red_reverse")
    assert s.decision == "put"
    s.apply("put blue_1")
    text = s.to_json()
    loaded = State.from_json(game, text)
    assert loaded.to_json() == text and sorted(loaded.legal_actions()) == ["put green_2", "put yellow_2"]
    loaded.apply("put green_2")
    assert _names(game, loaded.piles[3])[-1] == "blue_1" and _names(game, loaded.piles[4])[-1] == "green_2"
    saved = json.loads(text)
    frame = saved["frames"][-1] if "frames" in saved else None
    assert frame is not None and [1, 2] in frame, frame        # the walk's numbers, a local of kind NUMBERS
    frame[frame.index([1, 2])] = [0, 2]
    with pytest.raises(InvalidState, match="less than 1"):
        State.from_json(game, json.dumps(saved))


def test_both_modes_play_the_same_games(tmp_path):
    fast, reference = _game(tmp_path, True), _game(tmp_path, False)
    for seed in range(16):
        play_both_modes(fast, reference, 2 + seed % 3, seed)


def test_the_rulebook_says_the_array_and_its_walk(tmp_path):
    from unodsl.rulebook.document import render_rulebook
    text = render_rulebook(_game(tmp_path))
    assert "The table also has 3 lane piles, numbered 1 to 3, each empty at the start of each round" in text
    assert ("For each lane pile in turn, from 1 to 3, if the number of cards in that lane pile is more than 1"
            in text)
    assert "1 card moves from the top of that lane pile to the vault 1 pile" in text


def _messages(tmp_path, piles: str, effect: str) -> list[str]:
    path = tmp_path / "x.yaml"
    path.write_text(f"unodsl: 1\nname: X\nextends: {CLASSIC}\npiles: {piles}\ncards:\n  skip:\n    on_play: |\n"
                    + "".join(f"      {line}\n" for line in effect.splitlines()), encoding="utf-8")
    return [f"{d.line}:{d.column}: {d.code} {d.message}" for d in check_file(str(path), root=str(tmp_path.anchor)).errors]


def test_an_array_is_named_with_a_number_and_a_single_pile_without(tmp_path):
    piles = "{lane: {count: 3, face: up}, bank: {face: up}}"
    assert _messages(tmp_path, piles, "self takes 1 card from lane") == [
        "8:7: E557 'lane' is an array of 3 piles: say which ('lane 1' to 'lane 3')"]
    assert _messages(tmp_path, piles, "next takes top of bank 2") == [
        "8:25: E557 'bank' is one pile, not an array of piles: name it without a number ('bank'), or declare it "
        "count: N"]
    assert _messages(tmp_path, piles, "move 1 card from lan 2 to bank") == [
        "8:24: E502 unknown pile 'lan' (did you mean 'lane'?)"]
    assert _messages(tmp_path, piles, "if count(lane red) > 0:\n    skip next") == [
        "8:21: E501 expected a number, got a color"]
    assert _messages(tmp_path, piles, "for each i in lane:\n    if count(lane i) > count(cards of lane 1):\n"
                                      "        move 1 card from lane i to bank") == []


def test_an_array_of_piles_of_each_player_is_refused(tmp_path):
    assert _messages(tmp_path, "{own: {per_player: true, count: 2, face: down}}", "skip next") == [
        "4:40: E328 the pile 'own' is each player's own and an array of 2: a pile of each player is one pile "
        "per player"]
