"""A remote agent: a program that plays a unodsl seat over a WebSocket (`--bots ws://127.0.0.1:8765`).

unodsl connects to it and sends JSON messages (docs/agents.md, "A remote program"): `reset` when a game
starts, `decide` for every decision (the seat's text view, its observation and its legal actions), and
`result` at the end. The program answers each `decide` with `{"action": "..."}`. This one plays a card
when it can (calling UNO when offered), else the first legal action; any language with a WebSocket
server can do the same.

    python docs/examples/agents/remote_agent.py --port 8765
"""

from __future__ import annotations

import argparse
import json

from websockets.sync.server import serve


def choose(message: dict) -> str:
    legal = message["legal"]
    plays = [a for a in legal if a.startswith("play")]
    unos = [a for a in plays if a.endswith(" uno")]
    return (unos or plays or legal)[0]


def handle(connection) -> None:
    """One connection: one seat, for as many games as unodsl plays through it."""
    for raw in connection:
        message = json.loads(raw)
        if message["type"] == "decide":
            connection.send(json.dumps({"action": choose(message)}))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    with serve(handle, args.host, args.port) as server:
        print(f"remote agent listening on ws://{args.host}:{args.port}", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
