"""The English of expressions and conditions: numbers, players, groups, colors and the clauses
of conditions, each from its syntax tree with the constants folded.

`ExpressionEnglish` is a mixin of `english.Translator`.
"""

from __future__ import annotations

from ..effects import ast as A
from ..effects.fold import fold
from .phrases import _BINOP_WORDS, _CMP, _CMP_HAND, _CONDITIONS, _NOT_CONST, _P, _SET_CARDS, _SET_FIELDS, _TOP, Phrase, title


class ExpressionEnglish:
    """Phrases for expressions, and clauses for conditions."""

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
        said = self.names.get(e.name) if isinstance(e, A.Var) else None
        if isinstance(said, Phrase) and not said.startswith("the "):
            return f"{said} cards"                      # a procedure's number: "n cards"
        return f"as many cards as {self.num(e)}"

    def num(self, e) -> str:
        value = self.fold(e)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        d = e.rule
        if d == "fn_call":
            return self.called(e, self.num)
        if d == "player_count":
            return "the number of players still in the round"
        if d == "stack_size":
            return "the size of the pending draw stack"
        if d == "set_attr":
            return _SET_FIELDS[e.name]
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr", "under_attr"):
            attr, whose = e.name, self.card_of(e)
            return {"number": f"the number on {whose}", "points": f"the points of {whose}",
                    "draw": f"the draw penalty of {whose}"}.get(attr, f"the {title(attr)} of {whose}")
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
        if d in ("agg_sum", "agg_max", "agg_min"):
            return self.aggregate(e)
        if d == "pile_count":
            if self.held(e):
                return f"the number of {self.group(A.Var(e.pile, span=e.span))}"
            return f"the number of cards in {self.pile(e.pile)}"
        if d == "binop":
            word = _BINOP_WORDS[e.op]
            left = self.operand(e.left, keep_chain=e.op in ("+", "-"))
            right = self.operand(e.right)
            return f"{left} {word} {right}" + (", rounded down" if e.op == "//" else "")
        if d == "neg":
            return f"minus {self.operand(e.operand)}"
        if d == "rule_ref":
            return f"the value of the {title(e.name)} ruling"
        if isinstance(e, (A.RandomBetween, A.RandomFrom)):
            return self.chance(e)
        if d == "var":
            bound = self.bound_expr(e)
            if bound is not None:
                return self.num(bound)
            return self.variable(e) or self.name_phrase(e.name)
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

    def held(self, e: A.PileCount) -> bool:
        """Whether `count(NAME)` counts a group held by a `let` (a name in scope wins over a pile's)."""
        return isinstance(e.pile, str) and e.pile in self.names

    def bound(self, e):
        """The expression a `let` name stands for (the expression itself when it is not a name)."""
        while isinstance(e, A.Var) and self.bound_expr(e) is not None:
            e = self.bound_expr(e)
        return e

    def player(self, e) -> _P:
        d = e.rule
        if d == "fn_call":
            return self.called(e, self.player)
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
        if d == "catcher":                       # uno.penalty and uno.catch.if only (E509 elsewhere)
            return _P("the catcher")
        if d == "each_player":                   # the member a filter or an aggregate over players reads
            return _P("that player")
        if d == "var":
            bound = self.names.get(e.name)
            if isinstance(bound, _P):
                return bound
            if isinstance(bound, A.Expr):
                return self.player(bound)
            return _P(self.name_phrase(e.name))
        return _P(self.value(e))

    def group(self, e) -> str:
        d = e.rule
        if d == "fn_call":
            return self.called(e, self.group)
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
        if d in ("cards_of", "group_except", "filter_where"):
            return self.collection(e)
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
        if d == "fn_call":
            return self.called(e, self.color)
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
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr", "under_attr"):
            return f"the {title(e.name)} of {self.card_of(e)}"
        return self.value(e)

    def chance(self, e) -> str:
        """A draw at random: "a random number from 1 to 6", "a number drawn from launcher (0: 10 in 18, ...)"."""
        if isinstance(e, A.RandomBetween):
            return f"a random number from {self.num(e.low)} to {self.num(e.high)}"
        spec = self.variant.distributions[e.name]
        total = sum(spec.weights)
        shares = ", ".join(f"{v if spec.numeric else title(v)}: {w} in {total}" for v, w in zip(spec.values, spec.weights))
        return f"a {'number' if spec.numeric else 'color'} drawn at random from the {title(e.name)} ({shares})"

    def value(self, e) -> str:
        """Any expression as a noun phrase (fallback for mixed types)."""
        folded = self.fold(e)
        if isinstance(folded, bool):
            return "true" if folded else "false"
        if isinstance(folded, int):
            return str(folded)
        if isinstance(folded, str):
            if folded in self.variant.cards:               # a card type id: the card's name
                return self.variant.cards[folded].name
            return title(folded) if folded else "nothing"
        d = e.rule
        if d == "fn_call":
            return self.called(e, self.value)
        if d == "current_color":
            return "the current color"
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr", "under_attr"):
            if e.name in ("number", "points", "draw"):
                return self.num(e)
            return f"the {title(e.name)} of {self.card_of(e)}"
        if d in ("player_count", "stack_size", "hand_size", "hand_points", "half", "max_hand", "min_hand",
                 "group_count", "pile_count", "binop", "neg", "rule_ref", "direction", "set_attr", "agg_sum",
                 "agg_max", "agg_min"):
            return self.num(e)
        if d == "var_of":
            return self.variable(e)
        if d in ("self_", "next_", "previous", "dealer", "partner_self", "partner_of", "next_of", "next_seat",
                 "seat_after", "most_cards", "fewest_cards", "previous_of", "left_of", "right_of", "each_player",
                 "catcher"):
            return self.player(e).text
        if d in ("all_players", "others", "opponents", "team_of", "all_from", "others_from", "one_per_team",
                 "cards_of", "group_except", "filter_where"):
            return self.group(e)
        if d == "var":
            bound = self.names.get(e.name)
            if isinstance(bound, _P):
                return bound.text
            if isinstance(bound, A.Expr):
                return self.value(bound)
            if e.name in self.variant.colors:
                return title(e.name)
            return self.variable(e) or self.name_phrase(e.name)
        if d == "jumped":
            return f"whether {self.card_phrase} was played by jumping in"
        if isinstance(e, (A.RandomBetween, A.RandomFrom)):
            return self.chance(e)
        if d in _CONDITIONS:
            return self.cond(e)
        raise TypeError(f"the rulebook has no English for the expression '{d}'")

    def name_phrase(self, name: str) -> str:
        """A name of the file as the rulebook says it: the Phrase it stands for, else in words, never as written."""
        bound = self.names.get(name)
        return str(bound) if isinstance(bound, Phrase) else title(name)

    def card_of(self, e) -> str:
        """The card an attribute or kind test reads: the effect's own card, the one just drawn, or the top card."""
        if e.rule in ("top_attr", "top_is"):
            return _TOP
        if e.rule == "pile_top_attr":
            return f"the top card of {self.pile(e.pile)}"
        if e.rule == "set_card_attr":
            return _SET_CARDS[e.card]
        if e.rule in ("under_attr", "under_is"):
            return "the card this card was played on"
        return "the card just drawn" if e.rule in ("drawn_attr", "drawn_is") else self.card_phrase

    # --- conditions

    def cond(self, e, negate: bool = False) -> str:
        folded = self.fold(e)
        if isinstance(folded, bool):
            return "always" if folded != negate else "never"
        d = e.rule
        if d == "fn_call":
            return self.called(e, lambda value: self.cond(value, negate))
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
        if d == "role_is":
            who = self.player(e.who)
            return f"{who.pos} role is{' not' if negate else ''} the {title(e.role)}"
        if d == "is_partner":
            a, b = self.player(e.who), self.player(e.other)
            return f"{a.be()}{' not' if negate else ''} {b.pos} partner"
        if d in ("card_is", "drawn_is", "top_is", "under_is"):
            article = "an" if e.kind == "action" else "a"
            return f"{self.card_of(e)} is{' not' if negate else ''} {article} {e.kind} card"
        if d in ("card_attr", "drawn_attr", "top_attr", "pile_top_attr", "set_card_attr", "under_attr"):   # a true/false attribute (attrs:)
            return f"the {title(e.name)} of {self.card_of(e)} is {'false' if negate else 'true'}"
        if d == "jumped":
            return f"{self.card_phrase} was{' not' if negate else ''} played by jumping in"
        if d == "side_is":
            return f"the {title(e.side)} side is{' not' if negate else ''} up"
        if d == "comparison":
            return self.comparison(e, negate)
        if d == "rule_ref":
            return f"the {title(e.name)} ruling is {'off' if negate else 'on'}"
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
        if d in ("agg_any", "agg_all"):
            return self.quantified(e, negate)
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
        if isinstance(left, (A.CardAttr, A.DrawnAttr, A.TopAttr, A.UnderAttr)) and left.name == "type" \
                and self.fold(right) in self.variant.cards and op in ("==", "!="):
            name = self.variant.cards[self.fold(right)].name
            return f"{self.card_of(left)} is{' not' if op == '!=' else ''} a {name}"
        if self.fold(right) == "" and op in ("==", "!=") and isinstance(left, (A.CardAttr, A.DrawnAttr, A.TopAttr, A.UnderAttr,
                                                                                 A.PileTopAttr, A.SetCardAttr)):
            whose = self.card_of(left)          # an attribute a card type does not declare reads ""
            return f"{whose} has {'no' if op == '==' else 'a'} {title(left.name)}"
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


