"""The effect checker's expression rules: one `e_RULE` per expression, returning its type (E5xx).

`ExpressionChecks` is a mixin of `check._Unit`, whose scopes, `expect` and `fail` these methods use.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from . import ast as A
from .fold import fold
from .types import (_Broken, BOOL, CARD_ATTRIBUTES, CARDS, CARDS_READ_WHERE_WRITTEN, COLLECTIONS, COLOR, GROUP,
                    INT, CARD_READS, MATCH_READS, MAX_NUMBER, MAX_SCAN, PLAYER, STRING, VARIABLE_TYPES)
from ..diagnostics import suggestion_suffix
from .procedures import MAX_EXPANDED

# What may stand where a group (or any collection) is read, for a word of the language written there.
GROUP_WORDS = "a group of players: 'all', 'others', 'opponents', 'players', 'team of P', 'teams', or a let name holding one"
COLLECTION_WORDS = ("a collection: 'all', 'others', 'opponents', 'players', 'team of P', 'teams', 'cards of P', "
                    "'cards of PILE', or a let name holding a group")


@functools.lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    """The words of the effect language: the quoted words of its grammar, read from the grammar's text (the
    engine imports this module, never the parser; tests/test_held_groups.py holds them to parse.keywords())."""
    text = (Path(__file__).resolve().parent / "effect.lark").read_text(encoding="utf-8")
    rules = re.sub(r"^\s*//.*$|^[A-Z_]+\s*:.*$", "", text, flags=re.MULTILINE)     # comments, terminals (KIND)
    return frozenset(re.findall(r'"([a-z_][a-z0-9_]*)"', rules))

# The words that name a player (effect.lark's player_kw): a misspelt one parses as a name.
PLAYER_WORDS = ("self", "next", "previous", "dealer", "partner", "catcher")


class ExpressionChecks:
    """The check of each expression: its operands' types and its own."""

    # --- expressions

    def expect(self, e, typ: str) -> None:
        if typ == GROUP:
            self.word_as_name(e, GROUP_WORDS)
        got = self.expr(e)
        if got != typ:
            self.fail(e.span, "E501", f"expected a {typ}, got a {got}")

    def word_as_name(self, e, wanted: str) -> None:
        """E401 for a word of the language read as a name where a group's name may stand (`choose player
        next`, `max(N over next)`): the parser takes any name there, a let's group, so the word it would have
        refused is refused here, at the word, with what may stand there."""
        if isinstance(e, A.Var) and self.lookup(e.name) is None and e.name in _words():
            self.fail(e.span, "E401", f"unexpected '{e.name}'; expected {wanted}")

    def expr(self, e) -> str:
        """Check an expression; return its type."""
        typ = getattr(self, "e_" + e.rule)(e)
        self.checked.types[id(e)] = typ
        return typ

    def _typed(typ: str):
        def check(self, e):
            return typ
        return check

    e_true = e_false = e_jumped = e_top_is = _typed(BOOL)
    e_string = _typed(STRING)
    e_current_color = _typed(COLOR)
    e_player_count = e_stack_size = _typed(INT)
    e_self_ = e_next_ = e_previous = e_dealer = e_next_seat = e_most_cards = e_fewest_cards = _typed(PLAYER)
    e_all_players = e_others = _typed(GROUP)

    def _of_player(typ: str, teams: bool = False):
        def check(self, e):
            if teams:
                self._needs_teams(e)
            self.expect(e.who, PLAYER)
            return typ
        return check

    e_hand_size = e_hand_points = _of_player(INT)
    e_is_out = _of_player(BOOL)
    e_next_of = e_seat_after = _of_player(PLAYER)
    e_partner_of = _of_player(PLAYER, teams=True)
    e_all_from = e_others_from = _of_player(GROUP)
    e_team_of = _of_player(GROUP, teams=True)

    def _of_group(self, e):
        self.expect(e.group, GROUP)
        return INT

    e_max_hand = e_min_hand = _of_group

    def e_group_count(self, e):
        self.collection(e.group)
        return INT

    def _teams_only(typ: str):
        def check(self, e):
            self._needs_teams(e)
            return typ
        return check

    e_partner_self = _teams_only(PLAYER)
    e_opponents = e_one_per_team = _teams_only(GROUP)
    del _typed, _of_player, _teams_only

    def e_int_(self, e):
        digits = e.digits
        if len(digits) > 9:                           # also keeps int() away from huge literals
            self.fail(e.span, "E512", f"number {digits[:12]}{'...' if len(digits) > 12 else ''} is too large "
                      f"(at most {MAX_NUMBER})")
        if int(digits) > MAX_NUMBER:
            self.fail(e.span, "E512", f"number {int(digits)} is too large (at most {MAX_NUMBER})")
        return INT

    def e_card_attr(self, e):
        self._member_card(e)
        return self._card_attribute(e)

    def _card_attribute(self, e):
        if e.name in CARD_ATTRIBUTES:
            return CARD_ATTRIBUTES[e.name]
        if e.name in self.c.attributes:
            return self.c.attributes[e.name]
        self.fail(e.span, "E502", f"cards have no attribute '{e.name}'"
                  + suggestion_suffix(e.name, [*CARD_ATTRIBUTES, *self.c.attributes]))

    e_top_attr = _card_attribute

    def e_card_is(self, e):
        self._member_card(e)
        return BOOL

    def match_reads(self, test) -> None:
        """E516 for the first part of a match condition that reads more than the cards, the color and rulings."""
        self._reads_only(test, MATCH_READS, "E516", "a match condition reads only card, top, current color, "
                         "colors, rulings and constants (a test on the player belongs in a strict restriction)")

    def pile_reads(self, test) -> None:
        """E562 for the first part of a pile's `where:` that reads more than the card, colors and rulings."""
        self._reads_only(test, CARD_READS, "E562", "a pile's where: reads only card, colors, rulings and constants "
                         "(the pile is filled as the round is dealt, before any card is in play)")

    def _reads_only(self, test, reads: frozenset, code: str, message: str) -> None:
        """`code` at the first part of `test` whose rule is not in `reads` (a name there is a color: conditions
        bind none), or that names a declared variable: its value changes as the game goes, and the answers
        of these conditions are worked out without a state (a table made once, a look-ahead)."""
        for node in A.walk(test):
            if node.rule not in reads:
                self.error(node.span, code, message)
                return
            if node.rule == "var" and self.variable(node.name) is not None:
                self.error(node.span, code, f"{message}; '{node.name}' is a declared variable, whose value "
                                            "changes during the game")
                return

    def _drawn(self, e) -> None:
        if not self.drawing:
            self.fail(e.span, "E508", "'drawn' is the card just drawn, known only in the condition of "
                      "'P draws until ...'")

    def e_drawn_attr(self, e):
        self._drawn(e)
        return self._card_attribute(e)

    def e_drawn_is(self, e):
        self._drawn(e)
        return BOOL

    def e_rule_ref(self, e):
        rulings = self.v.rulings
        if e.name not in rulings:
            hint = suggestion_suffix(e.name, rulings)
            if not hint:       # a new ruling, not a typo: say where it goes, with the lines to write
                hint = (f": declare it under rulings: in this file, e.g. "
                        f"'rulings: {{{e.name}: {{value: true, summary: What it decides.}}}}'")
            self.fail(e.span, "E502", f"unknown ruling '{e.name}'" + hint)
        self.c.rulings_used.add(e.name)
        value = self.c.ruling_value(e.name)
        if rulings[e.name].type == "color":
            return COLOR
        return BOOL if isinstance(value, bool) else INT if isinstance(value, int) else STRING

    def e_half(self, e):
        self.expect(e.value, INT)
        return INT

    def e_choose_player(self, e):
        self.fail(e.span, "E504", "'choose player' can only be used as 'let NAME = choose player GROUP' "
                  "or 'let NAME = P chooses player GROUP'")

    def e_choose_color_value(self, e):
        self.fail(e.span, "E504", "'choose color' as a value can only be used as 'let NAME = choose color' "
                  "or 'let NAME = P chooses color'; to change the color in play, write it as a statement")

    def e_choose_number(self, e):
        self.fail(e.span, "E504", "'choose number' can only be used as 'let NAME = choose number from A to B' "
                  "or 'let NAME = P chooses number from A to B'")

    def e_random_between(self, e):
        self.expect(e.low, INT)
        self.expect(e.high, INT)
        low, high = (fold(bound, self.c.ruling_value) for bound in (e.low, e.high))
        if isinstance(low, int) and isinstance(high, int) and low > high:
            self.fail(e.span, "E532", f"random({low}, {high}) has its lower bound above its upper bound")
        return INT

    def e_random_from(self, e):
        distributions = self.v.distributions
        if e.name not in distributions:
            self.fail(e.span, "E534", f"unknown distribution '{e.name}'" + suggestion_suffix(e.name, distributions))
        return INT if distributions[e.name].numeric else COLOR

    def e_var(self, e):
        found = self.lookup(e.name)
        if found is not None:
            node, typ = found
            self.checked.refers[id(e)] = node
            return typ
        var = self.variable(e.name)
        if var is not None:                 # a per-player one without `of` is self's
            self.checked.refers[id(e)] = var
            return VARIABLE_TYPES[var.type]
        colors = self.v.colors
        if e.name in colors:
            self.checked.refers[id(e)] = colors.index(e.name)
            return COLOR
        visible = [n for scope in self.scopes for n in scope] + list(self.v.state) + list(self.v.player_state)
        self.fail(e.span, "E502", f"unknown name '{e.name}'"
                  + suggestion_suffix(e.name, visible + list(colors) + list(PLAYER_WORDS)))

    def e_comparison(self, e):
        lt, rt = self.expr(e.left), self.expr(e.right)
        if lt == CARDS or rt == CARDS:
            self.fail(e.span, "E545", CARDS_READ_WHERE_WRITTEN)
        if lt != rt:
            self.fail(e.span, "E501", f"cannot compare a {lt} with a {rt}")
        self.enum_word(e.left, e.right)
        self.enum_word(e.right, e.left)
        if e.op not in ("==", "!=") and lt != INT:
            self.fail(e.op_span, "E501", f"'{e.op}' compares numbers, not {lt}s")
        return BOOL

    def e_binop(self, e):
        self.expect(e.left, INT)
        self.expect(e.right, INT)
        return INT

    def e_neg(self, e):
        self.expect(e.operand, INT)
        return INT

    def e_not_(self, e):
        self.expect(e.operand, BOOL)
        return BOOL

    def e_and_expr(self, e):
        for part in e.parts:
            self.expect(part, BOOL)
        return BOOL

    e_or_expr = e_and_expr

    def e_holds(self, e):
        self.expect(e.who, PLAYER)
        what = e.what
        if isinstance(what, A.HoldColor):
            self.expect(what.color, COLOR)
        elif isinstance(what, A.HoldType):
            if what.name not in self.v.cards:
                self.fail(what.span, "E301", f"unknown card type '{what.name}'"
                          + suggestion_suffix(what.name, self.v.cards))
        elif isinstance(what, A.HoldNumber):
            self.expect(what.number, INT)
        elif not isinstance(what, (A.HoldWild, A.HoldPlayable)):       # nothing to check in these
            raise TypeError(f"no type rule for the holding '{what.rule}'")
        return BOOL

    def e_is_partner(self, e):
        self._needs_teams(e)
        self.expect(e.who, PLAYER)
        self.expect(e.other, PLAYER)
        return BOOL

    def e_side_is(self, e):
        sides = self.v.sides
        if not sides:
            self.fail(e.span, "E515", "this asks which side is up, but the variant's cards have one side")
        if e.side not in sides:
            self.fail(e.span, "E502", f"unknown side '{e.side}'" + suggestion_suffix(e.side, sides))
        return BOOL

    def e_role_is(self, e):
        self.expect(e.who, PLAYER)
        roles = self.v.roles
        if e.role not in roles:
            hint = suggestion_suffix(e.role, roles) if roles else ": the variant declares no roles (roles: names:)"
            self.fail(e.span, "E502", f"unknown role '{e.role}'" + hint)
        return BOOL

    def _needs_teams(self, e):
        if self.v.team_size < 2:
            self.fail(e.span, "E503", "this refers to teams, but the variant has no teams")

    # --- sets (turn.sets): `set.size`, `set.sum`, `set.first.NAME`, `set.base.NAME`, read by its conditions only

    def _in_set(self, e) -> None:
        if self.ctx.where != "set":
            self.fail(e.span, "E539", "'set' is the set being played, known only in turn.sets' conditions "
                      "(continue and finish)")

    def e_set_attr(self, e):
        self._in_set(e)
        if e.name not in SET_FIELDS:
            self.fail(e.span, "E502", f"a set has no '{e.name}'" + suggestion_suffix(e.name, [*SET_FIELDS, *SET_CARDS]))
        return INT

    def e_set_card_attr(self, e):
        self._in_set(e)
        if e.card not in SET_CARDS:
            self.fail(e.span, "E502", f"a set has no card '{e.card}'" + suggestion_suffix(e.card, SET_CARDS))
        return self._card_attribute(e)

    def set_reads(self, test) -> None:
        """E540 for the first part of a set condition that reads more than the cards, the set, the color and rulings."""
        self._reads_only(test, SET_READS, "E540", "a set condition reads only card, top, set, current color, "
                         "colors, rulings and constants")


