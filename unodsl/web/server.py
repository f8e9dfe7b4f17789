"""`unodsl serve`: the rooms over HTTP and WebSockets (Starlette), and the page.

Routes: `/` the page (static/), `GET /api/options` what a room may be made with (the shipped house
rules, the variant's rulings), `POST /api/rooms` a new room, `GET /api/rooms/CODE` a room's public
facts and its generated rulebook, and `/ws/CODE` a seat's or a spectator's connection.

On a connection the first message is `{"type": "join", "name": ..., "token": ...}` (no token: a
free seat; the reply `joined` carries the new token) or `{"type": "watch"}`; then `{"type": "act",
"action": "play red_7", "version": N}` and `{"type": "start"}` (bots take the free seats). Every
change of the room sends each connection its own `view` (rooms.Room.view). Sending goes through
one slot per connection holding the newest view, so a client that never reads holds one view,
not a growing queue; replies and errors queue up to a bound past which the connection is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import sys
import time
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..check import check_file, ruling_problem
from ..diagnostics import format_text
from ..rulebook.document import render_rulebook
from ..source import catalog
from ..engine import IllegalAction
from . import combos
from .rooms import Room, RoomError, Seat, new_code
from .store import Store

MAX_MESSAGE = 4096          # bytes of one client message
MAX_RATE = 40               # client messages in one second before the connection is closed
MAX_QUEUED = 32             # replies waiting for a client that does not read
MAX_ROOMS = 1000
TICK = 1.0                  # seconds between looks for seats away past the grace period
ROOM_IDLE = 3600.0          # a room nobody is connected to is closed after this many seconds unchanged


class Lobby:
    """The server's rooms, all for one variant file, each with its own house rules and rulings."""

    def __init__(self, variant_path: str, *, bots: str = "heuristic", players: int = 4, grace: float = 30.0,
                 seed: int | None = None, store: Store | None = None, warn=None, addresses: list[str] = ()):
        self.variant_path = variant_path         # as given: diagnostics name it so
        self.bots = bots
        self.players = players
        self.grace = grace
        self.seed = seed
        self.rooms: dict[str, Room] = {}
        self.base = self.load((), {})       # refuses a broken variant before the server starts
        self.store = store
        self.addresses = list(addresses)     # how the home network reaches this server ("http://192.168.1.20:8000")
        self.variant_key = os.path.abspath(variant_path)     # the rooms a store keeps are per variant file
        self.warn = warn or (lambda message: print(f"unodsl: {message}", file=sys.stderr))
        self.store_failed = False
        if store is not None:
            self.restore()

    def restore(self) -> None:
        """Make again the rooms the store keeps for this variant, each game replayed from its action log."""
        for saved in self.store.rooms(self.variant_key):
            settings = saved["settings"]
            try:
                game = self.load(tuple(settings["house_rules"]), settings["rulings"])
                room = self._room(saved["code"], game, settings)
                room.restore(saved)
            except (RoomError, IllegalAction, ValueError, KeyError, TypeError) as err:
                self.warn(f"room {saved['code']} was not restored (the variant or its house rules changed "
                          f"since it was kept: {str(err).splitlines()[0][:200]})")
                continue
            self.rooms[room.code] = room

    def _room(self, code: str, game, settings: dict) -> Room:
        room = Room(code, game, settings["players"], bots=self.bots, seed=settings["seed"],
                    match=bool(settings["match"]), house_rules=tuple(settings["house_rules"]),
                    rulings=settings["rulings"], rulebook=render_rulebook(game, "text"), grace=self.grace,
                    listed=bool(settings.get("listed")), turn_timer=float(settings.get("turn_timer") or 0))
        if self.store is not None:
            room.listeners.append(self._save)       # before the views are sent: a view never runs ahead
        return room

    def _save(self, room: Room) -> None:
        try:
            self.store.save(room, self.variant_key)
        except sqlite3.Error as err:           # the game goes on in memory; say so once
            if not self.store_failed:
                self.warn(f"the rooms could not be saved to {self.store.path} ({err}): a restart will lose them")
                self.store_failed = True

    def remove(self, code: str) -> None:
        """Close a room: gone from the server and from the store."""
        self.rooms.pop(code, None)
        if self.store is not None:
            try:
                self.store.delete(code)
            except sqlite3.Error:
                pass

    def open_rooms(self) -> list[dict]:
        """The rooms their makers listed that have a free seat and have not started, for the lobby page."""
        out = []
        for room in self.rooms.values():
            if room.listed and room.state is None and not all(s.taken for s in room.seats):
                out.append({"code": room.code, "variant": room.game.variant.name,
                            "house_rules": list(room.house_rules), "match": room.match, "players": room.players,
                            "names": [s.name for s in room.seats if s.taken],
                            "free": sum(not s.taken for s in room.seats)})
        return out

    def load(self, includes: tuple[str, ...], rulings: dict):
        """The variant with shipped house rules laid over it and rulings changed; RoomError lists problems."""
        unknown = [name for name in includes if name not in self.house_rules()]       # never a path
        if unknown:
            raise RoomError(f"unknown house rule {unknown[0]!r} (the shipped ones: {', '.join(self.house_rules())})")
        texts = None
        path = self.variant_path
        if includes:
            # An unsaved file beside the variant that extends it and includes the house rules (never written).
            base = os.path.abspath(self.variant_path)
            stem = os.path.splitext(os.path.basename(base))[0]
            path = os.path.join(os.path.dirname(base), f"{stem}+{'+'.join(includes)}.yaml")   # the rulebook names it
            name = f"{self.base.variant.name} + {', '.join(includes)}"
            texts = {path: (f"unodsl: 1\nname: {json.dumps(name)}\n"
                            f"extends: {json.dumps(base)}\ninclude: {json.dumps(list(includes))}\n")}
        result = check_file(path, rulings=rulings or None, texts=texts)
        if result.errors or result.game is None:
            if includes:        # a page's choice: the problem in words, never the server's paths or codes
                raise RoomError("these choices do not make a game: " + "; ".join(d.message for d in result.errors[:3]))
            raise RoomError(format_text(result.errors) or "the variant defines no cards")
        for name, value in rulings.items():
            problem = ruling_problem(result.game.variant, name, value)
            if problem:
                raise RoomError(problem)
        return result.game

    @staticmethod
    def house_rules() -> list[str]:
        return [s.name for s in catalog.shipped() if s.house_rule]

    def options(self) -> dict:
        v = self.base.variant
        shipped = {s.name: s for s in catalog.shipped()}
        clashes = combos.clashes(self)          # the first call loads each house rule once (seconds)
        return {"variant": v.name, "players": self.players, "bots": self.bots,
                "house_rules": [{"name": n, "title": shipped[n].title, "summary": shipped[n].summary,
                                 "clashes": clashes.get(n, [])} for n in self.house_rules()],
                "rulings": [{"name": r.name, "value": r.value, "summary": r.summary,
                             "choices": list(r.choices) if r.choices else None}
                            for r in v.rulings.values()]}

    def create(self, body: dict) -> Room:
        if len(self.rooms) >= MAX_ROOMS:
            raise RoomError("the server has as many rooms as it takes")
        includes = body.get("include", [])
        rulings = body.get("rulings", {})
        players = body.get("players", self.players)
        if (not isinstance(includes, list) or not all(isinstance(n, str) for n in includes)
                or not isinstance(rulings, dict) or type(players) is not int
                or any(isinstance(v, (dict, list)) for v in rulings.values())):
            raise RoomError('a room is {"players": N, "include": [names], "rulings": {name: value}}')
        clash = combos.first_clash(self, includes)
        if clash:
            raise RoomError(f"these house rules do not go together: {clash}")
        game = self.load(tuple(includes), rulings)
        try:
            game.check_players(players)
        except ValueError as err:
            raise RoomError(str(err)) from None
        timer = body.get("turn_timer", 0) or 0
        if type(timer) not in (int, float) or not 0 <= timer <= 3600:
            raise RoomError("a turn timer is a number of seconds from 0 (none) to 3600")
        code = new_code(set(self.rooms) | (self.store.codes() if self.store is not None else set()))
        room = self._room(code, game, {"players": players, "seed": self.seed, "match": bool(body.get("match", False)),
                                       "house_rules": list(includes), "rulings": rulings,
                                       "listed": bool(body.get("listed", False)), "turn_timer": timer})
        self.rooms[code] = room
        if self.store is not None:
            self._save(room)      # kept from the start: a restart before anyone joins keeps the room
        return room


