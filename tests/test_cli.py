"""The command line: check, play (scripted), simulate, replay, and the terminal game's honesty."""

from __future__ import annotations

import io
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.check import load
from unodsl.cli import main
from unodsl.cli.terminal import narrate, play_terminal, render_view, sort_hand
from unodsl.rulebook.narration import cards_words, group_hand
from unodsl.agents.bots import make_bot

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "variants" / "classic.yaml")

BROKEN = """\
unodsl: 1
name: Broken
players: {min: 2, max: 4}
colors: [red, blue]
cards:
  number:
    name: Number
    numbers: {"0-9": 4}
    colour: red
    on_play: next drawz 2
"""


def cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False, prog_name="unodsl")


def run(*args, input=None, cwd=ROOT, timeout=60):
    return subprocess.run([sys.executable, "-m", "unodsl.cli", *args], input=input, capture_output=True,
                          text=True, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def classic():
    return load(CLASSIC)


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    return str(path)


# --- check ----------------------------------------------------------------------------


def test_check_classic_is_clean():
    result = cli("check", CLASSIC)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "no problems" in result.stderr


def test_check_broken_reports_every_problem_sorted(broken):
    result = cli("check", broken)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) >= 2
    positions = []
    for line in lines:
        match = re.match(r"^(.+):(\d+):(\d+): ([EW]\d{3}) \S", line)
        assert match, line
        assert match.group(1) == broken
        positions.append((int(match.group(2)), int(match.group(3))))
    assert positions == sorted(positions)
    assert any(":9:5: E201" in line for line in lines)          # the misspelt key, at its position
    assert "error(s)" in result.stderr


def test_check_several_files_in_the_order_given(broken):
    result = cli("check", broken, CLASSIC, broken)
    assert result.exit_code == 1
    assert all(line.startswith(broken) for line in result.stdout.splitlines())
    # the same file twice reports its problems once
    assert len(result.stdout.splitlines()) == len(cli("check", broken).stdout.splitlines())


def test_check_format_full_shows_the_source_line(broken):
    result = cli("check", "--format", "full", broken)
    assert result.exit_code == 1
    assert "    colour: red" in result.stdout
    assert re.search(r"^\s+\^~*$", result.stdout, re.M)


def test_check_format_json_parses(broken):
    result = cli("check", "--format", "json", broken, CLASSIC)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data and all({"path", "line", "column", "code", "severity", "message"} <= set(d) for d in data)
    clean = cli("check", "--format", "json", CLASSIC)
    assert clean.exit_code == 0 and json.loads(clean.stdout) == []


def test_check_usage_errors_exit_2():
    assert cli("check").exit_code == 2
    assert cli("check", "--format", "xml", CLASSIC).exit_code == 2
    assert cli("check", "--bogus", CLASSIC).exit_code == 2


# --- play ------------------------------------------------------------------------------


def test_scripted_game_through_the_cli():
    result = run("play", CLASSIC, "--bots", "heuristic", "--seed", "7", input="1\n" * 3000)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^p\d wins", result.stdout, re.M)
    assert "scores:" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_scripted_game_accepts_action_strings_and_explains_bad_entries():
    result = cli("play", CLASSIC, "--bots", "heuristic", "--seed", "7",
                 input="bogus\n99\nplay wild\n# a comment\n\n" + "1\n" * 3000)
    assert result.exit_code == 0
    out = result.stdout
    assert "'bogus' is not possible: not an action of this variant" in out
    assert "'99' is not possible: choose a number from 1 to" in out
    assert "'play wild' is not possible: you do not hold Wild" in out
    assert "wins" in out


def test_end_of_input_before_the_game_is_over():
    result = run("play", CLASSIC, "--bots", "heuristic", "--seed", "7", input="1\n1\n")
    assert result.returncode == 1
    assert result.stderr.strip() == "unodsl: input ended before the game was over"
    assert "Traceback" not in result.stdout + result.stderr


