"""`unodsl mcp`: a Model Context Protocol server (the official `mcp` SDK, the mcp extra) that seats a model.

Tools: `rulebook` (the generated rulebook, whole or one section), `start_game` (a game against bots, here),
`join_room` and `start_room` (an ordinary seat at a `unodsl serve` room, so that people, bots and models
share one table), `view` (the seat's text view), `act` (an action string; a refusal quotes the engine's
reason, and after `retries` refusals the fallback plays), `wait_for_turn`, and, only with `--assist`,
`legal_actions`. Every reply is built from the seat's own view (unodsl.text), never from another seat's.
"""

from __future__ import annotations

import json
import re
import time

from .text import rulebook_section
from .text.env import TextEnv

INSTRUCTIONS = (
    "You sit at a table of a card game of the UNO family whose rules may differ from the UNO you know: read "
    "them with the `rulebook` tool. Start a game with `start_game` (against bots) or `join_room` (a table "
    "with people). Then read `view` and answer with `act` (an action string such as 'play red_7', "
    "'play red_7 uno', 'draw', 'color blue'); a refused action comes back with the rule that refused it.")
ROOM_LOG = 20                 # lines of a room's log in its text view


class Seat:
    """Where the model sits: a local game (TextEnv) or a room of `unodsl serve` (RoomSeat)."""


class LocalSeat(Seat):
    """A game here against bots, through the text environment."""

    def __init__(self, env: TextEnv):
        self.env = env

    def view(self) -> str:
        seat, text = self.env.observation()
        return text

    def act(self, action: str) -> str:
        done, info = self.env.step(action)
        if not info["accepted"] and not info["fallback"]:
            return f"refused: {info['reason']} ({info['tries_left']} tries left)\n\n{self.view()}"
        head = (f"refused: {info['reason']}; the fallback played {info['action']} for you"
                if info["fallback"] and "action" in info else
                "you forfeit the game" if info.get("forfeit") else f"you: {info['action']}")
        return f"{head}\n\n{self.view()}"

    def wait(self, timeout: float) -> str:
        return self.view()                  # bots answer at once: it is your turn, or the game is over

    def legal(self) -> list[str]:
        return [] if self.env.done else self.env.state.legal_actions()

    def incidents(self) -> dict:
        return dict(self.env.incidents)


class RoomSeat(Seat):
    """A seat at a `unodsl serve` room, over its WebSocket protocol (docs/play.md), as a browser holds one."""

    CODE = re.compile(r"^[A-Z0-9]{6}$")

    def __init__(self, server: str, code: str, name: str, timeout: float = 10.0):
        from websockets.sync.client import connect
        code = code.strip().upper()
        if not self.CODE.match(code):
            raise ValueError(f"'{code}' is not a room code (six letters and digits)")
        base = server.strip().rstrip("/")
        base = re.sub(r"^http", "ws", base) if base.startswith("http") else base
        if not base.startswith(("ws://", "wss://")):
            base = "ws://" + base
        import contextlib
        self._stack = contextlib.ExitStack()
        self.conn = self._stack.enter_context(connect(f"{base}/ws/{code}", open_timeout=timeout, close_timeout=1))
        self.timeout = timeout
        self.latest: dict = {}
        self.seat = -1
        self.conn.send(json.dumps({"type": "join", "name": name}))
        reply = self._until(lambda m: m.get("type") in ("joined", "error"))
        if reply.get("type") == "error":
            self.close()
            raise ValueError(f"the room refused the seat: {reply.get('message')}")
        self.seat = reply["seat"]

    def _receive(self, timeout: float) -> dict | None:
        try:
            message = json.loads(self.conn.recv(timeout=timeout))
        except TimeoutError:
            return None
        if message.get("type") == "view":
            self.latest = message
        return message

    def _until(self, done, timeout: float | None = None) -> dict:
        end = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return {}
            message = self._receive(left)
            if message is not None and done(message):
                return message

    def _drain(self) -> None:
        while self._receive(0.05) is not None:
            pass

    def view(self) -> str:
        self._drain()
        return room_text(self.latest, self.seat)

    def start(self) -> str:
        self.conn.send(json.dumps({"type": "start"}))
        self._until(lambda m: m.get("type") == "error" or (m.get("type") == "view" and m.get("started")))
        return self.view()

    def act(self, action: str) -> str:
        self._drain()
        version = self.latest.get("version", 0)
        self.conn.send(json.dumps({"type": "act", "action": action, "version": version}))
        reply = self._until(lambda m: m.get("type") == "error" or
                            (m.get("type") == "view" and m.get("version", 0) > version))
        if reply.get("type") == "error":
            return f"refused: {reply.get('message')}\n\n{self.view()}"
        return f"you: {action}\n\n{self.view()}"

    def wait(self, timeout: float) -> str:
        self._drain()
        if not self._ready(self.latest):
            self._until(lambda m: m.get("type") == "view" and self._ready(m), timeout)
        return self.view()

    def _ready(self, message: dict) -> bool:
        return bool(message.get("over") or message.get("decision"))

    def legal(self) -> list[str]:
        self._drain()
        return list(self.latest.get("choices", []))

    def incidents(self) -> dict:
        return {}

    def close(self) -> None:
        try:
            self._stack.close()
        except Exception:                   # noqa: BLE001
            pass


