"""unodsl in words for programs that read: a seat's text view, a text environment, remote and language-model seats.

`view(state, seat)` is what the seat may see, in the terminal's words (rulebook/narration.py);
`TextEnv` plays a game through text actions with retries that quote the engine's reason; `remote`
is the client of a remote agent (`ws://` seats) and `llm` the language-model seat (`llm:` seats).
"""

from .view import render, rulebook_section, view

__all__ = ["TextEnv", "render", "rulebook_section", "view"]


def __getattr__(name: str):
    if name == "TextEnv":
        from .env import TextEnv
        return TextEnv
    raise AttributeError(name)
