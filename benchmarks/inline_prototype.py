"""A prototype of "one body per rule" for issue 28's generator: an instruction's one body (its function in
engine/ops.py) inlined into generated source with its operands, not written a second time.

`inline(game, name, args, fields, known)` returns Python source that does what `ops.<name>(st, *args)`
does, for the operand expressions `args` (source text: a constant, a local of the generated code):

* the function's source is parsed (`inspect.getsource`) and its parameters replaced by the operands
  (an operand that is not a constant or a name is bound to a fresh local first, as a call would);
* its own locals are renamed apart (`name_<n>`), so two inlined bodies never share one;
* `st.FIELD` becomes the generated code's local where `fields` names one (the turn's `steps`,
  `direction`, `color` held in locals), or a constant where `known` gives the field's value in
  this mode (`events` is None in a game that records nothing);
* `st.g.X` and `st.g.variant.X` become constants where the Game's value is a plain number, string,
  bool or None (the rule choices are constants of a variant), and the constant parts fold away
  (`if st.g.stacking and ...` of a variant without stacking leaves nothing);
* an early `return` becomes an `else:` for the rest of the body, and a call of another instruction
  is inlined in its turn (penalty inlines draw).

A body it cannot turn into straight-line source (a `return` inside a loop, a value returned: the
pausing instructions, which are templates per decision kind instead) raises NotInlined: the generator
then calls the instruction, or hands the card over. tests/test_inline_prototype.py runs each inlined
body and the instruction itself on the same states and requires the same state after.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap

from unodsl.engine import ops

_counter = itertools.count()
PLAIN = (int, float, str, bool, type(None))


class NotInlined(Exception):
    """The instruction's body cannot be inlined as straight-line source."""


def _body(name: str) -> ast.FunctionDef:
    fn = ops.OPS[name]
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]                                   # the docstring
    tree.body = body
    tree.decorator_list = []
    return tree


class _Rewrite(ast.NodeTransformer):
    """Parameters to operands, locals renamed apart, the State's fields to locals or constants, Game constants."""

    def __init__(self, game, params: dict, renames: dict, fields: dict, known: dict):
        self.game, self.params, self.renames, self.fields, self.known = game, params, renames, fields, known

    def visit_Name(self, node):
        if node.id in self.params:
            return ast.copy_location(self.params[node.id](), node)
        if node.id in self.renames:
            return ast.copy_location(ast.Name(self.renames[node.id], node.ctx), node)
        return node

    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        chain = []
        base = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not (isinstance(base, ast.Name) and base.id == "st"):
            return node
        chain.reverse()
        if chain[0] == "g":
            value = self.game
            for attr in chain[1:]:
                value = getattr(value, attr, _MISSING)
                if value is _MISSING:
                    return node
            if len(chain) > 1 and isinstance(value, PLAIN):
                return ast.copy_location(ast.Constant(_plain(value)), node)
            return node
        if len(chain) == 1:
            if chain[0] in self.fields:
                return ast.copy_location(ast.Name(self.fields[chain[0]], node.ctx), node)
            if chain[0] in self.known and isinstance(node.ctx, ast.Load):
                return ast.copy_location(ast.Constant(self.known[chain[0]]), node)
        return node


_MISSING = object()


def _plain(value):
    """A constant as its plain type (a StrEnum's string, an IntEnum's number), as source can spell it."""
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value) if kind is not str else str.__str__(value)
    return value


class _Fold(ast.NodeTransformer):
    """Fold constant expressions, and `if` on a constant test."""

    @staticmethod
    def _const(node) -> bool:
        return isinstance(node, ast.Constant)

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        is_and = isinstance(node.op, ast.And)
        kept = []
        for value in node.values:
            if self._const(value):
                if bool(value.value) is is_and:
                    continue                              # true in an `and`, false in an `or`: no effect
                return ast.copy_location(ast.Constant(value.value), node) if not kept else \
                    ast.copy_location(ast.BoolOp(node.op, kept + [value]), node)
            kept.append(value)
        if not kept:
            return ast.copy_location(ast.Constant(is_and), node)
        if len(kept) == 1:
            return kept[0]
        node.values = kept
        return node

    def _fold(self, node):
        node = self.generic_visit(node)
        parts = [getattr(node, f) for f in ("left", "right", "operand") if hasattr(node, f)]
        parts += getattr(node, "comparators", [])
        if parts and all(self._const(p) for p in parts):
            value = eval(compile(ast.Expression(node), "<fold>", "eval"))
            if isinstance(value, PLAIN):
                return ast.copy_location(ast.Constant(_plain(value)), node)
        return node

    visit_Compare = visit_BinOp = visit_UnaryOp = _fold

    def visit_If(self, node):
        node = self.generic_visit(node)
        if self._const(node.test):
            return (node.body if node.test.value else node.orelse) or ast.Pass()
        return node

    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        if self._const(node.test):
            return node.body if node.test.value else node.orelse
        return node


def _propagate(tree):
    """A local flag assigned once, to True, False or None (`watch = False` once the Game's choice folded), read as
    that constant. Only flags: a folded enum's plain value would meet `is` comparisons it cannot pass."""
    stores = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    constants = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.targets[0].ctx, ast.Store)      # a local, not an operand written over
                and stores[node.targets[0].id] == 1 and isinstance(node.value, ast.Constant)
                and (node.value.value is None or isinstance(node.value.value, bool))):
            constants[node.targets[0].id] = node.value.value
    if not constants:
        return tree

    class Substitute(ast.NodeTransformer):
        def visit_Assign(self, node):
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in constants:
                return ast.Pass()
            return self.generic_visit(node)

        def visit_Name(self, node):
            if node.id in constants and isinstance(node.ctx, ast.Load):
                return ast.copy_location(ast.Constant(constants[node.id]), node)
            return node
    return _Fold().visit(Substitute().visit(tree))


