"""A Python agent for a unodsl seat: `--bots py:docs/examples/agents/first_legal.py:FirstLegal`.

An agent is anything with `act(view) -> action`; `reset` and `observe_result` are optional.
The view is the seat's (unodsl.agents.seats.AgentView): `legal_actions` as strings, `hand`,
`observation` (the engine's dict), `events` since this seat last decided, `rng` (the seat's own
seeded generator), and `feedback`, the engine's reason when the last answer was refused.
"""


class FirstLegal:
    """Plays a card when it can (calling UNO when that is offered), else the first legal action."""

    def __init__(self, prefer: str = "play"):
        self.prefer = prefer
        self.games = 0
        self.wins = 0

    def reset(self, seat, game):
        self.seat = seat

    def act(self, view):
        actions = view.legal_actions
        unos = [a for a in actions if a.startswith(self.prefer) and a.endswith(" uno")]
        plays = [a for a in actions if a.startswith(self.prefer)]
        return (unos or plays or actions)[0]

    def observe_result(self, result):
        self.games += 1
        self.wins += bool(result["won"])
