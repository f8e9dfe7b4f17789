"""benchmarks/profile.py: how sampled stacks become self and total shares."""

import pytest
from bench_scripts import BENCHMARKS, bench_module
from unodsl.engine import FAST_BY_DEFAULT

P = bench_module("profile")              # it puts benchmarks/ on sys.path itself, for benchlib

RUN = "run_range (unodsl/simulate.py:153)"
PLAY = "play_one (unodsl/simulate.py:128)"
APPLY = "State.apply_id (unodsl/engine.py:408)"
LEGAL = "State.legal_action_ids (unodsl/engine.py:378)"


def _by_name(result):
    return {f["function"]: (f["self"], f["total"]) for f in result["functions"]}


def test_shares_count_only_samples_taken_while_games_are_played():
    stacks = [
        (["<module> (x.py:1)", "load (unodsl/check.py:75)"], 50),          # loading: left out
        (["<module> (x.py:1)", RUN, PLAY, APPLY], 6),
        (["<module> (x.py:1)", RUN, PLAY, APPLY, "State._play (unodsl/engine.py:1170)"], 2),
        (["<module> (x.py:1)", RUN, PLAY, LEGAL], 2),
    ]
    result = P.shares(stacks)
    assert result["samples"] == 10
    shares = _by_name(result)
    assert shares["engine.py: State.apply_id"] == (0.6, 0.8)
    assert shares["engine.py: State._play"] == (0.2, 0.2)
    assert shares["engine.py: State.legal_action_ids"] == (0.2, 0.2)
    assert shares["simulate.py: play_one"] == (0.0, 1.0)
    assert "check.py: load" not in shares and "x.py: <module>" not in shares
    assert [f["function"] for f in result["functions"]][0] == "engine.py: State.apply_id"   # by self share


def test_a_function_on_the_stack_twice_counts_once_in_its_total():
    recursive = "State._run (unodsl/engine.py:925)"
    result = P.shares([([RUN, recursive, "op (unodsl/effects.py:1)", recursive], 4)])
    assert _by_name(result)["engine.py: State._run"] == (1.0, 1.0)


def test_no_samples_while_playing_gives_an_empty_table():
    assert P.shares([(["<module> (x.py:1)"], 3)]) == {"samples": 0, "functions": []}


def test_pyinstrument_profile_of_real_games():
    pytest.importorskip("pyinstrument")
    result = P.profile_pyinstrument(str(BENCHMARKS.parent / "variants" / "classic.yaml"), "random", 0.3)
    shares = _by_name(result)
    assert result["games"] >= 10 and result["samples"] > 0
    assert shares["simulate.py: run_range"][1] == pytest.approx(1.0)
    rollout = "fast.py: FastState.play_out" if FAST_BY_DEFAULT else "state.py: State.play_out"
    assert shares[rollout][1] > 0.5           # random bots: the game is one play-out
    assert abs(sum(f["self"] for f in result["functions"]) - 1.0) < 1e-9