def _straighten(stmts: list) -> list:
    """Early returns to else branches: `if c: A; return` then R becomes `if c: A else: R`."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            if stmt.value is not None and not (isinstance(stmt.value, ast.Constant) and stmt.value.value is None):
                raise NotInlined("returns a value")
            return out                                    # the rest never runs
        if isinstance(stmt, ast.If):
            body, orelse = _straighten(stmt.body), _straighten(stmt.orelse)
            body_returns = _returns(stmt.body)
            else_returns = _returns(stmt.orelse) if stmt.orelse else False
            rest = stmts[i + 1:]
            if body_returns or else_returns:
                rest = _straighten(rest)
                new = ast.If(stmt.test, (body if body_returns else body + rest) or [ast.Pass()],
                             (orelse if else_returns else orelse + rest) or [])
                out.append(new)
                return out
            out.append(ast.If(stmt.test, body or [ast.Pass()], orelse))
            continue
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.Return):
                raise NotInlined("returns from inside a loop or a with")
        out.append(stmt)
    return out


def _returns(stmts: list) -> bool:
    """Whether the statement list ends by returning on every path that reaches its end."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _returns(last.body) and _returns(last.orelse)
    return False


def _inline_nested(stmts: list, game, fields, known, depth) -> list:
    """Each statement `other_instruction(st, ...)` replaced by that instruction's body, inlined."""
    out = []
    for stmt in stmts:
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id in ops.OPS and stmt.value.args
                and isinstance(stmt.value.args[0], ast.Name) and stmt.value.args[0].id == "st"):
            args = [ast.unparse(a) for a in stmt.value.args[1:]]
            out.extend(ast.parse(inline(game, stmt.value.func.id, args, fields, known, depth + 1)).body)
            continue
        for field in ("body", "orelse"):
            if hasattr(stmt, field) and isinstance(getattr(stmt, field), list):
                setattr(stmt, field, _inline_nested(getattr(stmt, field), game, fields, known, depth))
        out.append(stmt)
    return out


def inline(game, name: str, args: list[str], fields: dict | None = None, known: dict | None = None,
           depth: int = 0) -> str:
    """The source of `ops.<name>(st, *args)` inlined (see the module's docstring); raises NotInlined."""
    if depth > 4:
        raise NotInlined("instructions nested too deep")
    fields, known = fields or {}, known or {}
    tree = _body(name)
    params = [a.arg for a in tree.args.args]
    if params[:1] != ["st"] or len(params) - 1 != len(args) or tree.args.vararg or tree.args.kwonlyargs:
        raise NotInlined(f"{name}: not a (st, *operands) instruction with {len(args)} operands")
    tag = next(_counter)
    prologue, bind = [], {}
    for param, arg in zip(params[1:], args):
        expr = ast.parse(arg, mode="eval").body
        if isinstance(expr, (ast.Constant, ast.Name)):
            bind[param] = (lambda e=expr: ast.parse(ast.unparse(e), mode="eval").body)
        else:
            local = f"{param}_{tag}"
            prologue.append(f"{local} = {arg}")
            bind[param] = (lambda n=local: ast.Name(n, ast.Load()))
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    renames = {v: f"{v}_{tag}" for v in assigned if v not in bind}
    # `g = st.g` (and `v = g.variant`): read through st so that the Game's constants fold.
    aliases = {}
    for node in list(ast.walk(tree)):
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for stmt in list(stmts):
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and ast.unparse(stmt.value) in ("st.g", "st.g.variant")):
                    aliases[stmt.targets[0].id] = ast.unparse(stmt.value)
                    stmts.remove(stmt)
    if aliases:
        source = ast.unparse(tree)
        for alias, target in aliases.items():
            renames.pop(alias, None)
            source = _replace_name(source, alias, target)
        tree = ast.parse(source).body[0]
    tree = _Rewrite(game, bind, renames, fields, known).visit(tree)
    tree = _propagate(_Fold().visit(tree))
    ast.fix_missing_locations(tree)
    body = _straighten(_flatten(tree.body))
    body = _inline_nested(body, game, fields, known, depth)
    module = ast.Module(body=body or [ast.Pass()], type_ignores=[])
    ast.fix_missing_locations(module)
    return "\n".join(prologue + [ast.unparse(module)])


def _flatten(stmts: list) -> list:
    """Statements, with a folded `if` (a list in place of one statement) spliced in."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, list):
            out.extend(_flatten(stmt))
        elif isinstance(stmt, ast.Pass):
            continue
        else:
            for field in ("body", "orelse"):
                if hasattr(stmt, field) and isinstance(getattr(stmt, field), list):
                    setattr(stmt, field, _flatten(getattr(stmt, field)) or ([] if field == "orelse" else [ast.Pass()]))
            out.append(stmt)
    return out


def _replace_name(source: str, name: str, target: str) -> str:
    tree = ast.parse(source)

    class Swap(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id == name and isinstance(node.ctx, ast.Load):
                return ast.copy_location(ast.parse(target, mode="eval").body, node)
            return node
    return ast.unparse(Swap().visit(tree))
