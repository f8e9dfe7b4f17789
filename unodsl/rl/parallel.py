"""The PettingZoo Parallel API over the same game: every live agent is stepped at once, and the one the engine
asks (its mask the only one not all zeros) decides.

A turn-based game in the Parallel API, as PettingZoo's own turn-based conversion has it: `step(actions)`
takes a dict holding an action for each live agent; only the action of the agent to act is applied
(one decision: a play, a colour, a challenge...), the others are ignored (any value, or left out).
Observations, masks, rewards and infos are the AEC environment's (`unodsl.rl.env`, docs/rl.md), one
entry per live agent; when the round ends every agent is terminated at once and `agents` empties.
"""

from __future__ import annotations

from pettingzoo import ParallelEnv

from .aec import IllegalActionError, UnoEnv


class ParallelUnoEnv(ParallelEnv):
    """A variant of UNO in the PettingZoo Parallel API (the AEC environment's game, spaces and rewards)."""

    metadata = {"name": "unodsl/uno-parallel-v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, variant="classic", num_players: int = 4, max_turns: int | None = None, reward: str = "win",
                 render_mode: str | None = None, full_state: bool = False):
        self.aec = UnoEnv(variant, num_players=num_players, max_turns=max_turns, reward=reward,
                          render_mode=render_mode, full_state=full_state)
        self.game = self.aec.game
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def state(self):
        """The engine State of the round (None before reset)."""
        return self.aec.state

    @property
    def actions(self):
        """The frozen action table (docs/rl.md): labels, to_engine, from_engine."""
        return self.aec.actions

    @property
    def agent_to_act(self) -> str | None:
        """The agent whose action the next step applies (None once the round is over)."""
        return self.aec.agent_selection if self.agents and not self.aec.state.over else None

    def reset(self, seed=None, options=None):
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._observations(), self._infos()

    def step(self, actions: dict):
        if not self.agents:
            raise IllegalActionError("step() after the round is over; call reset()")
        agent = self.aec.agent_selection
        if agent not in actions or actions[agent] is None:
            raise IllegalActionError(f"{agent} is to act, and the actions hold none for it")
        self.aec.step(actions[agent])
        observations, infos = self._observations(), self._infos()
        rewards = {a: float(self.aec.rewards.get(a, 0.0)) for a in self.agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict:
        return {a: self.aec.observe(a) for a in self.agents}

    def _infos(self) -> dict:
        return {a: dict(self.aec.infos[a]) for a in self.agents}

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()
