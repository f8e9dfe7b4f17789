"""Engine invariants over every shipped variant, and the API contract on classic UNO."""

from __future__ import annotations

import glob
import json
import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.agents.simple import HeuristicBot
from unodsl import IllegalAction, InvalidState, State
from unodsl.runs.simulate import game_seed

VARIANTS = sorted(glob.glob("variants/*.yaml"))
GAMES_PER_CASE = 40          # x player counts x variants: 2,040 games in all


@pytest.fixture(scope="module")
def classic():
    return unodsl.load("variants/classic.yaml")


def _games(path):
    game = unodsl.load(path)
    v = game.variant
    counts = v.allowed_players or range(v.min_players, v.max_players + 1)
    return game, list(counts)


def _zones(state):
    return Counter(k for zone in state.hands + [state.draw_pile, state.discard] + state.limbo for k in zone)


@pytest.mark.parametrize("path", VARIANTS)
def test_random_games_keep_every_invariant(path):
    game, counts = _games(path)
    size = len(game.deck)
    played = 0
    for players in counts:
        for index in range(GAMES_PER_CASE):
            seed = game_seed(players, index)
            state = game.new_game(players, seed=seed)
            rng = random.Random(seed)
            bots = [HeuristicBot(rng) if (index + seat) % 2 else None for seat in range(players)]
            steps = 0
            while not state.is_over:
                legal = state.legal_action_ids()
                assert legal, f"no legal action in {path} with {players} players, seed {seed}"
                assert 0 <= state.current_player < players
                bot = bots[state.current_player]
                action = bot.act(state) if bot else legal[rng.randrange(len(legal))]
                assert action in legal
                state.apply_id(action)
                steps += 1
                # Cheap conservation at every step, the full multiset every 25 steps.
                assert sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard) \
                    + sum(map(len, state.limbo)) == size
                if steps % 25 == 0:
                    assert _zones(state) == Counter(game.deck_up(state.side))     # by the faces up
                assert steps < 200_000, "a game that does not end"
            assert _zones(state) == Counter(game.deck_up(state.side))
            assert state.legal_action_ids() == []
            played += 1
    assert played == GAMES_PER_CASE * len(counts)


@pytest.mark.parametrize("path", VARIANTS)
def test_clone_and_save_continue_identically(path):
    game, counts = _games(path)
    for players in counts[:3]:
        for index in range(6):
            seed = game_seed(99 + players, index)
            state = game.new_game(players, seed=seed)
            rng = random.Random(seed)
            cut = 5 + index * 7
            while not state.is_over and len(state.history) < cut:
                legal = state.legal_action_ids()
                state.apply_id(legal[rng.randrange(len(legal))])
            if state.is_over:
                continue
            copies = [state.clone(), State.from_json(game, state.to_json())]
            while not state.is_over:
                legal = state.legal_action_ids()
                action = legal[rng.randrange(len(legal))]
                for copy in copies:
                    assert copy.legal_action_ids() == legal
                    copy.apply_id(action)
                state.apply_id(action)
            for copy in copies:
                assert copy.is_over and copy.winner == state.winner
                assert copy.scores == state.scores and copy.hands == state.hands


def test_same_seed_same_game(classic):
    def play(seed):
        state = classic.new_game(4, seed=seed)
        rng = random.Random(3)
        while not state.is_over:
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        return state.history, state.winner
    assert play(11) == play(11)
    assert play(11) != play(12)


def test_actions_round_trip_as_strings(classic):
    for action in range(classic.num_actions):
        text = classic.action_to_string(action)
        assert classic.action_from_string(text) == action


def test_illegal_action_is_refused_and_state_unchanged(classic):
    state = classic.new_game(4, seed=5)
    before = state.to_json()
    hand = set(state.hand(state.current_player))
    missing = next(name for name in classic.card_names if name not in hand)
    with pytest.raises(IllegalAction) as err:
        state.apply(f"play {missing}")
    assert "does not hold" in err.value.reason
    with pytest.raises(IllegalAction):
        state.apply("fly away")
    assert state.to_json() == before


