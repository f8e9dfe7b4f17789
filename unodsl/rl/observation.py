"""The observation vector of an RL environment: the engine's observation of one seat, as numbers.

Every field is what `State.observation(seat)` says (what that seat may know, decided by the
engine), with seats relative to the observer: offset 0 is the observer, offset i the seat i
places after it in seat order. The encoder reads the same values from the State's own lists and
counters and rewrites only the entries whose values changed since it last encoded for that seat:
an environment step moves a card or two, and building the observation dict and counting every
card again cost ten times the engine's own step (the named piles and declared variables, in the
variants that have them, are written whole). tests/test_rl_encoder.py holds it equal to a plain
reading of `State.observation` over random games of every shipped variant, in both modes.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..effects import layout as D
from ..model.variables import VarType, Visibility
from .tables import shared


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
    """Turns what `State.observation(seat)` says into a fixed-length float32 vector with a documented layout.

    It keeps, per seat, the vector it last made and the values it made it from, and writes only
    what differs: exact for any state given (another game's too), cheapest for the next position
    of the same game.
    """

    def __init__(self, game, num_players: int, full_state: bool = False):
        # The layout (fields, bounds, positions) depends on the variant and the table alone: laid out once per
        # variant and shared by every encoder of it (rl/tables.py), immutable; each encoder has its own views.
        layout = shared(game, (ObservationEncoder, num_players, full_state),
                        lambda: _lay_out(ObservationEncoder.__new__(ObservationEncoder), game, num_players, full_state))
        self.__dict__.update(layout.copy())      # a dict: copied whole, at its size
        self.game = game
        self._views = [_SeatView(self.size, self._spare, num_players) for _ in range(num_players)]

    def _lay_out(self, game, num_players: int, full_state: bool) -> None:
        """Compute the layout: every attribute but the game and the views."""
        self.n = n = num_players
        self.full_state = full_state
        k = game.num_kinds
        colors = game.variant.colors
        self.color_index = {c: i for i, c in enumerate(colors)}
        self.card_index = game.card_index
        # The option decision (`P chooses:`) only where the variant has one, and the decision kinds of
        # named piles only where it declares piles: every other variant's layout is as it was.
        kinds = D.KINDS if game.option_names else tuple(kind for kind in D.KINDS if kind != D.OPTION)
        self.kinds = kinds = kinds + (D.PILE_KINDS if game.has_put else ())
        self.kinds = kinds = kinds + (D.SET_KINDS if game.sets is not None else ())     # turn.sets' decision
        self.kinds = kinds = kinds + (D.WINDOW_KINDS if game.windows else ())     # windows:' decision
        self.kinds = kinds = kinds + (D.NUMBER_KINDS if game.number_top >= 0 else ())     # a number choice's
        self.decision_index = {kind: i for i, kind in enumerate(kinds)}
        deck = len(game.deck) * game.max_packs        # deck.packs: the largest table's deck
        per_kind = max(game.deck.count(i) for i in range(k)) * game.max_packs if k else 0
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
        # Named piles (`piles:`) and declared variables (`state:`, `player_state:`): only where the
        # variant has them, after the fields every variant has (their layout is as it was).
        names = game.pile_names
        up = [i for i, face_up in enumerate(game.face_up) if face_up]
        if names:
            blocks.append(("piles", len(names), 0, deck, "named piles: the size of each, in order: " + ", ".join(names)))
        if up:
            blocks.append(("pile_cards", len(up) * k, 0, per_kind, "face-up named piles (" + ", ".join(names[i] for i in up)
                           + "): counts per card kind, pile by pile"))
        self._variables = _play_pile_blocks(game) + _variable_blocks(game, n)
        blocks += [(name, size, low, high, meaning) for name, size, low, high, meaning, _ in self._variables]
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
        self._turn_cap = float(self.high[o["turn"]])
        # Vector positions by card id (or colour, seat offset, decision kind), built once, so that a
        # changed value is one write at a known position.
        ids = range(k)
        self._hand_at = [o["hand"] + c for c in ids]
        self._top_at = [o["top"] + c for c in ids]
        self._discard_at = [o["discard"] + c for c in ids]
        self._drawn_at = [o["drawn"] + c for c in ids]
        none = len(colors)
        self._color_at, self._color_none = [o["color"] + i for i in range(none)], o["color"] + none
        self._lock_at, self._lock_none = [o["lock"] + i for i in range(none)], o["lock"] + none
        self._acting_at = [o["acting"] + rel for rel in range(n)]
        self._decision_at = {kind: o["decision"] + i for i, kind in enumerate(kinds)}
        self._others = [[(seat + rel) % n for rel in range(1, n)] for seat in range(n)]
        self._revealed_at = [None] + [[o["revealed"] + (rel - 1) * k + c for c in ids] for rel in range(1, n)]
        self._hidden_at = ([None] + [[o["hidden_hands"] + (rel - 1) * k + c for c in ids] for rel in range(1, n)]
                           if full_state else None)
        if game.k_back is not None:
            back = game.k_back
            self._backs_at = [None] + [[o["backs"] + (rel - 1) * k + back[c] for c in ids] for rel in range(1, n)]
            self._draw_back_at = [o["draw_pile_back"] + back[c] for c in ids]
            self._sides, self._second_side, self._side_at = game.variant.sides, game.variant.sides[1], o["side"]
        else:
            self._backs_at = None
        # The positions of the scalar fields; the per-seat ones as (position, seat) pairs per observer,
        # the observer's own seat at offset 0.
        self._plain_at = (o["stack"], o["direction"], o["draw_pile"], o["discard_pile"], o["turn"])
        self._sizes_at = [[(o["hand_sizes"] + rel - 1, (seat + rel) % n) for rel in range(1, n)] for seat in range(n)]
        self._flags_at = [[(o["uno_called"] + rel, o["eliminated"] + rel, (seat + rel) % n) for rel in range(n)]
                          for seat in range(n)]
        # A one-hot field with nothing to show (no top card, no decision, ...) sets the spare entry past
        # the vector's end, so that moving a 1 is always two writes.
        self._spare = spare = self.size
        self._top_at.append(spare)                          # [-1]: an empty discard pile
        if game.k_back is not None:
            self._draw_back_at.append(spare)                # [-1]: an empty draw pile
        self._piles_at = o.get("piles")
        self._pile_cards_at = [(i, [o["pile_cards"] + j * k + c for c in ids]) for j, i in enumerate(up)]
        self._variables_at = [(o[name], read) for name, _, _, _, _, read in self._variables]
        self._extras = bool(names or self._variables)

    def encode(self, state, seat: int) -> np.ndarray:
        """Return the vector of what `seat` may know of `state` (a new array)."""
        view = self._views[seat]
        mv = view.mv
        hands, discard, pending = state.hands, state.discard, state.pending
        # The counted fields: the cards of a list, as counts per kind, rewritten where the list changed.
        hand = hands[seat]
        if hand != view.hand:
            _recount(mv, self._hand_at, view.hand, hand)
        seen = view.discard
        if discard != seen:
            m = len(seen)
            if len(discard) > m and discard[:m] == seen:    # cards discarded: _recount's first case, inline
                at = self._discard_at
                added = discard[m:]
                for c in added:
                    mv[at[c]] += 1
                seen += added
            else:
                _recount(mv, self._discard_at, seen, discard)
        # The one-hot fields, each as the position of its 1 (the spare entry: none); moving a 1 is two
        # writes. Written out field by field: a loop over them cost more than the fields.
        now = self._top_at[discard[-1] if discard else -1]
        if now != view.top:
            mv[view.top] = 0.0
            mv[now] = 1.0
            view.top = now
        now = self._color_at[state.color] if state.color >= 0 else self._color_none
        if now != view.color:
            mv[view.color] = 0.0
            mv[now] = 1.0
            view.color = now
        now = self._lock_at[state.lock_color] if state.lock_owner >= 0 else self._lock_none
        if now != view.lock:
            mv[view.lock] = 0.0
            mv[now] = 1.0
            view.lock = now
        # acting, decision and drawn follow from the pending decision alone, a tuple: the same object
        # (the engine keeps one per seat's turn) holds the same values, and their positions with it.
        key = None if state.over else pending
        if key is not view.pending:
            self._encode_pending(view, seat, key)
        if self._backs_at is not None:
            now = self._side_at if self._sides[state.side] == self._second_side else self._spare
            if now != view.side:
                mv[view.side] = 0.0
                mv[now] = 1.0
                view.side = now
            draw_pile = state.draw_pile
            now = self._draw_back_at[draw_pile[-1] if draw_pile else -1]
            if now != view.draw_back:
                mv[view.draw_back] = 0.0
                mv[now] = 1.0
                view.draw_back = now
        # The scalar fields, and the per-seat ones rotated so that the observer is offset 0.
        stack_at, direction_at, draw_pile_at, discard_pile_at, turn_at = self._plain_at
        mv[stack_at] = state.stack
        mv[direction_at] = state.direction
        mv[draw_pile_at] = len(state.draw_pile)
        mv[discard_pile_at] = len(discard)
        turn = state.turns
        mv[turn_at] = turn if turn < self._turn_cap else self._turn_cap
        for at, q in self._sizes_at[seat]:
            mv[at] = len(hands[q])
        called, out = state.uno_called, state.eliminated
        if called != view.called or out != view.out:
            for called_at, out_at, q in self._flags_at[seat]:
                mv[called_at] = called[q]
                mv[out_at] = out[q]
            view.called, view.out = called[:], out[:]
        # The fields of the other seats' cards, by seat offset: shown to the observer, their other
        # faces on a two-sided deck, and with full_state their hands.
        shown = state.revealed.get(seat, _NOTHING)
        if shown != view.shown:
            self._encode_shown(view, seat, shown)
        if self._backs_at is not None:
            self._encode_hands(view.backs, self._backs_at, hands, seat, mv)
        if self._hidden_at is not None:
            self._encode_hands(view.hidden, self._hidden_at, hands, seat, mv)
        if self._extras:
            self._encode_extras(view, state, seat)
        return view.v.copy()

    def _encode_extras(self, view, state, seat: int) -> None:
        """The named piles and the declared variables (variants that have them: written whole)."""
        mv = view.mv
        if self._piles_at is not None:
            for i, cards in enumerate(state.piles):
                mv[self._piles_at + i] = len(cards)
            for i, at in self._pile_cards_at:
                seen = view.piles.setdefault(i, [])
                if state.piles[i] != seen:
                    _recount(mv, at, seen, state.piles[i])
        for start, read in self._variables_at:
            for j, value in enumerate(read(state, seat)):
                mv[start + j] = value

    def _encode_pending(self, view, seat: int, pending) -> None:
        """Set `acting`, `decision` and `drawn` for the pending decision `pending` (None: the game is over)."""
        mv = view.mv
        if pending is None:
            acting = decision = self._spare
        else:
            acting = self._acting_at[(pending[1] - seat) % self.n]
            decision = self._decision_at.get(pending[0], self._spare)
        if acting != view.acting:
            mv[view.acting] = 0.0
            mv[acting] = 1.0
            view.acting = acting
        if decision != view.decision:
            mv[view.decision] = 0.0
            mv[decision] = 1.0
            view.decision = decision
        now = self._drawn_at[pending[2]] if pending and pending[0] == _DRAWN and pending[1] == seat else self._spare
        if now != view.drawn:
            mv[view.drawn] = 0.0
            mv[now] = 1.0
            view.drawn = now
        view.pending = pending

    def _encode_hands(self, seen: list, at: list, hands: list, seat: int, mv) -> None:
        """Count the hand of each other seat into its block `at[offset]` (`seen`: as last counted)."""
        for rel, q in enumerate(self._others[seat], 1):
            hand = hands[q]
            if hand != seen[rel]:
                _recount(mv, at[rel], seen[rel], hand)

    def _encode_shown(self, view, seat: int, shown: dict) -> None:
        """Count the cards shown to `seat` (State.revealed[seat]), per seat offset, into `revealed`."""
        lists: list[list[int]] = [[] for _ in range(self.n)]
        for q, cards in shown.items():
            rel = (int(q) - seat) % self.n
            if rel:                     # one's own hand is in `hand` already
                lists[rel] += cards
        for rel in range(1, self.n):
            if lists[rel] != view.shown_cards[rel]:
                _recount(view.mv, self._revealed_at[rel], view.shown_cards[rel], lists[rel])
        view.shown = {q: list(cards) for q, cards in shown.items()}

    def describe(self) -> list[str]:
        """One line per field: indices, name, bounds, meaning."""
        width = max(14, *(len(f.name) for f in self.fields))
        return [f"{f.start:5d}..{f.start + f.size - 1:<5d} {f.name:<{width}} [{f.low:g}, {f.high:g}]  {f.meaning}"
                for f in self.fields if f.size]


def _lay_out(blank: ObservationEncoder, game, num_players: int, full_state: bool) -> MappingProxyType:
    """The attributes of an encoder's layout, frozen: lists as tuples, dicts as read-only mappings, arrays
    read-only (every encoder of the variant reads them)."""
    blank._lay_out(game, num_players, full_state)
    return MappingProxyType({name: _frozen(value) for name, value in vars(blank).items()})


def _frozen(value):
    """`value` made immutable, all the way down (tuples, read-only mappings and arrays)."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(x) for x in value)
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(x) for k, x in value.items()})
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    return value


