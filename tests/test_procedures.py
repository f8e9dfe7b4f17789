"""Procedures (`procedures:` and `do NAME(ARGS)`): checked once, inlined at each call, never recursive."""

from __future__ import annotations

import random

import pytest

from unodsl.check import check_file
from unodsl.effects.procedures import MAX_EXPANDED
from unodsl.engine.game import Game

PRESS = """\
procedures:
  press:
    params: {target: player, n: number}
    body: |
      target draws n
      skip target
  squeeze:
    params: {victim: player}
    body: |
      do press(victim, 1)
      if hand(victim) < 3:
          do press(victim, 1)
"""


def _check(tmp_path, body: str):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\n" + body, encoding="utf-8")
    return check_file(str(path))


HANDS = [["red_skip", "red_2", "red_3"], ["blue_1", "blue_2", "blue_3", "blue_4"], ["green_2", "green_3"]]


def _rest(game, hands):
    """The deck's cards no hand holds, as the draw pile (the top card first) and a red 5 to play on."""
    from collections import Counter
    left = Counter(game.card_names[k] for k in game.deck)
    left.subtract(c for hand in hands for c in hand)
    left["red_5"] -= 1
    return sorted(left.elements()), ["red_5"]


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_a_call_runs_the_body_with_its_arguments(tmp_path, fast):
    result = _check(tmp_path, PRESS + "cards:\n  skip:\n    on_play: do press(next, 2)\n")
    assert result.errors == []
    game = Game(result.game.variant, fast=fast)
    pile, discard = _rest(game, HANDS)
    state = game.position([list(h) for h in HANDS], pile, discard, dealer=2, turn=0)
    state.apply("play red_skip")
    assert [len(h) for h in state.hands] == [2, 6, 2]
    assert state.current_player == 2                  # press skipped the next player


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_a_procedure_calls_another_and_reads_its_parameters_where_it_is_called(tmp_path, fast):
    result = _check(tmp_path, PRESS + "cards:\n  skip:\n    on_play: do squeeze(next)\n")
    game = Game(result.game.variant, fast=fast)
    hands = [["red_skip", "red_2", "red_3"], ["blue_1"], ["green_2", "green_3"]]
    pile, discard = _rest(game, hands)
    state = game.position([list(h) for h in hands], pile, discard, dealer=2, turn=0)
    state.apply("play red_skip")
    assert len(state.hands[1]) == 3                   # 1 + 1, still under 3: 1 more


def test_an_argument_is_worked_out_once_at_the_call(tmp_path):
    result = _check(tmp_path, "distributions: {d: {1: 1, 2: 1, 3: 1}}\nprocedures:\n  twice:\n"
                              "    params: {n: number}\n    body: |\n      next draws n\n      self draws n\n"
                              "cards:\n  skip:\n    on_play: do twice(random d)\n")
    assert result.errors == []
    for seed in range(12):
        game = result.game
        pile, discard = _rest(game, HANDS)
        random.Random(seed).shuffle(pile)
        state = game.position([list(h) for h in HANDS], pile, discard, dealer=2, turn=0, seed=seed, record=True)
        state.apply("play red_skip")
        drawn = [e.count for e in state.events if e.kind == "random"]
        assert len(drawn) == 1
        assert [len(h) for h in state.hands] == [2 + drawn[0], 4 + drawn[0], 2]


def test_the_rulebook_names_a_call_and_says_the_body_once(tmp_path):
    """A card names the procedure it runs and what it gives it; the body is said once (issue 29: card text
    must not copy procedure bodies)."""
    from unodsl.rulebook.document import render_rulebook
    from unodsl.rulebook.english import Translator
    result = _check(tmp_path, PRESS + "cards:\n  skip:\n    on_play: do press(next, 2)\n")
    game = result.game
    tree = game.variant.syntax.tree(game.variant.cards["skip"].on_play)
    assert Translator(game).effect(tree) == "*Press* (the target: the next player; n: 2)."
    assert Translator(game).procedure(game.variant.procedures["press"]) == (
        "Given a player (the target) and a number (n), the target draws n cards. The target is skipped: they lose "
        "their next turn.")
    page = render_rulebook(game)
    assert page.count("the target draws n cards") == 1 and "## Named effects\n" in page


