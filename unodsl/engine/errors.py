"""The engine's refusals: an action that is not legal now, a saved state that cannot be loaded, a position's
variable value that is not one of its values, a random outcome given in advance that cannot come."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that is not legal in this state; the state is unchanged."""

    def __init__(self, action, reason: str):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class InvalidState(Exception):
    """A saved state that cannot be loaded (tampered, truncated, for another variant)."""


class PinnedChanceError(ValueError):
    """A random outcome given in advance (`Game.position(random=...)`) that the draw it came to cannot give.

    `index` is its place in the list given.
    """

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


class VariableError(ValueError):
    """A position's value for a declared variable that the variant has not, or that is not of its type."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name
