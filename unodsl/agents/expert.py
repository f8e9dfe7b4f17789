"""The expert: the heuristic bot's play, with what it infers from the other seats' draws and the unseen cards.

Measured against the heuristic bot in docs/bots.md (the ladder): each rule below was kept
because it raised the expert's win rate at two players on classic, and the rules tried and
dropped are listed there too.
"""

from __future__ import annotations

from ..effects import layout as D
from .inference import Lacks
from .simple import HeuristicBot, due_call
from .view import SeatView

_PLAYS = (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP)

# A drawn wild is kept (not played at once) while the hand, the wild included, holds this many cards.
KEEP_DRAWN_WILD = 4


class ExpertBot(HeuristicBot):
    """Plays like the heuristic bot, but leaves the next player the colour it is least likely to hold.

    It follows, per other seat, the colours that seat is believed to lack (`inference.Lacks`:
    it drew one card on that colour and played nothing), and counts the unseen cards (the deck
    less its own hand and the discard pile). The odds that the next player holds no card of a
    colour are 1 for a colour it is believed to lack, else the chance that a hand of its size,
    dealt from the unseen cards, holds none. Then it:

    - plays an UNO call first, then a non-wild (a wild only when nothing else plays, even with
      two cards left: the wild kept as the last card always goes out), then the card of the
      colour the next player is likeliest to lack, then the biggest draw penalty, then the most
      points;
    - keeps a wild it has just drawn while it holds four cards or more (the wild included);
    - names, among the colours it holds, the one the next player is likeliest to lack, then the
      one it holds most of;
    - challenges a Wild Draw Four only from a player left with one card or none (a player about
      to go out plays its wild whatever it holds; with more cards it is more often honest, and a
      lost challenge costs two cards more);
    - decides everything else as the heuristic bot does.

    Decides from its seat's view only, and remembers only public facts and its own actions.
    """

    name = "expert"

    def __init__(self, rng):
        super().__init__(rng)
        self.lacks: dict[int, Lacks] = {}          # per seat it plays
        self._deck: dict[tuple, list[int]] = {}    # (game, side up) -> the deck's cards per colour

    def act(self, state) -> int:
        """Return the id of the action to take; a forced action too goes through the view (the inference counts it)."""
        return self.decide(SeatView(state))

    def decide(self, view: SeatView) -> int:
        lacks = self.lacks.setdefault(view.seat, Lacks())
        lacks.update(view)
        action = view.legal[0] if len(view.legal) == 1 else self._choose(view, lacks)
        lacks.acted(view, action)
        return action

    def _choose(self, view: SeatView, lacks: Lacks) -> int:
        legal = view.legal
        g = view.game
        kind = view.decision
        nxt = view.next_seat
        if kind in _PLAYS:
            plays = [a for a in legal if a < 2 * g.num_kinds]
            if not plays:
                return super().decide(view)
            if (kind == D.DRAWN and g.A_KEEP in legal and len(view.hand) >= KEEP_DRAWN_WILD
                    and all(g.k_wild[a % g.num_kinds] for a in plays)):
                return g.A_KEEP
            odds = self._odds_lacking(view, lacks, nxt)
            size = len(view.hand)
            return max(plays, key=lambda a: _play_key(g, odds, a, size))
        if kind == D.COLOR:
            counts = [0] * len(g.variant.colors)
            for k in view.hand:
                if g.k_color[k] >= 0:
                    counts[g.k_color[k]] += 1
            odds = self._odds_lacking(view, lacks, nxt)
            return g.A_COLOR + max((a - g.A_COLOR for a in legal), key=lambda c: (counts[c] > 0, odds[c], counts[c], -c))
        if kind == D.CHALLENGE:
            challenged = view.played_by()
            return g.A_CHALLENGE if challenged >= 0 and view.hand_sizes[challenged] <= 1 else g.A_ACCEPT
        return super().decide(view)

    def _odds_lacking(self, view: SeatView, lacks: Lacks, seat: int) -> list[float]:
        """Per colour, the odds that `seat` holds no card of it: 1 if it is believed to lack it, else the chance
        that a hand of its size dealt from the cards `view`'s seat has not seen holds none (hypergeometric)."""
        g, side = view.game, view.side
        n = len(view.hand_sizes)
        deck = self._deck.get((g, side, n))
        if deck is None:
            deck = self._deck[g, side, n] = [0] * (len(g.variant.colors) + 1)   # the last counts the colourless
            for k in g.deck_up(side, n):
                deck[g.k_color[k]] += 1
        return _odds(g, deck, view, lacks, seat)


def _play_key(g, odds: list[float], action: int, size: int) -> tuple:
    """How much the expert wants to make a play from a hand of `size` (the largest is played): see ExpertBot."""
    k = action % g.num_kinds
    wild = g.k_wild[k]
    return (due_call(g, action, size), not wild, 0.0 if wild else odds[g.k_color[k]], g.k_draw[k], g.k_points[k], -k,
            -action)          # the same play without a call that is not due (uno.false_call)


def _odds(g, deck: list[int], view: SeatView, lacks: Lacks, seat: int) -> list[float]:
    """`_odds_lacking` from the deck's cards per colour."""
    colors = len(deck) - 1
    unseen = list(deck)
    for k in view.hand:
        unseen[g.k_color[k]] -= 1
    for k in view.discard:
        unseen[g.k_color[k]] -= 1
    total = sum(unseen)
    size = view.hand_sizes[seat] if seat >= 0 else 0
    odds = []
    for c in range(colors):
        if lacks.lacks_color(seat, c):
            odds.append(1.0)
            continue
        p = 1.0
        for i in range(size):
            p *= max(total - unseen[c] - i, 0) / max(total - i, 1)
        odds.append(p)
    return odds
