"""The wheel carries the grammar, the schemas and the shipped variants: install it in a fresh venv and use it there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("UNODSL_SKIP_PACKAGING") == "1", reason="packaging test disabled")
def test_wheel_installs_and_checks_a_shipped_variant(tmp_path):
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(REPO)],
                           cwd=tmp_path, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert_no_setuptools_warning(built.stdout + built.stderr)
    wheel = next(wheels.glob("unodsl-*.whl"))
    import zipfile
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert {f"unodsl/web/static/{name}" for name in ("index.html", "app.js", "style.css")} <= shipped  # the page
    assert "unodsl/effects/parser_tables.pickle" in shipped      # the parser's tables, built (test_parser_tables)
    # Only the installed wheel may answer: no PYTHONPATH pointing at a source tree (pip would
    # take that tree's unodsl.egg-info for an installed unodsl and install no script).
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True, cwd=tmp_path, env=clean)
    # Run from an empty folder with the variant given by absolute path: the grammar and
    # schemas can only come from the installed package, not from the source tree.
    work = tmp_path / "elsewhere"
    work.mkdir()
    variant = REPO / "variants" / "classic.yaml"
    result = subprocess.run([str(env_dir / "bin" / "unodsl"), "check", "--root", str(REPO), str(variant)],
                            capture_output=True, text=True, cwd=work, env=clean)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stderr
    where = subprocess.run([str(python), "-c", "import unodsl.effects.parse as e, unodsl.source.schema as s; "
                            "print(e.grammar_path()); print(s.load_schema()['$id'])"],
                           capture_output=True, text=True, cwd=work, check=True, env=clean)
    grammar_line = where.stdout.splitlines()[0]
    assert str(env_dir) in grammar_line and grammar_line.endswith("effect.lark")
    loaded = subprocess.run([str(python), "-c", "import unodsl.effects.parse as e; print(e.parser().source_path)"],
                            capture_output=True, text=True, cwd=work, check=True, env=clean)
    assert loaded.stdout.strip() == "<deserialized>"        # from the shipped tables (or Lark's cache), not built
    broken = work / "broken.yaml"
    broken.write_text("unodsl: 1\nname: x\ncards:\n  wild:\n    count: 4\n    on_play: next draws red\n")
    result = subprocess.run([str(env_dir / "bin" / "unodsl"), "check", str(broken)],
                            capture_output=True, text=True, cwd=work, env=clean)
    assert result.returncode == 1
    assert "broken.yaml:6:25: E502 unknown name 'red'" in result.stdout
    # The shipped variants come with the wheel: by name, from an empty folder.
    unodsl = str(env_dir / "bin" / "unodsl")
    played = subprocess.run([unodsl, "play", "classic", "--seed", "5"], input="draw\n?\n1\nquit\n",
                            capture_output=True, text=True, cwd=work, env=clean)
    assert played.returncode == 0 and "You left the game after" in played.stdout, played.stderr
    assert "your hand (7)" in played.stdout and "you: draw" in played.stdout, played.stdout[-2000:]
    mine = work / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: classic\ninclude: [uno-penalty-4]\ndeal: {hand_size: 8}\n")
    result = subprocess.run([unodsl, "check", "mine.yaml"], capture_output=True, text=True, cwd=work, env=clean)
    assert (result.returncode, result.stdout) == (0, ""), result.stdout + result.stderr
    listed = subprocess.run([unodsl, "list"], capture_output=True, text=True, cwd=work, env=clean)
    assert listed.returncode == 0 and "stacking-mattel" in listed.stdout
    tested = subprocess.run([unodsl, "test", "classic"], capture_output=True, text=True, cwd=work, env=clean)
    assert tested.returncode == 0 and " passed, 0 failed" in tested.stdout, tested.stdout + tested.stderr


# What setuptools' warnings look like in pip's output: a box of stars, a named warning class.
_SETUPTOOLS_WARNING = re.compile(r"\*{20,}|\w+Warning:|!!")


def assert_no_setuptools_warning(output: str) -> None:
    found = [line for line in output.splitlines() if _SETUPTOOLS_WARNING.search(line)]
    assert not found, "setuptools warned:\n" + "\n".join(found[:20])


@pytest.mark.skipif(os.environ.get("UNODSL_SKIP_PACKAGING") == "1", reason="packaging test disabled")
def test_an_editable_install_prints_no_setuptools_warning(tmp_path):
    """`pip install -e .` (what scripts/setup.sh runs) builds without a warning box: each package lies at its own path."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "--no-deps", "-e", str(REPO)],
                            capture_output=True, text=True, cwd=tmp_path, env=clean, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_no_setuptools_warning(result.stdout + result.stderr)
    where = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import unodsl.source.catalog as c; print(c.folder())"],
                           capture_output=True, text=True, cwd=tmp_path, env=clean, check=True)
    assert where.stdout.strip().startswith(str(REPO))


@pytest.mark.parametrize("code", [
    "import unodsl.runs.simulate, unodsl.agents.bots, unodsl.runs.replay, unodsl.scenarios.runner; "
    "print(unodsl.runs.simulate.__name__, unodsl.agents.bots.__name__)",
    "from unodsl import Game, IllegalAction, InvalidState; print(Game.__module__, InvalidState.__module__)",
    "from unodsl import load, State, Diagnostic, check_file; print(load.__module__, State.__module__)",
])
def test_every_export_loads_in_a_fresh_interpreter(code):
    """The package imports its parts on first use; each one must load before anything else has."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "unodsl." in result.stdout


def test_the_public_api_is_the_documented_one_and_loads_lazily():
    """`unodsl.__all__` is the list docs/api.md gives; importing unodsl loads none of it, each name loads."""
    code = ("import sys, unodsl; loaded = sorted(m for m in sys.modules if m.startswith('unodsl.')); "
            "[getattr(unodsl, name) for name in unodsl.__all__]; print(loaded); print(sorted(unodsl.__all__))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded, exported = result.stdout.splitlines()
    assert loaded == "[]"
    api = (REPO / "docs" / "api.md").read_text()
    sentence = api.split("`unodsl` itself exports ", 1)[1].split(", each imported", 1)[0]
    assert exported == str(sorted(re.findall(r"`(\w+)`", sentence)))


@pytest.mark.skipif(not (REPO / ".venv" / ".unodsl-installed").exists(), reason="needs the venv that setup.sh made")
def test_setup_runs_again_with_the_package_index_unreachable():
    """setup.sh installs once: run again, it asks no package index (here: none reachable) and succeeds."""
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_FIND_LINKS="")
    result = subprocess.run(["bash", str(REPO / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pip" not in result.stdout + result.stderr
