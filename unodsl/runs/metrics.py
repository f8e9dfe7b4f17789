"""What a designer balances, measured game by game: length, fairness, draws, stacks, cards, drama.

A `GameMetrics` watches one game as it is played, one decision at a time, through the
state's public fields only (hand sizes, pile sizes, the stack, the decision and who
makes it), and gives that game's figures when it ends. `Report` sums those figures
over many games in constant memory (sums, counters and histograms) and merges like
`Stats`, so a run split over processes reports the same. docs/analytics.md defines
every figure and gives its source.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from ..effects import layout as D
from .intervals import percentiles, wilson
from .seeds import seat_bots

# The figures of one game that `unodsl compare` differences game by game (name, words).
PER_GAME = (
    ("turns", "turns per game"),
    ("decisions", "decisions per game"),
    ("truncated", "games that hit the turn limit"),
    ("first_player_won", "first player's win rate"),
    ("cards_drawn", "cards drawn per game"),
    ("forced_draws", "cards drawn by force per game"),
    ("largest_hand", "largest hand of the game"),
    ("longest_stack", "longest stack of the game"),
    ("reshuffles", "reshuffles per game"),
    ("lead_changes", "lead changes per game"),
    ("drama", "drama (share of the winner's decisions spent behind)"),
)
_TURN = D.TURN
# Figures kept as integers in units smaller than one: drama, a share, in billionths.
SCALE = {"drama": 10**9}


class GameMetrics:
    """One game's figures, gathered by `step` at every decision and totalled by `finish`.

    `step` is called before each action is applied: it first counts what the previous
    action did (hand sizes, piles and stack then and now), then notes this one; `finish`
    counts the last. One call a decision, and no list allocated per decision but the
    hand sizes: cards played are counted in a table (seat, card type) made once per game,
    and the per-card figures are totalled from it when the game ends.

    The leader is the one seat holding the fewest cards, if one does (Ludii's
    "expected winner", with hand size as the evaluation). A lead change is a step at
    which a seat other than the last one to lead alone comes to lead alone (a tie in
    between does not reset it); drama is the share of the eventual winner's own
    decisions made while another seat led alone. A stack chain is a run of draw cards
    (cards with a `draw:` value), each played while the one before it is still to be
    drawn, that ends when someone draws: its length is the number of those cards (1
    for a draw card the next player simply draws for).
    """

    __slots__ = ("g", "kinds", "plays_below", "k_type", "k_draw", "types", "n", "first", "direction", "drawn",
                 "forced", "largest", "stack", "longest_stack", "chain", "chains", "leader", "last_leader",
                 "lead_changes", "behind", "decided", "played", "watch", "hit_n", "hit_sum", "hit_squares",
                 "draw_id", "_sizes", "_pile", "_shuffles", "_voluntary")

    def __init__(self, state):
        g = self.g = state.g
        self.kinds = g.num_kinds
        self.plays_below = 2 * g.num_kinds        # action ids below this play a card
        self.k_type, self.k_draw = g.k_type, g.k_draw
        self.types = len(g.type_ids)
        self.n = state.n
        self.first = -1                       # the seat of the game's first turn, and the direction then
        self.direction = 1
        self.drawn = [0] * self.n
        self.forced = [0] * self.n
        self._sizes = [*map(len, state.hands)]
        self.largest = max(self._sizes)
        self.stack = 0
        self.longest_stack = 0
        self.chain = 0                        # draw cards in the open stack chain (0: none open)
        self.chains: list[int] = []           # the length of every closed stack chain
        self.leader = self._leader_of(self._sizes)      # -1 while two or more seats share the fewest cards
        self.last_leader = self.leader         # the last seat that led alone: a change is counted against it
        self.lead_changes = 0
        self.behind = [0] * self.n            # decisions each seat made while another seat led
        self.decided = [0] * self.n
        self.played = [0] * (self.n * self.types)      # seat * types + card type -> cards played
        self.watch: list[tuple[int, int, int]] = []   # (type, seat hit next, its hand size then) until a turn
        self.hit_n = [0] * self.types                 # by card type: the next seat's hand change, summed
        self.hit_sum = [0] * self.types
        self.hit_squares = [0] * self.types
        self.draw_id = g.A_DRAW
        self._pile, self._shuffles = len(state.draw_pile), state.reshuffles
        self._voluntary = -1                  # the seat whose own turn draw the last action was, or -1

    @staticmethod
    def _leader_of(sizes: list[int]) -> int:
        least = min(sizes)
        return sizes.index(least) if sizes.count(least) == 1 else -1

    def step(self, state, p: int, decision: str, action: int) -> None:
        """Count what the last action did, then note seat `p`'s `action` (at a `decision` of that kind).

        `p` = -1 only counts the last action (`finish`). One method, inline: it runs at every decision.
        """
        # What the last action did: the stack, cards drawn, the largest hand, the lead.
        stack = state.stack
        if stack != self.stack:
            self.stack = stack
            if stack > self.longest_stack:
                self.longest_stack = stack
        sizes = [*map(len, state.hands)]
        before = self._sizes
        if sizes != before:                                # a hand changed
            if state.reshuffles == self._shuffles:
                from_pile = self._pile - len(state.draw_pile)
            else:                                          # the discard went back under: count hand growth
                from_pile = sum(b - a for a, b in zip(before, sizes) if b > a)
            if from_pile > 0:
                if self.chain and not stack:               # someone drew: the stack chain is over
                    self.chains.append(self.chain)
                    self.chain = 0
                for q in range(self.n):
                    took = sizes[q] - before[q]
                    if took > 0:
                        took = min(took, from_pile)
                        from_pile -= took
                        self.drawn[q] += took
                        if q != self._voluntary:
                            self.forced[q] += took
                        if from_pile <= 0:
                            break
            ordered = sorted(sizes)                        # the largest hand and the sole leader in one call
            if ordered[-1] > self.largest:
                self.largest = ordered[-1]
            if ordered[0] != ordered[1]:
                leader = sizes.index(ordered[0])
                if self.last_leader >= 0 and leader != self.last_leader:
                    self.lead_changes += 1
                self.last_leader = self.leader = leader
            else:
                self.leader = -1
            self._sizes = sizes
        if p < 0:
            return
        # This action.
        if decision == _TURN:
            if self.first < 0:
                self.first, self.direction = p, state.direction
            if self.watch:
                self._close_watches()
        self._pile, self._shuffles = len(state.draw_pile), state.reshuffles
        self._voluntary = p if action == self.draw_id and decision == _TURN else -1
        self.decided[p] += 1
        if self.leader >= 0 and self.leader != p:
            self.behind[p] += 1
        if action < self.plays_below:                      # a card played (with or without UNO)
            kind = action % self.kinds
            t = self.k_type[kind]
            self.played[p * self.types + t] += 1
            if self.k_draw[kind] > 0:
                if self.chain and not stack:               # the open chain was never drawn: a new one begins
                    self.chains.append(self.chain)
                    self.chain = 0
                self.chain += 1
            hit = (p + state.direction) % self.n           # next_of(p), its common case inline
            if not state.hands[hit] or state.eliminated[hit]:
                hit = state.next_of(p)
            if hit >= 0:
                self.watch.append((t, hit, sizes[hit]))

    def _close_watches(self) -> None:
        """A turn begins: each card played since hit its next seat by this much (the sizes are current)."""
        sizes = self._sizes
        for t, hit, size in self.watch:
            change = sizes[hit] - size
            self.hit_n[t] += 1
            self.hit_sum[t] += change
            self.hit_squares[t] += change * change
        self.watch.clear()

    def finish(self, state) -> dict:
        """This game's figures (the game is over)."""
        self.step(state, -1, "", -1)
        self._close_watches()
        if self.chain:
            self.chains.append(self.chain)
            self.chain = 0
        winner = state.winner
        won = None if winner is None or self.first < 0 else int(winner == self.first or (
            self.g.variant.team_size > 1 and state.same_team(winner, self.first)))
        types, played = self.types, self.played
        side = [] if winner is None else [seat for seat in range(self.n) if seat == winner or (
            self.g.variant.team_size > 1 and state.same_team(seat, winner))]
        return {
            "turns": state.total_turns, "decisions": len(state.history), "truncated": int(bool(state.stalled)),
            "first_player_won": won, "cards_drawn": sum(self.drawn), "forced_draws": sum(self.forced),
            "largest_hand": self.largest, "longest_stack": self.longest_stack, "reshuffles": state.reshuffles,
            "lead_changes": self.lead_changes,
            # In billionths, an integer: sums of integers do not depend on the order games are merged in
            # (and stay small, as sums of fractions with ever new denominators would not).
            "drama": (self.behind[winner] * SCALE["drama"] + self.decided[winner] // 2) // self.decided[winner]
            if winner is not None and self.decided[winner] else None,
            "winner_position": None if winner is None or self.first < 0
            else ((winner - self.first) * self.direction) % self.n,
            "drawn": list(self.drawn), "winner": winner, "scores": list(state.scores),
            "stack_chains": self.chains,
            # By card type: cards played, those played by the winning side, the next seat's hand change.
            "card_plays": [sum(played[t::types]) for t in range(types)],
            "card_wins": [sum(played[seat * types + t] for seat in side) for t in range(types)],
            "card_hits": (self.hit_n, self.hit_sum, self.hit_squares),
        }


@dataclass
class Moments:
    """Count, sum and sum of squares of integers: a mean and its interval in constant memory.

    The sums are exact integers, so merging parts in any order gives the same figures: results
    do not depend on the number of workers. A figure below one is added in units of 1/`scale`.
    """

    n: int = 0
    total: int = 0
    squares: int = 0
    scale: int = 1

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def add_sums(self, n: int, total: int, squares: int) -> None:
        """Add `n` values at once, given their sum and sum of squares."""
        self.n += n
        self.total += total
        self.squares += squares

    def merge(self, other: "Moments") -> None:
        self.add_sums(other.n, other.total, other.squares)

    @property
    def mean(self) -> float:
        return float(Fraction(self.total, self.n * self.scale)) if self.n else 0.0

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        variance = (Fraction(self.squares) - Fraction(self.total) ** 2 / self.n) / (self.n - 1)
        return math.sqrt(max(0.0, float(variance))) / self.scale

    def ci95(self) -> tuple[float, float]:
        """The normal-approximation 95% interval of the mean."""
        half = 1.959963984540054 * self.sd / math.sqrt(self.n) if self.n else 0.0
        return (self.mean - half, self.mean + half)

    def summary(self) -> dict:
        low, high = self.ci95()
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "ci95": [low, high]}


