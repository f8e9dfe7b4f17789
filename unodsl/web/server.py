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

A hostile client (docs/reliability.md, "The server under a hostile client"): a room's variant is
checked and compiled in a worker thread, one at a time, never in the event loop, and each
combination of house rules and rulings once (kept, COMPILED_KEPT of them); repeated or unknown house
rules are refused before any check. Every message is read with bounds (size, nesting, no NaN) and
every malformed one, binary frames included, gets the JSON error reply; replies say what is wrong in
words and name no file of the server's. One client address holds at most `rooms_per_client` rooms
and `sockets_per_client` WebSocket connections at once; a room nobody is connected to closes `unstarted_ttl` seconds after its last change if it
was never started, `room_ttl` seconds (an hour) if it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from importlib import resources

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
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
MAX_NESTING = 8             # levels of [] and {} in one client message (the protocol uses 3)
MAX_ROOMS = 1000
ROOMS_PER_CLIENT = 20       # rooms one client address may hold at once (0: no limit)
SOCKETS_PER_CLIENT = 64     # WebSocket connections one client address may hold open at once (0: no limit)
UNSTARTED_TTL = 600.0       # a room never started, nobody connected, is closed after this many seconds unchanged
COMPILED_KEPT = 32          # combinations of house rules and rulings kept compiled
TICK = 1.0                  # seconds between looks for seats away past the grace period
ROOM_IDLE = 3600.0          # a room nobody is connected to is closed after this many seconds unchanged (room_ttl)

log = logging.getLogger("unodsl.web")


class Refused(RoomError):
    """A request refused for the server's sake, not the request's (too many rooms): HTTP 429."""


