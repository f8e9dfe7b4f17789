"""What one seat may know of a game: the only thing a bot is given to decide from.

A bot never holds the `State`. `SeatView(state)` reads, for the seat to act, its
legal action ids, its own hand and the public facts, and `public` is the whole state
with every card the seat cannot see taken out (other hands and the limbo of an exchange
become counts, the draw pile a count, the generator and the seed gone): each read through
engine/observation.py, the one place that decides what a seat may see. Two states that
differ only in the cards the seat cannot see give equal views: tests/test_agents.py
holds every bot to that by dealing the hidden cards again.
"""

from __future__ import annotations

from ..engine.observation import hand_sizes, options_offered, own_hand, played_by, redacted_state

# The redacted state: what the search bots sample their worlds from (engine/observation.py decides it).
public_state = redacted_state


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
        return own_hand(self._state, self.seat)

    @property
    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds."""
        if self._sizes is None:
            self._sizes = hand_sizes(self._state)
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
        """`redacted_state(state, seat)`: the state, hidden cards taken out."""
        if self._public is None:
            self._public = public_state(self._state, self.seat)
        return self._public

    def played_by(self) -> int:
        """The seat whose card's effect is deciding now (the one to challenge), or -1.

        Read from the open effect frame (observation.played_by), not from `public` (a public fact; saving the
        whole state to find it would cost the heuristic bot a fifth of its time on classic).
        """
        return played_by(self._state)

    def options_offered(self) -> list[int]:
        """The `option NAME` action ids of the choice being made, in the order its effect lists them."""
        return [self.game.A_OPTION + option for option in options_offered(self._state)]


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
