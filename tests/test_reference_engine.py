"""Sanity tests for the hand-written classic UNO reference engine in benchmarks/."""

import random
from collections import Counter

import pytest
from bench_scripts import bench_module

E = bench_module("reference_engine")

RED, YELLOW, GREEN, BLUE = range(4)


class ScriptedRandom(random.Random):
    """A Random whose random() replays a script while shuffles keep using the Mersenne Twister."""

    def __init__(self, script):
        super().__init__(0)
        self.script = list(script)

    def random(self):
        """Return the next scripted value."""
        return self.script.pop(0)

    def getrandbits(self, k):
        """Delegate to the real generator so shuffle() does not consume the script."""
        return super().getrandbits(k)


def c(name: str) -> int:
    """Return the card value for names such as 'red-7', 'blue-skip' or 'wild_draw4'."""
    color, _, rank = name.rpartition("-")
    return E.card(color or "red", rank)


def cards(*names: str) -> list[int]:
    """Return the sorted card values for names, as State.hand() reports a hand."""
    return sorted(c(n) for n in names)


def hands(state) -> list[list[int]]:
    """Return every seat's hand as sorted card values."""
    return [state.hand(seat) for seat in range(len(state.counts))]


def pick(state, value) -> float:
    """Return the random() value that makes the policy choose `value` (or None for draw)."""
    options = E.legal_options(state)
    index = len(options) if value is None else options.index(value)
    return (index + 0.5) / (len(options) + 1)


def make_state(hands, top, script, color=None, draw=(), direction=1, current=0):
    """Build a position from card names with a scripted rng."""
    top_value = c(top)
    return E.State(
        hands=[[c(n) for n in hand] for hand in hands],
        draw=[c(n) for n in draw],
        discard=[top_value],
        color=E.COLOR[top_value] if color is None else color,
        current=current,
        direction=direction,
        rng=ScriptedRandom(script),
    )


def test_deck_composition():
    counts = Counter(E.DECK)
    assert len(E.DECK) == 108
    assert counts[E.WILD] == 4 and counts[E.WILD_DRAW4] == 4
    for color in ("red", "yellow", "green", "blue"):
        assert counts[E.card(color, "0")] == 1
        for rank in ("1", "9", "skip", "reverse", "draw2"):
            assert counts[E.card(color, rank)] == 2


@pytest.mark.parametrize("seed", range(300))
def test_cards_conserved_and_game_ends(seed):
    players = 2 + seed % 5
    state = E.play_game_checked(players, seed)
    assert sorted(state.all_cards()) == sorted(E.DECK)
    assert 0 <= state.winner < players
    assert state.hand(state.winner) == [] and state.masks[state.winner] == 0
    assert all(state.hand(seat) for seat in range(players) if seat != state.winner)
    assert 0 < state.turns < E.MAX_TURNS
    for seat, counts in enumerate(state.counts):
        assert min(counts) >= 0
        assert state.masks[seat] == sum(E.BIT[v] for v, n in enumerate(counts) if n)
    assert E.play_game(players, seed) == (state.winner, state.turns)


def test_deterministic_for_a_seed():
    for seed in (0, 1, 12345):
        a = E.play_game_checked(4, seed)
        b = E.play_game_checked(4, seed)
        assert (a.winner, a.turns, a.reshuffles, a.counts, a.draw, a.discard) == (
            b.winner, b.turns, b.reshuffles, b.counts, b.draw, b.discard)
    assert len({E.play_game(4, seed) for seed in range(20)}) > 1


def test_run_statistics():
    stats = E.run(50, 4, seed=7)
    assert stats["games"] == 50 and sum(stats["wins"]) + stats["stalled"] == 50
    assert stats["turns"] == sum(E.play_game(4, s)[1] for s in E.game_seeds(50, 7))
    assert stats == {**E.run(50, 4, seed=7), "seconds": stats["seconds"],
                     "games_per_s": stats["games_per_s"], "turns_per_s": stats["turns_per_s"]}


