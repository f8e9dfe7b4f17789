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
from typing import NamedTuple

from ..agents.seats import game_over, wants_events
from ..effects import layout as D
from .intervals import percentiles, wilson
from .seeds import game_seed, seat_bots
from .studies import NO_STUDIES, Plan, fit_ladder, play_studies, restriction_words



class Figure(NamedTuple):
    """A figure of one game: its name, what it is in words, its unit, and the scale of its integer sums.

    `unit` groups figures that a plot may show on one axis: "share" (a proportion, a win rate: shown in
    %, differences in percentage points), "turns", "cards", "times" (events per game), "options", "points".
    A figure below one is summed in units of 1/`scale` (drama in billionths), so sums stay exact integers.
    """

    name: str
    words: str
    unit: str
    scale: int = 1


# The figures of one game that `simulate --figures` sums and `unodsl compare` differences game by game.
FIGURES = (
    Figure("turns", "turns per game", "turns"),
    Figure("decisions", "decisions per game", "turns"),
    Figure("truncated", "games that hit the turn limit", "share"),
    Figure("first_player_won", "first player's win rate", "share"),
    Figure("cards_drawn", "cards drawn per game", "cards"),
    Figure("forced_draws", "cards drawn by force per game", "cards"),
    Figure("largest_hand", "largest hand of the game", "cards"),
    Figure("longest_stack", "longest stack of the game (cards owed)", "cards"),
    Figure("reshuffles", "reshuffles per game", "times"),
    Figure("lead_changes", "lead changes per game", "times"),
    Figure("drama", "drama: share of the winner's decisions made while another player led", "share", 10**9),
    Figure("choice_share", "agency: share of decisions with a real choice", "share", 10**9),
    Figure("options", "agency: distinct options per decision", "options", 10**6),
    Figure("snowball_25", "snowball: the sole leader at 25% of the game wins", "share"),
    Figure("snowball_50", "snowball: the sole leader at 50% of the game wins", "share"),
    Figure("snowball_75", "snowball: the sole leader at 75% of the game wins", "share"),
    Figure("decisiveness", "decisiveness: share of the game left once the winner leads alone for good", "share",
           10**9),
    Figure("stack_chains", "stack chains per game", "times"),
    Figure("chain_length", "mean stack chain length (draw cards)", "cards", 10**6),
    Figure("longest_chain", "longest stack chain of the game (draw cards)", "cards"),
    Figure("winner_points", "winner's points", "points"),
)
PER_GAME = tuple((f.name, f.words) for f in FIGURES)      # (name, words): the older spelling, kept for callers
FIGURE = {f.name: f for f in FIGURES}
# Figures kept as integers in units smaller than one: drama, a share, in billionths.
SCALE = {f.name: f.scale for f in FIGURES if f.scale != 1}
SNOWBALL_AT = (25, 50, 75)          # the points of the game (in % of its turns) at which the sole leader is taken
_TURN = D.TURN


