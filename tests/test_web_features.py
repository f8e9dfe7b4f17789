"""The table families expect, on the server's side: names, the rematch and its score screen, the list of
open rooms, house rules that do not go together (in words), chat and quick reactions, the turn timer.

The browser's side is in tests/test_browser.py. The timer's tests inject the room's clock, or give a
tiny timer and wait for the message that says a bot decided: no assert on wall-clock time.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from unodsl.check import load  # noqa: E402
from unodsl.web import combos  # noqa: E402
from unodsl.web.rooms import Room, RoomError  # noqa: E402
from unodsl.web.server import Lobby, create_app  # noqa: E402

CLASSIC = "variants/classic.yaml"


def _until(ws, wanted):
    while True:
        message = ws.receive_json()
        if message["type"] == "view" and wanted(message):
            return message


def _error(ws) -> str:
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message["message"]


def _finish(room: Room) -> None:
    """Play every person's first choice until the game is over."""
    while not room.state.is_over:
        seat = room.seats[room.state.current_player]
        room.act(seat, room.view(seat)["choices"][0], room.version)


def test_names_are_unique_printable_and_replace_the_seat_numbers_everywhere():
    room = Room("ABCDEF", load(CLASSIC), 4, seed=3)
    ann = room.join("Ann")
    ann2 = room.join("ann")
    odd = room.join("<b>Zoë</b>\x07\n")
    room.start()
    assert [s.name for s in room.seats] == ["Ann", "ann 2", "<b>Zoë</b>", "heuristic bot"]
    _finish(room)
    for seat in (ann, ann2, odd, None):
        view = room.view(seat)
        text = " ".join(view["log"] + view["variables"])
        assert "p0" not in text and "p1 " not in text and "p3 " not in text
    assert any(line.startswith("heuristic bot ") for line in room.view(ann)["log"])
    assert any(line.startswith("<b>Zoë</b> ") for line in room.view(ann)["log"])      # the page shows it as text


def test_a_rematch_deals_a_new_game_to_the_same_seats_and_the_results_are_kept():
    room = Room("ABCDEF", load(CLASSIC), 3, seed=3)
    ann, bob = room.join("Ann"), room.join("Bob")
    with pytest.raises(RoomError, match="game is over"):
        room.start() or room.rematch(ann)
    _finish(room)
    first = room.view(ann)
    assert first["over"] and first["results"] == [{"game": 0, "winner": room.state.winner,
                                                   "names": ["Ann", "Bob", "heuristic bot"],
                                                   "points": list(room.state.scores),
                                                   "cards": [len(h) for h in room.state.hands]}]
    hands = [list(h) for h in room.state.hands]
    room.rematch(bob, game=0)
    room.rematch(ann, game=0)             # asked at the same time as Bob: the one new game, no error
    second = room.view(ann)
    assert not second["over"] and second["game"] == 1 and second["started"]
    assert [s["name"] for s in second["room"]["seats"]] == ["Ann", "Bob", "heuristic bot"]
    assert second["log"][0] == "Bob asks for a rematch: game 2 in this room" or "Bob asks" in " ".join(second["log"])
    assert [list(h) for h in room.state.hands] != hands                 # a new deal
    _finish(room)
    assert [r["game"] for r in room.view(None)["results"]] == [0, 1]


def test_only_listed_rooms_that_wait_for_players_are_in_the_lobby_list():
    lobby = Lobby(CLASSIC, players=3, seed=2)
    with TestClient(create_app(lobby)) as client:
        listed = client.post("/api/rooms", json={"players": 3, "listed": True, "include": ["seven-o"]}).json()["code"]
        client.post("/api/rooms", json={"players": 3})                   # not listed
        rooms = client.get("/api/rooms").json()["rooms"]
        assert [(r["code"], r["free"], r["house_rules"]) for r in rooms] == [(listed, 3, ["seven-o"])]
        with client.websocket_connect(f"/ws/{listed}") as ws:
            ws.send_json({"type": "join", "name": "Ann"})
            ws.receive_json()
            assert client.get("/api/rooms").json()["rooms"][0]["names"] == ["Ann"]
            ws.send_json({"type": "start"})
            _until(ws, lambda m: m["started"])
        assert client.get("/api/rooms").json()["rooms"] == []            # started: no longer open


