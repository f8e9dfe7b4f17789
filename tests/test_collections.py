"""Card collections as values (issue 29, item 2): `cards of P`, `cards of PILE`, `C where COND`,
`G except P`, `players where COND`, count/sum/max/min/any/all; checked with located diagnostics,
bounded in work, said in English. Their behaviour in play is tests/scenarios/collections.yaml."""

from __future__ import annotations

import random

import pytest

from unodsl.check import check_file
from unodsl.engine.game import Game
from unodsl.engine.vm import MAX_STEPS_PER_TURN
from unodsl.rulebook.document import render_rulebook


def _check(tmp_path, body: str):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\npiles:\n  bank: {face: down}\n" + body, encoding="utf-8")
    return check_file(str(path))


def _effect(tmp_path, effect: str):
    text = "".join("      " + line + "\n" for line in effect.splitlines())
    return _check(tmp_path, "cards:\n  skip:\n    on_play: |\n" + text)


def _codes(result) -> list[tuple[int, int, str]]:
    return [(d.line, d.column, d.code) for d in result.errors]


@pytest.mark.parametrize("effect", [
    "next draws count(cards of self where card.color == red or card is wild)",
    "next draws sum(card.points over cards of discard) // 10 + max(card.number over cards of bank)",
    "if any(card is wild over cards of next) and all(hand(player) > 1 over others except next):\n    skip next",
    "for each p in others where count(cards of player where card.color == current) > 0:\n    p draws 1",
    "let t = choose player players where player != self and hand(player) == max(hand(player) over others)\n"
    "t draws 1",
    "next draws min(card.points over cards of draw where card is action)",
])
def test_collections_check_clean(tmp_path, effect):
    assert _effect(tmp_path, effect).errors == []


def test_an_unknown_pile_or_player_gets_a_did_you_mean(tmp_path):
    result = _effect(tmp_path, "next draws count(cards of bnak)")
    assert _codes(result) == [(9, 33, "E502")]
    assert "did you mean 'bank'" in result.errors[0].message


def test_player_outside_a_filter_over_players_is_located(tmp_path):
    assert _codes(_effect(tmp_path, "next draws hand(player)")) == [(9, 23, "E543")]
    # inside a filter over cards, `player` names nobody either
    assert _codes(_effect(tmp_path, "next draws count(cards of self where hand(player) > 1)"))[0][2] == "E543"


@pytest.mark.parametrize("effect", [
    "let h = cards of self",
    "if cards of self == cards of next:\n    skip next",
    "next draws cards of self",
])
def test_a_card_collection_is_read_only_where_it_is_written(tmp_path, effect):
    assert "E545" in [code for _, _, code in _codes(_effect(tmp_path, effect))]


def test_for_each_walks_players_not_cards(tmp_path):
    result = _effect(tmp_path, "for each p in cards of self where card is wild:\n    p draws 1")
    assert _codes(result) == [(9, 21, "E501")]


def test_nested_reads_past_the_scan_limit_are_refused(tmp_path):
    # classic's 108 cards: one inside another is 11,664 members; three deep is 1,259,712
    assert _effect(tmp_path, "next draws count(cards of self where any(card is wild over cards of draw))").errors == []
    deep = "next draws count(cards of self where any(any(card is wild over cards of draw) over cards of discard))"
    assert [code for _, _, code in _codes(_effect(tmp_path, deep))] == ["E544"]


def test_a_condition_outside_an_effect_may_read_a_collection(tmp_path):
    result = _check(tmp_path, "turn:\n  may_draw_if: count(cards of self where card is wild) == 0\n")
    assert result.errors == []


def test_match_conditions_may_not_read_collections(tmp_path):
    result = _check(tmp_path, "cards:\n  number:\n    match: any(card is wild over cards of discard)\n")
    assert "E516" in [d.code for d in result.errors]


def _rest(game, hands, top="red_5"):
    from collections import Counter
    left = Counter(game.card_names[k] for k in game.deck)
    left.subtract(c for hand in hands for c in hand)
    left[top] -= 1
    return sorted(left.elements()), [top]


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_member_reads_count_against_the_turns_work_limit(tmp_path, fast):
    # 1,000 passes, each reading the whole draw pile (~90 cards) with a filter inside: past the turn's
    # 100,000 steps, the round ends as a stall instead of running on.
    result = _effect(tmp_path, "repeat 1000:\n    if count(cards of draw where any(card is wild over cards of self)) < 0:\n"
                               "        nothing")
    assert result.errors == []
    game = Game(result.game.variant, fast=fast)
    hands = [["red_skip", "red_2", "red_3"], ["blue_1", "blue_2"], ["green_2", "green_3"]]
    pile, discard = _rest(game, hands)
    state = game.position([list(h) for h in hands], pile, discard, dealer=2, turn=0)
    state.apply("play red_skip")
    assert state.is_over and state.stalled
    assert state.steps > MAX_STEPS_PER_TURN


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_a_cheap_read_stays_within_the_budget(tmp_path, fast):
    result = _effect(tmp_path, "repeat 10:\n    next draws count(cards of self where card.color == blue)")
    game = Game(result.game.variant, fast=fast)
    hands = [["red_skip", "blue_2", "blue_3"], ["blue_1", "blue_2"], ["green_2", "green_3"]]
    pile, discard = _rest(game, hands)
    state = game.position([list(h) for h in hands], pile, discard, dealer=2, turn=0)
    state.apply("play red_skip")
    assert not state.is_over and [len(h) for h in state.hands] == [2, 22, 2]