def test_quit_leaves_the_game_with_a_summary_and_exit_0(tmp_path):
    result = cli("play", CLASSIC, "--seed", "7", input="quit\n")
    assert result.exit_code == 0
    summary = result.stdout.splitlines()[-2:]
    assert re.fullmatch(r"You left the game after \d+ turns? \(round 1\)\.", summary[0]), summary
    assert re.fullmatch(r"Cards in hand: p0 \(you\) 7, p1 \d+, p2 \d+, p3 \d+\.", summary[1]), summary
    log = tmp_path / "game.json"
    logged = cli("play", CLASSIC, "--seed", "7", "--log", str(log), input="quit\n")
    assert logged.exit_code == 0 and "No log was written" in logged.stdout and not log.exists()


def test_play_is_deterministic_for_a_seed():
    first = cli("play", CLASSIC, "--bots", "heuristic", "--seed", "11", input="1\n" * 3000)
    second = cli("play", CLASSIC, "--bots", "heuristic", "--seed", "11", input="1\n" * 3000)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout


def _as_at_a_terminal():
    """In the child: SIGINT as a terminal's foreground job has it. A job started in the background by
    a shell without job control (as CI may start the suite) inherits SIGINT ignored, and Python then
    never turns Ctrl-C into KeyboardInterrupt; a player at a terminal always gets the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_until(master: int, marker: bytes) -> bytes:
    """What the child writes to the terminal `master`, up to and including `marker` (the event to wait
    for). The 120 s is a hang guard, so that a child that never shows it fails the test, not the suite."""
    screen = b""
    while marker not in screen:
        if not select.select([master], [], [], 120)[0]:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:                     # the terminal closed: the process ended early
            break
        if not chunk:
            break
        screen += chunk
    assert marker in screen, screen[-500:]
    return screen


# The calls a child blocks in while it waits for a line: read, poll, select, pselect6, ppoll (x86-64, arm64).
_WAITING_FOR_INPUT = {"x86_64": {0, 7, 23, 270, 271}, "aarch64": {63, 72, 73}}


def _wait_until_reading(pid: int) -> None:
    """Wait until the child is blocked waiting for a key (its system call, from /proc), so that a
    signal is not sent in the moment between the prompt being written and the wait beginning: readline
    checks for signals only when its wait is interrupted, so one sent earlier waits for a key. The 120 s
    is a hang guard. Without /proc (or on another machine) this returns at once."""
    calls = _WAITING_FOR_INPUT.get(os.uname().machine)
    deadline = time.monotonic() + 120
    while calls and time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/syscall") as f:
                number = f.read().split()[0]
        except (OSError, IndexError):
            return
        if number.isdigit() and int(number) in calls:
            return
        time.sleep(0.01)


def _drain_until_exit(proc, master: int) -> None:
    """Keep reading the child's terminal until it exits, so that nothing it still writes there can
    block it on a full terminal buffer (the 120 s: a hang guard, not a wait)."""
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            try:
                os.read(master, 4096)
            except OSError:
                pass


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_during_play_exits_130():
    """Ctrl-C at the prompt, as a player at a terminal gives it: sent once the prompt is on screen."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "unodsl.cli", "play", CLASSIC, "--seed", "7"], cwd=ROOT,
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, NO_COLOR="1", TERM="dumb"), preexec_fn=_as_at_a_terminal)
    os.close(slave)
    try:
        _read_until(master, b"type an action: ")     # the game waits for the player
        _wait_until_reading(proc.pid)
        proc.send_signal(signal.SIGINT)
        _drain_until_exit(proc, master)
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
        os.close(master)
    assert proc.returncode == 130, err
    assert err.strip() == "unodsl: interrupted"
    assert "Traceback" not in err


# --- hidden information ------------------------------------------------------------------


def _decision_points(game, seed: int, seat: int, players: int = 4):
    """States at which `seat` must decide, in a bot-played game (with the human's events and hand)."""
    state = game.new_game(players, seed=seed, record=True)
    bot = make_bot("heuristic", random.Random(seed))
    seen, previous = 0, state.hand(seat)
    while not state.is_over:
        if state.current_player == seat:
            events = narrate(state.events_for(seat, seen), seat)
            yield state, events, previous
            seen = len(state.events)
            state.apply_id(bot.act(state))
            previous = state.hand(seat)
        else:
            state.apply_id(bot.act(state))


