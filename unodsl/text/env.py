"""A game played through text: `reset()`, `observation() -> (seat, text)`, `step(text) -> (done, info)`.

The seats listed in `text_seats` are played by whoever reads the text (a person, a script, a language
model); the others by seat specs (bots, agents), seeded as every front end seeds them. An answer that
names no action, or an illegal one, is refused with the engine's reason and the same seat is asked
again, up to `retries` times; then the fallback plays for it (a random legal action from the seat's
generator, or `forfeit`: the game ends there). Every refusal is counted (`incidents`, and `refusals`
with the reason, for a benchmark).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..agents.seats import FALLBACKS, Forfeit, game_over, resolve, seat_all, seat_rng
from ..engine import Game
from ..engine.observation import event_mark
from ..rulebook.narration import answer_as_action
from .view import view as text_view


@dataclass(frozen=True)
class Refusal:
    """An answer refused: whose, at which decision, the answer, the engine's reason, and the try it was (0: first)."""

    seat: int
    turn: int
    decision: str
    answer: str
    reason: str
    attempt: int


class TextEnv:
    """One game (or match) at a time, text seats answering in action strings ('play red_7 uno', 'draw')."""

    def __init__(self, game: Game, players: int = 2, *, text_seats=(0,), opponents: str = "heuristic",
                 seed: int = 0, retries: int = 2, fallback: str = "random", legal: bool = False,
                 match: bool = False):
        game.check_players(players)
        if fallback not in FALLBACKS:
            raise ValueError(f"unknown fallback '{fallback}' (choose from {', '.join(FALLBACKS)})")
        self.game = game
        self.players = players
        self.text_seats = tuple(text_seats)
        if not self.text_seats or any(not 0 <= q < players for q in self.text_seats):
            raise ValueError(f"text seats must be some of 0..{players - 1}")
        self.opponents = opponents.split(",")
        self.seed = seed
        self.retries = retries
        self.fallback = fallback
        self.legal = legal
        self.match = match
        self.incidents: Counter = Counter()
        self.refusals: list[Refusal] = []
        self.decisions = 0                  # decisions the text seats were asked for
        self.state = None
        self._seats: list = []
        self._since: dict[int, int] = {}
        self._rngs: dict = {}
        self._attempt = 0
        self._feedback = ""
        self.forfeited: int | None = None

    def reset(self, seed: int | None = None) -> tuple[int, str]:
        """Deal a new game (seeded `seed`, else the next of this env's), play the other seats up to a text
        seat's decision, and return its observation (or (-1, the end) if the game ended first)."""
        if seed is not None:
            self.seed = seed
        else:
            self.seed += 1 if self.state is not None else 0
        self.state = self.game.new_game(self.players, seed=self.seed, match=self.match, record=True)
        seats = seat_all(self.state, self.opponents)
        self._seats = [None if q in self.text_seats else seats[q] for q in range(self.players)]
        self._since = {q: 0 for q in self.text_seats}
        self._rngs = {q: seat_rng(self.seed, q) for q in self.text_seats}     # the fallback's, as a seat's
        self.forfeited = None
        self._attempt, self._feedback = 0, ""
        self._advance()
        return self.observation()

    @property
    def done(self) -> bool:
        return self.state is None or self.state.is_over or self.forfeited is not None

    def observation(self) -> tuple[int, str]:
        """(the text seat to answer, its view in words); a refused answer's reason follows the view."""
        state = self.state
        if self.done:
            return -1, self._result_text()
        seat = state.current_player
        text = text_view(state, seat, since=self._since[seat], legal=self.legal)
        if self._feedback:
            left = self.retries - self._attempt + 1
            text += f"\nyour answer was refused: {self._feedback} ({left} {'try' if left == 1 else 'tries'} left)"
        return seat, text

    def step(self, text: str) -> tuple[bool, dict]:
        """Answer the pending decision with an action string; (done, info). `info`: accepted (bool), the
        action applied, the engine's reason when refused, tries left, whether the fallback played."""
        if self.done:
            raise RuntimeError("the game is over: reset() deals a new one")
        state = self.state
        seat = state.current_player
        legal = state.legal_action_ids()
        if self._attempt == 0:
            self.decisions += 1
        if isinstance(text, str):
            text = answer_as_action(self.game, text)       # cards in words as the view says them, or ids
        action, reason = resolve(state, text.strip() if isinstance(text, str) else text, legal)
        info = {"seat": seat, "accepted": action is not None, "fallback": False}
        if action is None:
            kind = "unparsable" if "not an action of this variant" in reason or "empty action" in reason else "illegal"
            self.incidents[kind] += 1
            self.refusals.append(Refusal(seat, state.turns, state.decision, str(text)[:200], reason, self._attempt))
            info["reason"] = reason
            if self._attempt < self.retries:
                self._attempt += 1
                self._feedback = reason
                info["tries_left"] = self.retries - self._attempt + 1
                return False, info
            self.incidents["fallback"] += 1
            info["fallback"] = True
            if self.fallback == "forfeit":
                self.forfeited = seat
                info["forfeit"] = True
                return True, info
            action = legal[self._rngs[seat].randrange(len(legal))]
        info["action"] = state.g.action_to_string(action)
        self._since[seat] = event_mark(state)
        state.apply_id(action)
        self._attempt, self._feedback = 0, ""
        self._advance()
        return self.done, info

    def _advance(self) -> None:
        """Let the other seats decide until a text seat must, or the game ends."""
        state = self.state
        while not state.is_over and state.current_player not in self.text_seats:
            q = state.current_player
            try:
                state.apply_id(self._seats[q].act(state))
            except Forfeit:
                self.forfeited = q
                return
        if state.is_over:
            game_over(self._seats, state)

    def result(self) -> dict:
        """The game's outcome: winner (None: nobody), scores, the seat that forfeited (None)."""
        state = self.state
        return {"winner": state.winner, "scores": list(state.scores), "forfeited": self.forfeited,
                "turns": state.total_turns}

    def _result_text(self) -> str:
        if self.state is None:
            return "no game: call reset()"
        if self.forfeited is not None:
            return f"the game is over: p{self.forfeited} forfeited"
        winner = self.state.winner
        scores = ", ".join(f"p{q} {s}" for q, s in enumerate(self.state.scores))
        return f"the game is over: {'nobody' if winner is None else f'p{winner}'} wins (scores: {scores})"