@pytest.mark.parametrize("body, expected", [
    ("procedures: {a: {body: \"do b()\"}, b: {body: \"do a()\"}}\n",
     ["4:25: E537 procedures cannot call themselves, directly or through others: a -> b -> a",
      "4:46: E537 procedures cannot call themselves, directly or through others: b -> a -> b"]),
    ("procedures: {a: {body: \"do a()\"}}\n",
     ["4:25: E537 procedures cannot call themselves, directly or through others: a -> a"]),
    ("procedures: {a: {params: {t: player}, body: \"t draws 2\"}}\ncards: {skip: {on_play: \"do a(2)\"}}\n",
     ["5:31: E501 expected a player, got a number"]),
    ("procedures: {a: {params: {t: player}, body: \"t draws 2\"}}\ncards: {skip: {on_play: \"do a()\"}}\n",
     ["5:26: E536 procedure 'a' takes 1 argument (t), not 0"]),
    ("procedures: {a: {params: {t: player}, body: \"t draws 2\"}}\ncards: {skip: {on_play: \"do aa(next)\"}}\n",
     ["5:26: E535 unknown procedure 'aa' (did you mean 'a'?)"]),
    ("procedures: {a: {params: {t: player}, body: \"t draws x\"}}\ncards: {skip: {on_play: \"do a(next)\"}}\n",
     ["4:54: E502 unknown name 'x'"]),                # in the body, once, not at the call
])
def test_bad_procedures_and_calls_are_diagnosed_where_they_are_written(tmp_path, body, expected):
    result = _check(tmp_path, body)
    assert [f"{d.line}:{d.column}: {d.code} {d.message}" for d in result.errors] == expected


def test_a_call_that_would_inline_too_much_is_refused(tmp_path):
    # Each procedure calls the one before it twice: p14 would inline 2**14 bodies.
    lines = ["procedures:", "  p0: {body: \"next draws 1\"}"]
    for i in range(1, 15):
        lines.append(f"  p{i}: {{body: \"do p{i - 1}()\\ndo p{i - 1}()\"}}")
    result = _check(tmp_path, "\n".join(lines) + "\ncards: {skip: {on_play: \"do p14()\"}}\n")
    codes = [d.code for d in result.errors]
    assert codes and set(codes) == {"E538"}
    assert f"{MAX_EXPANDED:,}" in result.errors[0].message


def test_an_empty_procedure_does_nothing(tmp_path):
    result = _check(tmp_path, "procedures: {idle: {body: \"\"}}\ncards: {skip: {on_play: \"do idle()\"}}\n")
    assert result.errors == []


@pytest.mark.parametrize("body, culprit", [
    ("procedures: {punish: {body: \"self draws 2\"}}\nround: {on_end: \"do punish()\"}\n", "punish"),
    ("procedures: {outer: {body: \"do inner()\"}, inner: {body: \"choose color\"}}\n"
     "round: {on_end: \"do outer()\"}\n", "inner"),
])
def test_a_procedure_that_decides_or_draws_is_refused_once_the_round_is_over(tmp_path, body, culprit):
    result = _check(tmp_path, body)
    assert [d.code for d in result.errors] == ["E514"]
    assert f"(procedure '{culprit}' does)" in result.errors[0].message


def test_a_procedure_that_keeps_score_runs_once_the_round_is_over(tmp_path):
    result = _check(tmp_path, "procedures: {bonus: {params: {p: player}, body: \"p scores 10\"}}\n"
                              "round: {on_end: \"do bonus(self)\"}\n")
    assert result.errors == []
