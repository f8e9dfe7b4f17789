"""The designer's figures (runs/metrics.py) and the paired comparison (runs/compare.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from unodsl.check import load
from unodsl.effects import layout as D
from unodsl.runs.compare import compare, compare_games
from unodsl.runs.metrics import PER_GAME, GameMetrics, play_measured
from unodsl.runs.simulate import run_range, simulate

CLASSIC = "variants/classic.yaml"


def test_measuring_plays_the_same_games():
    """With `measure`, every game is the one the plain run plays: the same statistics, plus the report."""
    game = load(CLASSIC)
    plain = run_range(game, 4, 3, 0, 40, ["heuristic"]).summary()
    measured = run_range(game, 4, 3, 0, 40, ["heuristic"], measure=True).summary()
    assert {k: v for k, v in measured.items() if k != "report"} == plain
    assert measured["report"]["games"] == 40


def test_the_report_is_the_same_for_any_number_of_workers():
    one = simulate(CLASSIC, 120, 4, 5, ["heuristic"], workers=1, measure=True).summary()
    two = simulate(CLASSIC, 120, 4, 5, ["heuristic"], workers=2, measure=True).summary()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_a_draw_two_hits_the_next_player_with_two_cards():
    """Classic: the next player draws two and is skipped, so their hand is two cards larger at the next turn."""
    report = run_range(load(CLASSIC), 4, 1, 0, 60, ["heuristic"], measure=True).report.summary()
    cards = {row["card"]: row for row in report["cards"]}
    assert cards["draw_two"]["plays"] > 0 and cards["draw_two"]["next_hand_change"] == 2.0
    assert cards["number"]["next_hand_change"] == 0.0


def test_a_turn_draw_is_voluntary_and_a_penalty_is_forced():
    """Step by step: the decider's own turn draw counts as drawn, not forced; a forced draw counts as both."""
    game = load(CLASSIC)
    seen_voluntary = seen_forced = 0
    for seed in range(6):
        state = game.new_game(4, seed=seed)
        metrics = GameMetrics(state)
        while not state.over:
            legal = state.legal_action_ids()
            p, decision = state.current_player, state.decision
            action = game.A_DRAW if decision == D.TURN and p % 2 == 0 and game.A_DRAW in legal else legal[0]
            drawn, forced = list(metrics.drawn), list(metrics.forced)
            shuffles, size = state.reshuffles, len(state.hands[p])
            metrics.step(state, p, decision, action)
            state.apply_id(action)
            metrics.step(state, -1, "", -1)          # count what it did now (the next step would, once)
            if state.reshuffles != shuffles:
                continue                    # both piles were used: counted by hand growth, not checked here
            if action == game.A_DRAW and decision == D.TURN and len(state.hands[p]) == size + 1:
                assert metrics.drawn[p] == drawn[p] + 1 and metrics.forced[p] == forced[p]
                seen_voluntary += 1
            elif metrics.forced != forced:
                assert metrics.drawn != drawn
                seen_forced += 1
    assert seen_voluntary and seen_forced


def _fake(sizes, decision=D.TURN, player=0):
    return SimpleNamespace(g=SimpleNamespace(num_kinds=10, A_DRAW=99, k_type=[0] * 10, k_draw=[0] * 10,
                                             type_ids=["number"]), n=len(sizes),
                           hands=[[0] * s for s in sizes], draw_pile=[], reshuffles=0, stack=0, eliminated=[False] * 2,
                           current_player=player, decision=decision, direction=1, next_of=lambda p: 1 - p,
                           legal_action_ids=lambda: [98])


def test_lead_changes_count_a_new_sole_leader_and_ties_do_not_reset_it():
    metrics = GameMetrics(_fake([7, 7]))
    for before, after in (([7, 7], [6, 7]), ([6, 7], [6, 5]), ([6, 5], [5, 5]), ([5, 5], [5, 4]), ([5, 4], [4, 4]),
                          ([4, 4], [3, 4])):
        metrics.step(_fake(before), 0, D.TURN, 98)
        metrics.step(_fake(after), -1, "", -1)
    # leaders: -, 0, 1, tie, 1, tie, 0: changes 0->1 and 1->0 (the tie between two 1s is no change)
    assert metrics.lead_changes == 2


def _draw_card_plays(report: dict, game) -> int:
    """Cards played of the types with a `draw:` value."""
    drawing = {game.type_ids[t] for k, t in enumerate(game.k_type) if game.k_draw[k] > 0}
    return sum(row["plays"] for row in report["cards"] if row["card"] in drawing)


def test_without_stacking_every_draw_card_is_a_stack_chain_of_one():
    game = load(CLASSIC)
    report = run_range(game, 4, 2, 0, 60, ["heuristic"], measure=True).report.summary()
    chains = report["stack_chains"]
    assert chains["histogram"] == [{"length": 1, "chains": chains["chains"]}]
    assert chains["chains"] == _draw_card_plays(report, game) > 0 and chains["mean"] == 1.0


