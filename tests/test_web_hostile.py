"""`unodsl serve` under a hostile client (issue 30, findings 15-18).

Driven through Starlette's TestClient, as tests/test_web.py is: every wait is for an event or a
message, none for time. A slow check is made slow by holding it on an event, not by a big input.
"""

from __future__ import annotations

import os
import re
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import unodsl.web.server as server  # noqa: E402
from unodsl.web.server import Lobby, create_app  # noqa: E402

CLASSIC = os.path.abspath("variants/classic.yaml")      # as `unodsl serve classic` names it: absolute
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def served():
    lobby = Lobby(CLASSIC, players=4, seed=11, grace=30)
    with TestClient(create_app(lobby)) as client:
        yield lobby, client


def _no_path(text: str) -> None:
    """A reply names none of the server's files."""
    assert HERE not in text and ".yaml" not in text and "/work" not in text, text


# --- finding 15: a room's check runs off the event loop; duplicates are refused before any check


def test_another_request_is_answered_while_a_room_is_being_checked(monkeypatch):
    entered, release, finished = threading.Event(), threading.Event(), threading.Event()
    real = server.check_file

    def slow_check(*args, **kwargs):
        entered.set()
        release.wait(60)            # a safety valve only: the test releases it as soon as it has its answer
        try:
            return real(*args, **kwargs)
        finally:
            finished.set()

    lobby = Lobby(CLASSIC, players=4, seed=11)
    monkeypatch.setattr(server, "check_file", slow_check)
    with TestClient(create_app(lobby)) as client:
        made = {}
        maker = threading.Thread(target=lambda: made.update(
            answer=client.post("/api/rooms", json={"include": ["jump-in"]})))
        maker.start()
        assert entered.wait(60)
        try:
            answer = client.get("/api/options")         # answered while the check is held
            assert answer.status_code == 200 and not finished.is_set()
            code = client.post("/api/rooms", json={}).json()["code"]   # a room of the plain variant meanwhile
            with client.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "watch"})
                assert ws.receive_json()["type"] == "view"
            assert not finished.is_set()
        finally:
            release.set()
            maker.join()
    assert made["answer"].status_code == 200, made["answer"].text
    assert made["answer"].json()["room"]["house_rules"] == ["jump-in"]


def test_repeated_or_too_many_house_rules_are_refused_before_any_check(served, monkeypatch):
    lobby, client = served
    checked = []
    monkeypatch.setattr(server, "check_file", lambda *a, **k: checked.append(a) or pytest.fail("checked"))
    answer = client.post("/api/rooms", json={"include": ["jump-in"] * 400})
    assert answer.status_code == 400 and "more than once" in answer.json()["error"]
    assert "jump-in" in answer.json()["error"]
    every = lobby.house_rules()
    answer = client.post("/api/rooms", json={"include": every + ["x"]})
    assert answer.status_code == 400 and f"at most {len(every)}" in answer.json()["error"]
    assert checked == [] and lobby.rooms == {}


