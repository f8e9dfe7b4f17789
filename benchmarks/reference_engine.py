"""Hand-written pure-Python engine for classic UNO, the speed baseline for unodsl."""

# Rules (random policy for every decision):
#
# * 108 cards: per colour (red, yellow, green, blue) one 0, two each of 1-9,
#   two Draw Two, two Reverse, two Skip; plus 4 Wild and 4 Wild Draw Four.
# * The dealer is a uniformly random seat; 7 cards each; the first player is
#   the dealer's left (dealer + 1).  The flipped starter acts as follows:
#   number -> normal; Draw Two -> first player draws 2 and is skipped;
#   Skip -> first player is skipped; Reverse -> direction reversed and the
#   dealer plays first; Wild -> the first player picks the colour, then plays;
#   Wild Draw Four -> put back, deck reshuffled, flip again.
# * A turn: the options are the distinct legal card values in hand (same
#   colour, same number/symbol, or any wild; Wild Draw Four is always legal,
#   i.e. bluffing is allowed) plus "draw".  After a draw the drawn card, if
#   playable, is played or kept with probability 1/2 each; otherwise the turn
#   ends.  Wild colours are chosen uniformly among the 4.
# * Draw Two: next draws 2 and is skipped.  Skip: next is skipped.  Reverse:
#   direction flips (with 2 players it also skips the next, i.e. acts as Skip).
#   Wild Draw Four: the next player challenges or accepts with probability 1/2;
#   guilty (the player still held a card of the colour current before the Wild
#   Draw Four) -> the Wild Draw Four player draws 4 and the challenger plays
#   normally; innocent -> the challenger draws 6 and is skipped; accept -> the
#   next draws 4 and is skipped.  The declared colour stands in every case.
# * An empty draw pile is refilled by shuffling the discard pile minus its top
#   card (one "reshuffle"); if that is empty too, nothing is drawn.
# * The round ends when a player has no cards after the effects of their play
#   resolve (a last Draw Two / Wild Draw Four still makes the next player draw;
#   a player who went out with a Wild Draw Four is always innocent).
# * UNO calls are out of scope: every player is assumed to call "UNO" in time,
#   so there are no penalties for forgetting.
#
# A *turn* is one decision of the player whose turn it is: playing a card from
# hand, or drawing (a draw followed by playing the drawn card is one turn).
# Forced draws (Draw Two, Wild Draw Four, challenge penalties), skipped players,
# colour choices and the challenge/accept decision are not turns.  A game that
# reaches MAX_TURNS turns is stopped with winner -1.
#
# Speed notes: cards are ints 0..53 (colour * 13 + rank for coloured cards,
# 52 = Wild, 53 = Wild Draw Four; identical cards share a value).  Each hand is
# a list of 54 per-value counts plus an int bitmask of the values held, so the
# distinct legal options are `mask & row` (`row`: a precomputed legality
# mask of the top card and colour) and their number is `int.bit_count()`.
# Seat order uses precomputed successor tuples, piles are plain lists, every
# decision is one `random.Random.random()` call, and nothing is allocated per
# turn beyond Python ints and floats.  Hands kept as lists of card values with a
# set of distinct legal values per turn measured about 2x slower.
#
# Decision rule: with `n` legal options ordered by ascending card value, the
# player takes `r = random() * (n + 1)`; option `int(r)` is played, and
# `int(r) == n` means "draw".  Coins (play/keep a drawn card, challenge/accept)
# are `random() < 0.5` for the first alternative; colours are
# `int(random() * 4)` indexing red, yellow, green, blue.

from __future__ import annotations

import random
import time

NUM_COLORS = 4
COLOR_NAMES = ("red", "yellow", "green", "blue")
RANK_NAMES = tuple(str(n) for n in range(10)) + (
    "skip", "reverse", "draw2", "wild", "wild_draw4")
SKIP, REVERSE, DRAW2, WILD_RANK, WD4_RANK = 10, 11, 12, 13, 14
NUM_RANKS = 15
WILD = 52
WILD_DRAW4 = 53
NUM_VALUES = 54
NO_COLOR = 4

MAX_TURNS = 10_000
HAND_SIZE = 7