class Lobby:
    """The server's rooms, all for one variant file, each with its own house rules and rulings."""

    def __init__(self, variant_path: str, *, bots: str = "heuristic", players: int = 4, grace: float = 30.0,
                 seed: int | None = None, rooms_per_client: int = ROOMS_PER_CLIENT,
                 sockets_per_client: int = SOCKETS_PER_CLIENT,
                 unstarted_ttl: float = UNSTARTED_TTL, room_ttl: float = ROOM_IDLE, clock=time.monotonic,
                 store: Store | None = None, warn=None, addresses=()):
        self.variant_path = variant_path         # as given: diagnostics name it so
        self.bots = bots
        self.players = players
        self.grace = grace
        self.seed = seed
        self.rooms_per_client = rooms_per_client
        self.sockets_per_client = sockets_per_client
        self.sockets: dict[str, int] = {}         # client address -> its WebSocket connections open now
        self.unstarted_ttl = unstarted_ttl
        self.room_ttl = room_ttl
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.owners: dict[str, str] = {}          # room code -> the client address that made it
        self.making: dict[str, int] = {}          # client address -> its rooms being checked now
        self.shipped = {s.name: s for s in catalog.shipped()}      # read once: it parses every shipped file
        self.compiled: OrderedDict = OrderedDict()      # (file stamp, includes, rulings) -> (Game, rulebook)
        self.compiling = threading.Lock()               # the cache is filled from worker threads
        self.base = self.load((), {}, public=False)     # refuses a broken variant before the server starts
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
                game, rulebook = self.compile(tuple(settings["house_rules"]), settings["rulings"])
                room = self._room(saved["code"], game, rulebook, settings)
                room.restore(saved)
            except (RoomError, IllegalAction, ValueError, KeyError, TypeError) as err:
                self.warn(f"room {saved['code']} was not restored (the variant or its house rules changed "
                          f"since it was kept: {str(err).splitlines()[0][:200]})")
                continue
            self.rooms[room.code] = room

    def _room(self, code: str, game, rulebook: str, settings: dict) -> Room:
        room = Room(code, game, settings["players"], bots=self.bots, seed=settings["seed"],
                    match=bool(settings["match"]), house_rules=tuple(settings["house_rules"]),
                    rulings=settings["rulings"], rulebook=rulebook, grace=self.grace, clock=self.clock,
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

    def load(self, includes: tuple[str, ...], rulings: dict, *, public: bool = True):
        """The variant with shipped house rules laid over it and rulings changed; RoomError lists problems.

        Slow (a check and a compilation) unless the combination is kept: the server calls it in a
        worker thread. `public`: the problems as a client is told them, naming no file of the server.
        """
        return self.compile(includes, rulings, public=public)[0]

    def compile(self, includes: tuple[str, ...], rulings: dict, *, public: bool = True) -> tuple:
        """(Game, its rulebook as text) of a combination, compiled once and kept (the last COMPILED_KEPT)."""
        self.check_includes(includes)
        entry = self.cached(includes, rulings)
        if entry is not None:
            return entry
        if rulings:             # checked against the variant with its house rules first: said in words
            game = self.compile(includes, {}, public=public)[0]
            for name, value in rulings.items():
                problem = ruling_problem(game.variant, name, value)
                if problem:
                    raise RoomError(problem)
        game = self._check(includes, rulings, public)
        entry = (game, render_rulebook(game, "text"))
        with self.compiling:
            self.compiled[self._key(includes, rulings)] = entry
            while len(self.compiled) > COMPILED_KEPT:
                self.compiled.popitem(last=False)
        return entry

    def cached(self, includes: tuple[str, ...], rulings: dict) -> tuple | None:
        """The kept (Game, rulebook) of a combination, or None; quick (the event loop asks)."""
        key = self._key(includes, rulings)
        with self.compiling:        # held only around the dict, never during a check
            if key in self.compiled:
                self.compiled.move_to_end(key)
                return self.compiled[key]
        return None

    def _key(self, includes, rulings) -> tuple:
        try:
            stamp = os.stat(self.variant_path).st_mtime_ns      # an edited variant is compiled again
        except OSError:
            stamp = None
        return (stamp, tuple(includes), json.dumps(sorted(rulings.items())))

    def check_includes(self, includes) -> None:
        """Refuse unknown or repeated house rules, and more of them than there are, before any check."""
        shipped = self.house_rules()
        seen: set[str] = set()
        for name in includes:
            if name in seen:
                raise RoomError(f"house rule {str(name)[:40]!r} is chosen more than once")
            seen.add(name)
        if len(includes) > len(shipped):
            raise RoomError(f"a room takes at most {len(shipped)} house rules (the shipped ones, each once)")
        unknown = [name for name in includes if name not in shipped]       # never a path
        if unknown:
            raise RoomError(f"unknown house rule {str(unknown[0])[:40]!r} (the shipped ones: {', '.join(shipped)})")

    def _check(self, includes: tuple[str, ...], rulings: dict, public: bool):
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
            if not public:
                raise RoomError(format_text(result.errors) or "the variant defines no cards")
            raise RoomError(self.in_words(result.errors, path, includes) or "the variant defines no cards")
        return result.game

    def in_words(self, errors, path: str, includes) -> str:
        """Diagnostics as a client is told them: where by name (the variant, a house rule), in words: never a path
        nor a diagnostic code."""
        here = os.path.realpath(self.variant_path)
        variant = self.base.variant.name if hasattr(self, "base") else "the variant"
        names = {os.path.realpath(s.path): s for s in self.shipped.values()}
        lines = []
        for d in sorted(errors, key=lambda d: (d.path, d.line, d.column, d.code)):
            real = os.path.realpath(d.path)
            if d.path == path and includes:
                where = f"{variant} with {', '.join(includes)}"
            elif real == here:
                where = f"{variant}, line {d.line}"
            elif real in names:
                s = names[real]
                where = f"{'house rule' if s.house_rule else 'variant'} {s.name}, line {d.line}"
            else:
                where = f"a file {variant} extends, line {d.line}"
            lines.append(f"{where}: {_no_paths(d.message)}")       # no diagnostic code: a player reads it
        return "\n".join(lines)

    def house_rules(self) -> list[str]:
        return [s.name for s in self.shipped.values() if s.house_rule]

    def options(self) -> dict:
        v = self.base.variant
        shipped = self.shipped
        clashes = combos.clashes(self)          # the house rules' files read once (a second or so)
        return {"variant": v.name, "players": self.players, "bots": self.bots,
                "house_rules": [{"name": n, "title": shipped[n].title, "summary": shipped[n].summary,
                                 "clashes": clashes.get(n, [])} for n in self.house_rules()],
                "rulings": [{"name": r.name, "value": r.value, "summary": r.summary,
                             "choices": list(r.choices) if r.choices else None}
                            for r in v.rulings.values()]}

    def admit(self, body: dict, client: str = "") -> tuple[tuple[str, ...], dict]:
        """The house rules and rulings of a room `client` asks for, if it may have one; quick (no check)."""
        if len(self.rooms) + sum(self.making.values()) >= MAX_ROOMS:
            raise Refused("the server has as many rooms as it takes")
        held = sum(1 for owner in self.owners.values() if owner == client) + self.making.get(client, 0)
        if self.rooms_per_client and held >= self.rooms_per_client:
            raise Refused(f"you have {held} rooms open, the most one client may have "
                          f"(a room never started closes {self.unstarted_ttl / 60:g} minutes after its last change)")
        includes = body.get("include", [])
        rulings = body.get("rulings", {})
        players = body.get("players", self.players)
        if (not isinstance(includes, list) or not all(isinstance(n, str) for n in includes)
                or not isinstance(rulings, dict) or type(players) is not int
                or any(isinstance(v, (dict, list)) for v in rulings.values())):
            raise RoomError('a room is {"players": N, "include": [names], "rulings": {name: value}}')
        self.check_includes(includes)
        clash = combos.first_clash(self, includes)
        if clash:
            raise RoomError(f"these house rules do not go together: {clash}")
        timer = body.get("turn_timer", 0) or 0
        if type(timer) not in (int, float) or not 0 <= timer <= 3600:
            raise RoomError("a turn timer is a number of seconds from 0 (none) to 3600")
        return tuple(includes), rulings

    def create(self, body: dict, client: str = "", compiled: tuple | None = None) -> Room:
        """A new room (`compiled`: its (Game, rulebook) from `compile`, made in a worker thread)."""
        includes, rulings = self.admit(body, client)
        game, rulebook = compiled or self.compile(includes, rulings)
        players = body.get("players", self.players)
        try:
            game.check_players(players)
        except ValueError as err:
            raise RoomError(str(err)) from None
        code = new_code(set(self.rooms) | (self.store.codes() if self.store is not None else set()))
        room = self._room(code, game, rulebook, {
            "players": players, "seed": self.seed, "match": bool(body.get("match", False)),
            "house_rules": list(includes), "rulings": rulings, "listed": bool(body.get("listed", False)),
            "turn_timer": body.get("turn_timer", 0) or 0})
        self.rooms[code] = room
        self.owners[code] = client
        if self.store is not None:
            self._save(room)      # kept from the start: a restart before anyone joins keeps the room
        return room

    def remove(self, code: str) -> None:
        """Close a room: gone from the server and the store, its place freed for the client that made it."""
        self.rooms.pop(code, None)
        self.owners.pop(code, None)
        if self.store is not None:
            try:
                self.store.delete(code)
            except sqlite3.Error:
                pass

    def sweep(self, connected) -> list[str]:
        """Close the rooms nobody is `connected(code)` to, past their life unchanged; their codes."""
        closed = []
        for code, room in list(self.rooms.items()):
            life = min(self.unstarted_ttl, self.room_ttl) if room.state is None else self.room_ttl
            if room.idle() > life and not connected(code):
                self.remove(code)
                closed.append(code)
        return closed


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
        return JSONResponse(await asyncio.to_thread(lobby.options))    # off the loop: a second the first time

    compiling = None            # one check at a time, in its own worker thread (made in the loop)

    async def create(request: Request) -> Response:
        nonlocal compiling
        client = request.client.host if request.client else ""
        try:
            body = _parse((await _read_body(request)) or b"{}")
            if not isinstance(body, dict):
                raise RoomError("a room is made with a JSON object (at most 4 KB)")
            includes, rulings = lobby.admit(body, client)
            compiled = lobby.cached(includes, rulings)
            if compiled is None:        # checked in a worker thread: the loop answers everyone meanwhile
                compiling = compiling or anyio.CapacityLimiter(1)
                lobby.making[client] = lobby.making.get(client, 0) + 1
                try:
                    compiled = await anyio.to_thread.run_sync(lobby.compile, includes, rulings, limiter=compiling)
                finally:
                    lobby.making[client] -= 1
                    if not lobby.making[client]:
                        del lobby.making[client]
            room = lobby.create(body, client, compiled)
        except Refused as err:
            return JSONResponse({"error": str(err)}, status_code=429)
        except RoomError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except Exception:               # a bug: the operator's log has it, the client a plain reply
            log.exception("making a room failed")
            return JSONResponse({"error": "internal error: the room could not be made"}, status_code=500)
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
        client = websocket.client.host if websocket.client else ""
        held = lobby.sockets.get(client, 0)
        if lobby.sockets_per_client and held >= lobby.sockets_per_client:
            await websocket.send_text(json.dumps({"type": "error", "message":
                f"you have {held} connections open, the most one client may have"}))
            await websocket.close(code=1008, reason="too many connections")
            return
        room = lobby.rooms.get(websocket.path_params["code"].upper())
        if room is None:
            await websocket.send_text(json.dumps({"type": "error", "message": "no such room"}))
            await websocket.close(code=4404)
            return
        lobby.sockets[client] = held + 1
        conn = Connection(websocket)
        sender = asyncio.create_task(conn.pump())
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                if conn.flooding():
                    await websocket.close(code=1008, reason="too many messages")
                    break
                text = received.get("text")
                if text is None:        # a binary frame
                    answered = conn.reply({"type": "error", "message": "messages are JSON text, not binary frames"})
                else:
                    answered = _handle(conn, text, room, watchers)
                if not answered:
                    await websocket.close(code=1008, reason="too many unread replies")
                    break
        except WebSocketDisconnect:
            pass
        finally:
            lobby.sockets[client] -= 1
            if not lobby.sockets[client]:
                del lobby.sockets[client]
            sender.cancel()
            if conn in watchers.get(room.code, []):
                watchers[room.code].remove(conn)
            if conn.seat is not None:
                room.leave(conn.seat)

    async def ticker() -> None:
        while True:
            await asyncio.sleep(TICK)
            for room in list(lobby.rooms.values()):
                room.tick()
            for code in lobby.sweep(lambda code: bool(watchers.get(code))):
                watchers.pop(code, None)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(ticker())
        yield
        task.cancel()

    async def http_error(request: Request, exc: Exception) -> Response:
        """A wrong path or method, or a bug: under /api/ the JSON error reply (never a traceback)."""
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        if not request.url.path.startswith("/api/"):
            return Response(detail, status_code=status)
        return JSONResponse({"error": detail}, status_code=status)

    return Starlette(exception_handlers={HTTPException: http_error, Exception: http_error}, routes=[
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
    try:
        message = _parse(text)
    except RoomError as err:
        return conn.reply({"type": "error", "message": str(err)})
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
    except Exception:                   # a bug: the operator's log has it, the client a plain reply
        log.exception("a message to room %s failed", room.code)
        return conn.reply({"type": "error", "message": "internal error: that message was not taken",
                           "version": room.version})
    return True


class _Constant(ValueError):
    """NaN or Infinity: JSON numbers they are not."""


def _no_constant(name: str):
    raise _Constant(name)


def _parse(text: str | bytes):
    """A client message as JSON, within MAX_MESSAGE and MAX_NESTING, without NaN; RoomError says why not."""
    if len(text) > MAX_MESSAGE:
        raise RoomError("message too long")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except _Constant as err:
        raise RoomError(f"not JSON: {err} is not a number JSON has") from None
    except RecursionError:
        raise RoomError(f"a message nests too deeply (at most {MAX_NESTING} levels of [] and {{}})") from None
    except ValueError:          # UnicodeDecodeError too
        raise RoomError("not JSON") from None
    todo = [(value, 1)]
    while todo:                 # without recursion: a message that nests deeply breaks nothing later
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_NESTING:
                raise RoomError(f"a message nests too deeply (at most {MAX_NESTING} levels of [] and {{}})")
            todo.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return value


async def _read_body(request: Request) -> bytes:
    """The request's body, read no further than MAX_MESSAGE bytes (a longer one is refused unread)."""
    too_long = RoomError(f"a room is made with a JSON object (at most {MAX_MESSAGE // 1024} KB)")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_MESSAGE:
        raise too_long
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE:
            raise too_long
    return body


_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\](?:[^\s'\"/\\:]+[/\\])+([^\s'\"/\\:]*)")


def _no_paths(message: str) -> str:
    """A message with every absolute path shortened to its last part."""
    return _PATH.sub(lambda m: m.group(1), message)
