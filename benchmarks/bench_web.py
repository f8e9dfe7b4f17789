"""`unodsl serve` under load: 200 WebSocket seats in 50 rooms on the loopback interface.

# Usage: `python benchmarks/bench_web.py [--rooms 50] [--seats 4] [--json]` (needs the web extra)
#
# The server runs in a child process (`python -m unodsl serve`, as a user starts it, with no limit
# of rooms per client: every room here is made from 127.0.0.1); this process
# opens every seat as a WebSocket client (the websockets package), all at once, and each seat
# plays its first choice whenever its view offers choices. Every seat is a person: no bots, so
# each action is one client's message and one change of its room. Reported: actions per second
# over the whole run, and the latency of an action (sent, to the view of the next version
# arriving back), median and p99, and the CPU time of the server and of the clients. Checked, not timed: each action is answered exactly once (one
# view of the next version, no error), every seat's versions only go up, every room's game ends,
# and the room's last version counts exactly the joins and the actions sent (nothing lost,
# nothing done twice). Figures, not a timed test: nothing fails on a slow machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import tempfile
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import HERE, describe_machine, load_average, machine  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


async def _seat(url: str, code: str, name: str, latencies: list, problems: list) -> dict:
    import websockets
    actions = 0
    last = -1
    async with websockets.connect(f"{url.replace('http://', 'ws://', 1)}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "name": name}))
        pending = None              # (version answered, time sent) of the action in flight
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] == "error":
                problems.append(f"{code} {name}: {message['message']}")
                return {"actions": actions, "last": last}
            if message["type"] != "view":
                continue
            if message["version"] <= last:
                problems.append(f"{code} {name}: version {message['version']} after {last}")
            last = message["version"]
            if pending is not None and message["version"] >= pending[0]:
                latencies.append(time.perf_counter() - pending[1])
                pending = None
            if message.get("over"):
                return {"actions": actions, "last": last}
            if message.get("choices") and pending is None:
                pending = (message["version"] + 1, time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": message["choices"][0],
                                          "version": message["version"]}))
                actions += 1


async def _run(url: str, rooms: int, seats: int) -> dict:
    codes = [_post(f"{url}/api/rooms", {"players": seats})["code"] for _ in range(rooms)]
    latencies: list[float] = []
    problems: list[str] = []
    start = time.perf_counter()
    results = await asyncio.gather(*[_seat(url, code, f"s{q}", latencies, problems)
                                     for code in codes for q in range(seats)])
    elapsed = time.perf_counter() - start
    for r, code in enumerate(codes):
        mine = results[r * seats:(r + 1) * seats]
        sent = sum(m["actions"] for m in mine)
        with urllib.request.urlopen(f"{url}/api/rooms/{code}") as answer:
            info = json.loads(answer.read())
        if not all(s["taken"] for s in info["room"]["seats"]):
            problems.append(f"{code}: a seat was not taken")
        final = max(m["last"] for m in mine)
        if final != seats + sent:       # one version per join (the last join deals), one per action
            problems.append(f"{code}: last version {final}, but {seats} joins and {sent} actions")
    latencies.sort()
    pick = (lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0.0)
    return {"rooms": rooms, "seats": rooms * seats, "actions": len(latencies), "seconds": round(elapsed, 2),
            "actions_per_s": round(len(latencies) / elapsed, 1), "latency_ms_p50": round(pick(0.50), 2),
            "latency_ms_p99": round(pick(0.99), 2), "problems": problems}


def serve_classic(players: int, db: str | None, run, *options: str, tries: int = 200) -> dict:
    """Serve classic in a child process (`unodsl serve` at a free loopback port, seed 1, no limit of rooms
    or connections per client: every seat here is 127.0.0.1; `db` the server's --db, a fresh file in a scratch folder
    when None), wait until it answers, and return `run(url, server)`'s figures with the CPU time of the
    clients and of the server (start-up included); the server is stopped whatever happens."""
    scratch = tempfile.TemporaryDirectory() if db is None else None      # removed at return
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    server = subprocess.Popen([sys.executable, "-m", "unodsl", "serve", str(HERE.parent / "variants" / "classic.yaml"),
                               "--port", str(port), "--seed", "1", "--players", str(players), "--rooms-per-client",
                               "0", "--sockets-per-client", "0", "--db", db or os.path.join(scratch.name, "rooms.sqlite3"), *options], env=env,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(tries):                  # the server is up when it answers (a start-up guard)
            try:
                urllib.request.urlopen(f"{url}/api/options").close()
                break
            except OSError:
                time.sleep(0.05)
        client_cpu = time.process_time()
        figures = run(url, server)
        figures["client_cpu_s"] = round(time.process_time() - client_cpu, 2)
    finally:
        server.terminate()
        server.wait()
        if scratch is not None:
            scratch.cleanup()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)     # the one child waited for: the server
    figures["server_cpu_s"] = round(usage.ru_utime + usage.ru_stime, 2)
    figures["machine"] = machine()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--db", default=None, help="The server's --db: a fresh file in a scratch folder unless "
                        "given (the rooms kept as the default server keeps them); ':memory:' keeps nothing.")
    args = parser.parse_args()
    figures = serve_classic(args.seats, args.db, lambda url, server: asyncio.run(_run(url, args.rooms, args.seats)))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{figures['seats']} seats in {figures['rooms']} rooms: {figures['actions']} actions in "
              f"{figures['seconds']} s = {figures['actions_per_s']} actions/s; latency p50 "
              f"{figures['latency_ms_p50']} ms, p99 {figures['latency_ms_p99']} ms")
        print(f"CPU: server {figures['server_cpu_s']} s (start-up included), clients {figures['client_cpu_s']} s")
        print("nothing lost or duplicated" if not figures["problems"] else
              f"{len(figures['problems'])} problems:\n  " + "\n  ".join(figures["problems"][:20]))
        print(describe_machine(figures["machine"], load_average()))
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
