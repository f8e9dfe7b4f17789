"""Golden screens of the terminal game: what a player reads, byte for byte (regenerate with
`python -m tools.screens --write` and review the diff)."""

from __future__ import annotations

import os
import re

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
    assert "  1) play Wild and call UNO\n  2) play Wild\n" in uno and "you: play Wild and call UNO" in uno
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


# --- what happened, told (issue 33 item 5): each case's golden screen holds the words it is kept for -----------


def _screen(name: str) -> str:
    with open(screen_path(name), encoding="utf-8") as handle:
        return handle.read()


def _moves(name: str) -> list[str]:
    """A golden screen cut at each of the player's decisions (the first piece: the greeting)."""
    return _screen(name).split("\n--- your move ")


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_screen_says_cards_in_words_one_direction_and_agrees_in_person(name):
    text = _screen(name)
    assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", text), "a card id on the screen"
    assert "order:" not in text and "reversed" not in text                # one word: the direction
    assert "[1-1]" not in text                                            # a single choice: Enter takes it
    assert " (out)" not in text                                           # "out" is for going out only
    assert not re.search(r"\byou (?:\w+ )?(draws|plays|is|has|holds|takes|names|catches)\b", text)
    assert not re.search(r"\bp\d (are|have|draw|play|hold)\b", text)


def test_a_flip_says_all_cards_turned_over_not_what_came_and_went():
    flipped = [m for m in _moves("flip-turned-over") if "all cards turned over" in m]
    assert len(flipped) == 2
    assert "  all cards turned over: the dark side is up, and the top card is now Purple Flip\n" in flipped[0]
    assert all("you received" not in m and "you lost" not in m for m in flipped)


def test_a_knock_out_names_the_rule_and_is_not_going_out():
    text = _screen("no-mercy-knock-out")
    assert "  p1 holds 25 cards and is knocked out\n" in text
    assert "players: p1: 0 cards (knocked out), p2: 10 cards\n" in text


def test_a_draw_until_names_what_it_looked_for_and_shows_the_cards():
    assert ("  you draw until a red card comes: 5 cards and are skipped: Green Discard All, Green Reverse, "
            "Yellow 2, Yellow 1, Red 3\n") in _screen("no-mercy-draw-until")
    assert "  p1 draws until they can play: 10 cards\n" in _screen("no-mercy-knock-out")


def test_a_growing_stack_names_who_must_answer_it():
    text = _screen("stacking-victim")
    assert "  the draw stack grows to 4: p2 must stack on it or draw 4\n" in text
    assert "  the draw stack grows to 6: you must stack on it or draw 6\n" in text


def test_the_start_cards_effect_is_named():
    assert ("  the start card is Wild Draw Four: another start card is turned up: Red Draw Two; "
            "p1 draws 2 and is skipped\n") in _screen("classic-start-card")


def test_a_forced_play_offers_no_keep_and_enter_takes_a_single_choice():
    forced = next(m for m in _moves("force-play-no-keep") if "decision: drawn" in m)
    assert ("decision: drawn (you drew a playable card: you must play it)\n  1) play Wild\n"
            "press Enter to play Wild, or type an action: 1\n") in forced
    assert "keep" not in forced


def test_a_hand_shown_is_seen_at_its_turn_until_it_no_longer_holds():
    moves = _moves("classic-hand-seen")
    at = [i for i, m in enumerate(moves) if "p2's hand, seen at turn 6: Red 5, Green 7, Blue 3" in m]
    assert len(at) == 1
    assert "  p2 plays Red 5\n" in moves[at[0] + 1] and "p2's hand" not in moves[at[0] + 1]


def test_a_catch_is_told_to_the_caught_in_the_second_person():
    assert "  p2 catches you without UNO: you draw 2: Green 2, Blue 3\n" in _screen("classic-caught")


def test_a_card_typed_by_name_that_may_not_be_played_says_why():
    text = _screen("no-bluffing-refused")
    assert ("'wild draw four' is not possible: Wild Draw Four may be played only when you do not hold a card "
            "of the current color; try again\n") in text
    assert "'Yellow 5' is not possible: Yellow 5 does not match Green 7 (green); try again\n" in text
