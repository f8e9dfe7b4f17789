"""The `unodsl` command."""

from .app import main

__all__ = ["main"]
