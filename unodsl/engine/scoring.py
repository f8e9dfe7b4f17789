"""The end of a round: an open stack drawn, a stalled round's winner, points scored, the match decided."""

from __future__ import annotations

from ..model.variant import Stall
from ..model.variant import Scoring as ScoringMode
from . import events as E


class Scoring:
    """State's end of a round and of the game."""

    __slots__ = ()

    def end_round(self, winner: int | None, stalled: bool = False, blocked: bool = False,
                   by_rule: bool = False) -> None:
        """The round is over (won by `winner`, or None): score it, then end the game or deal the next round.

        A blocked round (round.blocked) is won as the variant's `blocked` says, as a stall by `stall`; one won
        `by_rule` was won by round.win_when (its winner may hold cards)."""
        v = self.g.variant
        self.frames = []
        self.pending = None
        if self.stack and self.stack_victim >= 0:
            # A stack still open when the round ends is drawn before scoring (1.7.2).
            got = self.draw_cards(self.stack_victim, self.stack)
            if self.events is not None and got:
                self.events.append(E.drew(self, self.stack_victim, got))
            self.stack, self.stack_victim, self.stack_card = 0, -1, -1
        if stalled:
            self.stalled = True
            if winner is None and v.stall is not Stall.NO_WINNER:
                winner = self._stall_winner(v.stall)
        elif blocked and v.blocked is not Stall.NO_WINNER:
            winner = self._stall_winner(v.blocked)
        self.round_winner = winner
        if winner is not None and self.g.on_round_end >= 0:
            self._round_end_effect(winner)
        self._score_round(winner)
        if self.events is not None:
            self.events.append(E.Event(E.ROUND_OVER, -1 if winner is None else winner, count=self.round,
                                       won=not stalled, scores=tuple(self.scores),
                                       name="blocked" if blocked else "rule" if by_rule else None))
        if not self.match or not self.g.rules.rounds_score:       # nothing can score: a match is its one round
            self._finish(winner)
        else:
            self._go_on_with_match()

    def _round_end_effect(self, winner: int) -> None:
        """round.on_end, with self = the winner: code that cannot pause, push or draw (E514), so it runs
        here to its end, as run would, held to the turn's step budget (past it, the effect just stops)."""
        self.run_through(self.new_frame(self.g.on_round_end, winner, -1, True, False))

    def _score_round(self, winner: int | None) -> None:
        """Add the round's points: the winner (or their team) collects the others' cards, or all keep their own."""
        g, v = self.g, self.g.variant
        value = g.k_points.__getitem__
        points = [sum(map(value, hand)) for hand in self.hands]         # hand_points of every seat
        if v.scoring is ScoringMode.WINNER_COLLECTS and winner is not None:
            team = g.team_tables[self.n][0]         # without teams, every seat is a team of its own
            ours = team[winner]
            gained = sum([pts for pts, t in zip(points, team) if t != ours])
            if g.rules.score_by_team:
                for q in range(self.n):
                    if team[q] == ours:
                        self.scores[q] += gained
            else:
                self.scores[winner] += gained
        elif v.scoring is ScoringMode.LOWEST_HELD:
            for q in range(self.n):
                self.scores[q] += points[q]

    def _go_on_with_match(self) -> None:
        """A scored round of a match: finish at the target score or the last round allowed, else deal the next."""
        g, v = self.g, self.g.variant
        scores = self.scores            # not self in the comprehensions: it would make self a cell in the whole method
        last = self.round >= v.max_rounds           # no round may follow this one (scoring.max_rounds)
        if not last and max(scores) < v.target:
            self.new_round(first=False)
        elif v.scoring is ScoringMode.LOWEST_HELD:
            self._finish(scores.index(min(scores)))      # the first seat with the lowest score
        else:
            high = max(scores)
            leaders = [q for q in range(self.n) if scores[q] == high]
            team = g.team_tables[self.n][0]
            if len({team[q] for q in leaders}) == 1 or g.ruling_value("target_tie_plays_another_round") is False:
                self._finish(leaders[0])            # without the ruling, the first seat among the leaders
            elif last:
                self._finish(None)                  # a tie at the top with no round left: no winner
            else:
                self.new_round(first=False)        # a tie at the top plays another round (ruling 1.10.5)

    def _stall_winner(self, rule: Stall) -> int | None:
        """A stalled (or blocked) round's winner: the fewest points (then cards), or the fewest cards (then points)."""
        alive = [q for q in range(self.n) if not self.eliminated[q]]
        if rule is Stall.FEWEST_POINTS:
            key = (lambda q: (self.hand_points(q), len(self.hands[q])))
        else:
            key = (lambda q: (len(self.hands[q]), self.hand_points(q)))
        return min(alive, key=key) if alive else None

    def _finish(self, winner: int | None) -> None:
        """The game is over: nobody is to act, no effect is open."""
        self.over = True
        self.winner = winner
        self.pending = None
        self.frames = []
        if self.events is not None:
            self.events.append(E.Event(E.GAME_OVER, -1 if winner is None else winner, scores=tuple(self.scores)))
