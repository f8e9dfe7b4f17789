"""A match ends: `scoring.max_rounds` bounds the rounds of a match that never reaches the target.

Rounds that score nothing (every card worth 0 points, or every round a stall with no
winner) used to make `--match` play forever; State.end_round ends the match after
`scoring.max_rounds` rounds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file

REPO = Path(__file__).resolve().parent.parent
CLASSIC = REPO / "variants" / "classic.yaml"

ZERO_POINTS = """\
cards:
  number: {points: 0}
  draw_two: {points: 0}
  reverse: {points: 0}
  skip: {points: 0}
  wild: {points: 0}
  wild_draw_four: {points: 0}
"""
STALLS = "round: {max_turns: 10, stall: no_winner}\n"


def _variant(tmp_path, extra: str, name: str = "limit") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"unodsl: 1\nextends: {CLASSIC}\nname: Limit\n{extra}", encoding="utf-8")
    return path


def _headers(path) -> list[str]:
    return [d.header() for d in check_file(str(path), "/").diagnostics]


# --- the front end: schema and model ------------------------------------------------


def test_max_rounds_defaults_to_1000():
    assert unodsl.load(str(CLASSIC)).variant.max_rounds == 1000


def test_max_rounds_is_read_from_scoring(tmp_path):
    path = _variant(tmp_path, "scoring: {max_rounds: 7}\n")
    assert _headers(path) == []
    assert unodsl.load(str(path), root="/").variant.max_rounds == 7


@pytest.mark.parametrize("value, code", [("0", "E204"), ("1000001", "E204"), ("many", "E202"), ("2.5", "E202")])
def test_a_bad_max_rounds_is_a_schema_error(tmp_path, value, code):
    path = _variant(tmp_path, f"scoring: {{max_rounds: {value}}}\n")
    headers = _headers(path)
    assert len(headers) == 1 and f"{path}:4:23: {code} " in headers[0], headers


# --- the engine: a match stops at the limit -------------------------------------------


def _play_match(game, players: int, seed: int):
    """Play a random match; fail (not hang) as soon as it starts a round past the limit."""
    state = game.new_game(players, seed=seed, match=True)
    rng = random.Random(seed)
    while not state.is_over:
        assert state.round <= game.variant.max_rounds, "the match went on past scoring.max_rounds"
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("extra", [ZERO_POINTS, STALLS], ids=["zero points", "stalls with no winner"])
def test_a_match_whose_rounds_score_nothing_ends_at_the_limit_with_no_winner(tmp_path, extra):
    game = unodsl.load(str(_variant(tmp_path, extra + "scoring: {max_rounds: 4}\n")), root="/")
    for seed in range(3):
        state = _play_match(game, 3, seed)
        assert state.round == 4 and state.scores == [0, 0, 0]
        assert state.winner is None                   # everyone tied at the top: no winner


def test_at_the_limit_the_leader_wins(tmp_path):
    game = unodsl.load(str(_variant(tmp_path, "scoring: {target: 1000000, max_rounds: 3}\n")), root="/")
    for seed in range(6):
        state = _play_match(game, 4, seed)
        assert state.round == 3
        top = max(state.scores)
        leaders = [q for q, score in enumerate(state.scores) if score == top]
        assert state.winner == (leaders[0] if len(leaders) == 1 else None)


def test_at_the_limit_lowest_held_is_won_by_the_lowest_total(tmp_path):
    extra = "scoring: {mode: lowest_held, target: 1000000, max_rounds: 2}\n"
    game = unodsl.load(str(_variant(tmp_path, extra)), root="/")
    for seed in range(6):
        state = _play_match(game, 4, seed)
        assert state.round == 2
        assert state.winner == state.scores.index(min(state.scores))


def test_a_match_that_reaches_the_target_first_is_not_cut_short(tmp_path):
    # A target of 1 is reached in the first round that scores: the limit is never what ends it.
    game = unodsl.load(str(_variant(tmp_path, "scoring: {target: 1, max_rounds: 50}\n")), root="/")
    for seed in range(6):
        state = _play_match(game, 4, seed)
        assert max(state.scores) >= 1 and state.winner == state.scores.index(max(state.scores))
