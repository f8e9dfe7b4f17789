"""The ladder: seat specs play paired deals with their seats rotated, the results go to a file line by line
(a run stopped half-way goes on where it stopped), and `ratings` rates every entrant on one scale.

Every table of `players` entrants (each combination of the pool) plays deal d of the run for every
rotation of its seats: deal d is the engine seeded `game_seed(seed, d)`, the same deal for every table
and every rotation, so luck cancels within a table and tables meet the same cards. Seats are seeded as
every front end seeds them (`seat_rng`). A forfeit loses: the winner is then the other seat with the
fewest cards (the earlier seat on a tie).
"""

from __future__ import annotations

import itertools
import json
import os
from collections import Counter
from dataclasses import dataclass

from ..agents.seats import Forfeit, check_seat, game_over, make_seat, seat_rng, wants_events
from ..runs.seeds import game_seed

ANCHORS = ("random", "heuristic", "expert", "pimc:20", "ismcts:100")
VERSION = 1


class LadderError(Exception):
    """A results file that belongs to another ladder, or cannot be read; the message says which."""


@dataclass(frozen=True)
class Game:
    """One game of the schedule: the table (entrants in pool order), the deal, the rotation of the seats."""

    table: tuple[str, ...]
    deal: int
    rotation: int

    @property
    def seats(self) -> tuple[str, ...]:
        """The entrant at each seat: the table rotated by `rotation`."""
        n = len(self.table)
        return tuple(self.table[(q + self.rotation) % n] for q in range(n))

    def key(self) -> tuple:
        return (self.table, self.deal, self.rotation)


def schedule(pool: list[str], players: int, deals: int) -> list[Game]:
    """Every game of a ladder, deal by deal (so a stopped run has rated every table alike so far)."""
    tables = list(itertools.combinations(pool, players))
    return [Game(table, deal, rotation) for deal in range(deals) for table in tables for rotation in range(players)]


def play_game(game, item: Game, seed: int) -> dict:
    """Play one game of the schedule and return its record (a results-file line)."""
    specs = list(item.seats)
    engine_seed = game_seed(seed, item.deal)
    state = game.new_game(len(specs), seed=engine_seed, record=wants_events(specs))
    seats = [make_seat(spec, seat_rng(engine_seed, q)) for q, spec in enumerate(specs)]
    forfeit = None
    while not state.is_over:
        q = state.current_player
        try:
            state.apply_id(seats[q].act(state))
        except Forfeit:
            forfeit = q
            break
    if forfeit is None:
        game_over(seats, state)
        winner = state.winner
    else:
        others = [q for q in range(state.n) if q != forfeit]
        winner = min(others, key=lambda q: (len(state.hands[q]), q))
    incidents = Counter()
    for seat in seats:
        incidents.update(getattr(seat, "incidents", {}))
    return {"type": "game", "table": list(item.table), "deal": item.deal, "rotation": item.rotation,
            "seats": specs, "seed": engine_seed, "winner": winner, "forfeit": forfeit,
            "turns": state.total_turns, "stalled": bool(state.stalled), "incidents": dict(incidents)}


def header(game, players: int, seed: int) -> dict:
    return {"type": "ladder", "version": VERSION, "variant": game.variant.name, "digest": game.digest,
            "players": players, "seed": seed}


def read_results(path: str) -> tuple[dict | None, list[dict]]:
    """The header and the game records of a results file ((None, []) when there is none yet). A last line cut
    short by a stop is dropped (it is played again)."""
    if not os.path.exists(path):
        return None, []
    head, games = None, []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number >= len(lines) - 1:
                continue                        # the line a stop cut short
            raise LadderError(f"{path}:{number}: not a ladder results line") from None
        if not isinstance(record, dict):
            raise LadderError(f"{path}:{number}: not a ladder results line")
        if record.get("type") == "ladder":
            head = record
        elif record.get("type") == "game":
            games.append(record)
    if games and head is None:
        raise LadderError(f"{path}: no ladder header line: not a ladder's results")
    return head, games


def run_ladder(game, pool: list[str], path: str, *, players: int = 2, deals: int = 20, seed: int = 1,
               workers: int = 1, progress=None, stop: list | None = None) -> list[dict]:
    """Play the games of the schedule not in the results file yet, appending each as it ends; return every record.

    Refuses (LadderError) a file of another variant, seed or table size. `stop` (a list a signal
    handler appends to) ends the run between two games; what was played is kept.
    """
    for spec in pool:
        check_seat(spec)
    if len(set(pool)) != len(pool):
        raise LadderError("an entrant is listed twice")
    if len(pool) < players:
        raise LadderError(f"a table of {players} needs {players} entrants at least")
    want = header(game, players, seed)
    head, done = read_results(path)
    if head is not None:
        for field in ("variant", "digest", "players", "seed"):
            if head.get(field) != want[field]:
                raise LadderError(f"{path} holds another ladder's results ({field} {head.get(field)!r}, "
                                  f"this one {want[field]!r}): give another --results file")
    played = {(tuple(r["table"]), r["deal"], r["rotation"]) for r in done}
    todo = [item for item in schedule(pool, players, deals) if item.key() not in played]
    stop = stop if stop is not None else []
    _drop_cut_line(path)
    with open(path, "a", encoding="utf-8") as out:
        if head is None:
            out.write(json.dumps(want) + "\n")
            out.flush()

        def keep(record: dict) -> None:
            out.write(json.dumps(record) + "\n")
            out.flush()
            done.append(record)
            if progress:
                progress(len(done))

        if workers <= 1 or len(todo) < 2:
            for item in todo:
                if stop:
                    break
                keep(play_game(game, item, seed))
        else:
            _parallel(game, todo, seed, workers, keep, stop)
    return done


def _drop_cut_line(path: str) -> None:
    """Take off a last line that a stop cut short (no newline after it), so that the next record starts a line."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


_worker_game = None


def _play_job(job) -> dict:
    item, seed = job
    return play_game(_worker_game, item, seed)


def _parallel(game, todo: list[Game], seed: int, workers: int, keep, stop: list) -> None:
    import multiprocessing

    from ..runs.pool import ignore_sigint
    global _worker_game
    _worker_game = game                     # forked workers start with it compiled
    context = multiprocessing.get_context("fork")
    try:
        with context.Pool(workers, initializer=ignore_sigint) as pool:
            for record in pool.imap_unordered(_play_job, [(item, seed) for item in todo]):
                keep(record)
                if stop:
                    pool.terminate()
                    break
    finally:
        _worker_game = None
