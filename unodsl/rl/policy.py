"""A trained policy played with numpy alone: the shipped baseline for classic, and any policy exported the same way.

A policy file is a plain `.npz`: the layers of a small MLP (`w0`, `b0`, `w1`, `b1`, ...; tanh between
them, the last layer's outputs the logits over the RL action table), `scale` (multiplies the
observation vector first) and `meta` (JSON: the variant's name, the number of players, the sizes,
how it was trained). `benchmarks/train_baseline.py` trains one with sb3-contrib's MaskablePPO and
exports it; playing it needs no torch. The policy reads what its seat may see only: the
observation vector of `ObservationEncoder` (the leak test holds it to that) and the legal actions.

    from unodsl.rl.policy import PolicyBot
    bot = PolicyBot.baseline()               # the shipped classic policy, 2 players
    state.apply_id(bot.act(state))

As a seat of every front end it is the named seat `baseline` (`--bots baseline`; PolicyAgent).
"""

from __future__ import annotations

import json
import os
import random

import numpy as np

from ..agents.view import Bot
from .actions import ActionTable, LegalIds
from .observation import ObservationEncoder

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "policies", "classic-2p.npz")


class PolicyError(ValueError):
    """A policy file that cannot be read, or a game it was not trained for."""


class Policy:
    """The weights of an exported policy, with what they were trained on."""

    def __init__(self, path: str):
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as err:
            raise PolicyError(f"cannot read the policy file '{path}': {err}") from None
        try:
            self.meta = json.loads(str(arrays.pop("meta")))
            self.scale = arrays.pop("scale").astype(np.float32)
            count = len(arrays) // 2
            self.layers = [(arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32))
                           for i in range(count)]
        except (KeyError, ValueError) as err:
            raise PolicyError(f"'{path}' is not a policy file (w0, b0, ..., scale, meta): {err}") from None
        if not self.layers or self.layers[0][0].shape[0] != self.scale.shape[0]:
            raise PolicyError(f"'{path}': the first layer does not take the observation's {self.scale.shape[0]} numbers")
        self.path = path

    @property
    def observation_size(self) -> int:
        return int(self.scale.shape[0])

    @property
    def action_size(self) -> int:
        return int(self.layers[-1][0].shape[1])

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The action logits for one observation vector."""
        x = observation.astype(np.float32) * self.scale
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        return x


class PolicyBot(Bot):
    """A seat played by an exported policy: the legal action with the highest logit (`sample=True`: drawn from the
    masked softmax with the bot's generator)."""

    name = "baseline"

    def __init__(self, rng=None, path: str = BASELINE, sample: bool = False):
        super().__init__(rng if rng is not None else random.Random(0))
        self.policy = _load(path)
        self.sample = sample
        self._tables: dict[tuple[int, int], tuple[ObservationEncoder, ActionTable]] = {}
        self._legal = LegalIds()

    @classmethod
    def baseline(cls, rng=None) -> PolicyBot:
        """The shipped baseline: classic UNO, 2 players, trained by benchmarks/train_baseline.py."""
        return cls(rng, BASELINE)

    def _tables_for(self, state) -> tuple[ObservationEncoder, ActionTable]:
        return self.tables(state.g, state.n)

    def tables(self, game, n: int) -> tuple[ObservationEncoder, ActionTable]:
        """The encoder and action table of `game` at `n` players; PolicyError when the policy was trained for another."""
        key = (id(game), n)
        found = self._tables.get(key)
        if found is None:
            encoder, actions = ObservationEncoder(game, n), ActionTable(game, n)
            meta = self.policy.meta
            if (encoder.size, actions.size) != (self.policy.observation_size, self.policy.action_size):
                raise PolicyError(f"the policy '{os.path.basename(self.policy.path)}' plays "
                                  f"{meta.get('variant', '?')} with {meta.get('players', '?')} players "
                                  f"({self.policy.observation_size} observation numbers, {self.policy.action_size} "
                                  f"actions), not {game.variant.name} with {n} ({encoder.size}, {actions.size})")
            found = self._tables[key] = (encoder, actions)
        return found

    def act(self, state) -> int:
        """The engine id of the action the policy takes for the seat to act."""
        legal = self._legal(state)
        if len(legal) == 1:
            return legal[0]
        encoder, actions = self._tables_for(state)
        seat = state.current_player
        return self.choose(encoder.encode(state, seat), legal, seat, actions)

    def choose(self, observation, legal: list[int], seat: int, actions: ActionTable) -> int:
        """The engine id the policy takes, from the seat's observation vector and its legal engine ids."""
        logits = self.policy.logits(observation)
        mask = actions.mask(seat, legal, bool)
        logits = np.where(mask, logits, -np.inf)
        if self.sample:
            p = np.exp(logits - logits.max())
            p /= p.sum()
            chosen = int(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum()))
            chosen = min(chosen, len(p) - 1)
            if not mask[chosen]:
                chosen = int(np.argmax(logits))
        else:
            chosen = int(np.argmax(logits))
        return actions.to_engine(chosen, seat)

    def decide(self, view) -> int:
        raise NotImplementedError("a policy decides from its seat's observation vector: call act(state)")


class PolicyAgent:
    """The policy as an agent of the seat protocol (agents/seats.py): the named seat `baseline`
    (`--bots baseline`), or `py:unodsl.rl.policy:PolicyAgent:path=FILE.npz` for another exported policy."""

    def __init__(self, path: str = BASELINE, sample: str = "false"):
        self.bot = PolicyBot(random.Random(0), path, sample=str(sample).lower() in ("true", "1", "yes"))

    def act(self, view) -> int:
        """The action id for the seat deciding in `view` (an AgentView), from its observation vector."""
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        encoder, actions = self.bot.tables(view.game, len(view.hand_sizes))
        if view.rng is not None:
            self.bot.rng = view.rng
        return self.bot.choose(view.observe(encoder), legal, view.seat, actions)


_LOADED: dict[str, Policy] = {}


def _load(path: str) -> Policy:
    """A policy file read once per process (bots of a simulation share its weights)."""
    key = os.path.realpath(path)
    if key not in _LOADED:
        _LOADED[key] = Policy(path)
    return _LOADED[key]