class Connection:
    """One WebSocket: the seat it plays (None: watching), and what waits to be sent to it."""

    def __init__(self, websocket: WebSocket):
        self.websocket = websocket
        self.seat: Seat | None = None
        self.room: Room | None = None
        self.latest: dict | None = None         # the newest view not sent yet
        self.queued: list[dict] = []            # replies and errors, in order
        self.ready = asyncio.Event()
        self.times: list[float] = []

    def offer_view(self, room: Room) -> None:
        self.latest = room.view(self.seat)
        self.ready.set()

    def reply(self, message: dict) -> bool:
        """Queue a reply; False once a client has left too many unread."""
        if len(self.queued) >= MAX_QUEUED:
            return False
        self.queued.append(message)
        self.ready.set()
        return True

    async def pump(self) -> None:
        """Send what waits, replies first, until cancelled."""
        while True:
            await self.ready.wait()
            self.ready.clear()
            while self.queued:
                await self.websocket.send_text(json.dumps(self.queued.pop(0)))
            if self.latest is not None:
                view, self.latest = self.latest, None
                await self.websocket.send_text(json.dumps(view))

    def flooding(self) -> bool:
        now = time.monotonic()
        self.times = [t for t in self.times if now - t < 1.0] + [now]
        return len(self.times) > MAX_RATE


