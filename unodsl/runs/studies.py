"""Figures that need games of their own: the skill gap, restricted play, and luck against skill.

Each study plays game i of a run again, from the same deal (seeded from (seed, i) alone), with
other bots at the table, and reduces it to one number per game, so that sums merge exactly over
workers and `compare` can difference the same study game by game on both sides:

- **skill gap** (`skill:STRONG/WEAK`): one STRONG bot in seat i mod n among WEAK bots; 1 if its
  side wins. Its mean against the fair share says how much a stronger player gains.
- **restricted play** (`restricted:R`): the run's own bots, but seat i mod n may never take the
  option R (never play a card type, never challenge, always keep a drawn card...). The value is
  the seat's win in the run's own game i minus its win in the restricted one: the win rate the
  option is worth to its holder, measured causally (the games agree until the restriction bites).
- **luck against skill** (`luck`): each seat a bot of the ladder (random, heuristic, expert by
  default), drawn from the game's seed; the winners fit a Luce model of the bots' strengths
  (Elo-like ratings) and the share of the outcome those strengths explain (McFadden's pseudo-R²).

docs/analytics.md defines each and gives the sources.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from ..agents.bots import make_bot
from ..agents.view import SeatView
from ..effects import layout as D
from .seeds import game_seed, seat_bots, seat_rng

DEFAULT_SKILL = (("expert", "heuristic"),)
DEFAULT_LADDER = ("random", "heuristic", "expert")
RESTRICTIONS = ("challenge", "play-drawn", "stack", "jump-in", "uno")      # beside card:TYPE
_LUCK_STREAM = 0x5EED1AD        # the ladder's seating is drawn from (game seed, this): a stream of its own
RIDGE = 0.01                    # a weak pull of log-strengths to 0: a bot that never wins keeps a finite rating


@dataclass(frozen=True)
class Plan:
    """Which studies to play, and on how many of the run's games (the first `games`; 0: none)."""

    games: int = 0
    skill: tuple = DEFAULT_SKILL                 # (strong, weak) bot pairs
    restrict: tuple | None = None                # restrictions; None: every one the variant offers
    ladder: tuple = DEFAULT_LADDER               # the bots of the luck study (empty: no luck study)

    def restrictions(self, game) -> tuple[str, ...]:
        return tuple(restrictions_of(game)) if self.restrict is None else self.restrict


NO_STUDIES = Plan()


def restrictions_of(game) -> list[str]:
    """Every restriction that means something in this variant: each card type, then the options its rules offer."""
    v = game.variant
    out = [f"card:{t}" for t in game.type_ids]
    texts = " ".join(c.on_play.source for c in v.cards.values() if c.on_play is not None)
    if "challenge" in texts:
        out.append("challenge")
    if v.drawn_card == "optional":
        out.append("play-drawn")
    if v.stacking != "none":
        out.append("stack")
    if v.jump_in:
        out.append("jump-in")
    if v.uno_enabled:
        out.append("uno")
    return out


def restriction_words(restriction: str) -> str:
    """A restriction (`card:draw_two`, `challenge`, ...) as the words after "may never"."""
    if restriction.startswith("card:"):
        return f"play a {restriction[5:]} (but as the last card)"
    return {"challenge": "challenge", "play-drawn": "play the card just drawn (always keeps it)",
            "stack": "answer a stack with a card", "jump-in": "jump in", "uno": "call UNO"}.get(restriction,
                                                                                             restriction)



def check_restriction(game, restriction: str) -> str | None:
    """Why `restriction` is not one this variant knows (None when it is)."""
    if restriction.startswith("card:"):
        if restriction[5:] in game.type_ids:
            return None
        return f"unknown card type '{restriction[5:]}' (this variant has {', '.join(game.type_ids)})"
    if restriction in RESTRICTIONS:
        return None
    return f"unknown restriction '{restriction}' (card:TYPE or one of {', '.join(RESTRICTIONS)})"


def forbidden_test(game, restriction: str):
    """A function (state, action) -> True when `restriction` forbids the action at the state's decision.

    A card type stays playable as the player's last card: a card never played would be a card never
    got rid of, and the figure would measure being dealt one rather than what playing it does.
    """
    plays = 2 * game.num_kinds
    if restriction.startswith("card:"):
        t = game.type_ids.index(restriction[5:])
        kinds, k_type = game.num_kinds, game.k_type
        return lambda st, a: a < plays and k_type[a % kinds] == t and len(st.hands[st.pending[1]]) > 1
    if restriction == "challenge":
        return lambda st, a: a == game.A_CHALLENGE
    if restriction == "play-drawn":
        return lambda st, a: a < plays and st.pending[0] == D.DRAWN
    if restriction == "stack":
        return lambda st, a: a < plays and st.pending[0] == D.STACK
    if restriction == "jump-in":
        return lambda st, a: a < plays and st.pending[0] == D.JUMP
    if restriction == "uno":
        kinds = game.num_kinds
        return lambda st, a: kinds <= a < plays or a == game.A_UNO
    raise ValueError(check_restriction(game, restriction))


