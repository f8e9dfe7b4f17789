"""A clash audit of house rules: every pair (or triple) laid over a variant, checked, fuzzed and compared.

For each combination of house rules over the base variant:

- **conflict**: `check` refuses the combination (E330 a missing ruling, E331 two rules of one exclusive
  group, or any other error): the diagnostics are kept;
- **stall**: a game with heuristic bots that the engine ends by its stall ruling (the turn or step limit),
  or any game not over after `HANG_DECISIONS` decisions;
- **broken invariant**: in random-bot games checked after every action: the engine raises, the player to
  act has no legal action, the reference mode (`Game(variant, fast=False)`) offers other actions, a saved
  state does not load back as itself (the save's checks hold the cards to the deck), or replaying the
  seed and the actions ends elsewhere;
- **interaction**: the combination's effect on a figure (against the base, paired on the same seeds)
  differs from the sum of its rules' single effects: per game x(combination) - x(base) - sum of
  (x(rule) - x(base)), whose mean's interval excludes 0 at a level corrected for the number of figures.

`audit` returns rows (one per single rule and per combination); the CLI prints and renders them.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from dataclasses import dataclass, field

from ..engine import Game, State
from .metrics import FIGURES, measure_game
from .seeds import game_seed

HANG_DECISIONS = 60_000       # a round of random bots not over after this many decisions is a hang
DEEP_EVERY = 25               # the save round trip every this many decisions (it is the costly check)
Z95 = 1.959963984540054


@dataclass
class Combination:
    """One row of the audit: house rules over the base, and what was found."""

    rules: tuple[str, ...]
    conflicts: list[str] = field(default_factory=list)           # diagnostics of `check`
    heuristic_games: int = 0
    heuristic_stalls: int = 0
    random_games: int = 0
    random_stalls: int = 0
    hangs: int = 0
    broken: list[str] = field(default_factory=list)               # what went wrong, one line each
    effects: list[dict] = field(default_factory=list)             # per figure: the effect against the base
    interactions: list[dict] = field(default_factory=list)        # the figures whose interaction is flagged

    @property
    def status(self) -> str:
        if self.conflicts:
            return "conflict"
        if self.broken:
            return "broken invariant"
        if self.heuristic_stalls or self.hangs:
            return "stall"
        if self.interactions:
            return "interaction"
        return "ok"

    def summary(self) -> dict:
        return {"rules": list(self.rules), "status": self.status, "conflicts": self.conflicts,
                "heuristic_games": self.heuristic_games, "heuristic_stalls": self.heuristic_stalls,
                "random_games": self.random_games, "random_stalls": self.random_stalls, "hangs": self.hangs,
                "broken": self.broken, "interactions": self.interactions, "effects": self.effects}


def combination_text(base: str, rules: tuple[str, ...]) -> str:
    """The text of a variant file that extends `base` and includes `rules` (names or absolute paths)."""
    return (f"unodsl: 1\nname: {json.dumps(' + '.join([base, *rules]))}\nextends: {json.dumps(base)}\n"
            f"include: {json.dumps(list(rules))}\n")


def compile_combination(base: str, rules: tuple[str, ...], folder: str, root: str | None = None) -> tuple:
    """(Game or None, the error lines of `check`) of `base` with `rules`, as an unsaved file in `folder`."""
    import os

    from ..check import check_file
    path = os.path.join(folder, f".unodsl-audit-{len(rules)}.yaml")
    result = check_file(path, root=root, texts={path: combination_text(base, rules)})
    # A problem of the combination itself is said without the unsaved file's name; one inside a rule's own file
    # keeps its position there.
    errors = [f"{d.code} {d.message}" if d.path == path else d.header() for d in result.errors]
    return (None if errors or result.game is None else result.game), errors


def fuzz(game: Game, players: int, seed: int, games: int) -> tuple[int, int, list[str]]:
    """Play `games` random-bot games checked after every action: (stalls, hangs, broken invariants)."""
    reference = Game(game.variant, fast=False)
    stalls = hangs = 0
    broken: list[str] = []
    for index in range(games):
        s = game_seed(seed, index)
        try:
            outcome = _checked_game(game, reference, players, s)
        except Exception as err:               # noqa: BLE001 - any crash of the engine is what we look for
            broken.append(f"game seed {s}: the engine raised {type(err).__name__}: {err}")
            continue
        if outcome == "hang":
            hangs += 1
        elif outcome == "stalled":
            stalls += 1
        elif outcome != "over":
            broken.append(f"game seed {s}: {outcome}")
    return stalls, hangs, broken


def _checked_game(game: Game, reference: Game, players: int, seed: int) -> str:
    """Play one random game in lockstep with the reference mode; "over", "stalled", "hang" or what broke."""
    rng = random.Random(seed)
    state, ref = game.new_game(players, seed=seed), reference.new_game(players, seed=seed)
    for step in range(HANG_DECISIONS):
        if state.over:
            break
        legal = state.legal_action_ids()
        if not legal:
            return f"decision {step}: player {state.current_player} has no legal action at '{state.decision}'"
        if legal != ref.legal_action_ids():
            return f"decision {step}: the reference mode offers other actions than the fast mode"
        if step % DEEP_EVERY == 0:
            saved = state.to_json()
            if State.from_json(game, saved).to_json() != saved:
                return f"decision {step}: a saved state does not load back as itself"
        action = legal[int(rng.random() * len(legal))]
        state.apply_id(action)
        ref.apply_id(action)
    else:
        return "hang"
    if state.to_json() != ref.to_json():
        return "the reference mode ends elsewhere"
    replay = game.new_game(players, seed=seed)
    for action in state.history:
        replay.apply_id(action)
    if replay.to_json() != state.to_json():
        return "replaying the seed and the actions ends elsewhere"
    State.from_json(game, state.to_json())          # raises InvalidState when the cards are not the deck's
    return "stalled" if state.stalled else "over"


def measured(game: Game, players: int, seed: int, games: int) -> list[dict]:
    """The per-game figures of `games` heuristic games (FIGURES' values by name, `stalled` beside them)."""
    out = []
    for index in range(games):
        state, figures, _, _ = measure_game(game, players, seed, index, ["heuristic"])
        values = {f.name: figures[f.name] for f in FIGURES}
        values["stalled"] = bool(state.stalled)
        out.append(values)
    return out


def effects(base: list[dict], other: list[dict]) -> list[dict]:
    """Each figure's paired effect other - base: mean and 95% interval."""
    rows = []
    for f in FIGURES:
        diffs = [(o[f.name] - b[f.name]) / f.scale for b, o in zip(base, other)
                 if b[f.name] is not None and o[f.name] is not None]
        mean, half = _mean_half(diffs, Z95)
        rows.append({"figure": f.name, "words": f.words, "effect": mean, "ci95": [mean - half, mean + half]})
    return rows


def interactions(base: list[dict], singles: list[list[dict]], combined: list[dict], z: float) -> list[dict]:
    """The figures whose combined effect differs from the sum of the single effects beyond the interval
    (z standard errors): per game x(combined) - x(base) - sum(x(single) - x(base))."""
    flagged = []
    for f in FIGURES:
        diffs = []
        for i, b in enumerate(base):
            values = [combined[i][f.name], b[f.name], *(s[i][f.name] for s in singles)]
            if None in values:
                continue
            x, x0 = combined[i][f.name], b[f.name]
            diffs.append((x - x0 - sum(s[i][f.name] - x0 for s in singles)) / f.scale)
        if len(diffs) < 2:
            continue
        mean, half = _mean_half(diffs, z)
        if mean - half > 0 or mean + half < 0:
            flagged.append({"figure": f.name, "words": f.words, "interaction": mean,
                            "interval": [mean - half, mean + half], "games": len(diffs)})
    return sorted(flagged, key=lambda row: -abs(row["interaction"] / max(1e-12, row["interval"][1] - row["interval"][0])))


def _mean_half(values: list[float], z: float) -> tuple[float, float]:
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(variance / n)


def corrected_z(tests: int, level: float = 0.05) -> float:
    """The two-sided z for a family of `tests` at `level` in all (Bonferroni): 1.96 for one test."""
    from statistics import NormalDist
    return NormalDist().inv_cdf(1 - level / (2 * max(1, tests)))


def examine(job: tuple) -> tuple:
    """Compile, measure and fuzz one combination: (conflicts, per-game figures or None, random stalls, hangs,
    broken invariants). `job` is (base, rules, folder, root, players, games, fuzz games, seed)."""
    base, rules, folder, root, players, games, fuzz_games, seed = job
    game, errors = compile_combination(base, rules, folder, root)
    if game is None:
        return errors, None, 0, 0, []
    return (errors, measured(game, players, seed, games), *fuzz(game, players, seed, fuzz_games))


def audit(base: str, rules: list[str], folder: str, players: int = 4, games: int = 200, fuzz_games: int = 10,
          seed: int = 1, size: int = 2, progress=None, root: str | None = None,
          workers: int = 1) -> tuple[list[Combination], list[str]]:
    """Audit every single rule and every combination of `size` rules over `base` (on `workers` processes).

    Returns (the rows: singles first, then the combinations; the base's own problems, empty when it is clean).
    The same rows for any number of workers: each combination's games are seeded alike.
    """
    base_game, base_errors = compile_combination(base, (), folder, root)
    if base_game is None:
        return [], base_errors
    z = corrected_z(len(FIGURES))
    base_values = measured(base_game, players, seed, games)
    combos = [(rule,) for rule in rules] + list(itertools.combinations(rules, size))
    jobs = [(base, combo, folder, root, players, games, fuzz_games, seed) for combo in combos]
    singles: dict[str, list[dict] | None] = {}
    rows: list[Combination] = []
    for done, (combo, (errors, values, stalls, hangs, broken)) in enumerate(zip(combos, _map(examine, jobs,
                                                                                             workers))):
        row = Combination(combo, conflicts=errors)
        rows.append(row)
        if len(combo) == 1:
            singles[combo[0]] = values
        if values is not None:
            row.heuristic_games, row.heuristic_stalls = games, sum(v["stalled"] for v in values)
            row.random_games, row.random_stalls, row.hangs, row.broken = fuzz_games, stalls, hangs, broken
            row.effects = effects(base_values, values)
            if len(combo) > 1 and all(singles.get(rule) is not None for rule in combo):
                row.interactions = interactions(base_values, [singles[rule] for rule in combo], values, z)
        if progress:
            progress(done + 1, len(combos))
    return rows, []


def _map(function, jobs: list, workers: int):
    """function(job) for every job, in order, on `workers` processes (here when 1)."""
    if workers <= 1 or len(jobs) < 2:
        yield from map(function, jobs)
        return
    import multiprocessing

    from .pool import ignore_sigint
    with multiprocessing.Pool(workers, initializer=ignore_sigint) as pool:
        yield from pool.imap(function, jobs)