def dynamic_figure(name: str) -> Figure:
    """The Figure of a per-game value whose name is made at run time: `seat_won:2`, `plays:draw_two`,
    `skill:expert/heuristic`, `restricted:card:wild`, `luck`."""
    kind, _, what = name.partition(":")
    if kind == "seat_won":
        return Figure(name, f"seat {what}'s win rate", "share")
    if kind == "position_won":
        return Figure(name, f"win rate from position {what} after the first player", "share")
    if kind == "plays":
        return Figure(name, f"{what} plays per game", "times")
    if kind == "skill":
        strong, _, weak = what.partition("/")
        return Figure(name, f"skill gap: win rate of one {strong} among {weak} bots", "share")
    if kind == "restricted":
        return Figure(name, f"restricted play: win rate lost by a player who may never {restriction_words(what)}",
                      "share")
    if kind == "luck":
        return Figure(name, "luck against skill: share of the outcome the bots' strength explains", "share", 10**9)
    return FIGURE[name]


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

    Agency counts, at every decision, the distinct options (`play X` and `play X uno` once). The
    sole leader at the start of every turn is kept (one small integer a turn), so that snowball and
    decisiveness, which need the game's length, are read from it when the game ends.
    """

    __slots__ = ("g", "kinds", "plays_below", "k_type", "k_draw", "types", "n", "first", "direction", "drawn",
                 "forced", "largest", "stack", "longest_stack", "chain", "chains", "leader", "last_leader",
                 "lead_changes", "behind", "decided", "played", "watch", "hit_n", "hit_sum", "hit_squares",
                 "draw_id", "choices", "options", "leaders", "_sizes", "_pile", "_shuffles", "_voluntary")

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
        self.choices = 0                      # decisions with two distinct options or more
        self.options = 0                      # distinct options, summed over the decisions
        self.leaders: list[int] = []          # the sole leader at the start of each turn (-1: none)
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
        # This action: first what could have been done instead (agency).
        legal = state.legal_action_ids()
        if len(legal) > 1:
            kinds, plays = self.kinds, self.plays_below
            distinct = len({a % kinds if a < plays else a for a in legal})
            self.options += distinct
            if distinct > 1:
                self.choices += 1
        else:
            self.options += 1
        if decision == _TURN:
            self.leaders.append(self.leader)
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
        side = [state.team_index(seat) for seat in range(self.n)]      # each seat's side: its team, or itself
        won = None if winner is None or self.first < 0 else int(side[winner] == side[self.first])
        types, played = self.types, self.played
        winners = [] if winner is None else [seat for seat in range(self.n) if side[seat] == side[winner]]
        decisions = len(state.history)
        chains = self.chains
        return {
            "turns": state.total_turns, "decisions": decisions, "truncated": int(bool(state.stalled)),
            "first_player_won": won, "cards_drawn": sum(self.drawn), "forced_draws": sum(self.forced),
            "largest_hand": self.largest, "longest_stack": self.longest_stack, "reshuffles": state.reshuffles,
            "lead_changes": self.lead_changes,
            # In billionths, an integer: sums of integers do not depend on the order games are merged in
            # (and stay small, as sums of fractions with ever new denominators would not).
            "drama": _share(self.behind[winner], self.decided[winner], SCALE["drama"])
            if winner is not None else None,
            "choice_share": _share(self.choices, decisions, SCALE["choice_share"]),
            "options": _share(self.options, decisions, SCALE["options"]),
            **self._snowball(side, winner),
            "decisiveness": self._decisiveness(side, winner),
            "stack_chains": len(chains),
            "chain_length": _share(sum(chains), len(chains), SCALE["chain_length"]),
            "longest_chain": max(chains, default=0),
            "winner_points": None if winner is None else state.scores[winner],
            "winner_position": None if winner is None or self.first < 0
            else ((winner - self.first) * self.direction) % self.n,
            "drawn": list(self.drawn), "winner": winner, "scores": list(state.scores),
            "chain_lengths": chains,
            # By card type: cards played, those played by the winning side, the next seat's hand change.
            "card_plays": [sum(played[t::types]) for t in range(types)],
            "card_wins": [sum(played[seat * types + t] for seat in winners) for t in range(types)],
            "card_hits": (self.hit_n, self.hit_sum, self.hit_squares),
        }

    def _snowball(self, side: list[int], winner: int | None) -> dict:
        """snowball_25/50/75: 1 if the sole leader at the start of the turn at that share of the game is on the
        winning side, 0 if not, None without a sole leader then (or a winner)."""
        leaders, out = self.leaders, {}
        for at in SNOWBALL_AT:
            leader = leaders[len(leaders) * at // 100] if leaders else -1
            out[f"snowball_{at}"] = None if leader < 0 or winner is None else int(side[leader] == side[winner])
        return out

    def _decisiveness(self, side: list[int], winner: int | None) -> int | None:
        """The share of the game's turns (in billionths) from the turn on which the winning side led alone
        and went on leading alone to the end; 0 when it did not lead alone at the start of the last turn."""
        if winner is None or not self.leaders:
            return None
        leaders, mine = self.leaders, side[winner]
        first = len(leaders)
        while first > 0 and leaders[first - 1] >= 0 and side[leaders[first - 1]] == mine:
            first -= 1
        return _share(len(leaders) - first, len(leaders), SCALE["decisiveness"])


def _share(part: int, whole: int, scale: int) -> int | None:
    """part / whole in units of 1/scale, rounded to the nearest integer (None when whole is 0)."""
    return (part * scale + whole // 2) // whole if whole else None


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


def game_values(figures: dict, type_ids) -> dict:
    """Every per-game figure of one game by name: FIGURES, then the win of each seat and position, and each
    card type's plays (`seat_won:0`, `position_won:1`, `plays:draw_two`). `compare` differences these."""
    values = {f.name: figures[f.name] for f in FIGURES}
    winner, position = figures["winner"], figures["winner_position"]
    for seat in range(len(figures["scores"])):
        values[f"seat_won:{seat}"] = None if winner is None else int(winner == seat)
    for pos in range(1, len(figures["scores"])):           # position 0 is first_player_won
        values[f"position_won:{pos}"] = None if position is None else int(position == pos)
    for name, plays in zip(type_ids, figures["card_plays"]):
        values[f"plays:{name}"] = plays
    return values