def test_observation_hides_other_hands(classic):
    state = classic.new_game(4, seed=8)
    obs = state.observation(1)
    assert obs["hand"] == state.hand(1)
    assert obs["hand_sizes"] == [len(h) for h in state.hands]
    text = json.dumps(obs)
    # Another player's exact hand never appears; only its size does.
    for other in (0, 2, 3):
        assert json.dumps(state.hand(other)) not in text
    if state.current_player != 1:
        assert "legal_actions" not in obs


def test_tampered_saves_are_refused(classic):
    state = classic.new_game(4, seed=2)
    data = json.loads(state.to_json())
    duplicated = json.loads(state.to_json())
    duplicated["hands"][0].append(duplicated["hands"][1][0])
    with pytest.raises(InvalidState, match="appears more often"):
        State.from_json(classic, json.dumps(duplicated))
    unknown = json.loads(state.to_json())
    unknown["hands"][0][0] = "red_42"
    with pytest.raises(InvalidState, match="unknown card 'red_42'"):
        State.from_json(classic, json.dumps(unknown))
    edited = dict(data)
    edited["variant"] = "0" * 16
    with pytest.raises(InvalidState, match="another variant"):
        State.from_json(classic, json.dumps(edited))
    with pytest.raises(InvalidState, match="not a saved state"):
        State.from_json(classic, "{not json")


def test_wild_draw_four_challenge_reveals_hand_only_to_challenger(classic):
    # Play seeds until a challenge happens, then check what each player was shown.
    for seed in range(200):
        state = classic.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.decision == "challenge":
                victim = state.current_player
                challenged = state.frames[-1][2]
                state.apply("challenge")
                assert str(challenged) in state.observation(victim)["revealed"]
                for other in range(4):
                    if other != victim:
                        assert str(challenged) not in state.observation(other)["revealed"]
                return
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
    pytest.fail("no challenge happened in 200 games")


# Tiny UNO's one action card, the Wild, pauses for its colour: it has no straight effect to compare.
@pytest.mark.parametrize("path", [p for p in VARIANTS if p != "variants/tiny.yaml"])
def test_straight_effects_end_where_the_effect_frame_would(path, monkeypatch):
    """An effect run without a frame (it cannot pause or push) leaves the very state the VM would."""
    game = unodsl.load(path, fast=True)
    straight_kinds = [k for k in range(game.num_kinds)
                      if game.on_play[game.k_type[k]] >= 0 and game.straight[game.on_play[game.k_type[k]]]]
    assert straight_kinds                                # every shipped variant has some
    compared = 0
    for seed in range(40):
        state = game.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.over and state.decision != "turn":    # e.g. Teams' passing at the deal
            state.apply_id(rng.choice(state.legal_action_ids()))
        if state.over:
            continue
        p = state.current_player
        assert not state.frames                          # so the straight path is the one taken
        k = straight_kinds[seed % len(straight_kinds)]
        state.hands[p].append(k)
        inline, framed = state.clone(), state.clone()
        inline.play(p, k, False)
        monkeypatch.setattr(game, "straight", [False] * len(game.codes))
        framed.play(p, k, False)
        monkeypatch.undo()
        assert inline.to_json() == framed.to_json(), (path, game.card_names[k], seed)
        compared += 1
    assert compared >= 20


def test_only_effects_that_cannot_be_interrupted_are_straight():
    teams = unodsl.load("variants/teams.yaml", fast=True)          # it has an after-draw event
    classic = unodsl.load("variants/classic.yaml", fast=True)

    def straight(game, card_type):
        return game.straight[game.on_play[game.type_ids.index(card_type)]]
    assert straight(classic, "skip") and straight(classic, "reverse") and straight(classic, "draw_two")
    assert not straight(classic, "wild")                # a color choice pauses
    assert not straight(teams, "draw_two")              # drawing may run the after-draw event
    assert straight(teams, "skip")


