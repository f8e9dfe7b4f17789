"""What the word under the cursor stands for, for hover and go-to-definition.

A word may be a key (its schema description; a card type's or ruling's own entry), a link
in `extends`/`include`/`check_with` (the file it names), a card id in `stacking.cards`, or
a word of effect text: the statement or expression it belongs to, a card id after `holds
card`, a ruling after `rule.`. Effect text is read from the trees of the document's last
check (`Variant.syntax`), which was made from the very text on screen, so each node's span
maps to its place in the document; the YAML around it is read by `cursor`, which needs no
valid YAML.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..check import CheckResult
from ..effects import ast as A
from ..model.variant import CardType, Ruling, Variant
from ..rulebook.english import describe_condition, describe_effect
from ..source import catalog
from .checking import same_file
from .cursor import context_at, key_at
from .effect_docs import effect_doc
from ..source.schema_tree import ITEM, SchemaTree
from .text import Text

# A value in a link or a list: a name or a path, up to the YAML punctuation around it.
_VALUE_WORD = re.compile(r"[^\s,\[\]{}'\"#]+")
CARD_LISTS = (("stacking", "cards", ITEM),)


@dataclass(frozen=True)
class Place:
    """A position in a file, unodsl's 1-based line and column."""

    path: str
    line: int
    column: int


@dataclass(frozen=True)
class Symbol:
    """The word under the cursor: its offsets in the document, its hover text, where it is defined."""

    start: int
    end: int
    markdown: str | None
    target: Place | None = None


def symbol_at(text: Text, offset: int, path: str, result: CheckResult | None, schema: SchemaTree) -> Symbol | None:
    """The symbol at character `offset` of the document at `path`; `result` is its last check, when current."""
    variant = result.variant if result is not None else None
    if variant is not None and variant.syntax is not None:
        found = _in_effect(text, offset, path, variant, result)
        if found is not None:
            return found
    lines = text.lsp_lines()
    line = text.lsp_line_of(offset)
    line_start = text.lsp_line_start(line)
    column = offset - line_start
    key = key_at(lines, line, column)
    if key is not None:
        start, end = line_start + key.start, line_start + key.end
        name, owner = key.path[-1], key.path[:-1]
        if variant is not None and owner == ("cards",) and name in variant.cards:
            return _card(variant.cards[name], start, end, variant, result)
        if variant is not None and owner == ("rulings",) and name in variant.rulings:
            return _ruling(variant.rulings[name], start, end)
        described = schema.description_at(key.path)
        return Symbol(start, end, f"**{'.'.join(key.path)}**\n\n{described}") if described else None
    return _value(lines, line, column, line_start, path, variant, result, schema)


def _value(lines: list[str], line: int, column: int, line_start: int, path: str, variant: Variant | None,
           result: CheckResult | None, schema: SchemaTree) -> Symbol | None:
    """A link's file, or a card id in a list of card ids."""
    word = next((m for m in _VALUE_WORD.finditer(lines[line]) if m.start() <= column <= m.end()), None)
    if word is None:
        return None
    context = context_at(lines, line, word.start())
    if context is None or context.place != "value":
        return None
    start, end = line_start + word.start(), line_start + word.end()
    if schema.is_path(context.path):
        return _link(word.group(0), path, start, end)
    if variant is not None and context.path in CARD_LISTS and word.group(0) in variant.cards:
        return _card(variant.cards[word.group(0)], start, end, variant, result)
    return None


def _link(value: str, path: str, start: int, end: int) -> Symbol | None:
    """The file an `extends`/`include`/`check_with` value names, as compose finds it, with its summary."""
    if catalog.is_name(value):
        target = catalog.path_of(value)
        entry = next((e for e in catalog.shipped() if e.name == value), None)
        if target is None or entry is None:
            return None
        kind = "house rule" if entry.house_rule else "variant"
        markdown = f"**{entry.title}** (shipped {kind} `{value}`)\n\n{entry.summary}"
        return Symbol(start, end, markdown, Place(target, 1, 1))
    if not os.path.isabs(path):
        return None                              # an unsaved buffer (`untitled:`): no folder to resolve a path in
    target = os.path.normpath(os.path.join(os.path.dirname(path), value))
    if not os.path.isfile(target):
        return None
    return Symbol(start, end, f"`{target}`", Place(target, 1, 1))


