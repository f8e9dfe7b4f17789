"""The designer's command line: simulate's defaults, mixes, rulings, house rules, figures and reports; compare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def unodsl(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"), timeout=600)


def test_simulate_plays_heuristic_bots_by_default_and_warns_of_cut_games_only_when_there_are_many():
    quiet = unodsl("simulate", "classic", "-n", "100", "--format", "json")
    assert quiet.returncode == 0 and json.loads(quiet.stdout)["bots"] == "heuristic"
    assert "warning" not in quiet.stderr
    cut = unodsl("simulate", "classic", "-n", "150", "--bots", "random", "--format", "json")
    summary = json.loads(cut.stdout)
    assert summary["stalls"] > 1.5 and f"warning: {summary['stalls']} of 150 games" in cut.stderr


def test_bots_are_seated_in_turn_from_a_comma_list_and_an_unknown_one_is_a_usage_error():
    mixed = json.loads(unodsl("simulate", "classic", "-n", "60", "--bots", "random,heuristic", "--format",
                              "json").stdout)
    assert mixed["bots"] == "random,heuristic"
    rates = [seat["win_rate"] for seat in mixed["seats"]]
    assert rates[1] + rates[3] > rates[0] + rates[2]          # the heuristic seats win more
    wrong = unodsl("simulate", "classic", "-n", "5", "--bots", "heuristic,genius")
    assert wrong.returncode == 2 and "unknown bot 'genius'" in wrong.stderr


def test_rulings_and_house_rules_change_the_variant_for_one_run():
    stacked = json.loads(unodsl("simulate", "classic", "-n", "60", "--include", "stacking-mattel", "--figures",
                                "--format", "json").stdout)
    assert stacked["include"] == ["stacking-mattel"] and stacked["report"]["stacks"]["mean"] > 0
    plain = json.loads(unodsl("simulate", "classic", "-n", "60", "--figures", "--format", "json").stdout)
    assert plain["report"]["stacks"]["mean"] == 0
    ruled = unodsl("simulate", "classic", "-n", "20", "--ruling", "draw_two_start_skips=false", "--format", "json")
    assert json.loads(ruled.stdout)["rulings"] == {"draw_two_start_skips": False}
    for bad, words in (("no_such_rule=1", "unknown ruling 'no_such_rule'"),
                       ("draw_two_start_skips=7", "takes true or false"),
                       ("wild_start_card=never", "is one of first_player_chooses, flip_again"),
                       ("oops", "is not NAME=VALUE")):
        refused = unodsl("simulate", "classic", "-n", "5", "--ruling", bad)
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr
    missing = unodsl("simulate", "classic", "-n", "5", "--include", "no-such-house-rule")
    assert missing.returncode == 1 and "E324" in missing.stderr


def test_a_report_is_written_once_and_never_over_a_file_without_force(tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "classic.html"
    made = unodsl("simulate", "classic", "-n", "40", "--report", str(page))
    assert made.returncode == 0 and "first player wins" in made.stdout
    text = page.read_text()
    # positions, length, snowball, the ladder, restricted play, cards
    assert "<h2>Fairness</h2>" in text and text.count("data:image/png;base64,") == 6
    page.write_text("mine")
    again = unodsl("simulate", "classic", "-n", "40", "--report", str(page))
    assert again.returncode == 2 and "--force" in again.stderr and page.read_text() == "mine"
    assert unodsl("simulate", "classic", "-n", "40", "--report", str(page), "--force").returncode == 0
    md = unodsl("simulate", "classic", "-n", "40", "--report", str(tmp_path / "r.md"), "--study-games", "0")
    assert md.returncode == 0 and sorted(p.name for p in tmp_path.iterdir()) == [
        "classic.html", "r-cards.png", "r-length.png", "r-positions.png", "r-snowball.png", "r.md"]
    odd = unodsl("simulate", "classic", "-n", "4", "--report", str(tmp_path / "r.pdf"))
    assert odd.returncode == 2 and "a report is .html or .md" in odd.stderr


def test_compare_a_house_rule_with_its_variant_and_a_ruling_grid():
    out = json.loads(unodsl("compare", "classic", "--include", "stacking-mattel", "-n", "100", "--format",
                            "json").stdout)
    rows = {r["figure"]: r for r in out["figures"]}
    assert out["a"] == "classic + stacking-mattel" and out["b"] == "classic"
    assert rows["longest_stack"]["significant"] and rows["longest_stack"]["difference"] > 0
    on_two = json.loads(unodsl("compare", "classic", "--include", "stacking-mattel", "-n", "100", "--workers", "2",
                               "--format", "json").stdout)
    assert on_two == out                                  # the same games, split over two processes
    grid = json.loads(unodsl("compare", "classic", "--ruling", "draw_two_start_skips=true,false", "-n", "30",
                             "--format", "json").stdout)
    assert grid["a"] == "classic with draw_two_start_skips=false" and grid["b"].endswith("=true")
    text = unodsl("compare", "classic", "classic", "-n", "20")
    assert text.returncode == 0 and "turns" in text.stdout and "+0.000  [+0.000, +0.000]" in text.stdout
    for args, words in ((("classic",), "give B, or --include or --ruling"),
                        (("classic", "classic", "--include", "jump-in"), "give A only"),
                        (("classic", "--ruling", "draw_two_start_skips=true"), "two values or more")):
        refused = unodsl("compare", *args, "-n", "5")
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr


def test_python_m_unodsl_and_the_lsp_command_exist():
    assert unodsl("--version").stdout.startswith("unodsl")
    assert unodsl("lsp", "--help").returncode == 0


def test_include_reads_a_house_rule_from_the_working_folder_over_a_shipped_variant(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "plus.yaml").write_text(
        "unodsl: 1\nname: Plus one\nhouse_rule: {id: plus_one, summary: one more card, check_with: classic}\n"
        "deck: {total: null}\ncards:\n  wild_extra: {count: 1, wild: true, points: 50}\n")
    run = unodsl("simulate", "classic", "-n", "20", "--include", "plus.yaml", "--figures", "--format", "json",
                 cwd=tmp_path)
    cards = [c["card"] for c in json.loads(run.stdout)["report"]["cards"]]
    assert run.returncode == 0 and "wild_extra" in cards
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plus.yaml", "pyproject.toml"]     # nothing written
