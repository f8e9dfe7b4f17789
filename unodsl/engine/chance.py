"""Chance named from outside: a game in which every card dealt or drawn and every random number is told.

A ChanceState (`chance_state`) plays its variant as State does. Where State would take a card
of a shuffled pile, or a random number, from its seeded generator, a ChanceState takes the
next outcome of its `told` list; when the list has no more, it raises NeedChance, which says
the outcomes possible there and their probabilities. Its caller runs the step again from a copy
of the state before it, with that outcome told: unodsl.rl.openspiel makes each NeedChance an
OpenSpiel chance node that way.

A shuffled draw pile is not dealt out in advance. Its cards stay unresolved (the list's
`lo`..`hi`) until one is taken, or until its back shows on a two-sided deck; only then does
chance name the card, each face as likely as its share of the unresolved cards. Cards put on
the pile later, on top or underneath, stay where they were put, and the hands dealt and the
cards a redeal hands out are named one by one, from the top. So a chance outcome is a face,
never a shuffle.

The generator still shuffles and draws as State's would, and each NeedChance carries the
outcome it gave (`natural`): telling every natural outcome plays exactly the game that
`Game.new_game` plays with the same seed (tests/test_chance.py holds the two equal).

Outcome ids: a card is its kind id (0 to num_kinds - 1); the i-th of a number's possible values
is `num_kinds + i`, i below the table's `width` (a uniform range wider than that is named a
block at a time).

A ChanceState is built on State (SetState for a variant with sets), never on FastState, whose
turn draw takes the pile's top card itself.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .cards import shuffle
from .errors import PinnedChanceError
from .fields import SLOTS


class NeedChance(Exception):
    """A chance outcome must be told: `outcomes` are (id, probability) in id order; `natural` is the
    id the state's own generator gave."""

    def __init__(self, outcomes: list, natural: int):
        super().__init__(f"a chance outcome is needed ({len(outcomes)} possible)")
        self.outcomes, self.natural = outcomes, natural

    def __deepcopy__(self, memo):
        return self                             # never changed once raised

    def __reduce__(self):
        return NeedChance, (self.outcomes, self.natural)


def chance_width(game, players: int) -> int:
    """The most values one number outcome names: seats (a random dealer), a distribution's values, or 10."""
    sizes = [len(spec.values) for spec in game.variant.distributions.values()]
    return max(players, 10, *sizes)


