"""Rule bugs found by independent testing, each pinned by a game built from a small variant.

Every test here failed before its fix. The variants extend the shipped classic UNO and add
one rule through the language: a "mercy" elimination on drawing, a card that eliminates its
own player and asks for another turn, an exchange that empties a hand, a draw event that
keeps asking for decisions.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import Game, State

REPO = Path(__file__).resolve().parent.parent


def _variant(tmp_path, body: str, name: str = "v.yaml"):
    """A variant extending the shipped classic UNO, compiled in both modes (fast, reference)."""
    path = tmp_path / name
    text = f"unodsl: 1\nname: Test\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body
    path.write_text(text, encoding="utf-8")
    game = unodsl.load(str(path), root="/")
    return game, Game(game.variant, fast=False)


def _cards(*cards: tuple[str, str]) -> str:
    """Variant text adding one wild card type (two copies) per (id, on_play effect) to classic's 108 cards."""
    text = f"deck: {{total: {108 + 2 * len(cards)}}}\ncards:\n"
    for card_id, effect in cards:
        body = "".join(f"      {line}\n" for line in effect.strip("\n").split("\n"))
        text += (f"  {card_id}:\n    name: {card_id.title()}\n    count: 2\n    wild: true\n    points: 50\n"
                 f"    on_play: |\n{body}")
    return text


def _position(game, hands, top, turn=0, draw_pile=(), **extra):
    """A position through the public set-up API: named hands, top card, the draw pile top first,
    and every card not named under the draw pile."""
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn, **extra)


def _conserved(state) -> bool:
    zones = state.hands + [state.draw_pile, state.discard] + state.limbo
    return Counter(k for zone in zones for k in zone) == Counter(state.g.deck)


MERCY = """
events:
  after_draw: |
    if hand(self) >= 5:
        eliminate self
"""


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_a_player_eliminated_by_their_own_draw_ends_a_two_player_round(tmp_path, mode):
    games = _variant(tmp_path, MERCY)
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["blue_1", "blue_2", "blue_3", "blue_4"], ["red_1", "red_2", "red_3"]],
                      top="green_9", draw_pile=["yellow_1"])
    state.apply("draw")
    assert state.eliminated == [True, False]
    assert state.is_over and state.winner == 1
    assert _conserved(state)


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_a_player_eliminated_by_a_card_s_draw_ends_the_round(tmp_path, mode):
    games = _variant(tmp_path, MERCY)
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["green_draw_two", "red_1"], ["blue_1", "blue_2", "blue_3"]], top="green_9")
    state.apply("play green_draw_two")
    assert state.eliminated == [False, True]
    assert state.is_over and state.winner == 0


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_with_three_players_an_eliminated_drawer_never_plays_again(tmp_path, mode):
    games = _variant(tmp_path, MERCY)
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["blue_1", "blue_2", "blue_3", "blue_4"], ["red_1", "red_2"], ["red_3", "red_4"]],
                      top="green_9", draw_pile=["yellow_1"])
    state.apply("draw")
    assert state.eliminated == [True, False, False]
    assert not state.is_over and state.current_player == 1


KAMIKAZE = _cards(("kamikaze", "eliminate self\nextra turn"), ("hand_off", "eliminate next\nturn to next of self"))


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_an_extra_turn_never_goes_to_an_eliminated_player(tmp_path, mode):
    games = _variant(tmp_path, KAMIKAZE)
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["kamikaze", "red_1", "red_2"], ["blue_1", "blue_2"], ["green_1", "green_2"]],
                      top="green_9")
    state.apply("play kamikaze")
    assert state.eliminated == [True, False, False]
    assert state.current_player == 1 and state.decision == "turn"
    assert state.hands[0] == []
    assert _conserved(state)


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_turn_to_an_eliminated_player_goes_to_the_next_in_play(tmp_path, mode):
    games = _variant(tmp_path, _cards(("banish", "let p = next\neliminate p\nturn to p")))
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["banish", "red_1", "red_2"], ["blue_1", "blue_2"], ["green_1", "green_2"],
                             ["yellow_1", "yellow_2"]], top="green_9")
    state.apply("play banish")
    assert state.eliminated == [False, True, False, False]
    assert state.current_player == 2 and state.decision == "turn"


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_an_eliminated_player_is_not_asked_for_a_color(tmp_path, mode):
    games = _variant(tmp_path, _cards(("farewell", "eliminate self\nchoose color")))
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["farewell", "red_1", "red_2"], ["blue_1", "blue_2"], ["green_1", "green_2"]],
                      top="green_9")
    state.apply("play farewell")
    assert state.eliminated[0]
    assert state.current_player == 1 and state.decision == "turn"


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_an_exchange_that_empties_a_hand_loses_no_card(tmp_path, mode):
    # 17.1: the other player was looked up again after the first hand was emptied.
    games = _variant(tmp_path, "players: {min: 2, max: 3}\n" + _cards(("swapper", "self exchanges 7 with next")))
    game = games[0] if mode == "fast" else games[1]
    state = _position(game, [["swapper", "red_1", "red_2"], ["blue_1", "blue_2", "blue_3"], ["green_1"]],
                      top="green_9")
    state.apply("play swapper")
    while state.decision == "give":
        state.apply(state.legal_actions()[0])
    assert _conserved(state)
    assert sorted(map(len, state.hands)) == [1, 2, 3]
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 2