class CollectionEnglish:
    """Collections, their filters and aggregates: "the cards in your hand whose ...", "the total of ..."."""

    def _is_cards(self, e) -> bool:
        while isinstance(e, A.Where):
            e = e.members
        return isinstance(e, A.CardsOf)

    def _member(self, over, say):
        """`say()` with `card` read as the member of a card collection ("that card")."""
        if not self._is_cards(over):
            return say()
        before, self.card_phrase = self.card_phrase, "that card"
        try:
            return say()
        finally:
            self.card_phrase = before

    def collection(self, e) -> str:
        d = e.rule
        if d == "cards_of":
            who = e.who
            if isinstance(who, (A.SeatPile, A.IndexedPile, A.RolePile)):
                return f"the cards of {self.pile(who)}"
            if isinstance(who, A.Var) and who.name not in self.names and \
                    who.name in ("draw", "discard", *self.variant.piles):
                return f"the cards of {self.pile(who.name)}"
            return f"the cards in {self.player(who).pos} hand"
        if d == "group_except":
            return f"{self.group(e.group)} except {self.player(e.who).text}"
        if d == "filter_where":
            return f"{self.group(e.members)} for which " + self._member(e.members, lambda: self.cond(e.test))
        return self.group(e)

    def aggregate(self, e) -> str:
        word = {"agg_sum": "the total of", "agg_max": "the largest value of", "agg_min": "the smallest value of"}[e.rule]
        value = self._member(e.over, lambda: self.num(e.value))
        empty = "" if e.rule == "agg_sum" else " (0 if there are none)"
        return f"{word} {value} over {self.collection(e.over)}{empty}"

    def quantified(self, e, negate: bool) -> str:
        every = (e.rule == "agg_all") != negate
        test = self._member(e.over, lambda: self.cond(e.value, negate))
        return f"for {'every one' if every else 'at least one'} of {self.collection(e.over)}, {test}"


class FunctionEnglish:
    """A function call said as what it stands for: its value, its parameters read as the arguments."""

    def called(self, e, say):
        fn = self.variant.functions[e.name]
        tree = self.variant.syntax.tree(fn.value)
        bound = {name: (self.player(arg) if typ == "player" else arg) for (name, typ), arg in zip(fn.params, e.args)}
        caller = self.names
        self.names = {**caller, **bound}
        try:
            return say(tree.test)
        finally:
            self.names = caller
