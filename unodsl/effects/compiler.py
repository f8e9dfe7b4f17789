"""The effect language: parse with Lark, check types and names, compile to op lists.

An effect compiles to a flat list of ops; an op is a closure `op(state, frame) -> pc`
returning the next pc, or PAUSE after it has set up a decision. Expressions compile
to closures `fn(state, frame) -> value`. Nothing is parsed or looked up by name
while a game runs.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from . import layout as D
from .layout import F_CARD, F_JUMPED, F_LOCALS, F_PC, F_SELF
from ..diagnostics import Diagnostic, suggestion_suffix
from .lexer import ContextLexer
from ..model.variant import Text

MAX_REPEAT = 1000
MAX_NUMBER = 1_000_000
MAX_NESTING = 40            # statements and expressions nested deeper than this are refused (E513)
MAX_EFFECT_LENGTH = 10_000  # characters in one effect or condition (E404): Lark takes ~25 us a token
MAX_EFFECTS_LENGTH = 100_000    # characters of all a variant's effects and conditions together (E405)

# ---------------------------------------------------------------------------
# Parsing


class _EffectIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_path() -> Path:
    """Return the effect grammar, packaged beside this module."""
    return Path(__file__).resolve().parent / "effect.lark"


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """Build the LALR parser once per process (Lark caches its tables on disk).

    ContextLexer lexes as Lark's contextual lexer does, with one regex instead of one per state.
    """
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer=ContextLexer,
                postlex=_EffectIndenter(), start=["effect", "condition"], propagate_positions=True,
                maybe_placeholders=False, cache=True)


# Friendly names for terminals in "expected ..." messages.
_TOKEN_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of text",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string", "COLON": "':'", "SEMICOLON": "';'",
    "LPAR": "'('", "RPAR": "')'", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*' or '//'",
    "EQUAL": "'='", "DOT": "'.'", "KIND": "number, action or wild", "MINUS": "'-'",
}


def _describe_expected(expected) -> str:
    names = []
    for term in sorted(expected):
        if term in _TOKEN_NAMES:
            names.append(_TOKEN_NAMES[term])
        elif term.isupper() or term.startswith("_"):
            try:
                pattern = parser().get_terminal(term).pattern.value
                names.append(f"'{pattern}'" if isinstance(pattern, str) else term.lower())
            except KeyError:
                names.append(term.lower())
        else:
            names.append(term)
    names = sorted(set(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def _token_text(token) -> str:
    if token.type == "$END":
        return "end of text"
    if token.type == "_NL":
        return "end of line"
    if token.type in ("_INDENT", "_DEDENT"):
        return "indentation"
    return f"'{token.value}'"


def parse(text: Text, start: str = "effect") -> tuple[Tree | None, list[Diagnostic]]:
    """Parse an effect (or, with start='condition', a condition) into a Lark tree."""
    if len(text.source) > MAX_EFFECT_LENGTH:
        # Refused before Lark sees it: a 1 MB effect would take it ~20 s and, if deeply nested, ~700 MB.
        what = "condition" if start == "condition" else "effect"
        return None, [_diag_at(text, 1, 1, "E404", f"{what} is {len(text.source):,} characters long, "
                                                   f"over the limit of {MAX_EFFECT_LENGTH:,}")]
    original = text.source if text.source.endswith("\n") else text.source + "\n"
    # A condition is one expression: line breaks inside it are plain spaces. Positions are
    # mapped back through `_unflatten` so diagnostics still point into the original lines.
    source = original.rstrip("\n").replace("\n", " ") + "\n" if start == "condition" else original
    try:
        return parser().parse(source, start=start), []
    except UnexpectedInput as err:
        line, column = getattr(err, "line", 1) or 1, getattr(err, "column", 1) or 1
        if isinstance(err, UnexpectedCharacters):
            char = source[err.pos_in_stream]
            message = f"E402 unexpected character {char!r}"
        elif isinstance(err, UnexpectedToken):
            if err.token.type == "$END" or line < 1:
                line, column = _end_position(source)
            message = (f"E401 unexpected {_token_text(err.token)}; expected {_describe_expected(err.expected)}"
                       + _misspelling_hint(err, source))
        elif isinstance(err, UnexpectedEOF):
            line, column = _end_position(source)
            message = f"E401 unexpected end of text; expected {_describe_expected(err.expected)}"
        else:
            message = "E401 syntax error"
        code, msg = message.split(" ", 1)
        if start == "condition":
            line, column = _unflatten(original, column)
        return None, [_diag_at(text, line, column, code, msg)]
    except Exception:                           # indentation errors from the postlexer
        line = _bad_dedent_line(source)
        return None, [_diag_at(text, line, 1, "E403",
                               "this line's indentation matches no enclosing block")]


def _bad_dedent_line(source: str) -> int:
    """The line whose dedent returns to no enclosing indentation level (what the indenter refused)."""
    levels = [0]
    for number, line in enumerate(source.split("\n"), start=1):
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line[:len(line) - len(stripped)].expandtabs(4))
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            return number
    return 1


def _unflatten(original: str, column: int) -> tuple[int, int]:
    """Map a column of the flattened one-line condition back to (line, column)."""
    offset = column - 1
    for number, line in enumerate(original.split("\n"), start=1):
        if offset <= len(line):
            return number, offset + 1
        offset -= len(line) + 1
    return _end_position(original)


_STATEMENT_WORDS = ("skip", "reverse", "choose", "set", "let", "swap", "rotate", "look", "trade", "gather",
                    "extra", "turn", "eliminate", "lock", "flip", "return", "nothing", "if", "for", "repeat")


def _misspelling_hint(err: UnexpectedToken, source: str) -> str:
    """Suggest the keyword a misspelt word was probably meant to be."""
    value = str(err.token.value)
    if value.isidentifier():
        words = []
        for term in err.expected:
            try:
                pattern = parser().get_terminal(term).pattern
            except KeyError:
                continue
            if pattern.type == "str" and pattern.value.isalpha():
                words.append(pattern.value)
        hint = suggestion_suffix(value, words)
        if hint:
            return hint
    # "skp next": the misspelt verb parsed as a name, so the error lands on the word after it.
    line_text = source.split("\n")[err.line - 1] if err.line >= 1 else ""
    first = line_text.split()[0] if line_text.split() else ""
    before = line_text[:max(0, err.column - 1)].split()
    if len(before) == 1 and first.isidentifier() and first not in _STATEMENT_WORDS:
        return suggestion_suffix(first, _STATEMENT_WORDS)
    return ""


def _end_position(source: str) -> tuple[int, int]:
    lines = source.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def _diag_at(text: Text, line: int, column: int, code: str, message: str, severity: str = "error") -> Diagnostic:
    node = text.node
    if node is None:
        return Diagnostic("<builtin>", line, column, code, message, severity)
    try:
        fline, fcol = node.locate(line, column)
    except Exception:                           # a position we cannot map: point at the value
        fline, fcol = node.line, node.column
    return Diagnostic(node.path, fline, fcol, code, message, severity)


# ---------------------------------------------------------------------------
# Types of expressions

INT, BOOL, PLAYER, GROUP, COLOR, STRING = "number", "condition", "player", "group", "color", "string"
SEATS = "seats"             # not an expression type: the list of seats a `for each` walks


class CompileError(Exception):
    """Raised inside the compiler to abandon one statement after a diagnostic."""


@dataclass
class Context:
    """What a piece of effect code may refer to, and where it lives."""

    where: str            # on_play | on_start | event | setup | condition
    start_only: bool = False


class EffectCompiler:
    """Compiles the effects and conditions of one variant against a game's tables."""

    def __init__(self, game, ops: dict):
        self.game = game
        self.ops = ops                            # the engine's instruction set: name -> function(state, *args)
        self.variant = game.variant
        self.diags: list[Diagnostic] = []
        self.rulings_used: set[str] = set()
        self.current_card = None                  # the CardType whose effects are being compiled
        # Fused forms (hand sizes read in place, `hand(x) OP c` from a table): the Game's fast mode only.
        self.fused = getattr(game, "fast", True)
        self.length = 0                             # characters of effect text given so far (E405)

    def _within_budget(self, text: Text) -> bool:
        """Count `text` against the variant's budget of effect text; past it, say so once and parse no more.

        One effect is held to MAX_EFFECT_LENGTH; many of them together could still take
        `check` a long time (99 effects of 9,900 characters: 8 s), so all of them are held
        to MAX_EFFECTS_LENGTH.
        """
        if len(text.source) > MAX_EFFECT_LENGTH:
            return True                             # parse refuses it alone, unparsed (E404)
        before = self.length
        self.length += len(text.source)
        if self.length <= MAX_EFFECTS_LENGTH:
            return True
        if before <= MAX_EFFECTS_LENGTH:
            self.diags.append(_diag_at(text, 1, 1, "E405", f"the variant's effects and conditions add up to more "
                                       f"than {MAX_EFFECTS_LENGTH:,} characters; this one and those after it "
                                       f"are not checked"))
        return False

    # --- entry points

    def compile_effect(self, text: Text | None, ctx: Context) -> int:
        """Compile an effect and register it in the game; return its code id or -1."""
        if text is None or not text.source.strip():
            return -1
        if not self._within_budget(text):
            return -1
        tree, diags = parse(text, "effect")
        self.diags.extend(diags)
        if tree is None:
            return -1
        unit = _Unit(self, text, ctx)
        deep = _too_deep(tree)
        if deep is not None:
            unit.error(deep, "E513", f"effect nested more than {MAX_NESTING} levels deep")
            return -1
        ops = unit.block(tree.children)
        if unit.failed:
            return -1
        code_id = len(self.game.codes)
        self.game.codes.append((tuple(ops), unit.nlocals))
        self.game.code_locals.append(tuple(unit.slot_kinds))
        return code_id

    def compile_condition(self, text: Text | None, ctx: Context):
        """Compile a condition to a closure, or None if absent or broken."""
        if text is None:
            return None
        if not self._within_budget(text):
            return None
        tree, diags = parse(text, "condition")
        self.diags.extend(diags)
        if tree is None:
            return None
        unit = _Unit(self, text, ctx, flattened=True)
        deep = _too_deep(tree)
        if deep is not None:
            unit.error(deep, "E513", f"condition nested more than {MAX_NESTING} levels deep")
            return None
        try:
            fn = unit.expect(tree.children[0], BOOL)
        except CompileError:
            return None
        if unit.nlocals:
            unit.error(tree.children[0], "E505", "a condition cannot choose or bind players")
            return None
        return fn


