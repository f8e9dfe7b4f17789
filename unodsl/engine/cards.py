"""Cards: shuffling, drawing (with reshuffles), playability and stacking answers, UNO after a hand changed."""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import partial

from . import playable


def shuffle(cards: list, rng: random.Random) -> None:
    """Shuffle in place: sort by one uniform random key per card.

    A uniformly random permutation (keys tie with probability ~n**2 / 2**54), at a
    third of the cost of `random.shuffle`, which draws each index through Python code.
    The key function is all C: `next(keys, card)` takes the next `rng.random()` from
    an endless iterator (the card is only next's unused default), in card order as a
    `lambda _: rng.random()` would, without a Python frame per card (-20%).
    """
    cards.sort(key=partial(next, iter(rng.random, None)))


class Cards:
    """State's card handling: what a draw takes, what a hand may play."""

    __slots__ = ()

    # --- chance: every shuffle and random number of a game, every look at the draw pile's top card
    # and every card put under the pile go through the methods below (and every card drawn through
    # draw_one and draw_cards), so that engine/chance.py's ChanceState can let a chance player name each.

    def shuffle_cards(self, cards: list, taken: int = 0) -> None:
        """Shuffle `cards` in place (the draw pile, or cards of which the top `taken` go out at once)."""
        shuffle(cards, self.rng)

    def randrange(self, n: int) -> int:
        """A whole number from 0 to n - 1, each as likely."""
        return self.rng.randrange(n)

    def weighted(self, cumulative: tuple) -> int:
        """An index i with chance (cumulative[i] - cumulative[i - 1]) / cumulative[-1]."""
        return bisect_right(cumulative, self.rng.randrange(cumulative[-1]))

    # The language's chance (`random(a, b)`, `random NAME`) comes through these two, each made of the
    # two above; a position may give their next outcomes in advance (engine/chance.py, PinnedState).

    def random_between(self, low: int, high: int) -> int:
        """A whole number from low to high (low <= high), both included, each as likely."""
        return low + self.randrange(high - low + 1)

    def random_choice(self, name: str, values: tuple, cumulative: tuple, colored: bool):
        """One of distribution `name`'s values (color indices when `colored`), by weight (`cumulative`)."""
        return values[self.weighted(cumulative)]

    def draw_pile_top(self) -> int:
        """The draw pile's top card, which stays (the pile is not empty)."""
        return self.draw_pile[-1]

    def put_under_draw_pile(self, cards: list) -> None:
        """Put `cards` at the bottom of the draw pile, in their order."""
        self.draw_pile[0:0] = cards

    def refill(self) -> bool:
        """The draw pile is empty: the discard pile but its top card becomes it, shuffled (False: nothing to take)."""
        g = self.g
        if g.play_piles:
            return self._refill_from_piles()
        if len(self.discard) <= 1 or not g.rules.reshuffle:
            return False                            # both piles empty (ruling 1.12), or deck.reshuffle: false
        top = self.discard.pop()
        self.draw_pile = self.discard
        self.discard = [top]
        self.shuffle_cards(self.draw_pile)
        self.reshuffles += 1
        return True

    def _refill_from_piles(self) -> bool:
        """refill with playable piles: every pile played on gives its cards but its top card, the discard pile's
        first, then each playable pile's in their order (False: nothing to take)."""
        g = self.g
        if not g.rules.reshuffle:
            return False
        gathered = self.discard[:-1]
        del self.discard[:-1]
        for pile in g.play_piles:
            cards = self.piles[pile]
            gathered += cards[:-1]
            del cards[:-1]
        if not gathered:
            return False
        self.draw_pile = gathered
        self.shuffle_cards(self.draw_pile)
        self.reshuffles += 1
        return True

    def draw_one(self) -> int:
        pile = self.draw_pile
        if not pile:
            if not self.refill():
                return -1
            pile = self.draw_pile
        return pile.pop()

    def draw_cards(self, p: int, n: int) -> int:
        hand = self.hands[p]
        pile = self.draw_pile
        if 0 < n <= len(pile):                    # the common case: no reshuffle on the way
            hand += pile[:-n - 1:-1]              # the top n, in the order pop() takes them
            del pile[-n:]
            self.uno_called[p] = False
            return n
        got = 0
        for _ in range(n):
            k = self.draw_one()
            if k < 0:
                break
            hand.append(k)
            got += 1
        if got:
            self.uno_called[p] = False
        return got

    def after_draw_event(self, p: int) -> None:
        """Push the after-draw event for p, if the variant has one (the caller runs it)."""
        code = self.g.after_draw
        if code >= 0:
            self.push(code, p, -1, True, False)

    def hand_changed(self, p: int) -> None:
        """A hand changed outside its owner's own play: they may need to call UNO.

        A call is made for a hand: whoever is handed a new hand of uno.at cards (a swap, a pass, a
        redeal) calls again, even if they had called for the hand they held before (rule 1.6.4).
        """
        self.uno_called[p] = False
        if len(self.hands[p]) == self.g.uno_left:
            if p not in self.uno_askers:
                self.uno_askers.append(p)
        elif p in self.uno_askers:                    # no longer at uno.at cards before being asked
            self.uno_askers.remove(p)

    def is_playable(self, p: int, k: int) -> bool:
        """Whether p may play k now (engine/playable.py; the fast mode specialises it)."""
        return k in playable.kinds(self, p, [k])
