"""What one seat may know of a game: the only thing a bot is given to decide from.

A bot never holds the `State`. `SeatView(state)` reads, for the seat to act, its
legal action ids, its own hand and the public facts, and `public` is the whole state
with every card the seat cannot see taken out (other hands and the limbo of an exchange
become counts, the draw pile a count, the generator and the seed gone). Two states that
differ only in the cards the seat cannot see give equal views: tests/test_agents.py
holds every bot to that by dealing the hidden cards again.
"""

from __future__ import annotations

import json

from ..effects import layout as D
from ..engine.variables import public

# Fields of a saved state that only say what the engine will draw, or held hidden cards
# before they were played: never part of what a seat knows.
_SECRET = ("rng", "seed", "history")


def public_state(state, seat: int) -> dict:
    """The saved form of `state` (State.to_json) with everything `seat` cannot see replaced.

    Other seats' hands, the draw pile and face-down named piles become their sizes (on a two-sided
    deck, with the other face of those hands and of the draw pile's top card beside them: `backs`,
    `draw_pile_back`); an exchange's set-aside cards
    become counts but for `seat`'s own picks; a restricted card's honesty is unknown (None)
    unless `seat` played it; the card drawn on another seat's turn is unknown (None); only what was
    shown to `seat` stays in `revealed`; a hidden
    variable's value, and another seat's private one, become None; the generator, the seed and
    the action history (gifts and trades name hidden cards) are removed.
    """
    data = json.loads(state.to_json())
    if state.g.k_back is not None:
        # A two-sided deck shows the other face of the other hands and of the draw pile's top card.
        seen = state.backs(seat)
        data["backs"], data["draw_pile_back"] = seen["backs"], seen["draw_pile_back"]
    for q, hand in enumerate(data["hands"]):
        if q != seat:
            data["hands"][q] = len(hand)
    data["draw_pile"] = len(data["draw_pile"])
    pending = data["pending"]
    mine = -1                           # the limbo slot `seat` is picking into now, if any
    if pending and pending[0] == D.GIVE and pending[1] == seat and pending[3] < 0:
        mine = -1 - pending[3]
    data["limbo"] = [cards if slot == mine else len(cards) for slot, cards in enumerate(data["limbo"])]
    if "piles" in data:                 # saved only by a variant with named piles
        data["piles"] = [cards if up else len(cards) for up, cards in zip(state.g.face_up, data["piles"])]
    for frame in data["frames"]:
        if frame[D.F_SELF] != seat:
            frame[D.F_HONEST] = None
    data["revealed"] = {str(seat): data["revealed"].get(str(seat), {})}
    g = state.g
    if "vars" in data:                  # saved only by a variant that declares variables
        data["vars"] = [value if public(var) else None for var, value in zip(g.state_vars, data["vars"])]
    if "pvars" in data:
        data["pvars"] = [[value if q == seat or public(var) else None for var, value in zip(g.player_vars, values)]
                         for q, values in enumerate(data["pvars"])]
    if pending and pending[1] != seat and pending[0] == D.DRAWN:
        data["pending"] = [D.DRAWN, pending[1], None]       # the card another seat drew is theirs to see
    if data["current"] != seat:
        data["drawn_this_turn"] = None                      # so is the card drawn on their turn
    for key in _SECRET:
        del data[key]
    return data


class SeatView:
    """The seat to act's legal actions, own hand and public facts; each read from the state once, on demand."""

    __slots__ = ("game", "seat", "decision", "legal", "_state", "_sizes", "_teammates", "_public", "_observation")

    def __init__(self, state, legal: list[int] | None = None):
        self._state = state
        self.game = state.g
        self.seat = state.current_player
        self.decision: str = state.decision
        self.legal: list[int] = state.legal_action_ids() if legal is None else legal
        self._sizes = self._teammates = self._public = self._observation = None

    @property
    def hand(self) -> list[int]:
        """The seat's own cards, as kinds (the state's own list: read it, do not change it)."""
        return self._state.hands[self.seat]

    @property
    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds."""
        if self._sizes is None:
            self._sizes = [len(h) for h in self._state.hands]
        return self._sizes

    @property
    def color(self) -> int:
        """The colour in play, as an index into the variant's colours (-1 while none is named)."""
        return self._state.color

    @property
    def next_seat(self) -> int:
        """The seat that plays after this one in the direction of play (-1: none)."""
        return self._state.next_of(self.seat)

    @property
    def side(self) -> int:
        """The side of a two-sided deck that faces up (0 for any other deck)."""
        return self._state.side if self.game.k_back is not None else 0

    @property
    def discard(self) -> list[int]:
        """The discard pile, bottom first, as kinds (face up: public; read it, do not change it)."""
        return self._state.discard

    @property
    def round(self) -> int:
        """The round being played (0 for the first)."""
        return self._state.round

    @property
    def teammates(self) -> list[int]:
        """The seats on this seat's team, itself included."""
        if self._teammates is None:
            state, seat = self._state, self.seat
            self._teammates = [q for q in range(state.n) if state.same_team(q, seat)]
        return self._teammates

    @property
    def observation(self) -> dict:
        """`state.observation(seat)`: the engine's own account of what the seat may know."""
        if self._observation is None:
            self._observation = self._state.observation(self.seat)
        return self._observation

    @property
    def variables(self) -> dict:
        """The declared variables the seat may see: `state` (public globals) and `player_state` (one value per
        seat, None for another seat's private one); empty when the variant declares none."""
        return self._state.variables_seen_by(self.seat)

    @property
    def public(self) -> dict:
        """`public_state(state, seat)`: the state, hidden cards taken out."""
        if self._public is None:
            self._public = public_state(self._state, self.seat)
        return self._public

    def played_by(self) -> int:
        """The seat whose card's effect is deciding now (the one to challenge), or -1.

        Read from the open effect frame, not from `public` (a public fact; saving the whole
        state to find it would cost the heuristic bot a fifth of its time on classic).
        """
        frames = self._state.frames
        return frames[-1][D.F_SELF] if frames else -1

    def options_offered(self) -> list[int]:
        """The `option NAME` action ids of the choice being made, in the order its effect lists them."""
        pending = self._state.pending
        if pending is None or pending[0] != D.OPTION:
            return []
        return [self.game.A_OPTION + option for option, _ in pending[2]]


class Bot:
    """A player that is a program: `act(state)` hands `decide` the seat's view, and nothing else."""

    name = ""

    def __init__(self, rng):
        self.rng = rng

    def act(self, state) -> int:
        """Return the id of the action to take, decided from what the seat to act may know."""
        return self.decide(SeatView(state))

    def decide(self, view: SeatView) -> int:
        """Return one of `view.legal`."""
        raise NotImplementedError
