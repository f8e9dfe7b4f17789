"""`unodsl mcp` driven by the mcp SDK's own client over stdio: whole games to the end by scripted clients
(against bots here, and at a `unodsl serve` room over a real WebSocket), and no reply holds a card of
another seat's hand."""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

import unodsl  # noqa: E402
from unodsl.rulebook.narration import words_as_ids  # noqa: E402
from unodsl.text.env import TextEnv  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[a-z0-9_]+")


def _text(result) -> str:
    assert not result.is_error, result.content
    return "\n".join(part.text for part in result.content if part.type == "text")


def _client(*args: str):
    """A function running `script(session)` against `unodsl mcp ARGS` over stdio; returns its result."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "unodsl", "mcp", *args], cwd=str(REPO))

    def run(script):
        async def main():
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await script(session)
        return anyio.run(main)
    return run


def test_the_tools_and_the_rulebook():
    async def script(session):
        plain = [tool.name for tool in (await session.list_tools()).tools]
        whole = _text(await session.call_tool("rulebook", {}))
        turn = _text(await session.call_tool("rulebook", {"section": "a turn"}))
        wrong = await session.call_tool("rulebook", {"section": "nothing"})
        early = await session.call_tool("view", {})
        return plain, whole, turn, wrong, early
    plain, whole, turn, wrong, early = _client("classic")(script)
    assert set(plain) == {"rulebook", "start_game", "join_room", "start_room", "view", "act", "wait_for_turn"}
    assert whole.startswith("# UNO (classic)") and turn.startswith("## A turn")
    assert wrong.is_error and "the sections: Players" in wrong.content[0].text
    assert early.is_error and "no game yet" in early.content[0].text

    async def assisted(session):
        return [tool.name for tool in (await session.list_tools()).tools]
    assert "legal_actions" in _client("classic", "--assist")(assisted)


def _hidden(game, state, seat: int) -> set[str]:
    names = game.card_names
    hidden = {names[k] for k in state.draw_pile}
    for q in range(state.n):
        if q != seat:
            hidden |= {names[k] for k in state.hands[q]}
    known = {names[k] for k in state.hands[seat]} | {names[k] for k in state.discard}
    known |= {names[k] for cards in state.revealed.get(seat, {}).values() for k in cards}
    return hidden - known


def test_a_scripted_client_plays_a_whole_game_and_no_reply_holds_another_hand():
    """The client plays the first legal action (assist mode) from start to end; the same game replayed here,
    step for step, gives every reply's text exactly, and none names a card seat 0 may not see."""
    async def script(session):
        replies = [_text(await session.call_tool("start_game", {"players": 3, "opponents": "heuristic,expert",
                                                                "seed": 21, "seat": 0}))]
        actions = []
        while "the game is over" not in replies[-1]:
            legal = _text(await session.call_tool("legal_actions", {})).splitlines()
            actions.append(legal[0])
            replies.append(_text(await session.call_tool("act", {"action": legal[0]})))
            assert len(actions) < 2000
        replies.append(_text(await session.call_tool("view", {})))
        return replies, actions

    replies, actions = _client("classic", "--assist")(script)
    game = unodsl.load(str(REPO / "variants/classic.yaml"))
    env = TextEnv(game, 3, text_seats=(0,), opponents="heuristic,expert", seed=21)
    assert replies[0] == env.reset(21)[1]
    for action, reply in zip(actions, replies[1:]):
        before = env.state.clone()
        env.step(action)
        assert reply == f"you: {action}\n\n{env.observation()[1]}"
        leaked = set(WORD.findall(words_as_ids(game, reply))) & (_hidden(game, env.state, 0) & _hidden(game, before, 0))
        assert not leaked, (action, leaked)
    assert env.done and len(actions) > 5


def test_without_assist_a_client_reads_the_view_and_the_refusals_quote_the_engine():
    hand_line = re.compile(r"^your hand \(\d+\): (.*)$", re.M)

    async def script(session):
        text = _text(await session.call_tool("start_game", {"players": 2, "seed": 5}))
        refusals, moves = [], 0
        while "the game is over" not in text and moves < 600:
            moves += 1
            if "decision: turn" in text:
                cards = re.split(r" \| |, ", hand_line.search(text).group(1))        # cards in words: "Red 7"
                text = _text(await session.call_tool("act", {"action": f"play {cards[0]}"}))
                if text.startswith("refused"):
                    refusals.append(text.split("\n", 1)[0])
                    text = _text(await session.call_tool("act", {"action": "draw"}))
            elif "decision: color" in text:
                text = _text(await session.call_tool("act", {"action": "color red"}))
            elif "decision: drawn" in text:
                text = _text(await session.call_tool("act", {"action": "keep"}))
            else:
                text = _text(await session.call_tool("act", {"action": "pass"}))
                if text.startswith("refused"):
                    text = _text(await session.call_tool("act", {"action": "accept"}))
        return text, refusals
    text, refusals = _client("classic")(script)
    assert "the game is over" in text
    assert refusals and all(re.match(r"refused: .+ \(\d tries left\)$", r) for r in refusals)
    assert any("does not match" in r for r in refusals)


@pytest.fixture
def served():
    """`unodsl serve` on a free loopback port (uvicorn in a thread), as a person would run it."""
    uvicorn = pytest.importorskip("uvicorn")
    from unodsl.web.server import Lobby, create_app
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    lobby = Lobby(str(REPO / "variants/classic.yaml"), players=3, seed=8, grace=30)
    srv = uvicorn.Server(uvicorn.Config(create_app(lobby), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    waited = threading.Event()
    while not srv.started and thread.is_alive():
        waited.wait(0.05)
    yield lobby, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(20)


def _new_room(base: str, players: int) -> str:
    request = urllib.request.Request(f"{base}/api/rooms", data=json.dumps({"players": players}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["code"]


def test_a_model_joins_a_serve_room_as_an_ordinary_seat_and_plays_to_the_end(served):
    lobby, base = served
    code = _new_room(base, 3)

    async def script(session):
        joined = _text(await session.call_tool("join_room", {"server_url": base, "code": code, "name": "model"}))
        text = _text(await session.call_tool("start_room", {}))
        texts, moves = [text], 0
        while "the game is over" not in text and moves < 800:
            text = _text(await session.call_tool("wait_for_turn", {"timeout": 10}))
            if "the game is over" in text:
                break
            legal = _text(await session.call_tool("legal_actions", {})).splitlines()
            text = _text(await session.call_tool("act", {"action": legal[0]}))
            texts.append(text)
            moves += 1
        return joined, texts, moves
    joined, texts, moves = _client("classic", "--assist")(script)
    room = lobby.rooms[code]
    assert "has not started" in joined and room.state.is_over and moves > 3
    assert "the game is over" in texts[-1]
    seat = next(s.number for s in room.seats if s.name == "model")
    names = room.game.card_names
    others = {names[k] for q in range(room.players) if q != seat for k in room.state.hands[q]}
    # At the end, the cards still in the other hands were never shown to the model's seat.
    assert not set(WORD.findall(words_as_ids(room.game, "\n".join(texts)))) & (others - {names[k] for k in room.state.discard})