# What a set condition (turn.sets) may be made of: a match condition's reads and the set's own, so its
# answer depends only on the cards, the color and the set; the engine can then search ahead for a
# completion without playing a card.
SET_FIELDS = ("size", "sum")
SET_CARDS = ("first", "base")
SET_READS = MATCH_READS | {"set_attr", "set_card_attr"}


class CollectionChecks:
    """Collections (`cards of P`, `cards of PILE`, groups, `players where COND`), their filters and aggregates.

    A filter or an aggregate reads its collection one member at a time: a card as `card`, a player
    as `player`, both meaning the innermost one around them. Each is bound in size (a deck's cards, a
    table's players), and those nested in one another multiply: past MAX_SCAN members, E543.
    """

    def collection(self, e) -> str:
        """Check an expression that must be a collection; its type (GROUP or CARDS)."""
        self.word_as_name(e, COLLECTION_WORDS)
        typ = self.expr(e)
        if typ not in COLLECTIONS:
            self.fail(e.span, "E501", f"expected a group of players or a card collection (cards of P, cards of "
                      f"PILE), got a {typ}")
        return typ

    def e_cards_of(self, e):
        who = e.who
        if isinstance(who, (A.SeatPile, A.IndexedPile, A.RolePile)):     # `cards of stock of P`, `cards of lane 2`
            self.pile(e, who)
            self.checked.refers[id(e)] = who
            return CARDS
        if isinstance(who, A.Var) and self.lookup(who.name) is None and self.variable(who.name) is None:
            piles = ["draw", "discard", *self.v.piles]
            if who.name in piles:
                self.pile(who, who.name)
                self.checked.refers[id(e)] = who.name            # a pile's cards
                return CARDS
            visible = [n for scope in self.scopes for n in scope] + list(self.v.player_state)
            self.fail(who.span, "E502", f"unknown player or pile '{who.name}'"
                      + suggestion_suffix(who.name, piles + visible + list(PLAYER_WORDS)))
        self.expect(who, PLAYER)
        return CARDS

    def e_group_except(self, e):
        self.expect(e.group, GROUP)
        self.expect(e.who, PLAYER)
        return GROUP

    def e_filter_where(self, e):
        typ = self.collection(e.members)
        with self._reading(e, typ):
            self.expect(e.test, BOOL)
        return typ

    def _aggregate(result: str):
        def check(self, e):
            typ = self.collection(e.over)
            with self._reading(e, typ):
                self.expect(e.value, result)
            return result
        return check

    e_agg_sum = e_agg_max = e_agg_min = _aggregate(INT)
    e_agg_any = e_agg_all = _aggregate(BOOL)
    del _aggregate

    def e_each_player(self, e):
        for typ, node, _ in reversed(self.members):
            if typ == GROUP:
                self.checked.refers[id(e)] = node
                return PLAYER
        self.fail(e.span, "E543", "'player' is the member a filter or an aggregate over players is reading: "
                  "write it inside 'G where ...' or '... over G' (G a group of players)")

    def _member_card(self, e) -> None:
        """`card` inside a filter or an aggregate over cards is the member read; elsewhere the card resolved."""
        for typ, node, _ in reversed(self.members):
            if typ == CARDS:
                self.checked.refers[id(e)] = node
                return

    def _reading(self, node, typ: str):
        """The scope of a filter's condition or an aggregate's expression: its members bound, its cost counted."""
        unit = self
        size = self.c.deck_size if typ == CARDS else self.c.max_players
        scan = (self.members[-1][2] if self.members else 1) * size

        class Reading:
            def __enter__(self):
                if scan > MAX_SCAN:
                    unit.fail(node.span, "E544", f"these collections, one read inside another, would test up to "
                              f"{scan:,} members at once (at most {MAX_SCAN:,}): read the inner one outside, "
                              "with let, or filter the outer one first")
                unit.members.append((typ, node, scan))
                unit.deepest = max(unit.deepest, scan)

            def __exit__(self, *exc):
                unit.members.pop()
                return False
        return Reading()


