"""Choices (`P chooses:`) and chance (`random(A, B)`, `random NAME`): the decision, its actions, replays and bots.

The house rule Wild Roulette (variants/house-rules/wild-roulette.yaml) uses both: a Wild's
player chooses `spin` (the next player draws `random launcher`) or `pass`.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import unodsl
from unodsl.agents.bots import BOTS, make_bot
from unodsl.agents.view import SeatView
from unodsl.agents.worlds import Knowledge, WorldSampler
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.engine import events as E
from unodsl.engine.game import Game
from unodsl.engine.savefile import dump_state, load_state
from unodsl.runs.replay import game_log, replay_game

ROULETTE = "variants/house-rules/wild-roulette.yaml"
HANDS = [["wild", "red_2", "red_3"], ["blue_1", "blue_2", "blue_3"], ["green_2", "green_3", "green_4"]]


def _variant(tmp_path, body: str):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\n" + body, encoding="utf-8")
    return check_file(str(path))


def _first_decision(game, kind: str, seeds=range(200), players: int = 3):
    """A recorded game of `game` played by random choices up to its first decision of `kind`."""
    for seed in seeds:
        state = game.new_game(players, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.over:
            if state.decision == kind:
                return state
            legal = state.legal_action_ids()
            state.apply_id(legal[int(rng.random() * len(legal))])
    raise AssertionError(f"no '{kind}' decision in {len(seeds)} games")


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def roulette(request):
    return Game(unodsl.load(ROULETTE).variant, fast=request.param)


# --- the choice ---------------------------------------------------------------------------------


def test_the_option_actions_exist_only_in_a_variant_with_a_choice():
    classic = unodsl.load("variants/classic.yaml")
    game = unodsl.load(ROULETTE)
    assert classic.option_names == () and game.option_names == ("pass", "spin")
    assert game.num_actions == classic.num_actions + 2
    for name in ("pass", "spin"):
        action = game.action_from_string(f"option {name}")
        assert game.action_to_string(action) == f"option {name}"
    with pytest.raises(unodsl.IllegalAction):
        classic.action_from_string("option spin")


def test_a_choice_is_a_decision_of_its_player_and_its_option_runs(roulette):
    state = _first_decision(roulette, D.OPTION)
    chooser = state.current_player
    assert [roulette.action_to_string(a) for a in state.legal_action_ids()] == ["option pass", "option spin"]
    state.apply("option pass")
    assert state.decision == D.COLOR and state.current_player == chooser
    assert E.Event(E.CHOSE, chooser, name="pass") in state.events
    assert f"p{chooser}: option pass" in state.log


def test_an_option_is_offered_only_while_its_condition_holds(tmp_path):
    result = _variant(tmp_path, "cards:\n  wild:\n    on_play: |\n      self chooses:\n"
                                "          big if hand(self) > 5: next draws 1\n"
                                "          small: nothing\n          other if hand(next) > 0: skip next\n")
    assert result.errors == []
    game = result.game
    state = _first_decision(game, D.OPTION)
    offered = {game.action_to_string(a) for a in state.legal_action_ids()}
    assert "option small" in offered and "option other" in offered
    assert ("option big" in offered) == (len(state.hands[state.current_player]) > 5)


def test_a_lone_option_offered_runs_without_asking(tmp_path):
    result = _variant(tmp_path, "cards:\n  wild:\n    on_play: |\n      self chooses:\n"
                                "          never if false: nothing\n          spin: next draws 1\n")
    game = result.game
    state = game.new_game(3, seed=1, record=True)
    rng = random.Random(1)
    plays = 0
    while not state.over and plays < 300:
        assert state.decision != D.OPTION
        legal = state.legal_action_ids()
        state.apply_id(legal[int(rng.random() * len(legal))])
        plays += 1


def test_a_paused_choice_saves_loads_and_clones(roulette):
    state = _first_decision(roulette, D.OPTION)
    text = dump_state(state)
    back = load_state(roulette, text)
    assert dump_state(back) == text
    clone = state.clone()
    for copy in (back, clone, state):
        copy.apply("option spin")
    assert dump_state(back) == dump_state(clone) == dump_state(state)


@pytest.mark.parametrize("bad, message", [
    ("[[1, 1]]", "two options or more"),
    ("[[0, 1], [0, 3]]", "offers an option twice"),
    ("[[0, 1], [9, 3]]", "out of range"),
])
def test_a_saved_choice_must_offer_real_options(roulette, bad, message):
    import json
    state = _first_decision(roulette, D.OPTION)
    data = json.loads(dump_state(state))
    data["pending"][2] = json.loads(bad)
    with pytest.raises(unodsl.InvalidState, match=message):
        load_state(roulette, json.dumps(data))


def test_the_heuristic_takes_the_first_option_written(roulette):
    state = _first_decision(roulette, D.OPTION)
    bot = make_bot("heuristic", random.Random(0))
    assert roulette.action_to_string(bot.act(state)) == "option spin"       # written before `pass`


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_plays_a_game_with_choices(name):
    game = unodsl.load(ROULETTE)
    rng = random.Random(4)
    bot = make_bot(name if name not in ("pimc", "ismcts", "cheat") else f"{name}:4", rng)
    state = game.new_game(3, seed=4)
    decisions = 0
    while not state.over and decisions < 400:
        action = bot.act(state)
        assert action in state.legal_action_ids()
        state.apply_id(action)
        decisions += 1


def test_the_rl_action_table_names_options_only_where_the_variant_has_them():
    pytest.importorskip("numpy")
    from unodsl.rl.actions import ActionTable
    from unodsl.rl.observation import ObservationEncoder
    classic, roulette = unodsl.load("variants/classic.yaml"), unodsl.load(ROULETTE)
    assert not [label for label in ActionTable(classic, 3).labels if label.startswith("option")]
    assert ActionTable(roulette, 3).labels[-2:] == ("option pass", "option spin")
    assert D.OPTION not in ObservationEncoder(classic, 3).kinds
    assert D.OPTION in ObservationEncoder(roulette, 3).kinds


def test_the_rulebook_says_the_choice_and_the_chance():
    from click.testing import CliRunner
    from unodsl.cli.app import main
    out = CliRunner().invoke(main, ["rules", ROULETTE]).output
    assert "You choose one: spin: *Fire* (the target: the next player); pass: nothing happens." in out
    assert ("### Fire\n\nGiven a player (the target), the target draws a number of cards drawn at random from the "
            "launcher (0: 10 in 18, 1: 5 in 18, 2: 3 in 18).") in out


# --- chance -------------------------------------------------------------------------------------


def test_the_launcher_falls_by_its_weights():
    game = unodsl.load(ROULETTE)
    drawn = Counter()
    for seed in range(150):
        state = game.new_game(3, seed=seed, record=True)
        state.play_out(random.Random(seed).random)
        drawn.update(e.count for e in state.events if e.kind == E.RANDOM)
    total = sum(drawn.values())
    assert set(drawn) == {0, 1, 2} and total > 300
    for value, weight in ((0, 10), (1, 5), (2, 3)):
        assert abs(drawn[value] / total - weight / 18) < 0.06, drawn


def test_random_between_stays_within_its_bounds_and_takes_them_in_order(tmp_path):
    result = _variant(tmp_path, "cards:\n  skip:\n    on_play: |\n      let a = random(1, 3)\n"
                                "      let b = random(hand(self), 0)\n      next draws a + b - b\n")
    assert result.errors == []
    seen = Counter()
    for seed in range(60):
        state = result.game.new_game(3, seed=seed, record=True)
        state.play_out(random.Random(seed).random)
        for event in state.events:
            if event.kind == E.RANDOM:
                seen[event.count] += 1
    assert {1, 2, 3} <= set(seen) and min(seen) >= 0 and max(seen) <= 108


def test_a_recorded_game_with_chance_replays_identically(tmp_path):
    game = unodsl.load(ROULETTE)
    state = game.new_game(3, seed=11, record=True)
    bots = [make_bot("heuristic", random.Random(p)) for p in range(3)]
    while not state.over:
        state.apply_id(bots[state.current_player].act(state))
    assert any(e.kind == E.RANDOM for e in state.events)
    record = game_log(game, ROULETTE, state)
    outcome = replay_game(game, record)
    assert outcome.error is None and outcome.state.history == state.history
    assert outcome.winner == state.winner and outcome.state.hands == state.hands


def test_a_clone_draws_what_the_original_draws_unless_its_generator_is_reseeded():
    game = unodsl.load(ROULETTE)
    state = _first_decision(game, D.OPTION)
    clone, reseeded = state.clone(), state.clone()
    reseeded.rng = random.Random(12345)
    rolls = {}
    for name, copy in (("state", state), ("clone", clone), ("reseeded", reseeded)):
        draws = []
        for _ in range(40):                       # the same spin, many times over, from the same position
            again = copy.clone()
            again.apply("option spin")
            draws.append(next(e.count for e in reversed(again.events) if e.kind == E.RANDOM))
            copy.rng.random()
        rolls[name] = draws
    assert rolls["state"] == rolls["clone"]
    assert rolls["state"] != rolls["reseeded"]


def test_a_sampled_world_does_not_draw_what_the_real_game_will():
    game = unodsl.load(ROULETTE)
    state = _first_decision(game, D.OPTION)
    view = SeatView(state)
    world = WorldSampler(view, Knowledge()).sample(random.Random(2))
    assert world.rng.getstate() != state.rng.getstate()


@pytest.mark.parametrize("body, code", [
    ("distributions: {launcher: {0: 10, two: 5}}\n", "E350"),
    ("distributions: {launcher: {0: 0}}\n", "E204"),
    ("cards: {wild: {on_play: \"next draws random lancher\"}}\ndistributions: {launcher: {0: 1}}\n", "E534"),
    ("cards: {wild: {on_play: \"next draws random(3, 1)\"}}\n", "E532"),
    ("turn: {may_draw_if: \"random(1, 6) > 3\"}\n", "E533"),
    ("cards: {wild: {on_play: \"self chooses:\\n    a: nothing\\n    a: nothing\\n\"}}\n", "E530"),
    ("cards: {wild: {on_play: \"self chooses:\\n    a: nothing\\n\"}}\n", "E531"),
])
def test_bad_choices_and_chances_are_diagnosed(tmp_path, body, code):
    result = _variant(tmp_path, body)
    assert [d.code for d in result.errors] == [code]
    assert all(d.line >= 4 for d in result.errors)


def test_a_color_distribution_sets_a_color(tmp_path):
    result = _variant(tmp_path, "distributions: {paint: {red: 3, blue: 1}}\n"
                                "cards: {skip: {on_play: \"set color random paint\"}}\n")
    assert result.errors == []
    colors = Counter()
    for seed in range(40):
        state = result.game.new_game(3, seed=seed, record=True)
        state.play_out(random.Random(seed).random)
        colors.update(e.color for e in state.events if e.kind == E.RANDOM)
    assert set(colors) == {"red", "blue"} and colors["red"] > colors["blue"]


def test_an_eliminated_player_chooses_nothing(tmp_path):
    result = _variant(tmp_path, "cards:\n  skip:\n    on_play: |\n      let q = next\n      eliminate q\n"
                                "      q chooses:\n          one: self draws 1\n          two: self draws 2\n")
    assert result.errors == []
    game = result.game
    for seed in range(60):
        state = game.new_game(3, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.over:
            assert state.decision != D.OPTION          # the chooser is always the one just eliminated
            legal = state.legal_action_ids()
            state.apply_id(legal[int(rng.random() * len(legal))])
        if any(e.kind == E.ELIMINATED for e in state.events):
            return
    raise AssertionError("no skip was played in 60 games")