def test_house_rules_that_do_not_go_together_say_why_in_words():
    lobby = Lobby(CLASSIC, players=4)
    with TestClient(create_app(lobby)) as client:
        rules = {r["name"]: r for r in client.get("/api/options").json()["house_rules"]}
        answer = client.post("/api/rooms", json={"include": ["stacking-mattel", "stacking-progressive"]})
    clash = {c["with"]: c["reason"] for c in rules["stacking-progressive"]["clashes"]}
    assert "stacking-mattel" in clash and "only one stacking rule at a time" in clash["stacking-mattel"]
    assert rules["seven-o"]["clashes"] == [] and rules["jump-in"]["clashes"] == []
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "only one stacking rule" in error
    for text in [error] + [c["reason"] for r in rules.values() for c in r["clashes"]]:
        assert "/" not in text and not any(f"E{n}" in text for n in range(100, 1000))    # no path, no code


def test_the_clash_prediction_agrees_with_check_for_every_pair_that_declares_one():
    lobby = Lobby(CLASSIC, players=4)
    facts = combos.rule_facts(lobby)
    suspects = [n for n, f in facts.items() if f["exclusive"] or f["conflicts"]] + ["wild-roulette"]
    for a, b in itertools.combinations(suspects, 2):
        try:
            lobby.load((a, b), {})
            loads = True
        except RoomError:
            loads = False
        assert loads == (combos.clash(facts, a, b) is None), (a, b)


def test_chat_lines_and_reactions_reach_every_seat_and_spectators_cannot_chat():
    lobby = Lobby(CLASSIC, players=2, seed=1)
    with TestClient(create_app(lobby)) as client:
        code = client.post("/api/rooms", json={"players": 2}).json()["code"]
        with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as w:
            a.send_json({"type": "join", "name": "Ann"})
            a.receive_json()
            w.send_json({"type": "watch"})
            a.send_json({"type": "chat", "text": "  hi <script>x</script>\x00  "})
            view = _until(w, lambda m: m["chat"])
            assert view["chat"] == [{"seat": 0, "name": "Ann", "text": "hi <script>x</script>"}]
            a.send_json({"type": "chat", "text": "x" * 500})
            assert len(_until(a, lambda m: len(m["chat"]) == 2)["chat"][1]["text"]) == 200
            w.send_json({"type": "chat", "text": "hello"})
            assert "spectators" in _error(w)
            a.send_json({"type": "chat", "text": "   "})
            assert "empty" in _error(a)


def test_the_turn_timer_has_a_bot_decide_for_a_connected_idle_player():
    now = [0.0]
    room = Room("ABCDEF", load(CLASSIC), 2, seed=4, turn_timer=20, clock=lambda: now[0])
    ann, bob = room.join("Ann"), room.join("Bob")
    deciding = room.seats[room.state.current_player]
    version = room.version
    assert room.view(deciding)["time_left"] == 20
    now[0] = 19.0
    room.tick()
    assert room.version == version                                 # still thinking
    now[0] = 20.0
    room.tick()
    assert room.version == version + 1 and len(room.state.history) == 1     # a bot decided once for them
    assert room.seats[deciding.number].bot is None                          # the seat is still theirs
    assert f"{deciding.name}'s time is up: a bot decides for them" in room.view(None)["log"]
    assert "your time is up: a bot decides for you" in room.view(deciding)["log"]
    other = room.seats[room.state.current_player]
    assert room.view(other)["time_left"] == 20                      # the next decision's time starts afresh
    room.leave(ann)
    room.leave(bob)                     # away (since 20): the grace period's business (30 s), not the timer's
    now[0] = 45.0
    version = room.version
    room.tick()
    assert room.version == version


