"""The narration's words (rulebook/narration.py): cards said as their types name them, the second person,
what a draw until looked for, who a rule knocked out, the hands seen and how long they hold, typed words read
back as actions, and the browser's view carrying the same words. The golden screens (test_screens.py) show
each case as a player reads it."""

from __future__ import annotations

import glob
import re
from collections import Counter

import pytest

import unodsl
from unodsl.engine import IllegalAction
from unodsl.engine import events as E
from unodsl.rulebook.narration import (action_from_words, answer_as_action, card_words, choice_words, hands_seen,
                                       narrate, reason_words, words_as_ids)


@pytest.fixture(scope="module")
def classic():
    return unodsl.load("classic")


def _position(game, hands, top, record=True):
    used = Counter(game.card_index[c] for hand in hands for c in hand) + Counter([game.card_index[top]])
    pile = sorted((Counter(game.deck) - used).elements())
    return game.position(hands, pile, [top], dealer=len(hands) - 1, turn=0, record=record)


def test_cards_are_said_as_their_types_name_them(classic):
    assert [card_words(classic, c) for c in ("red_7", "blue_draw_two", "wild", "wild_draw_four", "yellow_skip")] == \
        ["Red 7", "Blue Draw Two", "Wild", "Wild Draw Four", "Yellow Skip"]
    teams = unodsl.load("teams")
    assert card_words(teams, "red_7") == "Red 7" and card_words(teams, "red_7p") == "Red 7 with Passing symbol"
    assert card_words(None, "green_reverse") == "Green Reverse"            # no game: the id read as words


@pytest.mark.parametrize("path", sorted(glob.glob("variants/*.yaml")))
def test_every_card_and_action_is_said_once_and_read_back(path):
    game = unodsl.load(path)
    said = [card_words(game, c) for c in game.card_names]
    assert len({s.lower() for s in said}) == len(said)
    assert not [s for s in said if "_" in s]
    for action in range(game.num_actions):
        text = game.action_to_string(action)
        assert action_from_words(game, choice_words(game, text)) == text, text
    assert words_as_ids(game, " ".join(said)) == " ".join(game.card_names)


def test_typed_words_become_actions(classic):
    assert action_from_words(classic, "Red 7") == "play red_7"
    assert action_from_words(classic, "play wild draw four and call UNO") == "play wild_draw_four uno"
    assert action_from_words(classic, "draw") == "draw"
    assert answer_as_action(classic, "play Blue 3") == "play blue_3"
    assert answer_as_action(classic, "play blue_3") == "play blue_3"
    assert answer_as_action(classic, "dance") == "dance"                   # refused as given, by the engine


def _all_lines(game, players, seeds):
    for seed in seeds:
        state = game.new_game(players, seed=seed, record=True)
        state.play_out()
        for seat in range(-1, players):
            yield from narrate(state.events_for(seat), seat, game)


VERBS = "play jump call keep name choose give trade look discard take put challenge accept turn draw hold catch win score"
THIRD = "|".join([v + ("es" if v.endswith(("s", "sh", "ch", "x")) else "s") for v in VERBS.split()] + ["is", "has"])


@pytest.mark.parametrize("name, include", [(p, ()) for p in sorted(glob.glob("variants/*.yaml"))]
                         + [("classic", (h,)) for h in sorted(glob.glob("variants/house-rules/*.yaml"))])
def test_the_narration_agrees_in_person_everywhere(name, include):
    """"you draw 2", never "you ... draws 2"; "p1 draws", never "p1 draw": every line of whole games, every seat."""
    game = unodsl.load(name, include=include)
    v = game.variant
    players = v.allowed_players[0] if v.allowed_players else min(4, v.max_players)
    lines = list(_all_lines(game, players, range(2)))
    assert lines
    wrong = [line for line in lines if "swap hands" not in line and (
        re.search(rf"\byou (?:\w+ )?({THIRD})\b", line) or re.search(rf"\bp\d+ (are|have|{VERBS.replace(' ', '|')})\b", line))]
    assert not wrong
    assert not [line for line in lines if re.search(r"\b[a-z]+_[a-z0-9_]+\b", line)]     # no card ids


def test_a_knock_out_by_the_rule_says_the_hand_that_did_it():
    game = unodsl.load("no-mercy")
    for seed in range(20):
        state = game.new_game(3, seed=seed, record=True)
        state.play_out()
        out = [e for e in state.events if e.kind == E.ELIMINATED]
        if out:
            break
    e = out[0]
    assert e.name == "rule" and e.count >= 25
    assert f"p{e.player} holds {e.count} cards and is knocked out" in narrate(state.events_for(-1), -1, game)
    assert f"you hold {e.count} cards and are knocked out" in narrate(state.events_for(e.player), e.player, game)


