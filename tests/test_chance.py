"""engine/chance.py: a game whose cards and random numbers are named by a chance player."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import unodsl
from unodsl.effects import layout as D
from unodsl.engine import State, ops
from unodsl.engine.chance import NeedChance, as_chance, chance_state

REPO = Path(__file__).resolve().parent.parent
VARIANTS = sorted(str(p.relative_to(REPO / "variants"))[:-5] for p in (REPO / "variants").rglob("*.yaml")
                  if p.parent.name != "scenarios")


def load(variant):
    return unodsl.load(str(REPO / "variants" / f"{variant}.yaml"))


def table_size(game) -> int:
    v = game.variant
    return v.allowed_players[-1] if v.allowed_players else min(max(v.min_players, 3), v.max_players)


def natural_deal(game, n, seed):
    """Deal with every outcome the generator gives (NeedChance.natural); also return the questions asked."""
    told, asked = [], []
    while True:
        try:
            return chance_state(game, n, told, seed=seed), asked
        except NeedChance as need:
            asked.append(need)
            told.append(need.natural)


def step(state, action, choose):
    """Play `action` on a copy of `state`, each outcome chosen by `choose(need)`; return the new state and the questions."""
    told, asked = [], []
    while True:
        copy = state.clone()
        copy.tell(told)
        try:
            copy.apply_id(action)
            return copy, asked
        except NeedChance as need:
            asked.append(need)
            told.append(choose(need))


@pytest.mark.parametrize("variant", VARIANTS)
def test_telling_the_generators_own_outcomes_plays_the_seeded_game(variant):
    """The chance seam changes nothing but who names the outcomes: every step is the seeded game's."""
    game = load(variant)
    n = table_size(game)
    asked = 0
    for seed in range(2):
        seeded = game.new_game(players=n, seed=seed)
        told, questions = natural_deal(game, n, seed)
        asked += len(questions)
        rng = random.Random(seed)
        for _ in range(300):
            assert json.loads(told.to_json()) == json.loads(seeded.to_json())
            if seeded.is_over:
                break
            assert told.legal_action_ids() == seeded.legal_action_ids()
            action = rng.choice(seeded.legal_action_ids())
            seeded.apply_id(action)
            told, questions = step(told, action, lambda need: need.natural)
            asked += len(questions)
    assert asked > 2 * game.variant.hand_size * n           # the deals and the draws were asked for


@pytest.mark.parametrize("variant", VARIANTS)
def test_outcomes_drawn_by_their_probabilities_play_whole_games(variant):
    """Any outcome chance may give plays on: every card stays in the deck (a saved state loads) to the end."""
    game = load(variant)
    n = table_size(game)
    rng = random.Random(7)

    def drawn(need):
        outcomes, chances = zip(*need.outcomes)
        assert sum(chances) == pytest.approx(1) and all(c > 0 for c in chances)
        return rng.choices(outcomes, chances)[0]

    told = []
    while True:
        try:
            state = chance_state(game, n, told, seed=3)
            break
        except NeedChance as need:
            told.append(drawn(need))
    asked = 0
    for _ in range(400):
        if state.is_over:
            break
        state, questions = step(state, rng.choice(state.legal_action_ids()), drawn)
        asked += len(questions)
        State.from_json(game, state.to_json())          # every card is in one zone (else InvalidState)
    assert asked > 0


def test_the_deal_asks_for_each_card_as_likely_as_its_share_of_the_deck():
    game = load("classic")
    told, asked = natural_deal(game, 2, seed=4)
    # classic's dealer is the high card: one card from a fresh deck for each player, then the deal.
    deck = Counter(game.deck)
    first = asked[0]
    assert [a for a, _ in first.outcomes] == sorted(deck)
    assert all(p == deck[a] / len(game.deck) for a, p in first.outcomes)
    deal = asked[-15:]                          # 7 cards each, then the start card
    left = Counter(game.deck)
    for need in deal:
        assert dict(need.outcomes) == {k: c / sum(left.values()) for k, c in left.items() if c}
        left[need.natural] -= 1
    assert Counter(sum(told.hands, []) + told.discard + told.draw_pile) == deck


def test_a_told_deal_is_the_deal():
    game = load("all-wild")                 # a random dealer: the first question names a seat
    with pytest.raises(NeedChance) as need:
        chance_state(game, 3, [])
    assert need.value.outcomes == [(game.num_kinds + i, 1 / 3) for i in range(3)]
    wanted = [game.card_index[c] for c in ("wild", "wild_skip", "wild_reverse") * 7 + ("wild",)]
    state = chance_state(game, 3, [game.num_kinds + 1] + wanted)
    assert state.dealer == 1
    # One card at a time from the left of the dealer (seat 2, then 0, then 1); then the start card.
    names = game.card_names
    assert [names[k] for k in state.hands[2]] == ["wild"] * 7
    assert [names[k] for k in state.hands[0]] == ["wild_skip"] * 7
    assert [names[k] for k in state.hands[1]] == ["wild_reverse"] * 7
    assert names[state.discard[0]] == "wild"
    with pytest.raises(ValueError, match="not one of the 3 possible"):
        chance_state(game, 3, [game.num_kinds + 7])


