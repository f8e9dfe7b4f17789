"""The fast paths proven equal to the rules' one general body: every game played both ways.

`Game(variant, fast=False)` is the reference mode: no inline turn, no plain-card or
straight-effect shortcut, no guarded draw event, no fused hand-size test, no counted
rollout. Each test plays the same seeds in both modes and requires the same game at every
step: the same actions offered in the same order, the same state (random generator
included), the same result. Scenarios and golden playthroughs run in both modes in their
own files (test_scenarios.py, test_playthroughs.py).

The number of games per variant and player count is UNODSL_MODE_GAMES (default 4; the long
run sets 200).
"""

from __future__ import annotations

import glob
import os
import random

import pytest

import unodsl
from unodsl.agents.simple import HeuristicBot
from unodsl.engine import Game, State, savefile
from unodsl.runs.simulate import game_seed

# Rulings that switch on code no default runs, played both ways too: "path?ruling" (the ruling true).
RULED = ["variants/no-mercy.yaml?stack_deflect"]
CASES = sorted(glob.glob("variants/*.yaml")) + sorted(glob.glob("variants/house-rules/*.yaml")) + RULED
GAMES = int(os.environ.get("UNODSL_MODE_GAMES", "4"))


def _modes(path):
    path, _, ruling = path.partition("?")
    fast = unodsl.load(path, rulings={ruling: True} if ruling else None)
    return fast, Game(fast.variant, fast.ruling_overrides, fast=False)


def _counts(game):
    v = game.variant
    return list(v.allowed_players or range(v.min_players, v.max_players + 1))


def _fields(state: State) -> list[str]:
    """The fields that say something: `after` only while effects are open, `then` only while
    player-out events are (State.to_json writes their defaults otherwise)."""
    dead = set()
    if not state.frames:
        dead.add("after")
    if not state.frames or state.after != "outs":
        dead.add("then")
    dead.add("rng")                         # compared by its state: a generator equals only itself
    return [f for f in (*savefile.FIELDS, *savefile.OPTIONAL) if f not in dead]


def _snapshot(state: State) -> tuple:
    """Everything a state holds, the generator's state included."""
    return tuple(getattr(state, f) for f in _fields(state)) + (state.rng.getstate(),)


def _differ(a: State, b: State) -> list[str]:
    return [f for f in _fields(a) if getattr(a, f) != getattr(b, f)] + \
        (["rng"] if a.rng.getstate() != b.rng.getstate() else [])


@pytest.mark.parametrize("path", CASES)
def test_both_modes_play_the_same_games_step_by_step(path):
    fast, reference = _modes(path)
    played = 0
    for players in _counts(fast):
        for index in range(GAMES):
            seed = game_seed(players, index)
            a, b = fast.new_game(players, seed=seed), reference.new_game(players, seed=seed)
            rng = random.Random(seed)
            # Half the seats play a heuristic bot, so UNO calls, catches and challenges come up.
            bots = [HeuristicBot(random.Random(seed + seat)) if (index + seat) % 2 else None
                    for seat in range(players)]
            bots_b = [HeuristicBot(random.Random(seed + seat)) if (index + seat) % 2 else None
                      for seat in range(players)]
            step = 0
            while True:
                where = f"{path}, {players} players, seed {seed}, step {step}"
                assert _snapshot(a) == _snapshot(b), f"{where}: states differ in {_differ(a, b)}"
                legal = a.legal_action_ids()
                assert legal == b.legal_action_ids(), f"{where}: legal actions differ"
                if a.is_over:
                    break
                seat = a.current_player
                if bots[seat] is not None:
                    action = bots[seat].act(a)
                    assert bots_b[seat].act(b) == action, f"{where}: the bot chose differently"
                else:
                    action = legal[rng.randrange(len(legal))]
                a.apply_id(action)
                b.apply_id(action)
                step += 1
            assert (a.winner, a.scores, a.stalled) == (b.winner, b.scores, b.stalled)
            assert a.to_json() == b.to_json()
            played += 1
    assert played == GAMES * len(_counts(fast))


@pytest.mark.parametrize("path", CASES)
def test_the_fast_rollout_plays_the_reference_game(path):
    """State.play_out's counted decisions against the reference mode's listed loop, from the same draws."""
    fast, reference = _modes(path)
    for players in _counts(fast):
        for index in range(GAMES):
            seed = game_seed(players, index)
            a, b = fast.new_game(players, seed=seed), reference.new_game(players, seed=seed)
            a.play_out(random.Random(seed).random)
            b.play_out(random.Random(seed).random)
            assert a.history == b.history, f"{path}, {players} players, seed {seed}: the rollouts differ"
            assert a.to_json() == b.to_json()


@pytest.mark.parametrize("path", CASES)
def test_both_modes_agree_from_mid_game_positions(path):
    """Rollouts from the middle of a game (effects paused, windows open), cloned and reloaded."""
    fast, reference = _modes(path)
    players = _counts(fast)[0]
    for index in range(GAMES):
        seed = game_seed(players, 1000 + index)
        a = fast.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 60)):
            if a.is_over:
                break
            legal = a.legal_action_ids()
            a.apply_id(legal[rng.randrange(len(legal))])
        b = State.from_json(reference, a.to_json())
        a.play_out(random.Random(seed).random)
        b.play_out(random.Random(seed).random)
        assert a.history == b.history and a.to_json() == b.to_json(), f"{path}, seed {seed}"
