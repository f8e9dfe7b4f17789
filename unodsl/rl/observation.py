"""The observation vector of an RL environment: the engine's observation of one seat, as numbers.

Every field is read from `State.observation(seat)` (what that seat may know, decided by the
engine), with seats relative to the observer: offset 0 is the observer, offset i the seat i
places after it in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..effects import layout as D


@dataclass(frozen=True)
class Field:
    """One block of the vector: its name, first index, length, bounds and meaning."""

    name: str
    start: int
    size: int
    low: float
    high: float
    meaning: str


class ObservationEncoder:
    """Turns `State.observation(seat)` into a fixed-length float32 vector with a documented layout."""

    def __init__(self, game, num_players: int, full_state: bool = False):
        self.game = game
        self.n = n = num_players
        self.full_state = full_state
        k = game.num_kinds
        colors = game.variant.colors
        self.color_index = {c: i for i, c in enumerate(colors)}
        self.card_index = game.card_index
        # The option decision (`P chooses:`) only where the variant has one, and the decision kinds of
        # named piles only where it declares piles: every other variant's layout is as it was.
        kinds = D.KINDS if game.option_names else tuple(kind for kind in D.KINDS if kind != D.OPTION)
        self.kinds = kinds = kinds + (D.PILE_KINDS if game.pile_names else ())
        self.kinds = kinds = kinds + (D.SET_KINDS if game.sets is not None else ())     # turn.sets' decision
        self.decision_index = {kind: i for i, kind in enumerate(kinds)}
        deck = len(game.deck)
        per_kind = max(game.deck.count(i) for i in range(k)) if k else 0
        blocks = [
            ("hand", k, 0, per_kind, "own cards: count per card kind"),
            ("top", k, 0, 1, "top card of the discard pile: one-hot per card kind"),
            ("color", len(colors) + 1, 0, 1, "current color: one-hot per color, last = none named"),
            ("lock", len(colors) + 1, 0, 1, "locked color: one-hot per color, last = no lock"),
            ("stack", 1, 0, deck, "pending draw stack (cards)"),
            ("direction", 1, -1, 1, "+1 in seat order, -1 against it"),
            ("hand_sizes", n - 1, 0, deck, "hand size of the seats at offsets 1..n-1"),
            ("uno_called", n, 0, 1, "UNO called, per seat offset 0..n-1"),
            ("eliminated", n, 0, 1, "eliminated, per seat offset 0..n-1"),
            ("acting", n, 0, 1, "seat offset that must act now: one-hot (all zero when over)"),
            ("decision", len(kinds), 0, 1, "decision kind: one-hot in " + ", ".join(kinds)),
            ("draw_pile", 1, 0, deck, "draw pile size"),
            ("discard_pile", 1, 0, deck, "discard pile size"),
            ("discard", k, 0, per_kind, "discard pile (face up, public): count per card kind"),
            ("drawn", k, 0, 1, "the card just drawn, when deciding about it: one-hot per card kind"),
            ("revealed", (n - 1) * k, 0, per_kind,
             "cards shown to the observer, per seat offset 1..n-1 then per card kind (counts)"),
            *((("side", 1, 0, 1, "two-sided deck: 1 while its second side is up"),
               ("backs", (n - 1) * k, 0, per_kind, "two-sided deck: the other face of the cards of the seats "
                                                   "at offsets 1..n-1, counts per card kind"),
               ("draw_pile_back", k, 0, 1, "two-sided deck: the other face of the draw pile's top card, "
                                           "one-hot per card kind")) if game.k_back is not None else ()),
            ("turn", 1, 0, max(1, game.variant.max_turns), "turns played this round"),
        ]
        if full_state:
            blocks.append(("hidden_hands", (n - 1) * k, 0, per_kind,
                           "full_state only: the hands of seats at offsets 1..n-1, counts per card kind"))
        self.fields: list[Field] = []
        start = 0
        for name, size, low, high, meaning in blocks:
            self.fields.append(Field(name, start, size, float(low), float(high), meaning))
            start += size
        self.size = start
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self.offset = o = {f.name: f.start for f in self.fields}
        # Index maps built once: the vector position of each card id (or colour, or decision) in
        # each field, so that encoding is a list of positions counted by one bincount.
        names = game.card_names

        def at(field: str, base: int = 0) -> dict:
            return {name: o[field] + base + i for i, name in enumerate(names)}

        self._hand, self._top, self._discard, self._drawn = at("hand"), at("top"), at("discard"), at("drawn")
        self._revealed = [None] + [at("revealed", (rel - 1) * k) for rel in range(1, n)]
        self._hidden = [None] + [at("hidden_hands", (rel - 1) * k) for rel in range(1, n)] if full_state else None
        two_sided = game.k_back is not None
        self._backs = [None] + [at("backs", (rel - 1) * k) for rel in range(1, n)] if two_sided else None
        self._draw_back = at("draw_pile_back") if two_sided else None
        self._second_side = game.variant.sides[1] if two_sided else None
        none = len(colors)
        self._color = {c: o["color"] + i for i, c in enumerate(colors)}
        self._color_none = o["color"] + none
        self._lock = {c: o["lock"] + i for i, c in enumerate(colors)}
        self._lock_none = o["lock"] + none
        self._decision = {kind: o["decision"] + i for i, kind in enumerate(kinds)}
        self._turn_cap = float(self.high[o["turn"]])
        # The positions of the scalar fields, in the order encode() lists their values.
        self._scalars = np.array([o["stack"], o["direction"], o["draw_pile"], o["discard_pile"], o["turn"],
                                  *range(o["hand_sizes"], o["hand_sizes"] + n - 1),
                                  *range(o["uno_called"], o["uno_called"] + n),
                                  *range(o["eliminated"], o["eliminated"] + n)], np.intp)

    def encode(self, state, seat: int, obs: dict | None = None) -> np.ndarray:
        """Return the vector of what `seat` may know of `state` (obs: its observation, if at hand)."""
        if obs is None:
            obs = state.observation(seat)
        n, o = self.n, self.offset
        hand, discard = self._hand, self._discard
        # Every count and one-hot is a +1 at a position: collect them all, count them at once.
        pos = [hand[c] for c in obs["hand"]]
        pos += [discard[c] for c in obs["discard"]]
        if obs["top"]:
            pos.append(self._top[obs["top"]])
        pos.append(self._color.get(obs["color"], self._color_none))
        pos.append(self._lock.get(obs["lock"], self._lock_none))
        cur = obs["current_player"]
        if cur >= 0:
            pos.append(o["acting"] + (cur - seat) % n)
        decision = self._decision.get(obs["decision"])
        if decision is not None:
            pos.append(decision)
        if "drawn" in obs:
            pos.append(self._drawn[obs["drawn"]])
        for q, cards in obs["revealed"].items():
            rel = (int(q) - seat) % n
            if rel:                     # one's own hand is in `hand` already
                at = self._revealed[rel]
                pos += [at[c] for c in cards]
        if self._backs is not None:
            if obs["side"] == self._second_side:
                pos.append(o["side"])
            for q, cards in obs["backs"].items():
                at = self._backs[(int(q) - seat) % n]
                pos += [at[c] for c in cards]
            if obs["draw_pile_back"]:
                pos.append(self._draw_back[obs["draw_pile_back"]])
        if self._hidden is not None:
            for rel in range(1, n):
                at = self._hidden[rel]
                pos += [at[c] for c in state.hand((seat + rel) % n)]
        v = np.bincount(pos, minlength=self.size).astype(np.float32)
        # The scalar fields, and the per-seat ones rotated so that the observer is offset 0.
        sizes, called, out = obs["hand_sizes"], obs["uno_called"], obs["eliminated"]
        v[self._scalars] = [obs["stack"], obs["direction"], obs["draw_pile"], obs["discard_pile"],
                            min(obs["turn"], self._turn_cap), *sizes[seat + 1:], *sizes[:seat],
                            *called[seat:], *called[:seat], *out[seat:], *out[:seat]]
        return v

    def describe(self) -> list[str]:
        """One line per field: indices, name, bounds, meaning."""
        return [f"{f.start:5d}..{f.start + f.size - 1:<5d} {f.name:<14} [{f.low:g}, {f.high:g}]  {f.meaning}"
                for f in self.fields if f.size]
