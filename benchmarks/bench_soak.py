"""`unodsl serve` soaked: 200 WebSocket seats in 50 rooms on the loopback interface for a bounded time.

# Usage: `python benchmarks/bench_soak.py [--seconds 60 | --long] [--rooms 50] [--seats 4] [--json]`
#
# The server runs in a child process (`python -m unodsl serve`, as a user starts it, with no limit
# of rooms per client: every seat here comes from 127.0.0.1, and a short --room-ttl, so that a
# finished room nobody is connected to is closed within seconds, not an hour). This process keeps
# `--rooms` rooms playing for `--seconds` (60; `--long` is 600, issue 30's ten minutes): each seat
# is a person playing its first choice (bench_web.py's seats); when a room's game ends its seats
# leave and a new room is made in its place. At the deadline no new action is sent; every action in
# flight is waited for. Reported: the server's resident memory (VmRSS of its process, sampled every
# `--every` seconds) after the first rooms are made, at the end, its peak and its growth over the
# second half of the run; the rooms alive on the server; actions and games. Checked, not timed:
# each action is answered exactly once (a view of the next version, no error), every seat's
# versions only go up, and each room's last version counts exactly the joins and the actions sent
# (nothing lost, nothing done twice), games ended or cut short by the deadline alike. Figures, not a
# timed test: nothing fails on a slow machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import _post, serve_classic  # noqa: E402
from benchlib import describe_machine, load_average  # noqa: E402

ROOM_TTL = 5.0          # the server's --room-ttl here: a finished room goes within seconds


def rss_kb(pid: int) -> int:
    """The resident memory of process `pid` in KB (Linux: /proc), 0 where there is no /proc."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


async def _seat(ws_url: str, code: str, name: str, deadline: float, tally: dict, room: dict) -> dict:
    """Play one seat until its game ends or the deadline passes with no action of its in flight.

    The connection is closed only when every seat of the room has stopped reading (`room`): a seat
    that leaves changes the room, and the others would see that change counted in the last version.
    """
    import websockets
    async with websockets.connect(f"{ws_url}/ws/{code}", max_size=2**22) as ws:
        result = await _play(ws, code, name, deadline, tally)
        room["done"] += 1
        if room["done"] == room["seats"]:
            room["all"].set()
        await room["all"].wait()
    return result


async def _play(ws, code: str, name: str, deadline: float, tally: dict) -> dict:
    """A seat's game: its first choice at each decision; what it sent and the last version it saw."""
    actions = 0
    last = -1
    await ws.send(json.dumps({"type": "join", "name": name}))
    pending = 0                 # the version that answers what is in flight (the join: any view)
    while True:
        if pending is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return {"actions": actions, "last": last, "over": False}
            wait = min(left, 60.0)
        else:
            wait = 60.0         # an action is always answered: a missing answer is a problem
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), wait))
        except asyncio.TimeoutError:
            if pending is not None:
                tally["problems"].append(f"{code} {name}: no answer to the action of version {pending - 1}")
            return {"actions": actions, "last": last, "over": False}
        if message["type"] == "error":
            tally["problems"].append(f"{code} {name}: {message['message']}")
            return {"actions": actions, "last": last, "over": False}
        if message["type"] != "view":
            continue
        if message["version"] <= last:
            tally["problems"].append(f"{code} {name}: version {message['version']} after {last}")
        last = message["version"]
        if pending is not None and message["version"] >= pending:
            pending = None
        if message.get("over"):
            return {"actions": actions, "last": last, "over": True}
        if message.get("choices") and pending is None and time.monotonic() < deadline:
            pending = message["version"] + 1
            await ws.send(json.dumps({"type": "act", "action": message["choices"][0],
                                      "version": message["version"]}))
            actions += 1
            tally["actions"] += 1


