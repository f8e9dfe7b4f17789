"""Steps per second: random legal actions through the raw API, the PettingZoo AEC env and GymSeat,
and RLCard's UNO environment loop (`env.run`, random agents; 2 players, its only table) beside them;
the memory an AEC env holds (tracemalloc over `--envs` envs of one Game, each reset and stepped 20 times;
the tables they share, built once per variant, apart; then over envs each given a Game of its own, and envs
made from the file); then the OpenSpiel game with and without chance nodes (player steps per second, chance outcomes
drawn by their probabilities; `--openspiel-games`, 0 to leave it out).

RLCard runs in its own venv (`benchmarks/.rlcard-venv`, built by rlcard_bench.py on first use);
`--no-rlcard` leaves it out. The loops run in `--repeats` alternated rounds and each row shows its best round,
with the load average. Prints figures; asserts nothing. `python benchmarks/bench_rl.py [--variant FILE] [--players N] [--games G]`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

import unodsl
import unodsl.rl as rl

REPO = Path(__file__).resolve().parent.parent


def raw(game, players: int, games: int) -> tuple[int, float]:
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        state = game.new_game(players=players, seed=seed)
        while not state.is_over:
            ids = state.legal_action_ids()
            state.apply_id(ids[int(rng.random() * len(ids))])
            steps += 1
    return steps, time.perf_counter() - start


def aec(game, players: int, games: int, floor: bool = False) -> tuple[int, float]:
    """The AEC loop; `floor`: with the encoder replaced by a copy of a constant vector (what any encoder
    that returns a fresh array costs at least), to show what the env costs without its observation."""
    env = rl.env(game, num_players=players)
    if floor:
        constant = np.zeros(env.encoder.size, np.float32)
        env.encoder.encode = lambda state, seat: constant.copy()
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]      # as np.flatnonzero, without its ravel (a 1-d mask)
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def env_memory(variant: str, players: int, envs: int, steps: int = 20, source: str = "game") -> tuple[float, float]:
    """(KiB per AEC env, KiB of the tables the envs of one variant share), by tracemalloc: the first env builds
    the shared tables, then `envs` more are made, each reset and stepped `steps` times. `source`: each env
    made from one loaded Game ("game"), from a Game loaded for it ("load": the same rules, another Game object)
    or from the file itself ("file", as `rl.env(path)`)."""
    game = unodsl.load(variant) if source == "game" else None
    rng = random.Random(1)

    def make(seed: int):
        given = game if source == "game" else unodsl.load(variant) if source == "load" else variant
        env = rl.env(given, num_players=players)
        env.reset(seed=seed)
        for _, agent in zip(range(steps), env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
        return env
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make(0)]
    gc.collect()
    shared = tracemalloc.get_traced_memory()[0] - before
    start = tracemalloc.get_traced_memory()[0]
    kept += [make(seed) for seed in range(1, envs + 1)]
    gc.collect()
    per_env = (tracemalloc.get_traced_memory()[0] - start) / envs
    tracemalloc.stop()
    del kept
    return per_env / 1024, (shared - per_env) / 1024


def gym_seat(game, players: int, games: int) -> tuple[int, float]:
    env = rl.GymSeat(game, opponents=["random"] * (players - 1))
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = env.action_masks().nonzero()[0]
            _, _, term, trunc, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            done = term or trunc
            steps += 1
    return steps, time.perf_counter() - start


def openspiel_game(variant: str, players: int, games: int, chance: str) -> tuple[int, float, int]:
    """Player steps, seconds and chance outcomes of `games` random games of the OpenSpiel game."""
    import pyspiel
    from unodsl.rl import openspiel as uno_spiel
    game = pyspiel.load_game(uno_spiel.register(variant, players, chance=chance,
                                                short_name=f"python_unodsl_bench_{chance}"))
    rng = random.Random(1)
    steps = outcomes = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, chances)[0])
                outcomes += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
    return steps, time.perf_counter() - start, outcomes


def rlcard_env(games: int) -> tuple[int, float] | None:
    """RLCard's env.run loop in its venv, or None (the reason on stderr)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from rlcard_bench import ensure_venv
    python = ensure_venv()
    if python is None:
        return None
    result = subprocess.run([str(python), str(REPO / "benchmarks" / "rlcard_env_loop.py"), str(games), "0"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        print(f"bench_rl: RLCard's loop failed:\n{result.stderr}", file=sys.stderr)
        return None
    record = json.loads(result.stdout)
    return record["steps"], record["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default=str(REPO / "variants" / "classic.yaml"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--no-rlcard", action="store_true", help="leave RLCard's env loop out")
    parser.add_argument("--openspiel-games", type=int, default=100, help="OpenSpiel games in each chance mode (0: none)")
    parser.add_argument("--envs", type=int, default=50, help="AEC envs whose memory is measured (0: none)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds of every loop, alternated; each row shows its best round (the ratios too)")
    parser.add_argument("--rlcard-games", type=int, default=None,
                        help="RLCard games a round (default: 10x --games, its games being about 25x shorter)")
    args = parser.parse_args()
    # Memory first: while a Game of the variant is alive its tables are too, and the first env would find them built.
    memory = []
    if args.envs:
        per_env, shared = env_memory(args.variant, args.players, args.envs)
        memory.append(f"  memory of an AEC env (tracemalloc, {args.envs} envs of one Game, each reset and stepped 20 "
                      f"times): {per_env:.1f} KiB per env; the tables they share, once per variant: {shared:.0f} KiB")
        # Envs that do not share a Game object: the tables are shared by the variant's content (rl/tables.py),
        # and envs made from the file share the compiled Game too. Fewer envs: each loads the variant.
        few = min(args.envs, 10)
        for source, how in (("load", "each with a Game of its own (unodsl.load per env)"),
                            ("file", "each made from the file (rl.env(path))")):
            per_env, _ = env_memory(args.variant, args.players, few, source=source)
            memory.append(f"  memory of an AEC env, {few} envs {how}: {per_env:.1f} KiB per env")
    game = unodsl.load(args.variant)
    # On a shared machine a timing moves with the load from one second to the next: the loops are run in
    # rounds, one after another, and each keeps its best round (the least disturbed), so that a ratio is
    # of two timings made close together; the load is printed beside them.
    loops = [("raw API (legal_action_ids + apply_id)", lambda: raw(game, args.players, args.games)),
             ("PettingZoo AEC (last + mask + step)", lambda: aec(game, args.players, args.games)),
             ("  the same, observation a constant's copy", lambda: aec(game, args.players, args.games, floor=True)),
             ("GymSeat (agent steps only; bots inside)", lambda: gym_seat(game, args.players, args.games))]
    if not args.no_rlcard and args.players == 2:
        rlcard_games = args.rlcard_games or 10 * args.games
        loops.append(("RLCard env.run (uno, random agents)", lambda: rlcard_env(rlcard_games)))
    best: dict[str, tuple[int, float]] = {}
    for _ in range(max(1, args.repeats)):
        for name, loop in loops:
            measured = loop()
            if measured is not None and (name not in best or measured[0] / measured[1] > best[name][0] / best[name][1]):
                best[name] = measured
    rows = [(name, best[name]) for name, _ in loops if name in best]
    base = rows[0][1][0] / rows[0][1][1]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{Path(args.variant).name}, {args.players} players, {args.games} games, best of {max(1, args.repeats)} "
          f"rounds; load average {load} (2 cores: above ~1.5 other jobs slow every row)")
    for name, (steps, seconds) in rows:
        rate = steps / seconds
        print(f"  {name:<42} {steps:8d} steps {seconds:6.2f} s {rate:10.0f} steps/s  {rate / base:5.2f}x raw")
    by_name = {name: steps / seconds for name, (steps, seconds) in rows}
    if "RLCard env.run (uno, random agents)" in by_name:
        ratio = by_name["PettingZoo AEC (last + mask + step)"] / by_name["RLCard env.run (uno, random agents)"]
        print(f"  PettingZoo AEC / RLCard env.run: {ratio:.2f}x (RLCard's rules give shorter games; "
              f"steps/s is per action either way)")
        floor = by_name["  the same, observation a constant's copy"] / by_name["RLCard env.run (uno, random agents)"]
        print(f"  the same with a constant observation / RLCard env.run: {floor:.2f}x (no encoder could do better)")
    for line in memory:
        print(line)
    if args.openspiel_games:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("  OpenSpiel: not installed (the openspiel extra)")
            return
        for chance in ("explicit", "sampled"):
            steps, seconds, outcomes = openspiel_game(args.variant, args.players, args.openspiel_games, chance)
            rate = steps / seconds
            print(f"  {'OpenSpiel, chance=' + chance:<42} {steps:8d} steps {seconds:6.2f} s {rate:10.0f} steps/s  "
                  f"{rate / base:5.2f}x raw, {outcomes / args.openspiel_games:.0f} chance outcomes a game")


if __name__ == "__main__":
    main()
