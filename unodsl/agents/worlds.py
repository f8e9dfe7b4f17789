"""The world sampler: deal the cards a seat cannot see again, consistently with all it knows.

A search bot cannot roll out the real state (that would read the other hands and the draw
pile), so it rolls out worlds: states equal to the real one in everything the seat may know
(`view.public`), with the unseen cards dealt at random. A world keeps:

- every public count: hand sizes, the draw pile's size, an exchange's set-aside cards;
- every card the seat sees: its own hand, the discard pile, its own exchange picks;
- the cards it knows another seat holds: a hand shown to it (a look, a challenge, a trade)
  as `observation['revealed']` has it, and the cards it gave away itself, both less the
  cards of those kinds that have reached the discard since its last decision (a card of
  the kind went there: it may have been that one, so it is no longer counted as known);
  while it trades with a hand it has just looked at, that hand exactly;
- on a two-sided deck, every card whose other face it sees: the other hands and the draw pile's
  top card (a back names its face: each kind has one kind on its other side);
- the card another seat drew on its turn (unseen, while an after-draw event asks this one):
  the last card of its hand in the world (a drawn card goes to the end of the hand);
- a restricted card's honesty (Wild Draw Four), judged on the world's hand of the seat
  that played it, in the colour that was current before it was played;
- every variable the seat may see; one it may not (hidden, another seat's private one) is
  taken at its initial value.

What the seat learns from the order of events is not tracked: that after a swap another
seat holds its old hand, or which cards went into a redeal; such worlds are dealt as if
those hands were unseen (consistent, but knowing less than a careful player would).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from ..effects import layout as D
from ..engine import State
from ..engine.variables import public


class Knowledge:
    """What one seat has learnt of other hands, kept across its own decisions in a round."""

    def __init__(self):
        self.known: dict[int, Counter] = {}       # seat -> cards it is known to hold
        self.shown: dict[str, list] = {}          # seat -> the hand shown to this one, as last seen
        self.discard = Counter()                  # the discard pile at the last decision
        self.when = None                          # (round, turn, reshuffles) at the last decision
        self.color = -1                           # the current colour at the last decision

    def update(self, view) -> None:
        """Take in what changed since the seat's last decision: hands shown, cards discarded."""
        pub = view.public
        when = (pub["round"], pub["turns"], pub["reshuffles"])
        last = self.when
        if last is None or when[0] != last[0] or when[2] != last[2] or when < last:
            # A new round, another game, or a reshuffle (the discard pile left for the draw pile):
            # the cards counted as known cannot be followed any longer.
            self.known.clear()
            self.shown = {}
            self.discard = Counter()
        names = view.game.card_index
        shown = pub["revealed"][str(view.seat)]
        for q, cards in shown.items():
            if self.shown.get(q) != cards:
                self.known[int(q)] = Counter(names[c] for c in cards)
        self.shown = shown
        discard = Counter(names[c] for c in pub["discard"])
        gone = discard - self.discard
        for q, cards in list(self.known.items()):
            cards -= gone
            if sum(cards.values()) > view.hand_sizes[q] or not cards:
                del self.known[q]                 # the hand changed by more than plays: stale
        pending = pub["pending"]
        if pending and pending[0] == D.TRADE and str(pending[2]) in shown:
            # Trading, the seat has just looked (and the engine shows the hand again after each
            # swap of cards): the hand shown is the hand as it is.
            self.known[pending[2]] = Counter(names[c] for c in shown[str(pending[2])])
        self.discard = discard
        self.when = when
        self.color = pub["color"]

    def gave(self, seat: int, kind: int) -> None:
        """The seat itself gave `kind` to `seat`: it knows they hold it."""
        self.known.setdefault(seat, Counter())[kind] += 1