def drawn_state(variant="classic", n=2):
    game = load(variant)
    state, _ = natural_deal(game, n, seed=1)
    return game, state


def test_a_draw_asks_only_for_cards_not_known_to_be_on_top_or_underneath():
    game, state = drawn_state()
    state.tell([])
    under = [game.card_index["red_0"]]
    state.put_under_draw_pile(under)
    ops.place_card(state, game.card_index["blue_9"], D.DRAW_PILE)
    assert state.draw_one() == game.card_index["blue_9"]          # put on top: no question
    unresolved = state.hi - state.lo
    with pytest.raises(NeedChance) as need:
        state.draw_one()
    pile = Counter(state.draw_pile[state.lo:state.hi])
    assert need.value.outcomes == [(k, c / unresolved) for k, c in sorted(pile.items())]
    rarest = min(pile, key=lambda k: (pile[k], k))
    state.tell([rarest])
    assert state.draw_one() == rarest
    assert state.hi - state.lo == unresolved - 1
    # Name every unresolved card: the card put underneath comes last, without a question.
    while state.hi > state.lo:
        state.tell([state.draw_pile[state.hi - 1]])
        state.draw_one()
    assert state.draw_pile == under
    state.tell([])
    assert state.draw_one() == under[0]


@pytest.mark.parametrize("n", [3, 10, 37, 100, 1001])
def test_a_wide_random_number_is_named_a_block_at_a_time_each_value_as_likely(n):
    """Every path of outcomes: each value once, its probabilities multiplying to exactly 1 / n."""
    game, state = drawn_state()
    chances = {}

    def walk(told, p):
        copy = state.clone()
        copy.tell(told)
        try:
            value = copy.randrange(n)
        except NeedChance as need:
            assert all(game.num_kinds <= a < game.num_kinds + copy.width for a, _ in need.outcomes)
            for a, q in need.outcomes:
                walk(told + [a], p * Fraction(q).limit_denominator(10_000))
            return
        assert value not in chances
        chances[value] = p

    walk([], Fraction(1))
    assert sorted(chances) == list(range(n)) and set(chances.values()) == {Fraction(1, n)}


def test_a_weighted_pick_asks_with_the_weights():
    game, state = drawn_state()
    state.tell([])
    with pytest.raises(NeedChance) as need:
        state.weighted((1, 4, 4, 10))          # weights 1, 3, 0, 6
    base = game.num_kinds
    assert need.value.outcomes == [(base, 0.1), (base + 1, 0.3), (base + 3, 0.6)]
    state.tell([base + 3])
    assert state.weighted((1, 4, 4, 10)) == 3


def test_a_two_sided_deck_names_the_draw_piles_top_card_as_its_back_shows():
    game, state = drawn_state("flip")
    assert state.hi == len(state.draw_pile) - 1           # named: its back is seen
    copy, asked = step(state, state.legal_action_ids()[0], lambda need: need.natural)
    assert copy.hi == len(copy.draw_pile) - 1


def test_a_copy_made_a_chance_state_has_its_draw_pile_unresolved_but_a_back_that_shows():
    game = load("flip")
    plain = game.new_game(players=2, seed=1)
    copy = as_chance(plain)
    assert (copy.lo, copy.hi) == (0, len(plain.draw_pile) - 1)
    assert json.loads(copy.to_json()) == json.loads(plain.to_json())


def test_generated_variants_told_their_natural_outcomes_play_their_seeded_games():
    """The fuzz templates' variants (redeals, eliminations, named piles, random numbers, sets...), each
    a game at a table size it allows: the chance seam leaves every step as the seeded game plays it."""
    from test_fuzz_games import _counts, compile_text, template_variant
    played = steps = 0
    for seed in range(120):
        base, text = template_variant(random.Random(seed))
        result = compile_text(text, base)
        if result.errors or result.game is None:
            continue
        game = result.game
        n = random.Random(seed).choice(_counts(game))
        seeded = game.new_game(players=n, seed=seed)
        told, _ = natural_deal(game, n, seed)
        rng = random.Random(seed)
        for _ in range(200):
            assert told.to_json() == seeded.to_json(), text
            if seeded.is_over:
                break
            action = rng.choice(seeded.legal_action_ids())
            seeded.apply_id(action)
            told, _ = step(told, action, lambda need: need.natural)
            steps += 1
        played += 1
    assert played >= 60 and steps > 20 * played