def test_a_draw_event_that_keeps_deciding_ends_as_a_stall_with_bounded_frames(tmp_path):
    # 17.2: each decision restarted the step budget and effect frames piled up without end.
    game, _ = _variant(tmp_path, """
events:
  after_draw: |
    let p = choose player others
    self draws 1
""")
    state = game.new_game(3, seed=1)
    decisions = 0
    while not state.is_over:
        state.apply_id(state.legal_action_ids()[0])
        decisions += 1
        assert len(state.frames) <= 64
        assert decisions < 200_000
    assert state.stalled


@pytest.mark.parametrize("path", ["variants/teams.yaml", "variants/classic.yaml", "variants/trolls-band-together.yaml"])
def test_a_position_set_up_with_start_begins_the_round_as_a_dealt_game_does(path, monkeypatch):
    """Game.position(start=True) from a game's own deal plays on exactly as that game does.

    Scenarios used to run the start card's effect before the deal's (the Teams opening pass),
    the reverse of a real round.
    """
    game = unodsl.load(path)
    dealt = []
    real_start = State.start_round

    def capture(state):
        rng = random.Random()
        rng.setstate(state.rng.getstate())
        dealt.append(([list(h) for h in state.hands], state.draw_pile[::-1], list(state.discard), state.dealer, rng))
        real_start(state)
    monkeypatch.setattr(State, "start_round", capture)
    players = game.variant.allowed_players[0] if game.variant.allowed_players else 4
    for seed in range(40):
        real = game.new_game(players, seed=seed)
        hands, pile, discard, dealer, rng = dealt.pop()
        built = game.position(hands, pile, discard, dealer=dealer, start=True, seed=seed, rng=rng)
        for _ in range(30):
            assert built.pending == real.pending and built.hands == real.hands, f"seed {seed}"
            assert built.discard == real.discard and built.color == real.color
            if real.is_over:
                break
            action = real.legal_action_ids()[seed % len(real.legal_action_ids())]
            real.apply_id(action)
            built.apply_id(action)


@pytest.mark.parametrize("mode", ["fast", "reference"])
def test_a_play_that_redeals_a_million_times_ends_as_a_stall_within_the_turn_s_work(tmp_path, mode):
    # 17.8: the step budget counted one step per redeal, so one play could move billions of cards.
    games = _variant(tmp_path, _cards(("chaos", "repeat 1000:\n    repeat 1000:\n        gather and redeal")))
    game = games[0] if mode == "fast" else games[1]
    hands = [[f"{c}_{n}" for n in range(1, 10)] for c in ("red", "blue", "green")] + [["yellow_1", "yellow_2"]]
    hands[0][0] = "chaos"
    state = _position(game, hands, top="green_0")
    state.apply("play chaos")
    assert state.is_over and state.stalled
    assert _conserved(state)
    assert state.steps <= 100_000 + 30          # the budget, and at most one redeal's cards past it


def test_checking_builds_no_table_per_player_count_and_a_game_builds_only_its_own(tmp_path):
    # 17.4: seat orders for every table size up to the maximum were built before the E204 limit check
    # (players up to 1000: 24 GB). Now a size's tables are built when a game at that size starts.
    path = tmp_path / "v.yaml"
    path.write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8")
                    .replace("players: {min: 2, max: 10}", "players: {min: 2, max: 100}")
                    .replace("hand_size: 7", "hand_size: 1"), encoding="utf-8")
    game = unodsl.load(str(path))
    assert game.variant.max_players == 100
    assert all(order is None for order in game.orders)
    game.new_game(7, seed=1)
    assert [n for n, order in enumerate(game.orders) if order is not None] == [7]
    too_many = tmp_path / "w.yaml"
    too_many.write_text(path.read_text(encoding="utf-8").replace("max: 100}", "max: 1000}"), encoding="utf-8")
    result = unodsl.check_file(str(too_many))
    assert "E204" in [d.code for d in result.errors]
    assert result.game is None or all(order is None for order in result.game.orders)


def test_a_position_that_is_not_exactly_the_deck_is_refused():
    game = unodsl.load("variants/classic.yaml")
    with pytest.raises(ValueError, match="card red_0 is not placed"):
        game.position([["red_1"], ["red_2"]], [], ["red_5"], dealer=0)
    rest = sorted((Counter(game.deck) - Counter(game.card_index[c] for c in ("red_1", "red_2", "red_5"))).elements())
    with pytest.raises(ValueError, match="card red_1 is placed more often than the deck holds"):
        game.position([["red_1"], ["red_2"]], rest + [game.card_index["red_1"]] * 2, ["red_5"], dealer=0)


def test_a_position_whose_round_is_already_decided_is_refused():
    classic = unodsl.load("variants/classic.yaml")
    rest = sorted((Counter(classic.deck) - Counter(classic.card_index[c] for c in ("red_1", "red_5"))).elements())
    with pytest.raises(ValueError, match="already decided: seat 0 has no cards"):
        classic.position([[], ["red_1"]], rest, ["red_5"], dealer=1)
    teams = unodsl.load("variants/teams.yaml")
    hands = [["red_1"], [], ["red_2"], []]          # seats 1 and 3 are one team, both out of cards
    rest = sorted((Counter(teams.deck) - Counter(teams.card_index[c] for c in ("red_1", "red_2", "red_5"))).elements())
    with pytest.raises(ValueError, match="already decided: a whole team has no cards"):
        teams.position(hands, rest, ["red_5"], dealer=0)
    hands[1] = [teams.card_names[rest.pop()]]       # one partner out is a round that goes on
    assert not teams.position(hands, rest, ["red_5"], dealer=0).over
