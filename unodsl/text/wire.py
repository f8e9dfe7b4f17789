"""The JSON a remote or language-model seat is sent about its decision: its text view and its observation.

One body for every channel that leaves the process (`ws://` seats, the MCP server): what the seat may
see (AgentView), never more. `tests/test_text.py` holds every message to the cards the seat may know.
"""

from __future__ import annotations

from ..agents.seats import AgentView
from ..rulebook.narration import narrate
from .view import render

PROTOCOL = 1


def decision_message(view: AgentView, *, legal: bool = True) -> dict:
    """The `decide` message of a decision: seat, decision kind, the text view, the observation, what happened
    since the seat last decided (in words), the legal actions (unless `legal` is False), and after a
    refused answer the engine's reason and the attempt number."""
    observation = dict(view.observation)
    observation.pop("legal_actions", None)          # said once, below, or not at all
    message = {"type": "decide", "protocol": PROTOCOL, "seat": view.seat, "decision": view.decision,
               "text": render(view), "observation": observation,
               "events": narrate(view.events, view.seat, view.game),
               "feedback": view.feedback, "attempt": view.attempt}
    if legal:
        message["legal"] = view.legal_actions
    return message


def reset_message(seat: int, game, players: int | None = None) -> dict:
    """The `reset` message of a new game: the seat, the variant's name and colors."""
    return {"type": "reset", "protocol": PROTOCOL, "seat": seat, "variant": game.variant.name,
            "colors": list(game.variant.colors), **({"players": players} if players else {})}


def result_message(result: dict) -> dict:
    """The `result` message at the game's end (Seated.game_over's result)."""
    return {"type": "result", "protocol": PROTOCOL, **result}