def value_names(type_ids, players: int, plan: Plan = NO_STUDIES, restrictions: tuple = ()) -> list[str]:
    """The names game_values and the studies give a game of `players` (the columns of a per-game table)."""
    names = [f.name for f in FIGURES]
    names += [f"seat_won:{seat}" for seat in range(players)] + [f"position_won:{p}" for p in range(1, players)]
    names += [f"plays:{name}" for name in type_ids]
    if plan.games:
        names += [f"skill:{strong}/{weak}" for strong, weak in plan.skill]
        names += [f"restricted:{r}" for r in restrictions]
    return names


@dataclass
class Report:
    """The designer's figures over many games: sums, counters and histograms, mergeable."""

    players: int
    teams: int = 1
    games: int = 0
    per_game: dict = field(default_factory=dict)              # figure (fixed or dynamic_figure's) -> Moments
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
    study_wins: Counter = field(default_factory=Counter)       # "base" and each restriction -> the study seat's wins
    luck: Counter = field(default_factory=Counter)             # (seating, sides, winner side) -> games (studies.py)
    ladder: tuple = ()

    def __post_init__(self):
        for f in FIGURES:
            self.per_game.setdefault(f.name, Moments(scale=f.scale))

    def add(self, figures: dict, state, values: dict | None = None, study: tuple | None = None) -> None:
        """Fold in one game's `GameMetrics.finish` figures; `values`: its game_values (and study values);
        `study`: what studies.play_studies gave beside them (its wins and luck record)."""
        self.games += 1
        per_game = self.per_game
        for name, value in (values or game_values(figures, state.g.type_ids)).items():
            if value is not None:
                moments = per_game.get(name)
                if moments is None:
                    moments = per_game[name] = Moments(scale=dynamic_figure(name).scale)
                moments.add(value)
        if study is not None:
            wins, luck = study
            self.study_wins.update(wins)
            if luck is not None:
                self.luck[luck] += 1
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
        for length in figures["chain_lengths"]:
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
        self.ladder = self.ladder or other.ladder
        for name, moments in other.per_game.items():
            self.per_game.setdefault(name, Moments(scale=moments.scale)).merge(moments)
        for mine, theirs in ((self.turns, other.turns), (self.position_wins, other.position_wins),
                             (self.team_wins, other.team_wins), (self.drawn_per_seat, other.drawn_per_seat),
                             (self.card_plays, other.card_plays), (self.card_wins, other.card_wins),
                             (self.points, other.points), (self.stack_chains, other.stack_chains),
                             (self.study_wins, other.study_wins), (self.luck, other.luck)):
            mine.update(theirs)
        for name, moments in other.card_hit.items():
            self.card_hit.setdefault(name, Moments()).merge(moments)

    def summary(self) -> dict:
        """Every figure, as docs/analytics.md defines it."""
        n, decided = self.games, self.decided
        sides = self.teams if self.teams > 1 else self.players
        pg = self.per_game
        first = pg["first_player_won"]
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
        restricted = self._restricted()
        values = {row["restriction"][5:]: row for row in restricted if row["restriction"].startswith("card:")}
        all_plays, all_wins = sum(self.card_plays.values()), sum(self.card_wins.values())
        winners_share = all_wins / all_plays if all_plays else 0.0
        cards = []
        for name in sorted(self.card_plays, key=lambda c: (-self.card_plays[c], c)):
            plays = self.card_plays[name]
            lo, hi = wilson(self.card_wins[name], plays)
            hit = self.card_hit.get(name, Moments())
            rate = self.card_wins[name] / plays if plays else 0.0
            value = values.get(name)
            cards.append({"card": name, "plays": plays, "plays_per_game": plays / n if n else 0.0,
                          "win_rate": rate, "ci95": [lo, hi],
                          # the winning side's share of this card's plays over its share of all plays
                          "lift": rate / winners_share if winners_share else 0.0,
                          "next_hand_change": hit.mean,
                          "value": None if value is None else value["value"],
                          "value_ci95": None if value is None else value["ci95"]})
        seats_games = sum(self.drawn_per_seat.values())
        return {
            "games": n,
            "length": dict(percentiles(self.turns, n), histogram=_histogram(self.turns)),
            "truncated": {"games": round(pg["truncated"].total), "rate": pg["truncated"].mean},
            "first_player": {"win_rate": first.mean, "ci95": [low, high], "fair": fair,
                             "advantage": first.mean - fair, "advantage_ci95": [low - fair, high - fair]},
            "by_position": positions,
            "by_team": teams,
            "draws": {"per_player": sum(k * c for k, c in self.drawn_per_seat.items()) / seats_games
                      if seats_games else 0.0,
                      "forced_per_game": pg["forced_draws"].mean,
                      "largest_hand": percentiles(Counter(), 0) if not n else pg["largest_hand"].summary()},
            "stacks": pg["longest_stack"].summary(),
            "stack_chains": _chains(self.stack_chains, n),
            "reshuffles": pg["reshuffles"].summary(),
            "lead_changes": pg["lead_changes"].summary(),
            "drama": pg["drama"].summary(),
            "agency": {"choice_share": pg["choice_share"].summary(), "options": pg["options"].summary()},
            "snowball": [_rate(pg[f"snowball_{at}"], fair, at=at) for at in SNOWBALL_AT],
            "decisiveness": pg["decisiveness"].summary(),
            "skill": [dict(_rate(moments, fair), strong=name[6:].partition("/")[0],
                           weak=name[6:].partition("/")[2])
                      for name, moments in sorted(pg.items()) if name.startswith("skill:")],
            "restricted": restricted,
            "luck": self._luck(),
            "cards": cards,
            "winners_share_of_plays": winners_share,
            "winner_points": dict(sorted(self.points.items())),
            "winner_points_mean": pg["winner_points"].summary(),
        }

    def _restricted(self) -> list[dict]:
        """Each restriction's value (the win rate the option is worth) and the restricted seat's win rate."""
        out = []
        base = self.study_wins["base"]
        for name, moments in self.per_game.items():
            if not name.startswith("restricted:"):
                continue
            what = name[len("restricted:"):]
            low, high = moments.ci95()
            games = moments.n
            out.append({"restriction": what, "words": restriction_words(what), "games": games,
                        "value": moments.mean, "ci95": [low, high],
                        "win_rate": self.study_wins[what] / games if games else 0.0,
                        "unrestricted_win_rate": base / games if games else 0.0})
        return sorted(out, key=lambda row: (-row["value"], row["restriction"]))

    def _luck(self) -> dict | None:
        if not self.luck:
            return None
        fit = fit_ladder(self.luck, self.ladder)
        fit.pop("theta")
        return fit