def test_turn_cap_stops_with_winner_minus_one():
    state = E.play_game_checked(4, 3, max_turns=5)
    assert state.winner == -1 and state.turns == 5
    assert sorted(state.all_cards()) == sorted(E.DECK)


def test_starter_is_never_wild_draw_four_and_hands_are_dealt():
    for seed in range(200):
        state = E.new_game(3, seed)
        assert state.discard[-1] != E.WILD_DRAW4
        assert sorted(state.all_cards()) == sorted(E.DECK)
        assert sorted(len(state.hand(s)) for s in range(3))[:2] == [7, 7]


def test_two_player_reverse_acts_as_skip():
    state = make_state([["red-reverse", "blue-3"], ["green-4", "yellow-5"]], "red-5", [])
    state.rng.script.append(pick(state, c("red-reverse")))
    E.advance(state, max_turns=1)
    assert state.turns == 1 and state.winner is None
    assert state.current == 0 and state.direction == -1
    assert state.discard[-1] == c("red-reverse") and state.color == RED
    assert hands(state) == [cards("blue-3"), cards("green-4", "yellow-5")]


def test_three_player_reverse_changes_direction():
    state = make_state([["red-reverse", "blue-3"], ["green-4"], ["yellow-5"]], "red-5", [])
    state.rng.script.append(pick(state, c("red-reverse")))
    E.advance(state, max_turns=1)
    assert state.current == 2 and state.direction == -1


def test_skip_and_draw_two():
    state = make_state([["red-skip", "blue-3"], ["green-4"], ["yellow-5"]], "red-5", [])
    state.rng.script.append(pick(state, c("red-skip")))
    E.advance(state, max_turns=1)
    assert state.current == 2

    state = make_state([["blue-draw2", "blue-3"], ["green-4"], ["yellow-5"]], "red-draw2", [],
                       draw=["red-1", "red-2", "red-3"])
    state.rng.script.append(pick(state, c("blue-draw2")))
    E.advance(state, max_turns=1)
    assert state.current == 2 and state.color == BLUE
    assert state.hand(1) == cards("green-4", "red-2", "red-3")


def test_last_card_draw_two_still_makes_next_player_draw():
    state = make_state([["red-draw2"], ["green-4"]], "red-5", [], draw=["red-1", "red-2"])
    state.rng.script.append(pick(state, c("red-draw2")))
    E.advance(state)
    assert state.winner == 0 and state.turns == 1
    assert len(state.hand(1)) == 3


def test_wild_sets_chosen_color():
    state = make_state([["wild", "blue-3"], ["green-4"]], "red-5", [])
    state.rng.script += [pick(state, E.WILD), 0.6]  # colour index int(0.6 * 4) == 2 -> green
    E.advance(state, max_turns=1)
    assert state.color == GREEN and state.current == 1
    assert E.legal_options(state) == [c("green-4")]


def test_wild_draw_four_challenge_guilty():
    draw = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
    state = make_state([["wild_draw4", "red-3"], ["green-4"], ["yellow-5"]], "red-5", [], draw=draw)
    state.rng.script += [pick(state, E.WILD_DRAW4), 0.9, 0.1]  # colour blue, challenge
    E.advance(state, max_turns=1)
    assert state.color == BLUE and state.current == 1  # challenger plays normally
    assert len(state.hand(0)) == 5 and state.hand(1) == cards("green-4")


def test_wild_draw_four_challenge_innocent():
    draw = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6", "blue-7"]
    state = make_state([["wild_draw4", "blue-9"], ["green-4"], ["yellow-5"]], "red-5", [],
                       draw=draw)
    state.rng.script += [pick(state, E.WILD_DRAW4), 0.0, 0.1]  # colour red, challenge
    E.advance(state, max_turns=1)
    assert state.color == RED and state.current == 2
    assert len(state.hand(0)) == 1 and len(state.hand(1)) == 7