def _reshuffle_hidden_cards(state, seat: int, rng: random.Random):
    """A copy in which every card the seat cannot see (other hands, draw pile) is dealt differently."""
    other = state.clone()
    seats = [q for q in range(other.n) if q != seat]
    pool = [k for q in seats for k in other.hands[q]] + list(other.draw_pile)
    rng.shuffle(pool)
    for q in seats:
        size = len(other.hands[q])
        other.hands[q][:] = pool[:size]
        pool = pool[size:]
    other.draw_pile[:] = pool
    return other


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_view_does_not_depend_on_hidden_cards(classic, seed):
    rng = random.Random(seed)
    checked = 0
    for state, events, previous in _decision_points(classic, seed, seat=1):
        legal = state.legal_actions()
        shown = "\n".join(t.plain for t in render_view(classic, state.observation(1), events, legal, previous))
        twin = _reshuffle_hidden_cards(state, 1, rng)
        assert twin.hands[1] == state.hands[1]
        if any(sorted(a) != sorted(b) for a, b in zip(twin.hands, state.hands)):
            checked += 1
        twin_shown = "\n".join(t.plain for t in render_view(classic, twin.observation(1), events,
                                                             twin.legal_actions(), previous))
        assert shown == twin_shown
        assert "your hand" in shown
    assert checked > 3


def test_the_view_shows_no_hand_but_the_players_own(classic):
    for state, events, previous in _decision_points(classic, 5, seat=0):
        shown = "\n".join(t.plain for t in render_view(classic, state.observation(0), events,
                                                       state.legal_actions(), previous))
        for q in range(1, state.n):
            if len(state.hands[q]) >= 3:
                assert cards_words(classic, sort_hand(classic, state.hand(q))) not in shown
                assert " | ".join(cards_words(classic, g) for g in group_hand(classic, state.hand(q))) not in shown


def test_the_narration_tells_others_moves_without_their_secrets(classic):
    rest = Counter(classic.deck) - Counter(classic.card_index[c] for c in
                                           ["blue_3", "green_4", "yellow_5", "yellow_6", "red_draw_two", "blue_8",
                                            "red_5", "red_9", "blue_1", "blue_2"])
    pile = [classic.card_index[c] for c in ["red_9", "blue_1", "blue_2"]] + sorted(rest.elements())
    state = classic.position([["blue_3", "green_4"], ["yellow_5", "yellow_6"], ["red_draw_two", "blue_8"]], pile,
                             ["red_5"], dealer=2, turn=0, record=True)
    for action in ("draw", "keep", "draw", "play red_draw_two"):
        state.apply(action)
    # p0's kept card was playable: only p0 is told it was kept, and what it was
    assert narrate(state.events_for(0), 0, classic) == [
        "you draw 1: Red 9", "you keep Red 9", "p1 draws 1", "p2 plays Red Draw Two",
        "you draw 2 and are skipped: Blue 2, Red 0"]
    assert narrate(state.events_for(1), 1, classic) == ["p0 draws 1", "you draw 1: Blue 1", "p2 plays Red Draw Two",
                                                         "p0 draws 2 and is skipped"]


def test_play_terminal_plain_output_has_no_escape_codes(classic):
    out = io.StringIO()
    state = play_terminal(classic, 3, 2, "random", 5, False, stdin=io.StringIO("1\n" * 5000), stdout=out)
    assert state.is_over
    text = out.getvalue()
    assert "\x1b[" not in text
    assert "you are p2" in text


# --- simulate ------------------------------------------------------------------------------


def _sim_json(*extra):
    result = cli("simulate", CLASSIC, "-n", "30", "--bots", "heuristic", "--json", *extra)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_simulate_is_deterministic_for_a_seed():
    first, second = _sim_json("--seed", "5"), _sim_json("--seed", "5")
    assert first == second
    assert first["games"] == 30 and first["interrupted"] is False
    assert _sim_json("--seed", "6") != first


