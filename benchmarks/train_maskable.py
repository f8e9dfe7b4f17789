"""A baseline that shows the Gymnasium seat is usable: sb3-contrib's MaskablePPO on classic, 2 players.

Trains seat 0 against a random opponent for a few CPU minutes (`--minutes`, capped at `--timesteps`),
then plays `--games` paired deals against the random bot and against the heuristic bot (each deal
twice, the policy at seat 0 and at seat 1, so the deal's luck cancels) and prints the win rates with
Wilson 95% intervals, beside the same policy untrained (its initial weights) as the control.
Prints figures; asserts nothing.

sb3-contrib needs PyTorch, which is not a dependency of unodsl (no extra, not in CI): install both in a
venv of their own, torch's CPU build first (a plain `pip install torch` takes the CUDA build, GBs):

    python3 -m venv venv-sb3
    venv-sb3/bin/pip install torch --index-url https://download.pytorch.org/whl/cpu
    venv-sb3/bin/pip install -e ".[rl]" sb3-contrib
    nice venv-sb3/bin/python benchmarks/train_maskable.py --minutes 5
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

# benchmarks/profile.py would shadow the standard library's profile, which torch imports (via cProfile).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from unodsl.rl import GymSeat  # noqa: E402
from unodsl.runs.intervals import wilson  # noqa: E402

REPO = Path(__file__).resolve().parent.parent

try:                                    # noqa: E402
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError as err:          # not installed: say how, without a traceback
    sys.exit(f"train_maskable.py needs sb3-contrib and PyTorch ({err.name} is missing); see the docstring:\n"
             f"{__doc__.split('sb3-contrib needs', 1)[1]}")


class Scaled(gym.ObservationWrapper):
    """The seat's observation divided by each field's upper bound (counts up to 108 upset an MLP),
    with `action_masks()` passed through for MaskablePPO."""

    def __init__(self, env: GymSeat):
        super().__init__(env)
        high = env.observation_space.high
        self.scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-9), 1.0).astype(np.float32)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, env.observation_space.shape, np.float32)

    def observation(self, observation):
        return observation * self.scale

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class Budget(BaseCallback):
    """Stops training once `seconds` of wall time have passed."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds, self.start = seconds, time.perf_counter()

    def _on_step(self) -> bool:
        return time.perf_counter() - self.start < self.seconds


def seat_env(variant: str, seat: int, opponent: str, max_turns: int) -> Scaled:
    return Scaled(GymSeat(variant, seat=seat, opponents=[opponent], max_turns=max_turns))


def evaluate(model, variant: str, opponent: str, deals: int, max_turns: int, first_seed: int) -> tuple[int, int, int]:
    """Wins, games and unfinished games (turn cap) of `model` over `deals` paired deals against `opponent`
    (each deal at seats 0 and 1). The policy samples its actions, as it does in training."""
    wins = games = unfinished = 0
    envs = [seat_env(variant, seat, opponent, max_turns) for seat in (0, 1)]
    for deal in range(deals):
        for env in envs:
            obs, _ = env.reset(seed=first_seed + deal)
            done, reward, truncated = False, 0.0, False
            while not done:
                action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
                obs, reward, terminated, truncated, _ = env.step(int(action))
                done = terminated or truncated
            wins += reward > 0
            unfinished += truncated
            games += 1
    return wins, games, unfinished


def line(name: str, wins: int, games: int, unfinished: int) -> str:
    low, high = wilson(wins, games)
    return (f"  {name:<20} won {wins / games:6.1%} of {games} games  (95% CI {low:.1%} to {high:.1%}; "
            f"{unfinished} at the turn cap)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default=str(REPO / "variants/classic.yaml"))
    ap.add_argument("--minutes", type=float, default=5.0, help="training wall time (default 5)")
    ap.add_argument("--timesteps", type=int, default=10_000_000, help="training steps at most")
    ap.add_argument("--games", type=int, default=500, help="paired deals per opponent (2 games each)")
    ap.add_argument("--max-turns", type=int, default=300, help="turn cap of an episode (truncation)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", default=None, help="save the trained model here (a .zip; seat it with "
                    "py:docs/examples/agents/maskable_policy.py:MaskablePolicy:path=FILE)")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    print(f"MaskablePPO on {Path(args.variant).name}, 2 players, seat 0 against random; "
          f"{platform.machine()}, {platform.python_version()}, torch {torch.__version__}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    env = seat_env(args.variant, 0, "random", args.max_turns)
    untrained = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=Budget(args.minutes * 60))
    took = time.perf_counter() - start
    print(f"trained {model.num_timesteps:,} timesteps in {took:.0f} s ({model.num_timesteps / took:,.0f} steps/s)")
    if args.save:
        model.save(args.save)
        print(f"saved the model to {args.save}")
    eval_seed = 1_000_000 + args.seed
    for opponent in ("random", "heuristic"):
        print(f"against {opponent}, {args.games} paired deals (policy at seat 0 and at seat 1):")
        for name, policy in (("trained", model), ("untrained (control)", untrained)):
            t = time.perf_counter()
            wins, games, unfinished = evaluate(policy, args.variant, opponent, args.games, args.max_turns, eval_seed)
            print(line(name, wins, games, unfinished) + f"  [{time.perf_counter() - t:.0f} s]")


if __name__ == "__main__":
    main()
