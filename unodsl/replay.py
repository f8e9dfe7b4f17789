"""Game logs: what is needed to replay a game (variant, digest, seed, players, actions)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .engine import Game, IllegalAction, State

MAX_LOG_BYTES = 50_000_000
MAX_ACTIONS = 10_000_000


class ReplayError(Exception):
    """A log that cannot be read."""


def game_log(game: Game, variant_path: str, state: State) -> dict:
    """The replayable record of a game played so far."""
    return {
        "format": "unodsl-log/1",
        "variant_path": variant_path,
        "digest": game.digest,
        "seed": state.seed,
        "players": state.n,
        "match": state.match,
        "actions": [game.action_to_string(a) for a in state.history],
    }


def read_log(path: str) -> list[dict]:
    """Read a log file (one JSON record per line); raises ReplayError with the line at fault."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as err:
        raise ReplayError(f"cannot read the log: {err.strerror or err}") from None
    if len(data) > MAX_LOG_BYTES:
        raise ReplayError(f"the log is larger than {MAX_LOG_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ReplayError(f"the log is not UTF-8 text (byte {err.start})") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as err:
            raise ReplayError(f"line {number}: not JSON ({str(err).split(':')[0]})") from None
        problem = _validate(record)
        if problem:
            raise ReplayError(f"line {number}: {problem}")
        records.append(record)
    if not records:
        raise ReplayError("the log holds no game")
    return records


def _validate(record) -> str | None:
    if not isinstance(record, dict) or record.get("format") != "unodsl-log/1":
        return "not a unodsl game record (format 'unodsl-log/1')"
    for key, kind in (("variant_path", str), ("seed", int), ("players", int), ("actions", list)):
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            return f"field '{key}' is missing or not a {kind.__name__}"
    if len(record["actions"]) > MAX_ACTIONS or not all(isinstance(a, str) for a in record["actions"]):
        return "field 'actions' must be a list of action strings"
    return None


@dataclass
class Outcome:
    """How a replay went."""

    actions: int
    winner: int | None
    error: str | None = None
    state: State | None = None


def replay_game(game: Game, record: dict) -> Outcome:
    """Replay one record; stop at the first action that is not legal and say why."""
    try:
        state = game.new_game(record["players"], seed=record["seed"], match=bool(record.get("match")))
    except ValueError as err:
        return Outcome(0, None, str(err))
    for index, action in enumerate(record["actions"], start=1):
        try:
            state.apply(action)
        except IllegalAction as err:
            return Outcome(index - 1, None, f"action {index} '{action}' is no longer legal: {err.reason}", state)
    return Outcome(len(record["actions"]), state.winner, None, state)
