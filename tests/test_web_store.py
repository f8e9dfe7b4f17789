"""Rooms survive a restart: `unodsl serve` keeps rooms, seats and each game's action log in SQLite
(unodsl/web/store.py) and replays them on start.

The last test kills a real server (a uvicorn subprocess on the loopback interface, SIGKILL: no
shutdown code runs) in the middle of a game and a seat goes on after the restart with nothing lost.
Every wait is for a message or a listening port, none for a length of time.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
websockets = pytest.importorskip("websockets.sync.client")

from starlette.testclient import TestClient  # noqa: E402

from unodsl.web.server import Lobby, create_app  # noqa: E402
from unodsl.web.store import SCHEMA_VERSION, Store, StoreError  # noqa: E402

from served import free_port, serve  # noqa: E402

CLASSIC = "variants/classic.yaml"
WAIT = 30         # seconds a wait may take before the test fails (a hang guard, never a measure)


def _until(ws, wanted):
    while True:
        message = ws.receive_json() if hasattr(ws, "receive_json") else json.loads(ws.recv(timeout=WAIT))
        if message["type"] == "view" and wanted(message):
            return message


def _seat_facts(view: dict) -> dict:
    """What a seat sees that a restart must not change."""
    return {k: view.get(k) for k in ("version", "hand", "top", "color", "log", "log_total", "choices", "deciding",
                                     "scores", "turn", "draw_pile", "chat")} | {
        "seats": [(s["name"], s["cards"]) for s in view["room"]["seats"]]}


def _play_some(lobby, client, code, moves):
    """Two seats (Ann, Bob) and two bots; the people play their first choice `moves` times. Their last views."""
    socks = [client.websocket_connect(f"/ws/{code}") for _ in range(2)]
    a, b = (s.__enter__() for s in socks)
    tokens = []
    for ws, name in ((a, "Ann"), (b, "Bob")):
        ws.send_json({"type": "join", "name": name})
        tokens.append(ws.receive_json()["token"])
    a.send_json({"type": "chat", "text": "good luck <b>all</b>"})
    a.send_json({"type": "start"})
    views = [_until(a, lambda m: m["started"]), None]
    views[1] = _until(b, lambda m: m["version"] >= views[0]["version"])
    for _ in range(moves):
        q = next(q for q in (0, 1) if views[q].get("choices"))
        (a, b)[q].send_json({"type": "act", "action": views[q]["choices"][0], "version": views[q]["version"]})
        views[q] = _until((a, b)[q], lambda m, v=views[q]["version"]: m["version"] > v)
        views[1 - q] = _until((a, b)[1 - q], lambda m, v=views[q]["version"]: m["version"] >= v)
    for s in socks:
        s.__exit__(None, None, None)
    return tokens, views


def test_a_lobby_made_again_from_its_store_has_every_room_as_it_was(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    lobby = Lobby(CLASSIC, players=4, seed=5, store=Store(db))
    with TestClient(create_app(lobby)) as client:
        code = client.post("/api/rooms", json={"players": 4, "include": ["seven-o"], "listed": True}).json()["code"]
        waiting = client.post("/api/rooms", json={"players": 3}).json()["code"]       # nobody in it yet
        tokens, views = _play_some(lobby, client, code, 12)
        room = lobby.rooms[code]
        hands = [list(h) for h in room.state.hands]
        history = list(room.state.history)
    lobby.store.close()

    again = Lobby(CLASSIC, players=4, seed=5, store=Store(db))
    assert set(again.rooms) == {code, waiting}
    back = again.rooms[code]
    assert back.house_rules == ("seven-o",) and back.listed
    assert [list(h) for h in back.state.hands] == hands and back.state.history == history
    assert [s.name for s in back.seats] == ["Ann", "Bob", "heuristic bot", "heuristic bot 2"]
    assert back.chat == [{"seat": 0, "name": "Ann", "text": "good luck <b>all</b>"}]
    with TestClient(create_app(again)) as client:
        for q in (0, 1):
            with client.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "join", "token": tokens[q]})
                assert ws.receive_json()["seat"] == q
                view = _until(ws, lambda m: True)
                before = _seat_facts(views[q])
                assert _seat_facts(view) | {"version": 0} == before | {"version": 0}
                assert view["version"] > views[q]["version"]           # a version never goes back
        assert again.rooms[waiting].state is None and len(again.rooms[waiting].seats) == 3


def test_a_rematch_and_a_finished_game_are_kept(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    lobby = Lobby(CLASSIC, players=2, seed=8, store=Store(db))
    room = lobby.create({"players": 2})
    ann = room.join("Ann")
    room.start()
    while not room.state.is_over:
        room.act(ann, room.state.legal_actions()[0], room.version)
    room.rematch(ann)
    room.act(ann, room.state.legal_actions()[0], room.version) if room.state.current_player == 0 else None
    lobby.store.close()
    back = Lobby(CLASSIC, players=2, seed=8, store=Store(db)).rooms[room.code]
    assert back.game_number == 1 and len(back.results) == 1 and back.results[0]["names"][0] == "Ann"
    assert back.state.history == room.state.history and not back.state.is_over
    rows = sqlite3.connect(db).execute("SELECT DISTINCT game FROM actions").fetchall()
    assert rows == [(1,)]                       # the finished game's log is not kept past its rematch


def test_a_store_of_a_newer_schema_is_refused_and_not_touched(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    Store(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    stamp = os.stat(db).st_mtime_ns
    with pytest.raises(StoreError, match="newer unodsl"):
        Store(db)
    assert os.stat(db).st_mtime_ns == stamp
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello\n" * 100)
    with pytest.raises(StoreError, match="not a rooms database"):
        Store(str(not_db))
    result = subprocess.run([sys.executable, "-m", "unodsl", "serve", "classic", "--db", db, "--port", "0"],
                            capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 1 and "newer unodsl" in result.stderr and "Traceback" not in result.stderr


def test_a_room_whose_log_no_longer_replays_is_left_out_with_a_warning(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    lobby = Lobby(CLASSIC, players=2, seed=8, store=Store(db))
    room = lobby.create({"players": 2})
    room.join("Ann")
    room.start()
    lobby.store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO actions (code, game, n, action) VALUES (?, 0, 999, 'play purple_99')", (room.code,))
    warnings = []
    again = Lobby(CLASSIC, players=2, seed=8, store=Store(db), warn=warnings.append)
    assert room.code not in again.rooms
    assert len(warnings) == 1 and room.code in warnings[0] and str(tmp_path) not in warnings[0]


def _serve(port: int, db: str) -> subprocess.Popen:
    """`unodsl serve` in its own process (so that it can be killed), once it listens."""
    return serve(port, db, "--seed", "4", "--grace", "600", wait=WAIT)


def test_a_server_killed_mid_game_comes_back_and_the_seats_go_on(tmp_path):
    db, port = str(tmp_path / "rooms.sqlite3"), free_port()
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = _serve(port, db)
    try:
        request = urllib.request.Request(url + "/api/rooms", data=json.dumps({"players": 3}).encode(), method="POST")
        code = json.load(urllib.request.urlopen(request, timeout=WAIT))["code"]
        with websockets.connect(f"{ws_url}/ws/{code}") as a, websockets.connect(f"{ws_url}/ws/{code}") as b:
            tokens = []
            for ws, name in ((a, "Ann"), (b, "Bob")):
                ws.send(json.dumps({"type": "join", "name": name}))
                tokens.append(json.loads(ws.recv(timeout=WAIT))["token"])
            a.send(json.dumps({"type": "start"}))
            views = [_until(a, lambda m: m["started"]), None]
            views[1] = _until(b, lambda m: m["version"] >= views[0]["version"])
            for _ in range(8):
                q = next(q for q in (0, 1) if views[q].get("choices"))
                (a, b)[q].send(json.dumps({"type": "act", "action": views[q]["choices"][0],
                                           "version": views[q]["version"]}))
                views[q] = _until((a, b)[q], lambda m, v=views[q]["version"]: m["version"] > v)
                views[1 - q] = _until((a, b)[1 - q], lambda m, v=views[q]["version"]: m["version"] >= v)
            server.send_signal(signal.SIGKILL)       # no shutdown, no flush: what was committed is all there is
            server.wait(WAIT)
            server.stderr.close()
        server = _serve(port, db)
        with websockets.connect(f"{ws_url}/ws/{code}") as a, websockets.connect(f"{ws_url}/ws/{code}") as b:
            back = []
            for q, ws in enumerate((a, b)):
                ws.send(json.dumps({"type": "join", "token": tokens[q]}))
                assert json.loads(ws.recv(timeout=WAIT))["seat"] == q
                back.append(_until(ws, lambda m: True))
            back[0] = _until(a, lambda m: m["version"] >= back[1]["version"])      # Bob's join, seen by Ann
            for q in (0, 1):
                assert _seat_facts(back[q]) | {"version": 0} == _seat_facts(views[q]) | {"version": 0}   # nothing lost
                assert back[q]["version"] > views[q]["version"]             # a version never goes back
            q = next(q for q in (0, 1) if back[q].get("choices"))           # and the game goes on
            (a, b)[q].send(json.dumps({"type": "act", "action": back[q]["choices"][0], "version": back[q]["version"]}))
            after = _until((a, b)[q], lambda m: m["version"] > back[q]["version"])
            assert after["log_total"] > back[q]["log_total"]
    finally:
        server.kill()
        server.wait(WAIT)
        server.stderr.close()


def test_the_chat_kept_is_the_last_hundred_lines_in_order_after_any_number_of_restarts(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    lobby = Lobby(CLASSIC, players=2, seed=8, store=Store(db))
    code = lobby.create({"players": 2}).code
    said = []
    for restart in range(3):
        room = lobby.rooms[code]
        seat = room.seats[0] if room.seats[0].taken else room.join("Ann")
        for i in range(70):
            said.append(f"line {restart}-{i}")
            room.say(seat, said[-1])
        lobby.store.close()
        lobby = Lobby(CLASSIC, players=2, seed=8, store=Store(db))
        assert [c["text"] for c in lobby.rooms[code].chat] == said[-100:]
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM chat").fetchone() == (100,)