class WorldSampler:
    """Worlds for one decision of one seat: `sample(rng)` deals a fresh one, a `State` to roll out."""

    def __init__(self, view, knowledge: Knowledge):
        g = self.game = view.game
        pub = view.public
        names = g.card_index
        self.seat = seat = view.seat
        pool = Counter(g.deck_up(pub.get("side", 0), len(pub["hands"])))     # the deck, by the faces up
        pool.subtract(names[c] for c in pub["hands"][seat])
        pool.subtract(names[c] for c in pub["discard"])
        for cards in (*pub["limbo"], *pub.get("piles", ())):
            if isinstance(cards, list):
                pool.subtract(names[c] for c in cards)
        # The known cards that are still unseen (one may be in the seat's own hand after a swap).
        self.known: dict[int, list[int]] = {}
        self.top: list[int] = []                 # the draw pile's top card, when its other face shows it
        backs = pub.get("backs")
        if backs is not None:
            faces = g.k_back
            for q, cards in sorted(backs.items(), key=lambda item: int(item[0])):
                self.known[int(q)] = held = [faces[names[c]] for c in cards]
                pool.subtract(held)
            if pub["draw_pile_back"] is not None:
                self.top = [faces[names[pub["draw_pile_back"]]]]
                pool.subtract(self.top)
        for q, cards in sorted(knowledge.known.items()) if backs is None else ():
            held = []
            for k, count in sorted(cards.items()):
                take = min(count, pool[k])
                held += [k] * take
                pool[k] -= take
            if held:
                self.known[q] = held
        self.unseen = sorted(pool.elements())     # a canonical order: nothing of the real deal in it
        self.sizes = {q: size - len(self.known.get(q, ())) for q, size in enumerate(pub["hands"])
                      if q != seat}
        self.limbo = [None if isinstance(cards, list) else cards for cards in pub["limbo"]]
        self.piles = [None if isinstance(cards, list) else cards for cards in pub.get("piles", ())]   # face down: sizes
        hidden = (sum(self.sizes.values()) + pub["draw_pile"] - len(self.top) + sum(n for n in self.limbo if n)
                  + sum(n for n in self.piles if n))
        if hidden != len(self.unseen) or min(self.sizes.values(), default=0) < 0:
            raise ValueError(f"the public counts ({hidden} cards) do not match the {len(self.unseen)} unseen")
        # Restricted plays whose honesty is unknown: (frame index, seat, card, colour before it).
        # The card drawn on another seat's turn, unseen: in a world, the last card of that seat's hand (a
        # drawn card goes to the end of the hand, as the engine deals it).
        self.drawer = pub["current"] if pub["drawn_this_turn"] is None else -1
        self.judged = []
        for i, frame in enumerate(pub["frames"]):
            if frame[D.F_HONEST] is None:
                card = frame[D.F_CARD]
                self.judged.append((i, frame[D.F_SELF], card, self._color_before(pub, card, knowledge)))
        self.template = self._template(pub)

    def _color_before(self, pub: dict, card: int, knowledge: Knowledge) -> int:
        """The colour current before `card` was played: the card under it's, if it has one; else as last seen."""
        g = self.game
        pile = [g.card_index[c] for c in pub["discard"]]
        at = len(pile) - 1 - pile[::-1].index(card) if card in pile else -1
        if at >= 1 and g.k_color[pile[at - 1]] >= 0 and not g.k_wild[pile[at - 1]]:
            return g.k_color[pile[at - 1]]
        return knowledge.color

    def _template(self, pub: dict) -> State:
        """The world with the unseen cards in their canonical order: what `sample` clones and deals."""
        g = self.game
        data = json.loads(json.dumps(pub))
        names = g.card_names
        cards = [names[k] for k in self.unseen]
        for q, size in self.sizes.items():
            data["hands"][q] = [names[k] for k in self.known.get(q, ())] + cards[:size]
            cards = cards[size:]
        for slot, size in enumerate(self.limbo):
            if size is not None:
                data["limbo"][slot], cards = cards[:size], cards[size:]
        for slot, size in enumerate(self.piles):
            if size is not None:
                data["piles"][slot], cards = cards[:size], cards[size:]
        data["draw_pile"] = cards + [names[k] for k in self.top]
        for key in ("backs", "draw_pile_back"):
            data.pop(key, None)
        for frame in data["frames"]:
            if frame[D.F_HONEST] is None:
                frame[D.F_HONEST] = True
        if self.drawer >= 0:
            hand = data["hands"][self.drawer]
            data["drawn_this_turn"] = g.card_index[hand[-1]] if hand else -1
        for i, var in enumerate(g.state_vars):
            if not public(var):
                data["vars"][i] = var.initial
        for q, values in enumerate(data.get("pvars", ())):
            for i, var in enumerate(g.player_vars):
                if q != self.seat and not public(var):
                    values[i] = var.initial
        version, internal, gauss = random.Random(0).getstate()
        data.update(rng=[version, list(internal), gauss], seed=0, history=[])
        return State.from_json(g, json.dumps(data))

    def sample(self, rng: random.Random) -> State:
        """A fresh world: the unseen cards shuffled with `rng` and dealt, the engine's generator reseeded."""
        world = self.template.clone()
        cards = list(self.unseen)
        rng.shuffle(cards)
        known = self.known
        hands = world.hands
        at = 0
        for q, size in self.sizes.items():
            hands[q] = known.get(q, []) + cards[at:at + size]
            at += size
        for slot, size in enumerate(self.limbo):
            if size is not None:
                world.limbo[slot] = cards[at:at + size]
                at += size
        for slot, size in enumerate(self.piles):
            if size is not None:
                world.piles[slot] = cards[at:at + size]
                at += size
        world.draw_pile = cards[at:] + self.top
        if self.drawer >= 0:
            world.drawn_this_turn = hands[self.drawer][-1] if hands[self.drawer] else -1
        world.rng = random.Random(rng.getrandbits(64))
        if self.judged:
            self._judge(world)
        return world

    def _judge(self, world: State) -> None:
        """Set each restricted play's honesty as its rule finds it on the world's hands."""
        g = self.game
        now = world.color
        for i, p, k, before in self.judged:
            t = g.k_type[k]
            check = g.challenge[t]
            honest = True
            if check is not None and before >= 0:
                world.color = before
                honest = bool(check(world, [-1, 0, p, k, True, world.frames[i][D.F_JUMPED]]))
            world.frames[i][D.F_HONEST] = honest
        world.color = now
