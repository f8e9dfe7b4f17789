"""`unodsl solve`: a tiny variant's OpenSpiel game copied into a tree and solved with OpenSpiel's CFR+."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import expected_game_score  # noqa: E402

from unodsl.rl import openspiel as uno_spiel  # noqa: E402
from unodsl.rl.solve import TooLarge, build_tree, register_tree, solve, values  # noqa: E402

MICRO = """unodsl: 1
name: Micro UNO
players: {min: 2, max: 2}
colors: [red, blue]
cards:
  number:
    numbers: {"1-2": 1}
    points: face
deal: {hand_size: 1, dealer: seat_0}
turn: {may_draw_if: false}
uno: {enabled: false}
round: {max_turns: 10, stall: fewest_cards}
scoring: {mode: none}
"""


@pytest.fixture(scope="module")
def micro(tmp_path_factory):
    path = tmp_path_factory.mktemp("solve") / "micro.yaml"
    path.write_text(MICRO)
    return str(path)


def test_the_tree_is_the_same_game_as_the_registered_one(micro):
    """The uniform policy's value, by OpenSpiel on the engine's game and by the tree's own walk, agree."""
    name = uno_spiel.register(micro, 2, max_turns=11, short_name="python_unodsl_micro_same")
    game = pyspiel.load_game(name)
    tree = build_tree(game, ("random",))
    uniform = expected_game_score.policy_value(game.new_initial_state(), [policy_lib.UniformRandomPolicy(game)] * 2)
    walked, _ = values(tree, lambda node: tree.bots["random"][tree.info[node][tree.player[node]]])
    assert walked == pytest.approx(list(uniform), abs=1e-9)
    copy = pyspiel.load_game(register_tree(tree, "python_unodsl_micro_tree", "micro tree",
                                           game.max_chance_outcomes(), game.num_distinct_actions()))
    again = expected_game_score.policy_value(copy.new_initial_state(), [policy_lib.UniformRandomPolicy(copy)] * 2)
    assert list(again) == pytest.approx(list(uniform), abs=1e-9)
    with pytest.raises(TooLarge):
        build_tree(game, (), max_nodes=50)


def test_cfr_plus_converges_and_reports_the_value_and_the_bots(micro):
    result = solve(micro, iterations=30)
    curve = [c["nash_conv"] for c in result["convergence"]]
    assert curve[-1] < 0.01 and curve == sorted(curve, reverse=True)
    assert result["value"][0] == pytest.approx(-result["value"][1]) and -1 <= result["value"][0] <= 1
    assert result["first_player_advantage"] == pytest.approx(result["first_player_win_rate"] - 0.5)
    bots = {row["bot"]: row for row in result["bots"]}
    assert bots["random"]["nash_conv"] > 0.3 > curve[-1]          # a uniform player is far from an equilibrium
    assert all(row["information_states_played_two_ways"] == 0 for row in result["bots"])
    assert result["information_sets"] < result["nodes"]


def test_the_command_solves_a_file_and_refuses_more_players(micro, tmp_path):
    run = subprocess.run([sys.executable, "-m", "unodsl", "solve", micro, "-i", "5", "--format", "json",
                          "--bots", "heuristic"], capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, NO_COLOR="1"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["iterations"] == 5 and [b["bot"] for b in out["bots"]] == ["heuristic"]
    big = subprocess.run([sys.executable, "-m", "unodsl", "solve", "classic", "--max-nodes", "1000"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert big.returncode == 1 and "not a tiny variant" in big.stderr
