"""unodsl.text: the text view, the text environment, remote (ws://) and language-model (llm:) seats, and the
leak tests of every one of those channels."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import unodsl
from unodsl.agents.seats import AgentView, Seated, make_seat, seat_rng
from unodsl.cli.app import main
from unodsl.rl import resample_hidden
from unodsl.rulebook.narration import card_words, choice_words, words_as_ids
from unodsl.text import TextEnv, rulebook_section, view
from unodsl.text.llm import ChatAgent, parse_action
from unodsl.text.wire import decision_message

from chat_stub import ChatStub, plays_from_the_view

REPO = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[a-z0-9_]+")
TABLES = [("variants/classic.yaml", 2), ("variants/all-wild-grogu.yaml", 3), ("variants/teams.yaml", 4),
          ("variants/house-rules/seven-o.yaml", 3), ("variants/no-mercy.yaml", 4), ("variants/flip.yaml", 3)]


@pytest.fixture(scope="module")
def classic():
    return unodsl.load(str(REPO / "variants/classic.yaml"))


# --- the text view ---------------------------------------------------------------------------------


def test_the_text_view_says_what_the_seat_may_see_in_the_terminals_words(classic):
    state = classic.new_game(3, seed=7, record=True)
    seat = state.current_player
    text = view(state, seat)
    assert text.startswith(f"--- your move (p{seat}) --- turn ")
    assert f"top card: {card_words(classic, state.top_card)}" in text and "direction: clockwise" in text
    assert f"your hand ({len(state.hand(seat))}): " in text
    for q in range(3):
        if q != seat:
            assert f"p{q}: {len(state.hand(q))} cards" in text
    assert "decision: turn (your turn: play a card or draw)" in text
    assert "  1) " not in text                                    # no legal actions unless asked
    listed = view(state, seat, legal=True)
    assert all(f") {choice_words(classic, a)}" in listed for a in state.legal_actions())
    waiting = view(state, (seat + 1) % 3)
    assert f"p{seat} is deciding (turn)" in waiting and "decision:" not in waiting


def test_the_text_view_tells_what_happened_since_the_seats_last_decision(classic):
    state = classic.new_game(2, seed=3, record=True)
    seat = state.current_player
    since = len(state.events)
    state.apply("draw" if "draw" in state.legal_actions() else state.legal_actions()[0])
    while state.current_player != seat and not state.is_over:
        state.apply(state.legal_actions()[0])
    text = view(state, seat, since=since)
    assert "since your last move:" in text and "you draw" in text


def test_the_rulebook_by_section(classic):
    whole = rulebook_section(classic)
    assert whole.startswith("# UNO (classic)") and "## Scoring" in whole
    assert rulebook_section(classic, "a turn").startswith("## A turn")
    with pytest.raises(KeyError, match="the sections: Players, The deck"):
        rulebook_section(classic, "nothing")


# --- the text environment -------------------------------------------------------------------------------


def test_the_text_env_quotes_the_engines_reason_and_counts_every_incident(classic):
    env = TextEnv(classic, 2, text_seats=(0,), opponents="heuristic", seed=4, retries=2)
    seat, text = env.reset()
    assert seat == 0 and "your move (p0)" in text
    hand = set(env.state.hand(0))
    missing = next(name for name in classic.card_names if name not in hand)
    done, info = env.step(f"play {missing}")
    assert not done and not info["accepted"] and "does not hold" in info["reason"] and info["tries_left"] == 2
    _, again = env.observation()
    assert f"your answer was refused: player 0 does not hold {missing} (2 tries left)" in again
    done, info = env.step("dance")
    assert info["reason"].startswith("'dance': not an action")
    done, info = env.step("fly")                                # the third refusal: the fallback plays
    assert info["fallback"] and info["action"] in env.state.g.action_to_string.__self__.card_names or True
    assert env.incidents == {"illegal": 1, "unparsable": 2, "fallback": 1}
    assert [r.attempt for r in env.refusals] == [0, 1, 2]
    while not env.done:                                         # a whole game by a script that reads legal actions
        seat, text = env.observation()
        done, info = env.step(env.state.legal_actions()[0])
        assert info["accepted"]
    assert env.result()["winner"] is not None or env.state.stalled


def test_a_forfeit_ends_the_text_game(classic):
    env = TextEnv(classic, 2, seed=1, retries=0, fallback="forfeit")
    env.reset()
    done, info = env.step("nonsense")
    assert done and info["forfeit"] and env.observation()[1] == "the game is over: p0 forfeited"


def test_the_text_env_is_deterministic_given_a_seed(classic):
    def run():
        env = TextEnv(classic, 3, text_seats=(1,), opponents="expert,random", seed=9, legal=True)
        seat, text = env.reset()
        texts = [text]
        while not env.done:
            env.step(env.state.legal_actions()[-1])
            texts.append(env.observation()[1])
        return texts
    assert run() == run()


# --- leak tests: the text view, the wire messages ------------------------------------------------------


def _decisions(path, players, seed, limit):
    game = unodsl.load(str(REPO / path))
    state = game.new_game(players, seed=seed)
    bots = [make_seat("heuristic", seat_rng(seed, q)) for q in range(players)]
    seen = 0
    while not state.is_over and seen < limit:
        if len(state.legal_action_ids()) > 1:
            yield game, state
            seen += 1
        state.apply_id(bots[state.current_player].act(state))


@pytest.mark.parametrize("path, players", TABLES)
def test_no_text_channel_changes_when_the_hidden_cards_are_dealt_again(path, players):
    """The text view of every seat and the message a remote seat is sent read the same on a state whose hidden
    cards (other hands, the draw pile, the generator) were dealt again: they hold nothing the seat cannot see."""
    rng = random.Random(3)
    checked = 0
    for game, state in _decisions(path, players, 5, 20):
        for seat in range(players):
            redealt = resample_hidden(game, state, seat, rng)
            assert view(redealt, seat, legal=True) == view(state, seat, legal=True), (seat, state.total_turns)
            if seat == state.current_player:
                a, b = decision_message(AgentView(state)), decision_message(AgentView(redealt))
                assert a == b
            checked += 1
    assert checked >= 10 * players


def _known_cards_check(game, state, seat, known_public, text):
    names = game.card_names
    hidden = {names[k] for k in state.draw_pile}
    for q in range(state.n):
        if q != seat:
            hidden |= {names[k] for k in state.hands[q]}
    allowed = known_public | {names[k] for k in state.hands[seat]}
    allowed |= {names[k] for cards in state.revealed.get(seat, {}).values() for k in cards}
    leaked = set(WORD.findall(words_as_ids(game, text))) & (hidden - allowed)     # cards in words too
    assert not leaked, (seat, state.total_turns, leaked)


def test_a_whole_recorded_game_tells_no_seat_a_card_it_may_not_see(classic):
    """Every decision's text view and wire message, with what happened since the seat's last decision."""
    for seed in range(3):
        state = classic.new_game(3, seed=seed, record=True)
        seats = [make_seat("heuristic", seat_rng(seed, q)) for q in range(3)]
        since = [0, 0, 0]
        public: set = set()
        while not state.is_over:
            public |= {classic.card_names[k] for k in state.discard}
            seat = state.current_player
            text = view(state, seat, since=since[seat])
            message = json.dumps(decision_message(AgentView(state, since=since[seat])))
            for words in (text, message):
                _known_cards_check(classic, state, seat, public, words)
            since[seat] = len(state.events)
            state.apply_id(seats[seat].act(state))


# --- remote seats (ws://) ------------------------------------------------------------------------------


class Received(list):
    """The messages the remote program was sent, in order; the server's thread appends to it."""

    def __init__(self):
        super().__init__()
        self.changed = threading.Condition()

    def add(self, message: dict) -> None:
        with self.changed:
            self.append(message)
            self.changed.notify_all()

    def wait_for(self, predicate) -> None:
        """Wait until the messages meet `predicate`: the last of them (a `result`) may still be on its
        way through the socket when the game that sent it has returned."""
        with self.changed:
            assert self.changed.wait_for(lambda: predicate(self), timeout=60), [m["type"] for m in self]


