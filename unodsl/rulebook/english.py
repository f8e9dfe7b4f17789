"""The rulebook: a readable description of a compiled variant, in Markdown or plain text.

What each card does comes from its `text` when the author gave one, and otherwise
from a translation of its effect's syntax tree (the one the check step parsed) into
English. Constants are folded by effects.fold, as the compiler folds them (`rule.x`
reads the chosen value), so the rulebook says what this variant does rather than what
it could do. Output is deterministic: the same variant always gives the same text,
byte for byte.

    python -m tools.rulebooks            # regenerate docs/variants/<variant>.md
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ..effects import ast as A
from ..effects.ast import walk
from ..effects.fold import fold
from ..model.variant import Text

# ---------------------------------------------------------------------------
# A tiny document model, rendered to Markdown or to plain text.


@dataclass(frozen=True)
class _Block:
    kind: str                  # h1 | h2 | h3 | p | ul | table
    text: str = ""
    items: tuple = ()
    header: tuple = ()


def _render_markdown(blocks: list[_Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"# {b.text}")
        elif b.kind == "h2":
            out.append(f"## {b.text}")
        elif b.kind == "h3":
            out.append(f"### {b.text}")
        elif b.kind == "p":
            out.append(b.text)
        elif b.kind == "ul":
            out.append("\n".join(f"- {item}" for item in b.items))
        elif b.kind == "table":
            rows = [b.header] + list(b.items)
            lines = ["| " + " | ".join(_md_cell(c) for c in b.header) + " |",
                     "|" + "|".join("---" for _ in b.header) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows[1:]]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _render_text(blocks: list[_Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"{b.text}\n{'=' * len(b.text)}")
        elif b.kind == "h2":
            out.append(f"{b.text}\n{'-' * len(b.text)}")
        elif b.kind == "h3":
            out.append(f"{b.text}:")
        elif b.kind == "p":
            out.append(_wrap(_plain(b.text), 78))
        elif b.kind == "ul":
            out.append("\n".join(_wrap(_plain(item), 78, "  * ", "    ") for item in b.items))
        elif b.kind == "table":
            rows = [tuple(_plain(str(c)) for c in b.header)] + [tuple(_plain(str(c)) for c in r) for r in b.items]
            widths = [max(len(r[i]) for r in rows) for i in range(len(b.header))]
            if sum(widths) + 2 * (len(widths) - 1) > 78:
                out.append(_records(rows))
                continue
            lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
            lines.insert(1, "  ".join("-" * w for w in widths))
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _records(rows: list[tuple]) -> str:
    """A table too wide for a terminal, as one wrapped record per row."""
    header, records = rows[0], []
    for row in rows[1:]:
        lines = [row[0]]
        for name, value in zip(header[1:], row[1:]):
            if value:
                lines.append(_wrap(f"{name}: {value}", 78, "    ", "      "))
        records.append("\n".join(lines))
    return "\n".join(records)


def _plain(text: str) -> str:
    """Markdown inline markup removed: `code` and **bold** become plain words."""
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", text).replace("`", "")


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> str:
    return textwrap.fill(" ".join(text.split()), width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


# ---------------------------------------------------------------------------
# Translating effects and conditions into English


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


_WHO = {
    # context -> (self phrase, card phrase)
    "on_play": (_P("you", True), "this card"),
    "on_start": (_P("the dealer"), "the start card"),
    "setup": (_P("the dealer"), "the card"),
    "player_out": (_P("the out player"), "the card"),
    "after_draw": (_P("the drawer"), "the card"),
    "condition": (_P("you", True), "the card"),
}
_CMP_HAND = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than",
             ">=": "at least"}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least"}
_NOT_CONST = object()
_BINOP_WORDS = {"+": "plus", "-": "minus", "*": "times", "//": "divided by"}


class Translator:
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

    # --- statements

    def stmts(self, body) -> list[str]:
        out: list[str] = []
        for stmt in body:
            method = getattr(self, "s_" + stmt.rule, None)
            if method is None:
                raise TypeError(f"the rulebook has no English for the statement '{stmt.rule}'")
            sentence = method(stmt)
            if isinstance(sentence, list):
                out.extend(s for s in sentence if s)
            elif sentence:
                out.append(sentence)
        return out

    def s_nothing(self, s):
        return "Nothing happens." if self.where != "on_start" else "Nothing happens; play starts normally."

    def s_draw(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} {self.cards(s.count)}.")

    def s_draw_until(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} cards one at a time until {who.they} draw a card {who.they} can play.")

    def s_draw_to(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} until {who.they} hold {self.cards(s.count)}.")

    def s_penalty(self, s):
        who = self.player(s.who)
        text = f"{who.verb('draw')} {self.cards(s.count)} and {'lose' if who.you else 'loses'} {who.their} turn"
        if self.variant.stacking != "none":
            text += f" (unless {who.they} can stack, see Stacking)"
        return _cap(text + ".")

    def s_skip_one(self, s):
        who = self.player(s.who)
        return _cap(f"{who.be()} skipped: {who.they} lose {who.their} next turn.")

    def s_skip_many(self, s):
        n = self.const(s.count)
        if n == 1:
            return f"The next player after {self.me.text} is skipped." if not self.me.you else "The next player is skipped."
        count = str(n) if isinstance(n, int) else self.num(s.count)
        return f"The next {count} players are skipped (never {self.me.text}; with fewer players, each other player once)."

    def s_reverse(self, s):
        return "The direction of play reverses."

    def s_choose_color_self(self, s):
        if not self.variant.colors:
            return None
        return _cap(f"{self.me.verb('choose')} the color that continues play.")

    def s_choose_color_by(self, s):
        if not self.variant.colors:
            return None
        who = self.player(s.who)
        return _cap(f"{who.verb('choose')} the color that continues play.")

    def s_set_color(self, s):
        return f"The color in play becomes {self.color(s.color)}."

    def s_let(self, s):
        if isinstance(s.value, A.ChoosePlayer):
            group = self.group(s.value.group)
            self.names[s.name] = _P("the chosen player")
            return _cap(f"{self.me.verb('choose')} a player from {group}.")
        self.names[s.name] = s.value
        return None

    def s_swap_hands(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('swap')} hands with {who.text}.")

    def s_rotate_hands(self, s):
        return "Every player passes their hand to the next player in the direction of play."

    def s_give(self, s):
        giver, taker = self.player(s.giver), self.player(s.taker)
        return _cap(f"{giver.verb('give')} {self.cards(s.count)} of {giver.their} choice to {taker.text}.")

    def s_exchange(self, s):
        a, b = self.player(s.first), self.player(s.second)
        return _cap(f"{a.text} and {b.text} each pick {self.cards(s.count)} from their own hand, face down; "
                    f"then the picked cards change hands at the same time.")

    def s_look(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('look')} at {who.pos} hand.")

    def s_trade(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('may', 'may')} swap any number of {self.me.their} cards, one for one, with cards "
                    f"of {who.pos} hand (seen face up), so both hands keep their size.")

    def s_discard_color(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('discard')} every card of {self.color(s.color)} from {who.their} hand "
                    f"(under the top card of the discard pile).")

    def s_redeal(self, s):
        start = "you" if self.me.you else self.me.text
        return (f"All hands are gathered, shuffled and dealt out again one card at a time, starting with the "
                f"player after {start}.")

    def s_extra_turn(self, s):
        if self.where == "on_start":
            return _cap(f"{self.me.verb('take')} the first turn.")
        return _cap(f"{self.me.verb('take')} another turn.")

    def s_turn_to(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('take')} the next turn.")

    def s_eliminate(self, s):
        who = self.player(s.who)
        return _cap(f"{who.be()} out of the round for good; {who.their} cards go under the draw pile.")

    def s_lock(self, s):
        color, owner = self.color(s.color), self.player(s.owner)
        wilds = "" if self.variant.lock_allows_wild else " (not even wild cards)"
        until = "your next turn" if owner.you else f"{owner.pos} next turn"
        return (f"Until {until}, the other players may only play cards of {color}{wilds}; "
                f"a player without one draws.")

    def s_must_play(self, s):
        who, color = self.player(s.who), self.color(s.color)
        return _cap(f"{who.verb('must', 'must')} play a card of {color} if {who.they} can; the turn then continues "
                    f"from {who.text}.")

    def s_must_play_block(self, s):
        who, color = self.player(s.who), self.color(s.color)
        otherwise = self.stmts(s.otherwise)
        return [_cap(f"{who.verb('must', 'must')} play a card of {color}; the turn then continues from {who.text}."),
                _join_if(f"If {who.they} cannot", otherwise)]

    def s_flip_again(self, s):
        return "Ignore it: leave it in the discard pile and turn up the next card of the draw pile instead."

    def s_return_and_flip(self, s):
        return "Put it back into the draw pile, shuffle, and turn up a new start card."

    def s_if_stmt(self, s):
        out: list[str] = []
        first = True
        for clause in s.clauses:
            value = self.fold(clause.test)
            if value is False:
                continue
            if value is True:
                body = self.stmts(clause.body)
                if first:
                    return body
                out.append(_join_if("Otherwise", body))
                return out
            out.append(_join_if(("If " if first else "Otherwise, if ") + self.cond(clause.test),
                                self.stmts(clause.body)))
            first = False
        if s.otherwise is not None:
            body = self.stmts(s.otherwise)
            out.extend(body if first else [_join_if("Otherwise", body)])
        return out

    def s_for_stmt(self, s):
        self.names[s.name] = _P("that player")
        return _join_if(f"For {self.each(s.group)}", self.stmts(s.body))

    def s_repeat_stmt(self, s):
        n = self.const(s.count)
        times = "twice" if n == 2 else f"{n} times" if isinstance(n, int) else f"{self.num(s.count)} times"
        body = self.stmts(s.body) or ["nothing."]
        return f"Do the following {times}: " + " ".join([_lc(body[0])] + body[1:])

    def s_challenge(self, s):
        who = self.player(s.who)
        branches = {b.kind: self.stmts(b.body) for b in s.branches}
        out = [_cap(f"{who.verb('may', 'may')} challenge {self.card_phrase}.")]
        words = {"guilty": f"If {who.they} challenge and it was played illegally",
                 "innocent": f"If {who.they} challenge and it was played legally",
                 "accepted": f"If {who.they} do not challenge"}
        for name in A.BRANCHES:
            body = branches.get(name)
            out.append(_join_if(words[name], body or ["nothing happens."]))
        return out

    # --- numbers, players, groups, colors

    def const(self, e):
        """The value of a constant expression (rulings folded in), else _NOT_CONST."""
        value = self.fold(e)
        return _NOT_CONST if value is None else value

    def fold(self, e):
        """The value of `e` (a bool, int or str) when the variant decides it (effects.fold), else None."""
        return fold(e, self.game.ruling_value, self.bound_expr)

    def bound_expr(self, var: A.Var):
        """The expression a `let` name stands for, or None (a player phrase, or not a `let` name)."""
        bound = self.names.get(var.name)
        return bound if isinstance(bound, A.Expr) else None

    def cards(self, e) -> str:
        n = self.const(e)
        if isinstance(n, int) and not isinstance(n, bool):
            return "1 card" if n == 1 else f"{n} cards"
        return f"as many cards as {self.num(e)}"

    def num(self, e) -> str:
        value = self.fold(e)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        d = e.rule
        if d == "player_count":
            return "the number of players still in the round"
        if d == "stack_size":
            return "the size of the pending draw stack"
        if d == "card_attr":
            attr = e.name
            return {"number": f"the number on {self.card_phrase}", "points": f"the points of {self.card_phrase}",
                    "draw": f"the draw penalty of {self.card_phrase}"}.get(attr, f"the {attr} of {self.card_phrase}")
        if d == "hand_size":
            who = self.player(e.who)
            return f"the number of cards in {who.pos} hand"
        if d == "hand_points":
            who = self.player(e.who)
            return f"the points in {who.pos} hand"
        if d == "half":
            return f"half of {self.num(e.value)} (rounded down)"
        if d == "max_hand":
            return f"the largest hand among {self.group(e.group)}"
        if d == "min_hand":
            return f"the smallest hand among {self.group(e.group)}"
        if d == "group_count":
            return f"the number of {self.group(e.group)}"
        if d == "binop":
            word = _BINOP_WORDS[e.op]
            left = self.operand(e.left, keep_chain=e.op in ("+", "-"))
            right = self.operand(e.right)
            return f"{left} {word} {right}" + (", rounded down" if e.op == "//" else "")
        if d == "neg":
            return f"minus {self.operand(e.operand)}"
        if d == "rule_ref":
            return f"the value of ruling `{e.name}`"
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.num(bound)
            return e.name
        return self.value(e)

    def operand(self, e, keep_chain: bool = False) -> str:
        """English for an operand of arithmetic: one group in parentheses when it is itself arithmetic,
        so the sentence keeps the file's grouping (a left-hand sum before + or - reads left to right)."""
        inner = self.bound(e)
        if isinstance(inner, (A.BinOp, A.Neg)) and self.fold(inner) is None:
            if keep_chain and isinstance(inner, A.BinOp) and inner.op in ("+", "-"):
                return self.num(inner)
            return f"({self.num(inner)})"
        return self.num(e)

    def bound(self, e):
        """The expression a `let` name stands for (the expression itself when it is not a name)."""
        while isinstance(e, A.Var) and self.bound_expr(e) is not None:
            e = self.bound_expr(e)
        return e

    def player(self, e) -> _P:
        d = e.rule
        if d == "self_":
            return self.me
        if d == "next_":
            if self.where in ("on_start", "setup"):
                return _P("the player after the dealer")
            return _P("the next player") if self.me.you else _P(f"the player after {self.me.text}")
        if d == "previous":
            return _P("the previous player") if self.me.you else _P(f"the player before {self.me.text}")
        if d == "dealer":
            return _P("the dealer")
        if d == "partner_self":
            return _P("your partner") if self.me.you else _P(f"{self.me.pos} partner")
        if d == "partner_of":
            return _P(f"{self.player(e.who).pos} partner")
        if d == "next_of":
            return _P(f"the player after {self.player(e.who).text}")
        if d == "next_seat":                     # a seat, in the round or not: nobody is passed over
            return _P("the player in the next seat") if self.me.you else _P(f"the player in the seat after "
                                                                            f"{self.me.text}")
        if d == "seat_after":
            return _P(f"the player in the seat after {self.player(e.who).text}")
        if d == "most_cards":
            return _P("the player with the most cards")
        if d == "fewest_cards":
            return _P("the player with the fewest cards")
        if d == "var":
            bound = self.names.get(e.name)
            if isinstance(bound, _P):
                return bound
            if isinstance(bound, A.Expr):
                return self.player(bound)
            return _P(e.name)
        return _P(self.value(e))

    def group(self, e) -> str:
        d = e.rule
        me = "you" if self.me.you else self.me.text
        if d == "all_players":
            return f"all players ({me} included)"
        if d == "others":
            return "the other players" if self.me.you else f"the players other than {self.me.text}"
        if d == "opponents":
            return "your opponents" if self.me.you else f"{self.me.pos} opponents"
        if d == "team_of":
            return f"{self.player(e.who).pos} team"
        if d == "all_from":
            return f"all players, starting with {self.player(e.who).text} ({me} included)"
        if d == "others_from":
            return f"all players other than {me}, starting with {self.player(e.who).text}"
        if d == "one_per_team":
            return "one player of each team"
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.group(bound)
        return self.value(e)

    def each(self, e) -> str:
        """A group as the range of a loop: "each player in turn order, starting with ..."."""
        d = e.rule
        me = "you" if self.me.you else self.me.text
        if d == "all_players":
            return f"each player in turn order, starting with {me}"
        if d == "others":
            return f"each player other than {me}, in turn order"
        if d == "all_from":
            return f"each player in turn order, starting with {self.player(e.who).text} ({me} included)"
        if d == "others_from":
            return f"each player other than {me}, in turn order starting with {self.player(e.who).text}"
        if d == "opponents":
            return "each of your opponents in turn order" if self.me.you else f"each of {self.me.pos} opponents"
        if d == "team_of":
            return f"each member of {self.player(e.who).pos} team"
        if d == "one_per_team":
            return "one player of each team"
        return f"each of {self.group(e)}"

    def color(self, e) -> str:
        d = e.rule
        if d == "current_color":
            return "the current color"
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.color(bound)
            if e.name in self.variant.colors:
                return _title(e.name)
        if d == "card_attr" and e.name == "color":
            return f"the color of {self.card_phrase}"
        return self.value(e)

    def value(self, e) -> str:
        """Any expression as a noun phrase (fallback for mixed types)."""
        folded = self.fold(e)
        if isinstance(folded, bool):
            return "true" if folded else "false"
        if isinstance(folded, int):
            return str(folded)
        if isinstance(folded, str):
            return f'"{folded}"'
        d = e.rule
        if d == "current_color":
            return "the current color"
        if d == "card_attr":
            if e.name == "color":
                return f"the color of {self.card_phrase}"
            if e.name in ("type", "kind"):
                return f"the {e.name} of {self.card_phrase}"
            return self.num(e)
        if d in ("player_count", "stack_size", "hand_size", "hand_points", "half", "max_hand", "min_hand",
                 "group_count", "binop", "neg", "rule_ref"):
            return self.num(e)
        if d in ("self_", "next_", "previous", "dealer", "partner_self", "partner_of", "next_of", "next_seat",
                 "seat_after", "most_cards", "fewest_cards"):
            return self.player(e).text
        if d in ("all_players", "others", "opponents", "team_of", "all_from", "others_from", "one_per_team"):
            return self.group(e)
        if d == "var":
            bound = self.names.get(e.name)
            if isinstance(bound, _P):
                return bound.text
            if isinstance(bound, A.Expr):
                return self.value(bound)
            if e.name in self.variant.colors:
                return _title(e.name)
            return e.name
        if d == "jumped":
            return f"whether {self.card_phrase} was played by jumping in"
        if d in _CONDITIONS:
            return self.cond(e)
        raise TypeError(f"the rulebook has no English for the expression '{d}'")

    # --- conditions

    def cond(self, e, negate: bool = False) -> str:
        folded = self.fold(e)
        if isinstance(folded, bool):
            return "always" if folded != negate else "never"
        d = e.rule
        if d == "not_":
            return self.cond(e.operand, not negate)
        if d in ("and_expr", "or_expr"):
            parts = [c for c in e.parts if self.fold(c) is None]
            is_and = (d == "and_expr") != negate
            words = [self.cond(c, negate) for c in parts]
            if len(words) == 1:
                return words[0]
            joiner = " and " if is_and else " or "
            return joiner.join(words[:-1]) + joiner + words[-1] if len(words) == 2 else \
                ", ".join(words[:-1]) + "," + joiner + words[-1]
        if d == "holds":
            who = self.player(e.who)
            thing = self.holding(e.what, who)
            if negate:
                return f"{who.text} {'do' if who.you else 'does'} not hold {thing}"
            return f"{who.verb('hold')} {thing}"
        if d == "is_out":
            who = self.player(e.who)
            return f"{who.be()} {'still in' if negate else 'out of'} the round"
        if d == "is_partner":
            a, b = self.player(e.who), self.player(e.other)
            return f"{a.be()}{' not' if negate else ''} {b.pos} partner"
        if d == "card_is":
            article = "an" if e.kind == "action" else "a"
            return f"{self.card_phrase} is{' not' if negate else ''} {article} {e.kind} card"
        if d == "jumped":
            return f"{self.card_phrase} was{' not' if negate else ''} played by jumping in"
        if d == "comparison":
            return self.comparison(e, negate)
        if d == "rule_ref":
            return f"ruling `{e.name}` is {'off' if negate else 'on'}"
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.cond(bound, negate)
            prefix = "it is not the case that " if negate else ""
            return prefix + self.value(e)
        raise TypeError(f"the rulebook has no English for the condition '{d}'")

    def comparison(self, e, negate: bool) -> str:
        left, op, right = e.left, e.op, e.right
        if negate:
            op = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
        if isinstance(left, A.Int) and isinstance(right, (A.HandSize, A.PlayerCount)):
            left, right = right, left
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        if isinstance(left, A.HandSize) and self.fold(right) is not None:
            who = self.player(left.who)
            n = self.fold(right)
            if n == 0 and op in (">", "!="):
                return f"{who.verb('still hold')} cards"
            if n == 0 and op in ("==", "<="):
                return f"{who.verb('hold')} no cards"
            return f"{who.verb('hold')} {_CMP_HAND[op]} {n} card{'' if n == 1 else 's'}"
        if isinstance(left, A.CardAttr) and left.name == "type" and self.fold(right) in self.variant.cards \
                and op in ("==", "!="):
            name = self.variant.cards[self.fold(right)].name
            return f"{self.card_phrase} is{' not' if op == '!=' else ''} a {name}"
        if isinstance(left, A.PlayerCount) and isinstance(self.fold(right), int):
            n = self.fold(right)
            word = {"==": "", "!=": "not ", "<": "fewer than ", "<=": "at most ", ">": "more than ",
                    ">=": "at least "}[op]
            return f"{'there is' if n == 1 and op == '==' else 'there are'} {word}{n} player{'' if n == 1 else 's'} " \
                   f"in the round"
        return f"{self.value(left)} {_CMP[op]} {self.value(right)}"

    def holding(self, what, who: _P) -> str:
        if isinstance(what, A.HoldColor):
            return f"a card of {self.color(what.color)}"
        if isinstance(what, A.HoldType):
            ct = self.variant.cards.get(what.name)
            return f"a {ct.name if ct else what.name} card" if not (ct and ct.name.lower().endswith("card")) else \
                f"a {ct.name}"
        if isinstance(what, A.HoldWild):
            return "a wild card"
        if isinstance(what, A.HoldPlayable):
            return f"a card {who.they} can play"
        if isinstance(what, A.HoldNumber):
            return f"a card numbered {self.num(what.number)}"
        raise TypeError(f"the rulebook has no English for the holding '{what.rule}'")


