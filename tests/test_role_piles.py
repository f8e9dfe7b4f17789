"""Piles of each role (issue 29, item 8): `per_role: true` gives each role of `roles:` its own pile, named by the
role (`armory of captain`) or by a player's role (`armory of role of P`); their diagnostics, the deal, the
observation, saves, the narration and the rulebook, in both modes. The rules themselves are scenarios:
tests/scenarios/role-piles.yaml."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from unodsl.check import check_file
from unodsl.engine import Game, State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

VARIANT = """\
unodsl: 1
name: Armory (unit test)
extends: classic
roles:
  names:
    captain: {}
    mate: {}
    crew: {seats: 8}
piles:
  armory: {per_role: true, face: up, deal: 3}
cards:
  skip:
    on_play: |
      skip next
      if count(armory of role of self) > 0:
          self takes top of armory of role of self
      move 1 card from armory of crew to armory of captain
"""

BAD = """\
unodsl: 1
name: Bad
extends: classic
roles:
  names:
    captain: {}
    crew: {seats: 9}
piles:
  armory: {per_role: true, face: up}
  both: {per_role: true, per_player: true}
  lanes: {per_role: true, count: 2}
  bank: {face: up}
cards:
  skip:
    on_play: |
      self takes 1 card from armory of captian
      self takes 1 card from armory of self
      self takes 1 card from armory
      self takes 1 card from bank of role of self
      self takes 1 card from armoury of role of self
"""


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def fast(request):
    return request.param


def _check(tmp_path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return check_file(str(path))


def _game(tmp_path, fast: bool) -> Game:
    result = _check(tmp_path, VARIANT)
    assert [d.header() for d in result.diagnostics] == []
    return Game(result.game.variant, fast=fast)


def test_misuse_is_located_with_a_did_you_mean(tmp_path):
    found = [d.header() for d in _check(tmp_path, BAD).diagnostics]
    assert any(":10:" in h and "E372" in h and "per_player: true" in h for h in found)
    assert any(":11:" in h and "E372" in h and "count: 2" in h for h in found)
    assert any(":16:" in h and "E502 unknown role 'captian' (did you mean 'captain'?)" in h for h in found)
    assert any(":17:" in h and "E557 'armory' is each role's own pile: name the role" in h for h in found)
    assert any(":18:" in h and "E557 'armory' is each role's own pile: say which" in h for h in found)
    assert any(":19:" in h and "E557 'bank' is not a pile of each role" in h for h in found)
    assert any(":20:" in h and "E502 unknown pile of each role 'armoury' (did you mean 'armory'?)" in h
               for h in found)
    no_roles = "unodsl: 1\nname: N\nextends: classic\npiles:\n  armory: {per_role: true}\n"
    assert [d.header().split(": ", 1)[1] for d in _check(tmp_path, no_roles).diagnostics] == [
        "E371 the pile 'armory' is each role's own, but the variant declares no roles (roles: names:)"]


def test_each_role_held_is_dealt_its_pile_named_by_the_role(tmp_path, fast):
    game = _game(tmp_path, fast)
    assert game.pile_names == ("armory of captain", "armory of mate", "armory of crew")
    two = game.new_game(2, seed=3)                     # captain and mate: the crew's pile is dealt nothing
    assert [len(p) for p in two.piles] == [3, 3, 0]
    four = game.new_game(4, seed=3)
    assert [len(p) for p in four.piles] == [3, 3, 3]
    seen = four.observation(1)["piles"]
    assert set(seen) == {"armory of captain", "armory of mate", "armory of crew"}
    assert all(len(cards) == 3 for cards in seen.values())


def _play(game: Game, seed: int):
    state = game.new_game(3, seed=seed)
    rng, log = random.Random(seed), []
    while not state.over and len(log) < 300:
        action = rng.choice(state.legal_actions())
        log.append(action)
        state.apply(action)
    return state, log


def test_both_modes_play_the_same_games_and_saves_keep_the_piles(tmp_path):
    fast_game, reference = _game(tmp_path, True), _game(tmp_path, False)
    for seed in range(6):
        a, log_a = _play(fast_game, seed)
        b, log_b = _play(reference, seed)
        assert log_a == log_b and a.piles == b.piles
        assert json.loads(a.to_json()) == json.loads(b.to_json())
        assert State.from_json(fast_game, a.to_json()).piles == a.piles


def test_the_narration_names_the_role_whose_pile(tmp_path):
    g = _game(tmp_path, fast=False)
    hands = [["red_skip", "blue_1"], ["red_1", "red_2"], ["green_3", "yellow_3"]]
    piles = {"armory of captain": ["blue_5"], "armory of crew": ["green_6", "yellow_6"]}
    placed = Counter(g.card_index[c] for cards in [*hands, ["red_9"], *piles.values()] for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    s = g.position(hands, rest, ["red_9"], dealer=2, turn=0, piles=piles, record=True)
    s.apply("play red_skip")
    lines = narrate(s.events_for(1), 1, g)
    assert any("from the captain's armory pile" in line for line in lines), lines
    assert any("1 card moves from the crew's armory pile to the captain's armory pile" in line
               for line in lines), lines


def test_the_rulebook_says_each_role_has_a_pile(tmp_path):
    text = render_rulebook(_check(tmp_path, VARIANT).game)
    assert "Each role also has an armory pile of its own, dealt 3 cards" in text
    assert "the armory pile of your role" in text
    assert "from the top of the crew's armory pile to the captain's armory pile" in text
