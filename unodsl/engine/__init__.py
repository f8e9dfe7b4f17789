"""The engine: a compiled variant (Game) and the state machine that plays it (State).

    game = Game(variant)                 # or unodsl.load("classic")
    state = game.new_game(players=4, seed=7)
"""

from .cards import shuffle
from .errors import IllegalAction, InvalidState, PinnedChanceError, VariableError
from .game import ENGINE_RULINGS, FAST_BY_DEFAULT, Game
from .state import State
from .vm import MAX_FRAMES, MAX_STEPS_PER_TURN

__all__ = ["ENGINE_RULINGS", "FAST_BY_DEFAULT", "MAX_FRAMES", "MAX_STEPS_PER_TURN", "Game", "IllegalAction",
           "InvalidState", "PinnedChanceError", "State", "VariableError", "shuffle"]
