"""What to offer at the cursor: schema keys, schema values, shipped names, effect words."""

from __future__ import annotations

from dataclasses import dataclass

from ..source import catalog
from .cursor import Context
from .effect_words import next_words
from ..source.schema_tree import ITEM, SchemaTree


@dataclass(frozen=True)
class Names:
    """What the variant being edited defines, as its last check found it (empty before one succeeded)."""

    cards: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    procedures: tuple[str, ...] = ()
    distributions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Item:
    """One completion: the label shown, what it is, the text inserted, and its documentation."""

    label: str
    kind: str                     # "key", "value", "variant", "house_rule", or an effect word's kind
    insert: str
    detail: str = ""
    documentation: str = ""
    sort: str = ""


def complete(context: Context, schema: SchemaTree, names: Names) -> list[Item]:
    """The completions for `context`, best first."""
    if context.place == "key":
        return _keys(context, schema)
    language = schema.language_at(context.path)
    if language is not None:
        return [Item(w.text, w.kind, w.text, detail=w.kind)
                for w in next_words(context.before, language, names.cards, names.rulings, names.colors,
                                    names.procedures, names.distributions)]
    if schema.is_path(context.path):
        return _shipped(prefer_house_rules=context.path[-1:] == (ITEM,))
    values = [Item(v, "value", v) for v in schema.values_at(context.path)]
    if values:
        return values
    if context.path[-1:] == (ITEM,):
        return _keys(context, schema)          # "- wor": the first key of a list item's mapping
    return []


def _keys(context: Context, schema: SchemaTree) -> list[Item]:
    out = []
    for index, key in enumerate(schema.keys_at(context.path)):
        if key.name in context.siblings:
            continue
        out.append(Item(key.name, "key", f"{key.name}: ", detail="required" if key.required else "",
                        documentation=key.description, sort=f"{index:03d}"))
    return out


def _shipped(prefer_house_rules: bool) -> list[Item]:
    """The shipped variants and house rules by name; in `include:` the house rules come first."""
    out = []
    for entry in catalog.shipped():
        first = entry.house_rule == prefer_house_rules
        kind = "house_rule" if entry.house_rule else "variant"
        out.append(Item(entry.name, kind, entry.name, detail=f"{entry.title} (shipped {kind.replace('_', ' ')})",
                        documentation=entry.summary, sort=("0" if first else "1") + entry.name))
    return sorted(out, key=lambda item: item.sort)