def test_with_stacking_every_draw_card_is_in_one_chain_and_some_chains_are_longer(tmp_path):
    (tmp_path / "stack.yaml").write_text("unodsl: 1\nname: Stacking\nextends: classic\ninclude: [stacking-mattel]\n")
    game = load(str(tmp_path / "stack.yaml"), root="/")
    report = run_range(game, 4, 2, 0, 150, ["heuristic"], measure=True).report.summary()
    chains = report["stack_chains"]
    lengths = {row["length"]: row["chains"] for row in chains["histogram"]}
    assert max(lengths) >= 2 and chains["mean"] > 1.0
    assert sum(length * count for length, count in lengths.items()) == _draw_card_plays(report, game)
    assert chains["chains"] == sum(lengths.values())


def test_each_bot_has_its_own_generator_seeded_from_the_game_and_its_seat():
    """Not the engine's (reshuffles would move the bots' draws); all-random tables keep the engine's (play_out)."""
    import random

    from unodsl.runs.seeds import game_seed, seat_bots
    state = load(CLASSIC).new_game(4, seed=77)
    bots = seat_bots(state, ["random", "heuristic"])
    engine_draws = random.Random(77).random()
    for seat, bot in enumerate(bots):
        assert bot.rng is not state.rng
        assert bot.rng.random() == random.Random(game_seed(77, seat)).random() != engine_draws
    assert all(bot.rng is state.rng for bot in seat_bots(state, ["random"]))


def test_a_house_rule_shows_in_the_comparison_with_a_narrower_paired_interval(tmp_path):
    (tmp_path / "stack.yaml").write_text(
        "unodsl: 1\nname: Stacking\nextends: classic\n"
        "include: [stacking-mattel]\n")
    rows = {r["figure"]: r for r in compare_games(load(str(tmp_path / "stack.yaml"), root="/"), load(CLASSIC),
                                                   150, 4, 1, ["heuristic"]).summary()}
    assert rows["longest_stack"]["significant"] and rows["longest_stack"]["difference"] > 0
    for name in ("turns", "cards_drawn", "first_player_won"):
        paired, unpaired = rows[name]["ci95"], rows[name]["unpaired_ci95"]
        assert paired[1] - paired[0] < unpaired[1] - unpaired[0], name


def test_a_comparison_is_the_same_for_any_number_of_workers(tmp_path):
    (tmp_path / "stack.yaml").write_text("unodsl: 1\nname: Stacking\nextends: classic\ninclude: [stacking-mattel]\n")
    sides = ((str(tmp_path / "stack.yaml"), "/", None, None), (CLASSIC, None, None, None))
    one = compare(sides, 120, 4, 5, ["heuristic", "random"], workers=1)
    two = compare(sides, 120, 4, 5, ["heuristic", "random"], workers=2)
    assert one.games == two.games == 120
    assert json.dumps(one.summary(), sort_keys=True) == json.dumps(two.summary(), sort_keys=True)
    assert any(row["difference"] for row in one.summary())


@pytest.mark.parametrize("variant", ["variants/teams.yaml", "variants/all-wild-grogu.yaml"])
def test_every_figure_is_defined_for_the_shipped_variants(variant):
    state, figures = play_measured(load(variant), 4, 11, ["heuristic"])
    assert state.over
    for name, _ in PER_GAME:
        assert name in figures
    assert sum(figures["drawn"]) == figures["cards_drawn"] >= figures["forced_draws"]


def test_the_report_pages_hold_every_section_and_their_plots():
    pytest.importorskip("matplotlib")
    from unodsl.runs.report import render_comparison, render_simulation
    summary = simulate("variants/teams.yaml", 40, 4, 1, ["heuristic"], measure=True).summary()
    summary.update(variant="Teams", seed=1, bots="heuristic")
    page = render_simulation(summary, "html", "teams")["teams.html"].decode()
    for part in ("Fairness", "Length", "Cards", "wild_team_draw_four"):
        assert part in page
    assert page.count("data:image/png;base64,") == 5           # positions, teams, length, snowball, cards
    files = render_simulation(summary, "md", "teams")
    assert sorted(files) == ["teams-cards.png", "teams-length.png", "teams-positions.png", "teams-snowball.png",
                             "teams-teams.png", "teams.md"]
    assert all(data.startswith(b"\x89PNG") for name, data in files.items() if name.endswith(".png"))
    assert "![cards](teams-cards.png)" in files["teams.md"].decode()
    rows = compare_games(load(CLASSIC), load(CLASSIC), 10, 4, 1, ["heuristic"]).summary()
    header = {"a": "A", "b": "B", "games": 10, "players": 4, "bots": "heuristic", "seed": 1}
    compared = render_comparison(header, rows, "md", "ab")
    assert sorted(compared) == ["ab-differences.png", "ab.md"] and "| turns per game |" in compared["ab.md"].decode()
    assert "analytics.md" in compared["ab.md"].decode().splitlines()[-1]       # the footer points at the guide
