"""The README's commands and every Python example of the docs run as written, from an empty folder,
against the built wheel: no source tree, no `variants/` at hand, the shipped variants by name.

The wheel is built once and installed (without its dependencies) into a fresh venv, whose
dependencies are this venv's (a `.pth` line), so the test needs no network and no second download.
Commands that run long are run shorter (`-n` at most 200 games), and `unodsl serve` is started, asked
for its page, and stopped.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import sysconfig
import textwrap
import time
import urllib.request
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# The documents whose Python examples must run as written, and how: "together" runs a page's blocks
# in order as one program (later blocks use the names of earlier ones), "apart" runs each alone.
PYTHON_DOCS = {"README.md": "together", "docs/api.md": "together", "docs/scenarios.md": "apart",
               "docs/rl.md": "apart"}
_FENCE = re.compile(r"^```(python|py)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
_MARK = re.compile(r"<!-- readme: (create|append) (\S+) -->\n```[a-z]*\n(.*?)```", re.S)
MAX_GAMES = 200

pytestmark = [
    pytest.mark.skipif(os.environ.get("UNODSL_SKIP_PACKAGING") == "1", reason="packaging test disabled"),
    # The examples test the package and its pages, not the engine: run once, in the default mode.
    pytest.mark.skipif(os.environ.get("UNODSL_FAST") == "0", reason="docs examples run in the default mode only"),
]


@dataclass
class Installed:
    python: Path
    unodsl: Path
    env: dict

    def run(self, args: list[str], cwd: Path, stdin: str = "", timeout: float = 600):
        return subprocess.run([str(self.unodsl), *args], cwd=cwd, env=self.env, input=stdin, capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """The wheel built from this tree, installed alone in a fresh venv that borrows this venv's dependencies."""
    base = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(base / "dist"),
                            str(REPO)], capture_output=True, text=True, cwd=base)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next((base / "dist").glob("unodsl-*.whl"))
    target = base / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(NO_COLOR="1", UNODSL_NO_CACHE="1", PATH=f"{target / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet",
                           str(wheel)], capture_output=True, text=True, cwd=base, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, env=env).stdout.strip()
    # After the venv's own site-packages: the wheel's unodsl comes first, the rest from here.
    Path(site, "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run([str(python), "-c", "import unodsl; print(unodsl.__file__)"], capture_output=True,
                           text=True, env=env, cwd=base)
    assert where.stdout.startswith(site), where.stdout + where.stderr
    return Installed(python, target / "bin" / "unodsl", env)


def _empty(tmp_path: Path, name: str = "empty") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder


# ---------------------------------------------------------------- the README's commands


def readme_commands() -> list[str]:
    """Every `unodsl ...` line of the README's indented command blocks, without its comment."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found = []
    for line in text.splitlines():
        if line.startswith("    unodsl "):
            found.append(re.sub(r"\s+#.*$", "", line.strip()))
    return found


def _shorter(args: list[str]) -> list[str]:
    """The command with `-n N` at most MAX_GAMES: the same command, bounded."""
    out = list(args)
    for i, arg in enumerate(out[:-1]):
        if arg in ("-n", "--games") and int(out[i + 1]) > MAX_GAMES:
            out[i + 1] = str(MAX_GAMES)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(installed: Installed, args: list[str], cwd: Path) -> None:
    """Start `unodsl serve ...` on a free port, fetch its page, stop it."""
    port = _free_port()
    log = cwd.parent / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([str(installed.unodsl), *args, "--port", str(port)], cwd=cwd, env=installed.env,
                                  stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                    return
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"unodsl serve did not answer: {log.read_text()}") from None
                time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_readme_commands_work_as_written_from_an_empty_folder(installed, tmp_path):
    folder = _empty(tmp_path)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for kind, name, body in _MARK.findall(text):           # the files the README tells you to write
        with open(folder / name, "w" if kind == "create" else "a", encoding="utf-8") as handle:
            handle.write(body)
    commands = readme_commands()
    assert len(commands) >= 8 and any(c.startswith("unodsl check my-house.yaml") for c in commands)
    for command in commands:
        args = _shorter(command.split()[1:])
        if args[0] == "serve":
            _serve(installed, args, folder)
            continue
        result = installed.run(args, folder, stdin="quit\n" if args[0] == "play" else "")
        shown = f"$ {command}\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        assert result.returncode == 0 and "Traceback" not in shown, shown
        if args[0] == "play":
            assert re.search(r"your hand \(\d+\)", result.stdout) and "You left the game after" in result.stdout, shown
    assert sorted(p.name for p in folder.iterdir()) == ["my-house.yaml", "our-rules.yaml"]


# ---------------------------------------------------------------- the Python examples of the docs


def python_examples() -> list:
    out = []
    for doc, how in PYTHON_DOCS.items():
        blocks = [body for _, body in _FENCE.findall((REPO / doc).read_text(encoding="utf-8"))]
        assert blocks, doc
        if how == "together":
            out.append(pytest.param(doc, "\n".join(blocks), id=doc))
        else:
            out += [pytest.param(doc, body, id=f"{doc}-{i + 1}") for i, body in enumerate(blocks)]
    return out


@pytest.mark.parametrize("doc, code", python_examples())
def test_every_python_example_runs_from_an_empty_folder(installed, tmp_path, doc, code):
    needs = {"sb3_contrib": "sb3-contrib (PyTorch)", "pyspiel": "open_spiel"}
    for module, what in needs.items():
        if f"import {module}" in code or f"from {module}" in code:
            probe = subprocess.run([str(installed.python), "-c", f"import {module}"], env=installed.env,
                                   capture_output=True)
            if probe.returncode:
                pytest.skip(f"{doc}: the example needs {what}, not installed here")
    folder = _empty(tmp_path)
    script = tmp_path / "example.py"
    script.write_text(textwrap.dedent(code), encoding="utf-8")
    result = subprocess.run([str(installed.python), str(script)], cwd=folder, env=installed.env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{doc}:\n{code}\n---\n{result.stdout[-2000:]}{result.stderr[-3000:]}"


def test_the_examples_name_shipped_variants_not_paths_of_a_clone():
    """A `variants/...` path works only inside a clone: the examples name shipped variants instead."""
    for doc in PYTHON_DOCS:
        for _, body in _FENCE.findall((REPO / doc).read_text(encoding="utf-8")):
            assert "variants/" not in body, f"{doc}: {body[:200]}"
    for command in readme_commands():
        assert "variants/" not in command, command


# ---------------------------------------------------------------- the tutorial


def test_the_tutorial_works_against_the_installed_wheel(installed, tmp_path):
    from test_tutorial import follow_tutorial

    def unodsl(args, cwd, stdin=""):
        return installed.run(args, cwd, stdin)

    follow_tutorial(tmp_path / "my-uno", unodsl)