def test_a_draw_until_says_what_it_looked_for():
    no_mercy, flip = unodsl.load("no-mercy"), unodsl.load("flip")
    names = set()
    for game in (no_mercy, flip):
        for seed in range(12):
            state = game.new_game(3, seed=seed, record=True)
            state.play_out()
            names |= {e.name for e in state.events if e.kind == E.DREW and e.name}
    assert "playable" in names and "a red card" in names and "an orange card" in names
    drew = E.Event(E.DREW, 1, count=3, cards=("red_1", "blue_2", "green_3"), name="a green card")
    assert narrate([drew], 1, no_mercy) == ["you draw until a green card comes: 3 cards: Red 1, Blue 2, Green 3"]
    assert narrate([E.Event(E.DREW, 1, count=3, name="playable")], 0, no_mercy) == \
        ["p1 draws until they can play: 3 cards"]


def test_a_hand_seen_holds_until_its_player_plays_or_draws(classic):
    look = E.Event(E.LOOKED, 0, 2, 3, ("red_1", "red_2", "red_3"))
    turn = E.Event(E.TURN, 1)
    assert hands_seen([turn, turn, look], 0) == {2: 2}
    assert hands_seen([look, E.Event(E.PLAYED, 2, cards=("red_1",))], 0) == {}
    assert hands_seen([look, E.Event(E.DREW, 2, count=1)], 0) == {}
    assert hands_seen([look, E.Event(E.SWAPPED, 1, 2)], 0) == {}
    assert hands_seen([look, E.Event(E.WENT_OUT, 2)], 0) == {}
    assert hands_seen([look, E.Event(E.PLAYED, 1, cards=("red_4",))], 0) == {2: 0}        # another's play
    assert hands_seen([look], 1) == {}                                                    # not shown to seat 1


def test_hands_going_round_say_which_way(tmp_path):
    path = tmp_path / "ways.yaml"
    path.write_text("unodsl: 1\nname: Ways\nextends: classic\ncards:\n  number:\n    on_play: |\n"
                    "      if card.number == 1:\n          rotate hands right\n"
                    "      elif card.number == 2:\n          gather and redeal left\n", encoding="utf-8")
    game = unodsl.load(str(path))
    for card, words in (("red_1", "every hand passes to the next player, counterclockwise"),
                        ("red_2", "every hand is gathered and dealt out again, clockwise")):
        state = _position(game, [[card, "red_5"], ["blue_1", "blue_2"], ["green_1", "green_2"]], "red_9")
        state.apply(f"play {card}")
        assert words in narrate(state.events_for(1), 1, game)


def test_the_engines_reason_is_said_to_the_player():
    game = unodsl.load("classic", include=["no-bluffing"])
    state = _position(game, [["wild_draw_four", "red_1"], ["blue_2", "blue_3"]], "red_5")
    with pytest.raises(IllegalAction) as refused:
        state.apply("play wild_draw_four")
    assert reason_words(game, 0, refused.value.reason) == \
        "Wild Draw Four may be played only when you do not hold a card of the current color"
    with pytest.raises(IllegalAction) as refused:
        state.apply("play green_4")
    assert reason_words(game, 0, refused.value.reason) == "you do not hold Green 4"


def test_the_browser_view_carries_the_narrations_words():
    from unodsl.web.rooms import Room
    room = Room("ABCDEF", unodsl.load("classic"), 2, seed=3)
    ann = room.join("Ann")
    room.start()
    view = room.view(ann)
    assert view["words"]["direction"] in ("clockwise", "counterclockwise")
    assert view["log"][0].startswith("the start card is ")
    assert not [line for line in view["log"] if re.search(r"\b[a-z]+_[a-z0-9_]+\b", line)]
    if "choices" in view:
        assert view["words"]["choices"] == [choice_words(room.game, c) for c in view["choices"]]


def test_a_card_refused_in_a_stack_says_it_does_not_answer_it():
    game = unodsl.load("classic", include=["stacking-progressive"])
    state = _position(game, [["red_draw_two", "blue_3", "green_1"], ["blue_draw_two", "yellow_4", "red_9"]], "red_5",
                      record=False)
    state.apply("play red_draw_two")
    assert state.decision == "stack" and state.current_player == 1
    with pytest.raises(IllegalAction) as refused:
        state.apply("play yellow_4")
    assert reason_words(game, 1, refused.value.reason) == \
        "Yellow 4 does not answer the draw stack of 2: stack on it or draw it"


def test_a_random_draw_names_its_distribution_in_words():
    """UNO Attack!'s Wild Hit-Fire draws from `launcher_until_it_fires`: the narration says it as words."""
    game = unodsl.load("uno-attack")
    drawn = E.Event(E.RANDOM, -1, count=3, name="launcher_until_it_fires")
    assert narrate([drawn], 0, game) == ["3 is drawn at random from the launcher until it fires"]
