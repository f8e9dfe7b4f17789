"""A Gymnasium environment of one seat: the other seats are played by unodsl's bots."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..agents.bots import make_bot
from .actions import LegalIds, action_strings, action_table
from .aec import REWARDS, IllegalActionError, win_rewards
from .observation import ObservationEncoder
from .tables import load_game


class GymSeat(gym.Env):
    """Seat `seat` of a table whose other seats are bots (`opponents`, one name per other seat).

    Observations are the vector of `ObservationEncoder`; `action_masks()` gives the legal
    actions, as sb3-contrib's MaskablePPO asks. An illegal action raises IllegalActionError;
    with `illegal="lose"` it ends the episode instead, with reward -1 and the action named in
    `info["illegal_action"]` (for tools that step unmasked random actions, as Gymnasium's
    `check_env` does). It is never replaced by a legal one.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant="variants/classic.yaml", seat: int = 0, opponents=("heuristic",),
                 max_turns: int | None = None, reward: str = "win", full_state: bool = False,
                 render_mode: str | None = None, illegal: str = "raise"):
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game = game = load_game(variant)
        self.opponent_names = list(opponents)
        self.num_players = n = len(self.opponent_names) + 1
        game.check_players(n)
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, not {seat}")
        self.seat = seat
        self.max_turns = max_turns
        self.reward_kind = reward
        self.render_mode = render_mode
        self.actions = action_table(game, n)          # shared by the environments of this variant
        self.encoder = ObservationEncoder(game, n, full_state=full_state)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.actions.size)
        self.state = None
        self.bots: dict[int, object] = {}
        self._legal = LegalIds()
        self._action_strings = action_strings(game)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.state = self.game.new_game(players=self.num_players, seed=rng.getrandbits(63))
        others = [p for p in range(self.num_players) if p != self.seat]
        self.bots = {p: make_bot(name, random.Random(rng.getrandbits(63)))
                     for p, name in zip(others, self.opponent_names)}
        self._play_bots()
        return self._obs(), self._info()

    def _play_bots(self) -> None:
        """Let the bots decide until this seat must, or the round is over."""
        st, seat, bots, cap = self.state, self.seat, self.bots, self.max_turns
        # is_over, current_player and _truncated() read inline: this loop runs once per bot move.
        while not st.over and st.pending[1] != seat and (cap is None or st.turns <= cap):
            st.apply_id(bots[st.pending[1]].act(st))

    def _truncated(self) -> bool:
        return self.max_turns is not None and self.state.turns > self.max_turns

    def _obs(self) -> np.ndarray:
        return self.encoder.encode(self.state, self.seat)

    def _info(self) -> dict:
        st = self.state
        if st.current_player != self.seat:
            return {"legal_actions": [], "decision": None, "action_mask": np.zeros(self.actions.size, bool)}
        ids = self._legal(st)
        return {"legal_actions": list(map(self._action_strings.__getitem__, ids)), "decision": st.decision,
                "action_mask": self.actions.mask(self.seat, ids, bool)}

    def action_masks(self) -> np.ndarray:
        """True at each legal action id of this seat (all False when it is not to act)."""
        st = self.state
        if st is None or st.current_player != self.seat:
            return np.zeros(self.actions.size, bool)
        return self.actions.mask(self.seat, self._legal(st), bool)

    def step(self, action):
        st = self.state
        if st is None or st.is_over or st.current_player != self.seat:
            raise IllegalActionError("step() called when this seat is not to act; call reset()")
        a = int(action)
        if not 0 <= a < self.actions.size:
            raise IllegalActionError(f"action {action!r} is not in Discrete({self.actions.size})")
        engine_id = self.actions.to_engine(a, self.seat)
        if engine_id not in self._legal(st):
            if self.illegal == "lose":
                self.state = None           # the episode is over: step() again raises until reset()
                info = {"legal_actions": [], "decision": None, "illegal_action": self.actions.label(a),
                        "action_mask": np.zeros(self.actions.size, bool)}
                return self.encoder.encode(st, self.seat), -1.0, True, False, info
            raise IllegalActionError(f"'{self.actions.label(a)}' is not legal now "
                                     f"(legal: {', '.join(st.legal_actions())})")
        st.apply_id(engine_id)
        self._play_bots()
        reward, terminated = 0.0, st.is_over
        if terminated:
            if self.reward_kind == "points" and self.game.variant.scoring != "none":
                sign = -1.0 if self.game.variant.scoring == "lowest_held" else 1.0
                reward = sign * st.scores[self.seat]
            else:
                reward = win_rewards(st, self.num_players)[self.seat]
        truncated = not terminated and self._truncated()
        return self._obs(), float(reward), terminated, truncated, self._info()

    def render(self):
        if self.render_mode == "ansi":
            st = self.state
            return f"top {st.top_card} color {st.current_color}; hand {' '.join(st.hand(self.seat))}"
        return None
