"""Game logs: what is needed to replay a game (variant, digest, seed, players, actions)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ..source.compose import find_root, shown_path
from ..engine import Game, IllegalAction, State

MAX_LOG_BYTES = 50_000_000
MAX_ACTIONS = 10_000_000


class ReplayError(Exception):
    """A log that cannot be read."""


def game_log(game: Game, variant_path: str, state: State, log_path: str | None = None) -> dict:
    """The replayable record of a game played so far.

    With `log_path`, the variant path is stored relative to the log's folder when the
    two share a folder (so they can be moved together), else absolute; see `variant_path_of`.
    """
    if log_path is not None:
        variant_path = _relative_to_log(variant_path, log_path)
    return {
        "format": "unodsl-log/1",
        "variant_path": variant_path,
        "digest": game.digest,
        "seed": state.seed,
        "players": state.n,
        "match": state.match,
        "actions": [game.action_to_string(a) for a in state.history],
        "over": state.over,
        "winner": state.winner,
        "scores": list(state.scores),
    }


def _relative_to_log(variant_path: str, log_path: str) -> str:
    """The variant path relative to the log's folder when they share a folder, else absolute."""
    variant = os.path.abspath(variant_path)
    folder = os.path.dirname(os.path.abspath(log_path))
    try:
        common = os.path.commonpath([variant, folder])
    except ValueError:                          # another drive (Windows)
        return variant
    if os.path.dirname(common) == common:      # only the file-system root in common
        return variant
    return os.path.relpath(variant, folder).replace(os.sep, "/")


def variant_path_of(record: dict, log_path: str, root_dir: str | None = None) -> str:
    """The variant file a record names: relative to the log's folder, else to the working folder.

    The log is data, not a command: like a file named by `extends`, the variant must lie
    under the root (`root_dir`, else the default root for the log); ReplayError otherwise.
    """
    path = record["variant_path"]
    if "\0" in path:
        raise ReplayError(f"the log names the variant {shown_path(path)}: a path cannot contain a NUL character")
    if not os.path.isabs(path):
        beside_log = os.path.normpath(os.path.join(os.path.dirname(log_path), path))
        if os.path.exists(beside_log) or not os.path.exists(path):
            path = beside_log
    root = find_root(log_path, root_dir)
    if not root.contains(os.path.realpath(path)):
        raise ReplayError(f"the log names the variant {shown_path(record['variant_path'])}, which is outside "
                          f"the root folder {root.folder} ({root.why}); pass --root DIR to allow it")
    return path


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
    winner = record.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        return "field 'winner' must be a seat number or null"
    if not isinstance(record.get("over", False), bool):
        return "field 'over' must be true or false"
    return None


@dataclass
class Outcome:
    """How a replay went."""

    actions: int
    winner: int | None
    error: str | None = None
    state: State | None = None


def replay_game(game: Game, record: dict) -> Outcome:
    """Replay one record; stop at the first action that is not legal and say why.

    A replay that ends differently from the recorded game (not over, or another
    winner, when the record says how it ended) is reported as an error too.
    """
    try:
        state = game.new_game(record["players"], seed=record["seed"], match=bool(record.get("match")))
    except ValueError as err:
        return Outcome(0, None, str(err))
    for index, action in enumerate(record["actions"], start=1):
        player = state.current_player
        try:
            state.apply(action)
        except IllegalAction as err:
            who = f" by p{player}" if player >= 0 else ""
            return Outcome(index - 1, None,
                           f"action {index} '{action}'{who} is no longer legal: {err.reason}", state)
    count = len(record["actions"])
    if record.get("over") and not state.over:
        return Outcome(count, None, f"all {count} actions replayed, but the game is not over "
                                    f"(p{state.current_player} must decide '{state.decision}')", state)
    if record.get("over") and "winner" in record and record["winner"] != state.winner:
        return Outcome(count, state.winner, f"all {count} actions replayed, but the winner is "
                                            f"{_seat(state.winner)}, not {_seat(record['winner'])} as logged", state)
    return Outcome(count, state.winner, None, state)


def _seat(winner) -> str:
    return "nobody" if winner is None else f"p{winner}"
