"""The bots: they play whole games legally, they are reproducible, and they cannot read hidden cards.

The leak test deals the cards a seat cannot see again (`resample_hidden`: other hands, the
draw pile, the engine's generator) and asks a copy of the bot, with the same generator, to
decide on both states: a bot that sees only its seat's view must choose the same action. A
bot written to peek at the next hand, and the cheat, are caught by the same test.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import unodsl
from unodsl.agents.bots import BOTS, HeuristicBot, make_bot
from unodsl.agents.view import SeatView, public_state
from unodsl.agents.worlds import Knowledge, WorldSampler
from unodsl.effects import layout as D
from unodsl.rl import resample_hidden

# Tables where hidden cards move in every way the sampler knows of: a Wild Draw Four to challenge
# (classic, Teams), looks and trades (Grogu), gifts and exchanges (Teams), swaps and rotations (Seven-O),
# eliminated hands under the discard pile and draws until a color (No Mercy), a two-sided deck whose
# other faces show (Flip), draws of a random number of cards and a whole color discarded (UNO Attack!).
TABLES = [("variants/classic.yaml", 2), ("variants/all-wild-grogu.yaml", 3), ("variants/teams.yaml", 4),
          ("variants/house-rules/seven-o.yaml", 3), ("variants/no-mercy.yaml", 4),
          ("variants/flip.yaml", 3), ("variants/uno-attack.yaml", 3)]
# Search bots at sizes a test can afford; without the guard (guard=0) every choice is the search's own.
SMALL = ["random", "heuristic", "expert", "pimc:2:guard=0", "ismcts:8:guard=0", "ismcts:8:rollout=greedy:guard=0", "ismcts:8"]


class PeekingBot(HeuristicBot):
    """A deliberately leaking bot: it plays the card the next seat can answer with the fewest cards."""

    def act(self, state) -> int:
        legal = state.legal_action_ids()
        g = state.g
        plays = [a for a in legal if a < 2 * g.num_kinds]
        if state.decision != D.TURN or len(plays) < 2:
            return super().act(state)
        nxt = state.hands[(state.current_player + 1) % state.n]

        def answers(a):
            k = a % g.num_kinds
            return sum(g.k_color[q] == g.k_color[k] or g.k_type[q] == g.k_type[k] for q in nxt)

        return min(plays, key=lambda a: (answers(a), a))


def _game(path):
    return unodsl.load(path)


def decisions(path, players, seed, bot_names, limit):
    """Play a game with the named bots (seat i plays bot_names[i % len]); yield (state, bot) before each
    decision with a choice, up to `limit`; the bot then plays its own choice."""
    game = _game(path)
    state = game.new_game(players, seed=seed)
    bots = [make_bot(bot_names[i % len(bot_names)], random.Random(seed * 10 + i)) for i in range(players)]
    seen = 0
    while not state.is_over and seen < limit:
        bot = bots[state.current_player]
        if len(state.legal_action_ids()) > 1:
            yield game, state, bot
            seen += 1
        state.apply(bot.act(state))


def leaks(path, players, seed, bot_names, limit, make=None):
    """The decisions at which a bot chose differently once the hidden cards were dealt again."""
    found = []
    rng = random.Random(seed)
    for game, state, bot in decisions(path, players, seed, bot_names, limit):
        seat = state.current_player
        redealt = resample_hidden(game, state, seat, rng)
        if state.hands == redealt.hands and state.draw_pile == redealt.draw_pile:
            continue                                    # nothing hidden moved: no test here
        suspect = make() if make else bot
        first, second = copy.deepcopy(suspect), copy.deepcopy(suspect)
        if first.act(state) != second.act(redealt):
            found.append((state.total_turns, state.decision))
    return found


@pytest.mark.parametrize("path, players", TABLES)
@pytest.mark.parametrize("name", SMALL)
def test_a_bot_chooses_the_same_whatever_the_hidden_cards(path, players, name):
    assert leaks(path, players, 5, [name, "heuristic"], 25) == []


@pytest.mark.parametrize("path, players", TABLES[:1] + TABLES[2:3])
def test_the_leak_test_catches_a_bot_that_peeks(path, players):
    caught = sum(len(leaks(path, players, seed, ["heuristic"], 60, make=lambda: PeekingBot(random.Random(1))))
                 for seed in range(4))
    assert caught >= 3


def test_the_leak_test_catches_the_cheat():
    assert leaks("variants/classic.yaml", 2, 5, ["heuristic"], 20, make=lambda: make_bot("cheat:3", random.Random(1)))


@pytest.mark.parametrize("path, players", TABLES)
def test_the_public_state_is_the_same_for_every_deal_of_the_hidden_cards(path, players):
    rng = random.Random(2)
    checked = 0
    for seed in range(3):
        for game, state, _ in decisions(path, players, seed, ["heuristic"], 30):
            seat = state.current_player
            redealt = resample_hidden(game, state, seat, rng)
            assert public_state(redealt, seat) == public_state(state, seat), state.total_turns
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("path, players", TABLES)
def test_every_world_looks_like_the_real_state_to_the_seat(path, players):
    """A sampled world has the seat's whole public state, the same legal actions, and is played on legally."""
    rng = random.Random(3)
    knowledge = {}
    for _, state, _ in decisions(path, players, 13, ["heuristic"], 40):
        view = SeatView(state)
        know = knowledge.setdefault(view.seat, Knowledge())
        know.update(view)
        sampler = WorldSampler(view, know)
        for _ in range(3):
            world = sampler.sample(rng)
            assert public_state(world, view.seat) == view.public
            assert world.legal_action_ids() == view.legal
            assert sorted(world.hands[view.seat]) == sorted(state.hands[view.seat])
        world.play_out(rng.random)
        assert world.is_over


