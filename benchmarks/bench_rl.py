"""Steps per second: random legal actions through the raw API, the PettingZoo AEC env and GymSeat.

Prints figures; asserts nothing. `python benchmarks/bench_rl.py [--variant FILE] [--players N] [--games G]`.
"""

from __future__ import annotations

import argparse
import random
import time
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


def aec(game, players: int, games: int) -> tuple[int, float]:
    env = rl.env(game, num_players=players)
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def gym_seat(game, players: int, games: int) -> tuple[int, float]:
    env = rl.GymSeat(game, opponents=["random"] * (players - 1))
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, term, trunc, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            done = term or trunc
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default=str(REPO / "variants" / "classic.yaml"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    game = unodsl.load(args.variant)
    rows = [("raw API (legal_action_ids + apply_id)", raw(game, args.players, args.games))]
    rows.append(("PettingZoo AEC (last + mask + step)", aec(game, args.players, args.games)))
    rows.append(("GymSeat (agent steps only; bots inside)", gym_seat(game, args.players, args.games)))
    base = rows[0][1][0] / rows[0][1][1]
    print(f"{Path(args.variant).name}, {args.players} players, {args.games} games")
    for name, (steps, seconds) in rows:
        rate = steps / seconds
        print(f"  {name:<42} {steps:8d} steps {seconds:6.2f} s {rate:10.0f} steps/s  {rate / base:5.2f}x raw")


if __name__ == "__main__":
    main()