def test_simulate_text_summary_and_play_simulate_agree():
    a = cli("simulate", CLASSIC, "-n", "20", "--bots", "heuristic", "--seed", "3")
    b = cli("play", CLASSIC, "--simulate", "20", "--bots", "heuristic", "--seed", "3")
    assert a.exit_code == b.exit_code == 0
    strip_time = lambda text: [line for line in text.splitlines() if not line.startswith("time:")]  # noqa: E731
    assert strip_time(a.stdout) == strip_time(b.stdout)
    assert "win rate" in a.stdout and "95% CI" in a.stdout


def test_simulate_workers_give_identical_numbers():
    base = ["simulate", CLASSIC, "-n", "40", "--bots", "heuristic", "--seed", "9", "--json"]
    one = run(*base, "--workers", "1")
    two = run(*base, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)


@pytest.mark.parametrize("games,workers", [(1, 2), (7, 3), (4000, 2), (12345, 2)])
def test_chunks_cover_every_game_once_and_shrink_at_the_end(games, workers):
    from unodsl.runs.pool import chunks
    ranges = list(chunks(games, workers))
    assert ranges[0][0] == 0 and ranges[-1][1] == games
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(ranges, ranges[1:] + [(games, games + 1)]))
    sizes = [b - a for a, b in ranges]
    assert max(sizes) <= 100 and sizes == sorted(sizes, reverse=True) and sizes[-1] == 1