@pytest.mark.parametrize("path", VARIANTS)
def test_games_make_no_reference_cycles(path):
    """Simulations run with the cycle collector off: every game must be freed by reference counting."""
    import gc
    from unodsl.runs.simulate import run_range
    game = unodsl.load(path)
    players = min(4, game.variant.max_players)
    gc.collect()
    gc.disable()
    try:
        for bots, match, games in ((["random"], False, 20), (["heuristic"], False, 60), (["heuristic"], True, 5)):
            stats = run_range(game, players, 3, 0, games, bots, match)
            assert stats.games == games
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_simulation_leaves_the_collector_as_it_found_it(classic):
    import gc
    from unodsl.runs.simulate import run_range
    seen = []
    run_range(classic, 4, 1, 0, 2, ["heuristic"], on_game=lambda i, s: seen.append(gc.isenabled()))
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:
        run_range(classic, 4, 1, 0, 1, ["heuristic"])
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_players_from_walks_the_table_in_the_direction_of_play(players):
    """Seat orders come from a table made once per player count; they match walking the table seat by seat."""
    game = unodsl.load("variants/classic.yaml")
    state = game.new_game(4, seed=1)
    state.n = players
    game.tables_for(players)             # built when a game at that size starts
    out = {2, players - 1} if players > 3 else set()
    for direction in (1, -1):
        state.direction = direction
        for eliminated in (set(), out):
            state.eliminated = [q in eliminated for q in range(players)]
            for p in range(players):
                for include in (True, False):
                    walk = [(p + i * direction) % players for i in range(players)][0 if include else 1:]
                    expected = tuple(q for q in walk if q not in eliminated)
                    assert state.players_from(p, include) == expected
    assert state.players_from(-1, True) == ()
    assert game.orders_for(players) is game.orders_for(players)       # built once


def _random_loop(state, rand) -> None:
    """What RandomBots do: list the legal actions, take one by the generator."""
    while not state.over:
        legal = state.legal_action_ids()
        state.apply_id(legal[int(rand() * len(legal))])


@pytest.mark.parametrize("path", VARIANTS + ["benchmarks/rlcard-rules.yaml"])
def test_play_out_plays_the_game_random_bots_play(path):
    """play_out counts a turn's actions instead of listing them; the games must not change by an action."""
    game, counts = _games(path)
    kinds, plays_with_uno = Counter(), 0
    for players in counts[:2]:
        for index in range(8):
            seed = game_seed(5 + players, index)
            fast, listed = game.new_game(players, seed=seed), game.new_game(players, seed=seed)
            fast.play_out(fast.rng.random)                   # as simulations play: one generator for all
            _random_loop(listed, listed.rng.random)
            assert fast.history == listed.history, (path, players, seed)
            assert fast.to_json() == listed.to_json(), (path, players, seed)
            # Decisions from a generator of their own, so that the history replays the game, and
            # a count of what the games went through: a path the test never takes cannot pass unseen.
            fast, listed = game.new_game(players, seed=seed), game.new_game(players, seed=seed)
            fast.play_out(random.Random(index).random)
            _random_loop(listed, random.Random(index).random)
            assert fast.to_json() == listed.to_json(), (path, players, seed)
            replay = game.new_game(players, seed=seed)
            for action in fast.history:
                kinds[replay.decision] += 1
                plays_with_uno += replay.decision == "turn" and game.num_kinds <= action < 2 * game.num_kinds
                replay.apply_id(action)
    # A variant whose drawn card may never be played (UNO Attack!) never asks about one.
    assert kinds["turn"] and (kinds["drawn"] or game.variant.drawn_card == "forbidden") and len(kinds) >= 3, kinds
    assert plays_with_uno or not game.rules.uno_enabled, "no play with an UNO call was chosen"


@pytest.mark.parametrize("path, field", [("variants/teams.yaml", "strict"), ("variants/frozen-2.yaml", "lock")])
def test_play_out_takes_the_general_way_for_restricted_cards_and_locks(path, field):
    """Teams' Wild Team Draw Four is legal only under its restriction; Frozen 2's lock limits the colors."""
    game = unodsl.load(path)
    seen = 0
    for index in range(8):
        seed = game_seed(11, index)
        fast, listed, own = game.new_game(4, seed=seed), game.new_game(4, seed=seed), game.new_game(4, seed=seed)
        fast.play_out(random.Random(index).random)
        _random_loop(listed, random.Random(index).random)
        assert fast.to_json() == listed.to_json(), (path, seed)
        own.play_out()                                   # the game's own generator by default
        again = game.new_game(4, seed=seed)
        _random_loop(again, again.rng.random)
        assert own.to_json() == again.to_json(), (path, seed)
        replay = game.new_game(4, seed=seed)
        for action in fast.history:
            if replay.decision == "turn":
                p = replay.current_player
                if field == "lock":
                    seen += replay.lock_owner >= 0
                else:
                    seen += not game.strict_kinds.isdisjoint(replay.hands[p])
            replay.apply_id(action)
    assert seen, f"{path}: no turn " + ("under a lock" if field == "lock" else "with the restricted card in hand")