class RestrictedBot:
    """A bot that never takes the actions `forbidden(state, action)` names, unless nothing else is legal.

    Where the restriction does not bite it is the bot itself (`act`), so a restricted game is the
    unrestricted one until the first decision the restriction changes.
    """

    def __init__(self, bot, forbidden):
        self.bot, self.forbidden = bot, forbidden
        self.rng = bot.rng

    def act(self, state) -> int:
        legal = state.legal_action_ids()
        forbidden = self.forbidden
        allowed = [a for a in legal if not forbidden(state, a)]
        if not allowed or len(allowed) == len(legal):
            return self.bot.act(state)
        return self.bot.decide(SeatView(state, allowed))


def play_seated(game, players: int, seed: int, agents_of, match: bool = False):
    """Play game `seed` with the bots `agents_of(state)` returns; the finished state."""
    state = game.new_game(players, seed=seed, match=match)
    agents = agents_of(state)
    while not state.over:
        state.apply_id(agents[state.current_player].act(state))
    return state


def side_won(state, seat: int) -> int:
    """1 if `seat`'s side (its team, or itself) won the game, else 0."""
    winner = state.winner
    return int(winner is not None and state.team_index(winner) == state.team_index(seat))


def ladder_seating(seed: int, players: int, ladder: tuple) -> tuple[int, ...]:
    """The ladder bot (an index) of each seat in the luck study's game `seed`: drawn from the seed, never all one."""
    rng = random.Random(game_seed(seed, _LUCK_STREAM))
    for _ in range(100):
        seating = tuple(rng.randrange(len(ladder)) for _ in range(players))
        if len(set(seating)) > 1 or len(ladder) < 2:
            return seating
    return tuple(i % len(ladder) for i in range(players))


def play_studies(game, players: int, seed: int, index: int, bots: list[str], match: bool, plan: Plan,
                 base_winner_side: int | None, restrictions: tuple) -> tuple[dict, Counter, tuple | None]:
    """The studies of game `index` (seeded `seed`): ({figure name: value}, wins, the luck record or None).

    `wins` counts the study seat's side's wins: in the run's own game ("base") and under each restriction.

    `base_winner_side`: the side that won the run's own game `index` (None: nobody), against which
    restricted play is measured.
    """
    values: dict = {}
    wins: Counter = Counter()
    seat = index % players
    for strong, weak in plan.skill:
        names = [weak] * players
        names[seat] = strong
        state = play_seated(game, players, seed, lambda st: _seat(st, names), match)
        values[f"skill:{strong}/{weak}"] = side_won(state, seat) if state.winner is not None else None
    for restriction in restrictions:
        forbidden = forbidden_test(game, restriction)

        def restricted(st, forbidden=forbidden):
            agents = seat_bots(st, bots)
            agents[seat] = RestrictedBot(agents[seat], forbidden)
            return agents
        state = play_seated(game, players, seed, restricted, match)
        base = 0 if base_winner_side is None else int(base_winner_side == state.team_index(seat))
        won = side_won(state, seat)
        values[f"restricted:{restriction}"] = base - won
        wins[restriction] += won
        wins["base"] = base
    luck = None
    if len(plan.ladder) > 1:
        seating = ladder_seating(seed, players, plan.ladder)
        names = [plan.ladder[b] for b in seating]
        state = play_seated(game, players, seed, lambda st: _seat(st, names), match)
        sides = tuple(state.team_index(q) for q in range(players))
        luck = (seating, sides, -1 if state.winner is None else state.team_index(state.winner))
    return values, wins, luck


def _seat(state, names: list[str]) -> list:
    """Bots by name, seat by seat, each with its own generator (seeds.seat_rng)."""
    return [make_bot(name, seat_rng(state.seed, seat)) for seat, name in enumerate(names)]


# --- luck against skill: the ladder's ratings ------------------------------------------------

