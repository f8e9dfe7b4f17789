"""Developer tool, not shipped: the underscore names that cross a module inside unodsl/engine.

An attribute access `X._name` (X any expression: self, st, state, cls, g, a module...) in
unodsl/engine/*.py crosses a module when `_name` is not defined in the module that reads it: not a
def or class there, not assigned at its top level or in a class body, not in a `__slots__` or a
dataclass field there, not assigned as an attribute (`x._name = ...`) there. Dunder names are not
counted. Nor may a class member `_name` be defined in two engine modules (a private method overridden
in another module's subclass: `overrides`). `python -m tools.underscore_crossings` lists both by name
with where they are; tests/test_engine_layers.py holds them to its allow-list.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "unodsl" / "engine"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        return [node.target]
    return []


def defined_names(tree: ast.Module) -> set[str]:
    """The names a module defines: defs, classes, top-level and class-body assignments, slots, attributes it assigns."""
    names: set[str] = set()

    def bind(target: ast.expr) -> None:
        for n in ast.walk(target):
            if isinstance(n, ast.Name):
                names.add(n.id)

    for stmt in tree.body:                                    # the module's top level
        for target in _targets(stmt):
            bind(target)
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):                    # class attributes, slots, dataclass fields
            for stmt in node.body:
                for target in _targets(stmt):
                    bind(target)
                    if isinstance(target, ast.Name) and target.id == "__slots__":
                        names.update(_strings(stmt.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type":
            for arg in node.args[2:]:                         # type(name, bases, {"__slots__": (...)})
                if isinstance(arg, ast.Dict):
                    for key, value in zip(arg.keys, arg.values):
                        if isinstance(key, ast.Constant) and key.value == "__slots__":
                            names.update(_strings(value))
        for target in _targets(node):                         # x._name = ... anywhere in the module
            for n in ast.walk(target):
                if isinstance(n, ast.Attribute):
                    names.add(n.attr)
    return names


def crossings(engine: Path = ENGINE) -> dict[str, list[str]]:
    """Each underscore name read across modules -> the places (module:line) that read it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(engine.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        own = defined_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
                found[node.attr].append(f"{path.stem}:{node.lineno}")
    return dict(sorted(found.items()))


def overrides(engine: Path = ENGINE) -> dict[str, list[str]]:
    """Each underscore class member defined in more than one module -> those modules."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(engine.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    names = [stmt.name] if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else [
                        t.id for t in _targets(stmt) if isinstance(t, ast.Name)]
                    found.update({name: found[name] | {path.stem} for name in names if _private(name)})
    return {name: sorted(modules) for name, modules in sorted(found.items()) if len(modules) > 1}


def main() -> int:
    found = crossings()
    total = sum(len(places) for places in found.values())
    for name, places in found.items():
        print(f"{name:32} {len(places):3}  {' '.join(places)}")
    print(f"{total} crossings, {len(found)} names")
    for name, modules in overrides().items():
        print(f"{name:32} defined in {' '.join(modules)}")
    print(f"{len(overrides())} underscore members defined in more than one module")
    return 0


if __name__ == "__main__":
    sys.exit(main())
