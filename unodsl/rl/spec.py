"""The text of `unodsl rl-spec`: a variant's RL action table and observation layout."""

from __future__ import annotations

from .actions import ActionTable
from .observation import ObservationEncoder


def render_spec(game, num_players: int) -> str:
    """Return the action table (RL id, label, engine action of seat 0) and the observation layout."""
    table = ActionTable(game, num_players)
    encoder = ObservationEncoder(game, num_players)
    lines = [f"# {game.variant.name}: {num_players} players",
             f"actions: {table.size} (the engine has {game.num_actions})"]
    lines += [f"{i:5d}  {label:<34} {game.action_to_string(table.to_engine(i, 0))}"
              for i, label in enumerate(table.labels)]
    lines.append(f"observation: {encoder.size} float32 (seat offsets count from the observer)")
    lines += encoder.describe()
    return "\n".join(lines) + "\n"
