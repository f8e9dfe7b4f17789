"""The observation vector of an RL environment: the engine's observation of one seat, as numbers.

Every field is read from `State.observation(seat)` (what that seat may know, decided by the
engine), with seats relative to the observer: offset 0 is the observer, offset i the seat i
places after it in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import decisions as D


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
        self.decision_index = {kind: i for i, kind in enumerate(D.KINDS)}
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
            ("decision", len(D.KINDS), 0, 1, "decision kind: one-hot in " + ", ".join(D.KINDS)),
            ("draw_pile", 1, 0, deck, "draw pile size"),
            ("discard_pile", 1, 0, deck, "discard pile size"),
            ("discard", k, 0, per_kind, "discard pile (face up, public): count per card kind"),
            ("drawn", k, 0, 1, "the card just drawn, when deciding about it: one-hot per card kind"),
            ("revealed", (n - 1) * k, 0, per_kind,
             "cards shown to the observer, per seat offset 1..n-1 then per card kind (counts)"),
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
        self.offset = {f.name: f.start for f in self.fields}

    def encode(self, state, seat: int, obs: dict | None = None) -> np.ndarray:
        """Return the vector of what `seat` may know of `state` (obs: its observation, if at hand)."""
        if obs is None:
            obs = state.observation(seat)
        n, k = self.n, self.game.num_kinds
        o = self.offset
        ci, ki = self.color_index, self.card_index
        v = np.zeros(self.size, np.float32)
        for name in obs["hand"]:
            v[o["hand"] + ki[name]] += 1
        if obs["top"]:
            v[o["top"] + ki[obs["top"]]] = 1
        v[o["color"] + ci.get(obs["color"], len(ci))] = 1
        v[o["lock"] + ci.get(obs["lock"], len(ci))] = 1
        v[o["stack"]] = obs["stack"]
        v[o["direction"]] = obs["direction"]
        sizes, called, out = obs["hand_sizes"], obs["uno_called"], obs["eliminated"]
        for i in range(n):
            q = (seat + i) % n
            if i:
                v[o["hand_sizes"] + i - 1] = sizes[q]
            v[o["uno_called"] + i] = called[q]
            v[o["eliminated"] + i] = out[q]
        cur = obs["current_player"]
        if cur >= 0:
            v[o["acting"] + (cur - seat) % n] = 1
        if obs["decision"] in self.decision_index:
            v[o["decision"] + self.decision_index[obs["decision"]]] = 1
        v[o["draw_pile"]] = obs["draw_pile"]
        v[o["discard_pile"]] = obs["discard_pile"]
        for name in obs["discard"]:
            v[o["discard"] + ki[name]] += 1
        if "drawn" in obs:
            v[o["drawn"] + ki[obs["drawn"]]] = 1
        for q, cards in obs["revealed"].items():
            rel = (int(q) - seat) % n
            if rel == 0:                # one's own hand is in `hand` already
                continue
            base = o["revealed"] + (rel - 1) * k
            for name in cards:
                v[base + ki[name]] += 1
        v[o["turn"]] = min(obs["turn"], self.high[o["turn"]])
        if self.full_state:
            for i in range(1, n):
                base = o["hidden_hands"] + (i - 1) * k
                for name in state.hand((seat + i) % n):
                    v[base + ki[name]] += 1
        return v

    def describe(self) -> list[str]:
        """One line per field: indices, name, bounds, meaning."""
        return [f"{f.start:5d}..{f.start + f.size - 1:<5d} {f.name:<14} [{f.low:g}, {f.high:g}]  {f.meaning}"
                for f in self.fields if f.size]