def _play_pile_blocks(game) -> list[tuple]:
    """The playable piles (`playable: true`), public: each one's top card and color, and the pile in play, as
    fields of the form _variable_blocks makes ([] without playable piles: the layout is as it was)."""
    piles = game.play_piles
    if not piles:
        return []
    k, colors = game.num_kinds, len(game.variant.colors)
    names = ", ".join(game.pile_names[i] for i in piles)

    def tops(st, seat):
        out = [0.0] * (len(piles) * (k + 1))
        for j, i in enumerate(piles):
            out[j * (k + 1) + (st.piles[i][-1] if st.piles[i] else k)] = 1.0
        return out

    def pile_colors(st, seat):
        out = [0.0] * (len(piles) * (colors + 1))
        for j, i in enumerate(piles):
            c = st.pile_colors[i]
            out[j * (colors + 1) + (c if c >= 0 else colors)] = 1.0
        return out

    def in_play(st, seat):
        out = [0.0] * (len(piles) + 1)
        out[0 if st.on_pile < 0 else 1 + piles.index(st.on_pile)] = 1.0
        return out
    return [("play_pile_tops", len(piles) * (k + 1), 0, 1, f"playable piles ({names}): the top card, one-hot per "
             "card kind, last = empty, pile by pile", tops),
            ("play_pile_colors", len(piles) * (colors + 1), 0, 1, f"playable piles ({names}): the color in play, "
             "one-hot per color, last = none, pile by pile", pile_colors),
            ("pile_in_play", len(piles) + 1, 0, 1, f"the pile last played on: one-hot, discard then {names}", in_play)]


