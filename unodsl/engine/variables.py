"""Declared variables at run time: their values in the State, reset each round or match, observed, saved.

`State.vars` holds the global values in the order of the variant's `state:`, `State.pvars`
one such list per seat for `player_state:`. A value is kept as the engine keeps its kind:
an int, a bool, a color index (-1: no color), a card type id or an enum value ("" for no
card type). What a seat may see of them is decided here, once: public values for
everyone, a private one for its player only, a hidden one for no one.
"""

from __future__ import annotations

from ..model.variables import Reset, VarType, Visibility


def variable_tables(variant) -> tuple[tuple, tuple, tuple, tuple]:
    """(globals, per-player variables, their engine values at the start): the Game's tables."""
    state, per_player = tuple(variant.state.values()), tuple(variant.player_state.values())
    colors = variant.colors
    return (state, per_player, tuple(engine_value(v, v.initial, colors) for v in state),
            tuple(engine_value(v, v.initial, colors) for v in per_player))


def engine_value(var, value, colors):
    """A declared value (a color or card type by its word, None for none) as the engine keeps it."""
    if var.type is VarType.COLOR:
        return colors.index(value) if value in colors else -1
    if var.type is VarType.CARD_TYPE:
        return value if isinstance(value, str) else ""
    return value


def shown_value(var, value, colors):
    """An engine value as players and save files see it: a color or card type by its word, None for none."""
    if var.type is VarType.COLOR:
        return colors[value] if 0 <= value < len(colors) else None
    if var.type is VarType.CARD_TYPE:
        return value or None
    return value


def public(var) -> bool:
    return var.visibility is Visibility.PUBLIC


class Variables:
    """State's variables: resetting them and what a seat may see of them."""

    __slots__ = ()

    def reset_variables(self, first: bool) -> None:
        """Set every variable to its initial value (first: the game's start) or only the round-reset ones."""
        g = self.g
        if first:
            self.vars = list(g.var_initial)
            self.pvars = [list(g.pvar_initial) for _ in range(self.n)]
            return
        for i, var in enumerate(g.state_vars):
            if var.reset is Reset.ROUND:
                self.vars[i] = g.var_initial[i]
        for i, var in enumerate(g.player_vars):
            if var.reset is Reset.ROUND:
                for values in self.pvars:
                    values[i] = g.pvar_initial[i]

    def variables_seen_by(self, player: int) -> dict:
        """The observation's `state` (public globals by name) and `player_state` (per name, one value per seat,
        None where `player` may not see it); empty when the variant declares no variables."""
        g = self.g
        if not g.state_vars and not g.player_vars:
            return {}
        colors = g.variant.colors
        return {
            "state": {var.name: shown_value(var, self.vars[i], colors)
                      for i, var in enumerate(g.state_vars) if public(var)},
            "player_state": {var.name: [shown_value(var, values[i], colors) if public(var) or q == player else None
                                        for q, values in enumerate(self.pvars)]
                             for i, var in enumerate(g.player_vars)},
        }