def test_play_out_continues_a_game_and_logs_what_it_plays(classic):
    """From a paused decision, and for a recorded game (whose log apply_id writes), the same game again."""
    for seed in range(6):
        fast, listed = classic.new_game(4, seed=seed, record=True), classic.new_game(4, seed=seed, record=True)
        rng = random.Random(seed)
        while fast.decision != "color" and not fast.over:        # stop at a paused wild
            action = rng.choice(fast.legal_action_ids())
            fast.apply_id(action)
            listed.apply_id(action)
        fast.play_out(random.Random(1).random)
        _random_loop(listed, random.Random(1).random)
        assert fast.log == listed.log and fast.log
        assert fast.to_json() == listed.to_json()


def test_fixed_legal_lists_are_fresh_lists(classic):
    """Colors, challenges and UNO calls come from tables made once; legal_action_ids returns the caller's copy."""
    state = classic.new_game(4, seed=3)
    rng = random.Random(3)
    while state.decision != "color":
        state.apply_id(rng.choice(state.legal_action_ids()))
    legal = state.legal_action_ids()
    assert legal == [classic.A_COLOR + c for c in range(4)]
    legal.clear()
    assert len(state.legal_action_ids()) == 4
    assert classic.fixed_actions["challenge"] == (classic.A_CHALLENGE, classic.A_ACCEPT)
    assert classic.fixed_actions["uno"] == (classic.A_UNO, classic.A_PASS)       # as listed before the table


def test_a_picked_trade_is_the_listed_trade_at_that_index():
    """play_out picks Grogu's trades by counting rows; every index must give the listed action."""
    game = unodsl.load("variants/all-wild-grogu.yaml")
    checked = 0
    for index in range(40):
        state = game.new_game(4, seed=game_seed(13, index))
        rng = random.Random(index)
        while not state.over:
            legal = state.legal_action_ids()
            if state.decision == "trade":
                for i in range(len(legal)):
                    assert state.pick_trade(lambda: (i + 0.5) / len(legal)) == legal[i], (index, i)
                checked += 1
            state.apply_id(rng.choice(legal))
    assert checked >= 20


@pytest.mark.parametrize("path, kinds", [("variants/classic.yaml", {"turn", "drawn", "color", "challenge", "catch"}),
                                         ("variants/all-wild-grogu.yaml", {"target", "trade", "catch", "uno"})])
def test_legal_ids_are_sorted_but_a_declining_answer_comes_last(path, kinds):
    """What api.md promises of legal_action_ids, over random games that reach the given decisions."""
    game = unodsl.load(path)
    seen = set()
    for seed in range(30):
        state = game.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            legal = state.legal_action_ids()
            body = legal[:-1] if legal[-1] in (game.A_PASS, game.A_DONE) else legal
            assert body == sorted(body) and game.A_PASS not in body and game.A_DONE not in body, (state.decision, legal)
            seen.add(state.decision)
            state.apply_id(rng.choice(legal))
    assert kinds <= seen, seen