def test_the_rulebook_says_collections_in_words(tmp_path):
    result = _effect(tmp_path, "next draws count(cards of self where card.color == red)\n"
                               "if all(card is number over cards of bank) and any(hand(player) > 3 over others):\n"
                               "    self scores max(card.points over cards of next)")
    text = render_rulebook(result.game, "markdown")
    assert "the number of the cards in your hand for which the color of that card is red" in text
    assert "for every one of the cards of the bank pile, that card is a number card" in text
    assert "the largest value of the points of that card over the cards in the next player's hand" in text
    assert "for at least one of the other players, that player holds more than 3 cards" in text


# --- picks limited by a condition: `where COND` on gives, puts and takes; `discards cards where`
# (their play is tests/scenarios/picks.yaml)

def test_take_where_from_the_draw_pile_is_refused(tmp_path):
    result = _effect(tmp_path, "self takes 1 card from draw where card is wild")
    assert _codes(result) == [(9, 7, "E546")]
    assert _effect(tmp_path, "self takes 1 card from bank where card is wild\n"
                             "self takes 1 card from discard where card.color == current").errors == []


def test_a_pick_condition_is_checked_with_card_as_the_candidate(tmp_path):
    result = _effect(tmp_path, "self gives 1 to next where card.colour == red")
    assert [d.code for d in result.errors] == ["E502"] and "did you mean 'color'" in result.errors[0].message
    assert [d.code for d in _effect(tmp_path, "self puts 1 card on bnak where card is wild").errors] == ["E502"]
    assert [d.code for d in _effect(tmp_path, "next discards cards where hand(player) > 1").errors] == ["E543"]


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_a_pick_paused_with_its_filter_saves_and_loads(tmp_path, fast):
    """The filter is the paused effect's, not saved state: a loaded game offers the same picks."""
    from unodsl.effects import layout as D
    from unodsl.engine import State
    result = _effect(tmp_path, "skip next\nself gives 2 to next where card.color == red or card is wild")
    game = Game(result.game.variant, fast=fast)
    red = {k for k in range(game.num_kinds) if game.k_color[k] == game.variant.colors.index("red") or game.k_wild[k]}
    found = 0
    for seed in range(40):
        state, rng = game.new_game(3, seed=seed), random.Random(seed)
        while not state.is_over:
            legal = state.legal_action_ids()
            if state.pending and state.pending[0] == D.GIVE:
                loaded = State.from_json(game, state.to_json())
                assert loaded.legal_action_ids() == legal
                assert legal and all(a - game.A_GIVE in red for a in legal)
                found += 1
            state.apply_id(legal[rng.randrange(len(legal))])
    assert found > 5


def test_the_rulebook_says_picks_in_words(tmp_path):
    result = _effect(tmp_path, "self gives 1 to next where card is wild\n"
                               "self takes 1 card from bank where card.number > 5\n"
                               "next discards cards where card.color == red")
    text = render_rulebook(result.game, "markdown")
    assert "You give 1 card of your choice (only cards for which that card is a wild card; with none, nothing " \
           "happens) to the next player." in text
    assert "the first ones looking down from the top (only cards for which the number on that card is more than 5" in text
    assert "The next player discards every card of their hand for which the color of that card is red (under " \
           "the top card of the discard pile)." in text


# --- functions: named values and conditions, inlined at each call, never recursive
# (their play is in tests/scenarios/collections.yaml)

FUNCTIONS = """\
functions:
  reds:
    params: {p: player}
    value: count(cards of p where card.color == red)
  loaded:
    params: {p: player, n: number}
    value: reds(p) >= n or hand(p) > n + 3
"""


def test_functions_check_and_are_read_by_effects_and_conditions(tmp_path):
    result = _check(tmp_path, FUNCTIONS + "turn:\n  may_draw_if: not loaded(self, 3)\n"
                    "cards:\n  skip:\n    on_play: |\n      skip next\n      next draws reds(next)\n")
    assert result.errors == []


