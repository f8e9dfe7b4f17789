"""The engine's two refusals: an action that is not legal now, a saved state that cannot be loaded."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that is not legal in this state; the state is unchanged."""

    def __init__(self, action, reason: str):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class InvalidState(Exception):
    """A saved state that cannot be loaded (tampered, truncated, for another variant)."""
