"""The rulebook's English phrases: player phrases that agree with their verb, the words for
comparisons and operators, and the small text helpers the translation and the document share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.variant import EliminatedCards


@dataclass(frozen=True)
class _P:
    """A player phrase, with what English needs to agree with it."""

    text: str
    you: bool = False          # second person: "you draw", "your turn"

    def verb(self, base: str, third: str | None = None) -> str:
        """The phrase followed by the verb in the right person: "you draw" / "the next player draws"."""
        return f"{self.text} {base if self.you else (third or base + 's')}"

    def be(self) -> str:
        return f"{self.text} {'are' if self.you else 'is'}"

    @property
    def pos(self) -> str:
        """Possessive: "your", "the next player's"."""
        return "your" if self.you else f"{self.text}'s"

    @property
    def their(self) -> str:
        return "your" if self.you else "their"

    @property
    def they(self) -> str:
        return "you" if self.you else "they"


class Phrase(str):
    """What a name stands for when it is no expression to say again: a value noted or drawn once ("the
    roll"), a procedure's parameter ("n"). The translator's names map a name to a Phrase, a player
    phrase (_P) or the expression it stands for."""


_WHO = {
    # context -> (self phrase, card phrase)
    "on_play": (_P("you", True), "this card"),
    "on_start": (_P("the dealer"), "the start card"),
    "setup": (_P("the dealer"), "the card"),
    "player_out": (_P("the out player"), "the card"),
    "after_draw": (_P("the drawer"), "the card"),
    "turn_draw": (_P("you", True), "the card"),
    "turn_start": (_P("you", True), "the card"),
    "turn_end": (_P("you", True), "the card"),
    "card_played": (_P("you", True), "the card you played"),
    "uno_penalty": (_P("the caught player"), "the card"),
    "uno_false_call": (_P("the false caller"), "the card"),
    "uno_catch": (_P("the accused player"), "the card"),
    "uno_wrong": (_P("the wrong accuser"), "the card"),
    "uno_out": (_P("you", True), "the card you played"),
    "window": (_P("you", True), "the card"),
    "round_end": (_P("the winner"), "the card"),
    "condition": (_P("you", True), "the card"),
    "match": (_P("you", True), "the card"),
    "set": (_P("you", True), "the next card"),
    "on_stack": (_P("you", True), "this card"),
}
# round.eliminated_cards -> where the rulebook says an eliminated player's cards go.
ELIMINATED_CARDS = {EliminatedCards.UNDER_DRAW: "under the draw pile",
                    EliminatedCards.UNDER_DISCARD: "under the discard pile",
                    EliminatedCards.INTO_DRAW: "into the draw pile, which is shuffled"}
_TOP = "the top card of the discard pile"
# A set being played (turn.sets), as its conditions read it.
_SET_FIELDS = {"size": "the number of cards in the set so far", "sum": "the sum of the numbers in the set so far"}
_SET_CARDS = {"first": "the set's first card", "base": "the card the set was played on"}
_CMP_HAND = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than",
             ">=": "at least"}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least"}
_NOT_CONST = object()
_BINOP_WORDS = {"+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo"}


# Expressions whose English is a clause (`cond`), not a noun phrase.
_CONDITIONS = ("not_", "and_expr", "or_expr", "holds", "is_out", "is_partner", "role_is", "card_is", "drawn_is", "top_is",
               "comparison", "true", "false", "side_is")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def lower_first(text: str) -> str:
    """Lower-case a sentence's first letter so it can follow a comma ("If ..., the next player ...")."""
    if re.match(r"^[A-Z](?:[a-z]| )", text):
        return text[:1].lower() + text[1:]
    return text


def _join_if(head: str, body: list[str]) -> str:
    """ "If X, one sentence." or "If X: several. sentences." """
    body = [b for b in body if b]
    if not body:
        return f"{head}, nothing happens."
    if len(body) == 1:
        return f"{head}, {lower_first(body[0])}"
    return f"{head}: " + " ".join([lower_first(body[0])] + body[1:])


def title(name: str) -> str:
    return name.replace("_", " ")
