"""Shipped variants by name: `unodsl play classic`, `extends: classic`, `unodsl list`, from any folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from unodsl.source import catalog
from unodsl.check import check_file

ROOT = Path(__file__).resolve().parent.parent


def run(*args, cwd, input=None):
    return subprocess.run([sys.executable, "-m", "unodsl.cli", *args], input=input, capture_output=True,
                          text=True, cwd=cwd, timeout=120, env=_env())


def _env():
    import os
    return dict(os.environ, PYTHONPATH=str(ROOT), UNODSL_NO_CACHE="1")


@pytest.mark.parametrize("value, expected", [
    ("classic", True), ("stacking-mattel", True), ("classic.yaml", False), ("./classic", False),
    ("house-rules/jump-in", False), ("", False), ("..", False),
])
def test_a_shipped_name_has_no_slash_and_no_yaml_ending(value, expected):
    assert catalog.is_name(value) is expected


def test_names_resolve_to_variants_and_house_rules():
    assert catalog.path_of("classic") == str(catalog.folder() / "classic.yaml")
    assert catalog.path_of("stacking-mattel") == str(catalog.folder() / "house-rules" / "stacking-mattel.yaml")
    assert catalog.path_of("clasic") is None
    assert catalog.unknown_message("clasic") == \
        "unknown variant 'clasic'; did you mean 'classic'? (`unodsl list` shows them)"


def test_check_play_rules_and_simulate_take_a_name_from_an_empty_folder(tmp_path):
    checked = run("check", "classic", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "1 file(s) checked, no problems" in checked.stderr
    played = run("play", "classic", "--seed", "3", cwd=tmp_path, input="draw\n?\nquit\n")
    assert played.returncode == 0 and "You left the game after" in played.stdout, played.stderr
    ruled = run("rules", "teams", cwd=tmp_path)
    assert ruled.returncode == 0 and "UNO Teams!" in ruled.stdout
    simulated = run("simulate", "classic", "-n", "5", "--format", "json", cwd=tmp_path)
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["games"] == 5


def test_a_misspelt_name_gets_a_suggestion_and_exit_2(tmp_path):
    result = run("play", "clasic", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "unodsl: unknown variant 'clasic'; did you mean 'classic'? (`unodsl list` shows them)\n"
    assert "Traceback" not in result.stderr


def test_an_existing_file_wins_over_a_shipped_name(tmp_path):
    (tmp_path / "classic").write_text("unodsl: 1\nname: Mine\n")
    result = run("check", "classic", cwd=tmp_path)
    assert result.returncode == 1
    assert "classic:1:1: E306" in result.stdout


def test_extends_and_include_take_shipped_names(tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: classic\ninclude: [stacking-mattel, jump-in]\n"
                    "rulings:\n  jump_in_during_stack: {value: false}\n")
    result = check_file(str(mine))
    assert [d.header() for d in result.diagnostics] == []
    assert result.variant.deck_size == 108
    assert set(result.variant.house_rules) >= {"stacking_mattel", "jump_in"}


def test_an_unknown_name_in_extends_is_reported_at_the_link(tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: clasic\n")
    result = check_file(str(mine))
    assert [d.header() for d in result.diagnostics] == [
        f"{mine}:3:10: E324 unknown variant 'clasic'; did you mean 'classic'? (`unodsl list` shows them)"]


def test_list_shows_variants_and_house_rules(tmp_path):
    text = run("list", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "classic" in text.stdout and "stacking-mattel" in text.stdout
    assert text.stdout.index("Variants") < text.stdout.index("classic") < text.stdout.index("House rules")
    as_json = json.loads(run("list", "--format", "json", cwd=tmp_path).stdout)
    by_name = {entry["name"]: entry for entry in as_json}
    assert by_name["classic"]["house_rule"] is False
    assert by_name["classic"]["title"] == "UNO (classic)"
    assert by_name["jump-in"]["house_rule"] is True
    assert all(entry["summary"] for entry in as_json)
    assert set(by_name) == set(catalog.names())
