"""A game in progress: the State's fields and its public API (OpenSpiel's small, fixed set)."""

from __future__ import annotations

from ..effects import layout as D
from . import fields, savefile
from .cards import Cards
from .errors import IllegalAction
from .events import decided
from .flow import AFTER_SETUP, END_TURN, Flow
from .moves import APPLY, LEGAL, Moves
from .observation import Observation
from .scoring import Scoring
from .seats import Seats
from .variables import Variables
from .vm import VM


_DERIVED = fields.derived({"AFTER_SETUP": AFTER_SETUP, "END_TURN": END_TURN})


class State(Seats, Cards, VM, Flow, Moves, Scoring, Observation, Variables):
    """One game in progress: zones, turn, pending decision and effect frames.

    The fields and the public API are here; each of State's jobs is a slot-free mixin of its
    own module (seats, cards, vm, flow, moves, scoring, observation, variables), so a method found
    through them costs what one defined here would.
    """

    # Slots, not a __dict__: with this many fields an instance dict stops sharing its keys, and every
    # attribute access on the hot path becomes a dict lookup. The slots, the constructor, the round reset
    # and clone are made from the fields' declaration (engine/fields.py), once, when this module is imported.
    __slots__ = _DERIVED["__slots__"]
    __init__ = _DERIVED["__init__"]
    reset_round_fields = _DERIVED["reset_round_fields"]
    clone = _DERIVED["clone"]

    # --- public API -------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat that must act now (-1 when the game is over)."""
        return -1 if self.over else self.pending[1]

    @property
    def is_over(self) -> bool:
        """True when the game (or match) has ended."""
        return self.over

    @property
    def decision(self) -> str:
        """The kind of decision pending (see effects/layout.py)."""
        return "" if self.over else self.pending[0]

    def legal_actions(self) -> list[str]:
        """The legal actions of the current player, as strings."""
        to_str = self.g.action_to_string
        return [to_str(a) for a in self.legal_action_ids()]

    def apply(self, action: str | int) -> None:
        """Apply an action (string or id); raises IllegalAction and leaves the state unchanged."""
        if isinstance(action, str):
            action_id = self.g.action_from_string(action)
        else:
            action_id = action
        if self.over:
            raise IllegalAction(action, "the game is over")
        legal = self.legal_action_ids()
        if action_id not in legal:
            raise IllegalAction(action, self.why_illegal(action_id))
        self.apply_id(action_id)

    def legal_action_ids(self) -> list[int]:
        """The legal actions of the current player, as integer ids: sorted, but a final `pass` or `done` last."""
        if self.over:
            return []
        return LEGAL[self.pending[0]](self)

    def apply_id(self, action: int) -> None:
        """Apply a legal action id without re-checking legality (the bot fast path)."""
        if self.log is not None:
            self.log.append(f"p{self.pending[1]}: {self.g.action_to_string(action)}")
            decided(self, action)
        self.history.append(action)
        kind, p = self.pending[0], self.pending[1]
        if kind != D.TURN:
            APPLY[kind](self, action)
            return
        # A turn, as in legal_action_ids: a play, or a draw.
        self.pending = None
        g = self.g
        if action == g.A_DRAW:
            self.draw_for_turn(p)
        elif action < g.A_DRAW:
            if g.play_piles:
                self.on_pile = -1                   # a play on the discard pile
            k = g.num_kinds
            self.play(p, action % k, action >= k)
        else:                                       # `play K on PILE`: a playable pile becomes the pile in play
            self.on_pile, kind, uno = g.played_on(action)
            self.play(p, kind, uno)

    def play_out(self, rand=None) -> None:
        """Play uniformly random decisions until the game is over (a random rollout).

        At each decision it plays `legal_action_ids()[int(rand() * n)]`, n the number of
        legal actions: exactly the game that `RandomBot`s drawing from `rand` would play.
        `rand` defaults to the game's own generator.
        """
        rand = rand or self.rng.random
        while not self.over:
            actions = self.legal_action_ids()
            self.apply_id(actions[int(rand() * len(actions))])

    # --- saving

    def to_json(self) -> str:
        """Serialize the whole state, RNG included, as JSON text."""
        return savefile.dump_state(self)

    @classmethod
    def from_json(cls, game, text: str) -> "State":
        """Load a state of `game` saved by to_json; raises InvalidState naming what is wrong."""
        return savefile.load_state(game, text)

