"""The contract between compiled code and the engine (unodsl/effects/contract.py) holds the code to itself.

The lowering's closures and the instruction set reach the engine only through `st` and `st.g`: every name they
use there is declared, every declared name is used, and each is what the engine says it is (a declared field,
a State method, a Game table). Read from the source, so a new use fails here before it ships.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import unodsl
from unodsl.effects import contract as C
from unodsl.engine import Game, State
from unodsl.engine.fields import FIELDS

PACKAGE = Path(unodsl.__file__).resolve().parent


def uses(source: str) -> dict[str, dict[str, list[int]]]:
    """{"reads" | "assigns" | "calls" | "game" | "dynamic": {name: [lines]}} of what `source` does with `st`
    and `st.g` (and locals bound to `st.g`, as `g = st.g` or `g, x = st.g, ...`)."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            target, value = node.targets[0], node.value
            pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
                else [(target, value)]
            aliases |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_st_g(v)}
    out: dict[str, dict[str, list[int]]] = {k: {} for k in ("reads", "assigns", "calls", "game", "dynamic")}

    def note(kind: str, name: str, node) -> None:
        out[kind].setdefault(name, []).append(node.lineno)

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "delattr", "vars") \
                and any(isinstance(a, ast.Name) and a.id == "st" for a in node.args):
            note("dynamic", node.func.id, node)
        if not isinstance(node, ast.Attribute):
            continue
        if _is_st_g(node.value) or (isinstance(node.value, ast.Name) and node.value.id in aliases):
            note("game", node.attr, node)
        elif isinstance(node.value, ast.Name) and node.value.id == "st" and node.attr != "g":
            parent = parents[node]
            if isinstance(node.ctx, ast.Store):
                note("assigns", node.attr, node)
            elif isinstance(parent, ast.Call) and parent.func is node:
                note("calls", node.attr, node)
            else:
                note("reads", node.attr, node)
    return out


def _is_st_g(node) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "g" and isinstance(node.value, ast.Name)
            and node.value.id == "st")


def _all_uses() -> dict[str, dict[str, list[str]]]:
    total: dict[str, dict[str, list[str]]] = {}
    for rel in C.COMPILED_SOURCES:
        for kind, names in uses((PACKAGE / rel).read_text(encoding="utf-8")).items():
            for name, lines in names.items():
                # A State method handed on as a value (`take(st.draw_one)`) is a service called there.
                as_kind = "calls" if kind == "reads" and callable(getattr(State, name, None)) else kind
                total.setdefault(as_kind, {}).setdefault(name, []).extend(f"unodsl/{rel}:{n}" for n in lines)
    return total


DECLARED = {"reads": C.STATE_READS, "assigns": C.STATE_ASSIGNS, "calls": set(C.STATE_SERVICES),
            "game": C.GAME_TABLES}


@pytest.mark.parametrize("kind", sorted(DECLARED))
def test_compiled_code_uses_exactly_what_the_contract_declares(kind):
    used = _all_uses().get(kind, {})
    undeclared = {name: where[:3] for name, where in used.items() if name not in DECLARED[kind]}
    assert undeclared == {}, f"compiled code {kind} these without the contract declaring them (effects/contract.py)"
    assert sorted(set(DECLARED[kind]) - set(used)) == [], f"declared in contract.py, no longer {kind} by compiled code"


def test_compiled_code_reaches_the_state_by_name_only():
    assert _all_uses().get("dynamic", {}) == {}


def test_the_declared_names_are_the_engine_s():
    fields = {f.name for f in FIELDS}
    assert sorted((C.STATE_READS | C.STATE_ASSIGNS) - fields) == []
    assert [name for name in C.STATE_SERVICES if not callable(getattr(State, name, None))] == []
    assert all(doc and not doc.endswith(".") for doc in C.STATE_SERVICES.values())
    tables = {name for cls in Game.__mro__ for name in getattr(cls, "__slots__", ())}
    assert sorted(C.GAME_TABLES - tables - set(dir(Game))) == []
    assert all((PACKAGE / rel).is_file() for rel in C.COMPILED_SOURCES)


def test_an_undeclared_use_is_caught():
    source = ("def op(st, p):\n    g = st.g\n    st.secret = g.hidden_table[p]\n    st.helper(p)\n"
              "    return st.hands[p], getattr(st, 'x')\n")
    found = uses(source)
    assert found["assigns"] == {"secret": [3]} and found["game"] == {"hidden_table": [3]}
    assert found["calls"] == {"helper": [4]} and found["reads"] == {"hands": [5]}
    assert found["dynamic"] == {"getattr": [5]}
