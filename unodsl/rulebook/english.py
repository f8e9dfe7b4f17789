"""Effects and conditions in English: a translation of the syntax tree the check step parsed.

document.py builds the rulebook from these sentences; a card's own `text`, when the
author gave one, takes their place there. Constants are folded by effects.fold, as the compiler folds them (`rule.x`
reads the chosen value), so the rulebook says what this variant does rather than what
it could do. Output is deterministic: the same variant always gives the same text,
byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..effects import ast as A
from ..effects.fold import fold
from ..model.variant import EliminatedCards, Text


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
    "turn_draw": (_P("you", True), "the card"),
    "uno_penalty": (_P("the caught player"), "the card"),
    "round_end": (_P("the winner"), "the card"),
    "condition": (_P("you", True), "the card"),
    "match": (_P("you", True), "the card"),
    "set": (_P("you", True), "the next card"),
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

    def s_draw_until_cond(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} cards one at a time, keeping them all, until {self.cond(s.test)} "
                    f"(or no card is left to draw).")

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
        if any(isinstance(node, (A.RandomBetween, A.RandomFrom)) for node in A.walk(s.value)):
            # Drawn once, here: later uses read the name, not another draw.
            self.names.pop(s.name, None)
            return _cap(f"{self.value(s.value)} is drawn; call it {s.name}.")
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

    # named piles

    @staticmethod
    def pile(name: str) -> str:
        return {"draw": "the draw pile", "discard": "the discard pile"}.get(name, f"the {name} pile")

    def s_move(self, s):
        if isinstance(s.count, A.PileCount) and s.count.pile == s.source and s.source != "discard":
            return _cap(f"every card of {self.pile(s.source)} moves to {self.pile(s.dest)}"
                        + (" (under its top card)." if s.dest == "discard" else "."))
        under = " (under its top card)" if s.dest == "discard" else ""
        source = "from under the top card of the discard pile" if s.source == "discard" else \
            f"from the top of {self.pile(s.source)}"
        return _cap(f"{self.cards(s.count)} move {source} to {self.pile(s.dest)}{under}.")

    def s_take(self, s):
        who = self.player(s.who)
        if isinstance(s.count, A.PileCount) and s.count.pile == s.pile and s.pile != "discard":
            return _cap(f"{who.verb('take')} every card of {self.pile(s.pile)} into {who.their} hand.")
        source = "from under the top card of the discard pile" if s.pile == "discard" else \
            f"from the top of {self.pile(s.pile)}"
        return _cap(f"{who.verb('take')} {self.cards(s.count)} {source} into {who.their} hand.")

    def s_put(self, s):
        who = self.player(s.who)
        where = f"{self.pile(s.pile)}" + (" (under its top card)" if s.pile == "discard" else "")
        return _cap(f"{who.verb('put')} {self.cards(s.count)} of {who.their} choice on {where}.")

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
        return _cap(f"{who.be()} out of the round for good; {who.their} cards go "
                    f"{ELIMINATED_CARDS[self.variant.eliminated_cards]}.")

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

    def s_score(self, s):
        who = self.player(s.who)
        n = self.const(s.count)
        team = " (with their whole team)" if self.variant.score_by == "team" else ""
        if isinstance(n, int) and not isinstance(n, bool):
            verb = who.verb("score") if n >= 0 else who.verb("lose")
            return _cap(f"{verb} {abs(n)} point{'' if abs(n) == 1 else 's'}{team}.")
        return _cap(f"{who.verb('score')} as many points as {self.num(s.count)}{team}.")

    def s_flip_all(self, s):
        sides = f" ({title(self.variant.sides[0])} or {title(self.variant.sides[1])})" if self.variant.sides else ""
        return (f"Turn every card over, each in its place: every hand, the draw pile and the discard pile. "
                f"Play goes on with the other side up{sides}, in the color of the new top card; if it is a "
                f"wild, {self.me.verb('name')} the color.")

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
        return f"Do the following {times}: " + " ".join([lower_first(body[0])] + body[1:])

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

    def s_choice(self, s):
        who = self.player(s.who)
        parts = []
        for option in s.options:
            offered = True if option.test is None else self.fold(option.test)
            if offered is False:
                continue                        # a ruling leaves it out
            body = " ".join(self.stmts(option.body)) or "Nothing happens."
            when = "" if offered is True else f" (only if {self.cond(option.test)})"
            parts.append(f"{option.name}{when}: {lower_first(body).removesuffix('.')}")
        return _cap(f"{who.verb('choose')} one: " + "; ".join(parts) + ".")

    def s_call(self, s):
        # A procedure reads best said where it runs: its body, its parameters standing for the arguments.
        proc = self.variant.procedures[s.name]
        tree = self.variant.syntax.tree(proc.body)
        bound = {name: self.player(arg) if typ == "player" else arg for (name, typ), arg in zip(proc.params, s.args)}
        caller = self.names
        self.names = {**caller, **bound}
        try:
            return self.stmts(tree.body) if tree is not None else []
        finally:
            self.names = caller

    def s_set_var(self, s):
        var = self.declared(s.name)
        whose = f"{self.me.pos} " if var is not None and var.per_player else ""
        return _cap(f"{whose}`{s.name}` becomes {self.new_value(s.value, var)}.")

    def s_set_var_of(self, s):
        var = self.variant.player_state.get(s.name)
        return _cap(f"{self.player(s.who).pos} `{s.name}` becomes {self.new_value(s.value, var)}.")

    def new_value(self, e, var) -> str:
        """The value a `set` gives, as a noun phrase (a condition as true or false, a color by its name)."""
        if var is not None and var.type == "bool" and self.fold(e) is None:
            return f"true if {self.cond(e)}, else false"
        if var is not None and var.type == "color":
            return self.color(e)
        return self.value(e)

    def declared(self, name: str):
        """The declared variable (state: or player_state:) of that name, unless a let name hides it."""
        if name in self.names:
            return None
        return self.variant.state.get(name) or self.variant.player_state.get(name)

    def variable(self, e) -> str | None:
        """A declared variable read (`NAME`, `NAME of P`) as a noun phrase, or None for another name."""
        if e.rule == "var_of":
            return f"{self.player(e.who).pos} `{e.name}`"
        var = self.declared(e.name)
        if var is None:
            return None
        return f"{self.me.pos} `{e.name}`" if var.per_player else f"`{e.name}`"

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
        if isinstance(e, A.RandomBetween):
            return f"a random number of cards from {self.num(e.low)} to {self.num(e.high)}"
        if isinstance(e, A.RandomFrom):
            return "a number of cards " + self.chance(e).removeprefix("a number ")
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
        if d == "set_attr":
            return _SET_FIELDS[e.name]
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr"):
            attr, whose = e.name, self.card_of(e)
            return {"number": f"the number on {whose}", "points": f"the points of {whose}",
                    "draw": f"the draw penalty of {whose}"}.get(attr, f"the {attr} of {whose}")
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
        if d == "pile_count":
            return f"the number of cards in {self.pile(e.pile)}"
        if d == "binop":
            word = _BINOP_WORDS[e.op]
            left = self.operand(e.left, keep_chain=e.op in ("+", "-"))
            right = self.operand(e.right)
            return f"{left} {word} {right}" + (", rounded down" if e.op == "//" else "")
        if d == "neg":
            return f"minus {self.operand(e.operand)}"
        if d == "rule_ref":
            return f"the value of ruling `{e.name}`"
        if isinstance(e, (A.RandomBetween, A.RandomFrom)):
            return self.chance(e)
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.num(bound)
            return self.variable(e) or e.name
        if d == "direction":
            return "the direction of play (1 as dealt, -1 reversed)"
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
        if d == "previous_of":
            if isinstance(e.who, A.Self):
                return self.player(A.Previous(span=e.span))
            return _P(f"the player before {self.player(e.who).text}")
        if d == "left_of":
            return _P(f"the player in the seat to the left of {self.player(e.who).text}")
        if d == "right_of":
            return _P(f"the player in the seat to the right of {self.player(e.who).text}")
        if d == "most_cards":
            return _P("the player with the most cards")
        if d == "fewest_cards":
            return _P("the player with the fewest cards")
        if d == "catcher":                       # uno.penalty only (E509 elsewhere)
            return _P("the catcher")
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
                return title(e.name)
        if d == "random_from":
            return self.chance(e)
        if d == "rule_ref" and isinstance(self.fold(e), str):      # a ruling of type color
            return title(self.fold(e))
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr"):
            return f"the {e.name} of {self.card_of(e)}"
        return self.value(e)

    def chance(self, e) -> str:
        """A draw at random: "a random number from 1 to 6", "a number drawn from launcher (0: 10 in 18, ...)"."""
        if isinstance(e, A.RandomBetween):
            return f"a random number from {self.num(e.low)} to {self.num(e.high)}"
        spec = self.variant.distributions[e.name]
        total = sum(spec.weights)
        shares = ", ".join(f"{v if spec.numeric else title(v)}: {w} in {total}" for v, w in zip(spec.values, spec.weights))
        return f"a {'number' if spec.numeric else 'color'} drawn from {e.name} ({shares})"

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
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr"):
            if e.name in ("number", "points", "draw"):
                return self.num(e)
            return f"the {e.name} of {self.card_of(e)}"
        if d in ("player_count", "stack_size", "hand_size", "hand_points", "half", "max_hand", "min_hand",
                 "group_count", "pile_count", "binop", "neg", "rule_ref", "direction", "set_attr"):
            return self.num(e)
        if d == "var_of":
            return self.variable(e)
        if d in ("self_", "next_", "previous", "dealer", "partner_self", "partner_of", "next_of", "next_seat",
                 "seat_after", "most_cards", "fewest_cards", "previous_of", "left_of", "right_of"):
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
                return title(e.name)
            return self.variable(e) or e.name
        if d == "jumped":
            return f"whether {self.card_phrase} was played by jumping in"
        if isinstance(e, (A.RandomBetween, A.RandomFrom)):
            return self.chance(e)
        if d in _CONDITIONS:
            return self.cond(e)
        raise TypeError(f"the rulebook has no English for the expression '{d}'")

    def card_of(self, e) -> str:
        """The card an attribute or kind test reads: the effect's own card, the one just drawn, or the top card."""
        if e.rule in ("top_attr", "top_is"):
            return _TOP
        if e.rule == "pile_top_attr":
            return f"the top card of {self.pile(e.pile)}"
        if e.rule == "set_card_attr":
            return _SET_CARDS[e.card]
        return "the card just drawn" if e.rule in ("drawn_attr", "drawn_is") else self.card_phrase

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
            # A part joined the other way is put in brackets, so the sentence keeps the file's grouping.
            words = [f"({self.cond(c, negate)})" if c.rule in ("and_expr", "or_expr") and c.rule != d
                     else self.cond(c, negate) for c in parts]
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
        if d in ("card_is", "drawn_is", "top_is"):
            article = "an" if e.kind == "action" else "a"
            return f"{self.card_of(e)} is{' not' if negate else ''} {article} {e.kind} card"
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr"):   # a true/false attribute (attrs:)
            return f"the {e.name} of {self.card_of(e)} is {'false' if negate else 'true'}"
        if d == "jumped":
            return f"{self.card_phrase} was{' not' if negate else ''} played by jumping in"
        if d == "side_is":
            return f"the {title(e.side)} side is{' not' if negate else ''} up"
        if d == "comparison":
            return self.comparison(e, negate)
        if d == "rule_ref":
            return f"ruling `{e.name}` is {'off' if negate else 'on'}"
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.cond(bound, negate)
            if self.variable(e) is not None:
                return f"{self.variable(e)} is {'false' if negate else 'true'}"
            prefix = "it is not the case that " if negate else ""
            return prefix + self.value(e)
        if d == "var_of":
            return f"{self.variable(e)} is {'false' if negate else 'true'}"
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
        if isinstance(left, (A.CardAttr, A.DrawnAttr, A.TopAttr)) and left.name == "type" \
                and self.fold(right) in self.variant.cards and op in ("==", "!="):
            name = self.variant.cards[self.fold(right)].name
            return f"{self.card_of(left)} is{' not' if op == '!=' else ''} a {name}"
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
_CONDITIONS = ("not_", "and_expr", "or_expr", "holds", "is_out", "is_partner", "card_is", "drawn_is", "top_is",
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