def test_a_broken_may_draw_condition_allows_no_draw_on_every_path(tmp_path):
    """check_file builds the game of a refused file for its diagnostics; its turns must not call a missing condition."""
    from pathlib import Path
    from unodsl.check import check_file
    variant = tmp_path / "broken.yaml"
    classic_path = Path("variants/classic.yaml").resolve()
    variant.write_text(f"unodsl: 1\nname: broken draw rule\nextends: {classic_path}\n"
                       "turn:\n  may_draw_if: hand(self) >\n")
    result = check_file(str(variant), "/")                    # the root that lets it extend the repository's file
    assert [d.code for d in result.errors] == ["E401"] and result.game is not None
    game = result.game
    assert not game.may_always_draw
    for seed in range(4):
        fast, listed = game.new_game(4, seed=seed), game.new_game(4, seed=seed)
        fast.play_out(random.Random(seed).random)
        _random_loop(listed, random.Random(seed).random)
        assert fast.to_json() == listed.to_json()
    state = game.new_game(4, seed=1)
    while state.decision != "turn" or not state.legal_action_ids()[:-1]:
        state.apply_id(state.legal_action_ids()[0])
    legal = state.legal_action_ids()
    assert (game.A_DRAW in legal) == (legal == [game.A_DRAW])      # a draw only when nothing is playable


@pytest.mark.parametrize("partner_may_call", [None, True, False])
def test_the_catch_window_stops_exactly_at_seats_with_more_than_pass(tmp_path, partner_may_call):
    """may_catch(q), which the window asks, is `len(_catch_actions(q)) > 1` for every seat and vulnerable set.

    Classic (no teams), and Teams with and without partners calling UNO for each other: a
    partner of the only vulnerable player has nothing but `pass` only in the last case.
    """
    from pathlib import Path
    if partner_may_call is None:
        game = unodsl.load("variants/classic.yaml")
    else:
        variant = tmp_path / "teams-calls.yaml"
        variant.write_text(f"unodsl: 1\nname: teams, partner calls {partner_may_call}\n"
                           f"extends: {Path('variants/teams.yaml').resolve()}\n"
                           f"uno:\n  partner_may_call: {str(partner_may_call).lower()}\n")
        game = unodsl.load(str(variant), "/")
        assert game.variant.uno_partner_may_call is partner_may_call
    answers = Counter()
    for seed in range(60):
        state = game.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            if state.vulnerable:
                for q in range(4):
                    expected = len(state._catch_actions(q)) > 1
                    assert state.may_catch(q) is expected, (seed, q, state.vulnerable)
                    answers[expected] += 1
            legal = state.legal_action_ids()
            state.apply_id(legal[int(rng.random() * len(legal))])
    assert answers[True] >= 20, answers
    assert (answers[False] >= 5) == (partner_may_call is False), answers


@pytest.mark.parametrize("fast", [True, False])
def test_a_player_whose_hand_grew_in_the_catch_window_is_no_longer_caught(tmp_path, fast):
    """Rule 1.6.2 catches a player holding the card they forgot to call UNO on. Two forgot (a Seven-O 0
    left both with one card); a catch's penalty, here an effect, makes the other draw too: with two
    cards they may neither be caught nor call UNO, and the next turn begins."""
    from pathlib import Path
    from unodsl.engine import Game
    from unodsl.scenarios.given import build_state
    root = Path("variants").resolve()
    variant = tmp_path / "penalty-grows.yaml"
    variant.write_text(f"unodsl: 1\nname: penalty grows another hand\nextends: {root / 'classic.yaml'}\n"
                       f"include: [{root / 'house-rules' / 'seven-o.yaml'}]\n"
                       "uno:\n  penalty: |\n    self draws 2\n    next draws 1\n")
    game = Game(unodsl.load(str(variant), "/").variant, fast=fast)
    state = build_state(game, {"given": {
        "hands": [["red_0", "blue_5"], ["green_1", "green_2", "green_3"], ["yellow_9"]], "top": "red_5", "turn": 0,
        "uno_called": [2], "draw_pile": ["blue_1", "blue_2", "blue_3"]}})
    for action in ("play red_0", "pass", "pass"):       # the hands pass on; 0 and 1, left with one card, don't call
        state.apply(action)
    assert state.vulnerable == [0, 1] and state.decision == "catch" and state.current_player == 1
    state.apply("catch 0")                              # 0 draws 2, and the effect's `next` (1) draws 1
    assert [len(h) for h in state.hands] == [3, 2, 3]
    assert state.vulnerable == [] and state.decision == "turn" and state.current_player == 1


