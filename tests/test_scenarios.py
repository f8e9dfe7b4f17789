"""Rule scenarios: every shipped scenario passes, and failures and broken files are reported precisely."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from unodsl.check import load
from unodsl.cli import main
from unodsl.scenarios import ScenarioError, build_state, run_scenario_files
from unodsl.scenarios.expect import check_conservation

REPO = Path(__file__).resolve().parent.parent
SCENARIO_FILES = sorted((REPO / "variants" / "scenarios").glob("*.yaml"))
CLASSIC = REPO / "variants" / "classic.yaml"


@pytest.fixture(scope="module")
def classic():
    return load(str(CLASSIC))


# One scenario that passes: a Skip skips the next player.
PASSING = """\
    variant: classic.yaml
    scenarios:
      - name: skip skips
        given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
        actions: [play red_skip]
        expect: {turn: 2}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    """Write a scenario file next to a copy of the classic variant; return its path."""
    shutil.copy(CLASSIC, tmp_path / "classic.yaml")
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------
# The shipped scenarios


def test_there_are_scenario_files():
    assert (REPO / "variants" / "scenarios" / "classic.yaml") in SCENARIO_FILES


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.name for p in SCENARIO_FILES])
def test_shipped_scenarios_pass(path, fast):
    report = run_scenario_files([str(path)], fast=fast)
    known = f", {report.known_issues} known issue(s)" if report.known_issues else ""
    assert report.lines() == [f"{report.passed} passed, 0 failed{known}"]
    assert report.ok and report.passed > 0


