"""`unodsl serve`: rooms, seats, bots, spectators, and that no seat is ever sent what it may not see.

Driven through Starlette's TestClient WebSockets: every wait is for a message, none for time.
"""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from unodsl.check import load  # noqa: E402
from unodsl.rulebook.narration import words_as_ids  # noqa: E402
from unodsl.web.rooms import Room, RoomError  # noqa: E402
from unodsl.web.server import MAX_RATE, Lobby, create_app  # noqa: E402

CLASSIC = "variants/classic.yaml"
WORD = re.compile(r"[a-z0-9_]+")


@pytest.fixture
def served():
    lobby = Lobby(CLASSIC, players=4, seed=11, grace=30)
    with TestClient(create_app(lobby)) as client:
        yield lobby, client


def _room(client, **body):
    answer = client.post("/api/rooms", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()["code"]


def _until_version(ws, version, got):
    """Read `ws` until a view of `version` (or later) arrives; every message read is kept in `got`."""
    return _until(ws, lambda m: m["version"] >= version, got)


def _until(ws, wanted, got=None):
    """Read `ws` until a view that is `wanted` arrives (every message read kept in `got`)."""
    while True:
        message = ws.receive_json()
        if got is not None:
            got.append(message)
        if message["type"] == "view" and wanted(message):
            return message


def _started(ws, got=None):
    return _until(ws, lambda m: m["started"], got)


class Snapshots:
    """A room listener: at every version, every hand and the draw pile, and the cards public so far."""

    def __init__(self, room: Room):
        self.at: dict[int, dict] = {}
        self.public: set[str] = set()
        self.game = room.game
        room.listeners.insert(0, self)

    def __call__(self, room: Room) -> None:
        state = room.state
        if state is None:
            self.at[room.version] = None
            return
        names = room.game.card_names
        self.public |= {names[k] for k in state.discard}
        self.at[room.version] = {
            "hands": [sorted(state.hand(q)) for q in range(state.n)],
            "pile": {names[k] for k in state.draw_pile},
            "public": set(self.public),
            "revealed": {q: {names[k] for cards in state.revealed.get(q, {}).values() for k in cards}
                         for q in range(state.n)},
        }


def _hidden_from(snap: dict, seat: int) -> set[str]:
    """Card names `seat` may not see at that version: others' hands and the draw pile, less what it may."""
    allowed = set(snap["public"])
    if seat >= 0:
        allowed |= set(snap["hands"][seat]) | snap["revealed"][seat]
    hidden = set(snap["pile"])
    for q, hand in enumerate(snap["hands"]):
        if q != seat:
            hidden |= set(hand)
    return hidden - allowed


def _check_no_leak(messages: list[dict], seat: int, snaps: Snapshots) -> int:
    """Every message sent to `seat` names no card it may not see; its hand is its own. How many views checked."""
    checked = 0
    for message in messages:
        snap = snaps.at.get(message.get("version"))
        if snap is None:            # before the deal: no card anywhere yet
            continue
        words = set(WORD.findall(words_as_ids(snaps.game, json.dumps(message))))      # cards in words too
        assert not words & _hidden_from(snap, seat), (seat, message["version"], words & _hidden_from(snap, seat))
        if message["type"] != "view":
            continue
        if seat >= 0:
            assert sorted(c for group in message["hand"] for c in group) == snap["hands"][seat]
        else:
            assert "hand" not in message and "choices" not in message
        checked += 1
    return checked


def test_two_seats_two_bots_and_a_spectator_play_a_whole_game_and_nothing_leaks(served):
    lobby, client = served
    code = _room(client, players=4)
    snaps = Snapshots(lobby.rooms[code])
    got = {0: [], 1: [], -1: []}
    with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as b, \
            client.websocket_connect(f"/ws/{code}") as watcher:
        a.send_json({"type": "join", "name": "Ann"})
        assert a.receive_json()["type"] == "joined"
        b.send_json({"type": "join", "name": "Bob"})
        assert b.receive_json()["type"] == "joined"
        watcher.send_json({"type": "watch"})
        a.send_json({"type": "start"})
        socks = {0: a, 1: b, -1: watcher}
        views = {0: _started(a, got[0])}
        views.update({q: _until_version(socks[q], views[0]["version"], got[q]) for q in (1, -1)})
        assert [s["bot"] for s in views[0]["room"]["seats"]] == [False, False, True, True]
        steps = 0
        while not views[0]["over"]:
            mover = next(q for q in (0, 1) if views[q].get("choices"))
            socks[mover].send_json({"type": "act", "action": views[mover]["choices"][0],
                                    "version": views[mover]["version"]})
            views[mover] = _until_version(socks[mover], views[mover]["version"] + 1, got[mover])
            for q in socks:
                if q != mover:
                    views[q] = _until_version(socks[q], views[mover]["version"], got[q])
            steps += 1
            assert steps < 2000
    assert views[-1]["over"] and views[-1]["winner"] is not None
    log = views[-1]["log"]
    assert any(line.startswith(("heuristic bot plays", "heuristic bot 2 plays")) for line in log)   # the bots, named
    assert any(line.startswith(("Ann ", "Bob ")) for line in log)                 # the players, by name
    assert not any(re.search(r"\bp\d+\b", line) for q in (0, 1) for line in views[q]["log"] + log)   # never "p2"
    assert "you" in " ".join(views[0]["log"]) and not any(line.startswith("Ann ") for line in views[0]["log"])
    checked = sum(_check_no_leak(got[q], q, snaps) for q in got)
    assert checked > 3 * steps


def test_a_stale_action_is_refused_and_the_right_one_is_taken(served):
    lobby, client = served
    code = _room(client, players=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "join", "name": "Ann"})
        ws.receive_json()
        ws.send_json({"type": "start"})
        view = _started(ws)
        assert view.get("choices"), "the bot moves until the human decides"
        ws.send_json({"type": "act", "action": view["choices"][0], "version": view["version"] - 1})
        refused = ws.receive_json()
        assert refused["type"] == "error" and "old state" in refused["message"]
        ws.send_json({"type": "act", "action": view["choices"][0], "version": view["version"]})
        assert ws.receive_json()["version"] > view["version"]


