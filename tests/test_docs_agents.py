"""Every example of docs/agents.md runs: the commands (`$ unodsl ...`, `$ python ...`) and the Python blocks."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.cli.app import main

from chat_stub import ChatStub, plays_from_the_view

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
COMMANDS = [line[2:] for line in DOC.splitlines() if line.startswith("$ ")]


def _command(start: str) -> list[str]:
    found = [c for c in COMMANDS if c.startswith(start)]
    assert len(found) == 1, (start, COMMANDS)
    return shlex.split(found[0])


def _unodsl(args: list[str], env: dict | None = None):
    assert args[0] == "unodsl"
    result = CliRunner(env=env).invoke(main, args[1:])
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_of_the_page_is_run_here():
    starts = ["unodsl simulate classic --players 2 -n 20 --seed 1 --bots py:docs/examples/agents/first_legal.py",
              "python benchmarks/train_maskable.py", "unodsl simulate classic --players 2 -n 20 --bots py:docs/examples/agents/maskable",
              "python docs/examples/agents/remote_agent.py", "unodsl simulate classic --players 2 -n 5 --bots ws://",
              "UNODSL_LLM_URL=", "unodsl ladder", "unodsl bench-rules"]
    assert sorted(COMMANDS) == sorted(c for c in COMMANDS if any(c.startswith(s) for s in starts))
    assert len(COMMANDS) == len(starts)


def test_seating_a_python_class(monkeypatch):
    monkeypatch.chdir(REPO)
    out = _unodsl(_command("unodsl simulate classic --players 2 -n 20 --seed 1 --bots py:"))
    assert "20 games" in out or "games: 20" in out or "20" in out


def test_seating_a_maskable_ppo_checkpoint(tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    monkeypatch.chdir(REPO)
    train = _command("python benchmarks/train_maskable.py")
    assert train[train.index("--save") + 1] == "policy.zip"
    saved = tmp_path / "policy.zip"
    # The page's command with a small budget: a few hundred steps, one paired deal each.
    subprocess.run([sys.executable, "benchmarks/train_maskable.py", "--minutes", "0.05", "--timesteps", "256",
                    "--games", "1", "--save", str(saved)], check=True, timeout=600, capture_output=True)
    seat = _command("unodsl simulate classic --players 2 -n 20 --bots py:docs/examples/agents/maskable")
    seat = [arg.replace("path=policy.zip", f"path={saved}") for arg in seat]
    _unodsl(seat)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_seating_a_remote_program(monkeypatch):
    pytest.importorskip("websockets")
    monkeypatch.chdir(REPO)
    port = _free_port()
    start = _command("python docs/examples/agents/remote_agent.py")
    assert start[-1] == "&"
    args = [arg.replace("8765", str(port)) for arg in start[1:-1]]
    program = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, text=True)
    try:
        assert program.stdout.readline().startswith("remote agent listening")
        play = [arg.replace("8765", str(port)) for arg in _command("unodsl simulate classic --players 2 -n 5 --bots ws://")]
        _unodsl(play)
    finally:
        program.terminate()
        program.wait(10)
        program.stdout.close()


def test_seating_a_language_model(monkeypatch):
    monkeypatch.chdir(REPO)
    command = _command("UNODSL_LLM_URL=")
    import unodsl
    classic = unodsl.load(str(REPO / "variants/classic.yaml"))
    with ChatStub(fallback=plays_from_the_view(classic)) as stub:
        assert command[0].startswith("UNODSL_LLM_URL=")
        _unodsl(command[1:], env={"UNODSL_LLM_URL": stub.url})
    assert len(stub.requests) > 10 and all(r["model"] == "my-model" for r in stub.requests)


def test_the_python_blocks_run(monkeypatch):
    monkeypatch.chdir(REPO)
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 3
    for block in blocks:
        if block.lstrip().startswith("class FirstLegal"):
            assert block.strip().splitlines()[-1].strip() in (REPO / "docs/examples/agents/first_legal.py").read_text()
            continue
        exec(compile(block, "docs/agents.md", "exec"), {})


def test_the_mcp_tools_table_is_the_servers():
    pytest.importorskip("mcp")
    import unodsl
    from unodsl.mcp_server import build_server
    server = build_server(unodsl.load(str(REPO / "variants/classic.yaml")), assist=True)
    import anyio
    tools = {tool.name for tool in anyio.run(server.list_tools)}
    section = DOC.split("## The MCP server", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)\(", section, re.M))
    assert documented == tools


def test_the_ladder_example(tmp_path, monkeypatch):
    pytest.importorskip("choix")
    monkeypatch.chdir(tmp_path)
    command = [arg.replace("py:docs/", f"py:{REPO}/docs/") for arg in _command("unodsl ladder")]
    out = _unodsl(command)
    assert "heuristic (anchor)" in out and (tmp_path / "ladder.png").exists() and (tmp_path / "ladder.jsonl").exists()


def test_the_committed_benchmark_run_is_what_the_command_makes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    command = _command("unodsl bench-rules")
    command[command.index("--out") + 1] = str(tmp_path / "out")
    _unodsl(command)
    committed = REPO / "docs/examples/bench-rules"
    # A golden file: a rule change that moves these games changes it; regenerate it with the page's command.
    assert (tmp_path / "out/report.md").read_text() == (committed / "report.md").read_text(), (
        "docs/examples/bench-rules is stale: run the bench-rules command of docs/agents.md with --force")
    assert json.loads((tmp_path / "out/report.json").read_text()) == json.loads((committed / "report.json").read_text())
