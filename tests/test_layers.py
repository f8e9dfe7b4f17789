"""The package's layers and cycles, kept by import-linter: the contracts are in pyproject.toml.

Each test runs `lint-imports` on one contract in a fresh process and, when it is broken,
fails with import-linter's report (which import chain crosses which layer).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(contract: str, root: Path = ROOT) -> subprocess.CompletedProcess:
    """`lint-imports --contract CONTRACT` on the unodsl under `root`, with that root's pyproject.toml."""
    command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
               "--no-cache", "--no-logo", "--contract", contract]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root)})


def assert_kept(contract: str) -> None:
    result = lint_imports(contract)
    assert result.returncode == 0, f"contract {contract!r} broken:\n{result.stdout}{result.stderr}"


def test_layers_point_one_way():
    assert_kept("layers")


def test_no_cycles_between_the_modules_of_a_package():
    assert_kept("acyclic")


def test_the_engine_does_not_import_the_effects_parser():
    assert_kept("engine-no-parser")


def test_the_engine_s_modules_point_one_way():
    assert_kept("engine-layers")


@pytest.mark.parametrize("contract, module, line, report", [
    # a lazy import counts: the model reaching up to the CLI
    ("layers", "model/variant.py", "def _late():\n    from ..cli import files\n",
     "unodsl.model.variant -> unodsl.cli.files"),
    # two sibling layers importing each other
    ("layers", "rulebook/english.py", "from ..scenarios import runner\n",
     "unodsl.rulebook.english -> unodsl.scenarios.runner"),
    # inside the engine: a job of the State reaching up to the State it makes up
    ("engine-layers", "engine/cards.py", "def _late():\n    from .state import State\n",
     "unodsl.engine.cards -> unodsl.engine.state"),
    # a cycle inside one package
    ("acyclic", "cli/files.py", "def _late():\n    from . import app\n",
     "No cycles are allowed in unodsl.cli"),
])
def test_the_contracts_catch_a_wrong_import(tmp_path, contract, module, line, report):
    shutil.copytree(ROOT / "unodsl", tmp_path / "unodsl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    with open(tmp_path / "unodsl" / module, "a", encoding="utf-8") as file:
        file.write("\n\n" + line)
    result = lint_imports(contract, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert report in result.stdout
