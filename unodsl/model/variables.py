"""Declared variables: the `state:` (global) and `player_state:` (one value per player) sections.

A variable is typed, has an initial value, a visibility and a reset rule; the effect
language reads it by name and changes it with `set`. This module turns the two sections
into frozen `Variable`s and reports what the schema cannot see (E340-E342): an initial
value not of the type, settings that do not fit the type, a name given twice or shared
with a color or a ruling.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Callable

from ..diagnostics import suggestion_suffix
from ..source.yaml_tree import Node


class VarType(StrEnum):
    INT = "int"
    BOOL = "bool"
    COLOR = "color"
    CARD_TYPE = "card_type"
    ENUM = "enum"


class Visibility(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"        # player_state only: its player (and the engine) see it
    HIDDEN = "hidden"          # state only: no player sees it, the rules read it


class Reset(StrEnum):
    ROUND = "round"            # back to its initial value when a round is dealt
    MATCH = "match"            # kept from round to round


@dataclass(frozen=True)
class Variable:
    """One declared variable; `initial` is a bool, an int, or a word (a color, a card type, an enum value), or
    None for no color / no card type."""

    name: str
    type: VarType
    initial: object
    values: tuple[str, ...]          # an enum's values; empty for the other types
    visibility: Visibility
    low: int | None                  # an int's min and max: a value set outside is clamped to them
    high: int | None
    reset: Reset
    per_player: bool                 # declared under player_state
    summary: str | None
    node: Node | None = None

    def clamp(self, value: int) -> int:
        """An int value as the variable keeps it: within min and max."""
        if self.low is not None and value < self.low:
            return self.low
        if self.high is not None and value > self.high:
            return self.high
        return value


def _scalar(spec: Node, key: str):
    child = spec.value.get(key) if spec.kind == "map" else None
    return (child.value if child is not None and child.kind == "scalar" else None), child


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def build_variables(root: Node | None, colors: tuple[str, ...] | list[str], cards, rulings,
                    error: Callable) -> tuple[dict[str, Variable], dict[str, Variable]]:
    """The `state:` and `player_state:` sections as Variables; `error(node, code, message)` reports problems."""
    sections = []
    seen: dict[str, str] = {}
    for key, per_player in (("state", False), ("player_state", True)):
        node = root.value.get(key) if root is not None and root.kind == "map" else None
        out: dict[str, Variable] = {}
        if node is not None and node.kind == "map":
            for name, spec in node.value.items():
                if spec.kind != "map":
                    continue                     # `null` removed an inherited one; other values: E202
                if name in seen:
                    error(spec, "E341", f"variable '{name}' is declared in both {seen[name]} and {key}")
                    continue
                seen[name] = key
                var = _build_one(str(name), spec, per_player, colors, cards, error)
                if var is None:
                    continue
                if name in colors:
                    error(spec, "E341", f"variable '{name}' has the name of a color")
                elif name in rulings:
                    error(spec, "E341", f"variable '{name}' has the name of a ruling (read as rule.{name})")
                out[var.name] = var
        sections.append(out)
    return sections[0], sections[1]


def _build_one(name: str, spec: Node, per_player: bool, colors, cards, error) -> Variable | None:
    word, type_node = _scalar(spec, "type")
    if word not in VarType._value2member_map_:
        return None                              # missing or not a type: the schema reported it (E205, E203)
    typ = VarType(word)
    values_node = spec.value.get("values")
    values = tuple(str(item.value) for item in values_node.value
                   if item.kind == "scalar") if values_node is not None and values_node.kind == "seq" else ()
    if typ is VarType.ENUM and not values:
        error(spec, "E342", f"enum variable '{name}' needs its values (values: [a, b])")
        return None
    if typ is not VarType.ENUM and values_node is not None:
        error(values_node, "E342", f"'values' is for enum variables; '{name}' is {typ.value}")
    low, low_node = _scalar(spec, "min")
    high, high_node = _scalar(spec, "max")
    for bound, node in ((low, low_node), (high, high_node)):
        if node is not None and typ is not VarType.INT:
            error(node, "E342", f"min and max are for int variables; '{name}' is {typ.value}")
    low = low if _is_int(low) and typ is VarType.INT else None
    high = high if _is_int(high) and typ is VarType.INT else None
    if low is not None and high is not None and low > high:
        error(high_node, "E342", f"variable '{name}' has max {high} below its min {low}")
        high = low
    shown, vis_node = _scalar(spec, "visibility")
    visibility = Visibility(shown) if shown in Visibility._value2member_map_ else Visibility.PUBLIC
    if visibility is Visibility.PRIVATE and not per_player:
        error(vis_node, "E342", f"'{name}' is global (state:): it is public or hidden, not private to a player")
        visibility = Visibility.HIDDEN
    elif visibility is Visibility.HIDDEN and per_player:
        error(vis_node, "E342", f"'{name}' belongs to each player (player_state:): it is public or private, "
                                "not hidden")
        visibility = Visibility.PRIVATE
    reset_word, _ = _scalar(spec, "reset")
    reset = Reset(reset_word) if reset_word in Reset._value2member_map_ else Reset.ROUND
    initial, initial_node = _scalar(spec, "initial")
    initial = _initial(name, typ, initial, initial_node, values, colors, cards, error)
    if typ is VarType.INT:
        clamped = Variable(name, typ, initial, values, visibility, low, high, reset, per_player, None).clamp(initial)
        if clamped != initial and initial_node is not None:
            error(initial_node, "E340", f"initial value {initial} of '{name}' is outside its min and max")
        elif clamped != initial:
            # No `initial`: the default 0 is what min or max leaves out, so that bound is the place to show.
            bound = low_node if low is not None and initial < low else high_node
            error(bound, "E340", f"the default initial value {initial} of '{name}' is outside its min and max; "
                                 f"give it an initial value")
            initial = clamped
    summary, _ = _scalar(spec, "summary")
    return Variable(name, typ, initial, values, visibility, low, high, reset, per_player,
                    summary if isinstance(summary, str) else None, spec)


_DEFAULTS = {VarType.INT: 0, VarType.BOOL: False, VarType.COLOR: None, VarType.CARD_TYPE: None}


def _initial(name, typ, value, node, values, colors, cards, error):
    """The initial value, checked against the type; a bad one is reported (E340) and the default taken."""
    default = values[0] if typ is VarType.ENUM else _DEFAULTS[typ]
    if node is None or value is None:
        return default
    if typ is VarType.INT and _is_int(value):
        return value
    if typ is VarType.BOOL and isinstance(value, bool):
        return value
    choices = {VarType.COLOR: colors, VarType.CARD_TYPE: list(cards), VarType.ENUM: values}.get(typ)
    if choices is not None and isinstance(value, str):
        if value in choices:
            return value
        what = {VarType.COLOR: "color", VarType.CARD_TYPE: "card type", VarType.ENUM: f"value of '{name}'"}[typ]
        error(node, "E340", f"initial value '{value}' of '{name}' is not a {what}" + suggestion_suffix(value, choices))
        return default
    error(node, "E340", f"initial value {value!r} of '{name}' is not {'an' if typ is VarType.INT else 'a'} "
                        f"{typ.value}")
    return default