def test_reconnecting_with_the_token_restores_the_seat_and_its_view(served):
    lobby, client = served
    code = _room(client, players=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "join", "name": "Ann"})
        token = ws.receive_json()["token"]
        ws.send_json({"type": "start"})
        before = _started(ws)
    room = lobby.rooms[code]
    assert room.seats[0].connections == 0 and room.seats[0].bot is None      # inside the grace period
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "join", "token": token})
        joined = ws.receive_json()
        assert (joined["type"], joined["seat"]) == ("joined", 0)
        view = _until_version(ws, room.version, [])
        assert view["hand"] == before["hand"] and view["choices"] == before["choices"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "join", "token": token[:-2] + "xx"})
        assert "not one of this room's" in ws.receive_json()["message"]


def test_a_player_away_past_the_grace_period_is_played_by_a_bot_until_they_return():
    now = [0.0]
    room = Room("ABCDEF", load(CLASSIC), 3, seed=4, grace=30, clock=lambda: now[0])
    ann = room.join("Ann")
    room.join("Bob")
    room.start()
    while room.state.current_player != ann.number:        # Bob's decisions: his first choice
        room.act(room.seats[room.state.current_player], room.view(room.seats[room.state.current_player])["choices"][0],
                 room.version)
    room.leave(ann)
    now[0] = 29.0
    room.tick()
    assert room.state.current_player == ann.number and room.view(None)["room"]["seats"][0]["away"]
    now[0] = 30.0
    room.tick()
    assert room.state.is_over or room.state.current_player != ann.number      # a bot played Ann's turn
    assert room.view(None)["room"]["seats"][0]["autoplayed"]
    back = room.join("", token=ann.token)
    assert back is ann and ann.bot is None and not room.view(None)["room"]["seats"][0]["away"]


def test_bad_input_gets_a_clear_error_and_the_room_keeps_working(served):
    lobby, client = served
    code = _room(client, players=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text("{not json")
        assert ws.receive_json() == {"type": "error", "message": "not JSON"}
        ws.send_json({"type": "act", "action": "draw", "version": 0})
        assert "join a seat first" in ws.receive_json()["message"]
        ws.send_json({"type": "teleport"})
        assert "unknown message type" in ws.receive_json()["message"]
        ws.send_json(["join"])
        assert "JSON object" in ws.receive_json()["message"]
        ws.send_text("x" * 10000)
        assert ws.receive_json()["message"] == "message too long"
        ws.send_json({"type": "join", "name": "Ann"})
        assert ws.receive_json()["type"] == "joined"
        ws.send_json({"type": "start"})
        view = _started(ws)
        ws.send_json({"type": "act", "action": "play nonsense_card", "version": view["version"]})
        assert "is not possible" in ws.receive_json()["message"]
        ws.send_json({"type": "act", "action": view["choices"][0], "version": view["version"]})
        assert ws.receive_json()["version"] > view["version"]
    with client.websocket_connect("/ws/NOROOM") as ws:
        assert ws.receive_json()["message"] == "no such room"
    assert client.post("/api/rooms", content=b"[").status_code == 400
    for include in (["../../etc/passwd"], ["teams"], [3]):          # a path, a variant, not a name
        assert client.post("/api/rooms", json={"include": include}).status_code == 400
    assert "unknown ruling" in client.post("/api/rooms", json={"rulings": {"nope": 1}}).json()["error"]


def test_a_flood_closes_that_connection_only(served):
    lobby, client = served
    code = _room(client, players=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        for _ in range(MAX_RATE + 5):
            ws.send_text("{}")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "join", "name": "Ann"})
        assert ws.receive_json()["type"] == "joined"


