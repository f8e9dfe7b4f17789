"""The seat protocol: seat specs, agents in seats (views, retries with the engine's reason, timeouts,
fallbacks, incidents), and the same seeding in every front end."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import unodsl
from unodsl.agents.seats import (Forfeit, Seated, check_seat, game_over, make_seat, parse_seat, register_seat,
                                 seat_all, seat_rng)
from unodsl.cli.app import main
from unodsl.runs.simulate import play_one

REPO = Path(__file__).resolve().parent.parent
FIRST_LEGAL = f"py:{REPO / 'docs/examples/agents/first_legal.py'}:FirstLegal"


@pytest.fixture(scope="module")
def classic():
    return unodsl.load(str(REPO / "variants/classic.yaml"))


def test_specs_read_every_kind():
    assert parse_seat("ismcts:200").kind == "bot"
    py = parse_seat("py:my.agents:Policy:path=model.zip:timeout=2.5:fallback=forfeit")
    assert (py.kind, py.target, py.options, py.settings) == (
        "py", "my.agents:Policy", {"path": "model.zip"}, {"timeout": 2.5, "fallback": "forfeit"})
    ws = parse_seat("ws://127.0.0.1:8765/seat?timeout=3&name=x&legal=no")
    assert (ws.kind, ws.target, ws.settings, ws.options) == (
        "ws", "ws://127.0.0.1:8765/seat?name=x", {"timeout": 3.0}, {"legal": "no"})
    llm = parse_seat("llm:llama3:8b:retries=1")
    assert (llm.kind, llm.target, llm.settings) == ("llm", "llama3:8b", {"retries": 1})
    assert parse_seat("llm").target == ""


@pytest.mark.parametrize("spec, message", [
    ("nobody", "unknown bot 'nobody' (choose from random, heuristic"),
    ("py:onlymodule", "py:package.module:Class"),
    ("py:m:C:novalue", "option 'novalue' is not key=value"),
    ("py:m:C:fallback=resign", "fallback='resign'"),
    ("ismcts:nope=1", "no option 'nope'"),
    ("ws://", "needs a host"),
])
def test_bad_specs_say_why(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("?", r"\?")):
        parse_seat(spec)


def test_a_missing_class_is_named():
    with pytest.raises(ValueError, match="has no 'Nobody'"):
        check_seat(FIRST_LEGAL.replace("FirstLegal", "Nobody"))
    with pytest.raises(ValueError, match="cannot import 'no_such_module_here'"):
        check_seat("py:no_such_module_here:Agent")


def test_a_python_class_plays_whole_games_in_simulate():
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "6", "--players", "2", "--seed", "3",
                                       "--bots", f"{FIRST_LEGAL},heuristic", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 6 and sum(s["wins"] for s in summary["seats"]) + summary["no_winner"] == 6


def test_the_cli_refuses_a_bad_spec_with_a_usage_error():
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "1", "--bots", "py:nowhere_module:X"])
    assert result.exit_code == 2 and "cannot import 'nowhere_module'" in result.output


def test_an_agent_is_reset_told_the_result_and_sees_its_events(classic):
    seen = []

    class Watcher:
        def reset(self, seat, game):
            seen.append(("reset", seat, game.variant.name))

        def act(self, view):
            seen.append(("events", len(view.events), view.decision))
            return view.legal_actions[0]

        def observe_result(self, result):
            seen.append(("result", result["seat"], result["won"]))

    state = classic.new_game(2, seed=5, record=True)
    seats = [Seated(Watcher(), seat_rng(5, 0), "watcher"), make_seat("heuristic", seat_rng(5, 1))]
    while not state.is_over:
        state.apply_id(seats[state.current_player].act(state))
    game_over(seats, state)
    assert seen[0] == ("reset", 0, classic.variant.name)
    assert seen[-1] == ("result", 0, state.winner == 0)
    assert sum(1 for s in seen if s[0] == "reset") == 1
    # After its first decision, each later one is told what happened since (at least the other seat's move).
    assert all(n > 0 for kind, n, _ in seen[2:-1] if kind == "events")


def _deciding(classic, seed=5):
    state = classic.new_game(2, seed=seed, record=True)
    return state


def test_an_illegal_answer_is_given_back_with_the_engines_reason(classic):
    answers = []

    class Stubborn:
        def act(self, view):
            answers.append(view.feedback)
            if view.attempt == 0:
                return "play wild_draw_four_nonsense"
            if view.attempt == 1:
                hand = set(view.observation["hand"])
                missing = next(name for name in view.game.card_names if name not in hand)
                return f"play {missing}"
            return view.legal_actions[-1]

    state = _deciding(classic)
    seated = Seated(Stubborn(), seat_rng(1, 0), "stubborn")
    action = seated.act(state)
    assert action in state.legal_action_ids()
    assert answers[0] is None
    assert "not an action of this variant" in answers[1]
    assert "does not hold" in answers[2]                        # the engine's own reason
    assert seated.incidents == {"illegal": 2} and seated.first_try_illegal == 1


def test_a_seat_that_stays_illegal_falls_back_to_a_random_legal_action_logged(classic):
    class Wrong:
        def act(self, view):
            return "color purple"

    state = _deciding(classic)
    seated = Seated(Wrong(), random.Random(1), "wrong", retries=1)
    action = seated.act(state)
    assert action in state.legal_action_ids()
    assert seated.incidents == {"illegal": 2, "fallback": 1}
    assert "played a random legal action instead" in seated.log[0]
    with pytest.raises(Forfeit, match=r"seat \d \(wrong\) forfeits: answered 'color purple'"):
        Seated(Wrong(), random.Random(1), "wrong", fallback="forfeit", retries=0).act(state)


def test_a_slow_agent_times_out_and_a_raising_one_does_not_end_the_game(classic):
    class Slow:
        def act(self, view):
            time.sleep(2)
            return view.legal_actions[0]

    class Broken:
        def act(self, view):
            raise RuntimeError("my model crashed")

    state = _deciding(classic)
    slow = Seated(Slow(), random.Random(2), "slow", timeout=0.2)
    start = time.monotonic()
    assert slow.act(state) in state.legal_action_ids()
    assert time.monotonic() - start < 1.5
    assert slow.incidents == {"timeout": 1, "fallback": 1} and "no answer within 0.2 s" in slow.log[0]
    broken = Seated(Broken(), random.Random(2), "broken")
    assert broken.act(state) in state.legal_action_ids()
    assert "RuntimeError: my model crashed" in broken.log[0]


def test_named_seats_are_registered_by_name():
    register_seat("first-legal-test", f"{REPO / 'docs/examples/agents/first_legal.py'}:FirstLegal", prefer="play")
    seat = make_seat("first-legal-test:timeout=4", random.Random(0))
    assert isinstance(seat, Seated) and seat.timeout == 4.0 and seat.agent.prefer == "play"
    with pytest.raises(ValueError, match="cannot name a seat"):
        register_seat("heuristic", "x:Y")


def test_every_front_end_seeds_a_seat_alike(classic):
    """A room, the terminal and simulate seat the seat at q of a game seeded S with seat_rng(S, q):
    the same bots play the same game."""
    from unodsl.web.rooms import Room
    specs = ["heuristic", "random"]
    simulated = play_one(classic, 2, 11, specs)
    room = Room("ABCDEF", classic, 2, bots=",".join(specs), seed=11)
    room.start()
    assert room.state.is_over and room.state.history == simulated.history
    state = classic.new_game(2, seed=11)
    seats = seat_all(state, specs)
    while not state.is_over:
        state.apply_id(seats[state.current_player].act(state))
    assert state.history == simulated.history


def test_the_terminal_seats_python_agents(classic, tmp_path):
    from io import StringIO

    from unodsl.cli.terminal import play_terminal
    out = StringIO()
    state = play_terminal(classic, 2, 0, FIRST_LEGAL, 4, False, stdin=StringIO("1\n" * 400), stdout=out,
                          color=False, interactive=False)
    assert state.is_over


def test_a_forfeit_stops_simulate_with_a_message_even_from_a_worker(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("class Bad:\n    def act(self, view):\n        return 'nonsense'\n")
    spec = f"py:{bad}:Bad:retries=0:fallback=forfeit"
    for workers in ("1", "2"):
        result = CliRunner().invoke(main, ["simulate", "classic", "-n", "4", "--workers", workers, "--players", "2",
                                           "--bots", f"{spec},heuristic"])
        assert result.exit_code == 1
        assert f"seat 0 ({spec}) forfeits" in result.output and "internal error" not in result.output