def _rate(moments: "Moments", fair: float, **more) -> dict:
    """A win rate of 0/1 values with its Wilson interval, the fair share, and their difference."""
    wins, games = round(moments.total), moments.n
    low, high = wilson(wins, games)
    rate = wins / games if games else 0.0
    return {**more, "games": games, "wins": wins, "win_rate": rate, "ci95": [low, high], "fair": fair,
            "gap": rate - fair, "gap_ci95": [low - fair, high - fair]}


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
    state = game.new_game(players, seed=seed, match=match, record=wants_events(bots))
    agents = seat_bots(state, bots)
    metrics = GameMetrics(state)
    step = metrics.step
    while not state.over:
        decision, p = state.pending[0], state.pending[1]
        action = agents[p].act(state)
        step(state, p, decision, action)
        state.apply_id(action)
    game_over(agents, state)
    return state, metrics.finish(state)


def measure_game(game, players: int, seed: int, index: int, bots: list[str], match: bool = False,
                 plan: Plan = NO_STUDIES, restrictions: tuple = ()) -> tuple:
    """Play game `index` of a run seeded `seed`, measured, and its studies when `index` < plan.games.

    Returns (state, figures, values, study): `values` every per-game figure by name (game_values and the
    studies'), `study` (the study seat's wins, the luck record) or None.
    """
    s = game_seed(seed, index)
    state, figures = play_measured(game, players, s, bots, match)
    values = game_values(figures, game.type_ids)
    if index >= plan.games:
        return state, figures, values, None
    winner = figures["winner"]
    studied, wins, luck = play_studies(game, players, s, index, bots, match, plan,
                                       None if winner is None else state.team_index(winner), restrictions)
    values.update(studied)
    return state, figures, values, (wins, luck)
