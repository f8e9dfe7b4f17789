"""The effect parser's LALR tables ship built (unodsl/effects/parser_tables.pickle): they must be current.

`parser()` loads them instead of building the parser from the grammar (0.2 s of a first `unodsl check`)
when their content hash is today's grammar's and options' and Lark is the version that built them.
A grammar edited without running `scripts/build_parser_tables.py` fails here; the tables must also be
the very tables the grammar builds today (Lark numbers its states differently from one build to the
next, so they are compared with the states renumbered in the order a walk from the start states
meets them).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from unodsl.effects import parse as P
from unodsl.model.variant import Text

REPO = Path(__file__).resolve().parent.parent
REBUILD = "the grammar changed: run `python scripts/build_parser_tables.py` and commit unodsl/effects/parser_tables.pickle"
T = P.read_tables()
assert T is not None, "unodsl/effects/parser_tables.pickle is missing or unreadable: run scripts/build_parser_tables.py"
SAME_LARK = T["lark_version"] == P.lark_version


@pytest.mark.parametrize("grammar", ["unodsl/effects/effect.lark", "grammar/effect.lark"])
def test_the_shipped_tables_were_built_from_todays_grammar(grammar):
    assert T["grammar_digest"] == P.grammar_digest((REPO / grammar).read_text(encoding="utf-8")), REBUILD


def test_a_changed_grammar_or_option_changes_the_digest(monkeypatch):
    text = P.grammar_path().read_text(encoding="utf-8")
    digest = P.grammar_digest(text)
    assert P.grammar_digest(text + "\n// a comment\n") != digest
    monkeypatch.setitem(P.BUILD_OPTIONS, "propagate_positions", False)
    assert P.grammar_digest(text) != digest


def _canonical(data: dict, memo: dict) -> tuple:
    """The tables of a serialized parser with its numbering taken out: states numbered in the order a
    breadth-first walk from the start states meets them (tokens in name order), rules and terminals
    written out in place of their memo numbers."""
    def resolve(value):
        if isinstance(value, dict) and set(value) == {"@"}:
            return repr(memo[value["@"]])
        return repr(value)
    table = data["parser"]["parser"]
    tokens, states = table["tokens"], table["states"]
    order: dict[int, int] = {}
    queue = [table["start_states"][name] for name in sorted(table["start_states"])]
    for state in queue:
        order.setdefault(state, len(order))
    i = 0
    while i < len(queue):
        actions = states[queue[i]]
        for token in sorted(actions, key=lambda t: tokens[t]):
            kind, arg = actions[token]
            if kind == 0 and arg not in order:          # a shift (or goto): the state it leads to
                order[arg] = len(order)
                queue.append(arg)
        i += 1
    assert len(order) == len(states), "a state no start state reaches"

    def action(kind, arg):
        return (kind, order[arg]) if kind == 0 else (kind, resolve(arg))
    canonical_states = sorted((order[s], sorted((tokens[t], action(*a)) for t, a in acts.items()))
                              for s, acts in states.items())
    return (canonical_states,
            sorted((name, order[s]) for name, s in table["start_states"].items()),
            sorted((name, order[s]) for name, s in table["end_states"].items()),
            sorted(resolve(t) for t in data["parser"]["lexer_conf"]["terminals"]),
            sorted(resolve(r) for r in data["rules"]),
            data["parser"]["lexer_conf"]["ignore"], data["options"])


@pytest.mark.skipif(not SAME_LARK, reason=f"the tables were built by Lark {T['lark_version']}, this is {P.lark_version}")
def test_the_shipped_tables_are_what_the_grammar_builds_today():
    built = P.serialize_tables(P.build_parser(cache=False))
    assert _canonical(T["data"], T["memo"]) == _canonical(*built), REBUILD


def test_the_canonical_form_tells_different_tables_apart():
    data, memo = P.serialize_tables(P.build_parser(cache=False))
    other = P.serialize_tables(P.build_parser(P.grammar_path().read_text(encoding="utf-8").replace(
        '"skip"', '"skips"', 1), cache=False))
    assert _canonical(data, memo) != _canonical(*other)


@pytest.mark.skipif(not SAME_LARK, reason="the shipped tables are for another Lark")
def test_the_parser_is_loaded_from_the_shipped_tables(monkeypatch):
    monkeypatch.setattr(P, "build_parser", lambda grammar: pytest.fail("the parser was built"))
    P.parser.cache_clear()
    try:
        lark = P.parser()
    finally:
        P.parser.cache_clear()
    assert lark.source_path == "<deserialized>"         # Lark's mark of a parser loaded, not built
    assert lark.options.lexer is P.ContextLexer and isinstance(lark.options.postlex, P._EffectIndenter)


def test_stale_tables_are_not_used(monkeypatch):
    # A grammar edited in a checkout without rebuilding: the parser is built from it instead.
    monkeypatch.setattr(P, "read_tables", lambda: {**T, "grammar_digest": "0" * 64})
    built = []
    fresh = built_parser()
    monkeypatch.setattr(P, "load_tables", lambda data, memo: pytest.fail("stale tables loaded"))
    monkeypatch.setattr(P, "build_parser", lambda grammar: built.append(grammar) or fresh)
    P.parser.cache_clear()
    try:
        lark = P.parser()
        assert built == [P.grammar_path().read_text(encoding="utf-8")]
        assert lark.parse("skip next\n", start="effect") is not None
    finally:
        P.parser.cache_clear()


def test_tables_of_another_lark_are_not_used():
    grammar = P.grammar_path().read_text(encoding="utf-8")
    assert P.tables_current(T, grammar) == SAME_LARK
    assert not P.tables_current({**T, "lark_version": "0.0.1"}, grammar)
    assert not P.tables_current(None, grammar)


def test_unreadable_tables_are_not_used(tmp_path):
    (tmp_path / "bad.pickle").write_bytes(b"not a pickle")
    assert P.read_tables(tmp_path / "bad.pickle") is None
    assert P.read_tables(tmp_path / "missing.pickle") is None
    # Plain data only: a pickle that names a class (and so could run code) is refused.
    import pickle
    (tmp_path / "class.pickle").write_bytes(pickle.dumps({"x": Path("a")}))
    assert P.read_tables(tmp_path / "class.pickle") is None


def test_the_tables_ship_in_the_package():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"unodsl.effects" = ["*.lark", "parser_tables.pickle"]' in pyproject
    assert P.tables_path().parent == P.grammar_path().parent


EFFECTS = [
    ("if players == 2:\n    skip next\nelse:\n    reverse\n", "effect"),
    ("next draws 2\nskip next\n", "effect"),
    ("choose color\nnext draws 4\n", "effect"),
    ("not self holds color current and hand(next) > 2", "condition"),
    ("if players == 2: skip next reverse", "effect"),               # E401
    ("skp next", "effect"),                                         # E401 with a hint
    ("hand(self) = 2", "condition"),                                # E401 with a fix
    ("reverse\n  skip next\n skip next\n", "effect"),               # E403
    ("next draws $", "effect"),                                     # E402
]


@pytest.mark.parametrize("source,start", EFFECTS)
def test_loaded_and_built_parsers_parse_alike(source, start, monkeypatch):
    loaded = P.parse(Text(source), start)
    monkeypatch.setattr(P, "parser", lambda: built_parser())
    built = P.parse(Text(source), start)
    assert repr(loaded) == repr(built)


_BUILT: list[Lark] = []


def built_parser() -> Lark:
    if not _BUILT:
        _BUILT.append(P.build_parser(cache=False))
    return _BUILT[0]


def test_the_build_script_checks_and_the_tables_are_current():
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "build_parser_tables.py"), "--check"],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0 and "current" in result.stdout, result.stdout + result.stderr
