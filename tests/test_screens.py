"""Golden screens of the terminal game: what a player reads, byte for byte (regenerate with
`python -m tools.screens --write` and review the diff)."""

from __future__ import annotations

import os

import pytest

from tools.screens import CASES, render_screen, screen_path
from unodsl.check import load
from unodsl.rulebook.narration import group_hand, order_choices, score_table


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_the_committed_one(name, fast):
    path = screen_path(name)
    assert os.path.exists(path), f"missing {path}: run python -m tools.screens --write"
    with open(path, encoding="utf-8", newline="") as handle:
        assert render_screen(name, fast=fast) == handle.read()


def test_the_screens_show_what_they_are_kept_for():
    """Each golden screen holds the thing it is there to show (a regenerated one could lose it)."""
    with open(screen_path("classic-uno-default"), encoding="utf-8") as handle:
        uno = handle.read()
    assert "  1) play wild uno\n  2) play wild\n" in uno and "you: play wild uno" in uno
    with open(screen_path("classic-match-rounds"), encoding="utf-8") as handle:
        match = handle.read()
    assert "scores after round 2:\n  round  p0 (you)  p1  p2\n" in match
    with open(screen_path("classic-opening"), encoding="utf-8") as handle:
        assert " | " in handle.read().split("your hand (7): ")[1].split("\n")[0]


def test_uno_is_offered_first_for_the_next_to_last_card():
    legal = ["play red_1", "play wild", "play red_1 uno", "play wild uno", "draw"]
    assert order_choices(legal) == ["play red_1 uno", "play red_1", "play wild uno", "play wild", "draw"]
    assert order_choices(["play red_1", "draw"]) == ["play red_1", "draw"]


def test_the_hand_is_grouped_by_color_wilds_last():
    game = load("variants/classic.yaml")
    groups = group_hand(game, ["wild", "blue_2", "red_9", "red_1", "wild_draw_four", "blue_skip"])
    assert groups == [["red_1", "red_9"], ["blue_2", "blue_skip"], ["wild", "wild_draw_four"]]


def test_the_score_table_gives_each_rounds_points_and_the_totals():
    assert score_table([(0, 45), (30, 45)], 1) == ["round  p0  p1 (you)",
                                                   "1       0        45",
                                                   "2      30         0",
                                                   "total  30        45"]


def test_a_bare_card_name_follows_the_default_and_play_x_does_not_call_uno():
    from collections import Counter

    from unodsl.cli.terminal import _resolve
    game = load("variants/classic.yaml")
    hands = [["red_7", "blue_3"], ["yellow_5", "yellow_6"]]
    used = Counter(game.card_index[c] for c in ["red_7", "blue_3", "yellow_5", "yellow_6", "red_5"])
    pile = sorted((Counter(game.deck) - used).elements())
    state = game.position(hands, pile, ["red_5"], dealer=1, turn=0)
    legal = order_choices(state.legal_actions())
    assert legal[:2] == ["play red_7 uno", "play red_7"]
    assert _resolve(state, "red_7", legal) == "play red_7 uno"
    assert _resolve(state, "play red_7", legal) == "play red_7"
    assert _resolve(state, "1", legal) == "play red_7 uno"