def test_a_room_is_made_with_house_rules_and_shows_its_rulebook(served):
    lobby, client = served
    code = _room(client, players=3, include=["jump-in"], rulings={"draw_two_start_skips": False})
    info = client.get(f"/api/rooms/{code}").json()
    assert info["room"]["house_rules"] == ["jump-in"] and info["room"]["variant"].endswith("+ jump-in")
    assert info["room"]["rulings"] == {"draw_two_start_skips": False}
    assert lobby.rooms[code].game.ruling_value("draw_two_start_skips") is False
    assert "jump" in info["rulebook"].lower()
    assert client.get("/api/options").json()["house_rules"][0]["name"]
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in client.get("/static/app.js").text.replace("https:", "")    # nothing from a CDN


def test_seat_tokens_are_long_and_distinct_and_spectators_cannot_play():
    room = Room("ABCDEF", load(CLASSIC), 4, seed=1)
    tokens = {room.join(f"p{q}").token for q in range(4)}
    assert len(tokens) == 4 and all(len(t) >= 32 for t in tokens)
    assert room.state is not None                          # the last seat taken starts the game
    with pytest.raises(RoomError, match="watch"):
        room.join("late")
    assert "hand" not in room.view(None) and "choices" not in room.view(None)


def test_spectators_see_the_public_variables_and_no_private_value():
    room = Room("ABCDEF", load("variants/house-rules/pressure.yaml"), 3, seed=2)
    for q in range(3):
        room.join(f"p{q}")
    state = room.state
    state.pvars[1][[v.name for v in state.g.player_vars].index("shield")] = True   # private: seat 1's alone
    assert room.view(None)["variables"] == [f"state: pressure {state.vars[0]}"]   # no seat's shield
    assert "shield: you yes" in room.view(room.seats[1])["variables"]
    assert "shield: you no" in room.view(room.seats[0])["variables"]


def test_serve_listens_on_this_machine_only_unless_told(tmp_path):
    from click.testing import CliRunner

    from unodsl.cli import main
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "127.0.0.1" in result.output


def test_a_seat_left_past_the_grace_period_is_played_by_a_bot_on_the_server():
    lobby = Lobby(CLASSIC, players=2, seed=11, grace=0)
    with TestClient(create_app(lobby)) as client:
        code = _room(client, players=3)
        with client.websocket_connect(f"/ws/{code}") as bob:
            bob.send_json({"type": "join", "name": "Bob"})
            bob.receive_json()
            with client.websocket_connect(f"/ws/{code}") as ann:
                ann.send_json({"type": "join", "name": "Ann"})
                token = ann.receive_json()["token"]
                ann.send_json({"type": "start"})
                _started(ann)
            # Ann is gone (grace 0): a bot plays her seat; Bob's game goes on to its end.
            view = _until(bob, lambda m: m["room"]["seats"][1]["autoplayed"])
            while not view["over"]:
                if view.get("choices"):
                    bob.send_json({"type": "act", "action": view["choices"][0], "version": view["version"]})
                view = _until_version(bob, view["version"] + 1, [])
            assert view["room"]["seats"][1]["away"]
        with client.websocket_connect(f"/ws/{code}") as ann:       # back: the seat is hers again
            ann.send_json({"type": "join", "token": token})
            assert ann.receive_json()["seat"] == 1
            assert not _until(ann, lambda m: True)["room"]["seats"][1]["autoplayed"]


def test_a_client_that_never_reads_holds_one_view_and_is_cut_off_when_replies_pile_up():
    import asyncio

    from unodsl.web.server import MAX_QUEUED, Connection

    class Stuck:
        """A WebSocket whose client never reads: every send waits forever."""
        sent = 0

        async def send_text(self, text):
            Stuck.sent += 1
            await asyncio.Event().wait()

    async def scenario():
        conn = Connection(Stuck())
        pump = asyncio.create_task(conn.pump())
        room = Room("ABCDEF", load(CLASSIC), 2, seed=3)
        room.join("Ann")
        for _ in range(100):
            conn.offer_view(room)
            await asyncio.sleep(0)
        assert conn.latest is not None and Stuck.sent == 1          # one view waits, not a hundred
        assert all(conn.reply({"type": "error", "message": "x"}) for _ in range(MAX_QUEUED))
        assert not conn.reply({"type": "error", "message": "x"})      # the server closes this one
        pump.cancel()

    asyncio.run(scenario())
