"""unodsl ladder: the schedule of paired deals with rotated seats, results on disk that a stopped run goes on
from, and Bradley-Terry ratings with bootstrap intervals pinned at an anchor."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import unodsl
from unodsl.arena.ladder import LadderError, read_results, run_ladder, schedule
from unodsl.cli.app import main

pytest.importorskip("choix")
from unodsl.arena.ratings import rate  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def classic():
    return unodsl.load(str(REPO / "variants/classic.yaml"))


def test_every_table_plays_every_deal_once_per_rotation_of_its_seats():
    games = schedule(["a", "b", "c"], 2, 3)
    assert len(games) == 3 * 3 * 2
    for table in (("a", "b"), ("a", "c"), ("b", "c")):
        for deal in range(3):
            seats = sorted(g.seats for g in games if g.table == table and g.deal == deal)
            assert seats == sorted([table, table[::-1]])
    three = schedule(["a", "b", "c", "d"], 3, 1)
    assert len(three) == 4 * 3 and {g.seats for g in three if g.table == ("a", "b", "c")} == {
        ("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")}


def test_a_ladder_goes_on_from_its_results_and_the_deals_are_the_same_for_every_table(classic, tmp_path):
    path = str(tmp_path / "results.jsonl")
    first = run_ladder(classic, ["random", "heuristic", "expert"], path, deals=2, seed=4)
    assert len(first) == 12
    seeds = {(r["deal"], r["seed"]) for r in first}
    assert len(seeds) == 2                                          # one engine seed per deal, whatever the table
    stop = []
    more = run_ladder(classic, ["random", "heuristic", "expert"], path, deals=4, seed=4,
                      progress=lambda done: stop.append(1) if done >= 15 else None, stop=stop)
    assert len(more) == 15                                          # stopped between two games, as asked
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"type": "game", "tab')                            # a line cut short by a kill
    done = run_ladder(classic, ["random", "heuristic", "expert"], path, deals=4, seed=4)
    assert len(done) == 24 and len(read_results(path)[1]) == 24
    again = run_ladder(classic, ["random", "heuristic", "expert"], path, deals=4, seed=4)
    assert [r["winner"] for r in again] == [r["winner"] for r in done]
    with pytest.raises(LadderError, match="another ladder's results \\(seed 4, this one 5\\)"):
        run_ladder(classic, ["random", "heuristic"], path, deals=1, seed=5)


def _records(p_win: float, deals: int, rng: random.Random) -> list[dict]:
    """Synthetic games of a against b: a wins with probability p_win; both rotations of every deal."""
    out = []
    for deal in range(deals):
        for rotation in (0, 1):
            seats = ["a", "b"] if rotation == 0 else ["b", "a"]
            a_wins = rng.random() < p_win
            out.append({"table": ["a", "b"], "seats": seats, "deal": deal, "rotation": rotation,
                        "winner": seats.index("a" if a_wins else "b"), "incidents": {}})
    return out


def test_ratings_recover_a_known_strength_with_an_interval_around_it():
    records = _records(0.75, 1500, random.Random(2))
    ratings = {r.name: r for r in rate(records, ["a", "b"], anchor=("b", 1000.0), bootstrap=100)}
    expected = 1000 + 400 * math.log10(0.75 / 0.25)                  # 190.8 points above the anchor
    a = ratings["a"]
    assert abs(a.rating - expected) < 25 and a.low < expected < a.high and a.high - a.low < 80
    assert ratings["b"].rating == ratings["b"].low == ratings["b"].high == 1000.0 and ratings["b"].anchor


def test_the_ladder_command_prints_the_table_and_draws_the_plot(tmp_path):
    results, png = tmp_path / "ladder.jsonl", tmp_path / "ladder.png"
    args = ["ladder", "classic", "--anchors", "random,heuristic", "--entrant",
            f"py:{REPO / 'docs/examples/agents/first_legal.py'}:FirstLegal", "--deals", "3",
            "--results", str(results), "--plot", str(png), "--bootstrap", "20"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "UNO (classic): 18 of 18 games, tables of 2, seed 1"
    assert lines[1].split()[:4] == ["rank", "entrant", "rating", "95%"]
    assert any("heuristic (anchor)" in line and "1000" in line for line in lines)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    as_json = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    assert as_json["games"] == 18 and {r["name"] for r in as_json["ratings"]} == {
        "random", "heuristic", f"py:{REPO / 'docs/examples/agents/first_legal.py'}:FirstLegal"}
    wrong = CliRunner().invoke(main, ["ladder", "classic", "--anchors", "random,heuristic", "--anchor", "nobody=5",
                                      "--results", str(results)])
    assert wrong.exit_code == 2 and "'nobody' is not an anchor or an entrant" in wrong.output
