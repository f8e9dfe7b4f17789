"""Writing files: a file that exists when unodsl moves its output into place is never replaced without --force.

The check at the start of a command (refuse_overwrite) and the write at its end are
minutes apart during `play`; a file created in between (by another `play --log` of the
same path) must survive. The tests create it in between, by calling the two functions.
"""

from __future__ import annotations

import errno
import json
import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import unodsl.cli.terminal
from unodsl.cli import files
from unodsl.cli import main
from unodsl.cli.files import TargetExists, atomic_write, refuse_overwrite

CLASSIC = str(Path(__file__).resolve().parent.parent / "variants" / "classic.yaml")


def _leftovers(folder: Path, keep: set) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


def test_a_new_file_is_written_and_no_temporary_file_is_left(tmp_path):
    target = tmp_path / "game.log"
    refuse_overwrite(str(target), False)
    atomic_write(str(target), "mine\n", force=False)
    assert target.read_text() == "mine\n"
    assert _leftovers(tmp_path, {"game.log"}) == []


def test_a_file_created_after_the_check_is_left_as_it_was(tmp_path):
    target = tmp_path / "game.log"
    refuse_overwrite(str(target), False)            # nothing there when the command starts
    target.write_text("theirs\n")                   # ... then someone else writes it
    with pytest.raises(TargetExists) as err:
        atomic_write(str(target), "mine\n", force=False)
    assert target.read_text() == "theirs\n"
    # What unodsl wrote is not lost either: it stays beside the target, named in the error.
    kept = Path(err.value.kept)
    assert kept.parent == tmp_path and kept.read_text() == "mine\n"
    assert str(kept) in str(err.value) and "game.log" in str(err.value)
    assert _leftovers(tmp_path, {"game.log", kept.name}) == []


def test_two_writers_of_the_same_path_the_second_is_refused(tmp_path):
    target = str(tmp_path / "same.log")
    refuse_overwrite(target, False)                 # both commands start: the path is free for both
    refuse_overwrite(target, False)
    atomic_write(target, "first\n", force=False)
    with pytest.raises(TargetExists):
        atomic_write(target, "second\n", force=False)
    assert Path(target).read_text() == "first\n"


def test_force_replaces_a_file_created_meanwhile(tmp_path):
    target = tmp_path / "game.log"
    refuse_overwrite(str(target), True)
    target.write_text("theirs\n")
    atomic_write(str(target), "mine\n", force=True)
    assert target.read_text() == "mine\n"
    assert _leftovers(tmp_path, {"game.log"}) == []


def test_a_dangling_symlink_is_not_replaced_without_force(tmp_path):
    target = tmp_path / "game.log"
    target.symlink_to(tmp_path / "nowhere")
    with pytest.raises(TargetExists):
        atomic_write(str(target), "mine\n", force=False)
    assert target.is_symlink() and not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("code", [errno.EPERM, errno.EOPNOTSUPP])
def test_without_hard_links_an_exclusive_create_refuses_the_same(tmp_path, monkeypatch, code):
    def no_links(src, dst, **kwargs):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(files.os, "link", no_links)
    target = tmp_path / "game.log"
    atomic_write(str(target), "mine\n", force=False)
    assert target.read_text() == "mine\n"
    with pytest.raises(TargetExists) as err:
        atomic_write(str(target), "again\n", force=False)
    assert target.read_text() == "mine\n" and Path(err.value.kept).read_text() == "again\n"


def _game_that_creates(path: Path, text: str):
    """A stand-in for the terminal game: while it is played, another program writes `path`."""
    def play_terminal(game, players, seat, bots, seed, match):
        path.write_text(text)
        state = game.new_game(players, seed=seed, match=match)
        state.play_out(random.Random(seed).random)
        return state
    return play_terminal


def test_play_does_not_clobber_a_log_created_during_the_game(tmp_path, monkeypatch):
    log = tmp_path / "same.log"
    monkeypatch.setattr(unodsl.cli.terminal, "play_terminal", _game_that_creates(log, "the other game\n"))
    result = CliRunner().invoke(main, ["play", CLASSIC, "--seed", "3", "--log", str(log)])
    assert result.exit_code == 1, result.output
    assert log.read_text() == "the other game\n"
    assert "same.log' was created while this game was played" in result.output
    kept = [p for p in tmp_path.iterdir() if p.name != "same.log"]
    assert len(kept) == 1 and json.loads(kept[0].read_text())["seed"] == 3
    assert str(kept[0]) in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_play_with_force_replaces_a_log_created_during_the_game(tmp_path, monkeypatch):
    log = tmp_path / "same.log"
    monkeypatch.setattr(unodsl.cli.terminal, "play_terminal", _game_that_creates(log, "the other game\n"))
    result = CliRunner().invoke(main, ["play", CLASSIC, "--seed", "3", "--log", str(log), "--force"])
    assert result.exit_code == 0, result.output
    assert json.loads(log.read_text())["seed"] == 3
    assert [p.name for p in tmp_path.iterdir()] == ["same.log"]


# ---------------------------------------------------------------- permissions: the user's umask

UNODSL = [sys.executable, "-m", "unodsl.cli"]


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_the_umask_asks_for(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        atomic_write(str(tmp_path / "new.txt"), "x\n", force=False)
        atomic_write(str(tmp_path / "forced.txt"), "x\n", force=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "forced.txt").stat().st_mode) == mode


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "mine.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    atomic_write(str(target), "new\n", force=True)
    assert target.read_text() == "new\n" and stat.S_IMODE(target.stat().st_mode) == 0o640


# Every command that writes a file, and the file(s) it writes (relative to the working folder).
WRITERS = [
    (["rules", "classic", "-o", "rules.md"], ["rules.md"]),
    (["play", "classic", "--seed", "3", "--bots", "random", "--log", "game.log"], ["game.log"]),
    (["test", "classic", "--junit", "junit.xml"], ["junit.xml"]),
    (["simulate", "classic", "-n", "3", "--report", "report.md"], ["report.md", "*.png"]),
]


@pytest.mark.parametrize("args, written", WRITERS, ids=[args[0] for args, _ in WRITERS])
def test_every_command_that_writes_honours_the_umask(tmp_path, args, written):
    if args[0] == "simulate":
        pytest.importorskip("matplotlib")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    stdin = "".join("1\n" for _ in range(400)) if args[0] == "play" else ""
    result = subprocess.run(UNODSL + args, cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True,
                            umask=0o022, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    files_written = [p for pattern in written for p in tmp_path.glob(pattern)]
    assert len(files_written) >= len(written)
    for path in files_written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


def test_the_check_cache_honours_the_umask(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("UNODSL_NO_CACHE", None)
    result = subprocess.run(UNODSL + ["check", "classic"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            umask=0o022, timeout=300)
    assert result.returncode == 0, result.stderr
    entries = list((tmp_path / "cache" / "unodsl" / "check").glob("*.json"))
    assert entries and all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in entries)