def room_text(message: dict, seat: int) -> str:
    """A room's view of a seat (rooms.Room.view) in the text view's words (narration.screen_lines); the room's
    log shows its last ROOM_LOG lines."""
    from .rulebook.narration import screen_lines
    if not message:
        return "no view yet"
    if not message.get("started"):
        seats = message["room"]["seats"]
        taken = ", ".join(f"p{s['seat']} {s['name']}" for s in seats if s["taken"]) or "nobody"
        return (f"room {message['room']['code']} ({message['room']['variant']}): the game has not started; "
                f"seated: {taken}. Call start_room to start it (bots take the free seats), or wait.")
    seats = message["room"]["seats"]
    obs = {
        "player": seat, "round": message["round"], "turn": message["turn"], "top": message["top"],
        "color": message["color"], "direction": message["direction"], "draw_pile": message["draw_pile"],
        "discard_pile": message["discard_pile"], "stack": message["stack"], "lock": message["lock"],
        "hand_sizes": [s["cards"] for s in seats], "uno_called": [s["uno"] for s in seats],
        "eliminated": [s["out"] for s in seats], "dealer": next((s["seat"] for s in seats if s["dealer"]), -1),
        "scores": message["scores"], "revealed": message.get("revealed", {}),
        "hand": [card for group in message.get("hand", []) for card in group], "drawn": message.get("drawn"),
        "decision": message.get("decision", ""), "over": message["over"],
        "current_player": seat if message.get("decision") else message["deciding"],
    }
    lines = screen_lines(_RoomCards(message), obs, message.get("log", [])[-ROOM_LOG:], None)
    extra = message.get("variables", [])
    if extra:
        at = next(i for i, line in enumerate(lines) if line.startswith("your hand"))
        lines[at:at] = extra
    if message["over"]:
        winner = message.get("winner")
        lines.append(f"the game is over: {'nobody' if winner is None else f'p{winner}'} wins")
    return "\n".join(lines)


class _RoomCards:
    """What narration.screen_lines needs of a Game to sort a hand, read from a room's view (its hand is
    grouped by color already; the order within a group is kept)."""

    def __init__(self, message: dict):
        self.card_index = {}
        self.k_wild, self.k_color, self.k_number = [], [], []
        for group_number, group in enumerate(message.get("hand", [])):
            for card in group:
                if card not in self.card_index:
                    self.card_index[card] = len(self.k_wild)
                    self.k_wild.append(False)
                    self.k_color.append(group_number)
                    self.k_number.append(len(self.k_number))


def build_server(game, *, assist: bool = False, retries: int = 2):
    """The MCP server for `game` (a compiled variant): its tools, one seat at a time."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("unodsl", instructions=INSTRUCTIONS)
    held: dict = {"seat": None}

    def seat() -> Seat:
        if held["seat"] is None:
            raise ToolError("no game yet: call start_game (against bots) or join_room (a unodsl serve room)")
        return held["seat"]

    @server.tool()
    def rulebook(section: str = "") -> str:
        """The rules of this variant, generated from its file: the whole rulebook, or one section by its title
        (e.g. 'A turn', 'What the cards do', 'Scoring')."""
        try:
            return rulebook_section(game, section or None)
        except KeyError as err:
            raise ToolError(str(err.args[0])) from None

    @server.tool()
    def start_game(players: int = 2, opponents: str = "heuristic", seed: int = 0, seat: int = 0) -> str:
        """Start a game here against bots (`opponents`: a bot such as heuristic, expert, ismcts:200, or a comma
        list seated in turn); you play `seat`. Returns your view when you first decide."""
        from .agents.seats import check_seat
        try:
            for spec in opponents.split(","):
                check_seat(spec)
            env = TextEnv(game, players, text_seats=(seat,), opponents=opponents, seed=seed, retries=retries)
        except ValueError as err:
            raise ToolError(str(err)) from None
        _close(held)
        env.reset(seed)
        held["seat"] = LocalSeat(env)
        return held["seat"].view()

    @server.tool()
    def join_room(server_url: str, code: str, name: str = "model") -> str:
        """Take a free seat at a room of `unodsl serve` (server_url such as http://127.0.0.1:8000, code the
        room's six letters), as a person would from a browser. Returns the room's view."""
        try:
            new = RoomSeat(server_url, code, name)
        except ImportError:
            raise ToolError("joining a room needs the websockets package (pip install 'unodsl[web]')") from None
        except (OSError, ValueError) as err:
            raise ToolError(f"cannot join the room: {err}") from None
        _close(held)
        held["seat"] = new
        return new.view()

    @server.tool()
    def start_room() -> str:
        """Start the room's game now (bots take the seats nobody took)."""
        current = seat()
        if not isinstance(current, RoomSeat):
            raise ToolError("start_room is for a room joined with join_room")
        return current.start()

    @server.tool()
    def view() -> str:
        """Your view of the game now: what happened since your last move, the table, your hand, your decision."""
        return seat().view()

    @server.tool()
    def act(action: str) -> str:
        """Take an action ('play red_7', 'play red_7 uno', 'draw', 'keep', 'pass', 'color blue', 'target 2',
        'challenge', 'accept', ...). A refused action comes back with the engine's reason."""
        current = seat()
        if isinstance(current, LocalSeat) and current.env.done:
            raise ToolError("the game is over: start_game starts another")
        return current.act(action)

    @server.tool()
    def wait_for_turn(timeout: float = 30.0) -> str:
        """Wait (up to `timeout` seconds) until you must decide or the game is over; returns your view."""
        return seat().wait(max(0.0, min(timeout, 300.0)))

    if assist:
        @server.tool()
        def legal_actions() -> str:
            """The actions legal for you now, one a line (assist mode only)."""
            return "\n".join(seat().legal())

    return server


def _close(held: dict) -> None:
    old = held.get("seat")
    if isinstance(old, RoomSeat):
        old.close()
    held["seat"] = None
