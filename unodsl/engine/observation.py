"""What a seat may see, decided once: the seat's view, the spectator's, the redacted state bots sample from,
and which seat sees which event.

Every interface reads what it shows from here: the terminal and the text views (`seat_view`, `events_for`),
the web room (`seat_view`, `spectator_view`, `events_for`), the bots and remote seats (`agents/view.py`:
`redacted_state`, `own_hand`, `hand_sizes`, ...). Nothing outside the engine reads a State field that
`fields.py` does not declare public for what it shows a seat (tests/test_observation.py scans them).

A field's visibility is its declaration (`fields.FIELDS`, `seen`): the redacted state keeps every PUBLIC
field as it is, removes every NOBODY field (the draw pile's size stays), and hands each OWNER or DECLARED
field to its entry in `REDACTED`, which says what the seat keeps of it; a field not public without an entry
is removed (tests/test_observation.py fails until it has one). The seat's and the spectator's views are
built from the public fields and the seat's own parts, as their docstrings list.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..effects import layout as D
from . import fields as FD
from .events import CHOSE_SECRETLY, NUMBER_SECRETLY, PRIVATE, PRIVATE_CARDS
from .variables import public

SPECTATOR = -1          # a seat that is nobody's: the spectator's view, and its events (events_for(-1))


# --- the seat's and the spectator's views -----------------------------------------------------------


def _public_facts(state, seat: int, hand) -> dict:
    """The observation's keys in their order; `hand` (a seat's cards, or None for a spectator) and the
    revealed hands are the seat's own, every other entry is made of public fields."""
    g = state.g
    names = g.card_names
    colors = g.variant.colors
    facts = {"player": seat}
    if hand is not None:
        facts["hand"] = hand
    facts.update({
        "hand_sizes": [len(h) for h in state.hands],
        "top": names[state.discard[-1]] if state.discard else "",
        "color": colors[state.color] if state.color >= 0 else None,
        "direction": state.direction,
        "draw_pile": len(state.draw_pile),
        "discard_pile": len(state.discard),
        "discard": sorted(names[k] for k in state.discard),      # face up: every card on it is public
        "current_player": state.current_player,
        "decision": state.decision,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "stack": state.stack,
        "lock": colors[state.lock_color] if state.lock_owner >= 0 else None,
        "uno_called": list(state.uno_called),
        "eliminated": list(state.eliminated),
    })
    if hand is not None:
        facts["revealed"] = {str(q): sorted(names[k] for k in cards)
                             for q, cards in state.revealed.get(seat, {}).items()}
    facts.update({"turn": state.turns, "round": state.round, "over": state.over, "winner": state.winner})
    if g.pile_names:                # a face-up pile shows its cards, a face-down one its size (its owner's too)
        n = state.n                 # a pile of each player: the seats at the table (`stock of p0`, ...)
        facts["piles"] = {name: sorted(names[k] for k in cards) if up else len(cards)
                          for name, up, cards, owner in zip(g.pile_names, g.face_up, state.piles, g.pile_seat)
                          if owner < n}
    if g.play_piles:                # the piles played on (`playable: true`): public, as face-up piles are
        facts.update(play_piles_seen(state))
    facts.update(state.variables_seen_by(seat))      # declared variables: only when there are some
    if g.variant.roles:             # each seat's role (roles:), public
        roles = list(g.variant.roles)
        facts["roles"] = [roles[r] for r in state.roles]
    return facts


def play_piles_seen(state) -> dict:
    """The playable piles: each one's top card ("" for none) and color (None for none), and the pile in play
    (the last played on, which `top` and `current` read)."""
    g = state.g
    names, colors = g.card_names, g.variant.colors
    return {"play_piles": {g.pile_names[i]: {"top": names[state.piles[i][-1]] if state.piles[i] else "",
                                             "color": colors[state.pile_colors[i]] if state.pile_colors[i] >= 0
                                             else None} for i in g.play_piles},
            "pile_in_play": "discard" if state.on_pile < 0 else g.pile_names[state.on_pile]}