def test_wild_draw_four_accepted():
    draw = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
    state = make_state([["wild_draw4", "red-9"], ["green-4"], ["yellow-5"]], "red-5", [], draw=draw)
    state.rng.script += [pick(state, E.WILD_DRAW4), 0.3, 0.7]  # colour yellow, accept
    E.advance(state, max_turns=1)
    assert state.color == YELLOW and state.current == 2
    assert len(state.hand(0)) == 1 and len(state.hand(1)) == 5


def test_draw_then_play_or_keep():
    state = make_state([["blue-3"], ["green-4"]], "red-5", [], draw=["red-7"])
    state.rng.script += [pick(state, None), 0.2]  # draw, then play the drawn card
    E.advance(state, max_turns=1)
    assert state.discard[-1] == c("red-7") and state.hand(0) == cards("blue-3")
    assert state.current == 1 and state.turns == 1

    state = make_state([["blue-3"], ["green-4"]], "red-5", [], draw=["red-7"])
    state.rng.script += [pick(state, None), 0.8]  # draw, then keep it
    E.advance(state, max_turns=1)
    assert state.discard == [c("red-5")] and state.hand(0) == cards("blue-3", "red-7")

    state = make_state([["blue-3"], ["green-4"]], "red-5", [], draw=["green-7"])
    state.rng.script += [pick(state, None)]  # unplayable draw ends the turn, no coin flip
    E.advance(state, max_turns=1)
    assert state.hand(0) == cards("blue-3", "green-7") and state.current == 1


def test_empty_draw_pile_reshuffles_discard_except_top():
    state = make_state([["green-3"], ["green-4"]], "red-5", [])
    state.discard.insert(0, c("blue-1"))
    state.rng.script += [pick(state, None)]
    E.advance(state, max_turns=1)
    assert state.reshuffles == 1
    assert state.discard == [c("red-5")] and state.draw == []
    assert state.hand(0) == cards("green-3", "blue-1")


def test_both_piles_empty_draws_nothing():
    state = make_state([["green-3"], ["green-4"]], "red-5", [])
    state.rng.script += [pick(state, None)]
    E.advance(state, max_turns=1)
    assert state.reshuffles == 0 and state.turns == 1 and state.current == 1
    assert state.hand(0) == cards("green-3")


def test_duplicate_cards_are_one_option():
    state = make_state([["red-3", "red-3", "red-3", "blue-1"], ["green-4"]], "red-5", [])
    assert E.legal_options(state) == [c("red-3")]


def test_starter_card_effects():
    seen = set()
    for seed in range(3000):
        players = 2 + seed % 4
        state = E.new_game(players, seed)
        first = (state.dealer + 1) % players
        top = state.discard[-1]
        kind = E.KIND[top]
        seen.add(kind)
        hand_sizes = [len(state.hand(s)) for s in range(players)]
        if kind == E.K_DRAW2:
            assert hand_sizes[first] == 9 and state.current == (first + 1) % players
        elif kind == E.K_SKIP:
            assert state.current == (first + 1) % players
        elif kind == E.K_REVERSE:
            assert state.current == state.dealer and state.direction == -1
        else:
            assert state.current == first and state.direction == 1
            if kind == E.K_WILD:
                assert state.color in range(4)
            else:
                assert state.color == E.COLOR[top]
        if kind != E.K_DRAW2:
            assert hand_sizes == [7] * players
    assert seen == {E.K_NUMBER, E.K_SKIP, E.K_REVERSE, E.K_DRAW2, E.K_WILD}
    assert len({E.new_game(4, seed).dealer for seed in range(100)}) == 4


def test_policy_is_uniform_over_distinct_values_and_draw():
    outcomes = Counter()
    for seed in range(3000):
        state = make_state([["red-3", "red-3", "red-4"], ["green-4"]], "red-5", [],
                           draw=["blue-1"])
        state.rng = random.Random(seed)
        E.advance(state, max_turns=1)
        outcomes[E.card_name(state.discard[-1]) if len(state.discard) > 1 else "draw"] += 1
    assert set(outcomes) == {"red-3", "red-4", "draw"}
    for count in outcomes.values():
        assert 850 < count < 1150  # each 1/3 of 3000
