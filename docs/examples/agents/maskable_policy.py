"""A trained policy in a unodsl seat: a MaskablePPO checkpoint (sb3-contrib) made by benchmarks/train_maskable.py.

    python benchmarks/train_maskable.py --minutes 5 --save policy.zip
    unodsl simulate classic --players 2 -n 100 --bots py:docs/examples/agents/maskable_policy.py:MaskablePolicy:path=policy.zip,heuristic

The policy reads the seat's observation as the Gymnasium seat it was trained in encodes it
(`view.observe(encoder)`, scaled as train_maskable.py scales it) and chooses among the legal actions
(the action mask); the checkpoint is loaded once per process, not once per game.
"""

from __future__ import annotations

import functools

import numpy as np

from unodsl.rl.actions import ActionTable
from unodsl.rl.observation import ObservationEncoder


@functools.lru_cache(maxsize=4)
def _load(path: str):
    from sb3_contrib import MaskablePPO
    return MaskablePPO.load(path, device="cpu")


@functools.lru_cache(maxsize=16)
def _tables(game, players: int):
    encoder = ObservationEncoder(game, players)
    high = encoder.high
    scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-9), 1.0).astype(np.float32)
    return encoder, ActionTable(game, players), scale


class MaskablePolicy:
    """Plays the checkpoint at `path` (deterministic: the policy's likeliest legal action)."""

    def __init__(self, path: str, deterministic: str = "yes"):
        self.model = _load(path)
        self.deterministic = deterministic == "yes"

    def act(self, view):
        players = len(view.observation["hand_sizes"])
        encoder, actions, scale = _tables(view.game, players)
        obs = view.observe(encoder) * scale
        mask = actions.mask(view.seat, view.legal, bool)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return actions.to_engine(int(action), view.seat)
