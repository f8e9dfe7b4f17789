"""`unodsl serve` in a process of its own, for the tests that kill it and start it again."""

from __future__ import annotations

import socket
import subprocess
import sys


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, db: str, *options: str, wait: float) -> subprocess.Popen:
    """Serve classic on `port` with the store `db` (and `options`), once it listens; `wait` bounds each
    connection attempt (a hang guard, never a measure)."""
    process = subprocess.Popen([sys.executable, "-m", "unodsl", "serve", "variants/classic.yaml", "--port", str(port),
                                "--db", db, *options], stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()             # "unodsl: serving ..." is written just before it listens
    assert "serving" in line, line
    while True:                                  # the port: connect until it answers (or the server died)
        assert process.poll() is None, process.stderr.read()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=wait).close()
            return process
        except ConnectionRefusedError:
            pass