def _log_likelihood(theta: list[float], records: list) -> tuple[float, list[float]]:
    """The Luce model's log-likelihood of the records and its gradient in theta (log-strengths; theta[0] = 0).

    A record is ((seating, sides, winner side), games): the winning side's chance is the sum of its seats'
    strengths over the sum of all seats' strengths.
    """
    strength = [math.exp(t) for t in theta]
    total_ll = 0.0
    grad = [0.0] * len(theta)
    for (seating, sides, winner), count in records:
        if winner < 0:
            continue
        s_all = sum(strength[b] for b in seating)
        s_win = sum(strength[b] for b, side in zip(seating, sides) if side == winner)
        total_ll += count * (math.log(s_win) - math.log(s_all))
        for b, side in zip(seating, sides):
            if side == winner:
                grad[b] += count * strength[b] / s_win
            grad[b] -= count * strength[b] / s_all
    for b, t in enumerate(theta):
        total_ll -= RIDGE * t * t / 2
        grad[b] -= RIDGE * t
    return total_ll, grad


def fit_ladder(records: Counter, ladder: tuple) -> dict:
    """Fit the ladder's strengths to the luck study's games: ratings (Elo points above the first bot) with
    95% intervals, their spread, and the share of the outcome they explain (McFadden's pseudo-R²)."""
    size = len(ladder)
    theta = [0.0] * size
    # In a fixed order: float sums depend on it, and merged parts of a run list their records in any order.
    records = sorted(records.items())
    decided = sum(c for (_, _, w), c in records if w >= 0)
    if size < 2 or not decided:
        return {"games": decided, "bots": [], "spread": 0.0, "explained": 0.0, "theta": theta}
    free = list(range(1, size))              # theta[0] = 0: ratings are relative to the first bot
    ll, grad = _log_likelihood(theta, records)
    hessian = None
    for _ in range(100):                     # Newton's method, halving the step while the likelihood falls
        hessian = _hessian(theta, records, free)
        step = _solve([row[:] for row in hessian], [-grad[b] for b in free])
        if step is None:
            break
        scale = 1.0
        while scale > 1e-6:
            trial = list(theta)
            for i, b in enumerate(free):
                trial[b] = theta[b] + scale * step[i]
            trial_ll, trial_grad = _log_likelihood(trial, records)
            if trial_ll >= ll - 1e-12:
                break
            scale /= 2
        moved = max(abs(scale * x) for x in step)
        theta, ll, grad = trial, trial_ll, trial_grad
        if moved < 1e-9:
            break
    hessian = _hessian(theta, records, free)
    covariance = _inverse([[-x for x in row] for row in hessian])
    elo = 400 / math.log(10)
    bots = [{"bot": ladder[0], "rating": 0.0, "ci95": [0.0, 0.0]}]
    for i, b in enumerate(free):
        half = 1.959963984540054 * math.sqrt(max(0.0, covariance[i][i])) * elo if covariance else float("nan")
        bots.append({"bot": ladder[b], "rating": theta[b] * elo, "ci95": [theta[b] * elo - half,
                                                                            theta[b] * elo + half]})
    null = sum(c * math.log(sum(1 for side in sides if side == w) / len(sides))
               for (seating, sides, w), c in records if w >= 0)
    model = ll + sum(RIDGE * t * t / 2 for t in theta)
    ratings = [b["rating"] for b in bots]
    return {"games": decided, "bots": bots, "spread": max(ratings) - min(ratings),
            "explained": 1 - model / null if null else 0.0, "theta": theta}


def luck_value(theta: list[float], record: tuple) -> float | None:
    """One game's share of the outcome the fitted strengths explain: 1 - log P(winner) / log P(winner | equal
    strengths); their mean over the games is the pseudo-R² (every game's equal-strength chance is the same)."""
    seating, sides, winner = record
    if winner < 0:
        return None
    strength = [math.exp(theta[b]) for b in seating]
    p = sum(s for s, side in zip(strength, sides) if side == winner) / sum(strength)
    equal = sum(1 for side in sides if side == winner) / len(sides)
    return 1 - math.log(p) / math.log(equal)


def _hessian(theta: list[float], records: list, free: list[int]) -> list[list[float]]:
    """The log-likelihood's second derivatives in the free parameters, by central differences of the gradient."""
    h = 1e-5
    out = []
    for b in free:
        up, down = list(theta), list(theta)
        up[b] += h
        down[b] -= h
        g_up, g_down = _log_likelihood(up, records)[1], _log_likelihood(down, records)[1]
        out.append([(g_up[c] - g_down[c]) / (2 * h) for c in free])
    return [[(out[i][j] + out[j][i]) / 2 for j in range(len(free))] for i in range(len(free))]


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Solve matrix x = rhs by Gaussian elimination with partial pivoting (None when singular)."""
    n = len(rhs)
    a = [row + [r] for row, r in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    n = len(matrix)
    columns = []
    for j in range(n):
        column = _solve([row[:] for row in matrix], [float(i == j) for i in range(n)])
        if column is None:
            return None
        columns.append(column)
    return [[columns[j][i] for j in range(n)] for i in range(n)]
