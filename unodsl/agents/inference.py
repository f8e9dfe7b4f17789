"""What a seat can infer from another seat drawing instead of playing: the colour it lacks.

A player who drew one card and played nothing held no card of the colour in play, and the
card it drew was not of that colour either (it would have been offered to play it). Where the
variant forbids drawing with a card to play (`turn.may_draw_if` false) that is a fact; classic
and most shipped variants let a player draw freely (`true`, the default), so there it is an
assumption about the player: that it draws only when it cannot play, as the heuristic bot
does and most people do. On classic the assumption wins games (docs/bots.md, the ladder).

`Lacks` keeps, per other seat, the colour it is believed to lack: set when it drew one card and
nothing reached the discard pile; dropped when its hand may have grown in any other way (the
counts tell only hand size less cards played, so at more than two seats another's play may
hide a draw: such a seat is forgotten too), and when a card of that colour is played by anyone
but this seat (who played it is not followed). A new round
or a reshuffle forgets everything. Not followed: hands that change owners (Seven-O's swaps),
numbers and symbols the seat lacks (the top card's), and variants where a drawn card may not be
played (`drawn_card: forbidden`: the card kept may be of any colour, so nothing is inferred).

It reads only public facts (the discard pile, the colour in play, hand sizes) and the seat's
own past actions, so it keeps the bots that use it blind to hidden cards (tests/test_agents.py).
"""

from __future__ import annotations

from ..effects import layout as D

_PLAYS = (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP)      # the decisions whose low action ids play a card


class Lacks:
    """Per other seat, the colours it is believed to hold no card of; updated at each of the seat's decisions
    (every one, forced ones too: `acted` must see each of the seat's actions)."""

    __slots__ = ("lacks", "_round", "_discard", "_sizes", "_played")

    def __init__(self):
        self.lacks: dict[int, set[int]] = {}
        self._round = -1
        self._discard = 0          # the discard pile's size after the seat's last action
        self._sizes: list[int] = []
        self._played = False       # whether the seat's last action put a card on the discard pile

    def update(self, view) -> None:
        """Take in what the other seats did since this seat last acted (call before deciding)."""
        discard, sizes = view.discard, view.hand_sizes
        expected = self._discard + self._played
        if view.round != self._round or len(discard) < expected or len(sizes) != len(self._sizes):
            # A new round, or the discard pile went back into the draw pile: start again.
            self.lacks = {}
        else:
            g = view.game
            played = discard[expected:]                         # the others' plays since: they held those colours
            for k in played:
                for colors in self.lacks.values():
                    colors.discard(g.k_color[k])
            self.lacks = {q: colors for q, colors in self.lacks.items() if colors}
            for q, (then, now) in enumerate(zip(self._sizes, sizes)):
                if q == view.seat or now + len(played) <= then:
                    continue                                    # it took no card (as far as the counts tell)
                if now == then + 1 and not played and view.color >= 0 and g.offers_drawn:
                    # Drew one and played nothing on the colour in play (nothing was played since).
                    self.lacks[q] = {view.color}                 # the card it drew may be of any other
                else:
                    self.lacks.pop(q, None)                     # cards it was not seen to refuse
        self._round = view.round
        self._sizes = list(sizes)
        self._discard = len(discard)

    def acted(self, view, action: int) -> None:
        """Record the seat's own action: whether it put a card on the discard pile."""
        self._played = view.decision in _PLAYS and action < 2 * view.game.num_kinds

    def lacks_color(self, seat: int, color: int) -> bool:
        """Whether `seat` is believed to hold no card of `color`."""
        return color in self.lacks.get(seat, ())
