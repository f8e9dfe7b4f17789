"""What every environment of one variant shares: the engine's action strings, the action tables, the
observation layouts and, for environments made from a file, the compiled Game itself.

They depend on the variant alone (its merged rules and rulings, `Game.digest`) and the table size, never
on a game in play, so they are built once per variant and shared by every environment of it, whichever
`Game` object it was given: two `unodsl.load` calls of one file give two Games and one set of tables.
They are immutable (tuples, read-only mappings, read-only numpy arrays), so no environment can change
what another one reads. A variant's tables live as long as some Game of it does (each Game holds its
variant's in `Game.adapter_cache`, a slot the engine never reads) and are dropped with the last.
"""

from __future__ import annotations

import weakref
from pathlib import Path


class VariantTables(dict):
    """The shared tables of one variant, by a key of their builder's (`(ActionTable, num_players)`, ...)."""

    __slots__ = ("digest", "__weakref__")

    def __init__(self, digest: str):
        super().__init__()
        self.digest = digest


# Variant digest -> its tables, while some Game of that variant is alive.
_BY_DIGEST: weakref.WeakValueDictionary[str, VariantTables] = weakref.WeakValueDictionary()


def tables_of(game) -> VariantTables:
    """The shared tables of `game`'s variant (the same object for every Game of the same rules)."""
    tables = game.adapter_cache.get(VariantTables)
    if tables is None:
        tables = _BY_DIGEST.get(game.digest)
        if tables is None:
            tables = _BY_DIGEST[game.digest] = VariantTables(game.digest)
        game.adapter_cache[VariantTables] = tables
    return tables


def shared(game, key, build):
    """The table `key` of `game`'s variant: `build()` the first time any Game of that variant asks, then
    the same object (`build` must return something immutable)."""
    tables = tables_of(game)
    value = tables.get(key)
    if value is None:
        value = tables[key] = build()
    return value


def load_game(variant):
    """A compiled Game from a path (or a shipped name), or the Game itself.

    From a path: the Game already loaded for an environment of the same rules and mode, if one is alive
    (an environment made from a file would otherwise hold a compiled Game of its own, about 170 KiB).
    """
    if isinstance(variant, (str, Path)):
        from .. import load
        game = load(variant)
        return shared(game, ("Game", game.fast), lambda: game)
    return variant