# Scenarios of engine rules that no shipped file reaches, each over a small test variant of its own
# (tests/scenarios/variants/): the engine bugs of issue 29, each a scenario that failed before its fix.
ENGINE_SCENARIOS = sorted((REPO / "tests" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
@pytest.mark.parametrize("path", ENGINE_SCENARIOS, ids=[p.name for p in ENGINE_SCENARIOS])
def test_engine_scenarios_pass(path, fast):
    report = run_scenario_files([str(path)], fast=fast)
    assert report.lines() == [f"{report.passed} passed, 0 failed"]
    assert report.ok and report.passed > 0


def test_every_shipped_variant_has_a_scenario_file():
    # Files starting with "_" are scratch files other tests write and remove.
    files = list((REPO / "variants").glob("*.yaml")) + list((REPO / "variants" / "house-rules").glob("*.yaml"))
    variants = {p.resolve() for p in files if not p.name.startswith("_")}
    tested = {(path.parent / yaml.safe_load(path.read_text(encoding="utf-8"))["variant"]).resolve()
              for path in SCENARIO_FILES}
    assert sorted(str(p.relative_to(REPO)) for p in variants - tested) == []


def test_every_section_1_rule_has_a_scenario():
    report = run_scenario_files([str(REPO / "variants" / "scenarios" / "classic.yaml")])
    rules = {r.rule for r in report.results}
    wanted = {"1.2.2", "1.2.3", "1.2.4", "1.3.1", "1.3.2", "1.3.3", "1.3.4", "1.3.5", "1.4", "1.5.1", "1.5.2",
              "1.5.3", "1.5.4", "1.5.5", "1.5.6", "1.5.7", "1.5.8", "1.6.1", "1.6.2", "1.6.3", "1.7.1", "1.7.2",
              "1.7.3", "1.7.4", "1.8", "1.9.1", "1.10.1", "1.10.2", "1.10.5", "1.12"}
    assert wanted - rules == set()


# ---------------------------------------------------------------------------
# Failures: exact message and position


def test_a_wrong_expectation_fails_with_message_and_position(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: skip skips
            rule: "1.4"
            given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
            actions: [play red_skip]
            expect:
              turn: 1
              hand_sizes: [2, 2, 2]
              color: blue
    """)
    report = run_scenario_files([path])
    assert not report.ok
    assert report.lines() == [
        f"{path}:8:7: scenario 'skip skips' (rule 1.4): turn: expected 1, got 2",
        f"{path}:10:7: scenario 'skip skips' (rule 1.4): color: expected blue, got red",
        "0 passed, 1 failed",
    ]


def test_verbose_lists_passing_scenarios(tmp_path):
    path = write(tmp_path, PASSING)
    report = run_scenario_files([path])
    assert report.ok
    assert report.lines(verbose=True) == [f"{path}:3:5: scenario 'skip skips': ok", "1 passed, 0 failed"]


def test_a_refused_action_fails_at_the_action(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: no match
            rule: "1.3.1"
            given: {hands: [[blue_1, green_2], [red_1, red_2, red_3]], top: red_5, turn: 0, draw_pile: [blue_9]}
            actions: [draw, {by: 1, do: play red_1}, play green_2]
    """)
    report = run_scenario_files([path])
    assert report.lines() == [
        f"{path}:6:46: scenario 'no match' (rule 1.3.1): actions[2] 'play green_2' was refused for seat 0 "
        "('turn'): green_2 does not match red_1 (red)",
        "0 passed, 1 failed",
    ]


def test_refused_and_reason_are_checked(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: accepted after all
            given: {hands: [[red_1, green_2], [red_1, red_2]], top: red_5, turn: 0}
            expect: {refused: play red_1}
          - name: other reason
            given: {hands: [[blue_1, green_2], [red_1, red_2]], top: red_5, turn: 0}
            expect: {refused: play blue_1, reason: not your turn}
          - name: the last action may be the refused one
            given: {hands: [[blue_1, green_2], [red_1, red_2]], top: red_5, turn: 0}
            actions: [play blue_1]
            expect: {refused: play blue_1, reason: does not match, hand_sizes: [2, 2]}
    """)
    report = run_scenario_files([path])
    assert report.lines() == [
        f"{path}:5:14: scenario 'accepted after all': refused: 'play red_1' was accepted",
        f"{path}:8:36: scenario 'other reason': reason: expected a refusal containing 'not your turn', "
        "got 'blue_1 does not match red_5 (red)'",
        "1 passed, 2 failed",
    ]


def test_by_checks_who_acts(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: wrong seat
            given: {hands: [[red_1, red_2, red_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
            actions: [{by: 2, do: play red_1}]
    """)
    assert run_scenario_files([path]).lines()[0] == (
        f"{path}:5:15: scenario 'wrong seat': actions[0] 'play red_1': seat 2 cannot act now; "
        "seat 0 ('turn') must decide")


def test_legal_and_not_legal_list_the_legal_actions(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: legal
            given: {hands: [[red_1, green_2], [red_1, red_2]], top: red_5, turn: 0}
            expect: {legal: [play green_2], not_legal: [play red_1]}
    """)
    assert run_scenario_files([path]).lines()[:2] == [
        f"{path}:5:22: scenario 'legal': legal: 'play green_2' is not legal for seat 0 ('turn'); "
        "legal: play red_1, play red_1 uno, draw",
        f"{path}:5:49: scenario 'legal': not_legal: 'play red_1' is legal for seat 0 ('turn'); "
        "legal: play red_1, play red_1 uno, draw",
    ]


def test_known_issues_count_apart_and_must_be_removed_once_fixed(tmp_path):
    path = write(tmp_path, """\
        variant: classic.yaml
        scenarios:
          - name: still broken
            known_issue: the engine gets this wrong
            given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
            actions: [play red_skip]
            expect: {turn: 1}
          - name: fixed
            known_issue: the engine got this wrong
            given: {hands: [[red_skip, red_2, blue_3], [green_1, green_2], [yellow_1, yellow_2]], top: red_5, turn: 0}
            actions: [play red_skip]
            expect: {turn: 2}
    """)
    report = run_scenario_files([path])
    assert (report.passed, report.failed, report.known_issues, report.ok) == (0, 1, 1, False)
    assert report.lines() == [
        f"{path}:8:5: scenario 'fixed': passes now; remove 'known_issue: the engine got this wrong'",
        "0 passed, 1 failed, 1 known issue(s)",
    ]
    assert report.lines(verbose=True)[:2] == [
        f"{path}:3:5: scenario 'still broken': known issue: the engine gets this wrong",
        f"{path}:7:14: scenario 'still broken': (known issue) turn: expected 1, got 2",
    ]


# ---------------------------------------------------------------------------
# Chance pinned: `given: {random: [...]}` tells the next outcomes of `random(a, b)` and `random NAME`

DICE = """\
    unodsl: 1
    name: Dice
    extends: classic.yaml
    distributions:
      paint: {red: 3, blue: 1}
    cards:
      skip:
        on_play: |
          next draws random(1, 6)
          set color random paint
"""


def _dice_report(tmp_path, random_values, actions="[play red_skip]", expect="{}"):
    (tmp_path / "dice.yaml").write_text(textwrap.dedent(DICE), encoding="utf-8")
    path = write(tmp_path, f"""\
        variant: dice.yaml
        scenarios:
          - name: dice
            given: {{hands: [[red_skip, red_2, red_3], [blue_1, blue_2], [green_1, green_2]], top: red_5,
                    turn: 0, random: {random_values}}}
            actions: {actions}
            expect: {expect}
    """)
    return path, run_scenario_files([path])


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_random_outcomes_given_in_advance_are_drawn_in_order(tmp_path, fast):
    for roll, color in ((1, "blue"), (6, "red")):
        path, report = _dice_report(tmp_path, f"[{roll}, {color}]", expect=f"{{hand_sizes: [2, {2 + roll}, 2], "
                                    f"color: {color}}}")
        assert report.ok and report.passed == 1, report.lines()


def test_once_the_outcomes_given_are_used_the_generator_draws(tmp_path):
    path, report = _dice_report(tmp_path, "[3]", expect="{hand_sizes: [2, 5, 2]}")
    assert report.ok, report.lines()


def test_a_random_outcome_that_cannot_come_fails_at_its_entry(tmp_path):
    path, report = _dice_report(tmp_path, "[7, blue]")
    assert report.lines() == [
        f"{path}:5:31: scenario 'dice': random[0]: 7 cannot come from random(1, 6), which gives a number from 1 "
        "to 6 (drawn by actions[0] 'play red_skip')",
        "0 passed, 1 failed"]
    path, report = _dice_report(tmp_path, "[2, yellow]")
    assert report.lines()[0] == (f"{path}:5:34: scenario 'dice': random[1]: 'yellow' cannot come from random "
                                 "paint, which gives one of red, blue (drawn by actions[0] 'play red_skip')")


def test_random_outcomes_never_drawn_fail(tmp_path):
    path, report = _dice_report(tmp_path, "[2, red, 5]")
    assert report.lines() == [
        f"{path}:5:39: scenario 'dice': random: 1 of the 3 outcomes given was never drawn (the game drew 2)",
        "0 passed, 1 failed"]


def test_a_random_color_the_variant_does_not_have_is_e605(tmp_path):
    path, report = _dice_report(tmp_path, "[2, purple]")
    assert report.lines()[0] == (f"{path}:5:34: E605 unknown color 'purple' (the colors are red, yellow, green, "
                                 "blue) in scenario 'dice'")


# ---------------------------------------------------------------------------
# Broken scenario files: a diagnostic, never a traceback


@pytest.mark.parametrize("text, expected", [
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {hands: [[red_1]\n",
     "5:1: E110 did not find expected ',' or ']' (while parsing a flow sequence)"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {colour: red}\n",
     "4:13: E201 unknown key 'colour' in 'given' of scenario 'x' (did you mean 'color'?)"),
    ("variant: nope.yaml\nscenarios: []\n", "1:10: E601 variant file 'nope.yaml' not found"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {hands: [[red_77], [red_1]], top: red_5}\n",
     "4:22: E602 unknown card id 'red_77' (did you mean 'red_7'?) in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {hands: [[red_0, red_0], [red_1]]}\n",
     "4:29: E603 the scenario uses 2 copies of red_0, the deck has 1 in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {top: wild, color: purple}\n",
     "4:24: E605 unknown color 'purple' (the colors are red, yellow, green, blue) in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    actions: [jump]\n",
     "4:15: E606 'jump' is not an action of this variant"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    players: 11\n",
     "4:5: E604 UNO (classic) is played by 2 to 10 players, not 11 in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {turn: 3, hands: [[red_1], [red_2]]}\n",
     "4:13: E604 seat 3 does not exist with 2 players (seats 0 to 1) in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {rulings: {two_player_revers_is_skip: true}}\n",
     "4:23: E607 unknown ruling 'two_player_revers_is_skip' (did you mean 'two_player_reverse_is_skip'?)"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n    given: {top: red_1, start_card: red_2}\n",
     "4:25: E608 give either top or start_card, not both in scenario 'x'"),
    ("variant: classic.yaml\nscenarios:\n  - name: x\n  - name: x\n",
     "4:5: E609 scenario name 'x' is used twice (first on line 3)"),
    ("unodsl: 1\nname: x\n", "1:1: E600 this is a variant file"),
])
def test_broken_scenario_files_give_a_diagnostic(tmp_path, text, expected):
    path = write(tmp_path, text)
    report = run_scenario_files([path])
    lines = report.lines()
    assert not report.ok
    assert any(line.startswith(f"{path}:{expected}") for line in lines), lines
    assert not any("Traceback" in line for line in lines)


def test_missing_and_directory_paths_are_diagnostics(tmp_path):
    report = run_scenario_files([str(tmp_path / "none.yaml"), str(tmp_path)])
    assert report.lines() == [
        f"{tmp_path}:1:1: E102 path is a directory, not a YAML file",
        f"{tmp_path / 'none.yaml'}:1:1: E101 file not found",
        "0 passed, 0 failed, 2 error(s) in scenario files",
    ]


def test_cli_test_exit_codes(tmp_path):
    good = write(tmp_path, PASSING, "good.yaml")
    bad = write(tmp_path, "variant: classic.yaml\nscenarios:\n  - name: x\n    expect: {turn: 3}\n", "bad.yaml")
    runner = CliRunner()
    ok = runner.invoke(main, ["test", good], catch_exceptions=False)
    assert (ok.exit_code, ok.output) == (0, "1 passed, 0 failed\n")
    failed = runner.invoke(main, ["test", good, bad], catch_exceptions=False)
    assert failed.exit_code == 1
    assert failed.output.splitlines() == [f"{bad}:4:14: scenario 'x': turn: expected 3, got 0", "1 passed, 1 failed"]


# ---------------------------------------------------------------------------
# build_state


def test_build_state_places_every_card_once(classic):
    state = build_state(classic, {"name": "x", "given": {
        "hands": [["red_1", "wild"], ["blue_2"]], "top": "red_5", "discard": ["green_5", "green_6"],
        "draw_pile": ["yellow_1", "yellow_2"], "turn": 1, "color": "red", "direction": -1, "dealer": 0,
        "scores": [10, 20], "uno_called": [1]}})
    assert state.hand(0) == ["red_1", "wild"] and state.hand(1) == ["blue_2"]
    assert [classic.card_names[k] for k in state.discard] == ["green_5", "green_6", "red_5"]
    assert [classic.card_names[k] for k in state.draw_pile[-2:]] == ["yellow_2", "yellow_1"]
    assert len(state.draw_pile) == 108 - 3 - 3
    assert (state.current_player, state.decision, state.direction, state.dealer) == (1, "turn", -1, 0)
    assert state.scores == [10, 20] and state.uno_called == [False, True]
    assert check_conservation(state) is None


def test_build_state_deals_hands_not_given(classic):
    state = build_state(classic, {"name": "x", "players": 3, "given": {"hands": [["red_1"]], "top": "red_5"}})
    assert [len(h) for h in state.hands] == [1, 7, 7]
    assert check_conservation(state) is None


def test_build_state_refuses_extra_copies(classic):
    with pytest.raises(ScenarioError) as err:
        build_state(classic, {"name": "x", "given": {"hands": [["wild"] * 3, ["wild"] * 2]}})
    assert err.value.code == "E603" and err.value.where == ("given", "hands", 1, 1)
    assert err.value.message == "the scenario uses 5 copies of wild, the deck has 4"


def test_start_card_runs_the_start_effect(classic):
    state = build_state(classic, {"name": "x", "given": {
        "hands": [["red_1"], ["red_2"], ["red_3"]], "start_card": "blue_skip", "dealer": 0}})
    assert (state.current_player, state.decision) == (2, "turn")


def test_conservation_notices_a_duplicated_card(classic):
    state = build_state(classic, {"name": "x", "given": {"hands": [["red_1"], ["red_2"]], "top": "red_5"}})
    state.hands[0].append(classic.card_index["red_0"])
    assert check_conservation(state) == "cards are not conserved: duplicated red_0 (2 of 1)"


def test_a_scenario_file_s_variant_outside_the_root_is_e320(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    (outside / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    scenarios = project / "s.yaml"
    scenarios.write_text("variant: ../outside/classic.yaml\nscenarios:\n  - name: x\n"
                         "    given: {hands: [[red_1], [red_2]], top: red_5, turn: 0}\n"
                         "    expect: {turn: 0}\n", encoding="utf-8")
    report = run_scenario_files([str(scenarios)])
    assert [d.code for d in report.diagnostics] == ["E320"] and report.passed == 0
    assert "pass --root" in report.diagnostics[0].message
    allowed = run_scenario_files([str(scenarios)], root=str(tmp_path))
    assert allowed.ok and allowed.passed == 1


# ---------------------------------------------------------------------------
# `unodsl test VARIANT` runs the scenario files that name the variant


def test_testing_a_variant_runs_the_scenario_files_that_name_it(tmp_path):
    write(tmp_path, PASSING, "skip.yaml")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "more.yaml").write_text(textwrap.dedent(PASSING).replace("classic.yaml", "../classic.yaml")
                                                      .replace("skip skips", "skip skips again"))
    (tmp_path / "scenarios" / "other.yaml").write_text("variant: ../elsewhere.yaml\nscenarios: []\n")
    report = run_scenario_files([str(tmp_path / "classic.yaml")])
    assert report.ok, report.lines()
    assert sorted(r.name for r in report.results) == ["skip skips", "skip skips again"]
    assert report.lines()[-1] == "2 passed, 0 failed"


def test_the_shipped_variants_scenarios_run_by_variant_and_by_name():
    by_path = run_scenario_files([str(REPO / "variants" / "house-rules" / "seven-o.yaml")])
    assert by_path.ok and by_path.results, by_path.lines()
    assert {r.path for r in by_path.results} == {str(REPO / "variants" / "scenarios" / "house-rules-seven-o.yaml")}
    result = subprocess.run([sys.executable, "-m", "unodsl.cli", "test", "seven-o"], capture_output=True,
                            text=True, cwd=REPO / "docs", timeout=300,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == f"{len(by_path.results)} passed, 0 failed"


def test_a_variant_without_scenarios_says_where_it_looked(tmp_path):
    variant = tmp_path / "lonely.yaml"
    shutil.copy(CLASSIC, variant)
    report = run_scenario_files([str(variant)])
    assert not report.ok
    assert report.lines()[0] == (
        f"{variant}:4:1: E600 this is a variant file, and no scenario file names it "
        f"(looked in {tmp_path}, {tmp_path / 'scenarios'} and {tmp_path.parent / 'scenarios'}); "
        "'unodsl test' runs scenario files "
        "(a 'variant:' and a list of 'scenarios:')")


@pytest.mark.parametrize("command", [["simulate", "-n", "2"], ["play"], ["rules"], ["check"]])
def test_a_scenario_file_given_to_a_variant_command_says_use_unodsl_test(command):
    path = "variants/scenarios/classic.yaml"
    result = subprocess.run([sys.executable, "-m", "unodsl.cli", *command, path], capture_output=True, text=True,
                            cwd=REPO, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO)), input="")
    assert result.returncode == 1
    shown = result.stdout + result.stderr
    assert f"{path}:6:1: E208 this is a scenario file: use 'unodsl test {path}'" in shown
    assert "E201" not in shown and "E205" not in shown and "E306" not in shown


def test_a_scenario_file_names_a_shipped_variant_by_name(tmp_path):
    """`variant: classic` means the shipped classic, as `extends: classic` does; a typo gets E324 with a guess."""
    scenario = tmp_path / "mine.yaml"
    scenario.write_text(textwrap.dedent("""\
        variant: classic
        scenarios:
          - name: a draw two makes the next player draw two
            given: {hands: [[red_draw_two, blue_1], [green_2, green_3]], start_card: red_5, dealer: 1}
            actions: [play red_draw_two]
            expect: {hand_sizes: [1, 4]}
    """))
    assert run_scenario_files([str(scenario)]).lines() == ["1 passed, 0 failed"]
    scenario.write_text(scenario.read_text().replace("variant: classic", "variant: clasic"))
    report = run_scenario_files([str(scenario)])
    assert [(d.line, d.column, d.code) for d in report.diagnostics] == [(1, 10, "E324")]
    assert "did you mean 'classic'?" in report.diagnostics[0].message