@dataclass
class Report:
    """The designer's figures over many games: sums, counters and histograms, mergeable."""

    players: int
    teams: int = 1
    games: int = 0
    per_game: dict = field(default_factory=dict)              # figure -> Moments
    turns: Counter = field(default_factory=Counter)            # turns -> games
    position_wins: Counter = field(default_factory=Counter)    # winner's position after the first player -> wins
    team_wins: Counter = field(default_factory=Counter)
    decided: int = 0                                           # games with a winner
    drawn_per_seat: Counter = field(default_factory=Counter)   # cards drawn by one player in one game -> count
    card_plays: Counter = field(default_factory=Counter)       # card type -> plays
    card_wins: Counter = field(default_factory=Counter)        # card type -> plays by the game's winning side
    card_hit: dict = field(default_factory=dict)               # card type -> Moments of the next seat's hand change
    points: Counter = field(default_factory=Counter)           # the winner's points, by tens -> games
    stack_chains: Counter = field(default_factory=Counter)     # stack chain length -> chains

    def __post_init__(self):
        for name, _ in PER_GAME:
            self.per_game.setdefault(name, Moments(scale=SCALE.get(name, 1)))

    def add(self, figures: dict, state) -> None:
        """Fold in one game's `GameMetrics.finish` figures."""
        self.games += 1
        for name, _ in PER_GAME:
            value = figures[name]
            if value is not None:
                self.per_game[name].add(value)
        self.turns[figures["turns"]] += 1
        winner = figures["winner"]
        for drawn in figures["drawn"]:
            self.drawn_per_seat[drawn] += 1
        if winner is not None:
            self.decided += 1
            if figures["winner_position"] is not None:
                self.position_wins[figures["winner_position"]] += 1
            if self.teams > 1:
                self.team_wins[state.team_index(winner)] += 1
            self.points[figures["scores"][winner] // 10 * 10] += 1
        for length in figures["stack_chains"]:
            self.stack_chains[length] += 1
        names = state.g.type_ids
        wins = figures["card_wins"]
        hit_n, hit_sum, hit_squares = figures["card_hits"]
        for t, plays in enumerate(figures["card_plays"]):
            if plays:
                name = names[t]
                self.card_plays[name] += plays
                if wins[t]:
                    self.card_wins[name] += wins[t]
                if hit_n[t]:
                    self.card_hit.setdefault(name, Moments()).add_sums(hit_n[t], hit_sum[t], hit_squares[t])

    def merge(self, other: "Report") -> None:
        self.games += other.games
        self.decided += other.decided
        for name, moments in other.per_game.items():
            self.per_game[name].merge(moments)
        for mine, theirs in ((self.turns, other.turns), (self.position_wins, other.position_wins),
                             (self.team_wins, other.team_wins), (self.drawn_per_seat, other.drawn_per_seat),
                             (self.card_plays, other.card_plays), (self.card_wins, other.card_wins),
                             (self.points, other.points), (self.stack_chains, other.stack_chains)):
            mine.update(theirs)
        for name, moments in other.card_hit.items():
            self.card_hit.setdefault(name, Moments()).merge(moments)

    def summary(self) -> dict:
        """Every figure, as docs/analytics.md defines it."""
        n, decided = self.games, self.decided
        sides = self.teams if self.teams > 1 else self.players
        first = self.per_game["first_player_won"]
        low, high = wilson(round(first.total), first.n)
        fair = 1 / sides
        positions = []
        for pos in range(self.players):
            wins = self.position_wins[pos]
            lo, hi = wilson(wins, decided)
            positions.append({"position": pos, "wins": wins, "win_rate": wins / decided if decided else 0.0,
                              "ci95": [lo, hi]})
        teams = []
        for team in range(self.teams if self.teams > 1 else 0):
            wins = self.team_wins[team]
            lo, hi = wilson(wins, decided)
            teams.append({"team": team, "wins": wins, "win_rate": wins / decided if decided else 0.0,
                          "ci95": [lo, hi]})
        cards = []
        for name in sorted(self.card_plays, key=lambda c: (-self.card_plays[c], c)):
            plays = self.card_plays[name]
            lo, hi = wilson(self.card_wins[name], plays)
            hit = self.card_hit.get(name, Moments())
            cards.append({"card": name, "plays": plays, "plays_per_game": plays / n if n else 0.0,
                          "win_rate": self.card_wins[name] / plays if plays else 0.0, "ci95": [lo, hi],
                          "next_hand_change": hit.mean})
        seats_games = sum(self.drawn_per_seat.values())
        return {
            "games": n,
            "length": dict(percentiles(self.turns, n), histogram=_histogram(self.turns)),
            "truncated": {"games": round(self.per_game["truncated"].total),
                          "rate": self.per_game["truncated"].mean},
            "first_player": {"win_rate": first.mean, "ci95": [low, high], "fair": fair,
                             "advantage": first.mean - fair, "advantage_ci95": [low - fair, high - fair]},
            "by_position": positions,
            "by_team": teams,
            "draws": {"per_player": sum(k * c for k, c in self.drawn_per_seat.items()) / seats_games
                      if seats_games else 0.0,
                      "forced_per_game": self.per_game["forced_draws"].mean,
                      "largest_hand": percentiles(Counter(), 0) if not n else self.per_game["largest_hand"].summary()},
            "stacks": self.per_game["longest_stack"].summary(),
            "stack_chains": _chains(self.stack_chains, n),
            "reshuffles": self.per_game["reshuffles"].summary(),
            "lead_changes": self.per_game["lead_changes"].summary(),
            "drama": self.per_game["drama"].summary(),
            "cards": cards,
            "winner_points": dict(sorted(self.points.items())),
        }


def _chains(lengths: Counter, games: int) -> dict:
    """The stack chains of the run: how many, their length's distribution and every length's count."""
    chains = sum(lengths.values())
    return {"chains": chains, "per_game": chains / games if games else 0.0, **percentiles(lengths, chains),
            "histogram": [{"length": length, "chains": lengths[length]} for length in sorted(lengths)]}


def _histogram(counts: Counter, bins: int = 20) -> list[dict]:
    """`counts` (value -> games) in at most `bins` equal ranges: [{"from", "to", "games"}]."""
    if not counts:
        return []
    low, high = min(counts), max(counts)
    width = max(1, math.ceil((high - low + 1) / bins))
    out = [{"from": low + i * width, "to": low + (i + 1) * width - 1, "games": 0}
           for i in range((high - low) // width + 1)]
    for value, games in counts.items():
        out[(value - low) // width]["games"] += games
    return out


def play_measured(game, players: int, seed: int, bots: list[str], match: bool = False):
    """Play one game with bots, decision by decision, and return (state, its figures).

    The bots are those `simulate.play_one` seats (seeds.seat_bots): the same game is played.
    """
    state = game.new_game(players, seed=seed, match=match)
    agents = seat_bots(state, bots)
    metrics = GameMetrics(state)
    step = metrics.step
    while not state.over:
        decision, p = state.pending[0], state.pending[1]
        action = agents[p].act(state)
        step(state, p, decision, action)
        state.apply_id(action)
    return state, metrics.finish(state)