# --- effect text ------------------------------------------------------------------


def _in_effect(text: Text, offset: int, path: str, variant: Variant, result: CheckResult) -> Symbol | None:
    """The innermost effect node under the cursor that has something to say, in the document's own texts."""
    at = text.unodsl_position(offset)
    for effect in variant.syntax.texts:
        node = effect.node
        tree = variant.syntax.tree(effect)
        if tree is None or node is None or not node.line <= at[0] <= node.end_line or not same_file(node.path, path):
            continue
        around = []                              # the nodes holding the cursor, outermost first
        for inner in A.walk(tree):
            span = inner.span
            start, end = node.locate(span.line, span.column), node.locate(span.end_line, span.end_column)
            if inner is not tree and start <= at < end:
                around.append((inner, text.offset_of_unodsl(*start), text.offset_of_unodsl(*end)))
        for inner, start, end in reversed(around):
            found = _effect_symbol(inner, start, end, variant, result)
            if found is not None:
                return found
    return None


def _effect_symbol(node: A.Node, start: int, end: int, variant: Variant, result: CheckResult) -> Symbol | None:
    if isinstance(node, A.HoldType) and node.name in variant.cards:
        return _card(variant.cards[node.name], start, end, variant, result)
    if isinstance(node, A.RuleRef) and node.name in variant.rulings:
        return _ruling(variant.rulings[node.name], start, end)
    # On `holds`, the docs of what is held (`holds card`, `holds wild`...), which each have a row.
    doc = effect_doc(node.what.rule if isinstance(node, A.Holds) else node.rule)
    return Symbol(start, end, doc) if doc is not None else None


# --- cards and rulings ---------------------------------------------------------------


def _card(card: CardType, start: int, end: int, variant: Variant, result: CheckResult) -> Symbol:
    """A card type's own text: what it is, its effect and restriction, and the rulebook's English."""
    copies = sum(n for by_number in card.copies.values() for n in by_number.values())
    facts = [f"{card.kind} card", f"{copies} in the deck"]
    if card.points is not None:
        facts.append(f"{card.points} points")
    elif card.kind == "number":
        facts.append("points: its number")
    if card.draw:
        facts.append(f"draw {card.draw}")
    parts = [f"**{card.name}** (card type `{card.id}`): " + ", ".join(facts) + "."]
    game = result.game
    for check, restriction, words in (("strict", card.strict, "*Only playable when* "),
                                      ("challenge", card.challenge, "*Legal (a challenge finds out) only when* ")):
        if restriction is not None:
            parts.append(f"restriction ({check}):\n```\n{restriction.source.strip()}\n```")
            if game is not None:
                parts.append(words + describe_condition(game, restriction) + ".")
    for name, effect in (("on_play", card.on_play), ("on_start", card.on_start)):
        if effect is not None:
            parts.append(f"{name}:\n```\n{effect.source.strip()}\n```")
    english = card.text or (describe_effect(game, card.on_play) if game is not None and card.on_play else "")
    if english:
        parts.append(f"*Rulebook:* {english}")
    return Symbol(start, end, "\n\n".join(parts), _key_place(card.node))


def _ruling(ruling: Ruling, start: int, end: int) -> Symbol:
    """A ruling's value, choices and description."""
    head = f"**rule.{ruling.name}** = `{_yaml(ruling.value)}`"
    if ruling.choices:
        head += " (one of " + ", ".join(f"`{_yaml(c)}`" for c in ruling.choices) + ")"
    parts = [head]
    if ruling.summary:
        parts.append(ruling.summary)
    if ruling.section:
        parts.append(f"Rules reference section {ruling.section}.")
    return Symbol(start, end, "\n\n".join(parts), _key_place(ruling.node))


def _key_place(node) -> Place | None:
    """Where a mapping's key was written (a card type's id, a ruling's name)."""
    if node is None:
        return None
    if node.key_line is not None:
        return Place(node.path, node.key_line, node.key_column or 1)
    return Place(node.path, node.line, node.column)


def _yaml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)