class _Unit:
    """Compilation of one effect text: variable slots, labels, diagnostics."""

    def __init__(self, compiler: EffectCompiler, text: Text, ctx: Context, flattened: bool = False):
        self.flattened = flattened              # a condition is parsed as one line; map columns back
        self.c = compiler
        self.g = compiler.game
        self.text = text
        self.ctx = ctx
        self.scopes: list[dict[str, tuple[int, str]]] = [{}]
        self.nlocals = 0
        self.slot_kinds: list[str] = []         # what each local holds: Game.code_locals (checked on load)
        self.failed = False

    # --- diagnostics

    def call(self, name: str, *args):
        """An op that runs the engine's instruction `name` on the values of args."""
        return _call(name, self.c.ops[name], *args)

    def error(self, tree, code: str, message: str, severity: str = "error") -> None:
        meta = getattr(tree, "meta", None)
        if isinstance(tree, Token):
            line, column = tree.line, tree.column
        elif meta is not None and not meta.empty:
            line, column = meta.line, meta.column
        else:
            line, column = 1, 1
        if self.flattened:
            original = self.text.source if self.text.source.endswith("\n") else self.text.source + "\n"
            line, column = _unflatten(original, column)
        self.c.diags.append(_diag_at(self.text, line, column, code, message, severity))
        if severity == "error":
            self.failed = True

    def fail(self, tree, code: str, message: str):
        self.error(tree, code, message)
        raise CompileError(message)

    # --- variables

    def new_slot(self, kind: str) -> int:
        """A new local slot holding values of `kind` (an expression type, or SEATS: a `for`'s list)."""
        slot = F_LOCALS + self.nlocals
        self.nlocals += 1
        self.slot_kinds.append(kind)
        return slot

    def bind(self, name: str, typ: str) -> int:
        slot = self.new_slot(typ)
        self.scopes[-1][name] = (slot, typ)
        return slot

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def visible_names(self) -> list[str]:
        return [n for scope in self.scopes for n in scope]

    # --- statements

    def block(self, items) -> list:
        """Compile a sequence of statements; returns ops with pcs relative to 0."""
        ops: list = []
        for item in items:
            if isinstance(item, Token):
                continue
            try:
                self.statement(item, ops)
            except CompileError:
                continue
        return ops

    def suite(self, tree, ops: list) -> None:
        """Append a nested suite to `ops` (ops are position independent)."""
        self.scopes.append({})
        ops.extend(self.block(tree.children if tree.data == "suite" else [tree]))
        self.scopes.pop()

    def statement(self, t: Tree, ops: list) -> None:
        kind = t.data
        method = getattr(self, "s_" + kind, None)
        if method is None:
            self.fail(t, "E510", f"'{kind}' is not a statement")
        method(t, ops)

    def s_simple_stmts(self, t, ops):
        for child in t.children:
            try:
                self.statement(child, ops)
            except CompileError:
                continue

    def s_nothing(self, t, ops):
        pass

    def s_draw(self, t, ops):
        who, n = self.expect(t.children[0], PLAYER), self.expect(t.children[1], INT)
        ops.append(self.call("draw", who, n))

    def s_draw_until(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("draw_until_playable", who))

    def s_draw_to(self, t, ops):
        who, n = self.expect(t.children[0], PLAYER), self.expect(t.children[1], INT)
        ops.append(self.call("draw_to", who, n))

    def s_penalty(self, t, ops):
        who, n = self.expect(t.children[0], PLAYER), self.expect(t.children[1], INT)
        ops.append(self.call("penalty", who, n))

    def s_skip_one(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("skip", who))

    def s_skip_many(self, t, ops):
        arg = t.children[0]
        if isinstance(arg, Token):
            value = self._int_literal(arg)
            n = _const(value)
        else:
            n = self.expect(arg, INT)
        ops.append(self.call("skip_next", _SELF, n))

    def s_reverse(self, t, ops):
        ops.append(self.call("reverse"))

    def s_choose_color_self(self, t, ops):
        self._choose_color(_SELF, ops)

    def s_choose_color_by(self, t, ops):
        self._choose_color(self.expect(t.children[0], PLAYER), ops)

    def _choose_color(self, who, ops):
        if not self.g.variant.colors:
            return                                   # every card is wild and colors do not exist
        choose = self.c.ops["choose_color"]
        ops.append(_decision(lambda st, fr: choose(st, who(st, fr))))

    def s_set_color(self, t, ops):
        color = self.expect(t.children[0], COLOR)
        ops.append(self.call("set_color", color))

    def s_let(self, t, ops):
        name_tok, value = t.children
        name = str(name_tok)
        if isinstance(value, Tree) and value.data == "choose_player":
            group = self.expect(value.children[0], GROUP)
            slot = self.bind(name, PLAYER)
            choose = self.c.ops["choose_player"]
            ops.append(_decision(lambda st, fr: choose(st, fr, slot, group(st, fr))))
            return
        fn, typ = self.expr(value)
        slot = self.bind(name, typ)

        def assign(st, fr, pc):
            fr[slot] = fn(st, fr)
            return pc + 1
        assign.calls = ""
        ops.append(assign)

    def s_swap_hands(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("swap_hands", _SELF, who))

    def s_rotate_hands(self, t, ops):
        ops.append(self.call("rotate_hands"))

    def s_give(self, t, ops):
        giver, n, taker = (self.expect(t.children[0], PLAYER), self.expect(t.children[1], INT),
                           self.expect(t.children[2], PLAYER))
        give = self.c.ops["give"]
        ops.append(_decision(lambda st, fr: give(st, giver(st, fr), n(st, fr), taker(st, fr))))

    def s_exchange(self, t, ops):
        a, n, b = (self.expect(t.children[0], PLAYER), self.expect(t.children[1], INT),
                   self.expect(t.children[2], PLAYER))
        # Both seats and the count are read once, before anyone picks: a pick that empties a hand
        # must not change who `next` is for the rest of the exchange.
        sa, sn, sb = self.new_slot(PLAYER), self.new_slot(INT), self.new_slot(PLAYER)

        def read(st, fr, pc):
            fr[sa], fr[sn], fr[sb] = a(st, fr), n(st, fr), b(st, fr)
            return pc + 1
        read.calls = ""
        # Both pick blind into their own limbo, then the cards cross: a simultaneous exchange.
        ops.append(read)
        pick = self.c.ops["exchange_pick"]
        ops.append(_decision(lambda st, fr: pick(st, fr[sa], fr[sb], fr[sn], 0)))
        ops.append(_decision(lambda st, fr: pick(st, fr[sb], fr[sa], fr[sn], 1)))
        ops.append(self.call("exchange_finish", _slot(sa), _slot(sb)))

    def s_look(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("look", _SELF, who))

    def s_trade(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        trade = self.c.ops["trade"]
        ops.append(_decision(lambda st, fr: trade(st, fr[F_SELF], who(st, fr))))

    def s_discard_color(self, t, ops):
        who, color = self.expect(t.children[0], PLAYER), self.expect(t.children[1], COLOR)
        ops.append(self.call("discard_color", who, color))

    def s_redeal(self, t, ops):
        ops.append(self.call("redeal", _SELF))

    def s_extra_turn(self, t, ops):
        ops.append(self.call("turn_to", _SELF))

    def s_turn_to(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("turn_to", who))

    def s_eliminate(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        ops.append(self.call("eliminate", who))

    def s_lock(self, t, ops):
        color, owner = self.expect(t.children[0], COLOR), self.expect(t.children[1], PLAYER)
        ops.append(self.call("lock", color, owner))

    def s_must_play(self, t, ops):
        self._must_play(t, ops, None)

    def s_must_play_block(self, t, ops):
        self._must_play(t, ops, t.children[2])

    def _must_play(self, t, ops, else_suite):
        who, color = self.expect(t.children[0], PLAYER), self.expect(t.children[1], COLOR)
        body: list = []
        if else_suite is not None:
            self.suite(else_suite, body)
        size = len(body)
        must_play = self.c.ops["must_play"]

        def op(st, fr, pc):
            # Resume after the else block once the forced play is done; run it if it cannot be.
            fr[F_PC] = pc + 1 + size
            return must_play(st, who(st, fr), color(st, fr), pc + 1, pc + 1 + size)
        ops.append(op)
        ops.extend(body)

    def s_flip_again(self, t, ops):
        self._start_only(t)
        flip = self.c.ops["flip_again"]
        ops.append(lambda st, fr, pc: flip(st, fr, False))

    def s_return_and_flip(self, t, ops):
        self._start_only(t)
        flip = self.c.ops["flip_again"]
        ops.append(lambda st, fr, pc: flip(st, fr, True))

    def _start_only(self, t):
        if self.ctx.where != "on_start":
            self.fail(t, "E507", "'flip again' only makes sense for the start card (on_start or start.default)")

    def s_if_stmt(self, t, ops):
        clauses, otherwise = if_clauses(t)
        compiled = []
        broken = False
        for cond_tree, suite in clauses:
            try:
                cond = self.expect(cond_tree, BOOL)
            except CompileError:
                broken, cond = True, None       # keep going: the bodies may hold more problems
            body: list = []
            self.suite(suite, body)
            compiled.append((cond, body))
        else_body: list = []
        if otherwise is not None:
            self.suite(otherwise, else_body)
        if broken:
            raise CompileError("bad condition")
        # Layout per clause: [test, body..., jump to end]; then the else body.
        size = sum(2 + len(body) for _, body in compiled) + len(else_body)
        at = 0
        for cond, body in compiled:
            ops.append(_branch(cond, 1, 2 + len(body)))
            ops.extend(body)
            at += 1 + len(body)
            ops.append(_jump(size - at))
            at += 1
        ops.extend(else_body)

    def s_for_stmt(self, t, ops):
        name, group_tree, suite = str(t.children[0]), t.children[1], t.children[2]
        group = self.expect(group_tree, GROUP)
        list_slot, idx_slot = self.new_slot(SEATS), self.new_slot(INT)
        self.scopes.append({})
        var_slot = self.bind(name, PLAYER)
        body = self.block(suite.children if suite.data == "suite" else [suite])
        self.scopes.pop()
        size = len(body)

        def init(st, fr, pc):
            fr[list_slot] = list(group(st, fr))
            fr[idx_slot] = 0
            return pc + 1

        def step(st, fr, pc):
            i = fr[idx_slot]
            if i >= len(fr[list_slot]):
                return pc + size + 2
            fr[var_slot] = fr[list_slot][i]
            fr[idx_slot] = i + 1
            return pc + 1
        ops.extend((init, step))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))

    def s_repeat_stmt(self, t, ops):
        count = self.expect(t.children[0], INT)
        const = _constant(t.children[0])
        if const is not None and const > MAX_REPEAT:
            self.fail(t.children[0], "E506", f"repeat {const} is over the limit of {MAX_REPEAT}")
        counter = self.new_slot(INT)
        body: list = []
        self.suite(t.children[1], body)
        size = len(body)

        def init(st, fr, pc):
            fr[counter] = max(0, min(MAX_REPEAT, count(st, fr)))
            return pc + 1

        def step(st, fr, pc):
            if fr[counter] <= 0:
                return pc + size + 2
            fr[counter] -= 1
            return pc + 1
        ops.extend((init, step))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))

    def s_challenge(self, t, ops):
        who = self.expect(t.children[0], PLAYER)
        card = self.c.current_card
        if self.ctx.where == "on_play" and card is not None and card.restriction is None:
            self.error(t, "W501", f"'{card.id}' may be challenged but has no restriction to check", "warning")
        branches: dict[str, list] = {}
        for branch in t.children[1:]:
            if branch.data in branches:
                self.error(branch, "E511", f"branch '{branch.data}' is given twice")
            body: list = []
            self.suite(branch.children[0], body)
            branches[branch.data] = body
        # Layout: [challenge, guilty..., jump end, innocent..., jump end, accepted..., jump end]
        offsets = []
        at = 1
        order = ("guilty", "innocent", "accepted")
        for name in order:
            offsets.append(at)
            at += len(branches.get(name, [])) + 1
        end = at
        targets = tuple(offsets)
        challenge = self.c.ops["challenge"]

        def op(st, fr, pc):
            return challenge(st, fr, who(st, fr), pc, targets)
        ops.append(op)
        at = 1
        for name in order:
            body = branches.get(name, [])
            ops.extend(body)
            at += len(body)
            ops.append(_jump(end - at))
            at += 1

    # --- expressions

    def expect(self, t, typ: str):
        fn, got = self.expr(t)
        if got != typ:
            self.fail(t, "E501", f"expected a {typ}, got a {got}")
        return fn

    def expr(self, t):
        if isinstance(t, Token):
            self.fail(t, "E510", f"unexpected '{t}'")
        method = getattr(self, "e_" + t.data, None)
        if method is None:
            self.fail(t, "E510", f"'{t.data}' cannot be used here")
        return method(t)

    def e_int_(self, t):
        value = self._int_literal(t.children[0])
        return _const(value), INT

    def _int_literal(self, token) -> int:
        text = str(token)
        if len(text) > 9:                             # also keeps int() away from huge literals
            self.fail(token, "E512", f"number {text[:12]}{'...' if len(text) > 12 else ''} is too large "
                      f"(at most {MAX_NUMBER})")
        value = int(text)
        if value > MAX_NUMBER:
            self.fail(token, "E512", f"number {value} is too large (at most {MAX_NUMBER})")
        return value

    def e_true(self, t):
        return _const(True), BOOL

    def e_false(self, t):
        return _const(False), BOOL

    def e_string(self, t):
        value = str(t.children[0])[1:-1]
        return _const(value), STRING

    def e_current_color(self, t):
        return (lambda st, fr: st.color), COLOR

    def e_player_count(self, t):
        return (lambda st, fr: st.active_count()), INT

    def e_stack_size(self, t):
        return (lambda st, fr: st.stack), INT

    def e_jumped(self, t):
        return (lambda st, fr: bool(fr[F_JUMPED])), BOOL

    def e_card_attr(self, t):
        attr = str(t.children[0])
        g = self.g
        tables = {
            "number": (g.k_number, INT), "points": (g.k_points, INT), "draw": (g.k_draw, INT),
            "color": (g.k_color, COLOR),
        }
        if attr in tables:
            table, typ = tables[attr]
            return (lambda st, fr: table[fr[F_CARD]] if fr[F_CARD] >= 0 else -1), typ
        if attr in ("type", "kind"):
            table = g.k_type_id if attr == "type" else g.k_category
            return (lambda st, fr: table[fr[F_CARD]] if fr[F_CARD] >= 0 else ""), STRING
        self.fail(t, "E502", f"cards have no attribute '{attr}'"
                  + suggestion_suffix(attr, list(tables) + ["type", "kind"]))

    def e_rule_ref(self, t):
        name = str(t.children[0])
        rulings = self.g.variant.rulings
        if name not in rulings:
            self.fail(t, "E502", f"unknown ruling '{name}'" + suggestion_suffix(name, rulings))
        self.c.rulings_used.add(name)
        value = self.g.ruling_value(name)
        if isinstance(value, bool):
            return _const(value), BOOL
        if isinstance(value, int):
            return _const(value), INT
        return _const(str(value)), STRING

    def e_hand_size(self, t):
        who = self.expect(t.children[0], PLAYER)
        if not self.c.fused:

            def size(st, fr):
                p = who(st, fr)
                return len(st.hands[p]) if p >= 0 else 0
            return size, INT
        if hasattr(who, "slot"):                      # hand(self), hand(a local): read the seat in place
            index = who.slot

            def size(st, fr):
                p = fr[index]
                return len(st.hands[p]) if p >= 0 else 0
        elif who is _NEXT:                            # hand(next): one call, not two

            def size(st, fr):
                p = st.next_of(fr[F_SELF])
                return len(st.hands[p]) if p >= 0 else 0
        else:

            def size(st, fr):
                p = who(st, fr)
                return len(st.hands[p]) if p >= 0 else 0
        size.hand_of = who                            # for _compare: `hand(x) == 1` in one call
        return size, INT

    def e_hand_points(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.hand_points(who(st, fr))), INT

    def e_half(self, t):
        n = self.expect(t.children[0], INT)
        return (lambda st, fr: n(st, fr) // 2), INT

    def e_max_hand(self, t):
        group = self.expect(t.children[0], GROUP)
        return (lambda st, fr: max((st.hand_size(p) for p in group(st, fr)), default=0)), INT

    def e_min_hand(self, t):
        group = self.expect(t.children[0], GROUP)
        return (lambda st, fr: min((st.hand_size(p) for p in group(st, fr)), default=0)), INT

    def e_group_count(self, t):
        group = self.expect(t.children[0], GROUP)
        return (lambda st, fr: len(group(st, fr))), INT

    def e_choose_player(self, t):
        self.fail(t, "E504", "'choose player' can only be used as 'let NAME = choose player GROUP'")

    def e_var(self, t):
        name = str(t.children[0])
        found = self.lookup(name)
        if found is not None:
            slot, typ = found
            return _slot(slot), typ
        colors = self.g.variant.colors
        if name in colors:
            index = colors.index(name)
            return _const(index), COLOR
        self.fail(t, "E502", f"unknown name '{name}'"
                  + suggestion_suffix(name, self.visible_names() + list(colors)))

    def e_comparison(self, t):
        left, op_tok, right = t.children
        lf, lt = self.expr(left)
        rf, rt = self.expr(right)
        op = str(op_tok)
        if lt != rt:
            self.fail(t, "E501", f"cannot compare a {lt} with a {rt}")
        if op not in ("==", "!=") and lt != INT:
            self.fail(op_tok, "E501", f"'{op}' compares numbers, not {lt}s")
        return _compare(op, lf, rf, len(self.g.deck), self.c.fused), BOOL

    def e_binop(self, t):
        left, op_tok, right = t.children
        lf, rf = self.expect(left, INT), self.expect(right, INT)
        op = str(op_tok)
        if _is_const(lf) and _is_const(rf) and op != "//":
            return _const(_BINARY[op](lf.const, rf.const)), INT
        if op == "+":
            return (lambda st, fr: lf(st, fr) + rf(st, fr)), INT
        if op == "-":
            return (lambda st, fr: lf(st, fr) - rf(st, fr)), INT
        if op == "*":
            return (lambda st, fr: _clamp(lf(st, fr) * rf(st, fr))), INT

        def floordiv(st, fr):
            d = rf(st, fr)
            return lf(st, fr) // d if d else 0
        return floordiv, INT

    def e_neg(self, t):
        f = self.expect(t.children[0], INT)
        return (lambda st, fr: -f(st, fr)), INT

    def e_not_(self, t):
        f = self.expect(t.children[0], BOOL)
        if _is_const(f):
            return _const(not f.const), BOOL
        return (lambda st, fr: not f(st, fr)), BOOL

    def e_and_expr(self, t):
        return _logic([self.expect(c, BOOL) for c in t.children], True), BOOL

    def e_or_expr(self, t):
        return _logic([self.expect(c, BOOL) for c in t.children], False), BOOL

    def e_holds(self, t):
        who = self.expect(t.children[0], PLAYER)
        what = t.children[1]
        g = self.g
        if what.data == "hold_color":
            color = self.expect(what.children[0], COLOR)
            k_color = g.k_color
            return (lambda st, fr: any(k_color[k] == color(st, fr) for k in st.hand_of(who(st, fr)))), BOOL
        if what.data == "hold_type":
            name = str(what.children[0])
            if name not in g.variant.cards:
                self.fail(what, "E301", f"unknown card type '{name}'" + suggestion_suffix(name, g.variant.cards))
            type_index = g.type_ids.index(name)
            k_type = g.k_type
            return (lambda st, fr: any(k_type[k] == type_index for k in st.hand_of(who(st, fr)))), BOOL
        if what.data == "hold_wild":
            k_wild = g.k_wild
            return (lambda st, fr: any(k_wild[k] for k in st.hand_of(who(st, fr)))), BOOL
        if what.data == "hold_number":
            number = self.expect(what.children[0], INT)
            k_number = g.k_number
            return (lambda st, fr: any(k_number[k] == number(st, fr) for k in st.hand_of(who(st, fr)))), BOOL
        return (lambda st, fr: st.holds_playable(who(st, fr))), BOOL

    def e_is_out(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.is_out(who(st, fr))), BOOL

    def e_is_partner(self, t):
        self._needs_teams(t)
        a, b = self.expect(t.children[0], PLAYER), self.expect(t.children[1], PLAYER)
        return (lambda st, fr: st.same_team(a(st, fr), b(st, fr)) and a(st, fr) != b(st, fr)), BOOL

    def e_card_is(self, t):
        kind = str(t.children[0])
        table = self.g.k_category
        return (lambda st, fr: fr[F_CARD] >= 0 and table[fr[F_CARD]] == kind), BOOL

    # players

    def e_self_(self, t):
        return _SELF, PLAYER

    def e_next_(self, t):
        return _NEXT, PLAYER

    def e_previous(self, t):
        return (lambda st, fr: st.previous_of(fr[F_SELF])), PLAYER

    def e_dealer(self, t):
        return (lambda st, fr: st.dealer), PLAYER

    def e_partner_self(self, t):
        self._needs_teams(t)
        if self.g.variant.team_size != 2 or not self.c.fused:
            return (lambda st, fr: st.partner_of(fr[F_SELF])), PLAYER

        def partner(st, fr):                          # partner_of for teams of two, read in place
            p = fr[F_SELF]
            if p < 0:
                return -1
            q = st.g.team_tables[st.n][1][p]
            return -1 if st.eliminated[q] else q
        return partner, PLAYER

    def e_partner_of(self, t):
        self._needs_teams(t)
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.partner_of(who(st, fr))), PLAYER

    def e_next_of(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.next_of(who(st, fr))), PLAYER

    def e_next_seat(self, t):
        return (lambda st, fr: st.seat_after(fr[F_SELF])), PLAYER

    def e_seat_after(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.seat_after(who(st, fr))), PLAYER

    def e_most_cards(self, t):
        return (lambda st, fr: st.extreme_hand(fr[F_SELF], True)), PLAYER

    def e_fewest_cards(self, t):
        return (lambda st, fr: st.extreme_hand(fr[F_SELF], False)), PLAYER

    # groups

    def e_all_players(self, t):
        return (lambda st, fr: st.players_from(fr[F_SELF], True)), GROUP

    def e_others(self, t):
        return (lambda st, fr: st.players_from(fr[F_SELF], False)), GROUP

    def e_opponents(self, t):
        self._needs_teams(t)
        return (lambda st, fr: [p for p in st.players_from(fr[F_SELF], False)
                                if not st.same_team(p, fr[F_SELF])]), GROUP

    def e_team_of(self, t):
        self._needs_teams(t)
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.team_members(who(st, fr))), GROUP

    def e_all_from(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: st.players_from(who(st, fr), True)), GROUP

    def e_others_from(self, t):
        who = self.expect(t.children[0], PLAYER)
        return (lambda st, fr: [p for p in st.players_from(who(st, fr), True) if p != fr[F_SELF]]), GROUP

    def e_one_per_team(self, t):
        self._needs_teams(t)
        return (lambda st, fr: st.team_leads()), GROUP

    def _needs_teams(self, t):
        if self.g.variant.team_size < 2:
            self.fail(t, "E503", "this refers to teams, but the variant has no teams")


