"""Time RLCard's UNO environment loop (`rlcard.make('uno')`, `env.run` with random agents).

Run by `benchmarks/bench_rl.py` inside RLCard's own venv (built by `rlcard_bench.ensure_venv`):
`python rlcard_env_loop.py GAMES SEED` prints one JSON object: steps, seconds, games.
A step is one action of one agent (each trajectory is state, action, state, ...).
"""

import json
import sys
import time

import rlcard
from rlcard.agents import RandomAgent


def main() -> None:
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    for _ in range(20):             # warm-up
        env.run(is_training=False)
    steps, start = 0, time.perf_counter()
    for _ in range(games):
        trajectories, _ = env.run(is_training=False)
        steps += sum((len(t) - 1) // 2 for t in trajectories)
    seconds = time.perf_counter() - start
    print(json.dumps({"steps": steps, "seconds": seconds, "games": games, "players": env.num_players,
                      "rlcard": rlcard.__version__}))


if __name__ == "__main__":
    main()
