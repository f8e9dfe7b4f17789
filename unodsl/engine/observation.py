"""What a player may see: their own hand, the public zones, what was shown to them, and what happened."""

from __future__ import annotations

from ..effects import layout as D


class Observation:
    """State's views: the top card and color, a hand by card ids, and a player's observation."""

    __slots__ = ()

    @property
    def top_card(self) -> str:
        """The id of the discard pile's top card ("" for an empty pile)."""
        return self.g.card_names[self.discard[-1]] if self.discard else ""

    @property
    def current_color(self) -> str | None:
        """The color in play, or None while no color is named."""
        return self.g.variant.colors[self.color] if self.color >= 0 else None

    def hand(self, player: int) -> list[str]:
        """The cards of a player's hand, as ids (sorted for display)."""
        names = self.g.card_names
        return sorted(names[k] for k in self.hands[player])

    def observation(self, player: int) -> dict:
        """What `player` may know: own hand, others' hand sizes, public piles, what was shown to them."""
        g = self.g
        names = g.card_names
        obs = {
            "player": player,
            "hand": self.hand(player),
            "hand_sizes": [len(h) for h in self.hands],
            "top": self.top_card,
            "color": self.current_color,
            "direction": self.direction,
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard),
            "discard": sorted(names[k] for k in self.discard),      # face up: every card on it is public
            "current_player": self.current_player,
            "decision": self.decision,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "stack": self.stack,
            "lock": (g.variant.colors[self.lock_color] if self.lock_owner >= 0 else None),
            "uno_called": list(self.uno_called),
            "eliminated": list(self.eliminated),
            "revealed": {str(q): sorted(names[k] for k in cards)
                         for q, cards in self.revealed.get(player, {}).items()},
            "turn": self.turns,
            "round": self.round,
            "over": self.over,
            "winner": self.winner,
        }
        if g.pile_names:                # a face-up pile shows its cards, a face-down one its size
            obs["piles"] = {name: sorted(names[k] for k in cards) if up else len(cards)
                            for name, up, cards in zip(g.pile_names, g.face_up, self.piles)}
        obs.update(self.variables_seen_by(player))      # declared variables: only when there are some
        if self.current_player == player:
            obs["legal_actions"] = self.legal_actions()
        if self.pending and self.pending[0] == D.DRAWN and self.pending[1] == player:
            obs["drawn"] = names[self.pending[2]]
        if g.k_back is not None:
            obs.update(self.backs(player))
        return obs

    def backs(self, player: int) -> dict:
        """On a two-sided deck, what `player` sees of the faces turned away: the side up, the other face of
        every card in the other hands (their owners hold them face to themselves) and of the draw pile's
        top card (the pile lies face down, its other face up)."""
        g = self.g
        names, back = g.card_names, g.k_back
        return {
            "side": g.variant.sides[self.side],
            "backs": {str(q): sorted(names[back[k]] for k in hand)
                      for q, hand in enumerate(self.hands) if q != player},
            "draw_pile_back": names[back[self.draw_pile[-1]]] if self.draw_pile else None,
        }

    def events_for(self, seat: int, since: int = 0) -> list:
        """What happened from `State.events[since]` on, each event as `seat` may see it (Event.seen_by):
        another player's drawn, given, traded or looked-at cards as counts, their kept card not at all.
        Empty for a game that does not record."""
        if self.events is None:
            return []
        seen = [e.seen_by(seat) for e in self.events[since:]]
        return [e for e in seen if e is not None]
