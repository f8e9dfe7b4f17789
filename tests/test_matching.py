"""Matching as data: `top.ATTR`, `top is KIND`, card attributes (`attrs:`) and `match:` conditions.

A match condition becomes the table of what may follow what when the game is built; these
tests hold that table to the condition asked directly, card by card, in both modes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from unodsl.check import load

REPO = Path(__file__).resolve().parent.parent
NEIGHBOURS = str(REPO / "variants" / "house-rules" / "neighbours.yaml")


def _variant(tmp_path, body: str):
    (tmp_path / "v.yaml").write_text(f"unodsl: 1\nname: Matching test\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                                     + body, encoding="utf-8")
    return load(str(tmp_path / "v.yaml"), str(tmp_path.anchor))


def _at(g, hands: list, top: str, **kw):
    """A position with these hands and top card, every other card in the draw pile; seat 0 to play."""
    from collections import Counter
    rest = Counter(g.deck) - Counter(g.card_index[c] for cards in hands + [[top]] for c in cards)
    return g.position(hands, list(rest.elements()), [top], dealer=len(hands) - 1, turn=0, **kw)


def _neighbours(g, card: int, top: int, color: int) -> bool:
    """The Neighbours rule, written out in Python from docs/rules/house-rules.md."""
    cat, num = g.k_category, g.k_number
    return (g.k_wild[card] or g.k_color[card] == color
            or (cat[card] == "number" and cat[top] == "number" and abs(num[card] - num[top]) <= 1)
            or (cat[card] != "number" and g.k_type_id[card] == g.k_type_id[top]))


@pytest.mark.parametrize("fast", [True, False])
def test_the_match_table_is_the_condition(fast):
    from unodsl.engine.game import Game
    g = Game(load(NEIGHBOURS).variant, fast=fast)
    for c in range(-1, len(g.variant.colors)):
        for top in range(g.num_kinds):
            ok = g.playable_after[c + 1][top]
            got = set(range(g.num_kinds)) if ok is None else set(ok)
            assert got == {k for k in range(g.num_kinds) if _neighbours(g, k, top, c)}, (c, g.card_names[top])


def test_legal_plays_follow_the_match_condition_in_random_games():
    g = load(NEIGHBOURS)
    rng = random.Random(7)
    seen = 0
    for seed in range(20):
        st = g.new_game(4, seed=seed)
        while not st.over and seen < 4000:
            if st.decision == "turn":
                p = st.current_player
                top = st.discard[-1]
                plays = {a for a in st.legal_action_ids() if a < g.num_kinds}
                if st.lock_owner < 0:
                    assert plays == {k for k in set(st.hands[p]) if _neighbours(g, k, top, st.color)}
                seen += 1
            actions = st.legal_action_ids()
            st.apply_id(actions[int(rng.random() * len(actions))])
    assert seen > 1000


def test_a_card_types_own_match_wins_for_its_cards(tmp_path):
    g = _variant(tmp_path, "match: card.number == top.number\n"
                           "cards:\n  skip:\n    match: top is wild\n")
    st = _at(g, [["red_skip", "blue_5", "red_6", "yellow_5"], ["red_1"]], "red_5")
    assert set(st.legal_actions()) == {"play blue_5", "play yellow_5", "draw"}
    st = _at(g, [["red_skip", "blue_5", "red_6"], ["red_1"]], "wild", color="green")
    assert set(st.legal_actions()) == {"play red_skip", "draw"}


def test_attributes_read_on_cards_and_the_top_card_with_defaults(tmp_path):
    g = _variant(tmp_path, "match: card.animal == top.animal and card.animal != \"\" or card.lucky\n"
                           "cards:\n"
                           "  skip:\n    attrs: {animal: owl, hue: green}\n"
                           "  reverse:\n    attrs: {animal: owl, lucky: true}\n"
                           "  draw_two:\n    attrs: {animal: fox, hue: blue}\n"
                           "    on_play: 'if top.hue == blue and card.hue == blue: next draws 3'\n")
    st = _at(g, [["red_skip", "green_reverse", "blue_draw_two", "red_5"], ["red_1"]], "yellow_skip")
    # An owl on an owl, the lucky reverse on anything; a number has no animal ("") and no luck (false).
    assert set(st.legal_actions()) == {"play red_skip", "play green_reverse", "draw"}
    st = _at(g, [["blue_draw_two", "red_5", "red_6"], ["red_1", "red_2"]], "green_draw_two")
    st.apply("play blue_draw_two")
    assert st.hand_size(1) == 5                   # top is the card just played: its hue is blue


def test_without_a_match_condition_the_table_is_the_fixed_one(tmp_path):
    plain = load(str(REPO / "variants" / "classic.yaml"))
    g = _variant(tmp_path, "match: card is wild or card.color == current or card.number == top.number and "
                           "card is number or card.type == top.type and not card is number\n")
    assert g.playable_after[1:] == plain.playable_after[1:]      # the fixed test, written out (a color named)
    assert plain.playable_after[0] == [None] * plain.num_kinds   # no color: anything, in the fixed test only
    assert g.playable_after[0] != plain.playable_after[0]


def test_the_rulebook_says_the_match_condition():
    from unodsl.rulebook.document import render_rulebook
    text = render_rulebook(load(NEIGHBOURS))
    assert ("matches the top card: when the card is a wild card, the color of the card is the current color, "
            "(the card is a number card, the top card of the discard pile is a number card, and (the number on "
            "the card is the number on the top card of the discard pile, the number on the card is the number on "
            "the top card of the discard pile plus 1, or") in text


def test_a_match_condition_composes_with_stacking_and_jump_in(tmp_path):
    """Neighbours with progressive stacking and jump-in: both modes play the same random games, and a
    jump-in still needs the identical card (not a neighbour)."""
    from unodsl.engine.game import Game
    rules = REPO / "variants" / "house-rules"
    (tmp_path / "v.yaml").write_text(
        f"unodsl: 1\nname: Composed\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
        f"include: [{rules / 'neighbours.yaml'}, {rules / 'stacking-progressive.yaml'}, {rules / 'jump-in.yaml'}]\n",
        encoding="utf-8")
    fast = load(str(tmp_path / "v.yaml"), str(tmp_path.anchor))
    reference = Game(fast.variant, fast=False)
    kinds = set()
    for seed in range(12):
        a, b = fast.new_game(4, seed=seed), reference.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not a.over:
            legal = a.legal_action_ids()
            assert legal == b.legal_action_ids()
            kinds.add(a.decision)
            if a.decision == "jump":
                top = a.discard[-1]
                assert [x for x in legal if x < 2 * fast.num_kinds] in ([], [top], [top, top + fast.num_kinds])
            action = legal[int(rng.random() * len(legal))]
            a.apply_id(action)
            b.apply_id(action)
        assert b.over and a.scores == b.scores
    assert {"jump", "stack"} <= kinds
