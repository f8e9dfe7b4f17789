"""RuleShift (`unodsl bench-rules`): novel variants checked and screened, three tracks, deterministic given a seed."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from unodsl.arena.bench import clause, generate, grade_question, load_text, questions, run_benchmark, variant_text
from unodsl.cli.app import main

SMALL = dict(variants=2, screen_games=30, questions_per_variant=2, deals=2, write_games=3)


def test_generated_variants_check_clean_and_carry_their_house_rules_and_rulings(tmp_path):
    novels, rejected = generate(11, 3, screen_games=30, workdir=str(tmp_path))
    assert len(novels) == 3
    for novel in novels:
        game, errors = load_text(novel.text, str(tmp_path))
        assert errors == [] and game.variant.name == novel.name
        for name, value in novel.rulings.items():
            assert game.variant.rulings[name].value == value
    assert [n.includes for n in generate(11, 3, screen_games=30, workdir=str(tmp_path))[0]] == [n.includes for n in novels]


def test_questions_have_the_engines_ground_truth(tmp_path):
    novel = generate(5, 1, screen_games=20, workdir=str(tmp_path))[0][0]
    asked = questions(novel, 3, 3)
    legal = [q for q in asked if q["kind"] == "is_legal" and q["truth"]]
    illegal = [q for q in asked if q["kind"] == "is_legal" and not q["truth"]]
    assert legal and illegal and all(q["action"] in q["legal"] for q in legal)
    assert all(q["action"] not in q["legal"] and q["clause"] for q in illegal)
    assert not any(re.search(r"^ +1\) ", q["prompt"], re.M) for q in asked)      # never the list of legal actions
    lists = [q for q in asked if q["kind"] == "list_legal"]
    assert grade_question(lists[0], "ANSWER:\n" + "\n".join(lists[0]["truth"])) == 1.0
    assert grade_question(legal[0], "I think so.\nANSWER: yes") == 1.0
    assert grade_question(illegal[0], "ANSWER: yes") == 0.0


def test_a_clause_is_the_reason_without_its_cards_colors_and_numbers():
    import unodsl
    classic = unodsl.load("variants/classic.yaml")
    assert clause("red_7 does not match blue_2 (blue)", classic) == "CARD does not match CARD (COLOR)"
    assert clause("player 1 does not hold wild", classic) == "player N does not hold CARD"


def test_the_benchmark_tells_the_scripted_agents_apart_and_is_deterministic(tmp_path):
    first = run_benchmark(["classic-reader", "guesser"], seed=3, workdir=str(tmp_path), **SMALL)
    again = run_benchmark(["classic-reader", "guesser"], seed=3, workdir=str(tmp_path), **SMALL)
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    reader, guesser = first["agents"]["classic-reader"], first["agents"]["guesser"]
    assert reader["play"]["variant"]["first_try_illegal_rate"] < guesser["play"]["variant"]["first_try_illegal_rate"]
    assert reader["write"]["checks_clean"] == 2 and 0 <= reader["write"]["plays_alike"] <= 1
    assert set(reader["questions"]["by_kind"]) == {"is_legal (illegal)", "is_legal (legal)", "list_legal"}


def test_the_command_writes_the_report(tmp_path):
    args = ["bench-rules", "--agent", "classic-reader", "--variants", "1", "--screen-games", "20", "--questions", "1",
            "--deals", "1", "--write-games", "2", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# RuleShift: seed 2026")
    assert json.loads((tmp_path / "out" / "report.json").read_text())["benchmark"] == "RuleShift"
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 1 and "exists (use --force" in again.output