def test_a_hand_seen_in_a_trade_is_dealt_as_it_is():
    """Grogu's look shows the target's hand: while trading, every world gives the target that hand."""
    game = _game("variants/all-wild-grogu.yaml")
    rng = random.Random(4)
    trades = 0
    for seed in range(40):
        state = game.new_game(3, seed=seed)
        knowledge = {p: Knowledge() for p in range(3)}
        bot = HeuristicBot(random.Random(seed))
        while not state.is_over:
            if state.decision == D.TRADE:
                view = SeatView(state)
                knowledge[view.seat].update(view)
                other = view.public["pending"][2]
                world = WorldSampler(view, knowledge[view.seat]).sample(rng)
                assert sorted(world.hands[other]) == sorted(state.hands[other])
                trades += 1
            state.apply(bot.act(state))
        if trades >= 5:
            break
    assert trades >= 5


def test_a_challenged_wild_draw_four_is_judged_on_the_worlds_hand():
    """Worlds differ in whether the Wild Draw Four was a bluff, as the challenged hand they deal says."""
    game = _game("variants/classic.yaml")
    rng = random.Random(6)
    verdicts = set()
    for seed in range(200):
        state = game.new_game(2, seed=seed)
        bot = HeuristicBot(random.Random(seed))
        while not state.is_over and state.decision != D.CHALLENGE:
            state.apply(bot.act(state))
        if state.is_over:
            continue
        view = SeatView(state)
        know = Knowledge()
        know.update(view)
        sampler = WorldSampler(view, know)
        for _ in range(20):
            world = sampler.sample(rng)
            honest = world.frames[-1][D.F_HONEST]
            verdicts.add(honest)
            # The verdict decides the challenge: a bluff makes its player draw, else the challenger.
            loser = view.seat if honest else view.played_by()
            before = len(world.hands[loser])
            world.apply_id(game.A_CHALLENGE)
            assert len(world.hands[loser]) > before
        if verdicts == {True, False}:
            break
    assert verdicts == {True, False}


@pytest.mark.parametrize("path, players", [("variants/classic.yaml", 2), ("variants/all-wild.yaml", 3),
                                           ("variants/teams.yaml", 4)])
@pytest.mark.parametrize("name", ["random", "heuristic", "expert", "pimc:2", "ismcts:6", "cheat:2"])
def test_each_bot_plays_whole_games_legally_and_reproducibly(path, players, name):
    game = _game(path)
    histories = []
    for _ in range(2):
        state = game.new_game(players, seed=21)
        bots = [make_bot(name if seat == 0 else "heuristic", random.Random(seat)) for seat in range(players)]
        while not state.is_over:
            state.apply(bots[state.current_player].act(state))      # apply() refuses an illegal action
        histories.append(state.history)
    assert state.winner is not None
    assert histories[0] == histories[1]


def test_a_search_bot_beats_random_in_a_few_games():
    """Not a strength measurement (benchmarks/bench_bots.py is): a sanity check that search helps."""
    game = _game("variants/all-wild.yaml")
    wins = 0
    for seed in range(12):
        state = game.new_game(2, seed=seed)
        bots = {seed % 2: make_bot("ismcts:20:guard=0", random.Random(seed)), 1 - seed % 2: make_bot("random", random.Random(seed))}
        while not state.is_over:
            state.apply(bots[state.current_player].act(state))
        wins += state.winner == seed % 2
    assert wins >= 8


def test_the_colours_a_seat_is_believed_to_lack_are_lacked():
    """Against the heuristic bot, which draws only when it cannot play, every colour the expert believes
    the other seat lacks is one it holds no card of."""
    game = _game("variants/classic.yaml")
    believed = 0
    for seed in range(40):
        state = game.new_game(2, seed=seed)
        bots = [make_bot("expert", random.Random(seed)), make_bot("heuristic", random.Random(seed))]
        while not state.is_over:
            action = bots[state.current_player].act(state)
            if state.current_player == 0:
                for q, colors in bots[0].lacks[0].lacks.items():
                    held = {game.k_color[k] for k in state.hands[q]}
                    assert not colors & held, (seed, state.total_turns)
                    believed += len(colors)
            state.apply_id(action)
    assert believed >= 100


