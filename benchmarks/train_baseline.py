"""Train the shipped baseline policy for classic UNO (2 players) and export it as a plain .npz that numpy plays.

MaskablePPO (sb3-contrib) trains one seat, at seat 0 or 1 in turn, against the random bot and the heuristic
bot (`--heuristic-share` of the episodes), for `--minutes` of wall time. The actor network (two tanh layers
of 64 and the action logits) and the observation's scale are exported to `--out`
(unodsl/rl/policies/classic-2p.npz by default), which `unodsl.rl.policy.PolicyBot` plays without torch.
Then the exported policy itself, played by numpy (the legal action of highest logit), is measured against
the random and the heuristic bot over `--games` paired deals (each deal twice, the policy at seat 0 and at
seat 1), with Wilson 95% intervals. Prints figures; asserts nothing.

Needs sb3-contrib and PyTorch (docs/rl.md says how to install them):

    nice python benchmarks/train_baseline.py --minutes 10
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np

# benchmarks/profile.py would shadow the standard library's profile, which torch imports (via cProfile).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import unodsl  # noqa: E402
from unodsl.rl import GymSeat  # noqa: E402
from unodsl.rl.policy import BASELINE, PolicyBot  # noqa: E402
from unodsl.runs.intervals import wilson  # noqa: E402

try:                                    # noqa: E402
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
except ImportError as err:          # not installed: say how, without a traceback
    sys.exit(f"train_baseline.py needs sb3-contrib and PyTorch ({err.name} is missing): see docs/rl.md")


def _budget():
    """train_maskable.py's Budget callback (this folder is off sys.path: see above)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("train_maskable", Path(__file__).with_name("train_maskable.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Budget


class Mixed(gym.Env):
    """One seat of classic at 2 players; each episode at seat 0 or 1 in turn, against heuristic or random, the
    observation scaled by each field's upper bound."""

    def __init__(self, heuristic_share: float, max_turns: int, seed: int):
        self.envs = {(seat, bot): GymSeat("classic", seat=seat, opponents=[bot], max_turns=max_turns)
                     for seat in (0, 1) for bot in ("random", "heuristic")}
        first = self.envs[0, "random"]
        high = first.observation_space.high
        self.scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-9), 1.0).astype(np.float32)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, first.observation_space.shape, np.float32)
        self.action_space = first.action_space
        self.share, self.rng, self.episode = heuristic_share, random.Random(seed), 0
        self.env = first

    def reset(self, *, seed=None, options=None):
        bot = "heuristic" if self.rng.random() < self.share else "random"
        self.env = self.envs[self.episode % 2, bot]
        self.episode += 1
        obs, info = self.env.reset(seed=self.rng.getrandbits(62))
        return obs * self.scale, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs * self.scale, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def export(model, scale: np.ndarray, out: Path, meta: dict) -> None:
    """The actor's linear layers (torch's weight transposed: x @ w + b) and the scale, as a plain .npz."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    arrays = {}
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float16)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, scale=scale.astype(np.float32), meta=np.array(json.dumps(meta)), **arrays)


def measure(path: Path, opponent: str, deals: int, first_seed: int) -> tuple[int, int, int]:
    """Wins, games and games without a winner of the exported policy (numpy) over paired deals against `opponent`."""
    from unodsl.agents.bots import make_bot
    game = unodsl.load("classic")
    policy = PolicyBot(random.Random(0), str(path))
    wins = games = none = 0
    for deal in range(deals):
        for seat in (0, 1):
            state = game.new_game(2, seed=first_seed + deal)
            other = make_bot(opponent, random.Random(first_seed + deal))
            while not state.is_over and state.turns <= 1000:
                player = policy if state.current_player == seat else other
                state.apply_id(player.act(state))
            wins += state.winner == seat
            none += state.winner is None
            games += 1
    return wins, games, none


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--timesteps", type=int, default=20_000_000)
    ap.add_argument("--heuristic-share", type=float, default=0.7)
    ap.add_argument("--games", type=int, default=500, help="paired deals per opponent (2 games each)")
    ap.add_argument("--max-turns", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=BASELINE)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"MaskablePPO on classic, 2 players, against random and heuristic ({args.heuristic_share:.0%} heuristic); "
          f"{platform.machine()}, Python {platform.python_version()}, torch {torch.__version__}, {stamp}")
    env = Mixed(args.heuristic_share, args.max_turns, args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=_budget()(args.minutes * 60))
    took = time.perf_counter() - start
    print(f"trained {model.num_timesteps:,} timesteps in {took:.0f} s ({model.num_timesteps / took:,.0f} steps/s)")
    out = Path(args.out)
    meta = {"variant": "classic", "players": 2, "trained_by": "benchmarks/train_baseline.py",
            "algorithm": "MaskablePPO (sb3-contrib), MlpPolicy 64-64 tanh", "timesteps": int(model.num_timesteps),
            "opponents": {"heuristic": args.heuristic_share, "random": 1 - args.heuristic_share},
            "seed": args.seed, "date": stamp, "torch": torch.__version__}
    export(model, env.scale, out, meta)
    print(f"exported to {out} ({out.stat().st_size:,} bytes)")
    for opponent in ("random", "heuristic"):
        t = time.perf_counter()
        wins, games, none = measure(out, opponent, args.games, 1_000_000 + args.seed)
        low, high = wilson(wins, games)
        print(f"  against {opponent:<10} won {wins / games:6.1%} of {games} games (95% CI {low:.1%} to {high:.1%}; "
              f"{none} without a winner)  [{time.perf_counter() - t:.0f} s]")


if __name__ == "__main__":
    main()
