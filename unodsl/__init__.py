"""unodsl: describe, check, play and study UNO variants.

    game = unodsl.load("classic")                  # a shipped name, or a file path
    state = game.new_game(players=4, seed=7)
    while not state.is_over:
        state.apply(state.legal_actions()[0])

Names are imported on first use, so `unodsl check` on an unchanged file (a cache
hit) never pays for YAML, Lark or jsonschema.
"""

from __future__ import annotations

__version__ = "0.1.0"

_EXPORTS = {
    "CheckResult": "check", "check_file": "check", "load": "check", "variants": "check",
    "Diagnostic": "diagnostics", "DiagnosticError": "diagnostics",
    "Game": "engine", "IllegalAction": "engine", "InvalidState": "engine", "State": "engine",
}
__all__ = sorted(_EXPORTS) + ["compile_variant"]


def _submodule(name: str):
    # Fixed names only: nothing here is ever chosen by input. `import unodsl.x`, not
    # `from . import x`: that form asks this package for the attribute first, which
    # calls __getattr__ again, without end, when x is not loaded yet.
    if name == "check":
        import unodsl.check as module
    elif name == "diagnostics":
        import unodsl.diagnostics as module
    else:
        import unodsl.engine as module
    return module


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'unodsl' has no attribute {name!r}")
    return getattr(_submodule(_EXPORTS[name]), name)


def compile_variant(variant, rulings: dict | None = None):
    """Compile a typed Variant into a Game."""
    from .engine import Game
    return Game(variant, rulings)
