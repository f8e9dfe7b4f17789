"""`ws://` seats: a remote program that decides over a WebSocket, speaking the JSON protocol of docs/agents.md.

unodsl is the client: it connects to the program's URL, sends `reset` at a game's start, one `decide`
message per decision (wire.decision_message: the seat's text view, observation and legal actions) and
waits for `{"action": "play red_7"}`, and sends `result` at the end. A decision given up (the seat's
timeout) closes the connection; the next one connects again.
"""

from __future__ import annotations

import contextlib
import json

from . import wire

MAX_REPLY = 65536             # bytes of one reply


class RemoteAgent:
    """An agent whose decisions a remote program makes (the seat protocol over a WebSocket)."""

    def __init__(self, url: str, legal: str = "yes"):
        try:
            from websockets.sync.client import connect
        except ImportError:
            raise ValueError("ws:// seats need the websockets package (pip install 'unodsl[web]')") from None
        self._connect = connect
        self.url = url
        self.legal = legal not in ("no", "false", "0")
        self.conn = None
        self._busy = False
        self._game = None
        self._seat = -1

    def _open(self):
        if self.conn is None or self._busy:       # never opened, or a decision was given up mid-way
            self.close()
            self._stack = contextlib.ExitStack()
            self.conn = self._stack.enter_context(self._connect(self.url, open_timeout=10, max_size=MAX_REPLY,
                                                                close_timeout=1))
            if self._game is not None:
                self.conn.send(json.dumps(wire.reset_message(self._seat, self._game)))
        return self.conn

    def reset(self, seat: int, game) -> None:
        self._seat, self._game = seat, game
        self.close()
        self._open()

    def act(self, view):
        conn = self._open()
        self._busy = True
        conn.send(json.dumps(wire.decision_message(view, legal=self.legal)))
        reply = json.loads(conn.recv())
        self._busy = False
        if not isinstance(reply, dict) or not isinstance(reply.get("action"), (str, int)):
            raise ValueError(f"the remote program's reply is not {{\"action\": ...}}: {str(reply)[:120]}")
        return reply["action"]

    def observe_result(self, result: dict) -> None:
        if self.conn is not None and not self._busy:
            self.conn.send(json.dumps(wire.result_message(result)))

    def close(self) -> None:
        if self.conn is not None:
            try:
                self._stack.close()
            except Exception:               # noqa: BLE001 - closing a broken connection
                pass
            self.conn = None
        self._busy = False
