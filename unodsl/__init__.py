"""unodsl: describe, check, play and study UNO variants.

    game = unodsl.load("variants/classic.yaml")
    state = game.new_game(players=4, seed=7)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
"""

from .check import CheckResult, check_file, load
from .diagnostics import Diagnostic, DiagnosticError
from .engine import Game, IllegalAction, InvalidState, State

__all__ = ["CheckResult", "Diagnostic", "DiagnosticError", "Game", "IllegalAction", "InvalidState", "State",
           "check_file", "compile_variant", "load"]
__version__ = "0.1.0"


def compile_variant(variant, rulings: dict | None = None) -> Game:
    """Compile a typed Variant into a Game."""
    return Game(variant, rulings)
