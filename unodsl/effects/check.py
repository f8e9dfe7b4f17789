"""The meaning of an effect: scopes, names and types (E5xx), checked on the syntax tree before it is lowered.

The checker resolves every name (to the `let` or `for each` that binds it, or to a color)
and gives every expression its type; the lowering reads both and never fails. A broken
statement is reported and skipped, so one effect reports all its independent problems.

`_Unit` holds the scopes and the declared variables; its statement rules are the mixin in
`check_statements`, its expression rules the one in `check_expressions`.
"""

from __future__ import annotations

from . import ast as A
from .ast import diagnostic_at
from .check_expressions import CollectionChecks, ExpressionChecks, FunctionChecks, UnderChecks
from .check_statements import StatementChecks
from .procedures import CallGraph
from .types import (_ATTR_TYPES, BOOL, CARDS_READ_WHERE_WRITTEN, CHANCE, INT, MAX_REPEAT, PLAYER, VARIABLE_TYPES, Checked, Context, Param,
                    _Broken)
from ..diagnostics import Diagnostic, suggestion_suffix
from ..model.cards import attr_kind
from ..model.variables import Variable, VarType

# The check's public names; the types and the Context live in types.py, shared with the lowering.
__all__ = ["Checker", "Checked", "Context", "MAX_REPEAT"]


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
        # The most members a collection can hold: every card of the deck, every player at the table.
        self.deck_size = len(getattr(game, "deck", ())) or 10_000
        self.max_players = getattr(self.variant, "max_players", 100) or 100
        self.graph: CallGraph | None = None       # the procedures' call graph, once `procedures` has run
        self.bodies: dict[str, tuple | None] = {}  # procedure name -> (statements, Checked), None if broken
        self.fn_graph: CallGraph | None = None    # the functions' call graph, once `functions` has run
        self.fn_bodies: dict[str, tuple | None] = {}   # function name -> (expr, Checked, type, scan), None if broken

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

    def functions(self) -> dict[str, tuple]:
        """Check every function's value once, with its parameters' types, callees first (E547-E550 for
        calls); name -> (expression, Checked, type, scan) of those whose value checks, for the lowering
        to inline at each call. Run before the procedures and effects, which may call them."""
        functions = self.variant.functions
        syntax = self.variant.syntax
        trees = {name: syntax.tree(fn.value) if syntax is not None else None for name, fn in functions.items()}
        self.fn_graph = CallGraph(trees, A.FnCall)
        for name in self.fn_graph.order + self.fn_graph.unordered():
            fn, tree = functions[name], trees[name]
            if tree is None:
                self.fn_bodies[name] = None                  # unparsed or missing: said where it is written
                continue
            unit = _Unit(self, tree.text, Context("function", procedure=name))
            params = tuple(Param(name, param, typ) for param, typ in fn.params)
            for param in params:
                unit.bind(param.name, param, param.type)
            unit.checked.params = params
            try:
                typ = unit.expr(tree.test)
            except _Broken:
                typ = None
            for node in A.walk(tree.test):
                if isinstance(node, CHANCE):
                    unit.error(node.span, "E533", "a function cannot draw at random (it may be read any number "
                               "of times, in conditions too); draw in an effect and pass the value")
                    break
                if isinstance(node, (A.ChoosePlayer, A.ChooseColorValue, A.ChooseNumber)):
                    unit.error(node.span, "E505", "a function cannot choose or bind players, colors or numbers")
                    break
            ok = typ is not None and not unit.failed
            self.fn_bodies[name] = (tree.test, unit.checked, typ, unit.deepest) if ok else None
        return {name: body for name, body in self.fn_bodies.items() if body is not None}

    def condition(self, tree: A.Condition, ctx: Context) -> Checked | None:
        """Check a condition; its facts, or None when it has an error."""
        unit = _Unit(self, tree.text, ctx)
        try:
            unit.expect(tree.test, BOOL)
        except _Broken:
            return None
        if any(isinstance(node, (A.ChoosePlayer, A.ChooseColorValue, A.ChooseNumber)) for node in A.walk(tree.test)):
            # The expression check refuses `choose player` and `choose color` outside `let` (E504): this guards it.
            unit.error(tree.test.span, "E505", "a condition cannot choose or bind players or colors")
        if ctx.where == "match":
            unit.match_reads(tree.test)
        if ctx.where == "set":
            unit.set_reads(tree.test)
        if ctx.where == "pile":
            unit.pile_reads(tree.test)
        chance = next((node for node in A.walk(tree.test) if isinstance(node, CHANCE)), None)
        if chance is not None:
            # A condition may be asked any number of times (each listing of legal actions asks the
            # may-draw rule): a draw at random there would make the game depend on who asked.
            unit.error(chance.span, "E533", "a condition cannot draw at random (it may be asked any number "
                       "of times); draw in an effect")
        return None if unit.failed else unit.checked


class _Unit(StatementChecks, ExpressionChecks, CollectionChecks, FunctionChecks, UnderChecks):
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
        self.members: list[tuple[str, A.Node, int]] = []   # the filters and aggregates around: (type, node, scan)
        self.deepest = 1              # the most members one evaluation reads, nested reads multiplied

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
        self._assign(s, self._per_player(s, f"write 'set {s.name} = ...'"))

    def _per_player(self, node, how: str) -> Variable:
        """The per-player variable `NAME of P` (read or set) names, P checked as a player; E521 says `how`
        to write a global one instead."""
        var = self.v.player_state.get(node.name)
        if var is None:
            if node.name == "cards":            # `cards of P` outside the places a collection is read
                self.fail(node.span, "E545", CARDS_READ_WHERE_WRITTEN)
            if node.name in self.v.state:
                self.fail(node.span, "E521", f"'{node.name}' is global (state:): it has no value per player; {how}")
            self._unknown_variable(node.span, node.name, "per-player")
        self.expect(node.who, PLAYER)
        self.checked.refers[id(node)] = var
        return var

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
        return VARIABLE_TYPES[self._per_player(e, f"read it as '{e.name}'").type]

    def e_direction(self, e):
        return INT

    def _seat_of(self, e):
        self.expect(e.who, PLAYER)
        return PLAYER

    e_previous_of = e_left_of = e_right_of = _seat_of
