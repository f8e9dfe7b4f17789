"""Declared variables at run time: their values in the State, reset each round or match, observed, saved.

`State.vars` holds the global values in the order of the variant's `state:`, `State.pvars`
one such list per seat for `player_state:`. A value is kept as the engine keeps its kind:
an int, a bool, a color index (-1: no color), a card type id or an enum value ("" for no
card type). What a seat may see of them is decided here, once: public values for
everyone, a private one for its player only, a hidden one for no one.
"""

from __future__ import annotations

from ..effects.fold import CLAMP
from ..model.variables import Reset, VarType, Visibility
from .errors import VariableError


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

    def variable(self, name: str, player: int = -1):
        """The value of variable `name` (of `player` for a per-player one), as players see it; KeyError if none."""
        g = self.g
        var = g.variant.state.get(name) or g.variant.player_state[name]
        if var.per_player:
            value = self.pvars[player][g.player_vars.index(var)]
        else:
            value = self.vars[g.state_vars.index(var)]
        return shown_value(var, value, g.variant.colors)

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


def checked_value(game, var, value):
    """`value`, as players see it (a color or card type by its word), as the engine keeps it; raises ValueError
    saying why it is not one of `var`'s values (a save file's, a position's)."""
    if var.type is VarType.INT:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"must be an integer, not {value!r}")
        if var.clamp(value) != value:
            raise ValueError(f"is {value}, outside the min and max of '{var.name}'")
        if not -CLAMP <= value <= CLAMP:          # what arithmetic holds every int to (effects.fold)
            raise ValueError(f"is {value}, outside -{CLAMP:,} to {CLAMP:,}")
        return value
    if var.type is VarType.BOOL:
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, not {value!r}")
        return value
    allowed = {VarType.COLOR: game.variant.colors, VarType.CARD_TYPE: game.type_ids, VarType.ENUM: var.values}[var.type]
    if not (isinstance(value, str) and value in allowed) and not (value is None and var.type is not VarType.ENUM):
        raise ValueError(f"must be one of {', '.join(allowed)}{'' if var.type is VarType.ENUM else ' or null'}, "
                         f"not {value!r}")
    return engine_value(var, value, game.variant.colors)


def set_up_variables(state, values: dict) -> None:
    """Give declared variables the values of a position: {global name: value, per-player name: [value per seat]}.

    Values are as players see them; raises ValueError naming the variable that is wrong.
    """
    g = state.g
    names = [v.name for v in (*g.state_vars, *g.player_vars)]
    for name, value in values.items():
        var = g.variant.state.get(name) or g.variant.player_state.get(name)
        if var is None:
            raise VariableError(name, f"unknown variable {name!r}" + (f" (the variables are {', '.join(names)})"
                                                                      if names else " (the variant declares none)"))
        try:
            if not var.per_player:
                state.vars[g.state_vars.index(var)] = checked_value(g, var, value)
                continue
            if not isinstance(value, list) or len(value) != state.n:
                raise ValueError(f"must be a list of one value per seat ({state.n})")
            i = g.player_vars.index(var)
            for q, item in enumerate(value):
                state.pvars[q][i] = checked_value(g, var, item)
        except ValueError as err:
            raise VariableError(name, f"variable '{name}' {err}") from None
