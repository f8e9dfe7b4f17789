"""Import a script of benchmarks/ (a folder, not a package) for the tests, once per session."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def bench_module(name: str):
    """benchmarks/<name>.py as a module, loaded on first use under a name no installed package has."""
    key = f"unodsl_bench_{name}"
    module = sys.modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(key, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return module