def test_a_lowest_held_match_is_won_by_the_first_seat_with_the_fewest_points(tmp_path):
    """Scoring by points held (1.10.3): once a seat reaches the target, the lowest score wins (first seat on a tie)."""
    from pathlib import Path
    variant = tmp_path / "lowest.yaml"
    variant.write_text(f"unodsl: 1\nname: lowest held\nextends: {Path('variants/classic.yaml').resolve()}\n"
                       "scoring:\n  mode: lowest_held\n  target: 150\n")
    game = unodsl.load(str(variant), "/")
    rounds = 0
    for seed in range(12):
        state = game.new_game(4, seed=seed, match=True)
        state.play_out()
        scores, winner = state.scores, state.winner
        assert max(scores) >= 150 and scores[winner] == min(scores), (seed, scores, winner)
        assert all(s > scores[winner] for s in scores[:winner]), (seed, scores, winner)
        rounds += state.round
    assert rounds > 12                          # matches of several rounds, not one


def test_an_after_draw_event_whose_guard_fails_is_not_pushed_and_games_are_unchanged(monkeypatch):
    """Teams' tag-back runs on every draw under `if partner is out`: tested before a frame is pushed, same games."""
    game = unodsl.load("variants/teams.yaml", fast=True)
    guard = game.after_draw_guard
    assert guard is not None
    answers = Counter()

    def counted(state, frame):
        answer = guard(state, frame)
        answers[answer] += 1
        return answer
    for seed in range(16):
        monkeypatch.setattr(game, "after_draw_guard", counted)
        tested = game.new_game(4, seed=seed)
        tested.play_out()
        monkeypatch.setattr(game, "after_draw_guard", None)       # every draw pushes the event's frame
        pushed = game.new_game(4, seed=seed)
        pushed.play_out()
        assert tested.to_json() == pushed.to_json(), seed
    assert answers[False] > 1000 and answers[True] > 5, answers


def test_play_out_reads_all_wilds_may_draw_rule_past_an_empty_neighbour():
    """play_out answers `hand(next) == 1` in place; past a neighbour with no cards it asks the condition itself."""
    game = unodsl.load("variants/all-wild.yaml", fast=True)
    assert game.may_draw_next_answers is not None
    compared = drew_first = 0
    for seed in range(40):
        state = game.new_game(4, seed=seed)
        assert state.decision == "turn"
        p, d = state.current_player, state.direction
        neighbour, beyond = (p + d) % 4, (p + 2 * d) % 4
        # The neighbour holds nothing; the seat beyond holds one card: the current player may draw.
        state.draw_pile += state.hands[neighbour] + state.hands[beyond][1:]
        state.hands[neighbour], state.hands[beyond] = [], state.hands[beyond][:1]
        assert game.may_draw_if(state, game.seat_frames[p]) is True
        fast, listed = state.clone(), state.clone()
        fast.play_out(random.Random(seed).random)
        _random_loop(listed, random.Random(seed).random)
        assert fast.to_json() == listed.to_json(), seed
        compared += 1
        drew_first += fast.history[0] == game.A_DRAW
    assert compared == 40 and drew_first >= 2


def test_shuffle_is_the_sort_by_one_random_key_per_card_that_saved_games_were_dealt_with():
    """A game log replays from its seed: the shuffle must give the permutation, and leave the generator, as before.

    Before, the key was a `lambda _: rng.random()` per card; the shuffle now draws the
    same keys in the same order without a Python call per card.
    """
    from unodsl.engine import shuffle
    deck = list(unodsl.load("variants/classic.yaml").deck)
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards, expected = list(deck), list(deck)
        shuffle(cards, ours)
        expected.sort(key=lambda _: theirs.random())
        assert cards == expected and ours.getstate() == theirs.getstate(), seed
    assert cards != deck and Counter(cards) == Counter(deck)


def test_observation_shows_the_whole_discard_pile_to_everyone(classic):
    state = classic.new_game(4, seed=8)
    rng = random.Random(8)
    for _ in range(60):
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    expected = sorted(classic.card_names[k] for k in state.discard)
    assert len(expected) == len(state.discard) > 1
    assert all(state.observation(p)["discard"] == expected for p in range(4))


