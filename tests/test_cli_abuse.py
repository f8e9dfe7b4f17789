"""The command line under abuse: every failure is one line, the right exit code, and no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "variants" / "classic.yaml")


def run(*args, input=None, stdin=None, cwd=ROOT):
    kwargs = {"stdin": stdin} if stdin is not None else {"input": input if input is not None else ""}
    return subprocess.run([sys.executable, "-m", "unodsl.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=60, **kwargs)


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def no_traceback(result) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert "Exception ignored" not in result.stderr


def test_missing_file():
    result = run("simulate", "no-such-variant.yaml", "-n", "5")
    assert result.returncode == 1
    assert one_line(result.stderr) == "no-such-variant.yaml:1:1: E101 file not found"
    no_traceback(result)


def test_a_directory():
    result = run("play", "variants", "--seed", "1")
    assert result.returncode == 1
    assert one_line(result.stderr).startswith("variants:1:1: E102 ")
    no_traceback(result)


def test_dev_null():
    result = run("check", os.devnull)
    assert result.returncode == 1
    assert one_line(result.stdout).startswith(f"{os.devnull}:1:1: E103 ")
    no_traceback(result)


def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.yaml"
    shutil.copy(CLASSIC, path)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("this user can read a chmod 000 file (root)")
        result = run("check", str(path))
        assert result.returncode == 1
        assert one_line(result.stdout).startswith(f"{path}:1:1: E")
        no_traceback(result)
    finally:
        path.chmod(0o644)


def test_broken_pipe():
    # A long game (ten players, random bots) prints far more than a pipe holds; head reads one line.
    command = (f"yes 1 | '{sys.executable}' -m unodsl.cli play '{CLASSIC}' --players 10 --bots random --seed 3"
               " | head -1; echo \"exit=${PIPESTATUS[1]}\" >&2")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert one_line(result.stdout).startswith("UNO (classic): 10 players")
    assert one_line(result.stderr) == "exit=0"
    no_traceback(result)


def test_closed_stdin_during_play():
    result = run("play", CLASSIC, "--seed", "1", stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert one_line(result.stderr) == "unodsl: input ended before the game was over"
    no_traceback(result)


def test_stdin_not_even_open():
    command = f"'{sys.executable}' -m unodsl.cli play '{CLASSIC}' --seed 1 <&-"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 1
    assert one_line(result.stderr) == "unodsl: input ended before the game was over"
    no_traceback(result)


def test_unknown_option():
    result = run("check", "--frobnicate", CLASSIC)
    assert result.returncode == 2
    assert "No such option" in one_line(result.stderr)
    no_traceback(result)


def test_log_to_an_existing_file_without_force(tmp_path):
    log = tmp_path / "game.log"
    log.write_text("precious\n")
    before = log.stat().st_mtime_ns
    result = run("play", CLASSIC, "--seed", "1", "--log", str(log), input="1\n" * 3000)
    assert result.returncode == 2
    assert "pass --force" in one_line(result.stderr)
    assert log.read_text() == "precious\n" and log.stat().st_mtime_ns == before
    assert result.stdout == ""                      # refused before the game started
    no_traceback(result)


def test_log_in_a_missing_folder(tmp_path):
    result = run("play", CLASSIC, "--seed", "1", "--log", str(tmp_path / "nowhere" / "game.log"))
    assert result.returncode == 2
    assert "does not exist" in one_line(result.stderr)
    assert not (tmp_path / "nowhere").exists()
    no_traceback(result)


def test_log_that_is_a_directory(tmp_path):
    result = run("play", CLASSIC, "--seed", "1", "--log", str(tmp_path))
    assert result.returncode == 2
    assert "directory" in one_line(result.stderr)
    no_traceback(result)


def test_replay_of_a_missing_log():
    result = run("replay", "no-such.log")
    assert result.returncode == 1
    assert one_line(result.stderr) == "unodsl: no-such.log: cannot read the log: No such file or directory"
    no_traceback(result)


def test_replay_of_binary_garbage(tmp_path):
    log = tmp_path / "garbage.log"
    log.write_bytes(b"\xff\xfe\x00junk")
    result = run("replay", str(log))
    assert result.returncode == 1
    assert "not UTF-8" in one_line(result.stderr)
    no_traceback(result)


def test_seat_and_players_out_of_range():
    for args in (["--players", "11"], ["--seat", "4"], ["--seat", "-1"]):
        result = run("play", CLASSIC, *args)
        assert result.returncode == 2, args
        one_line(result.stderr)
        no_traceback(result)


def test_option_of_the_other_mode():
    result = run("play", CLASSIC, "--json")
    assert result.returncode == 2
    assert "--json only applies with --simulate" in one_line(result.stderr)
    no_traceback(result)


def test_no_command_shows_help():
    result = run()
    assert result.returncode == 2
    assert "Usage:" in result.stderr
    no_traceback(result)