def create_app(lobby: Lobby) -> Starlette:
    """The Starlette app serving `lobby`'s rooms and the page."""
    static = str(resources.files(__package__) / "static")
    watchers: dict[str, list[Connection]] = {}

    def broadcast(room: Room) -> None:
        for conn in watchers.get(room.code, []):
            conn.offer_view(room)

    for restored in lobby.rooms.values():
        restored.listeners.append(broadcast)

    async def page(request: Request) -> Response:
        return FileResponse(os.path.join(static, "index.html"), media_type="text/html")

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def options(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(lobby.options))       # off the loop: seconds the first time

    async def create(request: Request) -> Response:
        raw = await request.body()
        try:
            body = json.loads(raw or b"{}") if len(raw) <= MAX_MESSAGE else None
            if not isinstance(body, dict):
                raise RoomError("a room is made with a JSON object (at most 4 KB)")
            room = lobby.create(body)
        except (ValueError, RoomError) as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        room.listeners.append(broadcast)
        return JSONResponse({"code": room.code, "room": room.room_info()})

    async def open_rooms(request: Request) -> Response:
        return JSONResponse({"rooms": lobby.open_rooms()})

    async def room_info(request: Request) -> Response:
        room = lobby.rooms.get(request.path_params["code"].upper())
        if room is None:
            return JSONResponse({"error": "no such room"}, status_code=404)
        return JSONResponse({"room": room.room_info(), "rulebook": room.rulebook, "addresses": lobby.addresses})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        room = lobby.rooms.get(websocket.path_params["code"].upper())
        if room is None:
            await websocket.send_text(json.dumps({"type": "error", "message": "no such room"}))
            await websocket.close(code=4404)
            return
        conn = Connection(websocket)
        sender = asyncio.create_task(conn.pump())
        try:
            while True:
                text = await websocket.receive_text()
                if conn.flooding():
                    await websocket.close(code=1008, reason="too many messages")
                    break
                if not _handle(conn, text, room, watchers):
                    await websocket.close(code=1008, reason="too many unread replies")
                    break
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            if conn in watchers.get(room.code, []):
                watchers[room.code].remove(conn)
            if conn.seat is not None:
                room.leave(conn.seat)

    async def ticker() -> None:
        while True:
            await asyncio.sleep(TICK)
            for code, room in list(lobby.rooms.items()):
                room.tick()
                if not watchers.get(code) and room.idle() > ROOM_IDLE:
                    lobby.remove(code)
                    watchers.pop(code, None)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(ticker())
        yield
        task.cancel()

    return Starlette(routes=[
        Route("/", page),
        Route("/favicon.ico", no_icon),
        Route("/api/options", options),
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms", open_rooms, methods=["GET"]),
        Route("/api/rooms/{code}", room_info),
        WebSocketRoute("/ws/{code}", socket),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ], lifespan=lifespan)


def _handle(conn: Connection, text: str, room: Room, watchers: dict) -> bool:
    """Act on one client message; False when the client must be cut off (its replies pile up)."""
    if len(text) > MAX_MESSAGE:
        return conn.reply({"type": "error", "message": "message too long"})
    try:
        message = json.loads(text)
    except ValueError:
        return conn.reply({"type": "error", "message": "not JSON"})
    if not isinstance(message, dict):
        return conn.reply({"type": "error", "message": "a message is a JSON object with a type"})
    kind = message.get("type")
    try:
        if kind in ("join", "watch"):
            if conn.room is not None:
                raise RoomError("this connection has joined already")
            if kind == "join":
                token = message.get("token")
                conn.seat = room.join(str(message.get("name", "")), token if isinstance(token, str) else None)
                conn.reply({"type": "joined", "seat": conn.seat.number, "token": conn.seat.token,
                            "room": room.code})
            conn.room = room
            watchers.setdefault(room.code, []).append(conn)
            conn.offer_view(room)
        elif kind in ("act", "start", "rematch", "chat"):
            if conn.seat is None:
                raise RoomError("join a seat first (spectators do not play)")
            if kind == "start":
                room.start()
            elif kind == "rematch":
                game = message.get("game")
                room.rematch(conn.seat, game if type(game) is int else None)
            elif kind == "chat":
                room.say(conn.seat, message.get("text", ""))
            else:
                action, version = message.get("action"), message.get("version")
                if not isinstance(action, str) or type(version) is not int:
                    raise RoomError('an action is {"type": "act", "action": "...", "version": N}')
                room.act(conn.seat, action, version)
        else:
            raise RoomError(f"unknown message type {str(kind)[:40]!r} (join, watch, start, act, rematch, chat)")
    except RoomError as err:
        return conn.reply({"type": "error", "message": str(err), "version": room.version})
    return True
