"""`simulate --backend ray`: the same chunks of games as the process pool, as Ray tasks.

Ray schedules the tasks on a local Ray it starts for the run (`--workers` CPUs), or on the
cluster that `RAY_ADDRESS` (or `address`) names. Game i is seeded from (seed, i) alone and
the statistics are exact sums, so the result is the same as with any other backend and
worker count. At most two chunks a worker are in flight, so memory stays flat however many
games are asked for. docs/scale.md says how to run it on a cluster.
"""

from __future__ import annotations

import os

from .simulate import Stats, _chunks, run_range

_games: dict = {}               # per worker process: (path, root, rulings, fast) -> the compiled Game


def _chunk(path: str, root: str | None, rulings: dict | None, fast: bool | None, texts: dict | None,
           job: tuple) -> Stats:
    """One chunk of games, in a Ray worker: the variant is loaded once per worker process."""
    key = (path, root, tuple(sorted((rulings or {}).items())), fast, tuple(sorted((texts or {}).items())))
    game = _games.get(key)
    if game is None:
        from ..check import load
        game = _games[key] = load(path, root, rulings, fast=fast, texts=texts)
    players, seed, start, stop, bots, match, measure = job
    return run_range(game, players, seed, start, stop, bots, match, measure=measure)


def run_on_ray(path: str, root: str | None, rulings: dict | None, games: int, players: int, seed: int,
               bots: list[str], workers: int, match: bool, progress, stop: list, measure: bool,
               fast: bool | None = None, address: str | None = None, texts: dict | None = None) -> Stats:
    """Play `games` games as Ray tasks and return their statistics (the arguments as simulate.simulate's)."""
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
    task = ray.remote(_chunk)
    total = Stats(players)
    ranges = iter(_chunks(games, max(1, workers)))
    in_flight: list = []
    try:
        while True:
            while not stop and len(in_flight) < 2 * max(1, workers):
                first_last = next(ranges, None)
                if first_last is None:
                    break
                job = (players, seed, *first_last, bots, match, measure)
                in_flight.append(task.remote(path, root, rulings, fast, texts, job))
            if not in_flight or stop:
                break
            done, in_flight = ray.wait(in_flight, num_returns=1, timeout=0.1)
            for ref in done:
                total.merge(ray.get(ref))          # exact sums: the order chunks finish in does not matter
                if progress:
                    progress(total.games)
    except KeyboardInterrupt:
        stop.append("interrupted")
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
    return total