def seat_view(state, seat: int) -> dict:
    """What `seat` may know (State.observation): its hand, the others' hand sizes, the public piles (the
    discard pile's cards, the draw pile's size, a declared pile as it is declared), the public facts of play,
    the hands shown to it (`revealed`), the declared variables it may see, its legal actions when it is to
    decide, the card it drew when it decides about it, `color_value` when it names a color as a value (the
    color in play kept), and on a two-sided deck the faces turned to it."""
    names = state.g.card_names
    obs = _public_facts(state, seat, sorted(names[k] for k in state.hands[seat]))
    if state.current_player == seat:
        obs["legal_actions"] = state.legal_actions()
    pending = state.pending
    if pending and pending[0] == D.DRAWN and pending[1] == seat:
        obs["drawn"] = names[pending[2]]
    if pending and pending[0] == D.COLOR and len(pending) == 3 and pending[1] == seat:
        obs["color_value"] = True           # `let NAME = P chooses color`: a color as a value, the color in play kept
    if state.g.k_back is not None:
        obs.update(backs(state, seat))
    return obs


def spectator_view(state) -> dict:
    """What anyone watching may know: the seat's view without a seat (no hand, nothing shown, no legal actions,
    no drawn card, only the public variables); on a two-sided deck, the faces turned away of every hand."""
    obs = _public_facts(state, SPECTATOR, None)
    if state.g.k_back is not None:
        obs.update(backs(state, SPECTATOR))
    return obs


def backs(state, seat: int) -> dict:
    """On a two-sided deck, what `seat` sees of the faces turned away: the side up, the other face of every
    card in the other hands (their owners hold them face to themselves) and of the draw pile's top card (the
    pile lies face down, its other face up)."""
    g = state.g
    names, back = g.card_names, g.k_back
    return {
        "side": g.variant.sides[state.side],
        "backs": {str(q): sorted(names[back[k]] for k in hand)
                  for q, hand in enumerate(state.hands) if q != seat},
        "draw_pile_back": names[back[state.draw_pile[-1]]] if state.draw_pile else None,
    }


# --- what a bot reads of the state as it plays (agents/view.py's SeatView) -------------------------


def own_hand(state, seat: int) -> list[int]:
    """`seat`'s own cards, as kinds: the state's own list (read it, do not change it)."""
    return state.hands[seat]


def hand_sizes(state) -> list[int]:
    """How many cards each seat holds."""
    return [len(h) for h in state.hands]


def played_by(state) -> int:
    """The seat whose card's effect is running now (the one a challenge is against), or -1."""
    frames = state.frames
    return frames[-1][D.F_SELF] if frames else -1


def options_offered(state) -> list[int]:
    """The options (by number) of the choice being made (`P chooses:`), in the order its effect lists them."""
    pending = state.pending
    if pending is None or pending[0] != D.OPTION:
        return []
    return [option for option, _ in pending[2]]


# --- the redacted state: the saved form with what a seat cannot see taken out -------------------------


def _limbo(state, seat: int, lots: list) -> list:
    """An exchange's set-aside cards become counts, but for the lot `seat` is picking into now."""
    pending = state.pending
    mine = -1
    if pending and pending[0] == D.GIVE and pending[1] == seat and pending[3] < 0:
        mine = -1 - pending[3]
    return [cards if slot == mine else len(cards) for slot, cards in enumerate(lots)]


def _frames(state, seat: int, frames: list) -> list:
    """A restricted card's honesty is unknown (None) but to the seat that played it; of a sealed choice's
    picks, each seat sees its own (another's is -1) until every choice is shown."""
    for frame in frames:
        if frame[D.F_SELF] != seat:
            frame[D.F_HONEST] = None
        for slot, kind in enumerate(state.g.code_records[frame[D.F_CODE]].local_kinds, start=D.F_LOCALS):
            if kind in (D.PICKS, D.BIDS) and frame[slot] is not None:
                frame[slot] = [c if q == seat else -1 for q, c in enumerate(frame[slot])]
    return frames


def _pending(state, seat: int, pending):
    """The decision's kind and seat are public; the card another seat drew is theirs to see."""
    if pending and pending[1] != seat and pending[0] == D.DRAWN:
        return [D.DRAWN, pending[1], None]
    return pending


def _vars(state, seat: int, values: list) -> list:
    return [value if public(var) else None for var, value in zip(state.g.state_vars, values)]


def _pvars(state, seat: int, values: list) -> list:
    return [[value if q == seat or public(var) else None for var, value in zip(state.g.player_vars, mine)]
            for q, mine in enumerate(values)]