# Expressions whose English is a clause (`cond`), not a noun phrase.
_CONDITIONS = ("not_", "and_expr", "or_expr", "holds", "is_out", "is_partner", "card_is", "comparison", "true",
               "false")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _lc(text: str) -> str:
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
        return f"{head}, {_lc(body[0])}"
    return f"{head}: " + " ".join([_lc(body[0])] + body[1:])


def _title(name: str) -> str:
    return name.replace("_", " ")


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


# ---------------------------------------------------------------------------
# The rulebook


def _yaml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _one_line(text: str | None) -> str:
    return " ".join(str(text).split()) if text else ""


def _numbers_summary(by_number: dict) -> str:
    """{0: 1, 1: 2, ..., 9: 2} -> "0: 1, 1-9: 2" (runs of consecutive numbers with the same count)."""
    runs: list[list] = []
    for number in sorted(by_number):
        count = by_number[number]
        if runs and runs[-1][1] == number - 1 and runs[-1][2] == count:
            runs[-1][1] = number
        else:
            runs.append([number, number, count])
    return ", ".join((f"{lo}" if lo == hi else f"{lo}-{hi}") + f": {count}" for lo, hi, count in runs)


def _list_words(items: list[str], conj: str = "and") -> str:
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def _players_line(v) -> str:
    if v.allowed_players:
        counts = _list_words([str(n) for n in v.allowed_players], "or")
    elif v.min_players == v.max_players:
        counts = str(v.min_players)
    else:
        counts = f"{v.min_players} to {v.max_players}"
    return f"For {counts} players."