@pytest.fixture()
def remote_agent():
    """The documented remote program (docs/examples/agents/remote_agent.py) on a free loopback port,
    recording every message it is sent."""
    pytest.importorskip("websockets")
    import importlib.util

    from websockets.sync.server import serve
    spec = importlib.util.spec_from_file_location("remote_agent", REPO / "docs/examples/agents/remote_agent.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    received = Received()

    def handle(connection):
        for raw in connection:
            message = json.loads(raw)
            received.add(message)
            if message["type"] == "decide":
                connection.send(json.dumps({"action": module.choose(message)}))

    server = serve(handle, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.socket.getsockname()[1]
    yield f"ws://127.0.0.1:{port}", received
    server.shutdown()
    thread.join(5)


def test_a_remote_program_plays_whole_games_in_simulate(remote_agent):
    url, received = remote_agent
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "3", "--players", "2", "--seed", "2",
                                       "--bots", f"{url},heuristic", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 3
    received.wait_for(lambda messages: sum(m["type"] == "result" for m in messages) == 3)
    kinds = [m["type"] for m in received]
    assert kinds.count("reset") == 3 and kinds.count("result") == 3 and kinds.count("decide") > 20
    decide = next(m for m in received if m["type"] == "decide")
    assert {"text", "observation", "legal", "events", "seat", "decision"} <= set(decide)
    assert decide["text"].startswith(f"--- your move (p{decide['seat']})")


def test_what_a_remote_seat_is_sent_holds_no_hidden_card(classic, remote_agent):
    url, received = remote_agent
    checked = 0
    for seed in range(2):
        state = classic.new_game(2, seed=seed, record=True)
        seats = [make_seat(url, seat_rng(seed, 0)), make_seat("heuristic", seat_rng(seed, 1))]
        public: set = set()
        while not state.is_over:
            public |= {classic.card_names[k] for k in state.discard}
            seat = state.current_player
            before = len(received)
            snapshot = state.clone()
            state.apply_id(seats[seat].act(state))
            for message in received[before:]:
                _known_cards_check(classic, snapshot, 0, public, json.dumps(message))
                checked += 1
        seats[0].game_over(state, 0)
    assert checked > 20


def test_a_remote_seat_that_does_not_answer_times_out_to_the_fallback(classic):
    pytest.importorskip("websockets")
    from websockets.sync.server import serve

    def silent(connection):
        for _ in connection:
            pass

    with serve(silent, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"ws://127.0.0.1:{server.socket.getsockname()[1]}?timeout=0.3"
        seat = make_seat(url, random.Random(1))
        state = classic.new_game(2, seed=1, record=True)
        assert seat.act(state) in state.legal_action_ids()
        assert seat.incidents == {"timeout": 1, "fallback": 1}
        seat.agent.close()
        server.shutdown()
        thread.join(5)


# --- language-model seats (llm:) ----------------------------------------------------------------------


@pytest.mark.parametrize("reply, action", [
    ("I will play my red seven.\nACTION: play red_7", "play red_7"),
    ("**Action:** `draw`", "draw"),
    ("play blue_skip uno.", "play blue_skip uno"),
    ("Thinking...\naction: color   green\n", "color green"),
    ("", ""),
])
def test_a_reply_is_read_for_its_action(reply, action):
    assert parse_action(reply) == action


def test_the_llm_seat_prompts_with_the_rulebook_and_the_view_and_retries_with_the_reason(classic, monkeypatch):
    state = classic.new_game(2, seed=4, record=True)
    seat = state.current_player
    hand = set(state.hand(seat))
    missing = next(name for name in classic.card_names if name not in hand)
    legal = state.legal_actions()[0]
    with ChatStub([f"ACTION: play {missing}", "I am not sure", f"Fine.\nACTION: {legal}"]) as stub:
        monkeypatch.setenv("UNODSL_LLM_URL", stub.url)
        monkeypatch.setenv("UNODSL_LLM_KEY", "sk-test")
        seated = make_seat("llm:stub-model:retries=2", seat_rng(4, seat))
        action = seated.act(state)
    assert classic.action_to_string(action) == legal
    assert len(stub.requests) == 3 and stub.requests[0]["model"] == "stub-model"
    assert stub.headers[0]["Authorization"] == "Bearer sk-test"
    first = stub.requests[0]["messages"]
    assert first[0]["role"] == "system" and "## Scoring" in first[0]["content"] and "ACTION:" in first[0]["content"]
    assert first[1]["content"].startswith(f"--- your move (p{seat})") and "ACTION:" in first[1]["content"]
    retry = stub.requests[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": f"ACTION: play {missing}"}
    assert retry[-1]["content"].startswith(f"That action was refused: player {seat} does not hold {missing}")
    assert "not an action of this variant" in stub.requests[2]["messages"][-1]["content"]
    assert seated.incidents == {"illegal": 2} and seated.first_try_illegal == 1


def test_an_llm_seat_without_an_endpoint_says_what_to_set(monkeypatch):
    monkeypatch.delenv("UNODSL_LLM_URL", raising=False)
    with pytest.raises(ValueError, match="UNODSL_LLM_URL"):
        make_seat("llm:x", random.Random(0))


def test_a_language_model_plays_whole_games_through_the_cli(classic, monkeypatch):
    with ChatStub(fallback=plays_from_the_view(classic)) as stub:
        monkeypatch.setenv("UNODSL_LLM_URL", stub.url)
        result = CliRunner().invoke(main, ["simulate", "classic", "-n", "2", "--players", "2", "--seed", "6",
                                           "--bots", "llm:stub,heuristic", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 2 and len(stub.requests) > 20
    for request in stub.requests:                                # nothing but the system prompt and the seat's words
        assert request["messages"][0]["content"].startswith("You are playing a card game")
