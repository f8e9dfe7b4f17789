"""Two restrictions on one card (issue 29 item 7): `restriction: {strict: C, challenge: D}`, each with its own
check; the one-condition form with `restriction_check` as before; their diagnostics, words and both modes.

The rules themselves are scenarios: tests/scenarios/restrictions.yaml over tests/scenarios/variants/restrictions.yaml.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.engine.errors import IllegalAction
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import reason_words

from lockstep import play_both_modes

VARIANT = Path(__file__).parent / "scenarios" / "variants" / "restrictions.yaml"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return unodsl.load(str(VARIANT))


def _position(game, hands, top, turn=0):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top])
    return game.position(hands, sorted(rest.elements()), [top], dealer=(turn - 1) % len(hands), turn=turn)


def test_each_condition_has_its_own_check(game):
    t = game.type_ids.index("wild_draw_four")
    assert game.restriction[t] is not None and game.challenge[t] is not None
    last = _position(game, [["wild_draw_four"], ["green_1"], ["yellow_1"]], "red_5")
    assert "play wild_draw_four" not in last.legal_actions()          # strict: never the last card
    with pytest.raises(IllegalAction) as refused:
        last.apply("play wild_draw_four")
    assert reason_words(game, 0, refused.value.reason) == ("Wild Draw Four may be played only when you still hold "
                                                          "cards")
    bluff = _position(game, [["wild_draw_four", "red_2"], ["green_1"], ["yellow_1"]], "red_5")
    assert "play wild_draw_four" in bluff.legal_actions()            # challenge: played freely, found out later
    bluff.apply("play wild_draw_four")
    bluff.apply("color blue")
    assert bluff.pending[0] == "challenge"


def test_the_one_condition_form_is_as_before():
    classic = unodsl.load(str(REPO / "variants" / "classic.yaml"))
    teams = unodsl.load(str(REPO / "variants" / "teams.yaml"))
    wd4 = classic.variant.cards["wild_draw_four"]
    assert wd4.strict is None and wd4.challenge is not None
    team_draw = [ct for ct in teams.variant.cards.values() if ct.strict is not None]
    assert team_draw and all(ct.challenge is None for ct in team_draw)


def _check(tmp_path, cards: str, name="v.yaml"):
    (tmp_path / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    path = tmp_path / name
    path.write_text("unodsl: 1\nname: T\nextends: classic.yaml\nrulings: {wd4_wild_counts_as_color_match: null}\n"
                    "cards:\n" + cards, encoding="utf-8")
    return [d.header() for d in check_file(str(path), str(tmp_path)).diagnostics]


def test_a_restriction_check_beside_the_keys_is_e327_but_an_inherited_one_gives_way(tmp_path):
    both = "  wild_draw_four:\n    restriction: {strict: hand(self) > 0, challenge: not self holds color current}\n"
    found = _check(tmp_path, both + "    restriction_check: strict\n")
    assert found == [f"{tmp_path / 'v.yaml'}:8:24: E327 'wild_draw_four' names its restrictions' checks by key "
                     "(strict:, challenge:): restriction_check is for a one-condition restriction"]
    # classic.yaml's own `restriction_check: challenge` is inherited: the keys say it all.
    assert _check(tmp_path, both) == []


def test_a_restriction_mapping_with_no_condition_is_e327(tmp_path):
    found = _check(tmp_path, "  wild_draw_four:\n    restriction: {}\n")
    assert f"{tmp_path / 'v.yaml'}:7:5: E327 'wild_draw_four' has a restriction with no condition: give strict:, " \
           "challenge: or both" in found


def test_an_unknown_key_and_a_bad_condition_are_located(tmp_path):
    found = _check(tmp_path, "  wild_draw_four:\n    restriction: {challenge: hand(self) > 0, bluff: true}\n")
    assert found == [f"{tmp_path / 'v.yaml'}:7:46: E201 unknown key 'bluff' in 'cards.wild_draw_four.restriction'"]
    found = _check(tmp_path, "  wild_draw_four:\n    restriction: {challenge: hand(slef) > 0}\n")
    assert found == [f"{tmp_path / 'v.yaml'}:7:35: E502 unknown name 'slef' (did you mean 'self'?)"]


def test_a_challenge_of_a_card_with_only_a_strict_restriction_is_w501(tmp_path):
    # classic's Wild Draw Four challenges; with only a strict restriction every play of it is innocent.
    found = _check(tmp_path, "  wild_draw_four:\n    restriction: {strict: hand(self) > 0}\n")
    assert len(found) == 1 and "W501 'wild_draw_four' may be challenged but has no challenge restriction" in found[0]
    assert _check(tmp_path, "  wild_draw_four:\n    restriction: {strict: hand(self) > 0, challenge: false}\n") == []


def test_the_rulebook_says_both(game):
    text = render_rulebook(game)
    assert ("You may play it only when you still hold cards. You may also play it legally only when you do not "
            "hold a card of the current color. Nobody checks this when you play it, so you may bluff; a challenge "
            "finds it out.") in text


@pytest.mark.parametrize("seed", range(4))
def test_both_modes_play_two_restrictions_the_same(seed):
    fast, reference = unodsl.load(str(VARIANT)), unodsl.load(str(VARIANT), fast=False)
    play_both_modes(fast, reference, 3, seed)