class _Rulebook:
    def __init__(self, game):
        self.g = game
        self.v = game.variant
        self.blocks: list[_Block] = []

    def h(self, level: int, text: str) -> None:
        self.blocks.append(_Block(f"h{level}", text))

    def p(self, text: str) -> None:
        if text:
            self.blocks.append(_Block("p", text))

    def ul(self, items) -> None:
        items = tuple(i for i in items if i)
        if items:
            self.blocks.append(_Block("ul", items=items))

    def table(self, header, rows) -> None:
        self.blocks.append(_Block("table", items=tuple(tuple(r) for r in rows), header=tuple(header)))

    # --- sections

    def build(self) -> list[_Block]:
        v = self.v
        self.h(1, v.name)
        self.p(_one_line(v.description))
        self.p(f"*Generated by `unodsl rules` from `{Path(v.path).name}`; edit the variant file, not this page.*")
        if v.sources:
            self.p("Sources: " + "; ".join(v.sources) + ".")
        self.players()
        self.deck()
        self.card_effects()
        self.setup()
        self.turn()
        self.uno()
        self.house_rules()
        self.round_end()
        self.scoring()
        self.rulings()
        return self.blocks

    def players(self) -> None:
        v = self.v
        self.h(2, "Players")
        items = [_players_line(v)]
        if v.team_size > 1:
            items.append(f"Players sit in teams of {v.team_size}, teammates spread evenly around the table so "
                         f"that the teams alternate in turn order (with 4 players, partners sit opposite).")
        self.ul(items)

    def deck(self) -> None:
        v = self.v
        self.h(2, "The deck")
        if v.colors:
            self.p(f"{v.deck_size} cards in {len(v.colors)} colors: {_list_words([_title(c) for c in v.colors])}.")
        else:
            self.p(f"{v.deck_size} cards, with no colors: every card is wild.")
        rows = []
        for ct in v.cards.values():
            colored = [c for c in ct.copies if c]
            total = sum(n for by in ct.copies.values() for n in by.values())
            if colored:
                first = ct.copies[colored[0]]
                same = all(ct.copies[c] == first for c in colored)
                per = (_numbers_summary(first) if None not in first else str(first[None])) if same else "varies"
                colors = "all" if len(colored) == len(v.colors) else ", ".join(_title(c) for c in colored)
            else:
                by = ct.copies.get("", {})
                per = "—"
                colors = "none"
                if by and None not in by:
                    per = _numbers_summary(by) + " (in all)"
            points = "face value" if ct.points is None else str(ct.points)
            rows.append((ct.name, ct.kind, colors, per, str(total), points))
        self.table(("Card", "Kind", "Colors", "Copies per color", "Total", "Points"), rows)

    def card_effects(self) -> None:
        v = self.v
        self.h(2, "What the cards do")
        if v.colors:
            self.p("Play a card on the discard pile when it matches the top card by color, number or symbol. "
                   "A wild card can be played on anything.")
        else:
            self.p("Every card is wild: any card may be played on any other.")
        for ct in v.cards.values():
            lines = []
            if ct.text:
                lines.append(_one_line(ct.text))
            elif ct.on_play is not None and ct.on_play.source.strip():
                lines.append(describe_effect(self.g, ct.on_play, "on_play"))
            else:
                lines.append("No effect: it only has to match." if ct.kind == "number" or not ct.wild
                             else "No effect.")
            cond = describe_condition(self.g, ct.restriction, "condition") if ct.restriction else "always"
            if cond == "never":
                lines.append("It can never be played.")
            elif cond != "always":
                if ct.restriction_check == "strict":
                    lines.append(f"You may play it only when {cond}.")
                else:
                    lines.append(f"You may play it legally only when {cond}. Nobody checks this when you play "
                                 f"it, so you may bluff; a challenge finds it out.")
            # What a card does as the last card is said once, under "End of a round".
            self.h(3, ct.name)
            self.p(" ".join(line for line in lines if line))

    def setup(self) -> None:
        v, g = self.v, self.g
        self.h(2, "Setting up")
        dealer = {"random": "A random player deals the first round.",
                  "high_card": "Each player turns up a card; the highest number deals the first round (symbols "
                               "count as zero, ties turn again).",
                  "seat_0": "The first player listed deals the first round."}.get(v.dealer, "")
        items = [dealer + " The deal passes to the left each round.",
                 f"The dealer shuffles and deals {v.hand_size} cards to each player, one at a time, starting "
                 f"with the player to the dealer's left.",
                 "The rest of the deck is the draw pile. Its top card is turned up to start the discard pile"
                 + ("; its color is the current color (any card may follow a wild start card until a color is "
                    "named)." if v.colors else "."),
                 "The player to the dealer's left plays first, and play goes to the left."]
        if v.on_deal is not None:
            items.insert(2, "After the deal: " + _lc(describe_effect(g, v.on_deal, "setup")))
        self.ul(items)
        self.h(3, "The start card")
        groups: dict[str, list[str]] = {}
        for ct in v.cards.values():
            text = ct.on_start or v.start_default or ct.on_play
            said = describe_effect(g, text, "on_start") if text is not None else ""
            said = said or "Nothing happens; play starts normally."
            groups.setdefault(said, []).append(ct.name)
        self.table(("Start card", "What happens"), [(", ".join(names), said) for said, names in groups.items()])

    def turn(self) -> None:
        v, g = self.v, self.g
        self.h(2, "A turn")
        items = []
        if v.colors:
            items.append("Play one card that matches the top card of the discard pile, or draw.")
        else:
            items.append("Play any one card, or draw when drawing is allowed.")
        if v.no_playable == "draw_until_playable":
            items.append("If you cannot play, draw cards one at a time until you draw one you can play.")
        else:
            items.append("If you cannot play, draw one card.")
        if g.may_always_draw:
            items.append("You may also draw one card instead of playing a card you could play.")
        elif v.may_draw_if is not None:
            cond = describe_condition(g, v.may_draw_if, "condition")
            if cond == "never":
                items.append("You may not draw while you hold a card you can play.")
            else:
                items.append(f"You may draw instead of playing a card you could play only when {cond}.")
        drawn = {"optional": "If the card you drew can be played, you may play it at once or keep it; no other "
                             "card may be played after drawing. Otherwise your turn ends.",
                 "forced": "If the card you drew can be played, you must play it at once. Otherwise your turn "
                           "ends.",
                 "forbidden": "You keep the card you drew, even if it could be played; your turn ends."}
        items.append(drawn.get(v.drawn_card, ""))
        if self._uses(A.Lock):
            items.append("While a color lock is in force, wild cards "
                         + ("count as cards of the locked color." if v.lock_allows_wild else "may not be played."))
        if v.after_draw is not None:
            items.append("After a player (the drawer) draws: "
                         + _lc(describe_effect(g, v.after_draw, "after_draw")))
        items.append("Skipped players lose their turn; players who are out of the round are passed over.")
        self.ul(items)

    def _uses(self, statement: type) -> bool:
        """Whether any effect of the variant has a `statement` (an effects.ast class)."""
        texts = [ct.on_play for ct in self.v.cards.values()] + [ct.on_start for ct in self.v.cards.values()]
        texts += [self.v.start_default, self.v.on_deal, self.v.on_player_out, self.v.after_draw]
        for text in texts:
            tree = self.v.syntax.tree(text)
            if tree is not None and any(isinstance(node, statement) for node in walk(tree)):
                return True
        return False

    def uno(self) -> None:
        v = self.v
        self.h(2, "Calling UNO")
        if not v.uno_enabled:
            self.p("There is no UNO call in this variant.")
            return
        items = [f"When you play your next-to-last card, call \"UNO\". If another player catches you before the "
                 f"next player begins their turn, you draw {v.uno_penalty} cards.",
                 "A player left with one card by someone else's card (a swap, a pass, a gift) must call UNO too."]
        if v.uno_partner_may_call:
            items.append("Your partner may call UNO for you.")
        self.ul(items)

    def house_rules(self) -> None:
        v, g = self.v, self.g
        items = []
        for rule_id in v.house_rules:
            if rule_id:
                items.append(f"**{_title(rule_id)}** is switched on (`{rule_id}`).")
        if v.stacking != "none":
            answer = {"same_type": "a card of the same type",
                      "same_or_higher": "a draw card whose penalty is at least as large",
                      "plus4_on_plus2": "a card of the same type, or a draw card with a larger penalty",
                      "any_draw": "any draw card"}.get(v.stacking, v.stacking)
            cards = [v.cards[c].name for c in v.stack_cards if c in v.cards] if v.stack_cards is not None else \
                [ct.name for ct in v.cards.values() if ct.draw > 0]
            text = (f"**Stacking.** A player who must draw and lose their turn because of a draw card may instead "
                    f"answer with {answer} ({_list_words(cards, 'or')}); the penalties add up and pass on. The "
                    f"first player who cannot or will not answer draws the whole stack and loses their turn.")
            text += (" A stacked card may still be challenged." if v.stack_challenge
                     else " While a stack is pending, a card cannot be challenged.")
            items.append(text)
        if v.jump_in:
            wilds = "Wild cards may jump in too." if v.jump_in_wilds else "Wild cards may not jump in."
            during = g.ruling_value("jump_in_during_stack")
            text = ("**Jump-in.** Before each turn, any player holding a card identical to the top card (same color "
                    "and same number or symbol) may play it out of turn; play then continues from them. " + wilds)
            if v.stacking != "none":
                text += " Jumping in on a pending draw stack is " + ("allowed." if during else "not allowed.")
            items.append(text)
        if items:
            self.h(2, "House rules")
            self.ul(items)

    def round_end(self) -> None:
        v, g = self.v, self.g
        self.h(2, "End of a round")
        items = []
        if v.round_ends == "team_out":
            items.append("The round ends when every member of a team has played their last card; that team wins "
                         "the round.")
        else:
            items.append("The round ends as soon as a player has played their last card; that player wins the "
                         "round.")
        resolving = [ct.name for ct in v.cards.values() if ct.last_card == "resolve" and ct.draw > 0]
        ignoring = [ct.name for ct in v.cards.values() if ct.last_card == "ignore" and ct.on_play is not None]
        if resolving:
            items.append(f"A {_list_words(resolving, 'or')} played as the last card still takes effect, so the "
                         f"cards it makes others draw count in the scoring.")
        if ignoring:
            items.append(f"A {_list_words(ignoring, 'or')} played as the last card has no effect.")
        if v.on_player_out is not None:
            items.append("When a player (the out player) goes out: "
                         + _lc(describe_effect(g, v.on_player_out, "player_out")))
        stall = {"fewest_points": "the player with the fewest points in hand wins it (ties: fewest cards)",
                 "fewest_cards": "the player with the fewest cards wins it (ties: fewest points)",
                 "no_winner": "nobody wins it"}.get(v.stall, v.stall)
        items.append(f"A round that reaches turn {v.max_turns} without a winner, or that can no longer go on, "
                     f"ends as a stall: {stall}.")
        items.append("When the draw pile runs out, the discard pile except its top card is shuffled to form a "
                     "new draw pile. If both are empty, a player who must draw draws nothing.")
        self.ul(items)

    def scoring(self) -> None:
        v = self.v
        self.h(2, "Scoring")
        who = "team" if v.score_by == "team" else "player"
        if v.scoring == "none":
            self.p("There is no scoring: the winner of the round wins the game.")
            return
        if v.scoring == "lowest_held":
            items = ["After each round, every player adds up the points of the cards left in their own hand "
                     "(see the deck table).",
                     f"When a total reaches {v.target}, the {who} with the lowest total wins the game."]
        else:
            items = [f"The winner of a round scores the points of all cards left in the other "
                     f"{'teams' if who == 'team' else 'players'}' hands (see the deck table)"
                     + (", for their whole team." if who == "team" else "."),
                     f"The first {who} to reach {v.target} points wins the game. If several are tied at the top, "
                     f"another round is played."]
        if v.scoring == "lowest_held":
            limit = f"the {who} with the lowest total wins."
        elif self.g.ruling_value("target_tie_plays_another_round") is False:
            limit = f"the {who} with the highest total wins (of several tied, the first seat)."
        else:
            limit = f"the {who} with the highest total wins; if several are tied there, nobody does."
        items.append(f"A game that has not ended after {v.max_rounds:,} rounds ends then: {limit}")
        items.append("A single round can also be played on its own: its winner wins.")
        self.ul(items)

    def rulings(self) -> None:
        v = self.v
        if not v.rulings:
            return
        self.h(2, "Rulings")
        self.p("Edge cases the printed rules leave open, and the choice this variant makes. Section numbers "
               "refer to the rules reference.")
        rows = []
        for name, ruling in v.rulings.items():
            value = _yaml_value(self.g.ruling_value(name))
            if ruling.choices:
                value += " (of " + ", ".join(_yaml_value(c) for c in ruling.choices) + ")"
            rows.append((f"`{name}`", value, ruling.section or "", _one_line(ruling.summary)))
        self.table(("Ruling", "Value", "Section", "Summary"), rows)


def render_rulebook(game, fmt: str = "markdown") -> str:
    """Return the rulebook of a compiled variant as Markdown (`markdown`) or plain text (`text`)."""
    if fmt not in ("markdown", "text"):
        raise ValueError(f"unknown rulebook format {fmt!r} (markdown or text)")
    blocks = _Rulebook(game).build()
    return _render_markdown(blocks) if fmt == "markdown" else _render_text(blocks)
