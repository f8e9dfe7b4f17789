"""Engine events: what happened in a recorded game, as data, and what each seat may see of it.

Scripted positions (Game.position, then apply) check the events of a Draw Two, a challenged Wild
Draw Four and a forgotten UNO; the leak test plays recorded random games of every shipped variant
and holds every event a seat may see to the cards that seat's observations showed it.
"""

from __future__ import annotations

import glob
import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import events as E
from unodsl.engine.events import Event
from unodsl.engine.observation import event_seen_by

CASES = sorted(glob.glob("variants/*.yaml")) + sorted(glob.glob("variants/house-rules/*.yaml"))


@pytest.fixture(scope="module")
def classic():
    return unodsl.load("variants/classic.yaml")


def _position(game, hands, top, draw_pile=(), turn=0):
    """A recorded position: named hands, the top card, the draw pile top first, every other card below it."""
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn, record=True)


def _after(state, *actions) -> list[Event]:
    """The events the actions cause (every seat's view: as they happened)."""
    start = len(state.events)
    for action in actions:
        state.apply(action)
    return state.events[start:]


def test_a_draw_two_makes_the_next_player_draw_two_and_be_skipped(classic):
    state = _position(classic, [["red_draw_two", "blue_3", "green_4"], ["yellow_5", "yellow_6"], ["blue_7", "blue_8"]],
                      "red_5", draw_pile=["blue_1", "blue_2"])
    events = _after(state, "play red_draw_two")
    assert events == [Event(E.PLAYED, 0, cards=("red_draw_two",)), Event(E.DREW, 1, count=2, cards=("blue_1", "blue_2")),
                      Event(E.SKIPPED, 1), Event(E.TURN, 2)]
    # The drawer sees the cards; everyone else sees how many.
    assert state.events_for(1)[1].cards == ("blue_1", "blue_2")
    assert state.events_for(2)[1] == Event(E.DREW, 1, count=2)
    assert state.events_for(0)[1].cards == ()


def _wild_draw_four(classic, thrower_hand):
    state = _position(classic, [thrower_hand, ["yellow_5", "yellow_6"], ["blue_7", "blue_8"]], "red_5",
                      draw_pile=["green_1", "green_2", "green_3", "green_4", "green_5", "green_6"])
    return state, _after(state, "play wild_draw_four", "color blue")


def test_a_challenged_dishonest_wild_draw_four_makes_its_player_draw_four(classic):
    state, played = _wild_draw_four(classic, ["wild_draw_four", "red_3", "green_9"])
    assert played == [Event(E.PLAYED, 0, cards=("wild_draw_four",)), Event(E.COLOR, 0, color="blue")]
    assert "won" not in repr([e for e in played if e.won is not None])     # honesty is not told by the play
    events = _after(state, "challenge")
    assert events[0] == Event(E.CHALLENGED, 1, 0, won=True)
    assert events[1] == Event(E.DREW, 0, count=4, cards=("green_1", "green_2", "green_3", "green_4"))
    assert state.events_for(2)[-len(events):][1] == Event(E.DREW, 0, count=4)
    assert events[-1] == Event(E.TURN, 1)


def test_a_challenged_honest_wild_draw_four_costs_the_challenger_six_and_the_turn(classic):
    state, _ = _wild_draw_four(classic, ["wild_draw_four", "blue_3", "green_9"])
    events = _after(state, "challenge")
    assert [e.kind for e in events] == [E.CHALLENGED, E.DREW, E.SKIPPED, E.TURN]
    assert events[0].won is False and events[1].player == 1 and events[1].count == 6
    assert events[-1].player == 2


def test_an_accepted_wild_draw_four_tells_nothing_of_its_honesty(classic):
    state, _ = _wild_draw_four(classic, ["wild_draw_four", "red_3", "green_9"])
    events = _after(state, "accept")
    assert events[0] == Event(E.ACCEPTED, 1, 0)
    assert all(e.won is None for e in events)


def test_a_forgotten_uno_caught_gives_the_penalty(classic):
    state = _position(classic, [["red_3", "blue_3"], ["yellow_5", "yellow_6"], ["blue_7", "blue_8"]], "red_5",
                      draw_pile=["green_1", "green_2"])
    _after(state, "play red_3")                      # without 'uno'
    assert state.decision == "catch" and state.current_player == 1
    events = _after(state, "catch 0")
    assert events[:2] == [Event(E.CAUGHT, 0, 1, 2), Event(E.DREW, 0, count=2, cards=("green_1", "green_2"))]
    assert state.events_for(2)[-len(events) + 1] == Event(E.DREW, 0, count=2)


