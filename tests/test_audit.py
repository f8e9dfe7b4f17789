"""`unodsl audit`: conflicts, stalls and interactions of house rules laid over a variant in pairs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from unodsl.runs.audit import audit, interactions
from unodsl.runs.metrics import FIGURES

SHORT = "unodsl: 1\nname: Short rounds\nhouse_rule: {id: short, summary: rounds of ten turns, check_with: classic}\n" \
        "round: {max_turns: 10}\n"


def test_a_pair_of_exclusive_rules_conflicts_and_a_rule_that_never_lets_a_round_end_stalls(tmp_path):
    (tmp_path / "short.yaml").write_text(SHORT)
    run = subprocess.run([sys.executable, "-m", "unodsl", "audit", "--rule", "stacking-mattel", "--rule",
                          "stacking-progressive", "--include", "short.yaml", "-n", "6", "--fuzz", "1", "--format",
                          "json", "--report", "audit.md"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert run.returncode == 1, run.stderr
    rows = {" + ".join(r["rules"]): r for r in json.loads(run.stdout)["combinations"]}
    assert set(rows) == {"stacking-mattel", "stacking-progressive", "short", "stacking-mattel + stacking-progressive",
                         "stacking-mattel + short", "stacking-progressive + short"}
    conflict = rows["stacking-mattel + stacking-progressive"]
    assert conflict["status"] == "conflict" and conflict["conflicts"][0].startswith("E331 ")
    assert rows["short"]["status"] == "stall" and rows["short"]["heuristic_stalls"] == 6
    assert rows["stacking-mattel"]["status"] == "ok"
    assert (tmp_path / "audit-pairs.png").read_bytes().startswith(b"\x89PNG")
    assert "E331" in (tmp_path / "audit.md").read_text()


def test_draw_to_match_with_stacking_makes_longer_stacks_than_the_two_effects_add_up_to():
    rows, problems = audit("classic", ["draw-to-match", "stacking-mattel"], os.getcwd(), games=60, fuzz_games=1)
    assert problems == []
    pair = rows[-1]
    assert pair.rules == ("draw-to-match", "stacking-mattel") and pair.status == "interaction"
    flagged = {row["figure"]: row for row in pair.interactions}
    assert flagged["longest_stack"]["interaction"] > 0 and flagged["longest_stack"]["interval"][0] > 0


def test_an_interaction_is_the_combined_effect_less_the_sum_of_the_single_ones():
    base = [{"turns": 10}, {"turns": 12}, {"turns": 11}]
    one = [{"turns": 12}, {"turns": 14}, {"turns": 13}]          # +2
    two = [{"turns": 13}, {"turns": 15}, {"turns": 14}]          # +3
    additive = [{"turns": 15}, {"turns": 17}, {"turns": 16}]     # +5: no interaction
    synergy = [{"turns": 25}, {"turns": 26}, {"turns": 27}]      # about +15
    fill = lambda rows: [dict(r, **{f.name: 0 for f in FIGURES if f.name != "turns"}) for r in rows]  # noqa: E731
    assert interactions(fill(base), [fill(one), fill(two)], fill(additive), 3.0) == []
    found = interactions(fill(base), [fill(one), fill(two)], fill(synergy), 3.0)
    assert [row["figure"] for row in found] == ["turns"] and found[0]["interaction"] == 10