def test_a_function_calling_itself_through_another_is_refused_at_the_call(tmp_path):
    body = ("functions:\n  a:\n    params: {p: player}\n    value: b(p) + 1\n"
            "  b:\n    params: {p: player}\n    value: a(next of p)\n")
    result = _check(tmp_path, body)
    assert _codes(result) == [(9, 12, "E549"), (12, 12, "E549")]
    assert result.errors[0].message.endswith("a -> b -> a")


@pytest.mark.parametrize("effect, code", [
    ("next draws redz(next)", "E547"),
    ("next draws reds(next, 2)", "E548"),
    ("next draws reds(2)", "E501"),
    ("if reds(self):\n    skip next", "E501"),
])
def test_function_calls_are_checked(tmp_path, effect, code):
    text = "".join("      " + line + "\n" for line in effect.splitlines())
    result = _check(tmp_path, FUNCTIONS + "cards:\n  skip:\n    on_play: |\n" + text)
    assert [d.code for d in result.errors] == [code]
    if code == "E547":
        assert "did you mean 'reds'" in result.errors[0].message


def test_a_function_cannot_draw_at_random_nor_be_too_large(tmp_path):
    assert [d.code for d in _check(tmp_path, "functions:\n  roll:\n    value: random(1, 6)\n").errors] == ["E533"]
    chain = "functions:\n  f0:\n    value: hand(self)\n" + "".join(
        f"  f{i}:\n    value: f{i - 1}() + f{i - 1}() + f{i - 1}()\n" for i in range(1, 12))
    chain += "cards:\n  skip:\n    on_play: next draws f11()\n"
    assert "E550" in [d.code for d in _check(tmp_path, chain).errors]


def test_a_function_in_a_match_condition_is_refused(tmp_path):
    body = "functions:\n  wildish:\n    value: card is wild\ncards:\n  number:\n    match: wildish()\n"
    assert "E516" in [d.code for d in _check(tmp_path, body).errors]


def test_the_rulebook_says_a_call_as_what_it_stands_for(tmp_path):
    result = _check(tmp_path, FUNCTIONS + "turn:\n  may_draw_if: not loaded(self, 3)\n")
    text = render_rulebook(result.game, "markdown")
    assert "the number of the cards in your hand for which the color of that card is red is less than 3 and you " \
           "hold at most 6 cards" in text


# --- under: the card this card was played on (its play is in tests/scenarios/collections.yaml)

@pytest.mark.parametrize("body", [
    "events:\n  after_draw: |\n    if under is wild:\n        self draws 1\n",
    "turn:\n  may_draw_if: under.number > 3\n",
    "procedures:\n  p:\n    body: |\n      if under is wild:\n          skip next\n",
])
def test_under_is_known_only_in_a_played_cards_effect(tmp_path, body):
    assert [d.code for d in _check(tmp_path, body).errors] == ["E551"]


def test_under_reads_in_on_play_and_says_the_card_played_on(tmp_path):
    result = _effect(tmp_path, "if under.color == card.color and under is action:\n    skip next")
    assert result.errors == []
    text = render_rulebook(result.game, "markdown")
    assert "the color of the card this card was played on is the color of this card" in text


def test_a_picks_else_block_is_checked_and_said(tmp_path):
    result = _effect(tmp_path, "self gives 1 to next where card is wild else:\n    self drwas 1")
    assert [d.code for d in result.errors] == ["E401"]
    result = _effect(tmp_path, "self puts 1 card on bank where card is number else:\n    next draws hand(player)")
    assert [d.code for d in result.errors] == ["E543"]
    result = _effect(tmp_path, "self gives 1 to next where card is wild else:\n    self draws 2")
    text = render_rulebook(result.game, "markdown")
    assert "(only cards for which that card is a wild card; with none, instead: you draw 2 cards)" in text


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_must_play_where_saves_loads_and_resamples(tmp_path, fast):
    """A forced play by a condition is a FORCED decision of color -1, its filter the paused effect's: a loaded
    game offers the same plays, and a seat's resampled world keeps one card the filter accepts."""
    from unodsl.effects import layout as D
    from unodsl.engine import State
    from unodsl.rl.resample import resample_hidden
    result = _effect(tmp_path, "skip next\nprevious must play where card is number and card.number > 4 else:\n"
                               "    previous draws 1")
    game = Game(result.game.variant, fast=fast)
    found = 0
    for seed in range(30):
        state, rng = game.new_game(3, seed=seed), random.Random(seed)
        while not state.is_over:
            legal = state.legal_action_ids()
            if state.pending and state.pending[0] == D.FORCED:
                assert state.pending[2] == -1 and legal
                assert State.from_json(game, state.to_json()).legal_action_ids() == legal
                forced = state.pending[1]
                other = next(q for q in range(3) if q != forced)
                world = resample_hidden(game, state, other, random.Random(seed))
                assert world.legal_action_ids()
                found += 1
            state.apply_id(legal[rng.randrange(len(legal))])
    assert found > 5