def test_uno_called_with_the_play_is_an_event(classic):
    state = _position(classic, [["red_3", "blue_3"], ["yellow_5", "yellow_6"], ["blue_7", "blue_8"]], "red_5")
    events = _after(state, "play red_3 uno")
    assert events[:2] == [Event(E.PLAYED, 0, cards=("red_3",)), Event(E.CALLED_UNO, 0)]


def test_a_kept_card_is_seen_by_its_drawer_only(classic):
    state = _position(classic, [["blue_3", "green_4"], ["yellow_5", "yellow_6"], ["blue_7", "blue_8"]], "red_5",
                      draw_pile=["red_9"])
    _after(state, "draw", "keep")
    assert [e.kind for e in state.events_for(0)] == [E.DREW, E.KEPT, E.TURN]
    assert [e.kind for e in state.events_for(1)] == [E.DREW, E.TURN]


def test_an_unrecorded_game_keeps_no_events(classic):
    state = classic.new_game(3, seed=1)
    state.play_out()
    assert state.events is None and state.events_for(0) == []


def test_every_kind_has_its_line_of_docs():
    source = Path(E.__file__).read_text(encoding="utf-8")
    for kind in E.KINDS:
        name = next(n for n, v in vars(E).items() if v == kind and n.isupper())
        line = next(ln for ln in source.splitlines() if ln.startswith(f"{name} = "))
        assert "#" in line, name


# --- the leak test ---------------------------------------------------------------------


def _visible(obs: dict, game) -> set[str]:
    """The cards an observation shows its seat: their hand, the discard pile and the face-up piles, what was
    shown to them."""
    cards = set(obs["hand"]) | set(obs["discard"])
    for on_pile in obs.get("piles", {}).values():     # a face-up named pile shows its cards (face down: a size)
        if isinstance(on_pile, list):
            cards.update(on_pile)
    for shown in obs["revealed"].values():
        cards.update(shown)
    if "backs" in obs:                  # a two-sided deck: each back seen tells its face
        back, index = game.k_back, game.card_index
        names = game.card_names
        cards.update(names[back[index[c]]] for shown in obs["backs"].values() for c in shown)
        if obs["draw_pile_back"]:
            cards.add(names[back[index[obs["draw_pile_back"]]]])
    if obs.get("drawn"):
        cards.add(obs["drawn"])
    return cards


# The start cards are turned face up from the draw pile in front of everyone; one put back into the
# deck (`return and flip again`) is on no pile an observation shows after the action.
FACE_UP = (E.ROUND_DEALT, E.FLIPPED)


def leaks(game, players: int, seed: int, seen_by=event_seen_by) -> list[str]:
    """Play a recorded random game; every card an event shows a seat (through `seen_by`) must be one
    that seat's observations showed it: its own hand at some time, or, before or after the action,
    the discard pile or what was revealed to it. Returns what leaked."""
    state = game.new_game(players, seed=seed, record=True)
    rng = random.Random(seed)
    held = [set(state.hand(q)) for q in range(players)]
    before = [_visible(state.observation(q), game) for q in range(players)]
    found, start = [], 0
    while True:
        after = [_visible(state.observation(q), game) for q in range(players)]
        for q in range(players):
            held[q].update(state.hand(q))
            could_see = held[q] | before[q] | after[q]
            if any(e.kind == E.ELIMINATED and e.player == q for e in state.events[start:]):
                # knocked out by the cards that came in (eliminate_when): they were in q's hand before it went
                could_see |= {c for e in state.events[start:] if e.kind in (E.DREW, E.TOOK) and e.player == q
                              for c in e.cards}
            for event in state.events[start:]:
                shown = seen_by(event, q)
                if shown is None or shown.kind in FACE_UP:
                    continue
                hidden = [c for c in shown.cards if c not in could_see]
                if hidden:
                    found.append(f"p{q} is shown {hidden} by {shown}")
        if state.is_over or found:
            return found
        before, start = after, len(state.events)
        actions = state.legal_action_ids()
        state.apply_id(actions[int(rng.random() * len(actions))])


@pytest.mark.parametrize("path", CASES)
def test_no_event_shows_a_seat_a_card_it_could_not_see(path):
    game = unodsl.load(path)
    v = game.variant
    counts = list(v.allowed_players or range(v.min_players, v.max_players + 1))
    for players in sorted({counts[0], counts[-1]}):
        for seed in (1, 2):
            assert leaks(game, players, seed) == []


def test_the_leak_test_catches_a_leaky_projection(classic):
    """A projection that shows every event as it happened (drawn cards of others included) must fail."""
    assert leaks(classic, 4, 1, seen_by=lambda event, seat: event)