class _Chance:
    """ChanceState's methods: State's chance methods (engine/cards.py), asking for each outcome."""

    __slots__ = ()
    width = 10

    # --- the outcomes told

    def tell(self, told: list) -> None:
        """The outcomes of the step about to be played, in the order they will be asked for."""
        self.told, self.used = told, 0

    def _ask(self, outcomes: list, natural: int) -> int:
        if self.used < len(self.told):
            told = self.told[self.used]
            if all(told != a for a, _ in outcomes):
                raise ValueError(f"chance outcome {told} is not one of the {len(outcomes)} possible here")
            self.used += 1
            return told
        raise NeedChance(outcomes, natural)

    def _ask_index(self, weights: list, natural: int) -> int:
        base, total = self.g.num_kinds, sum(weights)
        outcomes = [(base + i, w / total) for i, w in enumerate(weights) if w > 0]
        return self._ask(outcomes, base + natural) - base

    def _uniform(self, n: int, natural: int) -> int:
        """An index below n, each as likely: one outcome, or (n wider than `width`) which block of the
        range, each as likely as its size, then an index inside that block."""
        width = self.width
        if n <= width:
            return self._ask_index([1] * n, natural)
        size = -(-n // width)
        blocks = [min(size, n - i * size) for i in range(-(-n // size))]
        block = self._ask_index(blocks, natural // size)
        return block * size + self._uniform(blocks[block], natural - block * size)

    def _pick_card(self, cards: list, lo: int, at: int) -> None:
        """Chance names the card at `at` among the unresolved cards[lo:at + 1]; it is swapped there."""
        counts = Counter(cards[lo:at + 1])
        total = at + 1 - lo
        k = self._ask([(k, c / total) for k, c in sorted(counts.items())], cards[at])
        if cards[at] != k:
            j = cards.index(k, lo, at + 1)
            cards[j], cards[at] = cards[at], k

    def _resolve_top(self, count: int) -> None:
        """Name the draw pile's top `count` cards, those not known yet."""
        pile, lo, hi = self.draw_pile, self.lo, self.hi
        for at in range(len(pile) - 1, len(pile) - 1 - count, -1):
            if at >= hi:
                continue                        # put on the pile since its shuffle: known
            if at < lo:
                break                           # put under it: known
            self._pick_card(pile, lo, at)
            hi = at
        self.hi = hi

    def _show_top(self) -> None:
        """A two-sided deck shows the back of the draw pile's top card: chance names it now."""
        if self.g.k_back is not None and self.draw_pile:
            self._resolve_top(1)

    # --- State's chance methods

    def shuffle_cards(self, cards: list, taken: int = 0) -> None:
        shuffle(cards, self.rng)                # the natural order: what State would deal
        taken = min(taken, len(cards))
        for at in range(len(cards) - 1, len(cards) - 1 - taken, -1):
            self._pick_card(cards, 0, at)
        if cards is self.draw_pile:
            self.lo, self.hi = 0, len(cards) - taken

    def randrange(self, n: int) -> int:
        return self._uniform(n, super().randrange(n))

    def weighted(self, cumulative: tuple) -> int:
        weights = [b - a for a, b in zip((0, *cumulative), cumulative)]
        return self._ask_index(weights, super().weighted(cumulative))

    def draw_pile_top(self) -> int:
        self._resolve_top(1)
        return super().draw_pile_top()

    def put_under_draw_pile(self, cards: list) -> None:
        super().put_under_draw_pile(cards)
        if self.lo < self.hi:
            self.lo += len(cards)
            self.hi += len(cards)

    def draw_one(self) -> int:
        if self.draw_pile or self.refill():        # State's draw then finds the pile filled
            self._resolve_top(1)
        return super().draw_one()

    def draw_cards(self, p: int, n: int) -> int:
        self._resolve_top(min(n, len(self.draw_pile)))
        return super().draw_cards(p, n)

    # --- State's API

    def apply_id(self, action: int) -> None:
        super().apply_id(action)
        self._show_top()

    def clone(self):
        new = super().clone()
        new.lo, new.hi, new.told, new.used = self.lo, self.hi, self.told, self.used
        return new


@lru_cache(maxsize=None)
def chance_class(base: type, width: int) -> type:
    """`base` (State, or SetState for a variant with sets) asking for its chance outcomes."""
    return type(f"Chance{base.__name__}", (_Chance, base), {"__slots__": ("lo", "hi", "told", "used"), "width": width})


def chance_state(game, players: int, told: list, seed: int = 0, width: int | None = None):
    """A new game dealt by chance: `told` names the outcomes of the deal (NeedChance when it runs out)."""
    game.check_players(players)
    cls = chance_class(game.state_class_for(True), width or chance_width(game, players))
    state = cls(game, players, seed, False, False)
    state.lo = state.hi = 0
    state.draw_pile = []                        # none yet: a high-card draw for the dealer shuffles a deck of its own
    state.tell(told)
    state.new_round(first=True)
    state._show_top()
    return state


def as_chance(state, width: int | None = None):
    """A ChanceState copy of `state`: its draw pile all unresolved, but a two-sided deck's top card (its back shows)."""
    copy = state.clone()
    cls = chance_class(state.g.state_class_for(True), width or chance_width(state.g, state.n))
    new = cls.__new__(cls)
    for key in SLOTS:
        if hasattr(copy, key):
            setattr(new, key, getattr(copy, key))
    shown = 1 if state.g.k_back is not None and copy.draw_pile else 0
    new.lo, new.hi = 0, len(copy.draw_pile) - shown
    new.tell([])
    return new


# ---------------------------------------------------------------------------
# Outcomes given in advance: the language's next random numbers and values, told by a position.


class _Pinned:
    """PinnedState's methods: the next outcomes of `random(a, b)` and `random NAME` are the values of
    `pinned`, in order (a number, or a color by its name); once they are used up, the generator's.

    So a rule with a random part is tested by its outcome (a scenario's `given: {random: [...]}`).
    Shuffles and the cards they bring are not pinned: a position places its cards itself.
    """

    __slots__ = ()

    def _next_pinned(self):
        value = self.pinned[self.pinned_used]
        self.pinned_used += 1
        return value

    def random_between(self, low: int, high: int) -> int:
        if self.pinned_used >= len(self.pinned):
            return super().random_between(low, high)
        value = self._next_pinned()
        if type(value) is not int or not low <= value <= high:
            raise PinnedChanceError(self.pinned_used - 1, f"{value!r} cannot come from random({low}, {high}), "
                                    f"which gives a number from {low} to {high}")
        return value

    def random_choice(self, name: str, values: tuple, cumulative: tuple, colored: bool):
        if self.pinned_used >= len(self.pinned):
            return super().random_choice(name, values, cumulative, colored)
        value = self._next_pinned()
        colors = self.g.variant.colors
        if colored:
            outcome = colors.index(value) if isinstance(value, str) and value in colors else None
        else:
            outcome = value if type(value) is int else None
        if outcome not in values:
            shown = ", ".join(str(colors[v] if colored else v) for v in values)
            raise PinnedChanceError(self.pinned_used - 1, f"{value!r} cannot come from random {name}, which "
                                    f"gives one of {shown}")
        return outcome

    def clone(self):
        new = super().clone()
        new.pinned, new.pinned_used = self.pinned, self.pinned_used
        return new


@lru_cache(maxsize=None)
def pinned_class(base: type) -> type:
    """`base` (State, FastState or SetState) taking its next random outcomes from a list (PinnedState)."""
    return type(f"Pinned{base.__name__}", (_Pinned, base), {"__slots__": ("pinned", "pinned_used")})