# --- rule modes --------------------------------------------------------------------------------

def _schema_enum(*path):
    from unodsl.source import schema
    node = json.loads(Path(schema.__file__).with_name("schemas").joinpath("variant.schema.json").read_text())
    for key in path:
        node = node[key]
    return node["enum"]


@pytest.mark.parametrize("mode, path", [
    ("Dealer", ("properties", "deal", "properties", "dealer")),
    ("NoPlayable", ("properties", "turn", "properties", "no_playable")),
    ("DrawnCard", ("properties", "turn", "properties", "drawn_card")),
    ("Stacking", ("properties", "stacking", "properties", "answer")),
    ("RoundEnds", ("properties", "round", "properties", "ends_when")),
    ("Stall", ("properties", "round", "properties", "stall")),
    ("Scoring", ("properties", "scoring", "properties", "mode")),
    ("ScoreBy", ("properties", "scoring", "properties", "by")),
    ("RestrictionCheck", ("$defs", "card", "properties", "restriction_check")),
    ("LastCard", ("$defs", "card", "properties", "last_card")),
])
def test_every_rule_mode_is_the_schemas_list_of_words(mode, path):
    from unodsl.model import variant as model
    assert sorted(getattr(model, mode)) == sorted(_schema_enum(*path))


def test_a_variant_holds_its_rule_modes_as_members_that_equal_their_words():
    from unodsl.model.variant import Dealer, DrawnCard, NoPlayable, Stacking
    v = unodsl.load("variants/house-rules/stacking-plus4-on-plus2.yaml").variant
    assert v.stacking is Stacking.PLUS4_ON_PLUS2 and v.stacking == "plus4_on_plus2"
    assert v.no_playable is NoPlayable.DRAW_ONE and v.drawn_card is DrawnCard.OPTIONAL
    assert isinstance(v.dealer, Dealer)


def test_a_mode_the_schema_refuses_is_reported_and_the_game_still_builds(tmp_path):
    from unodsl.check import check_file
    variant = tmp_path / "sideways.yaml"
    variant.write_text(f"unodsl: 1\nname: sideways stacking\nextends: {Path('variants/classic.yaml').resolve()}\n"
                       "stacking:\n  answer: sideways\nround:\n  stall: politely\n")
    result = check_file(str(variant), "/")
    assert {d.code[:2] for d in result.errors} == {"E2"} and result.game is not None
    assert result.variant.stacking == "same_type" and result.variant.stall == "fewest_points"   # the defaults


@pytest.mark.parametrize("rule, answers", [
    # Which of draw_two and wild_draw_four answer a penalty on each: [on draw_two, on wild_draw_four].
    ("stacking-progressive", [{"draw_two"}, {"wild_draw_four"}]),
    ("stacking-equal-or-higher", [{"draw_two", "wild_draw_four"}, {"wild_draw_four"}]),
    ("stacking-plus4-on-plus2", [{"draw_two", "wild_draw_four"}, {"wild_draw_four"}]),
])
def test_the_stack_table_answers_by_the_variants_stacking_rule(rule, answers):
    game = unodsl.load(f"variants/house-rules/{rule}.yaml")
    names = game.card_names
    kinds = {t: [k for k in range(game.num_kinds) if game.k_type_id[k] == t] for t in ("draw_two", "wild_draw_four")}
    got = [{game.k_type_id[k] for k in game.stack_answers[kinds[top][0]]} for top in ("draw_two", "wild_draw_four")]
    assert got == answers, [sorted(names[k] for k in row) for row in got]
    assert not any(unodsl.load("variants/classic.yaml").stack_answers)       # no stacking: nothing answers


@pytest.mark.parametrize("fast", [True, False])
def test_a_state_has_slots_only_through_all_its_mixins(fast):
    """Each of State's (and Game's) jobs is a slot-free mixin: one without `__slots__ = ()` would add a dict."""
    game = unodsl.load("variants/classic.yaml", fast=fast)
    state = game.new_game(4, seed=1)
    for made in (game, state):
        assert not hasattr(made, "__dict__")
        assert all("__slots__" in vars(cls) for cls in type(made).__mro__ if cls is not object)