def _variable_blocks(game, n: int) -> list[tuple]:
    """One field per declared variable a seat may see: (name, size, low, high, meaning, read), where
    read(state, seat) gives the field's values. A per-player variable has an entry per seat offset,
    a private one only the observer's own; a hidden one is left out (no player sees it)."""
    colors = game.variant.colors
    out = []
    for i, var in enumerate(game.state_vars):
        if var.visibility is Visibility.PUBLIC:
            out.append(_variable_field(var, f"state.{var.name}", 1, colors, game.type_ids,
                                       lambda st, seat, i=i: (st.vars[i],)))
    for i, var in enumerate(game.player_vars):
        if var.visibility is Visibility.PUBLIC:
            out.append(_variable_field(var, f"player_state.{var.name}", n, colors, game.type_ids,
                                       lambda st, seat, i=i: [st.pvars[(seat + rel) % n][i] for rel in range(n)],
                                       "per seat offset 0..n-1"))
        else:           # private: its player alone sees it
            out.append(_variable_field(var, f"player_state.{var.name}", 1, colors, game.type_ids,
                                       lambda st, seat, i=i: (st.pvars[seat][i],), "the observer's own (private)"))
    return out


def _variable_field(var, name: str, count: int, colors, type_ids, values, whose: str = "") -> tuple:
    """The field of `count` values of `var` (`values(state, seat)` gives them as the engine keeps them)."""
    about = f"{var.type.value} variable '{var.name}'" + (f", {whose}" if whose else "")
    if var.type is VarType.INT:
        low = -np.inf if var.low is None else var.low
        high = np.inf if var.high is None else var.high
        return name, count, low, high, about, values
    if var.type is VarType.BOOL:
        return name, count, 0, 1, about + ": 1 for true", lambda st, seat: [float(x) for x in values(st, seat)]
    # A word: one-hot over its words (and none, but for an enum), per value.
    if var.type is VarType.COLOR:
        words, index = len(colors) + 1, (lambda x: x if x >= 0 else len(colors))
        about += ": one-hot per color, last = none"
    elif var.type is VarType.CARD_TYPE:
        words, position = len(type_ids) + 1, {t: i for i, t in enumerate(type_ids)}
        index = lambda x: position.get(x, len(type_ids))  # noqa: E731
        about += ": one-hot per card type (" + ", ".join(type_ids) + "), last = none"
    else:
        words, position = len(var.values), {w: i for i, w in enumerate(var.values)}
        index = position.__getitem__
        about += ": one-hot per value (" + ", ".join(var.values) + ")"

    def one_hot(st, seat):
        out = [0.0] * (count * words)
        for j, x in enumerate(values(st, seat)):
            out[j * words + index(x)] = 1.0
        return out
    return name, count * words, 0, 1, about, one_hot