@pytest.mark.skipif(__import__("multiprocessing").get_start_method() != "fork", reason="needs forked workers")
def test_forked_workers_play_the_parents_compiled_game():
    from unodsl.runs.simulate import simulate
    # The game passed in has a ruling changed; the file on disk does not. Forked workers
    # must play the game they were handed, so both runs agree with each other and not
    # with a run of the file as written.
    changed = load(CLASSIC, None, {"two_player_reverse_is_skip": False})
    serial = simulate(CLASSIC, 60, 2, 5, ["random"], workers=1, game=changed)
    pooled = simulate(CLASSIC, 60, 2, 5, ["random"], workers=2, game=changed)
    as_written = simulate(CLASSIC, 60, 2, 5, ["random"], workers=1)
    assert serial.summary() == pooled.summary() != as_written.summary()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_interrupted_simulation_prints_what_it_has(workers):
    """Ctrl-C during a long run, sent once the progress bar shows games finishing: the games played
    so far are summed up, and the run exits 130."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "unodsl.cli", "simulate", CLASSIC, "-n", "100000000",
                             "--workers", workers], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, text=True,
                            preexec_fn=_as_at_a_terminal)
    os.close(slave)
    try:
        _read_until(master, b" games (")            # the progress bar: games are being played
        proc.send_signal(signal.SIGINT)
        _drain_until_exit(proc, master)             # the summary is small: its pipe never fills
        out = proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        os.close(master)
    assert proc.returncode == 130
    assert "(interrupted)" in out.splitlines()[0]
    assert "win rate" in out
    assert "Traceback" not in out


# --- replay --------------------------------------------------------------------------------


def _scripted_log(tmp_path, variant=None) -> Path:
    """A log of a scripted game; by default of a copy of classic beside it (a log's variant must be under its root)."""
    if variant is None:
        copy = tmp_path / "classic.yaml"
        if not copy.exists():
            copy.write_text(Path(CLASSIC).read_text())
        variant = str(copy)
    log = tmp_path / "game.log"
    result = cli("play", variant, "--bots", "heuristic", "--seed", "7", "--log", str(log), input="1\n" * 3000)
    assert result.exit_code == 0, result.stderr
    assert log.exists()
    return log


def test_replay_of_a_played_game(tmp_path):
    log = _scripted_log(tmp_path)
    record = json.loads(log.read_text())
    assert record["format"] == "unodsl-log/1" and record["over"] is True
    result = cli("replay", str(log))
    assert result.exit_code == 0
    assert re.search(r"game 1: \d+ actions replayed, winner p\d", result.stdout)


def test_replay_finds_the_first_action_an_edited_variant_forbids(tmp_path):
    variant = tmp_path / "classic.yaml"
    variant.write_text(Path(CLASSIC).read_text())
    log = _scripted_log(tmp_path, str(variant))
    actions = json.loads(log.read_text())["actions"]
    assert cli("replay", str(log), "--variant", str(variant)).exit_code == 0

    # Edit a copy: the Wild card type is gone (the deck shrinks to 104 cards).
    edited = tmp_path / "edited.yaml"
    text = variant.read_text()
    start, end = text.index("  wild:\n"), text.index("  wild_draw_four:\n")
    edited.write_text(text[:start].replace("total: 108", "total: 104") + text[end:])
    assert cli("check", str(edited)).exit_code == 0
    result = cli("replay", str(log), "--variant", str(edited))
    assert result.exit_code == 1
    match = re.search(r"game 1: action (\d+) '([^']+)'( by p\d)? is no longer legal: (.+)", result.stdout)
    assert match, result.stdout
    index, action = int(match.group(1)), match.group(2)
    assert actions[index - 1] == action


def test_replay_when_the_variant_changes_the_deal(tmp_path):
    log = _scripted_log(tmp_path)
    edited = tmp_path / "fewer.yaml"
    edited.write_text(Path(CLASSIC).read_text().replace('"1-9": 2', '"1-8": 2').replace("total: 108", "total: 100"))
    result = cli("replay", str(log), "--variant", str(edited))
    assert result.exit_code == 1
    assert re.search(r"action \d+ '[^']+'", result.stdout)


def test_log_and_variant_can_move_together(tmp_path):
    first = tmp_path / "first"
    first.mkdir()
    (first / "classic.yaml").write_text(Path(CLASSIC).read_text())
    (first / "logs").mkdir()
    log = first / "logs" / "g.log"
    result = cli("play", str(first / "classic.yaml"), "--seed", "7", "--log", str(log), input="1\n" * 3000)
    assert result.exit_code == 0
    assert json.loads(log.read_text())["variant_path"] == "../classic.yaml"
    moved = tmp_path / "moved"
    first.rename(moved)
    replayed = run("replay", str(moved / "logs" / "g.log"), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_replay_of_a_file_that_is_not_a_log(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text("hello\n")
    result = cli("replay", str(bad))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"unodsl: {bad}: line 1: not JSON (Expecting value)"


def test_replay_reports_a_game_that_no_longer_ends(tmp_path):
    log = _scripted_log(tmp_path)
    record = json.loads(log.read_text())
    record["actions"] = record["actions"][:-1]
    log.write_text(json.dumps(record) + "\n")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert "but the game is not over" in result.stdout


def test_version_and_help():
    assert cli("--version").exit_code == 0
    for command in ("check", "simulate", "play", "replay"):
        result = cli(command, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout
    assert os.path.exists(ROOT / "docs" / "cli.md")


def test_every_command_module_is_registered_once():
    """A module of unodsl/cli/ that defines a click command has it in the group (docs/cli.md, Adding a command)."""
    import importlib
    import click
    support = {"__init__", "__main__", "app", "shared", "files", "terminal"}
    found = {}
    for path in sorted((ROOT / "unodsl" / "cli").glob("*.py")):
        if path.stem in support:
            continue
        module = importlib.import_module(f"unodsl.cli.{path.stem}")
        commands = [value for value in vars(module).values()
                    if isinstance(value, click.Command) and value.callback.__module__ == module.__name__]
        assert len(commands) == 1, f"unodsl/cli/{path.name} defines {len(commands)} commands"
        found[commands[0].name] = commands[0]
    assert found == main.commands


@pytest.mark.parametrize("command", ["check", "play", "simulate", "test", "rules", "replay"])
def test_every_command_that_reads_variants_takes_root(command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert re.search(r"--root DIRECTORY\s+Folder that extends/include may not leave", result.stdout), result.stdout


def _outside_variant(tmp_path) -> Path:
    """tmp/inner/v.yaml extends tmp/other/classic.yaml: outside the default root when run from tmp/inner."""
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "classic.yaml").write_text(Path(CLASSIC).read_text())
    (tmp_path / "inner").mkdir()
    variant = tmp_path / "inner" / "v.yaml"
    variant.write_text("unodsl: 1\nname: Outside\nextends: ../other/classic.yaml\n")
    return variant


def test_rules_and_test_follow_root(tmp_path, monkeypatch):
    _outside_variant(tmp_path)
    scenarios = tmp_path / "inner" / "s.yaml"
    scenarios.write_text("variant: v.yaml\nscenarios:\n  - name: deal\n    players: 2\n"
                         "    given: {start_card: red_5, dealer: 1}\n    expect: {discard_size: 1}\n")
    monkeypatch.chdir(tmp_path / "inner")
    refused = cli("rules", "v.yaml", "--root", str(tmp_path / "inner"))
    assert refused.exit_code == 1 and "E320" in refused.stderr
    assert cli("rules", "v.yaml", "--root", str(tmp_path)).exit_code == 0
    assert "E320" in cli("test", "s.yaml", "--root", str(tmp_path / "inner")).stdout
    ran = cli("test", "s.yaml", "--root", str(tmp_path))
    assert "E320" not in ran.stdout and "1 passed" in ran.stdout, ran.stdout


def test_replay_refuses_a_log_naming_a_file_outside_the_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "evil.log"
    log.write_text(json.dumps({"format": "unodsl-log/1", "variant_path": "/etc/passwd", "seed": 1,
                               "players": 2, "actions": []}) + "\n")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"unodsl: {log}: game 1: the log names the variant '/etc/passwd', which is outside the root folder "
        f"{os.path.realpath(tmp_path)} (the working folder); pass --root DIR to allow it")
    log.write_text(json.dumps({"format": "unodsl-log/1", "variant_path": "a\u0000b.yaml", "seed": 1,
                               "players": 2, "actions": []}) + "\n")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert "cannot contain a NUL character" in result.stderr and "Traceback" not in result.stderr


def test_replay_of_a_variant_outside_the_logs_root_needs_root(tmp_path, monkeypatch):
    log = _scripted_log(tmp_path, CLASSIC)              # names the repository's classic.yaml
    monkeypatch.chdir(tmp_path)
    refused = cli("replay", str(log))
    assert refused.exit_code == 1 and "is outside the root folder" in refused.stderr
    assert cli("replay", str(log), "--root", str(ROOT)).exit_code == 0
    assert cli("replay", str(log), "--variant", CLASSIC).exit_code == 0     # a file named by the user


def test_a_huge_number_typed_in_play_is_answered_and_asked_again():
    """4,301 digits is past Python's int-string limit: an answer, not a ValueError."""
    huge = "9" * 4301
    result = cli("play", CLASSIC, "--bots", "heuristic", "--seed", "7",
                 input=f"{huge}\n0{huge}\nplay {huge}\n" + "1\n" * 3000)
    assert result.exit_code == 0, result.stderr
    assert "internal error" not in result.stderr
    assert result.stdout.count("is not possible: choose a number from 1 to") == 2
    assert "'999999999999999999999999999999999999...' is not possible" in result.stdout
    assert "wins" in result.stdout


def test_test_runs_in_the_reference_mode_too():
    result = run("test", "--reference", "variants/scenarios/teams.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("passed, 0 failed")


def test_the_humans_own_move_is_said_once_and_what_it_did_is_told():
    """The echo ("you: play wild") says the move; the next screen does not say it again."""
    result = cli("play", CLASSIC, "--seed", "4", input="1\n1\n1\nquit\n")
    assert result.exit_code == 0
    assert result.stdout.count("you: play Wild") == 1 and "you play Wild" not in result.stdout
    assert "you: color red" in result.stdout and "you name red" not in result.stdout
    assert "p2 draws 2 and is skipped" in result.stdout       # what others' moves did is still told
