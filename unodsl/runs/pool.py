"""The process pool that `simulate` and `compare` share: chunks of games, folded in as they finish.

Each chunk's result is exact sums (Stats, Comparison), so the order chunks finish in does
not change the total, and any worker count gives the same result. A stop (Ctrl-C, or the
`stop` list a signal handler appends to) ends the workers at once.
"""

from __future__ import annotations


def chunks(games: int, workers: int, largest: int = 100):
    """Game ranges for the pool: up to `largest` games, shrinking towards the end.

    Chunks big enough that passing results back costs little next to playing them,
    small enough that a Ctrl-C or the progress bar is never long in coming; the last
    ones small, so that the workers run out of games at about the same time.
    """
    start = 0
    while start < games:
        size = max(1, min(largest, (games - start) // (workers * 4)))
        yield start, min(games, start + size)
        start += size


def ignore_sigint() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_pool(work, jobs: list, workers: int, initializer, initargs: tuple, fold, progress=None,
             stop: list | None = None) -> None:
    """Run `work(job)` for every job on `workers` processes; `fold(result)` each, then `progress()`."""
    import multiprocessing
    stop = stop if stop is not None else []
    remaining = len(jobs)
    pool = None
    try:
        if stop:
            return
        pool = multiprocessing.Pool(workers, initializer=initializer, initargs=initargs)
        results = pool.imap_unordered(work, jobs)
        while remaining and not stop:
            try:
                part = results.next(timeout=0.1)
            except multiprocessing.TimeoutError:
                continue
            fold(part)
            remaining -= 1
            if progress:
                progress()
    except KeyboardInterrupt:
        stop.append("interrupted")
    finally:
        if pool is not None:
            if stop:
                pool.terminate()
            else:
                pool.close()
            pool.join()