def test_the_turn_timer_on_the_server_plays_for_the_idle_seat():
    lobby = Lobby(CLASSIC, players=2, seed=4)
    with TestClient(create_app(lobby)) as client:
        code = client.post("/api/rooms", json={"players": 2, "turn_timer": 0.01}).json()["code"]
        assert client.post("/api/rooms", json={"turn_timer": -1}).status_code == 400
        with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as b:
            for ws, name in ((a, "Ann"), (b, "Bob")):
                ws.send_json({"type": "join", "name": name})
            view = _until(a, lambda m: any("time is up" in line for line in m.get("log", [])))
            assert view["started"]


def test_served_on_every_interface_the_room_tells_its_network_address():
    from unodsl.cli.serve import network_addresses
    assert network_addresses("127.0.0.1", 8000) == []
    assert network_addresses("192.168.1.20", 8000) == ["http://192.168.1.20:8000"]
    assert all(not a.startswith("http://127.") and a.endswith(":8123") for a in network_addresses("0.0.0.0", 8123))
    lobby = Lobby(CLASSIC, players=2, addresses=["http://192.168.1.20:8000"])
    with TestClient(create_app(lobby)) as client:
        code = client.post("/api/rooms", json={"players": 2}).json()["code"]
        assert client.get(f"/api/rooms/{code}").json()["addresses"] == ["http://192.168.1.20:8000"]


def test_a_match_score_table_between_rounds_names_the_players():
    room = Room("ABCDEF", load(CLASSIC), 2, seed=5, match=True)
    ann = room.join("Ann")
    room.start()
    while not room.rounds:
        room.act(ann, room.view(ann)["choices"][0], room.version)
    table = room.view(ann)["score_table"]
    assert table[0].split() == ["round", "Ann", "(you)", "heuristic", "bot"] and table[-1].startswith("total")
    assert room.view(None)["score_table"][0].split() == ["round", "Ann", "heuristic", "bot"]


def test_the_call_badge_names_the_variant_s_call_and_leaves_a_player_who_went_out(tmp_path):
    room = Room("ABCDEF", load(CLASSIC), 2, seed=5)
    ann = room.join("Ann")
    room.start()
    _finish(room)
    winner = room.state.winner
    room.state.uno_called[winner] = True        # called with their second-to-last card, then went out
    seats = {e["seat"]: e for e in room.view(ann)["room"]["seats"]}
    assert seats[winner]["cards"] == 0 and seats[winner]["uno"] is False
    assert room.view(ann)["words"]["call"] == "UNO"
    path = tmp_path / "mau.yaml"
    path.write_text(f"unodsl: 1\nname: Mau\nextends: {Path(CLASSIC).resolve()}\nuno: {{call: Mau}}\n", encoding="utf-8")
    mau = Room("ABCDEF", load(str(path), root="/"), 2, seed=5)
    bob = mau.join("Bob")
    mau.start()
    assert mau.view(bob)["words"]["call"] == "Mau"


def test_the_variant_s_own_piles_are_shown_as_each_seat_may_see_them(tmp_path):
    """A face-up pile by its cards, a face-down one by its size, each player's own pile by its owner's name."""
    path = tmp_path / "bank.yaml"
    path.write_text(f"unodsl: 1\nname: Bank\nextends: {Path(CLASSIC).resolve()}\npiles:\n"
                    "  bank: {face: up, where: card.type == \"wild\"}\n"
                    "  reserve: {per_player: true, face: down, deal: 2}\n", encoding="utf-8")
    room = Room("ABCDEF", load(str(path), root="/"), 2, seed=5)
    ann = room.join("Ann")
    room.start()
    assert room.view(ann)["piles"] == ["the bank pile: Wild, Wild, Wild, Wild", "your reserve pile: 2 cards, face down",
                                       "heuristic bot's reserve pile: 2 cards, face down"]
    assert room.view(None)["piles"][1:] == ["Ann's reserve pile: 2 cards, face down",
                                            "heuristic bot's reserve pile: 2 cards, face down"]
    plain = Room("ABCDEF", load(CLASSIC), 2, seed=5)
    bob = plain.join("Bob")
    plain.start()
    assert plain.view(bob)["piles"] == []
