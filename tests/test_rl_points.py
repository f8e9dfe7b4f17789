"""reward="points": the AEC env and GymSeat pay the round's score, as the variant scores it (docs/rl.md).

The expected figures are worked out here from the hands left at the end, with the card values of
docs/rules/classic.md 1.10 written out, not read from the engine's score table.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import unodsl  # noqa: E402
import unodsl.rl as rl  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
COLORS = ("red", "yellow", "green", "blue")


def card_points(name: str) -> int:
    """1.10: a number card its face, Draw Two, Reverse and Skip 20, the wilds 50."""
    face = name.split("_", 1)[1] if name.split("_", 1)[0] in COLORS else name
    if face.isdigit():
        return int(face)
    return {"draw_two": 20, "reverse": 20, "skip": 20, "wild": 50, "wild_draw_four": 50}[face]


def held(state, seat: int) -> int:
    return sum(card_points(c) for c in state.hand(seat))


def episode(env, seed: int, eager: bool = False) -> dict:
    """Play random legal actions to the end; return each agent's reward at its last step.

    `eager` plays a card whenever one may be played (random play draws so often that hands
    seldom get down to one card)."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[env.seat_of[agent]] = reward
            env.step(None)
            continue
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        plays = [a for a in legal if env.actions.label(a).startswith("play")]
        env.step(rng.choice(plays if eager and plays else legal))
    return final


def won_episodes(env, want: int = 4, tries: int = 30, eager: bool = False):
    """(state, rewards by seat) of random episodes that ended with a winner."""
    out = []
    for seed in range(tries):
        rewards = episode(env, seed, eager)
        if env.state.is_over and env.state.winner is not None:
            out.append((env.state, rewards))
        if len(out) == want:
            break
    assert len(out) == want
    return out


def test_the_card_values_are_the_rules():
    game = unodsl.load(REPO / "variants/classic.yaml")
    assert [card_points(name) for name in game.card_names] == [game.k_points[i] for i in range(game.num_kinds)]


@pytest.mark.parametrize("n", [2, 4])
def test_classic_the_winner_gets_the_points_of_the_other_hands_and_the_others_nothing(n):
    env = rl.env(REPO / "variants/classic.yaml", num_players=n, reward="points")
    for state, rewards in won_episodes(env):
        w = state.winner
        assert rewards[w] == sum(held(state, q) for q in range(n) if q != w) > 0
        assert all(rewards[q] == 0.0 for q in range(n) if q != w)
        # Not zero-sum: the rewards add up to the winner's points.
        assert sum(rewards.values()) == rewards[w] == state.scores[w]


def test_teams_both_partners_get_the_opponents_points():
    env = rl.env(REPO / "variants/teams.yaml", num_players=4, reward="points")
    for state, rewards in won_episodes(env, want=2, tries=20):
        winners = [q for q in range(4) if state.same_team(q, state.winner)]
        losers = [q for q in range(4) if q not in winners]
        assert len(winners) == 2
        opponents = sum(sum(state.g.k_points[state.g.card_index[c]] for c in state.hand(q)) for q in losers)
        assert opponents > 0
        assert [rewards[q] for q in winners] == [opponents, opponents]
        assert all(rewards[q] == 0.0 for q in losers)


def test_going_out_bonus_adds_its_own_points_and_takes_ten_from_a_one_card_hand():
    """round.on_end: the winner scores 50 more, every other seat holding one card -10 (a negative reward)."""
    env = rl.env(REPO / "variants/house-rules/going-out-bonus.yaml", num_players=4, reward="points")
    negative = 0
    for state, rewards in won_episodes(env, want=10, tries=20, eager=True):
        w = state.winner
        assert rewards[w] == sum(held(state, q) for q in range(4) if q != w) + 50
        for q in range(4):
            if q != w:
                assert rewards[q] == (-10.0 if len(state.hand(q)) == 1 else 0.0)
                negative += rewards[q] < 0
    assert negative > 0


def test_lowest_held_pays_everyone_minus_what_they_hold(tmp_path):
    """scoring.mode lowest_held (1.10.3): each seat scores its own hand; the reward is that, negated."""
    text = (REPO / "variants/classic.yaml").read_text(encoding="utf-8")
    assert "mode: winner_collects" in text
    variant = tmp_path / "lowest.yaml"
    variant.write_text(text.replace("mode: winner_collects", "mode: lowest_held", 1), encoding="utf-8")
    env = rl.env(variant, num_players=3, reward="points")
    for state, rewards in won_episodes(env):
        assert rewards == {q: -float(held(state, q)) for q in range(3)}
        assert rewards[state.winner] == 0.0
        assert sum(rewards.values()) < 0


def test_a_truncated_episode_pays_nothing():
    env = rl.env(REPO / "variants/classic.yaml", num_players=2, reward="points", max_turns=3)
    rewards = episode(env, 1)
    assert not env.state.is_over and rewards == {0: 0.0, 1: 0.0}


def test_points_are_paid_once_at_the_end():
    """Rewards arrive once, at the end: every step before it pays 0 to every agent."""
    env = rl.env(REPO / "variants/classic.yaml", num_players=2, reward="points")
    env.reset(seed=3)
    rng = random.Random(3)
    paid = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        paid[agent] += reward if not (term or trunc) else 0.0
        if term or trunc:
            final = reward
            assert final == env.state.scores[env.seat_of[agent]]
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    assert paid == {a: 0.0 for a in env.possible_agents}


def test_gym_seat_pays_its_seats_points():
    from unodsl.rl import GymSeat
    env = GymSeat(REPO / "variants/classic.yaml", seat=1, opponents=["random"], reward="points")
    won = lost = 0
    for seed in range(12):
        obs, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        rng = random.Random(seed)
        while not done:
            obs, reward, terminated, truncated, _ = env.step(int(rng.choice(list(np.flatnonzero(env.action_masks())))))
            done = terminated or truncated
        state = env.state
        if not state.is_over or state.winner is None:
            continue
        if state.winner == 1:
            assert reward == held(state, 0) > 0
            won += 1
        else:
            assert reward == 0.0
            lost += 1
    assert won and lost


def doc_examples():
    """The `py` blocks of docs/rl.md (tests/test_rl.py runs its `python` blocks)."""
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```py\n")[1:]]


@pytest.mark.parametrize("index", range(2))
def test_docs_rl_py_examples_run(index, monkeypatch, capsys):
    blocks = doc_examples()
    assert len(blocks) == 2
    if "sb3_contrib" in blocks[index]:
        pytest.importorskip("sb3_contrib")      # not installed by CI: docs/rl.md says so
    monkeypatch.chdir(REPO)
    exec(compile(blocks[index], f"docs/rl.md py example {index + 1}", "exec"), {})
