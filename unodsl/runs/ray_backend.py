"""`simulate --backend ray` and `compare --backend ray`: the same chunks of games as the process pool, as Ray tasks.

Ray schedules the tasks on a local Ray it starts for the run (`--workers` CPUs), or on the
cluster that `RAY_ADDRESS` (or `address`) names. Game i is seeded from (seed, i) alone and
the statistics are exact sums, so the result is the same as with any other backend and
worker count. At most two chunks a worker are in flight, so memory stays flat however many
games are asked for. docs/scale.md says how to run it on a cluster.
"""

from __future__ import annotations

import os

from .pool import chunks
from .simulate import Stats, run_range
from .studies import NO_STUDIES

_games: dict = {}               # per worker process: (path, root, rulings, fast) -> the compiled Game


def _chunk(path: str, root: str | None, rulings: dict | None, fast: bool | None, texts: dict | None,
           job: tuple) -> Stats:
    """One chunk of games, in a Ray worker: the variant is loaded once per worker process."""
    key = (path, root, tuple(sorted((rulings or {}).items())), fast, tuple(sorted((texts or {}).items())))
    game = _games.get(key)
    if game is None:
        from ..check import load
        game = _games[key] = load(path, root, rulings, fast=fast, texts=texts)
    players, seed, start, stop, bots, match, measure, plan, keep_rows = job
    return run_range(game, players, seed, start, stop, bots, match, measure=measure, plan=plan, keep_rows=keep_rows)


def _compare_chunk(sides: tuple, fast: bool | None, job: tuple):
    """One chunk of paired games, in a Ray worker: both sides are loaded once per worker process."""
    from .compare import compare_games
    games = []
    for path, root, rulings, texts in sides:
        key = (path, root, tuple(sorted((rulings or {}).items())), fast, tuple(sorted((texts or {}).items())))
        if key not in _games:
            from ..check import load
            _games[key] = load(path, root, rulings, fast=fast, texts=texts)
        games.append(_games[key])
    players, seed, start, stop, bots, match, plan, keep_rows = job
    return compare_games(*games, stop - start, players, seed, bots, match, start, plan=plan, keep_rows=keep_rows)


def run_on_ray(path: str, root: str | None, rulings: dict | None, games: int, players: int, seed: int,
               bots: list[str], workers: int, match: bool, progress, stop: list, measure: bool,
               fast: bool | None = None, address: str | None = None, texts: dict | None = None,
               plan=None, on_rows=None) -> Stats:
    """Play `games` games as Ray tasks and return their statistics (the arguments as simulate.simulate's)."""
    total = Stats(players)

    def fold(part) -> None:
        if on_rows is not None:
            on_rows(part.rows)
            part.rows = []
        total.merge(part)
    _run(_chunk, lambda first, last: (path, root, rulings, fast, texts,
                                      (players, seed, first, last, bots, match, measure, plan or NO_STUDIES,
                                       on_rows is not None)),
         games, workers, fold, (lambda: progress(total.games)) if progress else None, stop, address)
    return total


def compare_on_ray(sides: tuple, games: int, players: int, seed: int, bots: list[str], workers: int,
                   match: bool = False, progress=None, stop: list | None = None, fast: bool | None = None,
                   address: str | None = None, plan=None, on_rows=None):
    """Compare two sides as Ray tasks (the arguments as compare.compare's) and return the Comparison."""
    from .compare import Comparison
    plan = plan or NO_STUDIES
    total = Comparison(ladder=plan.ladder if plan.games else ())

    def fold(part) -> None:
        if on_rows is not None:
            on_rows(part.rows)
            part.rows = []
        total.merge(part)
    _run(_compare_chunk, lambda first, last: (sides, fast, (players, seed, first, last, bots, match, plan,
                                                            on_rows is not None)),
         games, workers, fold, (lambda: progress(total.games)) if progress else None,
         stop if stop is not None else [], address)
    return total


def _run(function, arguments, games: int, workers: int, fold, progress, stop: list, address: str | None) -> None:
    """Run `function(*arguments(first, last))` for every chunk of games as Ray tasks; `fold` each result."""
    import ray
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
            started = True
    task = ray.remote(function)
    ranges = iter(chunks(games, max(1, workers)))
    in_flight: list = []
    try:
        while True:
            while not stop and len(in_flight) < 2 * max(1, workers):
                first_last = next(ranges, None)
                if first_last is None:
                    break
                in_flight.append(task.remote(*arguments(*first_last)))
            if not in_flight or stop:
                break
            done, in_flight = ray.wait(in_flight, num_returns=1, timeout=0.1)
            for ref in done:
                fold(ray.get(ref))              # exact sums: the order chunks finish in does not matter
                if progress:
                    progress()
    except KeyboardInterrupt:
        stop.append("interrupted")
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
