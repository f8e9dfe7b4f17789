"""Every rule of the effect grammar is complete at every stage: AST, type check, lowering, English, docs, fuzz.

The rules are read from the compiled grammar (rule names and aliases that make a tree),
so a rule added to effect.lark without a node class, a check, a lowering, a rulebook
sentence, a mention in docs/language.md or a sentence from the fuzz generator fails here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from unodsl.effects import ast as A
from unodsl.effects import check, fold, lower
from unodsl.effects.parse import STRUCTURE, parser
from unodsl.rulebook import english

REPO = Path(__file__).resolve().parent.parent
LANGUAGE = (REPO / "docs" / "language.md").read_text(encoding="utf-8")


def _tree_rules() -> dict[str, list[list[str]]]:
    """Grammar name (rule or alias) that makes a tree node -> the keywords of each of its expansions."""
    lark = parser()
    found: dict[str, list[list[str]]] = {}
    for rule in lark.rules:
        name = rule.alias or rule.origin.name
        if name.startswith("_"):
            continue
        kept = [sym for sym in rule.expansion if not (sym.is_term and sym.filter_out)]
        if rule.options.expand1 and not rule.alias and len(kept) < 2:
            continue                                  # a `?rule` passing its one child through
        words = []
        for sym in rule.expansion:
            if sym.is_term and sym.filter_out and not sym.name.startswith("_"):
                pattern = lark.get_terminal(sym.name).pattern
                if pattern.type == "str":
                    words.append(pattern.value)
        found.setdefault(name, []).append(words)
    return found


RULES = _tree_rules()
NODE_RULES = sorted(set(RULES) - set(STRUCTURE) - {"effect", "condition"})
HOLDINGS = sorted(name for name in NODE_RULES if A.NODES.get(name) is not None
                  and not issubclass(A.NODES[name], (A.Stmt, A.Expr)) and A.NODES[name] is not A.Branch)


def test_the_grammar_is_read():
    assert {"draw", "if_stmt", "challenge", "guilty", "comparison", "or_expr", "binop", "var", "hold_wild",
            "suite", "effect"} <= set(RULES)
    assert "sum" not in RULES and "simple_stmt" not in RULES and "_stmt_line" not in RULES


def test_every_grammar_rule_has_an_ast_class_and_every_class_a_rule():
    assert set(RULES) - set(STRUCTURE) == set(A.NODES)


def test_every_grammar_rule_has_a_transformer_method():
    from unodsl.effects.parse import _Builder
    assert [name for name in RULES if not hasattr(_Builder, name)] == []


def _prefix(name: str) -> str:
    cls = A.NODES[name]
    return "s_" if issubclass(cls, A.Stmt) else "e_"


@pytest.mark.parametrize("name", [n for n in NODE_RULES if n not in HOLDINGS and A.NODES[n] is not A.Branch])
def test_every_statement_and_expression_is_type_checked(name):
    assert hasattr(check._Unit, _prefix(name) + name), f"effects/check.py has no {_prefix(name)}{name}"


@pytest.mark.parametrize("name", [n for n in NODE_RULES if n not in HOLDINGS and A.NODES[n] is not A.Branch])
def test_every_statement_and_expression_is_lowered(name):
    if hasattr(lower._Unit, _prefix(name) + name):
        return
    if name in ("choose_player", "choose_color_value", "choose_number"):  # only in `let NAME = choose player GROUP` (E504)
        assert f"A.{A.NODES[name].__name__}" in inspect.getsource(lower._Unit.s_let)
        return
    # The rest are constants: the folder gives their value, the lowering builds it in.
    cls = A.NODES[name]
    assert f"A.{cls.__name__}" in inspect.getsource(fold.fold), f"effects/lower.py has no {_prefix(name)}{name}"


def test_every_holding_is_checked_lowered_and_said():
    sources = [inspect.getsource(check._Unit.e_holds), inspect.getsource(lower._Unit.e_holds),
               inspect.getsource(english.Translator.holding)]
    for name in HOLDINGS:
        cls = A.NODES[name].__name__
        assert all(f"A.{cls}" in source for source in sources), name


# The Translator and its mixins (rulebook/english_statements.py, english_expressions.py).
ENGLISH = "".join(inspect.getsource(cls) for cls in english.Translator.__mro__ if cls is not object)


@pytest.mark.parametrize("name", [n for n in NODE_RULES if A.NODES[n] is not A.Branch and n not in HOLDINGS])
def test_every_statement_and_expression_has_english(name):
    cls = A.NODES[name]
    if issubclass(cls, A.Stmt):
        assert hasattr(english.Translator, "s_" + name), f"rulebook/english.py has no s_{name}"
    else:
        assert f'"{name}"' in ENGLISH or f"A.{cls.__name__}" in ENGLISH or name in fold_rules(), \
            f"rulebook/english.py never says {name}"


def fold_rules() -> set[str]:
    """Expressions the rulebook says through their folded value (literals, arithmetic on them)."""
    source = inspect.getsource(fold.fold)
    return {name for name, cls in A.NODES.items() if f"A.{cls.__name__}" in source}


def _mentioned(words: list[str]) -> bool:
    """The keywords of one expansion, in order on one line of docs/language.md."""
    pattern = r".*?".join(r"(?<![a-z_])" + re.escape(w) + r"(?![a-z_])" if w.isalpha() else re.escape(w)
                          for w in words)
    return re.search(pattern, LANGUAGE) is not None


@pytest.mark.parametrize("name", [n for n in NODE_RULES if any(RULES[n])])
def test_every_rule_is_in_the_language_reference(name):
    assert any(_mentioned(words) for words in RULES[name] if words), \
        f"docs/language.md does not show {name} ({' / '.join(' '.join(w) for w in RULES[name])})"


def test_the_fuzz_generator_can_derive_every_rule():
    """tests/test_fuzz.py derives sentences from the grammar: each tree-making rule is one of its
    expansions (kept by its filters) and reachable from `effect` or `condition`."""
    from test_fuzz import GRAMMAR
    reachable, todo = set(), ["effect", "condition"]
    while todo:
        name = todo.pop()
        if name in reachable or name not in GRAMMAR.rules:
            continue
        reachable.add(name)
        todo.extend(sym for expansion in GRAMMAR.rules[name] for sym in expansion)
    derivable = set()
    for rule in parser().rules:
        expansion = [sym.name for sym in rule.expansion]
        options = GRAMMAR.rules.get(rule.origin.name, [])
        if rule.origin.name in reachable and (expansion in options or expansion + ["_NL"] in options):
            derivable.add(rule.alias or rule.origin.name)
    assert sorted(set(RULES) - derivable) == []
