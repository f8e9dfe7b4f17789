"""No code from input: the package never evaluates, unpickles or imports anything named by a file."""

from __future__ import annotations

import ast
from pathlib import Path

import unodsl

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "marshal", "shelve", "importlib", "subprocess"}


def _package_sources():
    return sorted(Path(unodsl.__file__).parent.glob("*.py"))


def test_no_eval_exec_or_dynamic_imports_in_the_package():
    problems = []
    for path in _package_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for name in names:
                    if name.split(".")[0] in FORBIDDEN_MODULES:
                        problems.append(f"{path.name}:{node.lineno} imports {name}")
    assert problems == []


def test_yaml_is_only_read_through_the_safe_event_loader():
    for path in _package_sources():
        text = path.read_text(encoding="utf-8")
        for unsafe in ("yaml.load(", "yaml.unsafe_load", "yaml.full_load", "FullLoader", "UnsafeLoader"):
            assert unsafe not in text, f"{path.name} uses {unsafe}"


def test_a_python_tag_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    variant = tmp_path / "v.yaml"
    variant.write_text(f"unodsl: 1\nname: !!python/object/apply:os.system ['touch {marker}']\n")
    result = unodsl.check_file(str(variant))
    assert "E115" in [d.code for d in result.errors]
    assert not marker.exists()