def test_a_colour_believed_lacked_is_forgotten_when_the_seat_may_hold_it():
    """Set by a draw of one with nothing played; dropped by a play of that colour or any other growth."""
    from types import SimpleNamespace

    from unodsl.agents.inference import Lacks
    game = _game("variants/classic.yaml")
    red, red_5, blue_5 = 0, game.card_index["red_5"], game.card_index["blue_5"]
    lacks = Lacks()

    def turn(discard, sizes, color=red, play=True):
        view = SimpleNamespace(game=game, seat=0, round=0, discard=discard, hand_sizes=sizes, color=color,
                               decision=D.TURN)
        lacks.update(view)
        lacks.acted(view, red_5 if play else game.A_DRAW)
        return dict(lacks.lacks)

    assert turn([blue_5], [7, 7]) == {}
    assert turn([blue_5, red_5], [6, 8]) == {1: {red}}                  # it drew one on red and played nothing
    assert turn([blue_5, red_5, red_5, red_5], [5, 7]) == {}             # it played a red: it held one
    assert turn([blue_5, red_5, red_5, red_5, red_5], [4, 8]) == {1: {red}}
    assert turn([blue_5, red_5, red_5, red_5, red_5, red_5], [3, 10]) == {}   # it drew two: they may be red


def test_make_bot_reads_options():
    rng = random.Random(0)
    assert make_bot("ismcts:50", rng).iterations == 50
    bot = make_bot("ismcts:iterations=30:c=1.5:rollout=random", rng)
    assert (bot.iterations, bot.c, bot.rollout) == (30, 1.5, "random")
    bot = make_bot("pimc:7:rollout=heuristic:guard=0", rng)
    assert (bot.worlds, bot.rollout, bot.guard) == (7, "heuristic", 0.0)
    assert set(BOTS) == {"random", "heuristic", "expert", "pimc", "ismcts", "cheat"}


@pytest.mark.parametrize("name, message", [
    ("minimax", "unknown bot 'minimax' (choose from random, heuristic, expert, pimc, ismcts, cheat)"),
    ("heuristic:3", "bot 'heuristic' takes no options"),
    ("expert:3", "bot 'expert' takes no options"),
    ("ismcts:0", "bot 'ismcts' option iterations='0': must be at least 1"),
    ("ismcts:depth=3", "bot 'ismcts' has no option 'depth' (options: iterations, c, rollout, guard)"),
    ("pimc:rollout=smart", "bot 'pimc' option rollout='smart': choose from greedy, random, heuristic"),
    ("ismcts:c=-1", "bot 'ismcts' option c='-1': must be a number of at least 0"),
])
def test_make_bot_refuses_what_it_does_not_know(name, message):
    with pytest.raises(ValueError) as err:
        make_bot(name, random.Random(0))
    assert str(err.value) == message


def test_a_search_bot_plays_a_match_for_points():
    """In a match a rollout ends with its round, and the reward is the round's points: the match still ends."""
    game = _game("variants/all-wild.yaml")
    state = game.new_game(2, seed=8, match=True)
    bots = [make_bot("pimc:2", random.Random(1)), make_bot("ismcts:6", random.Random(2))]
    while not state.is_over:
        state.apply(bots[state.current_player].act(state))
    assert state.winner is not None and state.round > 1


def test_rewards_share_a_rounds_points_by_team():
    from unodsl.agents.rollout import rewards
    game = _game("variants/teams.yaml")
    state = game.new_game(4, seed=1)
    start = list(state.scores)
    foe = next(q for q in range(4) if not state.same_team(0, q))
    state.scores[0] += 30
    state.scores[foe] += 10
    assert rewards(state, 4, start) == [0.75 if state.same_team(0, q) else 0.25 for q in range(4)]


# --- declared variables: a seat's private value is its own

PRESSURE = "variants/house-rules/pressure.yaml"


def _other_shields(state, seat: int, rng) -> State:
    """A copy of `state` with every other seat's private shield drawn at random (what `seat` cannot see)."""
    from unodsl.engine import State
    data = json.loads(state.to_json())
    for q, values in enumerate(data["pvars"]):
        if q != seat:
            values[0] = rng.random() < 0.5
    return State.from_json(state.g, json.dumps(data))


@pytest.mark.parametrize("name", ["heuristic", "expert", "pimc:2:guard=0", "ismcts:8:guard=0"])
def test_a_bot_chooses_the_same_whatever_the_other_seats_private_values(name):
    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        for game, state, _ in decisions(PRESSURE, 3, seed, ["heuristic"], 12):
            seat = state.current_player
            other = _other_shields(state, seat, rng)
            assert public_state(other, seat) == public_state(state, seat)
            first, second = make_bot(name, random.Random(seed)), make_bot(name, random.Random(seed))
            assert first.act(state) == second.act(other), (seed, state.total_turns)
            checked += 1
    assert checked >= 30


def test_the_public_state_shows_a_seat_its_own_shield_only():
    game = _game(PRESSURE)
    state = game.new_game(3, seed=1)
    data = json.loads(state.to_json())
    data["pvars"] = [[True], [False], [True]]
    from unodsl.engine import State
    state = State.from_json(game, json.dumps(data))
    assert public_state(state, 1)["pvars"] == [[None], [False], [None]]
    assert SeatView(state).variables["player_state"]["shield"][state.current_player] is not None
