"""Effect text -> syntax tree: Lark's parser, its errors in words (E4xx), and the Transformer to the AST.

Every effect and condition of a variant is parsed here once (`parse_variant`), before a
Game is built: the engine reads the trees from `Variant.syntax` and never imports this
module or Lark.
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import re
from dataclasses import replace
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, __version__ as lark_version, v_args
from lark.grammar import Rule
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import Indenter
from lark.lexer import TerminalDef

from . import ast as A
from .ast import Span, Syntax, diagnostic_at
from ..diagnostics import Diagnostic, Edit, Fix, suggestion_suffix
from .lexer import ContextLexer
from ..model.variant import Text, Variant

MAX_NESTING = 40            # statements and expressions nested deeper than this are refused (E513)
MAX_EFFECT_LENGTH = 10_000  # characters in one effect or condition (E404): Lark takes ~25 us a token
MAX_EFFECTS_LENGTH = 100_000    # characters of all a variant's effects and conditions together (E405)


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


# How the parser is built from the grammar: what its tables depend on, besides the grammar's text.
# (The lexer class and the postlexer are given again when the tables are loaded.)
BUILD_OPTIONS = {"parser": "lalr", "start": ["effect", "condition"], "propagate_positions": True,
                 "maybe_placeholders": False}
# The options' values that are Python objects, not data: left out of the shipped tables and put back on load.
_UNSERIALIZED = ("lexer", "postlex", "cache")


def grammar_digest(grammar: str) -> str:
    """The content hash the shipped tables are built from: the grammar's text and the build options."""
    material = json.dumps([grammar, BUILD_OPTIONS, ContextLexer.__qualname__, _EffectIndenter.__qualname__])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def build_parser(grammar: str | None = None, cache: bool = True) -> Lark:
    """Build the LALR parser from the grammar's text: its tables computed (or read from Lark's own cache
    in the temporary folder, with `cache`). ContextLexer lexes as Lark's contextual lexer does, with one
    regex instead of one per state."""
    text = grammar_path().read_text(encoding="utf-8") if grammar is None else grammar
    return Lark(text, lexer=ContextLexer, postlex=_EffectIndenter(), cache=cache, **BUILD_OPTIONS)


def serialize_tables(lark: Lark) -> tuple[dict, dict]:
    """The (data, memo) of a built parser as plain literals (what `parser_tables.py` holds)."""
    data, memo = lark.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _UNSERIALIZED}
    data["parser"]["lexer_conf"] = {**data["parser"]["lexer_conf"], "lexer_type": None}
    return data, memo


def load_tables(data: dict, memo: dict) -> Lark:
    """The parser from tables made by `serialize_tables`, the lexer and postlexer put back."""
    data = {**data, "options": {**data["options"], "lexer": ContextLexer, "cache": False},
            "parser": {**data["parser"], "lexer_conf": {**data["parser"]["lexer_conf"], "lexer_type": ContextLexer}}}
    return Lark._load_from_dict(data, memo, postlex=_EffectIndenter())


def tables_path() -> Path:
    """Where the parser's tables ship built, beside the grammar (written by scripts/build_parser_tables.py)."""
    return Path(__file__).resolve().parent / "parser_tables.pickle"


