"""The meaning of an effect: scopes, names and types (E5xx), checked on the syntax tree before it is lowered.

The checker resolves every name (to the `let` or `for each` that binds it, or to a color)
and gives every expression its type; the lowering reads both and never fails. A broken
statement is reported and skipped, so one effect reports all its independent problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast as A
from .ast import diagnostic_at
from .fold import fold
from .procedures import MAX_EXPANDED, CallGraph
from ..diagnostics import Diagnostic, suggestion_suffix
from ..model.variant import attr_kind
from ..model.variables import Variable, VarType

MAX_REPEAT = 1000
MAX_NUMBER = 1_000_000

# Types of expressions
INT, BOOL, PLAYER, GROUP, COLOR, STRING = "number", "condition", "player", "group", "color", "string"
SEATS = "seats"             # not an expression type: the list of seats a `for each` walks
CHANCE = (A.RandomBetween, A.RandomFrom)    # the expressions that draw from the game's generator

# Statements refused in round.on_end (E514): they ask for a decision, or draw (and so run events).
ROUND_OVER_REFUSES = frozenset({"draw", "draw_until", "draw_until_cond", "draw_to", "penalty", "choose_color_self", "choose_color_by",
                                "give", "exchange", "trade", "challenge", "must_play", "must_play_block",
                                "choice"})

# A declared variable's type (model.variables.VarType) -> the type of reading it: a card type and an
# enum value are words, as `card.type` is.
VARIABLE_TYPES = {VarType.INT: INT, VarType.BOOL: BOOL, VarType.COLOR: COLOR, VarType.CARD_TYPE: STRING,
                  VarType.ENUM: STRING}

CARD_ATTRIBUTES = {"number": INT, "points": INT, "draw": INT, "color": COLOR, "type": STRING, "kind": STRING}
_ATTR_TYPES = {"bool": BOOL, "int": INT, "color": COLOR, "string": STRING}
# What a `match:` condition may be made of: it reads the candidate card, the top card, the current
# color, rulings and constants, so its answer is a table by (current color, top card, card), made once.
MATCH_READS = frozenset({"card_attr", "top_attr", "card_is", "top_is", "current_color", "rule_ref", "var",
                         "int_", "true", "false", "string", "comparison", "binop", "neg", "not_",
                         "and_expr", "or_expr", "half"})


@dataclass
class Context:
    """What a piece of effect code may refer to, and where it lives."""

    where: str            # on_play | on_start | event | setup | condition | uno_penalty | round_end | turn_draw
                          # | match | procedure | set
    start_only: bool = False
    procedure: str = ""   # the procedure whose body this is, if one


@dataclass
class Checked:
    """What the checker learned about one effect or condition, for the lowering."""

    types: dict[int, str] = field(default_factory=dict)      # id(expression) -> its type
    refers: dict[int, object] = field(default_factory=dict)  # id(Var) -> its Let, ForEach or Param, a color index
    #                                                           or a Variable (also id(VarOf), id(SetVar...))
    where: str = "condition"                                  # the Context's: the lowering lays out its frame by it
    params: tuple = ()                                       # a procedure body's Params, in call order


@dataclass(frozen=True, eq=False)
class Param:
    """A parameter of a procedure, as the names in its body refer to it (`Checked.refers`)."""

    procedure: str
    name: str
    type: str


class _Broken(Exception):
    """Raised inside the checker to abandon one statement after its diagnostic."""


class Checker:
    """Checks the effects and conditions of one variant; `diags` and `rulings_used` collect over all of them."""

    def __init__(self, game):
        self.variant = game.variant
        self.ruling_value = game.ruling_value
        self.diags: list[Diagnostic] = []
        self.rulings_used: set[str] = set()
        self.current_card = None                  # the CardType whose effects are being checked
        # Declared attributes (`attrs:`) -> their type; a type without one reads its type's zero.
        self.attributes: dict[str, str] = {}
        for card in self.variant.cards.values():
            for name, value in card.attrs.items():
                self.attributes.setdefault(name, _ATTR_TYPES[attr_kind(value, self.variant.colors)])
        self.graph: CallGraph | None = None       # the procedures' call graph, once `procedures` has run
        self.bodies: dict[str, tuple | None] = {}  # procedure name -> (statements, Checked), None if broken

    def effect(self, tree: A.Effect, ctx: Context) -> Checked | None:
        """Check an effect; its facts for the lowering, or None when it has an error."""
        unit = _Unit(self, tree.text, ctx)
        unit.block(tree.body)
        return None if unit.failed else unit.checked

    def procedures(self) -> dict[str, tuple]:
        """Check every procedure's body once, with its parameters' types, callees first (E535-E538 for
        calls); name -> (statements, Checked) of those whose body checks, for the lowering to inline."""
        procedures = self.variant.procedures
        syntax = self.variant.syntax
        trees = {name: syntax.tree(proc.body) if syntax is not None else None for name, proc in procedures.items()}
        self.graph = CallGraph(trees)
        for name in self.graph.order + self.graph.unordered():
            proc, tree = procedures[name], trees[name]
            if tree is None:
                empty = proc.body is not None and not proc.body.source.strip()
                self.bodies[name] = ((), Checked()) if empty else None     # unparsed: E4xx said why
                continue
            unit = _Unit(self, tree.text, Context("procedure", procedure=name))
            params = tuple(Param(name, param, typ) for param, typ in proc.params)
            for param in params:
                unit.bind(param.name, param, param.type)
            unit.checked.params = params
            unit.block(tree.body)
            self.bodies[name] = None if unit.failed else (tree.body, unit.checked)
        return {name: body for name, body in self.bodies.items() if body is not None}

    def condition(self, tree: A.Condition, ctx: Context) -> Checked | None:
        """Check a condition; its facts, or None when it has an error."""
        unit = _Unit(self, tree.text, ctx)
        try:
            unit.expect(tree.test, BOOL)
        except _Broken:
            return None
        if any(isinstance(node, A.ChoosePlayer) for node in A.walk(tree.test)):
            # The expression check refuses `choose player` outside `let` (E504): this guards the checker.
            unit.error(tree.test.span, "E505", "a condition cannot choose or bind players")
        if ctx.where == "match":
            unit.match_reads(tree.test)
        if ctx.where == "set":
            unit.set_reads(tree.test)
        chance = next((node for node in A.walk(tree.test) if isinstance(node, CHANCE)), None)
        if chance is not None:
            # A condition may be asked any number of times (each listing of legal actions asks the
            # may-draw rule): a draw at random there would make the game depend on who asked.
            unit.error(chance.span, "E533", "a condition cannot draw at random (it may be asked any number "
                       "of times); draw in an effect")
        return None if unit.failed else unit.checked


class _Unit:
    """The check of one effect text: its scopes and its verdict."""

    def __init__(self, checker: Checker, text, ctx: Context):
        self.c = checker
        self.v = checker.variant
        self.text = text
        self.ctx = ctx
        self.scopes: list[dict[str, tuple[A.Node, str]]] = [{}]
        self.checked = Checked(where=ctx.where)
        self.failed = False
        self.drawing = False          # inside a `draws until` condition, where `drawn` is the card just drawn

    def error(self, span: A.Span, code: str, message: str, severity: str = "error") -> None:
        self.c.diags.append(diagnostic_at(self.text, span.line, span.column, code, message, severity))
        if severity == "error":
            self.failed = True

    def fail(self, span: A.Span, code: str, message: str):
        self.error(span, code, message)
        raise _Broken(message)

    def bind(self, name: str, node: A.Node, typ: str) -> None:
        if self.variable(name) is not None:
            self.error(node.span, "E520", f"'{name}' is a declared variable: a let or for each cannot bind "
                       f"its name (set it with 'set {name} = ...')")
        self.scopes[-1][name] = (node, typ)

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    # --- statements

    def block(self, body) -> None:
        for stmt in body:
            try:
                if self.ctx.where == "round_end":
                    self._keeps_score(stmt)
                getattr(self, "s_" + stmt.rule)(stmt)
            except _Broken:
                continue

    def suite(self, body) -> None:
        self.scopes.append({})
        self.block(body)
        self.scopes.pop()

    def _who(self, s):
        self.expect(s.who, PLAYER)

    def _who_count(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.count, INT)

    def _none(self, s):
        pass

    s_draw = s_draw_to = s_penalty = _who_count
    s_draw_until = s_skip_one = s_choose_color_by = s_swap_hands = s_look = s_trade = s_turn_to = s_eliminate = _who
    s_nothing = s_reverse = s_choose_color_self = s_rotate_hands = s_redeal = s_extra_turn = _none

    def s_skip_many(self, s):
        self.expect(s.count, INT)

    def s_set_color(self, s):
        self.expect(s.color, COLOR)

    def s_let(self, s):
        if isinstance(s.value, A.ChoosePlayer):
            self.expect(s.value.group, GROUP)
            self.checked.types[id(s.value)] = PLAYER
            self.bind(s.name, s, PLAYER)
            return
        self.bind(s.name, s, self.expr(s.value))

    def s_give(self, s):
        self.expect(s.giver, PLAYER)
        self.expect(s.count, INT)
        self.expect(s.taker, PLAYER)

    def s_exchange(self, s):
        self.expect(s.first, PLAYER)
        self.expect(s.count, INT)
        self.expect(s.second, PLAYER)

    def s_discard_color(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.color, COLOR)

    def s_lock(self, s):
        self.expect(s.color, COLOR)
        self.expect(s.owner, PLAYER)

    def s_must_play(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.color, COLOR)

    def s_must_play_block(self, s):
        self.s_must_play(s)
        self.suite(s.otherwise)

    # named piles

    def pile(self, s, name: str) -> None:
        """E502 for a pile that is neither `draw`, `discard` nor declared (`piles:`)."""
        known = ["draw", "discard", *self.v.piles]
        if name not in known:
            self.fail(s.span, "E502", f"unknown pile '{name}'" + suggestion_suffix(name, known))

    def s_move(self, s):
        self.expect(s.count, INT)
        self.pile(s, s.source)
        self.pile(s, s.dest)

    def s_take(self, s):
        self._who_count(s)
        self.pile(s, s.pile)

    s_put = s_take

    def e_pile_count(self, e):
        self.pile(e, e.pile)
        return INT

    def e_pile_top_attr(self, e):
        self.pile(e, e.pile)
        return self.e_card_attr(e)
    def s_draw_until_cond(self, s):
        self.expect(s.who, PLAYER)
        self.drawing = True
        try:
            self.expect(s.test, BOOL)
        finally:
            self.drawing = False

    def s_flip_again(self, s):
        if self.ctx.where != "on_start":
            self.fail(s.span, "E507", "'flip again' only makes sense for the start card (on_start or start.default)")

    s_return_and_flip = s_flip_again

    def s_flip_all(self, s):
        if not self.v.sides:
            self.fail(s.span, "E515", "'flip all cards' turns over a two-sided deck, but the variant's cards "
                      "have one side (declare sides: at the top level)")

    def s_if_stmt(self, s):
        broken = False
        for clause in s.clauses:
            try:
                self.expect(clause.test, BOOL)
            except _Broken:
                broken = True                   # keep going: the bodies may hold more problems
            self.suite(clause.body)
        if s.otherwise is not None:
            self.suite(s.otherwise)
        if broken:
            raise _Broken("bad condition")

    def s_for_stmt(self, s):
        self.expect(s.group, GROUP)
        self.scopes.append({})
        self.bind(s.name, s, PLAYER)
        self.block(s.body)
        self.scopes.pop()

    def s_repeat_stmt(self, s):
        self.expect(s.count, INT)
        if isinstance(s.count, A.Int) and len(s.count.digits) <= 9 and int(s.count.digits) > MAX_REPEAT:
            self.fail(s.count.span, "E506", f"repeat {int(s.count.digits)} is over the limit of {MAX_REPEAT}")
        self.suite(s.body)

    def s_challenge(self, s):
        self.expect(s.who, PLAYER)
        card = self.c.current_card
        if self.ctx.where == "on_play" and card is not None and card.restriction is None:
            self.error(s.span, "W501", f"'{card.id}' may be challenged but has no restriction to check", "warning")
        seen = set()
        for branch in s.branches:
            if branch.kind in seen:
                self.error(branch.span, "E511", f"branch '{branch.kind}' is given twice")
            seen.add(branch.kind)
            self.suite(branch.body)

    def s_choice(self, s):
        self.expect(s.who, PLAYER)
        if len(s.options) < 2:
            self.error(s.span, "E531", "a choice needs at least two options")
        seen = set()
        for option in s.options:
            if option.name in seen:
                self.error(option.span, "E530", f"option '{option.name}' is given twice")
            seen.add(option.name)
            if option.test is not None:
                try:
                    self.expect(option.test, BOOL)
                except _Broken:
                    self.failed = True          # keep going: the bodies may hold more problems
            self.suite(option.body)

    def s_call(self, s):
        procedures = self.v.procedures
        if s.name not in procedures:
            self.fail(s.span, "E535", f"unknown procedure '{s.name}'" + suggestion_suffix(s.name, procedures))
        params = procedures[s.name].params
        if len(s.args) != len(params):
            wanted = ", ".join(name for name, _ in params) or "none"
            self.fail(s.span, "E536", f"procedure '{s.name}' takes {len(params)} argument"
                      f"{'' if len(params) == 1 else 's'} ({wanted}), not {len(s.args)}")
        for arg, (_, typ) in zip(s.args, params):
            self.expect(arg, typ)
        graph = self.c.graph
        cycle = graph.cycle(self.ctx.procedure, s.name) if graph is not None and self.ctx.procedure else None
        if cycle is not None:
            self.fail(s.span, "E537", "procedures cannot call themselves, directly or through others: "
                      + " -> ".join(cycle))
        if self.c.bodies.get(s.name) is None:
            self.failed = True                  # its body is broken, and said so where it is written
            raise _Broken(s.name)
        if graph.size[s.name] > MAX_EXPANDED:
            self.fail(s.span, "E538", f"procedure '{s.name}' would inline more than {MAX_EXPANDED:,} statements "
                      "and expressions here (with the procedures it calls)")
    # --- points, and the effects of the turn's draw, the UNO penalty and the round's end

    s_score = _who_count

    def _keeps_score(self, s):
        """round.on_end runs once the round is over: nobody decides and nobody draws any more (E514)."""
        if s.rule in ROUND_OVER_REFUSES or (isinstance(s, A.Let) and isinstance(s.value, A.ChoosePlayer)):
            self.fail(s.span, "E514", "the round is over: round.on_end may keep score or move cards, "
                      "but no one decides or draws any more")
        if isinstance(s, A.Call) and (culprit := self._decides_or_draws(s.name)) is not None:
            self.fail(s.span, "E514", "the round is over: round.on_end may keep score or move cards, "
                      f"but no one decides or draws any more (procedure '{culprit}' does)")

    def _decides_or_draws(self, name: str) -> str | None:
        """The first procedure run by a call of `name` (itself, or one it calls) that decides or draws, if any."""
        procedures, syntax = self.v.procedures, self.v.syntax
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen or current not in procedures or syntax is None:
                continue
            seen.add(current)
            tree = syntax.tree(procedures[current].body)
            for node in A.walk(tree) if tree is not None else ():
                if node.rule in ROUND_OVER_REFUSES or (isinstance(node, A.Let)
                                                       and isinstance(node.value, A.ChoosePlayer)):
                    return current
                if isinstance(node, A.Call):
                    todo.append(node.name)
        return None

    def e_catcher(self, e):
        if self.ctx.where != "uno_penalty":
            self.fail(e.span, "E509", "'catcher' only means something in uno.penalty (the player who caught you)")
        return PLAYER

    # --- expressions

    def expect(self, e, typ: str) -> None:
        got = self.expr(e)
        if got != typ:
            self.fail(e.span, "E501", f"expected a {typ}, got a {got}")

    def expr(self, e) -> str:
        """Check an expression; return its type."""
        typ = getattr(self, "e_" + e.rule)(e)
        self.checked.types[id(e)] = typ
        return typ

    def _typed(typ: str):
        def check(self, e):
            return typ
        return check

    e_true = e_false = e_jumped = e_card_is = e_top_is = _typed(BOOL)
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

    e_max_hand = e_min_hand = e_group_count = _of_group

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
        if e.name in CARD_ATTRIBUTES:
            return CARD_ATTRIBUTES[e.name]
        if e.name in self.c.attributes:
            return self.c.attributes[e.name]
        self.fail(e.span, "E502", f"cards have no attribute '{e.name}'"
                  + suggestion_suffix(e.name, [*CARD_ATTRIBUTES, *self.c.attributes]))

    e_top_attr = e_card_attr

    def match_reads(self, test) -> None:
        """E516 for the first part of a match condition that reads more than the cards, the color and rulings."""
        for node in A.walk(test):
            if node.rule not in MATCH_READS:             # a name here is a color: conditions bind none
                self.error(node.span, "E516", "a match condition reads only card, top, current color, "
                           "colors, rulings and constants (a test on the player belongs in a strict restriction)")
                return

    def _drawn(self, e) -> None:
        if not self.drawing:
            self.fail(e.span, "E508", "'drawn' is the card just drawn, known only in the condition of "
                      "'P draws until ...'")

    def e_drawn_attr(self, e):
        self._drawn(e)
        return self.e_card_attr(e)

    def e_drawn_is(self, e):
        self._drawn(e)
        return BOOL

    def e_rule_ref(self, e):
        rulings = self.v.rulings
        if e.name not in rulings:
            self.fail(e.span, "E502", f"unknown ruling '{e.name}'" + suggestion_suffix(e.name, rulings))
        self.c.rulings_used.add(e.name)
        value = self.c.ruling_value(e.name)
        if rulings[e.name].type == "color":
            return COLOR
        return BOOL if isinstance(value, bool) else INT if isinstance(value, int) else STRING

    def e_half(self, e):
        self.expect(e.value, INT)
        return INT

    def e_choose_player(self, e):
        self.fail(e.span, "E504", "'choose player' can only be used as 'let NAME = choose player GROUP'")

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
        self.fail(e.span, "E502", f"unknown name '{e.name}'" + suggestion_suffix(e.name, visible + list(colors)))

    def e_comparison(self, e):
        lt, rt = self.expr(e.left), self.expr(e.right)
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

    def _needs_teams(self, e):
        if self.v.team_size < 2:
            self.fail(e.span, "E503", "this refers to teams, but the variant has no teams")

    # --- declared variables (state: / player_state:) and seats

    def variable(self, name: str) -> Variable | None:
        return self.v.state.get(name) or self.v.player_state.get(name)

    def _unknown_variable(self, span, name: str, which: str):
        names = list(self.v.player_state) if which == "per-player" else [*self.v.state, *self.v.player_state]
        self.fail(span, "E502", f"unknown {which} variable '{name}'" + suggestion_suffix(name, names)
                  + ("" if names else " (declare it under state: or player_state:)"))

    def s_set_var(self, s):
        var = self.variable(s.name)
        if var is None:
            if self.lookup(s.name) is not None:
                self.fail(s.span, "E521", f"'{s.name}' is a let or for each name, which cannot be set: "
                          "declare a variable under state: or player_state:")
            self._unknown_variable(s.span, s.name, "declared")
        self.checked.refers[id(s)] = var
        self._assign(s, var)

    def s_set_var_of(self, s):
        var = self.v.player_state.get(s.name)
        if var is None:
            if s.name in self.v.state:
                self.fail(s.span, "E521", f"'{s.name}' is global (state:): it has no value per player; "
                          f"write 'set {s.name} = ...'")
            self._unknown_variable(s.span, s.name, "per-player")
        self.expect(s.who, PLAYER)
        self.checked.refers[id(s)] = var
        self._assign(s, var)

    def _assign(self, s, var: Variable) -> None:
        """The value set must be of the variable's type, and an enum's one of its values."""
        want, got = VARIABLE_TYPES[var.type], self.expr(s.value)
        if got != want:
            self.fail(s.value.span, "E501", f"'{var.name}' holds a {want}, not a {got}")
        if var.type is VarType.ENUM:
            source = self.checked.refers.get(id(s.value))
            if isinstance(source, Variable) and source.type is VarType.ENUM and source.values == var.values:
                return
            if not isinstance(s.value, A.String):
                self.fail(s.value.span, "E522", f"'{var.name}' is set to one of its values, written as a "
                          f"quoted word ({', '.join(repr(v) for v in var.values)})")
        self.enum_word(s.value, None, var)
        if var.type is VarType.CARD_TYPE and isinstance(s.value, A.String) and s.value.value not in self.v.cards:
            self.fail(s.value.span, "E522", f"'{s.value.value}' is not a card type"
                      + suggestion_suffix(s.value.value, self.v.cards))

    def enum_word(self, word, other, var: Variable | None = None) -> None:
        """A quoted word compared with (or set to) an enum variable must be one of its values (E522)."""
        if var is None:
            var = self.checked.refers.get(id(other)) if other is not None else None
        if not isinstance(word, A.String) or not isinstance(var, Variable) or var.type is not VarType.ENUM:
            return
        if word.value not in var.values:
            self.fail(word.span, "E522", f"'{word.value}' is not a value of '{var.name}'"
                      + suggestion_suffix(word.value, var.values))

    def e_var_of(self, e):
        var = self.v.player_state.get(e.name)
        if var is None:
            if e.name in self.v.state:
                self.fail(e.span, "E521", f"'{e.name}' is global (state:): it has no value per player; "
                          f"read it as '{e.name}'")
            self._unknown_variable(e.span, e.name, "per-player")
        self.expect(e.who, PLAYER)
        self.checked.refers[id(e)] = var
        return VARIABLE_TYPES[var.type]

    def e_direction(self, e):
        return INT

    def _seat_of(self, e):
        self.expect(e.who, PLAYER)
        return PLAYER

    e_previous_of = e_left_of = e_right_of = _seat_of

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
        return self.e_card_attr(e)

    def set_reads(self, test) -> None:
        """E540 for the first part of a set condition that reads more than the cards, the set, the color and rulings."""
        for node in A.walk(test):
            if node.rule not in SET_READS:               # a name here is a color: conditions bind none
                self.error(node.span, "E540", "a set condition reads only card, top, set, current color, "
                           "colors, rulings and constants")
                return


# What a set condition (turn.sets) may be made of: a match condition's reads and the set's own, so its
# answer depends only on the cards, the color and the set; the engine can then search ahead for a
# completion without playing a card.
SET_FIELDS = ("size", "sum")
SET_CARDS = ("first", "base")
SET_READS = MATCH_READS | {"set_attr", "set_card_attr"}
