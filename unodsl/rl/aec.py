"""The PettingZoo AEC environment: one agent per seat, every decision an ordinary step of its agent."""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from .actions import LegalIds, action_strings, action_table
from .observation import ObservationEncoder
from .tables import load_game

REWARDS = ("win", "points")


class IllegalActionError(ValueError):
    """An agent chose an action that is not legal for it now."""


class UnoEnv(AECEnv):
    """A variant of UNO as a PettingZoo AEC environment (see docs/rl.md for the encoding)."""

    metadata = {"name": "unodsl/uno-v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant="variants/classic.yaml", num_players: int = 4, max_turns: int | None = None,
                 reward: str = "win", render_mode: str | None = None, full_state: bool = False):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.game = game = load_game(variant)
        game.check_players(num_players)
        self.num_players = n = num_players
        self.max_turns = max_turns
        self.reward_kind = reward
        self.render_mode = render_mode
        self.actions = action_table(game, n)          # shared by the environments of this variant
        self._engine_of = self.actions.engine_of        # [seat][rl id], one row of actions.size per seat
        self.encoder = ObservationEncoder(game, n, full_state=full_state)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self.state = None
        self._seeds = random.Random()
        self._legal = LegalIds()
        self._deciding = None           # the agent whose infos name its decision, if any
        # The engine's action strings by id, once per variant: infos list them at every step.
        self._action_strings = action_strings(game)
        self._string_of = self._action_strings.__getitem__

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- episode

    def reset(self, seed=None, options=None):
        """Deal a new round; `seed` fixes the deal and every shuffle after it."""
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.game.new_game(players=self.num_players, seed=self._seeds.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"legal_actions": [], "decision": None} for a in self.agents}
        self._deciding = None
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the seat that decides, and say what it decides in the infos.

        Only two agents' infos change in a step: the one that decided before and the one that decides now.
        """
        st = self.state
        infos = self.infos
        if not st.over:                 # State.current_player and State.decision, read inline
            decision, cur = st.pending[0], st.pending[1]
            agent = self.possible_agents[cur]
            if self._deciding != agent and self._deciding in infos:
                infos[self._deciding] = {"legal_actions": [], "decision": None}
            self.agent_selection = self._deciding = agent
            # A new position: the engine is asked once, and observe() and step() read the answer.
            legal = self._legal
            ids = st.legal_action_ids()
            legal.state, legal.moves, legal.ids = st, len(st.history), ids
            infos[agent] = {"legal_actions": list(map(self._string_of, ids)), "decision": decision}
        else:
            if self._deciding in infos:
                infos[self._deciding] = {"legal_actions": [], "decision": None}
            self._deciding = None
            if self.agents:
                self.agent_selection = self.agents[0]

    def _to_act(self, agent) -> int:
        """The seat of `agent` if it is to act now, else -1."""
        seat = self.seat_of[agent]
        return seat if self.state.current_player == seat and agent in self.agents else -1

    def legal_actions(self, agent) -> list[int]:
        """The RL ids legal for `agent` now (empty when it is not to act)."""
        seat = self._to_act(agent)
        if seat < 0:
            return []
        rl_of = self.actions.rl_of[seat]
        return [rl_of[e] for e in self._legal(self.state)]

    def action_mask(self, agent) -> np.ndarray:
        """1 at each legal RL id of `agent`, all zeros when it is not to act."""
        seat = self._to_act(agent)
        if seat < 0:
            return np.zeros(self.actions.size, np.int8)
        return self.actions.mask(seat, self._legal(self.state))

    def agent_iter(self, max_iter: int = 2**63):
        """Yield the agent to act until every agent is done (or `max_iter` agents): PettingZoo's, as a generator
        (its iterator's `__next__` is a Python method call a step)."""
        return _AgentIter(self, max_iter)

    def last(self, observe: bool = True):
        """The observation, cumulative reward, termination, truncation and infos of the agent to act (PettingZoo's)."""
        agent = self.agent_selection
        assert agent is not None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent):
        # action_mask(agent) and ActionTable.mask inline: an observation a step.
        seat = self.seat_of[agent]
        st = self.state
        mask = np.zeros(self.actions.size, np.int8)
        if not st.over and st.pending[1] == seat and agent in self.agents:     # _to_act inline
            legal = self._legal
            rl_of = self.actions.rl_of[seat]
            for e in legal.ids if legal.state is st and len(st.history) == legal.moves else legal(st):
                mask[rl_of[e]] = 1
        return {"observation": self.encoder.encode(st, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of[agent]
        st = self.state
        a = -1 if action is None else int(action)
        engine_of = self._engine_of[seat]
        if not 0 <= a < len(engine_of):
            raise IllegalActionError(f"{agent}: action {action!r} is not in Discrete({self.actions.size})")
        engine_id = engine_of[a]
        legal = self._legal
        if engine_id not in (legal.ids if legal.state is st and len(st.history) == legal.moves else legal(st)):
            raise IllegalActionError(f"{agent}: '{self.actions.label(a)}' is not legal now "
                                     f"(legal: {', '.join(st.legal_actions())})")
        self._cumulative_rewards[agent] = 0.0
        st.apply_id(engine_id)
        # Rewards are all zero from reset to the round's end (only _finish sets them, and the steps
        # of the finished agents clear them): a step that does not end the round has none to add.
        over = st.over
        if over:
            self._finish()
        elif self.max_turns is not None and st.turns > self.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        if over:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """Hand out the round's rewards and end every agent's episode."""
        st = self.state
        n = self.num_players
        if self.reward_kind == "points" and self.game.variant.scoring != "none":
            sign = -1.0 if self.game.variant.scoring == "lowest_held" else 1.0
            values = [sign * st.scores[p] for p in range(n)]
        else:
            values = win_rewards(st, n)
        for a in self.agents:
            self.rewards[a] = float(values[self.seat_of[a]])
            self.terminations[a] = True

    def render(self):
        if self.render_mode is None:
            return None
        st = self.state
        lines = [f"top {st.top_card} color {st.current_color} | seat {st.current_player} decides {st.decision}"]
        lines += [f"  player_{p}: {len(st.hand(p))} cards" for p in range(self.num_players)]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class _AgentIter(AECIterable):
    """PettingZoo's AECIterable, its iterator a generator: the same agents, stopped at the same points."""

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def win_rewards(state, n: int) -> list[float]:
    """Zero-sum win rewards: +1 to each winning seat (a team wins together), the losers share -1 each winner."""
    if state.winner is None:
        return [0.0] * n
    winners = [p for p in range(n) if state.same_team(p, state.winner)]
    losers = n - len(winners)
    if not losers:
        return [0.0] * n
    return [1.0 if p in winners else -len(winners) / losers for p in range(n)]