class _PlainUnpickler(pickle.Unpickler):
    """Reads plain data only (dicts, lists, tuples, strings, numbers): the tables name no class."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"the parser tables may not name {module}.{name}")


def read_tables(path: Path | None = None) -> dict | None:
    """The shipped tables: {"grammar_digest", "lark_version", "data", "memo"}, or None when unreadable."""
    try:
        with open(path or tables_path(), "rb") as handle:
            tables = _PlainUnpickler(handle).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return None
    return tables if isinstance(tables, dict) else None


def tables_current(tables: dict | None, grammar: str) -> bool:
    """True when `tables` were built from `grammar` (and today's build options) by this Lark."""
    return (tables is not None and tables.get("grammar_digest") == grammar_digest(grammar)
            and tables.get("lark_version") == lark_version)


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser, once per process: from the tables shipped built (`parser_tables.pickle`,
    `scripts/build_parser_tables.py` writes it) when they were built from this grammar by this
    version of Lark, else built from the grammar (Lark caches its tables on disk).
    """
    grammar = grammar_path().read_text(encoding="utf-8")
    tables = read_tables()
    if tables_current(tables, grammar):
        return load_tables(tables["data"], tables["memo"])
    return build_parser(grammar)


# Friendly names for terminals in "expected ..." messages.
_TOKEN_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of text",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string", "COLON": "':'", "SEMICOLON": "';'",
    "LPAR": "'('", "RPAR": "')'", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
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


def _expected(err: UnexpectedToken) -> set[str]:
    """The terminals an error lists as expected, without a comma the parser would not take there.

    LALR merges the states after an expression, so a comma (only ever inside `random(A, B)`
    or a call's arguments) would be listed after every expression; it is kept where it fits.
    """
    expected = set(err.expected)
    interactive = getattr(err, "interactive_parser", None)
    # A token the state's lexer refused lists what that lexer tries, where a name stands for the words it
    # would read as a name (`choose player 2`, where a let's group may be named): list those words too.
    # (The parser's own errors list them already.)
    if "NAME" in expected and not expected & _keyword_terminals() and interactive is not None:
        expected |= {term for term in interactive.accepts() if term in _keyword_terminals()}
    # The same for the words only an aggregate or a filter takes (`over`, `where`): listed after
    # every expression by the merged states, kept where the parser would take them.
    merged = expected & {"COMMA", "OVER", "WHERE"}
    if merged:
        accepts = interactive.accepts() if interactive is not None else set()
        expected -= {term for term in merged if term not in accepts}
    return expected


def _token_text(token) -> str:
    if token.type == "$END":
        return "end of text"
    if token.type == "_NL":
        return "end of line"
    if token.type in ("_INDENT", "_DEDENT"):
        return "indentation"
    return f"'{token.value}'"


def parse_tree(text: Text, start: str = "effect") -> tuple[Tree | None, list[Diagnostic]]:
    """Parse an effect (or, with start="condition", a condition) into a Lark tree: the tokens, for the lexer's tests."""
    if len(text.source) > MAX_EFFECT_LENGTH:
        # Refused before Lark sees it: a 1 MB effect would take it ~20 s and, if deeply nested, ~700 MB.
        what = "condition" if start == "condition" else "effect"
        return None, [diagnostic_at(text, 1, 1, "E404", f"{what} is {len(text.source):,} characters long, "
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
            message = (f"E401 unexpected {_token_text(err.token)}; expected {_describe_expected(_expected(err))}"
                       + _misspelling_hint(err, source))
        elif isinstance(err, UnexpectedEOF):
            line, column = _end_position(source)
            message = f"E401 unexpected end of text; expected {_describe_expected(err.expected)}"
        else:
            message = "E401 syntax error"
        code, msg = message.split(" ", 1)
        if start == "condition":
            line, column = _unflatten(original, column)
        elif (orphan := _orphan_branch(source, line)) is not None:
            # `elif`/`else` with no `if` before it: the parser read the word as a name and stumbled on
            # the next token, with a hint about that token. Say what is wrong, at the word itself.
            column, word = orphan
            return None, [diagnostic_at(text, line, column, "E401", f"'{word}' without an 'if' before it: an "
                                        f"'{word}' follows the block of an 'if' (or 'elif') at the same indentation")]
        comparison = isinstance(err, UnexpectedToken) and err.token.value == "="
        if comparison:              # `let x = ...` and `set x = ...` take it: anywhere else it was meant as a test
            msg += " (to compare, write '==')"
        found = diagnostic_at(text, line, column, code, msg)
        if comparison:
            found = replace(found, fix=Fix("replace '=' by '=='", (
                Edit(found.line, found.column, found.line, found.column + 1, "=="),)))
        return None, [found]
    except Exception:                           # indentation errors from the postlexer
        line = _bad_dedent_line(source)
        return None, [diagnostic_at(text, line, 1, "E403",
                               "this line's indentation matches no enclosing block")]


_BRANCH = re.compile(r"[ \t]*(elif|else)\b")
_OPENS_BRANCH = re.compile(r"(if|elif)\b")


def _orphan_branch(source: str, line: int) -> tuple[int, str] | None:
    """(column, word) when line `line` begins with `elif` or `else` and no `if` or `elif` at its
    indentation comes before it (the last line at or left of that indentation); else None."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines) or (match := _BRANCH.match(lines[line - 1])) is None:
        return None
    indent = len(lines[line - 1][:match.start(1)].expandtabs(4))
    for before in reversed(lines[:line - 1]):
        stripped = before.strip()
        if not stripped or stripped.startswith("#"):
            continue
        level = len(before[:len(before) - len(before.lstrip(" \t"))].expandtabs(4))
        if level > indent:
            continue                        # inside the block of the statement before
        if level == indent and _OPENS_BRANCH.match(stripped):
            return None                     # it has its `if`: the error is something else
        break
    return match.start(1) + 1, match.group(1)


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


_STATEMENT_WORDS = ("skip", "reverse", "choose", "set", "let", "swap", "rotate", "look", "show", "trade", "gather",
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




def parse(text: Text, start: str = "effect") -> tuple[A.Effect | A.Condition | None, list[Diagnostic]]:
    """Parse an effect (or, with start='condition', a condition) into its syntax tree, or None and why not."""
    tree, diags = parse_tree(text, start)
    if tree is None:
        if start == "effect":
            folded = _folded_lines(text)
            if folded is not None:
                return None, [folded]
        return None, diags
    flattened = start == "condition"
    deep = _too_deep(tree)
    what = "condition" if flattened else "effect"
    builder = _Builder(text, flattened)
    if deep is not None:
        line, column = builder.start_of(deep)
        return None, [diagnostic_at(text, line, column, "E513", f"{what} nested more than {MAX_NESTING} levels deep")]
    try:
        return builder.transform(tree), []
    except VisitError as err:
        if not isinstance(err.orig_exc, _UnknownRule):
            raise
        line, column = builder.start_of(err.obj)
        return None, [diagnostic_at(text, line, column, "E510", f"'{err.obj.data}' cannot be used here")]


def _folded_lines(text: Text) -> Diagnostic | None:
    """E406 for an effect written over several lines without `|`, which YAML folded into one line that does not
    parse, when the lines as written parse as a `|` block would keep them; with the fix that makes it one."""
    node = text.node
    if node is None or node.style not in (None, "'", '"') or node.end_line <= node.line or node.raw is None \
            or node.key_column is None or (node.style is not None and "\\" in node.raw):
        return None
    raw = node.raw[1:-1] if node.style else node.raw
    if node.style == "'":
        raw = raw.replace("''", "'")
    first, *rest = raw.split("\n")
    rest = [line.rstrip() for line in rest]
    margin = min((len(line) - len(line.lstrip(" ")) for line in rest if line.strip()), default=0)
    lines = [first.strip()] + [line[margin:] for line in rest]
    block = "\n".join(lines).strip("\n") + "\n"
    tree, problems = parse_tree(Text(block, None))
    if tree is None or problems:
        return None
    indent = " " * (node.key_column - 1 + 2)
    new = "|\n" + "\n".join(indent + line if line.strip() else "" for line in block.rstrip("\n").split("\n"))
    count = len(block.rstrip("\n").split("\n"))
    key = text.node.path
    return Diagnostic(key, node.line, node.column, "E406",
                      f"this effect is written on {count} lines without '|', so YAML joins them into one line; "
                      f"write '|' after the key and the statements below it, one per line",
                      end_line=node.end_line, end_column=node.end_column,
                      fix=Fix("make the effect a '|' block", (Edit(node.line, node.column, node.end_line,
                                                                    node.end_column, new),)))


def _too_deep(tree: Tree) -> Tree | None:
    """The first node nested deeper than MAX_NESTING, found without recursion."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


class _UnknownRule(Exception):
    """A grammar rule the Transformer has no method for (tests/test_registry.py keeps that from happening)."""


# Grammar rules that make no node of their own: the Transformer folds them into their parent.
STRUCTURE = ("simple_stmts", "suite", "elif_clause", "else_clause", "hand_way")


class _Else(tuple):
    """The body of an `else` clause, told apart from an `elif` clause among an if_stmt's children."""


class _Builder(Transformer):
    """Lark tree -> AST, bottom up: one method per grammar rule or alias, named after it."""

    def __init__(self, text: Text, flattened: bool):
        super().__init__()
        self.text = text
        # A condition is parsed as one line: its columns are mapped back into its own lines.
        self.original = (text.source if text.source.endswith("\n") else text.source + "\n") if flattened else None

    def _at(self, line: int, column: int) -> tuple[int, int]:
        return _unflatten(self.original, column) if self.original is not None else (line, column)

    def span(self, meta) -> Span:
        if meta.empty:
            return Span(*self._at(1, 1), *self._at(1, 1))
        return Span(*self._at(meta.line, meta.column), *self._at(meta.end_line, meta.end_column))

    def token_span(self, token: Token) -> Span:
        return Span(*self._at(token.line, token.column), *self._at(token.end_line, token.end_column))

    def start_of(self, tree: Tree) -> tuple[int, int]:
        """Where a Lark tree starts, as a diagnostic points at it."""
        meta = tree.meta
        return self._at(meta.line, meta.column) if not meta.empty else self._at(1, 1)

    def __default__(self, data, children, meta):
        raise _UnknownRule(data)

    # --- structure

    def effect(self, meta, children):
        return A.Effect(_statements(children), text=self.text, span=self.span(meta))

    def condition(self, meta, children):
        return A.Condition(children[0], text=self.text, span=self.span(meta))

    def simple_stmts(self, meta, children):
        return tuple(children)

    def suite(self, meta, children):
        return _statements(children)

    def elif_clause(self, meta, children):
        return A.Clause(children[0], children[1])

    def else_clause(self, meta, children):
        return _Else(children[0])

    def if_stmt(self, meta, children):
        clauses = [A.Clause(children[0], children[1])]
        otherwise = None
        for extra in children[2:]:
            if isinstance(extra, _Else):
                otherwise = tuple(extra)
            else:
                clauses.append(extra)
        return A.If(tuple(clauses), otherwise, span=self.span(meta))

    def for_stmt(self, meta, children):
        return A.ForEach(str(children[0]), children[1], children[2], span=self.span(meta))

    def challenge(self, meta, children):
        return A.Challenge(children[0], tuple(children[1:]), span=self.span(meta))

    def choice(self, meta, children):
        # The options are spliced into the children: NAME, its condition if any, its body (a tuple).
        options, at = [], 1
        while at < len(children):
            name = children[at]
            test = children[at + 1] if isinstance(children[at + 1], A.Expr) else None
            at += 2 if test is None else 3
            options.append(A.Option(str(name), test, children[at - 1], self.token_span(name)))
        return A.Choice(children[0], tuple(options), span=self.span(meta))

    def call(self, meta, children):
        return A.Call(str(children[0]), tuple(children[1:]), span=self.span(meta))

    def fn_call(self, meta, children):
        return A.FnCall(str(children[0]), tuple(children[1:]), span=self.span(meta))

    def must_play_block(self, meta, children):
        return A.MustPlayBlock(children[0], children[1], children[2], span=self.span(meta))

    # --- nodes whose children are tokens

    def skip_many(self, meta, children):
        count = children[0]
        if isinstance(count, Token):
            count = A.Int(str(count), span=self.token_span(count))
        return A.SkipMany(count, span=self.span(meta))

    def let(self, meta, children):
        # A filter (`let NAME = G where COND`) is the players of G meeting COND as the let runs; a choice among
        # them (`let NAME = choose player G where COND`) is choose_player, built below.
        return A.Let(str(children[0]), children[-1], span=self.span(meta))

    def choose_player(self, meta, children):
        # `choose player G`, or `P chooses player G`: the chooser is written first.
        return A.ChoosePlayer(children[-1], children[0] if len(children) == 2 else None, span=self.span(meta))

    def choose_color_value(self, meta, children):
        # `choose color`, or `P chooses color`: the chooser is written first.
        return A.ChooseColorValue(children[0] if children else None, span=self.span(meta))

    def secret_number(self, meta, children):
        choosers, low, high, name = children
        return A.SecretNumber(choosers, low, high, str(name), self.token_span(name), span=self.span(meta))

    def choose_number(self, meta, children):
        # `choose number from A to B`, or `P chooses number from A to B`: the chooser is written first.
        chooser = children[0] if len(children) == 3 else None
        return A.ChooseNumber(children[-2], children[-1], chooser, span=self.span(meta))

    def comparison(self, meta, children):
        left, op, right = children
        return A.Compare(left, str(op), right, op_span=self.token_span(op), span=self.span(meta))

    def binop(self, meta, children):
        left, op, right = children
        return A.BinOp(left, str(op), right, span=self.span(meta))

    def or_expr(self, meta, children):
        return A.Or(tuple(children), span=self.span(meta))

    def and_expr(self, meta, children):
        return A.And(tuple(children), span=self.span(meta))

    def int_(self, meta, children):
        return A.Int(str(children[0]), span=self.span(meta))

    def string(self, meta, children):
        return A.String(str(children[0])[1:-1], span=self.span(meta))

    def hand_way(self, meta, children):
        # its words kept (`!hand_way`): the first tells the way (`in` the direction of play, or `against` it)
        return {"in": "play"}.get(str(children[0]), str(children[0]))

    def group_except(self, meta, children):
        # `G except P`, G a group or the name of a let holding one (`crowd except next`: a token, read as a name)
        group = children[0]
        if isinstance(group, Token):
            group = A.Var(str(group), span=self.token_span(group))
        return A.GroupExcept(group, children[1], span=self.span(meta))

    def hold_type(self, meta, children):
        return A.HoldType(str(children[0]), span=self.span(meta))


def _branch(kind: str):
    """The Transformer method of one challenge branch (guilty, innocent, accepted)."""
    def build(self, meta, children):
        return A.Branch(kind, children[0], span=self.span(meta))
    return build


def _nodes(cls):
    """A Transformer method building `cls` from its children (tokens as their text), in field order."""
    def build(self, meta, children):
        return cls(*(str(c) if isinstance(c, Token) else c for c in children), span=self.span(meta))
    return build


for _name, _cls in A.NODES.items():
    if _name not in vars(_Builder):
        setattr(_Builder, _name, _branch(_name) if _cls is A.Branch else _nodes(_cls))
_Builder = v_args(meta=True)(_Builder)      # after the generated methods, so that they get (meta, children) too


def _statements(children) -> tuple:
    """The statements of a block: simple_stmts lines (tuples) spread out, compound statements as they are."""
    out: list = []
    for child in children:
        if isinstance(child, tuple):
            out.extend(child)
        elif isinstance(child, A.Stmt):
            out.append(child)
    return tuple(out)


def parse_variant(variant: Variant) -> Syntax:
    """Parse every effect and condition of `variant` once, within the variant's budget of effect text (E405).

    The texts are counted in the order the compile step has always read them (a card's
    on_play, its start effect, its restriction; then the deal, player-out and after-draw
    events and the may-draw condition; then the match conditions and the procedures' bodies), so E405
    lands on the same text.
    """
    trees: dict[int, A.Effect | A.Condition] = {}
    texts: list[Text] = []
    diags: list[Diagnostic] = []
    used = 0

    def read(text: Text | None, start: str) -> None:
        nonlocal used
        if text is None or (start == "effect" and not text.source.strip()):
            return
        if len(text.source) <= MAX_EFFECT_LENGTH:       # longer: parse refuses it alone, unparsed (E404)
            before, used = used, used + len(text.source)
            if used > MAX_EFFECTS_LENGTH:
                if before <= MAX_EFFECTS_LENGTH:
                    diags.append(diagnostic_at(text, 1, 1, "E405", f"the variant's effects and conditions add up "
                                               f"to more than {MAX_EFFECTS_LENGTH:,} characters; this one and "
                                               f"those after it are not checked"))
                return
        if id(text) in trees:
            return
        tree, found = parse(text, start)
        diags.extend(found)
        texts.append(text)
        if tree is not None:
            trees[id(text)] = tree

    for ct in variant.cards.values():
        read(ct.on_play, "effect")
        read(ct.on_start or variant.start_default, "effect")
        read(ct.strict, "condition")
        read(ct.challenge, "condition")
    read(variant.on_deal, "effect")
    read(variant.on_player_out, "effect")
    read(variant.after_draw, "effect")
    read(variant.may_draw_if, "condition")
    read(variant.eliminate_when, "condition")
    read(variant.win_when, "condition")
    read(variant.turn_draw, "effect")
    read(variant.uno_penalty_effect, "effect")
    read(variant.uno_false_call_effect, "effect")
    read(variant.uno_catch_if, "condition")
    read(variant.uno_wrong_catch_effect, "effect")
    read(variant.uno_out_penalty_effect, "effect")
    read(variant.on_round_end, "effect")
    read(variant.match, "condition")             # read last, so E405 stays where it was for older files
    for ct in variant.cards.values():
        read(ct.match, "condition")
    for procedure in variant.procedures.values():
        read(procedure.body, "effect")
    if variant.sets is not None:
        read(variant.sets.continue_, "condition")
        read(variant.sets.finish, "condition")
    for ct in variant.cards.values():             # after the rest, so E405 stays where it was
        read(ct.on_stack, "effect")
        read(ct.on_stack_if, "condition")
    for function in variant.functions.values():
        read(function.value, "condition")
    for text in (variant.turn_start, variant.turn_end, variant.card_played):   # the later events: after the rest
        read(text, "effect")
    for window in variant.windows.values():
        read(window.when, "condition")
        read(window.effect, "effect")
    for pile in variant.piles.values():          # the latest of all: after the rest, so E405 stays where it was
        read(pile.where, "condition")
    diags.extend(_keyword_variables(variant))
    return Syntax(trees, tuple(texts), tuple(diags))


@functools.lru_cache(maxsize=1)
def _keyword_terminals() -> frozenset[str]:
    """The names of the terminals that are words of the grammar (ALL, OTHERS, ...)."""
    return frozenset(t.name for t in parser().terminals if t.pattern.type == "str" and t.pattern.value.isidentifier())


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """The words of the grammar (`skip`, `color`, `left`...): a name spelt as one cannot be written in an effect."""
    return frozenset(t.pattern.value for t in parser().terminals
                     if t.pattern.type == "str" and t.pattern.value.isidentifier())


def _keyword_variables(variant: Variant) -> list[Diagnostic]:
    """E520 for a declared variable named as a keyword: effects could neither read nor set it."""
    out = []
    for var in (*variant.state.values(), *variant.player_state.values()):
        if var.name in keywords() and var.node is not None:
            node = var.node
            line, column = (node.key_line, node.key_column) if node.key_line is not None else (node.line, node.column)
            out.append(Diagnostic(node.path, line, column, "E520",
                                  f"variable '{var.name}' has the name of a word of the effect language"))
    return out


def with_syntax(variant: Variant) -> Variant:
    """`variant` with its effects and conditions parsed (Variant.syntax), ready for Game."""
    return replace(variant, syntax=parse_variant(variant))
