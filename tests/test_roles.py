"""Seats with roles (issue 29, item 8): `roles:` given by seat or at random as a match begins, read by
`role of P is NAME`; their diagnostics, the observation, the narration, saves and the rulebook, in both modes.

The rules themselves (a role read in an effect, `players where role of player is NAME`) are scenarios:
tests/scenarios/roles.yaml.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from unodsl.check import check_file
from unodsl.engine import Game, InvalidState, State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

VARIANT = """\
unodsl: 1
name: Roles (unit test)
extends: classic
roles:
  given: {given}
  names:
    captain: {{summary: Leads the crew.}}
    mate: {{}}
    crew: {{seats: 8}}
cards:
  skip:
    on_play: |
      skip next
      if role of next is captain:
          next draws 1
"""


def _check(tmp_path, text: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_file(str(path))


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def fast(request):
    return request.param


def _game(tmp_path, given: str, fast: bool) -> Game:
    result = _check(tmp_path, VARIANT.format(given=given))
    assert [d.header() for d in result.diagnostics] == []
    return Game(result.game.variant, fast=fast)


def test_by_seat_the_roles_go_round_in_their_order(tmp_path, fast):
    game = _game(tmp_path, "seat", fast)
    for seed in range(3):
        assert game.new_game(4, seed=seed).roles == [0, 1, 2, 2]
    assert game.new_game(2, seed=0).observation(1)["roles"] == ["captain", "mate"]


def test_at_random_the_same_roles_change_seats_with_the_seed(tmp_path, fast):
    game = _game(tmp_path, "random", fast)
    seen = set()
    for seed in range(30):
        roles = game.new_game(4, seed=seed).roles
        assert Counter(roles) == Counter([0, 1, 2, 2])
        assert game.new_game(4, seed=seed).roles == roles          # the seed replays them
        seen.add(tuple(roles))
    assert len(seen) > 4


def test_both_modes_seat_the_same_roles_and_play_the_same_game(tmp_path):
    games = [_game(tmp_path, "random", fast) for fast in (True, False)]
    for seed in range(4):
        states = [g.new_game(3, seed=seed) for g in games]
        for s in states:
            s.play_out()
        assert states[0].to_json() == states[1].to_json()


def test_every_seat_sees_every_role_and_is_told_them_as_the_match_begins(tmp_path, fast):
    game = _game(tmp_path, "random", fast)
    state = game.new_game(3, seed=5, record=True)
    names = ["captain", "mate", "crew"]
    roles = [names[r] for r in state.roles]
    for seat in range(3):
        assert state.observation(seat)["roles"] == roles
    captain = roles.index("captain")
    told = narrate(state.events_for(captain), captain, game)
    assert "your role for the match is captain" in told
    other = (captain + 1) % 3
    assert f"p{captain}'s role for the match is captain" in narrate(state.events_for(other), other, game)


def test_roles_are_kept_through_the_rounds_of_a_match(tmp_path, fast):
    game = _game(tmp_path, "random", fast)
    state = game.new_game(3, seed=2, match=True)
    roles = list(state.roles)
    while not state.is_over and state.round < 3:
        state.apply_id(state.legal_action_ids()[0])
    assert state.round >= 2 and state.roles == roles


def test_a_save_keeps_the_roles_and_refuses_a_role_not_declared_or_held_too_often(tmp_path, fast):
    game = _game(tmp_path, "random", fast)
    state = game.new_game(4, seed=1)
    data = json.loads(state.to_json())
    assert sorted(data["roles"]) == ["captain", "crew", "crew", "mate"]
    assert State.from_json(game, state.to_json()).roles == state.roles
    data["roles"][0] = "cook"
    with pytest.raises(InvalidState, match=r'roles\[0\]. is "cook", not a role of this variant'):
        State.from_json(game, json.dumps(data))
    data["roles"] = ["captain", "captain", "crew", "crew"]
    with pytest.raises(InvalidState, match="gives role 'captain' to 2 seats, more than its 1"):
        State.from_json(game, json.dumps(data))


def test_a_variant_without_roles_saves_what_it_saved_before(tmp_path):
    import unodsl
    assert "roles" not in json.loads(unodsl.load("classic").new_game(2, seed=3).to_json())


def test_a_position_takes_roles_by_name(tmp_path, fast):
    game = _game(tmp_path, "seat", fast)
    hands = [["red_1"], ["blue_1"], ["green_1"]]
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in ["red_1", "blue_1", "green_1", "red_5"])
    state = game.position(hands, sorted(rest.elements()), ["red_5"], dealer=2, roles=["crew", "captain", "mate"])
    assert state.roles == [2, 0, 1]
    with pytest.raises(ValueError, match="unknown role 'cook'"):
        game.position(hands, sorted(rest.elements()), ["red_5"], dealer=2, roles=["crew", "cook", "mate"])


def test_too_few_seats_for_the_players_is_e370(tmp_path):
    text = VARIANT.format(given="seat").replace("crew: {seats: 8}", "crew: {seats: 7}")
    result = _check(tmp_path, text)
    assert [d.header().split(":", 1)[1] for d in result.diagnostics] == [
        "6:3: E370 the roles give 9 seats a role, but up to 10 players play: give a role more seats (seats: N)"]


def test_an_unknown_role_is_e502_with_a_did_you_mean(tmp_path):
    result = _check(tmp_path, VARIANT.format(given="seat").replace("role of next is captain", "role of next is captian"))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("E502", "unknown role 'captian' (did you mean 'captain'?)")]
    without = "unodsl: 1\nname: No roles\nextends: classic\ncards:\n  skip:\n    on_play: |\n      skip next\n" \
              "      if role of next is captain:\n          next draws 1\n"
    result = _check(tmp_path, without, "w.yaml")
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("E502", "unknown role 'captain': the variant declares no roles (roles: names:)")]


def test_a_wrong_given_is_a_schema_error_not_a_traceback(tmp_path):
    result = _check(tmp_path, VARIANT.format(given="chosen"))
    assert [(d.code, d.message) for d in result.diagnostics] == [("E203", "'chosen' is not one of seat, random")]


def test_the_rulebook_says_how_roles_are_given_and_what_they_are(tmp_path):
    game = _game(tmp_path, "random", True)
    book = render_rulebook(game)
    assert ("Each player holds a role for the whole match. As it begins, the roles are taken in this order, as many "
            "as there are players: the captain, then the mate, then the crew (up to 8 players); they are given to "
            "the players at random.") in book
    assert "| captain | Leads the crew. |" in book
    assert "If the next player's role is the captain, the next player draws 1 card." in book
