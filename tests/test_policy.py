"""The exported policy played by numpy: the shipped baseline loads by name as a seat, plays only legal moves,
needs no torch, and refuses a table it was not trained for."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import unodsl  # noqa: E402
from unodsl.rl.actions import ActionTable  # noqa: E402
from unodsl.rl.observation import ObservationEncoder  # noqa: E402
from unodsl.rl.policy import BASELINE, PolicyBot, PolicyError  # noqa: E402


def random_policy(path: Path, game, players: int, seed: int = 0) -> Path:
    """A policy file of random weights, of the shape the trainer exports."""
    rng = np.random.default_rng(seed)
    size, actions = ObservationEncoder(game, players).size, ActionTable(game, players).size
    shapes = [(size, 16), (16, 16), (16, actions)]
    arrays = {}
    for i, shape in enumerate(shapes):
        arrays[f"w{i}"] = rng.normal(size=shape).astype(np.float16)
        arrays[f"b{i}"] = rng.normal(size=shape[1]).astype(np.float16)
    np.savez_compressed(path, scale=np.ones(size, np.float32), meta=np.array(json.dumps({"variant": "classic",
                                                                                          "players": players})),
                        **arrays)
    return path


def play(game, bots, seed):
    state = game.new_game(len(bots), seed=seed)
    while not state.is_over and state.turns <= 300:
        legal = state.legal_action_ids()
        action = bots[state.current_player].act(state)
        assert action in legal
        state.apply_id(action)
    return state


def test_a_policy_file_plays_only_legal_moves(tmp_path):
    game = unodsl.load("classic")
    path = random_policy(tmp_path / "p.npz", game, 3)
    for sample in (False, True):
        bots = [PolicyBot(random.Random(s), str(path), sample=sample) for s in range(3)]
        for seed in range(5):
            assert play(game, bots, seed).turns > 10       # random weights may draw for ever: the moves are what counts


def test_a_policy_refuses_a_table_it_was_not_trained_for(tmp_path):
    game = unodsl.load("classic")
    path = random_policy(tmp_path / "p.npz", game, 2)
    bot = PolicyBot(random.Random(0), str(path))
    state = game.new_game(4, seed=1)
    while len(state.legal_action_ids()) == 1:
        state.apply_id(state.legal_action_ids()[0])
    with pytest.raises(PolicyError, match="plays classic with 2 players"):
        bot.act(state)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(PolicyError, match="cannot read the policy file"):
        PolicyBot(random.Random(0), str(tmp_path / "junk.npz"))


@pytest.mark.skipif(not Path(BASELINE).exists(), reason="the baseline policy is not exported yet")
def test_the_shipped_baseline_is_a_seat_by_name_and_needs_no_torch():
    code = ("import sys, random, unodsl\n"
            "from unodsl.agents.seats import make_seat\n"
            "game = unodsl.load('classic')\n"
            "wins = 0\n"
            "for seed in range(20):\n"
            "    bots = [make_seat('baseline', random.Random(seed)), make_seat('random', random.Random(seed))]\n"
            "    state = game.new_game(2, seed=seed)\n"
            "    while not state.is_over:\n"
            "        state.apply_id(bots[state.current_player].act(state))\n"
            "    wins += state.winner == 0\n"
            "print(wins, 'torch' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    wins, torch_loaded = result.stdout.split()
    assert torch_loaded == "False"
    assert int(wins) >= 14                    # far above chance against the random bot (measured: docs/rl.md)
    assert Path(BASELINE).stat().st_size < 200_000


@pytest.mark.skipif(not Path(BASELINE).exists(), reason="the baseline policy is not exported yet")
def test_the_baseline_plays_through_the_command_line():
    result = subprocess.run([sys.executable, "-m", "unodsl.cli", "simulate", "classic", "-n", "20", "--players", "2",
                             "--bots", "baseline,heuristic", "--seed", "1"], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    assert "20 games, 2 players" in result.stdout