def test_a_combination_is_checked_once_and_its_rooms_share_the_compiled_game(served, monkeypatch):
    lobby, client = served
    calls = []
    real = server.check_file
    monkeypatch.setattr(server, "check_file", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = client.post("/api/rooms", json={"include": ["jump-in"], "players": 3}).json()["code"]
    second = client.post("/api/rooms", json={"include": ["jump-in"], "players": 2}).json()["code"]
    assert len(calls) == 1
    assert lobby.rooms[first].game is lobby.rooms[second].game
    assert lobby.rooms[first].rulebook == lobby.rooms[second].rulebook
    client.post("/api/rooms", json={"include": ["jump-in"], "rulings": {"draw_two_start_skips": False}})
    assert len(calls) == 2          # other rulings: another game


# --- finding 16: every malformed message gets the JSON error reply


def test_deeply_nested_json_gets_an_error_reply_over_http_and_websocket(served):
    lobby, client = served
    for body in (b"[" * 4000, b'{"include": ' + b"[" * 2000 + b"]" * 2000 + b"}"):
        answer = client.post("/api/rooms", content=body)
        assert answer.status_code == 400 and "error" in answer.json(), answer.text
    code = client.post("/api/rooms", json={"players": 2}).json()["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text("[" * 4000)
        assert ws.receive_json()["type"] == "error"
        ws.send_text('{"type": "join", "name": ' + "[" * 900 + "]" * 900 + "}")
        reply = ws.receive_json()
        assert reply["type"] == "error" and "nest" in reply["message"]
        ws.send_json({"type": "join", "name": "Ann"})
        assert ws.receive_json()["type"] == "joined"        # the connection goes on


def test_a_binary_frame_gets_an_error_reply_and_the_connection_goes_on(served):
    lobby, client = served
    code = client.post("/api/rooms", json={"players": 2}).json()["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_bytes(b'{"type": "watch"}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and "text" in reply["message"]
        ws.send_json({"type": "watch"})
        assert ws.receive_json()["type"] == "view"


def test_not_a_number_is_refused_and_never_breaks_a_reply(served):
    lobby, client = served
    for body in (b'{"rulings": {"draw_two_start_skips": NaN}}', b'{"players": Infinity}'):
        answer = client.post("/api/rooms", content=body)
        assert answer.status_code == 400 and "error" in answer.json(), answer.text
    assert lobby.rooms == {}


def test_a_body_past_the_limit_is_refused_without_being_read_whole(served):
    import asyncio

    from starlette.requests import Request

    from unodsl.web.rooms import RoomError
    lobby, client = served
    answer = client.post("/api/rooms", content=b" " * 100_000)
    assert answer.status_code == 400 and "4 KB" in answer.json()["error"]
    sent = []

    async def receive():                 # a body of 1,000 chunks of 1 KB, with no length said
        sent.append(1)
        return {"type": "http.request", "body": b" " * 1024, "more_body": len(sent) < 1000}

    request = Request({"type": "http", "method": "POST", "headers": []}, receive)
    with pytest.raises(RoomError, match="4 KB"):
        asyncio.run(server._read_body(request))
    assert len(sent) <= 5


# --- finding 17: replies name no server path and say in words what is wrong


def test_a_ruling_of_the_wrong_type_is_refused_in_words(served):
    lobby, client = served
    answer = client.post("/api/rooms", json={"rulings": {"draw_two_start_skips": "yes"}})
    assert answer.status_code == 400
    error = answer.json()["error"]
    _no_path(error)
    assert "draw_two_start_skips" in error and "true or false" in error
    assert not re.search(r"\bE\d{3}\b", error)                         # words, not a diagnostic code


def test_house_rules_that_cannot_be_combined_are_refused_in_words(served):
    lobby, client = served
    answer = client.post("/api/rooms", json={"include": ["stacking-mattel", "stacking-progressive"]})
    assert answer.status_code == 400
    error = answer.json()["error"]
    _no_path(error)
    assert "stacking-mattel" in error and "stacking-progressive" in error and "only one" in error
    assert not re.search(r"\bE\d{3}\b", error)


# --- finding 18: a limit per client, and a short life for rooms never started


def test_one_client_may_hold_only_so_many_rooms():
    lobby = Lobby(CLASSIC, players=2, seed=1, rooms_per_client=3)
    app = create_app(lobby)
    with TestClient(app, client=("10.0.0.1", 5000)) as one, TestClient(app, client=("10.0.0.2", 5000)) as other:
        for _ in range(3):
            assert one.post("/api/rooms", json={}).status_code == 200
        refused = one.post("/api/rooms", json={})
        assert refused.status_code == 429 and "3 rooms" in refused.json()["error"]
        assert other.post("/api/rooms", json={}).status_code == 200      # another client is not held back
        assert len(lobby.rooms) == 4
        for code in [c for c, r in lobby.rooms.items() if lobby.owners[c] == "10.0.0.1"][:1]:
            lobby.remove(code)
        assert one.post("/api/rooms", json={}).status_code == 200       # a closed room frees its place


def test_one_client_may_hold_only_so_many_connections():
    lobby = Lobby(CLASSIC, players=2, seed=1, sockets_per_client=2)
    app = create_app(lobby)
    code = lobby.create({}, "me").code
    with TestClient(app, client=("10.0.0.1", 5000)) as one, TestClient(app, client=("10.0.0.2", 5000)) as other:
        with one.websocket_connect(f"/ws/{code}") as a, one.websocket_connect(f"/ws/{code}") as b:
            for ws in (a, b):
                ws.send_json({"type": "watch"})
                assert ws.receive_json()["type"] == "view"
            with one.websocket_connect(f"/ws/{code}") as c:                 # a third from the same address
                refused = c.receive_json()
                assert refused["type"] == "error" and "2 connections" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.receive_json()
                assert closed.value.code == 1008
            with other.websocket_connect(f"/ws/{code}") as d:              # another client is not held back
                d.send_json({"type": "watch"})
                assert d.receive_json()["type"] == "view"
        assert lobby.sockets == {}                        # every place freed as its connection closed
        with one.websocket_connect(f"/ws/{code}") as again:
            again.send_json({"type": "watch"})
            assert again.receive_json()["type"] == "view"


def test_a_room_never_started_is_closed_after_its_short_life_and_a_started_one_is_not(monkeypatch):
    monkeypatch.setattr(server, "TICK", 3600.0)       # the server's own sweep stays out of the way
    now = [0.0]
    lobby = Lobby(CLASSIC, players=2, seed=1, unstarted_ttl=600, clock=lambda: now[0])
    with TestClient(create_app(lobby)) as client:
        idle = client.post("/api/rooms", json={}).json()["code"]
        waiting = client.post("/api/rooms", json={}).json()["code"]
        played = client.post("/api/rooms", json={}).json()["code"]
        with client.websocket_connect(f"/ws/{played}") as ws:
            ws.send_json({"type": "join", "name": "Ann"})
            ws.receive_json()
            ws.send_json({"type": "start"})
            while not ws.receive_json().get("started"):
                pass
        now[0] = 599.0
        assert lobby.sweep(connected=lambda code: False) == []
        now[0] = 601.0
        assert lobby.sweep(connected=lambda code: code == waiting) == [idle]    # somebody is in `waiting`
        assert set(lobby.rooms) == {waiting, played} and idle not in lobby.owners
        assert client.get(f"/api/rooms/{idle}").status_code == 404
        now[0] = 601.0 + server.ROOM_IDLE
        assert sorted(lobby.sweep(connected=lambda code: False)) == sorted([waiting, played])
    lobby = Lobby(CLASSIC, players=2, seed=1, room_ttl=5, clock=lambda: now[0])      # --room-ttl 5
    played = lobby.create({}, "me")
    played.join("Ann")
    played.start()
    now[0] += 5.5
    assert lobby.sweep(connected=lambda code: False) == [played.code] and lobby.rooms == {}


def test_serve_offers_the_limits_as_options():
    from click.testing import CliRunner

    from unodsl.cli import main
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert all(option in result.output for option in ("--rooms-per-client", "--sockets-per-client", "--unstarted-ttl",
                                                           "--room-ttl"))


def test_a_request_that_fails_inside_gets_a_json_error_and_no_traceback(served, monkeypatch):
    lobby, client = served

    def broken(*args, **kwargs):
        raise RuntimeError("/secret/path/boom")
    monkeypatch.setattr(server, "check_file", broken)
    answer = client.post("/api/rooms", json={"include": ["seven-o"]})
    assert answer.status_code == 500 and "error" in answer.json()
    assert "/secret" not in answer.text and "Traceback" not in answer.text
    assert client.post("/api/rooms", json={}).status_code == 200        # the server goes on


def test_every_api_reply_is_json_even_a_wrong_path_or_method_or_a_bug(monkeypatch):
    lobby = Lobby(CLASSIC, players=2, seed=1)
    monkeypatch.setattr(Lobby, "options", lambda self: 1 / 0)
    with TestClient(create_app(lobby), raise_server_exceptions=False) as client:
        for answer, status in ((client.get("/api/nothing"), 404), (client.put("/api/rooms", json={}), 405),
                               (client.get("/api/options"), 500)):
            assert answer.status_code == status and "error" in answer.json(), answer.text
            assert "Traceback" not in answer.text and "ZeroDivision" not in answer.text
        assert client.get("/").status_code == 200            # the page is still a page
