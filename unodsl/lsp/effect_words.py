"""Words that may come next in effect text: the grammar's keywords, and the variant's names.

The effect parser itself says which keywords fit: the text before the cursor is fed to
Lark's interactive LALR parser, whose `accepts()` lists the terminals the grammar allows
next. Where that text does not parse (a mistake earlier on), every keyword is offered.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterable

from lark.exceptions import LarkError
from lark.lexer import PatternStr

from ..effects.parse import parser

# Card attributes `card.NAME` reads (effects/check.py, the card attribute rule).
CARD_ATTRIBUTES = ("number", "points", "draw", "color", "type", "kind")
# A character no terminal matches: lexing stops there, after every real token was fed.
_STOP = "\u00a7"
_WORD = re.compile(r"[a-z_][a-z0-9_]*$")
_BOUND = re.compile(r"\b(?:let|for\s+each)\s+([a-z_][a-z0-9_]*)")


@dataclass(frozen=True)
class Word:
    """One completion in effect text: the word and what it is ("keyword", "card", "ruling", "color", ...)."""

    text: str
    kind: str


@functools.lru_cache(maxsize=1)
def keywords_by_terminal() -> dict[str, tuple[str, ...]]:
    """Each keyword terminal of the effect grammar -> the words it spells."""
    out: dict[str, tuple[str, ...]] = {}
    for terminal in parser().terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr) and pattern.value.isalpha():
            out[terminal.name] = (pattern.value,)
        elif terminal.name == "KIND":
            out[terminal.name] = tuple(re.findall(r"[a-z]+", pattern.value))
    return out


def keywords() -> list[str]:
    """Every keyword of the effect language, sorted."""
    return sorted({word for words in keywords_by_terminal().values() for word in words})


def next_words(before: str, start: str, cards: Iterable[str] = (), rulings: Iterable[str] = (),
               colors: Iterable[str] = (), procedures: Iterable[str] = (),
               distributions: Iterable[str] = ()) -> list[Word]:
    """What may be typed at the end of `before` (effect text up to the cursor; `start`: "effect" or "condition")."""
    match = _WORD.search(before)
    prefix = before[: match.start()] if match else before
    if prefix.endswith("rule."):
        return [Word(name, "ruling") for name in sorted(rulings)]
    if prefix.endswith("card."):
        return [Word(name, "attribute") for name in CARD_ATTRIBUTES]
    if re.search(r"\bholds\s+card\s+$", prefix):
        return [Word(name, "card") for name in sorted(cards)]
    if re.search(r"\bdo\s+$", prefix):
        return [Word(name, "procedure") for name in sorted(procedures)]
    if re.search(r"\brandom\s+$", prefix):
        return [Word(name, "distribution") for name in sorted(distributions)]
    accepted = _accepted(prefix, start)
    if accepted is None:
        return [Word(word, "keyword") for word in keywords()]
    table = keywords_by_terminal()
    words = sorted({word for name in accepted for word in table.get(name, ())})
    out = [Word(word, "keyword") for word in words]
    if "NAME" in accepted:
        bound = sorted(set(_BOUND.findall(prefix)))
        out += [Word(name, "variable") for name in bound]
        if "INT" in accepted:                  # an expression, not only a player: colors are names there
            out += [Word(name, "color") for name in colors if name not in bound]
    return out


def _accepted(prefix: str, start: str) -> set[str] | None:
    """The terminals the grammar accepts after `prefix`, or None when `prefix` does not parse."""
    try:
        interactive = parser().parse_interactive(prefix + _STOP, start=start)
        try:
            for token in interactive.iter_parse():
                if token.start_pos is not None and token.start_pos >= len(prefix):
                    break
        except LarkError as err:
            if getattr(err, "pos_in_stream", None) is None or err.pos_in_stream < len(prefix):
                return None
        return set(interactive.accepts())
    except (LarkError, RecursionError):
        return None
