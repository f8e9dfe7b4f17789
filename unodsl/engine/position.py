"""A game set up at a given position instead of dealt: the public seam scenarios, tests and tools use."""

from __future__ import annotations

import random
from collections import Counter

from ..effects import layout as D
from .chance import pinned_class
from .flow import AFTER_PLAY
from .seats import finished_team
from .state import State
from .variables import set_up_variables


class Positions:
    """Game's set-up of a position; slot-free (Game declares the slots)."""

    __slots__ = ()

    def position(self, hands: list, draw_pile: list, discard: list, *, dealer: int, turn: int | None = None,
                 direction: int = 1, color: str | int | None = None, scores: list | None = None,
                 uno_called=(), match: bool = False, seed: int = 0, rng: random.Random | None = None,
                 start: bool = False, record: bool = False, side: str | int = 0,
                 piles: dict | None = None, variables: dict | None = None,
                 random_values: list | None = None, roles: list | None = None) -> "State":
        """A game set up at a given position instead of dealt: what scenarios, tests and tools build.

        `hands` holds one list of cards per seat, `draw_pile` the draw pile from the top down,
        `discard` the discard pile from the bottom up (its last card is the top card); cards are
        ids or kinds, and together they must be exactly the deck. With `start`, the round begins
        as a dealt one does (the deal's effect, then the top card's start effect, then the seat
        after the dealer); else `turn` (default: the seat after the dealer) is to play. `color`
        defaults to the top card's. `piles` maps a declared pile's name to its cards, bottom
        first (the piles not named are empty). The game draws from `rng` if given, else from a
        generator seeded with `seed`. On a two-sided deck `side` (a name or an index) is the side
        up: every card is given by its face on that side. `variables` gives declared variables
        other values than their initial ones: {global name: value, per-player name: [value per
        seat]}, colors and card types by their words. `random_values` gives the outcomes of the
        game's next random draws, `random(a, b)` and `random NAME`, in order (a number, or a color by
        its name); once they are used up the generator draws. A value that the draw it comes to
        cannot give raises PinnedChanceError there; `state.pinned_used` counts those drawn. `roles` gives
        each seat's role by its name (roles:; default: as the roles are given by seat). Raises
        ValueError saying what is wrong, a round that is already decided included.
        """
        n = len(hands)
        self.check_players(n)
        side = self.side_index(side)
        named = dict(piles or {})
        for name in named:
            if name not in self.pile_names:
                raise ValueError(f"unknown pile {name!r}" + (f" (the piles are {', '.join(self.pile_names)})"
                                                             if self.pile_names else " (the variant has none)"))
        stacks = [self._kinds(named.get(name, []), f"the {name} pile") for name in self.pile_names]
        hand_kinds, pile, below = self._placed(hands, draw_pile, discard, side, stacks)
        decided = self._decided(hand_kinds)
        if decided:
            raise ValueError(f"the round is already decided: {decided}")
        for name, seat in (("dealer", dealer), ("turn", turn)):
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
                raise ValueError(f"{name} seat {seat!r} does not exist with {n} players")
        if direction not in (1, -1):
            raise ValueError("direction must be 1 or -1")
        cls = self.state_class_for(record)
        if random_values is not None:
            cls = pinned_class(cls)
        state = cls(self, n, seed, match, record)                            # as new_game
        if random_values is not None:
            state.pinned, state.pinned_used = tuple(random_values), 0
        if rng is not None:
            state.rng = rng
        state.round = 1
        state.dealer = dealer
        state.hands = hand_kinds
        state.draw_pile = pile[::-1]                # the engine draws from the end of the list
        state.discard = below
        state.direction = direction
        state.side = side
        if color is None:
            state.color = self.k_color[below[-1]] if below else -1
        elif isinstance(color, str):
            if color not in self.variant.colors:
                raise ValueError(f"unknown color {color!r}")
            state.color = self.variant.colors.index(color)
        else:
            state.color = color
        if scores is not None:
            if len(scores) != n:
                raise ValueError(f"{len(scores)} scores for {n} players")
            state.scores = list(scores)
        if roles is not None:
            state.roles = self._roles(roles, n)
        state.reset_variables(True)
        set_up_variables(state, variables or {})
        state.reset_round_fields()
        state.piles = stacks
        for i in self.play_piles:                   # a playable pile's color is its top card's (a wild's: none)
            top = stacks[i][-1] if stacks[i] else -1
            state.pile_colors[i] = -1 if top < 0 or self.k_wild[top] else self.k_color[top]
        for seat in uno_called:
            state.uno_called[seat] = True
        if start:
            state.start_round()
        else:
            first = (dealer + direction) % n if turn is None else turn
            state.current = state.next_player = first       # as a turn begun in play (Flow.next_turn)
            state.turns = state.total_turns = 1
            state.after = AFTER_PLAY
            state.pending = (D.TURN, first)
        return state

    def _roles(self, roles: list, n: int) -> list[int]:
        """Each seat's role, by name, as role indices; ValueError for a role not declared or a list of the wrong size."""
        declared = list(self.variant.roles)
        if not declared:
            raise ValueError("the variant declares no roles (roles:)")
        if len(roles) != n:
            raise ValueError(f"{len(roles)} roles for {n} players")
        for name in roles:
            if name not in declared:
                raise ValueError(f"unknown role {name!r} (the roles are {', '.join(declared)})")
        return [declared.index(name) for name in roles]

    def _decided(self, hands: list) -> str | None:
        """Why a round with these hands would already be over (as the engine's settling would find it), or None."""
        n = len(hands)
        empty = [q for q in range(n) if not hands[q]]
        if empty and self.first_out_ends:
            return f"seat {empty[0]} has no cards, and the first player out of cards wins the round"
        if self.team_out_ends:
            self.tables_for(n)
            size = self.variant.team_size
            if finished_team(self.team_tables[n][0], hands, [False] * n, n // size if size > 1 else n) >= 0:
                return "a whole team has no cards"
        if n - len(empty) <= 1:
            return "at most one player has cards"
        return None

    def side_index(self, side: str | int) -> int:
        """A side given by name or index, as its index; raises ValueError for a side the deck does not have."""
        sides = self.variant.sides or ("",)
        if isinstance(side, str) and side in sides:
            return sides.index(side)
        if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(sides):
            return side
        raise ValueError(f"unknown side {side!r}" + (f" (the sides are {', '.join(sides)})" if self.variant.sides
                                                      else ": the deck has one side"))

    def _placed(self, hands: list, draw_pile: list, discard: list, side: int = 0,
                stacks: list = ()) -> tuple[list, list[int], list[int]]:
        """The zones of a position as kinds; raises ValueError unless together they are exactly the deck,
        each card by its face on `side`."""
        hand_kinds = [self._kinds(h, f"hand {i}") for i, h in enumerate(hands)]
        pile = self._kinds(draw_pile, "the draw pile")
        below = self._kinds(discard, "the discard pile")
        if not below and self.variant.start_card:
            raise ValueError("the discard pile needs a top card (only a variant without a start card, "
                             "start.card: false, begins with none)")
        held = Counter(k for zone in hand_kinds + [pile, below, *stacks] for k in zone)
        deck = Counter(self.deck_up(side, len(hands)))
        if held != deck:
            extra, short = held - deck, deck - held
            wrong = self.card_names[next(iter(extra or short))]
            raise ValueError(f"card {wrong} is placed more often than the deck holds" if extra
                             else f"card {wrong} is not placed")
        return hand_kinds, pile, below

    def _kinds(self, cards: list, where: str) -> list[int]:
        """Cards given as ids or kinds, as kinds; raises ValueError naming an unknown one and `where` it is."""
        out = []
        for c in cards:
            k = self.card_index.get(c) if isinstance(c, str) else c
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < self.num_kinds:
                raise ValueError(f"unknown card {c!r} in {where}")
            out.append(k)
        return out
