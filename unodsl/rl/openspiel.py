"""An OpenSpiel Python game of any variant (the `openspiel` extra): `register(variant_path)`.

Sequential, imperfect information, zero-sum wins. Chance is EXPLICIT_STOCHASTIC by default: each
card dealt or drawn and each random number of an effect is a chance node, whose outcomes are the
faces the unresolved cards may show, each as likely as its share (engine/chance.py: a step is run
again, from a copy of the state before it, with one more outcome each time the engine asks for
one). `chance="sampled"` gives the SAMPLED_STOCHASTIC game instead: the engine's seeded generator
deals and draws inside `apply_action`, and there are no chance nodes.
The observation tensor is the RL environment's vector (`ObservationEncoder`); the information
state is that vector followed by the round's action history as the player may know it
(`InfoStateObserver`, layout in docs/rl.md); `resampler` deals the unseen cards again for
`ISMCTSBot.set_resampler`.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel

from ..engine import State
from ..engine.chance import NeedChance, as_chance, chance_state, chance_width
from .actions import ActionTable
from .aec import win_rewards
from .observation import ObservationEncoder
from .resample import resample_hidden
from .tables import load_game


def register(variant_path, num_players: int = 2, max_turns: int = 1000, short_name: str | None = None,
             chance: str = "explicit") -> str:
    """Register `variant_path` at `num_players` as an OpenSpiel game; return its short name for `pyspiel.load_game`.

    `chance`: "explicit" (chance nodes for the cards and random numbers) or "sampled" (none: the
    engine's generator deals and draws).
    """
    if chance not in ("explicit", "sampled"):
        raise ValueError(f"chance is 'explicit' or 'sampled', not {chance!r}")
    game = load_game(variant_path)
    game.check_players(num_players)
    explicit = chance == "explicit"
    width = chance_width(game, num_players)
    name = short_name or f"python_unodsl_{Path(str(variant_path)).stem.replace('-', '_')}_{num_players}p"
    table = ActionTable(game, num_players)
    encoder = ObservationEncoder(game, num_players)
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"unodsl {game.variant.name} ({num_players} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if explicit
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=num_players, min_num_players=num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0})
    max_steps = max_turns * 8           # players' steps: a state is terminal (truncated) at this many too
    # With chance nodes, a state is also terminal at `max_length` moves of players and chance
    # together: the deal, then (no bound holds for the draws) one chance outcome a step on average.
    max_length = 2 * max_steps + game.deck_size + 20 * num_players if explicit else max_steps
    info = pyspiel.GameInfo(num_distinct_actions=table.size,
                            max_chance_outcomes=game.num_kinds + width if explicit else 0,
                            num_players=num_players,
                            min_utility=-float(num_players - 1), max_utility=float(num_players - 1),
                            utility_sum=0.0, max_game_length=max_length)
    history = HistoryCode(table, num_players, max_steps)

    class UnoGame(pyspiel.Game):
        """The variant at a fixed table size."""

        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})
            self.engine_game, self.table, self.encoder, self.max_turns = game, table, encoder, max_turns
            self.history, self.explicit, self.width = history, explicit, width
            self.max_steps, self.max_length = max_steps, max_length
            self.seed = int((params or {}).get("seed", 0))
            self.deals = 0
            self.first_need = None      # explicit: what the deal asks chance first (the same for every state)
            self.rules = _Rules(self)   # what its states share

        def new_initial_state(self):
            """Return the round before its deal (chance deals it), or, sampled, a round dealt with the next seed."""
            if explicit:
                state = UnoState(self, None, self.first_need)
                self.first_need = state._need
                return state
            # Dealt when first looked at: OpenSpiel copies a state by making a new initial state and
            # then writing the copy's fields over it, and such a state must neither deal nor take a seed.
            return UnoState(self, _Deal(self.next_deal))

        def next_deal(self):
            """A round dealt with the next seed."""
            self.deals += 1
            return game.new_game(players=num_players, seed=self.seed * 1_000_003 + self.deals)

        def __reduce__(self):
            """Pickle as the name and parameters (unpickling needs the game registered)."""
            return pyspiel.load_game, (name, self.get_parameters())

        def make_py_observer(self, iig_obs_type=None, params=None):
            """Return the information-state observer for a perfect-recall type, else the observation's."""
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                return InfoStateObserver(encoder, history)
            return UnoObserver(encoder)

    pyspiel.register_game(game_type, UnoGame)
    return name


class _Rules:
    """What every state of one registered game shares; states share it when OpenSpiel copies them."""

    def __init__(self, game):
        self.game, self.table, self.encoder, self.max_turns = game.engine_game, game.table, game.encoder, game.max_turns
        self.max_steps, self.max_length, self.explicit = game.max_steps, game.max_length, game.explicit
        self.width, self.seed, self.players = game.width, game.seed, game.num_players()
        self.name, self.params = game.get_type().short_name, game.get_parameters()

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _rules_of, (self.name, self.params)


def _rules_of(name: str, params: dict) -> _Rules:
    """The rules of game `name` (registered in this process), as unpickled."""
    return pyspiel.load_game(name, params).rules


class _Deal:
    """A sampled round not dealt yet: `deal()` deals it."""

    def __init__(self, deal):
        self.deal = deal


class _Engine:
    """The engine State of an OpenSpiel state; a copy is the engine's own clone (generator included).

    A `frozen` State is never changed (with chance nodes, a step plays a clone of it), so copies share
    it. Pickled (OpenSpiel's `serialize`) as the engine's saved state, and where its chance stands.
    A sampled round is dealt when its state is first asked for (a copy asks too).
    """

    def __init__(self, state, rules: _Rules, frozen: bool = False):
        self._state, self.rules, self.frozen = state, rules, frozen

    @property
    def state(self):
        if self._state.__class__ is _Deal:
            self._state = self._state.deal()
        return self._state

    def __deepcopy__(self, memo):
        return self if self.frozen else _Engine(self.state.clone(), self.rules)

    def __reduce__(self):
        st = self.state
        resolved = (st.lo, st.hi) if self.rules.explicit else None
        return _engine_of, (self.rules, st.to_json(), resolved, self.frozen)


def _engine_of(rules: _Rules, saved: str, resolved: tuple | None, frozen: bool) -> _Engine:
    """An _Engine as unpickled: the saved state, with chance nodes a ChanceState with its unresolved cards."""
    state = State.from_json(rules.game, saved)
    if resolved is not None:
        state = as_chance(state, rules.width)
        state.lo, state.hi = resolved
    return _Engine(state, rules, frozen)


class _Steps(list):
    """The (seat, RL id) of every action applied; a copy is shallow (its tuples never change), since
    OpenSpiel copies a state at every step and a deep copy of a long history would cost more than the game."""

    def __deepcopy__(self, memo):
        return _Steps(self)


DEAL = -1        # UnoState._todo while the round is being dealt


class UnoState(pyspiel.State):
    """An OpenSpiel state wrapping an engine State.

    With chance nodes, `_engine` holds the state after the last step played in full; a step in
    progress is `_todo` (the engine action, or DEAL) with the outcomes `_told` so far, and `_need`
    says what chance must name next. Each outcome runs the step again from a copy of `_engine`.
    """

    def __init__(self, game, state, need: NeedChance | None = None):
        super().__init__(game)
        self._g = game.rules
        self._engine = None if state is None else _Engine(state, self._g)
        self.steps = _Steps()
        self.moves = 0                  # players' steps and chance outcomes
        self._todo, self._told, self._need = None, [], None
        if state is None:
            self._todo = DEAL
            if need is None:
                self._advance()
            else:
                self._need = need       # the deal's first question, known already

    @property
    def state(self):
        """The engine State (None while the first deal is still being named)."""
        return None if self._engine is None else self._engine.state

    def _advance(self):
        """Play the step in progress with the outcomes told, up to the end or the next chance node."""
        g = self._g
        try:
            if self._todo == DEAL:
                state = chance_state(g.game, g.players, self._told, seed=g.seed, width=g.width)
            else:
                state = self.state.clone()
                state.tell(self._told)
                state.apply_id(self._todo)
        except NeedChance as need:
            self._need = need
            return
        state.tell([])
        self._engine = _Engine(state, g, frozen=True)
        self._todo, self._told, self._need = None, [], None

    def current_player(self):
        """Return the seat to act, CHANCE at a chance node, or TERMINAL."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self._need is not None else self.state.current_player

    def chance_outcomes(self):
        """Return the (outcome, probability) pairs of this chance node."""
        return list(self._need.outcomes)

    def _legal_actions(self, player):
        """Return the RL ids legal for `player`, sorted."""
        rl_of = self._g.table.rl_of[player]
        return sorted(rl_of[e] for e in self.state.legal_action_ids())

    def _apply_action(self, action):
        """Apply an RL id of the seat to act, or a chance outcome."""
        self.moves += 1
        if self._need is not None:
            self._told.append(action)
            self._need = None
            self._advance()
            return
        seat = self.state.current_player
        engine_action = self._g.table.to_engine(action, seat)
        self.steps.append((seat, action))
        if self._g.explicit:
            self._todo, self._told = engine_action, []
            self._advance()
        else:
            self.state.apply_id(engine_action)

    def _action_to_string(self, player, action):
        """Return the seat-relative label of an RL id, or a chance outcome's: the card, or the value's index."""
        if player == pyspiel.PlayerId.CHANCE:
            names = self._g.game.card_names
            return f"chance: {names[action]}" if action < len(names) else f"chance: value {action - len(names)}"
        return self._g.table.label(action)

    def _truncated(self) -> bool:
        g = self._g
        if len(self.steps) >= g.max_steps or self.moves >= g.max_length:
            return True
        return self.state is not None and self.state.turns > g.max_turns

    def is_terminal(self):
        """Return True when the round is over or past the turn cap or the game's length."""
        return (self.state is not None and self.state.is_over and self._need is None) or self._truncated()

    def returns(self):
        """Return the zero-sum win rewards (0 to all when unfinished or nobody won)."""
        if self.state is None or not self.state.is_over or self._need is not None:
            return [0.0] * self.num_players()
        return win_rewards(self.state, self.num_players())

    def __str__(self):
        st = self.state
        if st is None:
            return "dealing"
        return f"top {st.top_card} color {st.current_color} seat {st.current_player} decides {st.decision}"

    def __reduce__(self):
        """Pickle as OpenSpiel serializes: the game's name and parameters, and `serialize()` (unpickling
        needs the game registered)."""
        game = self.get_game()
        return _deserialized, (game.get_type().short_name, game.get_parameters(), self.serialize())


def _deserialized(name: str, params: dict, text: str):
    return pyspiel.load_game(name, params).deserialize_state(text)


class UnoObserver:
    """Observation tensor and string of one seat: the RL environment's vector."""

    def __init__(self, encoder):
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {f.name: self.tensor[f.start:f.start + f.size] for f in encoder.fields}

    def set_from(self, state, player):
        """Write `player`'s observation of `state` into the tensor (all 0 before the deal)."""
        self.tensor[:] = 0 if state.state is None else self.encoder.encode(state.state, player)

    def string_from(self, state, player):
        """Return `player`'s observation as text (its hand and the public position)."""
        return observation_words(state, player)


def observation_words(state, player) -> str:
    """`player`'s view of `state` in words: its hand and the public position."""
    if state.state is None:
        return f"p{player} dealing"
    obs = state.state.observation(player)
    return (f"p{player} hand {' '.join(obs['hand'])} | top {obs['top']} color {obs['color']} "
            f"sizes {obs['hand_sizes']} draw {obs['draw_pile']} turn {obs['turn']}")


class HistoryCode:
    """The action history of a round as one player may know it: `length` slots of (seat, action) codes.

    Slot i holds step i: the acting seat's offset from the player plus 1, and the RL id plus 1 of
    what it did, or `size + 1` for an action the player may not see (another seat's `keep`, `give K`,
    `trade A B`: the engine's events show those cards to the seats involved only); 0 in both for a
    step not yet taken. The player's own actions are always in full.
    """

    def __init__(self, table, num_players: int, length: int):
        self.n, self.length, self.hidden = num_players, length, table.size + 1
        self.labels = table.labels
        self.unseen = [label == "keep" or label.startswith(("give ", "trade ")) for label in table.labels]
        self.private = np.array(self.unseen)

    def codes(self, steps, player: int) -> np.ndarray:
        """Return the (len(steps), 2) codes of `steps` as `player` knows them."""
        if not steps:
            return np.zeros((0, 2), np.float32)
        seats, actions = np.array(steps, np.int64).T
        seen = np.where(self.private[actions] & (seats != player), self.hidden, actions + 1)
        return np.stack([(seats - player) % self.n + 1, seen], axis=1).astype(np.float32)

    def words(self, steps, player: int) -> str:
        """Return `steps` as `player` knows them, one `pS:label` a step (`pS:?` for an unseen action)."""
        labels, unseen = self.labels, self.unseen
        return " ".join([f"p{seat}:{'?' if unseen[a] and seat != player else labels[a]}" for seat, a in steps])


class InfoStateObserver:
    """Information-state tensor and string of one seat: its observation, then the history it knows.

    The tensor is the observation vector followed by `HistoryCode.length` slots of two numbers
    (`dict["history"]` views them as rows): it recalls every action the player may know of, the game's
    length bound being a bound of the history. It does not recall which draw brought which card (the
    engine draws inside a step): of its own draws the player has its hand now.
    """

    def __init__(self, encoder, history):
        self.encoder, self.history = encoder, history
        size = encoder.size
        self.tensor = np.zeros(size + 2 * history.length, np.float32)
        self.dict = {"observation": self.tensor[:size], "history": self.tensor[size:].reshape(history.length, 2)}

    def set_from(self, state, player):
        """Write `player`'s information state of `state` into the tensor."""
        self.dict["observation"][:] = 0 if state.state is None else self.encoder.encode(state.state, player)
        codes = self.history.codes(state.steps, player)
        rows = self.dict["history"]
        rows[:len(codes)] = codes
        rows[len(codes):] = 0

    def string_from(self, state, player):
        """Return `player`'s observation string and the history it knows, in words."""
        return f"{observation_words(state, player)} | history {self.history.words(state.steps, player)}"


def resampler(seed: int = 0):
    """Return an `ISMCTSBot.set_resampler` callback: a state `player` cannot tell from `state`, drawn afresh."""
    rng = random.Random(seed)

    def resample(state, player):
        copy = state.clone()
        other = resample_hidden(state._g.game, state.state, player, rng)
        rules = state._g
        copy._engine = _Engine(as_chance(other, rules.width) if rules.explicit else other, rules, rules.explicit)
        return copy

    return resample