async def _table(url: str, seats: int, deadline: float, tally: dict) -> None:
    """One place for a room: a room after another until the deadline, each played to its end."""
    ws_url = url.replace("http://", "ws://", 1)
    while time.monotonic() < deadline:
        code = (await asyncio.to_thread(_post, f"{url}/api/rooms", {"players": seats}))["code"]
        tally["rooms"] += 1
        room = {"seats": seats, "done": 0, "all": asyncio.Event()}
        results = await asyncio.gather(*[_seat(ws_url, code, f"s{q}", deadline, tally, room) for q in range(seats)])
        sent = sum(r["actions"] for r in results)
        final = max(r["last"] for r in results)
        if final != seats + sent:       # one version per join (the last join deals), one per action
            tally["problems"].append(f"{code}: last version {final}, but {seats} joins and {sent} actions")
        tally["games"] += any(r["over"] for r in results)


async def _sample(pid: int, every: float, samples: list, stop: asyncio.Event) -> None:
    start = time.monotonic()
    while not stop.is_set():
        samples.append((round(time.monotonic() - start, 1), rss_kb(pid)))
        try:
            await asyncio.wait_for(stop.wait(), every)
        except asyncio.TimeoutError:
            pass
    samples.append((round(time.monotonic() - start, 1), rss_kb(pid)))


async def _run(url: str, pid: int, rooms: int, seats: int, seconds: float, every: float) -> dict:
    tally = {"actions": 0, "games": 0, "rooms": 0, "problems": []}
    samples: list[tuple[float, int]] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample(pid, every, samples, stop))
    start = time.monotonic()
    await asyncio.gather(*[_table(url, seats, start + seconds, tally) for _ in range(rooms)])
    elapsed = time.monotonic() - start
    with urllib.request.urlopen(f"{url}/api/options") as answer:       # still answering
        json.loads(answer.read())
    stop.set()
    await sampler
    half = [kb for t, kb in samples if t >= elapsed / 2]
    return {"rooms": rooms, "seats": rooms * seats, "seconds": round(elapsed, 1),
            "actions": tally["actions"], "actions_per_s": round(tally["actions"] / elapsed, 1),
            "games_finished": tally["games"], "rooms_made": tally["rooms"],
            "rss_kb_start": samples[0][1], "rss_kb_end": samples[-1][1], "rss_kb_peak": max(kb for _, kb in samples),
            "rss_kb_second_half_growth": (half[-1] - half[0]) if half else 0,
            "rss_samples": samples, "problems": tally["problems"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--long", action="store_true", help="Ten minutes (issue 30's soak).")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--every", type=float, default=5.0, help="Seconds between samples of the server's memory.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--db", default=None, help="The server's --db: a fresh file in a scratch folder unless "
                        "given (the rooms kept as the default server keeps them); ':memory:' keeps nothing.")
    args = parser.parse_args()
    seconds = 600.0 if args.long else args.seconds
    figures = serve_classic(args.seats, args.db,
                            lambda url, server: asyncio.run(_run(url, server.pid, args.rooms, args.seats, seconds,
                                                                 args.every)),
                            "--room-ttl", str(ROOM_TTL), tries=400)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        mb = (lambda kb: f"{kb / 1024:.1f} MB")
        print(f"{figures['seats']} seats in {figures['rooms']} rooms for {figures['seconds']} s: "
              f"{figures['actions']:,} actions ({figures['actions_per_s']}/s), {figures['games_finished']} games "
              f"played to the end, {figures['rooms_made']} rooms made")
        print(f"server memory (RSS): {mb(figures['rss_kb_start'])} at the start, {mb(figures['rss_kb_end'])} at "
              f"the end, peak {mb(figures['rss_kb_peak'])}, {figures['rss_kb_second_half_growth']:+,} KB over the "
              f"second half")
        print("RSS by time: " + ", ".join(f"{t:g} s {kb / 1024:.1f}" for t, kb in figures["rss_samples"]) + " (MB)")
        print(f"CPU: server {figures['server_cpu_s']} s (start-up included), clients {figures['client_cpu_s']} s")
        print("nothing lost or duplicated" if not figures["problems"] else
              f"{len(figures['problems'])} problems:\n  " + "\n  ".join(figures["problems"][:20]))
        print(describe_machine(figures["machine"], load_average()))
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