def if_clauses(t: Tree) -> tuple[list[tuple[Tree, Tree]], Tree | None]:
    """Split an if_stmt tree into its (condition, suite) clauses and its else suite (or None)."""
    clauses = [(t.children[0], t.children[1])]
    otherwise = None
    for extra in t.children[2:]:
        if extra.data == "elif_clause":
            clauses.append((extra.children[0], extra.children[1]))
        else:
            otherwise = extra.children[0]
    return clauses, otherwise


def _clamp(value: int) -> int:
    return max(-10**9, min(10**9, value))


def _constant(t):
    if isinstance(t, Tree) and t.data == "int_" and len(str(t.children[0])) <= 9:
        return int(t.children[0])
    return None


def _too_deep(tree: Tree) -> Tree | None:
    """The first node nested deeper than MAX_NESTING, found without recursion."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def _slot(index: int):
    """A compiled expression that reads one frame slot (self, a local), marked (`.slot`) for `_call`."""
    def read(st, fr):
        return fr[index]
    read.slot = index
    return read


_SELF = _slot(F_SELF)      # the player whose card or event this is


def _NEXT(st, fr):
    """The next player after self (`next`)."""
    return st.next_of(fr[F_SELF])


def _call(name: str, method, *args):
    """An op that calls method(state, *values of args), the engine's op `name`, and continues with the next op.

    One function call per op: a constant argument is built in and a frame slot is
    read in place, so `skip next` and `next draws 2` make no call for `2` or for
    the wrapper a generic op would need.

    The op is marked with the method's name (`.calls`): the engine runs an effect
    whose every op is a known-safe call or a forward jump without an effect frame.
    """
    kinds = ["const" if _is_const(a) else "slot" if hasattr(a, "slot") else "call" for a in args]
    if not args:
        def op(st, fr, pc):
            method(st)
            return pc + 1
    elif kinds == ["const"]:
        value = args[0].const

        def op(st, fr, pc):
            method(st, value)
            return pc + 1
    elif kinds == ["slot"]:
        index = args[0].slot

        def op(st, fr, pc):
            method(st, fr[index])
            return pc + 1
    elif len(args) == 1:
        a = args[0]

        def op(st, fr, pc):
            method(st, a(st, fr))
            return pc + 1
    elif len(args) == 2 and kinds[0] == "slot" and kinds[1] == "const":
        index, value = args[0].slot, args[1].const

        def op(st, fr, pc):
            method(st, fr[index], value)
            return pc + 1
    elif len(args) == 2 and kinds[1] == "const":
        a, value = args[0], args[1].const

        def op(st, fr, pc):
            method(st, a(st, fr), value)
            return pc + 1
    elif len(args) == 2 and kinds[0] == "slot":
        index, b = args[0].slot, args[1]

        def op(st, fr, pc):
            method(st, fr[index], b(st, fr))
            return pc + 1
    elif len(args) == 2:
        a, b = args

        def op(st, fr, pc):
            method(st, a(st, fr), b(st, fr))
            return pc + 1
    else:
        def op(st, fr, pc):
            method(st, *[a(st, fr) for a in args])
            return pc + 1
    op.calls = name
    return op


def _decision(action):
    """An op that may pause for a decision; it resumes (or continues) at the next op."""
    def op(st, fr, pc):
        fr[F_PC] = pc + 1
        result = action(st, fr)
        return D.PAUSE if result == D.PAUSE else pc + 1
    return op


def _jump(offset: int):
    def jump(st, fr, pc):
        return pc + offset
    jump.offset = offset         # read by guard_of
    if offset > 0:
        jump.calls = ""          # forward: part of a straight effect; backward (a loop) is not
    return jump


def _branch(cond, if_true: int, if_false: int):
    if _is_const(cond):
        return _jump(if_true if cond.const else if_false)

    def branch(st, fr, pc):
        return pc + (if_true if cond(st, fr) else if_false)
    branch.calls = ""            # an `if` test: both ways lead forward
    branch.cond, branch.if_false = cond, if_false       # read by guard_of
    return branch


def guard_of(ops: list):
    """The condition without which compiled code does nothing, or None if it may always do something.

    That is the test of an `if` (without `else`) that holds the whole effect: when it
    is false, the code jumps to its end at once. Code that starts by jumping to its end
    (an `if` on a ruling that is off) has the constant false as its guard.
    """
    if not ops:
        return _const(False)
    first = ops[0]
    if getattr(first, "offset", None) == len(ops):
        return _const(False)
    if getattr(first, "if_false", None) == len(ops):
        return first.cond
    return None


# --- constant folding ----------------------------------------------------------
# Literals and rulings are known when a variant is compiled. They compile to
# functions marked as constants, which the compiler folds: `players == 2 and
# rule.x` with x true runs as `players == 2`, and an `if` on a constant is a jump.

def _const(value):
    """A compiled expression that always gives `value`, marked (`.const`) for the folder.

    A plain function, not an object with __call__: effects call constants at run
    time too (`next draws 2`), and a function call is the cheaper of the two.
    """
    def constant(st, fr):
        return value
    constant.const = value
    return constant


def _is_const(fn) -> bool:
    return hasattr(fn, "const")


_BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: _clamp(a * b)}   # as at run time
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def _compare(op: str, lf, rf, most: int, fused: bool = True):
    """A compiled comparison; a constant right side is built into the code (`most`: the largest hand).

    `fused` (the fast mode) compares `hand(next)` and `hand(self)` with a constant in one closure.
    """
    fn = _COMPARE[op]
    if _is_const(lf) and _is_const(rf):
        return _const(fn(lf.const, rf.const))
    if not _is_const(rf):
        return lambda st, fr: fn(lf(st, fr), rf(st, fr))
    c = rf.const
    who = getattr(lf, "hand_of", None)
    if fused and (who is _NEXT or hasattr(who, "slot")):
        return _compare_hand_size(fn, who, c, most)
    if op == "==":
        return lambda st, fr: lf(st, fr) == c
    if op == "!=":
        return lambda st, fr: lf(st, fr) != c
    if op == "<":
        return lambda st, fr: lf(st, fr) < c
    if op == "<=":
        return lambda st, fr: lf(st, fr) <= c
    if op == ">":
        return lambda st, fr: lf(st, fr) > c
    return lambda st, fr: lf(st, fr) >= c


def _compare_hand_size(fn, who, c, most: int):
    """`hand(next) OP c` or `hand(self) OP c` as one closure: the size is taken in place.

    The answer for every size a hand can have (0 to `most`, the deck's size) is worked
    out once; a run looks it up instead of calling the operator. The may-draw
    condition of All Wild (`hand(next) == 1`) runs on every turn.
    """
    answers = tuple(fn(size, c) for size in range(most + 1))
    if who is _NEXT:
        def compare(st, fr):
            p = fr[F_SELF]
            if p < 0:
                return answers[0]
            seat = (p + st.direction) % st.n                # next_of's common case, without the call
            if not st.hands[seat] or st.eliminated[seat]:
                seat = st.next_of(p)
                if seat < 0:
                    return answers[0]
            return answers[len(st.hands[seat])]
        compare.next_answers = answers          # State.play_out answers a may-draw rule of this form in place
    else:
        index = who.slot

        def compare(st, fr):
            p = fr[index]
            return answers[len(st.hands[p])] if p >= 0 else answers[0]
    return compare


def _logic(parts: list, is_and: bool):
    """`and` (is_and) or `or` of compiled conditions, left to right, stopping early.

    Constants that cannot decide the result (true in an `and`, false in an `or`) are
    dropped, and so is everything after one that does (it would never run).
    """
    kept = []
    for part in parts:
        if not _is_const(part):
            kept.append(part)
        elif part.const is not is_and:
            if not kept:
                return _const(part.const)
            kept.append(part)
            break
    if not kept:
        return _const(is_and)
    if len(kept) == 1:
        return kept[0]
    if len(kept) == 2:
        a, b = kept
        if is_and:
            return lambda st, fr: a(st, fr) and b(st, fr)
        return lambda st, fr: a(st, fr) or b(st, fr)
    if is_and:
        return lambda st, fr: all(p(st, fr) for p in kept)
    return lambda st, fr: any(p(st, fr) for p in kept)
