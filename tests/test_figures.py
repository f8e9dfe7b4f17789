"""The designer's new figures move the right way on constructed variants (docs/analytics.md defines each).

Each figure is compared, paired on the same seeds, between classic and a variant built to move it:
a tax on the leader lowers snowball and decisiveness; forbidding the free draw lowers agency; hands that
rotate at every number card take the skill out (skill gap and luck against skill fall); a Skip that
makes everyone else draw is worth more to its holder (restricted play). The Luce fit recovers known
strengths, and the export writes what the run measured.
"""

from __future__ import annotations

import csv
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from unodsl.agents.bots import make_bot
from unodsl.check import load
from unodsl.effects import layout as D
from unodsl.runs.compare import compare_games
from unodsl.runs.metrics import FIGURES, GameMetrics
from unodsl.runs.simulate import run_range, simulate
from unodsl.runs.studies import Plan, RestrictedBot, fit_ladder, forbidden_test, restrictions_of

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "variants" / "classic.yaml")

LEADER_TAX = """unodsl: 1
name: Leader tax
extends: classic
cards:
  skip:
    on_play: |
      skip next
      fewest cards draws 2
  reverse:
    on_play: |
      reverse
      if players == 2 and rule.two_player_reverse_is_skip:
          skip next
      fewest cards draws 2
"""
NO_FREE_DRAW = "unodsl: 1\nname: No free draw\nextends: classic\nturn:\n  may_draw_if: false\n"
ROTATION = "unodsl: 1\nname: Rotation\nextends: classic\ncards:\n  number:\n    on_play: rotate hands\n"
STRONG_SKIP = """unodsl: 1
name: Strong skip
extends: classic
cards:
  skip:
    on_play: |
      skip next
      for each p in others:
          p draws 2
"""


