"""`unodsl check --fix/--diff/--watch/--format github|sarif`: a diagnostic carries its fix, the fixes mend the file
and nothing else of it, and the YAML/effect-boundary diagnostics (E117, E406, '=' for '==', an undeclared
ruling, a misspelt player word) say what to write."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.check import check_file
from unodsl.cli import main
from unodsl.diagnostics import Edit, Fix
from unodsl.fixes import apply_fixes

BROKEN = """\
unodsl: 1
name: Broken on purpose   # a comment that must survive
extends: classic
cards:
  skip:
    on_play: skip next
      next draws 1
  draw_two:
    on_play: nxt draws 2; skip next
    restriction: hand(self) = 2
  reverse:
    on_play: if rule.two_player_reverse_is_skip: skip next
  wild:
    on_play: |
      choose colr
"""

FIXED = """\
unodsl: 1
name: Broken on purpose   # a comment that must survive
extends: classic
cards:
  skip:
    on_play: |
      skip next
      next draws 1
  draw_two:
    on_play: next draws 2; skip next
    restriction: hand(self) == 2
  reverse:
    on_play: |
      if rule.two_player_reverse_is_skip: skip next
  wild:
    on_play: |
      choose color
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def broken(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNODSL_NO_CACHE", "1")
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    return path


def test_each_boundary_diagnostic_says_what_to_write_and_carries_its_fix(broken):
    found = {(d.line, d.code): d for d in check_file("broken.yaml").diagnostics}
    assert sorted(found) == [(6, "E406"), (9, "E502"), (10, "E401"), (12, "E117"), (15, "E401")]
    assert "without '|'" in found[6, "E406"].message
    assert "(did you mean 'next'?)" in found[9, "E502"].message
    assert "(to compare, write '==')" in found[10, "E401"].message
    assert "reads as the start of another key" in found[12, "E117"].message
    assert all(d.fix is not None for d in found.values())
    assert found[10, "E401"].fix.edits == (Edit(10, 29, 10, 30, "=="),)


def test_an_undeclared_ruling_shows_the_lines_to_add(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("unodsl: 1\nname: v\nextends: classic\ncards:\n  skip:\n"
                                     "    on_play: |\n      if rule.double_skip:\n          skip next\n")
    [d] = check_file("v.yaml").diagnostics
    assert d.code == "E502" and d.fix is None
    assert "declare it under rulings: in this file, e.g. 'rulings: {double_skip: {value: true, " in d.message


def test_e117_does_not_hide_the_other_problems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("unodsl: 1\nname: v\nextends: classic\nplayres: {min: 2}\ncards:\n  skip:\n"
                                     "    on_play: if hand(self) == 1: skip nxt\n")
    codes = [(d.line, d.column, d.code) for d in check_file("v.yaml").diagnostics]
    assert codes == [(4, 1, "E201"), (7, 14, "E117"), (7, 39, "E502")]


def test_diff_shows_the_fixes_and_changes_nothing(broken):
    result = run("check", "--diff", "broken.yaml")
    assert result.exit_code == 1
    assert "\n-    restriction: hand(self) = 2\n" in result.output
    assert "\n+    restriction: hand(self) == 2\n" in result.output
    assert "5 fix(es) in 1 file(s)" in result.output
    assert broken.read_text() == BROKEN


def test_fix_writes_every_fix_and_only_them(broken):
    broken.chmod(0o640)
    result = run("check", "--fix", "broken.yaml")
    assert result.exit_code == 0, result.output
    assert "fixed 5 problem(s) in broken.yaml" in result.output
    assert broken.read_text() == FIXED
    assert stat.S_IMODE(broken.stat().st_mode) == 0o640
    assert check_file("broken.yaml").diagnostics == []
    again = run("check", "--fix", "broken.yaml")
    assert "nothing to fix" in again.output and broken.read_text() == FIXED


def test_the_summary_counts_what_fix_would_mend(broken):
    result = run("check", "broken.yaml")
    assert "5 error(s), 0 warning(s) in 1 file(s) (5 fixable with --fix)" in result.output


def test_fix_keeps_a_byte_order_mark_and_crlf_line_ends(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNODSL_NO_CACHE", "1")
    path = tmp_path / "crlf.yaml"
    path.write_bytes(b"\xef\xbb\xbfunodsl: 1\r\nname: c\r\nextends: classic\r\nuno: {penalti: 4}\r\n")
    assert run("check", "--fix", "crlf.yaml").exit_code == 0
    assert path.read_bytes() == b"\xef\xbb\xbfunodsl: 1\r\nname: c\r\nextends: classic\r\nuno: {penalty: 4}\r\n"


def test_fix_never_touches_a_shipped_file(tmp_path, monkeypatch):
    """A problem reported in a shipped file (here: a ruling the user's file removes) is never mended there."""
    from unodsl.source import catalog
    before = {p: p.read_bytes() for p in catalog.folder().rglob("*.yaml")}
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("unodsl: 1\nname: v\nextends: classic\nrulings: {two_player_reverse_is_skip: null}\n")
    run("check", "--fix", "v.yaml")
    assert {p: p.read_bytes() for p in catalog.folder().rglob("*.yaml")} == before


def test_fix_and_diff_together_are_a_usage_error(broken):
    result = run("check", "--fix", "--diff", "broken.yaml")
    assert result.exit_code == 2 and broken.read_text() == BROKEN


def test_a_did_you_mean_fix_mends_the_misspelt_word_not_the_token_after_it():
    lines = ["    on_play: skp next"]
    from unodsl.diagnostics import Diagnostic
    from unodsl.fixes import suggestion_fix
    d = Diagnostic("v.yaml", 1, 18, "E401", "unexpected 'next'; expected ... (did you mean 'skip'?)")
    assert suggestion_fix(d, lines).edits == (Edit(1, 14, 1, 17, "skip"),)
    ambiguous = Diagnostic("v.yaml", 1, 3, "E502", "unknown name 'x' (did you mean 'next'?)")
    assert suggestion_fix(ambiguous, ["nxt nex"]) is None          # two close words: which one is unknown


def test_apply_fixes_skips_an_edit_that_overlaps_one_taken():
    text = "abc\ndef\n"
    first = Fix("a", (Edit(1, 1, 1, 3, "XY"),))
    overlapping = Fix("b", (Edit(1, 2, 1, 4, "Z"),))
    later = Fix("c", (Edit(2, 1, 2, 2, "D"),))
    assert apply_fixes(text, [first, overlapping, later]) == ("XYc\nDef\n", 2)
    assert apply_fixes(text, [Fix("bad", (Edit(9, 1, 9, 2, "x"),))]) == (text, 0)


# ---------------------------------------------------------------- formats for CI


def test_github_format_annotates_each_problem(broken):
    result = run("check", "--format", "github", "broken.yaml")
    lines = [line for line in result.output.splitlines() if line.startswith("::")]
    assert len(lines) == 5 and result.exit_code == 1
    assert lines[0].startswith("::error file=broken.yaml,line=6,col=14,endLine=7,")
    assert "title=E406::E406 this effect is written on 2 lines" in lines[0]


def test_sarif_is_a_sarif_log_with_results_and_fixes(broken):
    result = run("check", "--format", "sarif", "broken.yaml")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    assert run_["tool"]["driver"]["name"] == "unodsl"
    results = run_["results"]
    assert [r["ruleId"] for r in results] == ["E406", "E502", "E401", "E117", "E401"]
    rules = [rule["id"] for rule in run_["tool"]["driver"]["rules"]]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    first = results[0]
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "broken.yaml"},
        "region": {"startLine": 6, "startColumn": 14, "endLine": 7, "endColumn": 19}}
    change = first["fixes"][0]["artifactChanges"][0]
    assert change["replacements"][0]["insertedContent"]["text"].startswith("|\n      skip next")


# ---------------------------------------------------------------- watching


def test_watch_checks_again_when_a_file_changes(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: v\nextends: classic\nuno: {penalti: 4}\n")
    env = dict(os.environ, UNODSL_NO_CACHE="1", NO_COLOR="1", PYTHONUNBUFFERED="1")
    log = tmp_path / "watch.log"
    with open(log, "wb") as out:
        watcher = subprocess.Popen([sys.executable, "-m", "unodsl.cli", "check", "--watch", "v.yaml"], cwd=tmp_path,
                                   env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for(log, "watching 2 file(s)")
        assert "E201 unknown key 'penalti'" in log.read_text()
        time.sleep(0.05)
        path.write_text("unodsl: 1\nname: v\nextends: classic\nuno: {penalty: 4}\n")
        _wait_for(log, "1 file(s) checked, no problems")
        assert "--- changed: v.yaml" in log.read_text()
    finally:
        watcher.terminate()
        watcher.wait(timeout=30)


def _wait_for(log: Path, text: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
