"""Reinforcement-learning environments for any variant (the `rl` extra: pettingzoo, gymnasium, numpy)."""

from __future__ import annotations

from .actions import ActionTable, capabilities
from .aec import IllegalActionError, UnoEnv, win_rewards
from .observation import ObservationEncoder
from .parallel import ParallelUnoEnv
from .resample import resample_hidden

ENV_ID = "unodsl/uno-v0"
PARALLEL_ENV_ID = "unodsl/uno-parallel-v0"


def raw_env(variant="variants/classic.yaml", **kwargs) -> UnoEnv:
    """The AEC environment without wrappers."""
    return UnoEnv(variant, **kwargs)


def env(variant="variants/classic.yaml", num_players: int = 4, max_turns: int | None = None, reward: str = "win",
        render_mode: str | None = None, full_state: bool = False) -> UnoEnv:
    """A PettingZoo AEC environment of `variant` (a path or a loaded Game)."""
    return UnoEnv(variant, num_players=num_players, max_turns=max_turns, reward=reward,
                  render_mode=render_mode, full_state=full_state)


def parallel_env(variant="classic", num_players: int = 4, max_turns: int | None = None, reward: str = "win",
                 render_mode: str | None = None, full_state: bool = False) -> ParallelUnoEnv:
    """A PettingZoo Parallel environment of `variant`: each step applies the action of the agent the engine asks."""
    return ParallelUnoEnv(variant, num_players=num_players, max_turns=max_turns, reward=reward,
                          render_mode=render_mode, full_state=full_state)


def register() -> None:
    """Register `unodsl/uno-v0` (AEC) and `unodsl/uno-parallel-v0` with PettingZoo's registry (1.27 and later), once."""
    try:
        from pettingzoo import aec_registry, parallel_registry, register as pz_register
    except ImportError:         # an older PettingZoo has no registry: env() and parallel_env() are the way in
        return
    if ENV_ID not in aec_registry:
        pz_register("aec", ENV_ID, entry_point="unodsl.rl:env")
    if PARALLEL_ENV_ID not in parallel_registry:
        pz_register("parallel", PARALLEL_ENV_ID, entry_point="unodsl.rl:parallel_env")


register()

__all__ = ["ENV_ID", "PARALLEL_ENV_ID", "ActionTable", "GymSeat", "IllegalActionError", "ObservationEncoder", "ParallelUnoEnv", "UnoEnv",
           "capabilities", "env", "parallel_env", "raw_env", "register", "resample_hidden", "win_rewards"]


def __getattr__(name):
    # GymSeat imports gymnasium's Env class and the bots: loaded when asked for.
    if name == "GymSeat":
        from .gym import GymSeat
        return GymSeat
    raise AttributeError(f"module 'unodsl.rl' has no attribute {name!r}")
