"""The clean-check cache: a hit skips the heavy stages, any edit to any file read misses."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def cached_env(tmp_path, monkeypatch):
    monkeypatch.delenv("UNODSL_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    work = tmp_path / "work"
    (work / "house").mkdir(parents=True)
    shutil.copy(REPO / "variants" / "classic.yaml", work / "classic.yaml")
    (work / "house" / "penalty.yaml").write_text(
        "unodsl: 1\nname: Penalty\nhouse_rule: {id: penalty, check_with: ../classic.yaml}\nuno: {penalty: 4}\n")
    (work / "family.yaml").write_text(
        "unodsl: 1\nname: Family\nextends: classic.yaml\ninclude: [house/penalty.yaml]\n")
    return work


def _check(work, *extra):
    return subprocess.run([sys.executable, *extra, "-m", "unodsl.cli", "check", "family.yaml"],
                          capture_output=True, text=True, cwd=work)


def test_a_clean_result_is_reused_without_loading_the_heavy_stages(cached_env):
    first = _check(cached_env)
    assert first.returncode == 0 and "no problems" in first.stderr
    second = _check(cached_env, "-X", "importtime")
    assert second.returncode == 0 and "no problems" in second.stderr
    imported = second.stderr
    for heavy in ("jsonschema", "lark", "yaml", "unodsl.engine"):
        assert f"| {heavy}\n" not in imported and f"|   {heavy}\n" not in imported, heavy


def test_editing_an_included_file_misses_the_cache(cached_env):
    assert _check(cached_env).returncode == 0
    include = cached_env / "house" / "penalty.yaml"
    include.write_text(include.read_text().replace("penalty: 4", "penalty: 400"))
    result = _check(cached_env)
    assert result.returncode == 1
    assert "house/penalty.yaml:4:16: E204" in result.stdout


def test_problems_are_never_cached(cached_env):
    family = cached_env / "family.yaml"
    family.write_text(family.read_text() + "colours: [red]\n")
    for _ in range(2):
        result = _check(cached_env)
        assert result.returncode == 1 and "E201" in result.stdout


def test_repointing_a_symlinked_base_misses_the_cache(cached_env):
    """The entry follows the files as they were named: a link now pointing elsewhere is a miss."""
    (cached_env / "good.yaml").write_text((cached_env / "classic.yaml").read_text())
    (cached_env / "broken.yaml").write_text("unodsl: 1\nname: Broken\ncolours: [red]\n")
    link = cached_env / "base.yaml"
    link.symlink_to("good.yaml")
    (cached_env / "family.yaml").write_text("unodsl: 1\nname: Family\nextends: base.yaml\n")
    assert _check(cached_env).returncode == 0
    link.unlink()
    link.symlink_to("broken.yaml")
    result = _check(cached_env)
    assert result.returncode == 1, result.stderr
    assert "base.yaml:3:1: E201" in result.stdout