_NOTHING: dict = {}                     # State.revealed of a seat that was shown nothing
_DRAWN = D.DRAWN
_UNSEEN = object()                      # no pending decision encoded yet


class _SeatView:
    """What encode() last made for one observer: its vector, and copies of the values it was made from."""

    __slots__ = ("v", "mv", "hand", "discard", "top", "color", "lock", "acting", "decision", "drawn", "side",
                 "draw_back", "called", "out", "shown", "shown_cards", "backs", "hidden", "pending", "piles")

    def __init__(self, size: int, spare: int, n: int):
        whole = np.zeros(size + 1, np.float32)     # the vector and the spare entry of empty one-hots
        self.v = whole[:size]
        self.mv = memoryview(whole)         # a float written through a memoryview costs less than through numpy
        # The values of an all-zero vector: each field is written where its values first differ.
        self.hand: list[int] = []
        self.discard: list[int] = []
        # The one-hot fields by the position of their 1: none set.
        self.top = self.color = self.lock = self.acting = self.decision = self.drawn = spare
        self.side = self.draw_back = spare
        self.pending = _UNSEEN               # State.pending as last encoded (None: over), by identity
        self.called = [False] * n
        self.out = [False] * n
        self.shown: dict = {}               # State.revealed[seat] as last counted, copied
        self.shown_cards: list[list[int]] = [[] for _ in range(n)]
        self.backs: list[list[int]] = [[] for _ in range(n)]
        self.hidden: list[list[int]] = [[] for _ in range(n)]
        self.piles: dict[int, list[int]] = {}    # face-up named piles by index, as last counted


def _recount(mv, at: list, old: list, new: list) -> None:
    """Turn the counts per card at positions `at[card]` of `mv` from those of the list `old` into those of `new`,
    and `old` into a copy of `new` (a list of the caller's own: changing it in place spares a copy a call)."""
    m = len(old)
    if len(new) > m and new[:m] == old:         # cards added at the end: a draw, a card discarded
        added = new[m:]
        for c in added:
            mv[at[c]] += 1
        old += added
        return
    if len(new) == m - 1:                       # one card taken, the others in order (list.remove: a play)
        i = 0
        for c in new:
            if c != old[i]:
                break
            i += 1
        if old[i + 1:] == new[i:]:
            mv[at[old[i]]] -= 1
            del old[i]
            return
    delta: dict[int, int] = {}
    for c in old:
        delta[c] = delta.get(c, 0) - 1
    for c in new:
        delta[c] = delta.get(c, 0) + 1
    for c, d in delta.items():
        if d:
            mv[at[c]] += d
    old[:] = new