# What `seat` keeps of each saved field not PUBLIC: f(state, seat, saved value) -> the value it sees. A NOBODY
# field with no entry is removed; tests/test_observation.py holds every OWNER and DECLARED field to an entry.
REDACTED = {
    "draw_pile": lambda state, seat, cards: len(cards),             # its size is public
    "hands": lambda state, seat, hands: [cards if q == seat else len(cards) for q, cards in enumerate(hands)],
    "limbo": _limbo,
    "revealed": lambda state, seat, seen: {str(seat): seen.get(str(seat), {})},     # what was shown to `seat`
    "frames": _frames,
    "pending": _pending,
    "piles": lambda state, seat, piles: [cards if up else len(cards) for up, cards in zip(state.g.face_up, piles)],
    "vars": _vars,
    "pvars": _pvars,
    # The card the turn's player drew this turn: theirs to see (None to the others).
    "drawn_this_turn": lambda state, seat, kind: kind if state.current == seat else None,
}


def redacted_state(state, seat: int) -> dict:
    """The saved form of `state` (State.to_json) with everything `seat` cannot see replaced, field by field as
    `fields.FIELDS` declares: public fields as they are, the others as `REDACTED` says (other seats' hands, the
    draw pile and face-down piles become sizes, only what was shown to `seat` stays in `revealed`, ...) or
    removed (the generator, the seed, the action history). On a two-sided deck, `backs` and `draw_pile_back`
    say what `seat` sees of the faces turned away. What the search bots sample their worlds from."""
    data = json.loads(state.to_json())
    for f in FD.SAVED:
        if f.seen == FD.PUBLIC or f.name not in data:
            continue
        redact = REDACTED.get(f.name)
        if redact is None:
            del data[f.name]
        else:
            data[f.name] = redact(state, seat, data[f.name])
    if state.g.k_back is not None:
        seen = backs(state, seat)
        data["backs"], data["draw_pile_back"] = seen["backs"], seen["draw_pile_back"]
    return data


# --- events: which seat sees which --------------------------------------------------------------------


def event_seen_by(event, seat: int):
    """`event` as `seat` may see it, or None if it may not see it at all: the seats it names see it whole;
    of another seat's drawn, given, traded, looked-at, taken or put cards (events.PRIVATE_CARDS) the others
    see the count only, and a kept card or a private variable's value (events.PRIVATE) not at all."""
    if seat == event.player or (seat == event.other and event.other >= 0):
        return event
    if event.kind in PRIVATE:
        return None
    if event.kind in (CHOSE_SECRETLY, NUMBER_SECRETLY):
        return replace(event, count=-1)          # that they chose, not whom, until every choice is shown
    if event.kind in PRIVATE_CARDS and event.cards:
        return replace(event, cards=())
    return event


def events_for(state, seat: int, since: int = 0) -> list:
    """What happened from `State.events[since]` on, each event as `seat` may see it (event_seen_by); empty
    for a game that does not record."""
    if state.events is None:
        return []
    seen = [event_seen_by(e, seat) for e in state.events[since:]]
    return [e for e in seen if e is not None]


def event_mark(state) -> int:
    """The index the next event will have: `events_for(state, seat, since=event_mark(state))` later is what
    happened from now on (0 for a game that does not record)."""
    return len(state.events) if state.events is not None else 0


class Observation:
    """State's views, each this module's function: the top card and color, a hand by card ids, a player's
    observation, the faces turned away, a seat's events."""

    __slots__ = ()

    @property
    def top_card(self) -> str:
        """The id of the discard pile's top card ("" for an empty pile)."""
        return self.g.card_names[self.discard[-1]] if self.discard else ""

    @property
    def current_color(self) -> str | None:
        """The color in play, or None while no color is named."""
        return self.g.variant.colors[self.color] if self.color >= 0 else None

    def hand(self, player: int) -> list[str]:
        """The cards of a player's hand, as ids (sorted for display)."""
        names = self.g.card_names
        return sorted(names[k] for k in self.hands[player])

    def observation(self, player: int) -> dict:
        """What `player` may know: own hand, others' hand sizes, public piles, what was shown to them (seat_view)."""
        return seat_view(self, player)

    def backs(self, player: int) -> dict:
        """On a two-sided deck, what `player` sees of the faces turned away (backs)."""
        return backs(self, player)

    def events_for(self, seat: int, since: int = 0) -> list:
        """What happened from `State.events[since]` on, each event as `seat` may see it (event_seen_by):
        another player's drawn, given, traded or looked-at cards as counts, their kept card not at all.
        Empty for a game that does not record."""
        return events_for(self, seat, since)
