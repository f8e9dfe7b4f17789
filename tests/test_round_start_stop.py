"""How a round starts and stops: no start card (start.card), `clear color`, a draw pile never reshuffled
(deck.reshuffle), a blocked round (round.blocked) and the deck chosen by player count (deck.packs).

Each is played in both engine modes, which must give the same games.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.agents.bots import BOTS
from unodsl.check import check_file
from unodsl.engine import Game
from unodsl.engine import events as E
from unodsl.rulebook.narration import narrate
from unodsl.runs.simulate import run_range

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
MODES = ["fast", "reference"]

OPEN = """
start: {card: false}
deck: {reshuffle: false, packs: {"7-10": 2}}
round: {blocked: fewest_points}
cards:
  number:
    on_play: |
      if card.number == 0:
          clear color
"""


def _game(tmp_path, body: str, mode: str = "fast"):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Round rules\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body,
                    encoding="utf-8")
    game = unodsl.load(str(path), root="/")
    return game if mode == "fast" else Game(game.variant, fast=False)


def _position(game, hands, top, turn=0, draw_pile=(), below=(), rest_in=None):
    """Named hands, the top card (None: an empty discard pile), the draw pile top first; the cards not named
    go under the draw pile, or into hand `rest_in`."""
    placed = [*sum(hands, []), *([top] if top else []), *draw_pile, *below]
    rest = sorted((Counter(game.deck_up(0, len(hands))) - Counter(game.card_index[c] for c in placed)).elements())
    hands = [[game.card_index[c] for c in h] for h in hands]
    if rest_in is not None:
        hands[rest_in] += rest
        rest = []
    pile = [game.card_index[c] for c in draw_pile] + rest
    discard = [game.card_index[c] for c in below] + ([game.card_index[top]] if top else [])
    return game.position([[game.card_names[k] for k in h] for h in hands], [game.card_names[k] for k in pile],
                         [game.card_names[k] for k in discard], dealer=(turn - 1) % len(hands), turn=turn)


@pytest.mark.parametrize("mode", MODES)
def test_with_no_start_card_the_discard_pile_starts_empty_and_anything_may_be_played(tmp_path, mode):
    game = _game(tmp_path, OPEN, mode)
    state = game.new_game(3, seed=7, record=True)
    assert state.discard == [] and state.color == -1 and state.top_card == ""
    p = state.current_player
    hand = sorted(set(state.hands[p]))
    assert state.legal_action_ids() == hand + [game.A_DRAW]
    dealt = next(e for e in state.events if e.kind == E.ROUND_DEALT)
    assert dealt.cards == ()
    assert len(state.draw_pile) + sum(map(len, state.hands)) == 108
    saved = state.to_json()
    assert type(state).from_json(game, saved).to_json() == saved
    state.apply_id(hand[0])
    assert state.discard == [hand[0]]


@pytest.mark.parametrize("mode", MODES)
def test_cards_discarded_by_color_before_any_play_start_the_discard_pile(tmp_path, mode):
    # Found by the long template campaign: `discards color` kept the top card on top and raised on an empty
    # discard pile (no start card, nothing played yet). The discarded cards now start the pile.
    game = _game(tmp_path, "start: {card: false}\nevents:\n  turn_start: |\n    choose color\n"
                           "    self discards color current\n", mode)
    state = game.new_game(2, seed=1)
    assert (state.decision, state.discard) == ("color", [])
    p, colors = state.current_player, game.variant.colors
    hand = [game.card_names[k] for k in state.hands[p]]
    color = next(c for c in colors if any(name.startswith(c + "_") for name in hand))
    state.apply(f"color {color}")
    assert [game.card_names[k] for k in state.discard] == [n for n in hand if n.startswith(color + "_")]
    assert [game.card_names[k] for k in state.hands[p]] == [n for n in hand if not n.startswith(color + "_")]
    assert state.decision == "turn" and colors[state.color] == color


@pytest.mark.parametrize("mode", MODES)
def test_clear_color_lets_any_card_follow(tmp_path, mode):
    game = _game(tmp_path, OPEN, mode)
    state = _position(game, [["red_0", "red_1", "blue_2"], ["green_3", "yellow_4", "blue_6"]], "red_5")
    state.apply("play red_0")
    assert state.color == -1 and state.current_player == 1
    assert sorted(state.legal_actions()) == ["draw", "play blue_6", "play green_3", "play yellow_4"]


def test_clear_color_is_narrated_and_said(tmp_path):
    game = _game(tmp_path, OPEN)
    assert narrate([E.Event(E.COLOR)], 0) == ["no color is in play now: any card may follow"]
    page = __import__("unodsl.rulebook.document", fromlist=["render_rulebook"]).render_rulebook(game)
    assert "no color is in play any more" in page.lower()
    assert "No card is turned up" in page and "never made again from the discard pile" in page
    assert "The round is blocked" in page


@pytest.mark.parametrize("mode", MODES)
def test_an_empty_draw_pile_is_not_refilled(tmp_path, mode):
    game = _game(tmp_path, OPEN, mode)
    state = _position(game, [["red_1", "blue_2"], ["green_1", "green_2", "green_3"]], "yellow_5",
                      below=["red_9", "blue_9"], rest_in=1)
    assert state.draw_pile == []
    state.apply("draw")
    assert len(state.hands[0]) == 2 and len(state.discard) == 3 and state.reshuffles == 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rule, winner", [("fewest_points", 0), ("fewest_cards", 1), ("no_winner", None)])
def test_a_blocked_round_ends_with_its_winner_and_is_scored(tmp_path, mode, rule, winner):
    game = _game(tmp_path, OPEN.replace("blocked: fewest_points", f"blocked: {rule}"), mode)
    state = _position(game, [["red_1", "blue_2", "red_3"], ["green_9", "green_8"]], "yellow_5", rest_in=1)
    # every other card went to player 1's hand: it goes under the top card (player 1 keeps the fewest
    # cards, 2, and the most points, 17)
    extra = state.hands[1][2:]
    state.hands[1] = state.hands[1][:2]
    state.discard[0:0] = extra
    assert not state.is_over
    state.apply("draw")                 # draws nothing; player 1's turn begins blocked
    assert state.is_over and state.winner == winner and not state.stalled
    assert state.scores == {0: [17, 0], 1: [0, 6], None: [0, 0]}[winner]
    over = next(e for e in state.events if e.kind == E.ROUND_OVER) if state.events else None
    assert over is None or over.name == "blocked"


@pytest.mark.parametrize("mode", MODES)
def test_a_round_is_not_blocked_while_a_card_can_be_played(tmp_path, mode):
    game = _game(tmp_path, OPEN, mode)
    state = _position(game, [["red_9", "blue_8"], ["green_1", "yellow_2"]], "yellow_5", rest_in=1)
    extra = state.hands[1][2:]
    state.hands[1] = state.hands[1][:2]
    state.discard[0:0] = extra
    state.apply("draw")
    assert not state.is_over and state.legal_actions()[0] == "play yellow_2"


@pytest.mark.parametrize("mode", MODES)
def test_the_packs_follow_the_table_size(tmp_path, mode):
    game = _game(tmp_path, OPEN, mode)
    for n, size in ((2, 108), (6, 108), (7, 216), (10, 216)):
        state = game.new_game(n, seed=n)
        assert len(state.draw_pile) + len(state.discard) + sum(map(len, state.hands)) == size
        saved = state.to_json()
        assert type(state).from_json(game, saved).to_json() == saved
    assert Counter(game.deck_up(0, 7)) == Counter(game.deck) + Counter(game.deck)


def test_packs_are_checked(tmp_path):
    def diags(body):
        path = tmp_path / "p.yaml"
        path.write_text(f"unodsl: 1\nname: P\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body)
        return [f"{d.code} {d.message}" for d in check_file(str(path), root="/").diagnostics]
    assert any(d.startswith("E362") for d in diags('deck: {packs: {"5-8": 2, "8-10": 3}}\n'))
    assert any(d.startswith("E309 a deck of 108 cards cannot deal 7 cards to 20 players")
               for d in diags("players: {max: 20}\n"))
    assert diags('players: {max: 20}\ndeck: {packs: {"16-20": 2}}\n') == []
    assert any(d.startswith("E201") and "did you mean 'packs'" in d for d in diags("deck: {pack: 2}\n"))
    assert any(d.startswith("E201") and "did you mean 'blocked'" in d for d in diags("round: {blocke: no_winner}\n"))


@pytest.mark.parametrize("n", [3, 7])
def test_both_modes_play_the_same_games(tmp_path, n):
    fast, reference = _game(tmp_path, OPEN, "fast"), _game(tmp_path, OPEN, "reference")
    blocked = 0
    for seed in range(4):
        blocked += not play_both_modes(fast, reference, n, seed, record=False).draw_pile
    assert blocked


def test_every_bot_plays_it(tmp_path):
    game = _game(tmp_path, OPEN)
    for bot in BOTS:
        run_range(game, 4, 1, 0, 1 if bot in ("pimc", "ismcts") else 3, [bot] * 4)
