"""Matching as data: a variant's `match:` conditions become the table of what may follow what.

A match condition reads only the candidate card, the top card, the current color and
rulings (the checker holds it to that, E516), so its answer for every (current color, top
card, candidate) is worked out once, here, into `Game.playable_after`: the table the fixed
color/number/symbol test fills. Both modes read that one table, so a variant with a match
condition plays as fast as one without, and FastState needs no path of its own for it.
"""

from __future__ import annotations

from ..effects.layout import F_CARD


class _Table:
    """What a match condition can read of a state: the discard pile's top and the current color."""

    __slots__ = ("g", "discard", "color", "on_pile")

    def __init__(self, g):
        self.g = g
        self.discard: list[int] = []
        self.color = -1
        self.on_pile = -1           # the discard pile: every playable pile reads the same table


def match_table(game, tests: list) -> list[list[frozenset | None]]:
    """playable_after with the match conditions: [color + 1][top card] -> the kinds that may follow, or None for all.

    `tests` holds, per card type, the lowered condition that decides for a card of that
    type (its own `match:`, else the variant's), or None for the fixed test, whose answer
    is read from the table the fixed test made.
    """
    fixed = game.playable_after
    every = range(game.num_kinds)
    tested = [(k, tests[game.k_type[k]]) for k in every]
    probe = _Table(game)
    frame = [-1, 0, -1, -1, True, False]
    shared: dict[frozenset, frozenset] = {}      # equal rows held once
    table = []
    for c in range(-1, len(game.variant.colors)):
        probe.color = c
        row = []
        for top in every:
            probe.discard = [top]
            ok = fixed[c + 1][top]
            kinds = set()
            for k, test in tested:
                if test is None:
                    allowed = ok is None or k in ok
                else:
                    frame[F_CARD] = k
                    allowed = test(probe, frame)
                if allowed:
                    kinds.add(k)
            row.append(None if len(kinds) == game.num_kinds else shared.setdefault(frozenset(kinds),
                                                                                     frozenset(kinds)))
        table.append(row)
    return table


def kinds_meeting(game, test) -> frozenset:
    """The card kinds for which `test`, a lowered condition that reads only the card (a pile's `where:`), holds."""
    probe = _Table(game)
    frame = [-1, 0, -1, -1, True, False]
    kinds = set()
    for k in range(game.num_kinds):
        frame[F_CARD] = k
        if test(probe, frame):
            kinds.add(k)
    return frozenset(kinds)
