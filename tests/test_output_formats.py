"""One output convention: `--format text|json` on check, simulate and test; JUnit XML for test; colour for check."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import unodsl.cli.check as check_command
from unodsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "variants" / "classic.yaml"

SCENARIOS = """\
variant: classic.yaml
scenarios:
  - name: skip skips
    rule: "1.5"
    given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
    actions: [play red_skip]
    expect: {turn: 2}
  - name: skip & wrong <expectation>
    given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
    actions: [play red_skip]
    expect: {turn: 1}
  - name: a known issue
    known_issue: the engine is known to get this wrong
    given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
    actions: [play red_skip]
    expect: {turn: 1}
"""


def cli(*args, **kwargs):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, prog_name="unodsl", **kwargs)


@pytest.fixture
def scenario_file(tmp_path):
    shutil.copy(CLASSIC, tmp_path / "classic.yaml")
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIOS, encoding="utf-8")
    return path


# --- simulate


def test_simulate_format_json_is_the_old_json_flag():
    new = cli("simulate", str(CLASSIC), "-n", "3", "--format", "json")
    old = cli("simulate", str(CLASSIC), "-n", "3", "--json")
    assert new.exit_code == old.exit_code == 0
    assert json.loads(new.stdout) == json.loads(old.stdout)
    assert json.loads(new.stdout)["games"] == 3


def test_simulate_help_shows_format_and_hides_json():
    text = cli("simulate", "--help").stdout
    assert "--format [text|json]" in text
    assert "--json" not in text


# --- test


def test_test_format_json_has_one_object_per_scenario_and_the_summary(scenario_file):
    result = cli("test", "--format", "json", str(scenario_file))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    by_name = {s["name"]: s for s in data["scenarios"]}
    assert list(by_name) == ["skip skips", "skip & wrong <expectation>", "a known issue"]
    assert by_name["skip skips"] == {"path": str(scenario_file), "line": 3, "column": 5, "name": "skip skips",
                                     "rule": "1.5", "status": "passed", "failures": []}
    failed = by_name["skip & wrong <expectation>"]
    assert failed["status"] == "failed"
    assert failed["failures"] and failed["failures"][0]["line"] == 11
    assert "turn" in failed["failures"][0]["message"]
    assert by_name["a known issue"]["status"] == "known_issue"
    assert data["summary"] == {"files": 1, "scenarios": 3, "passed": 1, "failed": 1, "known_issues": 1,
                               "errors": 0, "ok": False}
    assert data["diagnostics"] == []


def test_junit_xml_lists_every_scenario(scenario_file, tmp_path):
    out = tmp_path / "report.xml"
    result = cli("test", "--junit", str(out), str(scenario_file))
    assert result.exit_code == 1
    assert "1 passed, 1 failed, 1 known issue(s)" in result.stdout          # the text report still printed
    suites = ET.parse(out).getroot()
    assert suites.tag == "testsuites"
    assert (suites.get("tests"), suites.get("failures"), suites.get("errors"), suites.get("skipped")) == \
        ("3", "1", "0", "1")
    suite = suites.find("testsuite")
    assert suite.get("name") == str(scenario_file)
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert list(cases) == ["skip skips", "skip & wrong <expectation>", "a known issue"]
    assert cases["skip skips"].find("failure") is None and cases["skip skips"].get("line") == "3"
    failure = cases["skip & wrong <expectation>"].find("failure")
    assert failure is not None and "turn" in failure.get("message")
    assert f"{scenario_file}:11:" in failure.text
    assert cases["a known issue"].find("skipped").get("message") == "known issue: the engine is known to get this wrong"


def test_junit_records_a_broken_file_as_an_error(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("variant: nothere.yaml\nscenarios: []\n")
    out = tmp_path / "report.xml"
    assert cli("test", "--junit", str(out), str(broken)).exit_code == 1
    suites = ET.parse(out).getroot()
    assert suites.get("errors") == "1"
    error = suites.find("testsuite/testcase/error")
    assert "E601" in error.get("message")


def test_junit_refuses_to_overwrite_without_force(scenario_file, tmp_path):
    out = tmp_path / "report.xml"
    out.write_text("keep me")
    result = cli("test", "--junit", str(out), str(scenario_file))
    assert result.exit_code == 2
    assert "exists; pass --force to overwrite it" in result.stderr
    assert out.read_text() == "keep me"
    assert cli("test", "--junit", str(out), "--force", str(scenario_file)).exit_code == 1
    assert ET.parse(out).getroot().tag == "testsuites"


# --- check in colour


def test_check_is_plain_when_stdout_is_not_a_terminal(tmp_path):
    broken = tmp_path / "b.yaml"
    broken.write_text("unodsl: 1\nname: x\nfoo: 1\n")
    result = cli("check", str(broken), color=True)
    assert result.exit_code == 1
    assert "\x1b[" not in result.stdout
    assert f"{broken}:3:1: E201" in result.stdout


def test_check_is_coloured_on_a_terminal_unless_no_color(tmp_path, monkeypatch):
    broken = tmp_path / "b.yaml"
    broken.write_text("unodsl: 1\nname: x\nfoo: 1\n")
    monkeypatch.setattr(check_command, "isatty", lambda stream: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = cli("check", str(broken), color=True)
    assert coloured.exit_code == 1
    assert "\x1b[" in coloured.stdout and "E201" in coloured.stdout
    assert f"\n{broken}:3:1: E201 unknown key 'foo'" in click_unstyle(coloured.stdout)
    monkeypatch.setenv("NO_COLOR", "1")
    plain = cli("check", str(broken), color=True)
    assert "\x1b[" not in plain.stdout


def click_unstyle(text: str) -> str:
    import click
    return click.unstyle(text)
