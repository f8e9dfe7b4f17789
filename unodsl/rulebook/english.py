"""Effects and conditions in English: a translation of the syntax tree the check step parsed.

document.py builds the rulebook from these sentences; a card's own `text`, when the
author gave one, takes their place there. Constants are folded by effects.fold, as the compiler folds them (`rule.x`
reads the chosen value), so the rulebook says what this variant does rather than what
it could do. Output is deterministic: the same variant always gives the same text,
byte for byte.

`Translator` says statements through the mixin in `english_statements` and expressions and
conditions through the one in `english_expressions`; `phrases` holds the words they share.
"""

from __future__ import annotations

from ..effects import ast as A
from ..model.variant import Text
from .english_expressions import CollectionEnglish, ExpressionEnglish, FunctionEnglish
from .english_statements import StatementEnglish
from .phrases import _WHO


class Translator(StatementEnglish, ExpressionEnglish, CollectionEnglish, FunctionEnglish):
    """Turns the effect and condition trees of one variant into English sentences."""

    def __init__(self, game, where: str = "on_play"):
        self.game = game
        self.variant = game.variant
        self.where = where
        self.me, self.card_phrase = _WHO.get(where, _WHO["on_play"])
        self.names: dict[str, object] = {}     # a name -> the player phrase or the expression it stands for

    # --- entry points

    def effect(self, tree: A.Effect) -> str:
        """English for an effect; "" when it does nothing."""
        return " ".join(self.stmts(tree.body))

    def condition(self, tree: A.Condition) -> str:
        """English for a condition (a clause without a final period)."""
        folded = self.fold(tree.test)
        if folded is True:
            return "always"
        if folded is False:
            return "never"
        return self.cond(tree.test)


def _tree(game, text):
    """The tree of one of the variant's texts, as the check step parsed it (or a tree given as it is)."""
    if isinstance(text, Text):
        return game.variant.syntax.tree(text)
    return text


def describe_effect(game, text: Text | A.Effect | None, where: str = "on_play") -> str:
    """Plain-English sentences for an effect of `game` (as on_play, on_start, setup, player_out, after_draw).

    `text` is one of the variant's texts, or a tree of one's own (effects.parse.parse).
    """
    tree = _tree(game, text)
    if tree is None:
        return text.source.strip() if isinstance(text, Text) else ""     # empty, or never parsed (E405)
    return Translator(game, where).effect(tree)


def describe_condition(game, text: Text | A.Condition | None, where: str = "condition") -> str:
    """A plain-English clause for a condition of `game` (one of its texts, or a tree of one's own)."""
    tree = _tree(game, text)
    if tree is None:
        return text.source.strip() if isinstance(text, Text) else ""
    return Translator(game, where).condition(tree)
