"""A declared any-time window (`windows:`, issue 29 item 5c; docs/language.md, "windows").

Between turns, after the UNO calls and the catch window, each member of a window's `who` for whom its `when`
holds is offered `option NAME` or `pass`, once per hand-off; invoking runs its effect with self = the invoker.
Both engine modes play the same games; saves keep the window being offered; bots use it; the action codec has
one id per window name (the choices' `option NAME` ids); a variant without windows keeps its action space.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.agents.simple import HeuristicBot, RandomBot
from unodsl.check import check_file
from unodsl.engine import Game, State
from unodsl.engine import events as E
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
SLAP = str(REPO / "tests" / "scenarios" / "variants" / "windows.yaml")
CLASSIC = str(REPO / "variants" / "classic.yaml")
HANDS = [["red_7", "red_2", "red_3"], ["green_1", "green_2", "green_3"], ["yellow_1", "yellow_2"]]


def _game(tmp_path, body: str, fast: bool = True):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Windows\nextends: {CLASSIC}\n" + body, encoding="utf-8")
    game = unodsl.load(str(path), root="/", fast=True)
    return game if fast else Game(game.variant, fast=False)


def _position(game, hands, top="red_5", turn=0):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top])
    return game.position(hands, sorted(rest.elements()), [game.card_index[top]], dealer=(turn - 1) % len(hands),
                         turn=turn, record=True)


@pytest.mark.parametrize("fast", [True, False])
def test_the_window_is_offered_in_turn_order_once_each(fast):
    game = unodsl.load(SLAP, fast=True)
    game = game if fast else Game(game.variant, fast=False)
    state = _position(game, HANDS)
    start = len(state.events)
    state.apply("play red_7")
    assert (state.decision, state.current_player, state.legal_actions()) == ("window", 1, ["pass", "option slap"])
    state.apply("option slap")
    state.apply("give green_1")
    assert state.events[start + 1:start + 3] == [E.Event(E.INVOKED, 1, name="slap"),
                                                 E.Event(E.GAVE, 1, 2, 1, ("green_1",))]
    assert [len(h) for h in state.hands] == [2, 2, 3]
    # p1 used its turn of the window: p2 is asked next, then p1's turn begins (p0's turn ended: never asked).
    assert (state.decision, state.current_player) == ("window", 2)
    state.apply("option slap")
    state.apply("give yellow_1")
    assert state.decision == "turn" and state.current_player == 1 and state.window_at == -1 and state.offered == []
    assert "p1 invokes slap" in narrate(state.events_for(0, start), 0, game)


def test_who_all_offers_the_player_whose_turn_ended_last(tmp_path):
    game = _game(tmp_path, "windows:\n  knock: {who: all, effect: self draws 1}\n")
    state = _position(game, HANDS)
    state.apply("play red_2")
    asked = []
    while state.decision == "window":
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [1, 2, 0] and state.current_player == 1


def test_windows_are_offered_in_file_order_after_the_catch_window(tmp_path):
    game = _game(tmp_path, "windows:\n  first: {effect: self draws 1}\n  second: {effect: self draws 2}\n")
    state = _position(game, [["red_1", "red_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]])
    state.apply("play red_1")                       # p0 at one card without calling: the catch window first
    assert state.decision == "catch"
    while state.decision == "catch":
        state.apply("pass")
    asked = []
    while state.decision == "window":
        asked.append((state.current_player, state.legal_actions()[-1]))
        state.apply("pass")
    assert asked == [(1, "option first"), (2, "option first"), (1, "option second"), (2, "option second")]


def test_an_effect_that_keeps_the_condition_true_is_still_bounded(tmp_path):
    game = _game(tmp_path, "windows:\n  grab: {when: hand(self) < 50, effect: self draws 1}\n")
    state = _position(game, HANDS)
    state.apply("play red_2")
    invoked = 0
    while state.decision == "window":
        state.apply("option grab")
        invoked += 1
    assert invoked == 2 and state.decision == "turn"


def test_a_save_in_the_window_and_in_its_effect_loads_and_plays_on():
    game = unodsl.load(SLAP)
    state = _position(game, HANDS)
    state.apply("play red_7")
    data = json.loads(state.to_json())
    assert data["window_at"] == 0 and data["offered"] == [1, 2]
    loaded = State.from_json(game, state.to_json())
    assert loaded.legal_actions() == ["pass", "option slap"]
    loaded.apply("option slap")                     # paused inside the effect: the give
    again = State.from_json(game, loaded.to_json())
    again.apply("give green_2")
    assert again.decision == "window" and again.current_player == 2
    # A save that offers the window to a seat not first in 'offered' is refused.
    data["offered"] = [2]
    with pytest.raises(Exception, match="window"):
        State.from_json(game, json.dumps(data))
    # A variant without windows saves neither field.
    classic = unodsl.load(CLASSIC)
    assert not {"window_at", "offered"} & set(json.loads(classic.new_game(3, seed=1).to_json()))


@pytest.mark.parametrize("seed", range(6))
def test_both_modes_play_the_same_games(seed):
    fast = unodsl.load(SLAP, fast=True)
    play_both_modes(fast, Game(fast.variant, fast=False), 2 + seed % 3, seed)


def test_the_bots_use_or_decline_it():
    game = unodsl.load(SLAP)
    for bot, used in ((HeuristicBot(random.Random(1)), True), (RandomBot(random.Random(1)), None)):
        invoked = offered = 0
        for seed in range(6):
            state = game.new_game(3, seed=seed, record=True)
            while not state.is_over:
                if state.decision == "window":
                    offered += 1
                state.apply_id(bot.act(state))
            invoked += sum(e.kind == E.INVOKED for e in state.events)
        assert offered > 0 and (invoked == offered if used else 0 < invoked < offered)


def test_the_action_codec_has_the_window_and_classic_keeps_its_space():
    game, classic = unodsl.load(SLAP), unodsl.load(CLASSIC)
    assert game.num_actions == classic.num_actions + 1
    assert game.action_to_string(game.action_from_string("option slap")) == "option slap"


def test_the_rl_tables_offer_it():
    from unodsl.rl.actions import ActionTable
    from unodsl.rl.observation import ObservationEncoder
    game = unodsl.load(SLAP)
    table, encoder = ActionTable(game, 3), ObservationEncoder(game, 3)
    assert "window" in encoder.kinds
    state = _position(game, HANDS)
    state.apply("play red_7")
    encoder.encode(state, 1)
    assert "option slap" in table.labels and "pass" in table.labels
    # Classic's layout has no window decision.
    assert "window" not in ObservationEncoder(unodsl.load(CLASSIC), 3).kinds


def test_the_rulebook_says_it():
    text = render_rulebook(unodsl.load(SLAP))
    assert "## At any time" in text
    assert ("**Slap a 7 to pass a card on.** Between turns, any player but the one whose turn just ended may slap, "
            "while the top card of the discard pile is a number card") in text


def test_bad_windows_get_located_diagnostics(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: W\nextends: {CLASSIC}\nwindows:\n  slap:\n    who: other\n"
                    "    when: hand(slef) > 1\n    effect: catcher draws 1\n", encoding="utf-8")
    headers = sorted(d.header() for d in check_file(str(path), root="/").diagnostics)
    assert [h.split(" ")[1] for h in headers] == ["E203", "E502", "E509"], headers
    assert ":6:10: E203" in headers[0] and "did you mean 'others'" in headers[0]
    assert ":7:16: E502" in headers[1] and "did you mean 'self'" in headers[1]


def test_the_generated_turn_loop_leaves_windows_to_the_state():
    """The generated turn loop offers no window between turns: a variant with windows never enters it."""
    from unodsl.engine.generated import fast_loop_refusal
    assert "windows" in fast_loop_refusal(unodsl.load(SLAP, fast=True))