# Card kinds drive the effect dispatch in the main loop.
K_NUMBER, K_SKIP, K_REVERSE, K_DRAW2, K_WILD, K_WD4 = range(6)

COLOR = bytes([v // 13 for v in range(52)] + [NO_COLOR, NO_COLOR])
RANK = bytes([v % 13 for v in range(52)] + [WILD_RANK, WD4_RANK])
KIND = bytes(
    [K_NUMBER if r < 10 else {SKIP: K_SKIP, REVERSE: K_REVERSE, DRAW2: K_DRAW2}[r]
     for r in RANK[:52]] + [K_WILD, K_WD4])

BIT = tuple(1 << v for v in range(NUM_VALUES))

# LEGAL[color * NUM_RANKS + top_rank] has bit `value` set when that card may be played.
LEGAL = tuple(
    sum(BIT[v] for v in range(NUM_VALUES)
        if v >= WILD or COLOR[v] == color or RANK[v] == rank)
    for color in range(NUM_COLORS) for rank in range(NUM_RANKS))
# After a coloured card the legal set depends on the card alone; after a wild, on the colour alone.
CARD_ROW = tuple(LEGAL[COLOR[v] * NUM_RANKS + RANK[v]] for v in range(WILD))
WILD_ROW = tuple(LEGAL[c * NUM_RANKS + WILD_RANK] for c in range(NUM_COLORS))
assert WILD_ROW == tuple(LEGAL[c * NUM_RANKS + WD4_RANK] for c in range(NUM_COLORS))
COLOR_MASK = tuple(sum(BIT[v] for v in range(WILD) if COLOR[v] == c) for c in range(NUM_COLORS))

DECK = tuple(
    [c * 13 for c in range(NUM_COLORS)]
    + [c * 13 + r for c in range(NUM_COLORS) for r in range(1, 13) for _ in range(2)]
    + [WILD] * 4 + [WILD_DRAW4] * 4)
assert len(DECK) == 108


def card_name(value: int) -> str:
    """Return a readable name such as 'red-7' or 'wild_draw4' for a card value."""
    if value >= WILD:
        return RANK_NAMES[RANK[value]]
    return f"{COLOR_NAMES[COLOR[value]]}-{RANK_NAMES[RANK[value]]}"


def card(color: str, rank: str) -> int:
    """Return the card value for a colour name and rank name (colour ignored for wilds)."""
    r = RANK_NAMES.index(rank)
    if r == WILD_RANK:
        return WILD
    if r == WD4_RANK:
        return WILD_DRAW4
    return COLOR_NAMES.index(color) * 13 + r


class State:
    """Mutable game state of plain lists and ints, buildable from card lists for tests."""

    __slots__ = ("counts", "masks", "draw", "discard", "color", "current", "direction",
                 "rng", "turns", "reshuffles", "winner", "dealer")

    def __init__(self, hands: list[list[int]], draw: list[int], discard: list[int],
                 color: int, current: int, direction: int = 1,
                 rng: random.Random | None = None):
        self.counts: list[list[int]] = [[0] * NUM_VALUES for _ in hands]  # per seat, per value
        self.masks: list[int] = [0] * len(hands)  # per seat, bit v set iff counts[v] > 0
        for seat, hand in enumerate(hands):
            for value in hand:
                self.counts[seat][value] += 1
                self.masks[seat] |= BIT[value]
        self.draw: list[int] = draw          # top of the pile is the end of the list
        self.discard: list[int] = discard    # top card is discard[-1]
        self.color: int = color              # current colour (declared colour after a wild)
        self.current: int = current          # seat whose turn it is
        self.direction: int = direction      # +1 or -1
        self.rng: random.Random = rng if rng is not None else random.Random()
        self.turns: int = 0
        self.reshuffles: int = 0
        self.winner: int | None = None       # seat, -1 if stopped by the turn cap
        self.dealer: int | None = None       # set by new_game()

    def hand(self, seat: int) -> list[int]:
        """Return the cards held by `seat`, sorted by value."""
        return [v for v in range(NUM_VALUES) for _ in range(self.counts[seat][v])]

    def all_cards(self) -> list[int]:
        """Return every card in the game (hands, draw pile, discard pile)."""
        cards = self.draw + self.discard
        for seat in range(len(self.counts)):
            cards.extend(self.hand(seat))
        return cards


def _reshuffle(draw: list[int], discard: list[int], rng: random.Random) -> bool:
    """Shuffle the discard pile minus its top card into the draw pile; False if nothing moved."""
    if len(discard) < 2:
        return False
    top = discard.pop()
    draw.extend(discard)
    discard.clear()
    discard.append(top)
    rng.shuffle(draw)
    return True


def _deal(state: State, seat: int, count: int) -> int:
    """Give `seat` up to `count` cards, reshuffling as needed; return the reshuffle count."""
    draw = state.draw
    hand = state.counts[seat]
    mask = state.masks[seat]
    reshuffles = 0
    for _ in range(count):
        if not draw:
            if not _reshuffle(draw, state.discard, state.rng):
                break
            reshuffles += 1
        value = draw.pop()
        hand[value] += 1
        mask |= BIT[value]
    state.masks[seat] = mask
    return reshuffles


def new_game(num_players: int, seed: int) -> State:
    """Shuffle, pick the dealer, deal and resolve the starter card for a seeded game."""
    if not 2 <= num_players <= 10:
        raise ValueError("num_players must be between 2 and 10")
    rng = random.Random(seed)
    draw = list(DECK)
    rng.shuffle(draw)
    dealer = rng.randrange(num_players)
    hands = []
    for _ in range(num_players):
        hands.append(draw[-HAND_SIZE:])
        del draw[-HAND_SIZE:]
    starter = draw.pop()
    while starter == WILD_DRAW4:
        draw.append(starter)
        rng.shuffle(draw)
        starter = draw.pop()
    first = (dealer + 1) % num_players
    state = State(hands, draw, [starter], COLOR[starter], first, 1, rng)
    state.dealer = dealer
    kind = KIND[starter]
    if kind == K_DRAW2:
        _deal(state, first, 2)
        state.current = (first + 1) % num_players
    elif kind == K_SKIP:
        state.current = (first + 1) % num_players
    elif kind == K_REVERSE:
        state.direction = -1
        state.current = dealer
    elif kind == K_WILD:
        state.color = int(rng.random() * NUM_COLORS)
    return state


def legal_options(state: State) -> list[int]:
    """Return the current player's distinct playable values, in the order `advance` indexes them."""
    legal = state.masks[state.current] & LEGAL[state.color * NUM_RANKS + RANK[state.discard[-1]]]
    return [v for v in range(NUM_VALUES) if legal >> v & 1]


def advance(state: State, max_turns: int = MAX_TURNS) -> State:
    """Play random turns until a player wins or `state.turns` hits `max_turns` (winner None)."""
    counts = state.counts
    masks = state.masks
    draw = state.draw
    discard = state.discard
    rng = state.rng
    rand = rng.random
    color = state.color
    cur = state.current
    direction = state.direction
    turns = state.turns
    reshuffles = state.reshuffles
    players = len(counts)
    clockwise = tuple((seat + 1) % players for seat in range(players))
    counterclockwise = tuple((seat - 1) % players for seat in range(players))
    following = clockwise if direction == 1 else counterclockwise
    kinds = KIND
    colors = COLOR
    bits = BIT
    card_rows = CARD_ROW
    wild_rows = WILD_ROW
    color_masks = COLOR_MASK
    number, skip, reverse, wild, wild_draw4 = K_NUMBER, K_SKIP, K_REVERSE, K_WILD, K_WD4
    row = LEGAL[color * NUM_RANKS + RANK[discard[-1]]]
    winner = None

    while turns < max_turns:
        turns += 1
        hand = counts[cur]
        legal = masks[cur] & row
        n = legal.bit_count()
        pick = rand() * (n + 1)  # int(pick) indexes the options; n means "draw"
        if pick < n:
            while pick >= 1.0:  # drop the lowest set bits to reach option int(pick)
                legal &= legal - 1
                pick -= 1.0
            bit = legal & -legal
            value = bit.bit_length() - 1
        else:
            # Voluntary draw; the drawn card may be played at once.
            if not draw and _reshuffle(draw, discard, rng):
                reshuffles += 1
            if not draw:
                cur = following[cur]
                continue
            value = draw.pop()
            bit = bits[value]
            if not hand[value]:
                masks[cur] |= bit
            hand[value] += 1
            if not row & bit or rand() >= 0.5:  # unplayable, or chose to keep it (coin >= 0.5)
                cur = following[cur]
                continue

        left = hand[value] - 1
        hand[value] = left
        if not left:
            masks[cur] ^= bit
        discard.append(value)
        seat = cur
        kind = kinds[value]
        if kind == number:
            color = colors[value]
            row = card_rows[value]
            cur = following[cur]
        elif kind == wild:
            color = int(rand() * NUM_COLORS)
            row = wild_rows[color]
            cur = following[cur]
        elif kind == wild_draw4:
            previous = color
            color = int(rand() * NUM_COLORS)
            row = wild_rows[color]
            victim = following[cur]
            challenged = rand() < 0.5  # the victim challenges or accepts
            if challenged and masks[cur] & color_masks[previous]:
                # Challenged and guilty: the player held a card of the previous colour.
                reshuffles += _deal(state, cur, 4)
                cur = victim
            else:
                # Innocent (challenger draws 6) or accepted (draws 4); skipped either way.
                reshuffles += _deal(state, victim, 6 if challenged else 4)
                cur = following[victim]
        else:
            color = colors[value]
            row = card_rows[value]
            if kind == skip:
                cur = following[following[cur]]
            elif kind == reverse:
                direction = -direction
                following = clockwise if direction == 1 else counterclockwise
                if players != 2:  # with two players Reverse acts as Skip: same seat again
                    cur = following[cur]
            else:  # Draw Two
                victim = following[cur]
                reshuffles += _deal(state, victim, 2)
                cur = following[victim]
        if not masks[seat]:
            winner = seat
            break

    state.color = color
    state.current = cur
    state.direction = direction
    state.turns = turns
    state.reshuffles = reshuffles
    state.winner = winner
    return state


def play_game_checked(num_players: int, seed: int, max_turns: int = MAX_TURNS) -> State:
    """Play one seeded game and return its final State (winner -1 if stopped by the cap)."""
    state = advance(new_game(num_players, seed), max_turns)
    if state.winner is None:
        state.winner = -1
    return state


def play_game(num_players: int, seed: int) -> tuple[int, int]:
    """Play one seeded game and return (winner seat or -1, turns)."""
    state = advance(new_game(num_players, seed), MAX_TURNS)
    winner = state.winner
    return (-1 if winner is None else winner), state.turns


def game_seeds(num_games: int, seed: int) -> list[int]:
    """Return the per-game seeds that `run` uses for a master seed."""
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(num_games)]


def run(num_games: int, num_players: int, seed: int) -> dict:
    """Play `num_games` seeded games and return timing and outcome statistics."""
    seeds = game_seeds(num_games, seed)
    wins = [0] * num_players
    stalled = 0
    turns = 0
    reshuffles = 0
    max_game_turns = 0
    start = time.perf_counter()
    for game_seed in seeds:
        state = advance(new_game(num_players, game_seed), MAX_TURNS)
        if state.winner is None:
            stalled += 1
        else:
            wins[state.winner] += 1
        turns += state.turns
        reshuffles += state.reshuffles
        if state.turns > max_game_turns:
            max_game_turns = state.turns
    elapsed = time.perf_counter() - start
    return {
        "engine": "reference",
        "games": num_games,
        "players": num_players,
        "seed": seed,
        "seconds": elapsed,
        "games_per_s": num_games / elapsed if elapsed else float("inf"),
        "turns_per_s": turns / elapsed if elapsed else float("inf"),
        "turns": turns,
        "turns_per_game": turns / num_games if num_games else 0.0,
        "max_turns_in_a_game": max_game_turns,
        "reshuffles": reshuffles,
        "reshuffles_per_game": reshuffles / num_games if num_games else 0.0,
        "wins": wins,
        "stalled": stalled,
    }


if __name__ == "__main__":
    import json
    import sys

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(json.dumps(run(games, 4, 0), indent=2))