class FunctionChecks:
    """Calls of functions (`functions:`): a name, as many arguments as parameters, each of its type; no
    recursion; the value's type is the call's."""

    def e_fn_call(self, e):
        functions = self.v.functions
        if e.name not in functions:
            self.fail(e.span, "E547", f"unknown function '{e.name}'" + suggestion_suffix(e.name, functions)
                      + ("" if functions else " (declare it under functions:)"))
        params = functions[e.name].params
        if len(e.args) != len(params):
            wanted = ", ".join(name for name, _ in params) or "none"
            self.fail(e.span, "E548", f"function '{e.name}' takes {len(params)} argument"
                      f"{'' if len(params) == 1 else 's'} ({wanted}), not {len(e.args)}")
        for arg, (_, typ) in zip(e.args, params):
            self.expect(arg, typ)
        graph = self.c.fn_graph
        if self.ctx.where == "function" and graph is not None:
            cycle = graph.cycle(self.ctx.procedure, e.name)
            if cycle is not None:
                self.fail(e.span, "E549", "functions cannot call themselves, directly or through others: "
                          + " -> ".join(cycle))
        body = self.c.fn_bodies.get(e.name)
        if body is None:
            self.failed = True                  # its value is broken, and said so where it is written
            raise _Broken(e.name)
        if graph.size[e.name] > MAX_EXPANDED:
            self.fail(e.span, "E550", f"function '{e.name}' would inline more than {MAX_EXPANDED:,} expressions "
                      "here (with the functions it calls)")
        outer = self.members[-1][2] if self.members else 1
        if outer * body[3] > MAX_SCAN:
            self.fail(e.span, "E544", f"these collections, one read inside another, would test up to "
                      f"{outer * body[3]:,} members at once (at most {MAX_SCAN:,}): read the inner one outside, "
                      "with let, or filter the outer one first")
        self.deepest = max(self.deepest, outer * body[3])
        return body[2]


class UnderChecks:
    """`under`: the card this card was played on, known where a played card's effect runs."""

    def _under(self, e) -> None:
        if self.ctx.where not in ("on_play", "on_stack"):
            self.fail(e.span, "E551", "'under' is the card this card was played on, known only in a card's "
                      "on_play and on_stack effects")

    def e_under_attr(self, e):
        self._under(e)
        return self._card_attribute(e)

    def e_under_is(self, e):
        self._under(e)
        return BOOL