def _variant(tmp_path, text: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return load(str(path), root="/")


def _compared(a, games: int, players: int = 4, plan: Plan = Plan()) -> dict:
    return {row["figure"]: row for row in compare_games(a, load(CLASSIC), games, players, 1, ["heuristic"],
                                                         plan=plan).summary()}


def test_a_rule_that_hands_the_leader_two_cards_lowers_snowball_and_decisiveness(tmp_path):
    rows = _compared(_variant(tmp_path, LEADER_TAX), 150)
    for name in ("snowball_75", "decisiveness"):
        assert rows[name]["significant"] and rows[name]["difference"] < 0, rows[name]
    assert rows["snowball_50"]["difference"] < 0 and rows["snowball_25"]["difference"] < 0.05


def test_forbidding_the_free_draw_lowers_agency(tmp_path):
    rows = _compared(_variant(tmp_path, NO_FREE_DRAW), 40)
    for name in ("choice_share", "options"):
        assert rows[name]["significant"] and rows[name]["difference"] < 0, rows[name]


def test_agency_counts_a_play_with_and_without_uno_once():
    """At a decision offering `play X`, `play X uno` and `draw` there are two distinct options."""
    game = load(CLASSIC)
    for seed in range(40):
        state = game.new_game(2, seed=seed)
        while not state.over:
            legal = state.legal_action_ids()
            if state.decision == D.TURN and any(a >= game.num_kinds for a in legal if a < 2 * game.num_kinds):
                metrics = GameMetrics(state)
                metrics.step(state, state.current_player, D.TURN, legal[0])
                plays = {a % game.num_kinds for a in legal if a < 2 * game.num_kinds}
                assert metrics.options == len(plays) + (game.A_DRAW in legal) < len(legal)
                return
            state.apply_id(legal[-1] if len(legal) > 1 and seed % 2 else legal[0])
    pytest.fail("no decision offered a play with UNO")


def test_hands_that_rotate_at_every_number_take_the_skill_out(tmp_path):
    plan = Plan(games=120, skill=(("heuristic", "random"),), restrict=(), ladder=("random", "heuristic"))
    rows = _compared(_variant(tmp_path, ROTATION), 120, players=2, plan=plan)
    for name in ("skill:heuristic/random", "luck"):
        assert rows[name]["significant"] and rows[name]["difference"] < -0.3, rows[name]
    assert rows["skill:heuristic/random"]["b"] > 0.9          # in classic the heuristic beats random bots


def test_a_skip_that_makes_everyone_draw_is_worth_more_to_its_holder(tmp_path):
    plan = Plan(games=150, skill=(), restrict=("card:skip",), ladder=())
    row = _compared(_variant(tmp_path, STRONG_SKIP), 150, plan=plan)["restricted:card:skip"]
    assert row["significant"] and row["difference"] > 0.03, row


def test_a_restricted_bot_plays_as_the_bot_until_the_restriction_bites():
    """Never challenging changes nothing in games where nobody could challenge; never calling UNO always loses."""
    game = load(CLASSIC)
    report = run_range(game, 4, 1, 0, 60, ["heuristic"], measure=True,
                       plan=Plan(games=60, skill=(), ladder=(), restrict=("uno", "challenge"))).report.summary()
    rows = {row["restriction"]: row for row in report["restricted"]}
    assert rows["uno"]["win_rate"] == 0.0 and rows["uno"]["value"] == rows["uno"]["unrestricted_win_rate"] > 0
    state = game.new_game(4, seed=5)
    forbid = forbidden_test(game, "challenge")
    bot = RestrictedBot(make_bot("heuristic", random.Random(1)), forbid)
    assert bot.act(state) in state.legal_action_ids()
    assert "card:wild_draw_four" in restrictions_of(game) and "challenge" in restrictions_of(game)
    assert "stack" not in restrictions_of(game)


def test_the_ladder_fit_recovers_known_strengths():
    """Synthetic 3-player games with strengths 1, 2 and 4: the ratings come back within their intervals."""
    rng = random.Random(7)
    strength = [1.0, 2.0, 4.0]
    records = Counter()
    for _ in range(6000):
        seating = tuple(rng.randrange(3) for _ in range(3))
        weights = [strength[b] for b in seating]
        winner = rng.choices(range(3), weights)[0]
        records[(seating, (0, 1, 2), winner)] += 1
    fit = fit_ladder(records, ("weak", "middle", "strong"))
    elo = 400 / math.log(10)
    for bot, truth in zip(fit["bots"][1:], (math.log(2) * elo, math.log(4) * elo)):
        assert bot["ci95"][0] < truth < bot["ci95"][1], (bot, truth)
    equal = Counter()
    for _ in range(3000):
        seating = tuple(rng.randrange(3) for _ in range(3))
        equal[(seating, (0, 1, 2), rng.randrange(3))] += 1
    assert abs(fit_ladder(equal, ("a", "b", "c"))["explained"]) < 0.01 < fit["explained"]


def test_comparing_a_variant_with_itself_differs_by_nothing_in_every_figure_and_study():
    plan = Plan(games=12)
    rows = compare_games(load(CLASSIC), load(CLASSIC), 12, 4, 3, ["heuristic"], plan=plan).summary()
    names = [row["figure"] for row in rows]
    assert names[:len(FIGURES)] == [f.name for f in FIGURES]
    for prefix in ("seat_won:3", "position_won:1", "plays:wild", "skill:expert/heuristic", "restricted:uno", "luck"):
        assert any(name.startswith(prefix) for name in names), prefix
    for row in rows:
        assert row["difference"] == 0 and not row["significant"], row


def test_figures_with_studies_are_the_same_for_any_number_of_workers():
    plan = Plan(games=30, skill=(("expert", "heuristic"),), restrict=("card:skip", "challenge"))
    one = simulate(CLASSIC, 50, 3, 2, ["heuristic"], workers=1, measure=True, plan=plan).summary()
    two = simulate(CLASSIC, 50, 3, 2, ["heuristic"], workers=2, measure=True, plan=plan).summary()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    report = one["report"]
    assert report["skill"][0]["games"] == 30 and report["luck"]["games"] > 20
    assert {row["restriction"] for row in report["restricted"]} == {"card:skip", "challenge"}


def test_the_card_lift_takes_the_winners_bias_out():
    """Every card's raw 'won by its player' share is above the fair share (winners play more cards); the lift,
    that share over the winners' share of all plays, averages exactly 1 over the plays."""
    report = run_range(load(CLASSIC), 4, 1, 0, 150, ["heuristic"], measure=True).report.summary()
    cards = report["cards"]
    assert report["winners_share_of_plays"] > 0.25
    assert sum(c["plays"] * c["lift"] for c in cards) / sum(c["plays"] for c in cards) == pytest.approx(1.0)


def _unodsl(*args, cwd):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"), timeout=600)


def test_save_writes_every_game_of_both_sides_as_csv_and_parquet(tmp_path):
    os.umask(0o022)
    run = _unodsl("compare", "classic", "--include", "seven-o", "-n", "12", "--players", "2,3", "--study-games",
                  "4", "--save", str(tmp_path / "games.csv"), "--format", "json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    blocks = json.loads(run.stdout)
    assert [b["players"] for b in blocks] == [2, 3]
    with open(tmp_path / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * 2 * 12 and {r["side"] for r in rows} == {"A", "B"}
    assert (tmp_path / "games.csv").stat().st_mode & 0o777 == 0o644          # the umask, not 0600
    first = next(r for r in rows if r["players"] == "3" and r["game"] == "0" and r["side"] == "A")
    assert first["seat_won:2"] != "" and 0 <= float(first["drama"]) <= 1 and first["skill:expert/heuristic"] != ""
    later = next(r for r in rows if r["game"] == "7")
    assert later["skill:expert/heuristic"] == "" and later["luck_bots"] == ""       # studies on games 0-3 only
    turns = [int(r["turns"]) for r in rows if r["side"] == "A" and r["players"] == "2"]
    a_rows = next(b for b in blocks if b["players"] == 2)["figures"]
    assert sum(turns) / len(turns) == pytest.approx(next(r["a"] for r in a_rows if r["figure"] == "turns"))
    pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    sim = _unodsl("simulate", "classic", "-n", "9", "--workers", "2", "--study-games", "3", "--save",
                  str(tmp_path / "games.parquet"), cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    table = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert sorted(row["game"] for row in table) == list(range(9))
    assert table[0]["drama"] is None or isinstance(table[0]["drama"], float)
    again = _unodsl("simulate", "classic", "-n", "3", "--save", str(tmp_path / "games.parquet"), cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr
    odd = _unodsl("simulate", "classic", "-n", "3", "--save", str(tmp_path / "games.xlsx"), cwd=tmp_path)
    assert odd.returncode == 2 and ".csv or .parquet" in odd.stderr


def test_study_options_are_checked_before_any_game_is_played(tmp_path):
    for args, words in ((("--skill", "expert"), "is not STRONG/WEAK"), (("--skill", "genius/heuristic"),
                                                                        "unknown bot 'genius'"),
                        (("--restrict", "card:joker"), "unknown card type 'joker'"),
                        (("--restrict", "bluff"), "unknown restriction 'bluff'"),
                        (("--ladder", "heuristic"), "two bots or more")):
        run = _unodsl("simulate", "classic", "-n", "5", "--figures", *args, cwd=tmp_path)
        assert run.returncode == 2 and words in run.stderr, (args, run.stderr)
    text = _unodsl("simulate", "classic", "-n", "20", "--figures", "--study-games", "10", cwd=tmp_path)
    for words in ("agency: a real choice at", "snowball: the sole leader", "decisiveness:", "skill gap: one expert",
                  "luck against skill: ratings random +0", "restricted play"):
        assert words in text.stdout, words
