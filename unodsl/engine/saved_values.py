"""The checkers of saved values: what the schema of a saved state (savefile.FIELDS) is made of.

Each checker takes (value, loading) and returns the value to load, or raises `Bad` saying what is
wrong and where inside the field (`path`); `Loading` is what they read: the game, the table size and
the fields checked so far. The generic ones (integers, seats, colors, cards, lists, one per seat)
combine into a field's entry; the few with a shape of their own (the generator, effect frames,
what each seat was shown) are here too. savefile.py holds the schema and the pending decision's shapes.
"""

from __future__ import annotations

import json
import math
import random

from ..effects import layout as D
from ..effects import types as E


class Bad(Exception):
    """A value that does not fit its schema; `path` locates it inside the field ([2][1])."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.message = message
        self.path = path


class Loading:
    """What the checkers read: the game, the table size, and the fields checked so far (loaded values)."""

    def __init__(self, game):
        self.game = game
        self.n = 0
        self.actor = -1             # the player to act of the pending decision, once checked
        self.got: dict = {}


def at(index, check, value, ld):
    """Check one item of a list (or dict), locating any problem at its index."""
    try:
        return check(value, ld)
    except Bad as bad:
        raise Bad(bad.message, (index,) + bad.path) from None


# --- checkers: each takes (value, loading) and returns the value to load --------------------------

def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(low: int | None = None, high=None):
    """An integer, at least `low`; `high(ld)` gives the largest allowed, if any."""
    def check(value, ld):
        if not is_int(value):
            raise Bad(f"must be an integer, not {show(value)}")
        top = high(ld) if high is not None else None
        if (low is not None and value < low) or (top is not None and value > top):
            raise Bad(f"is {value}, out of range ({low} to {top})" if top is not None
                       else f"is {value}, less than {low}")
        return value
    return check


def boolean(value, ld):
    if not isinstance(value, bool):
        raise Bad(f"must be true or false, not {show(value)}")
    return value


def one_of(*allowed):
    def check(value, ld):
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise Bad(f"is {show(value)}, not one of {', '.join(show(a) for a in allowed)}")
        return value
    return check


def seat(value, ld):
    """A seat of this table: 0 to n - 1."""
    if not is_int(value) or not 0 <= value < ld.n:
        raise Bad(f"is {show(value)}, not a seat of this {ld.n}-player game (0 to {ld.n - 1})")
    return value


def seat_or_none(value, ld):
    """A seat, or -1 for none."""
    return value if value == -1 and is_int(value) else seat(value, ld)


def optional(check):
    """null, or a value that fits `check`."""
    def check_optional(value, ld):
        return None if value is None else check(value, ld)
    return check_optional


def color_or_none(value, ld):
    """A color index of this variant, or -1 for none."""
    colors = ld.game.variant.colors
    if not is_int(value) or not -1 <= value < len(colors):
        raise Bad(f"is {show(value)}, not a color of this variant (0 to {len(colors) - 1}) or -1")
    return value


def color(value, ld):
    if value == -1:
        raise Bad("is -1, not a color")
    return color_or_none(value, ld)


def card_kind_or_none(value, ld):
    """A card kind of this variant (an index into its card ids), or -1 for none."""
    if not is_int(value) or not -1 <= value < ld.game.num_kinds:
        raise Bad(f"is {show(value)}, not a card kind of this variant (0 to {ld.game.num_kinds - 1}) or -1")
    return value


def action(value, ld):
    if not is_int(value) or not 0 <= value < ld.game.num_actions:
        raise Bad(f"is {show(value)}, not an action of this variant (0 to {ld.game.num_actions - 1})")
    return value


def card_id(value, ld):
    """A card id (as saved: 'red_7'), loaded as its kind."""
    if not isinstance(value, str):
        raise Bad(f"must be a card id, not {show(value)}")
    kind = ld.game.card_index.get(value)
    if kind is None:
        raise Bad(f"holds unknown card '{value[:40]}'")
    return kind


def list_of(check, length=None, distinct: bool = False, nonempty: bool = False):
    """A list whose every item fits `check`; `length(ld)` gives its required length, if fixed."""
    fast = _FAST.get(check)

    def check_list(value, ld):
        if not isinstance(value, list):
            raise Bad(f"must be a list, not {show(value)}")
        if length is not None and len(value) != length(ld):
            raise Bad(f"must have {length(ld)} entries, not {len(value)}")
        if nonempty and not value:
            raise Bad("must not be empty")
        out = fast(value, ld) if fast is not None else None
        if out is None:                 # no fast path, or it failed: check item by item, to say which
            out = [at(i, check, item, ld) for i, item in enumerate(value)]
        if distinct and len(set(out)) != len(out):
            raise Bad("names a seat twice")
        return out
    return check_list


def _ints_between(low, high):
    """A fast check of a whole list of integers from low to high(ld): the list, or None if any item is not."""
    def fast(value, ld):
        if not value or (set(map(type, value)) == {int} and min(value) >= low and max(value) <= high(ld)):
            return list(value)
        return None
    return fast


def _card_ids(value, ld):
    index = ld.game.card_index
    try:
        return [index[c] for c in value] if not value or set(map(type, value)) == {str} else None
    except KeyError:
        return None


def per_seat(check):
    """One entry per seat of the table."""
    return list_of(check, length=lambda ld: ld.n)


# Long lists (the history, the draw pile) are checked whole first; item by item only to locate a problem.
_FAST = {action: _ints_between(0, lambda ld: ld.game.num_actions - 1), seat: _ints_between(0, lambda ld: ld.n - 1),
         card_id: _card_ids}

cards = list_of(card_id)


def players(value, ld):
    integer(2)(value, ld)
    try:
        ld.game.check_players(value)
    except ValueError as err:
        raise Bad(str(err)) from None
    ld.n = value
    return value


def revealed(value, ld):
    """What each seat has seen of other hands: {viewer: {seen: [card ids]}}, seats as decimal strings."""
    if not isinstance(value, dict):
        raise Bad(f"must be an object, not {show(value)}")
    return {at(viewer, _seat_key, viewer, ld): at(viewer, _seen, seen, ld) for viewer, seen in value.items()}


def _seen(value, ld):
    if not isinstance(value, dict):
        raise Bad(f"must be an object, not {show(value)}")
    return {at(q, _seat_key, q, ld): at(q, cards, hand, ld) for q, hand in value.items()}


def _seat_key(key, ld):
    if not (key.isdigit() and key.isascii()) or len(key) > 3:
        raise Bad(f"key {show(key)} is not a seat")
    return seat(int(key), ld)


def rng(value, ld):
    """The random generator's state, as random.Random.getstate() gives it (a list for a tuple)."""
    if not isinstance(value, list) or len(value) != 3:
        raise Bad("is not a random generator state [version, internal state, gauss]")
    version, internal, gauss = value
    if version != 3 or not is_int(version):
        raise Bad(f"has version {show(version)}, not 3")
    if not (gauss is None or (isinstance(gauss, float) and math.isfinite(gauss))):
        raise Bad(f"has gauss {show(gauss)}, not null or a number")
    if (not isinstance(internal, list) or len(internal) != 625
            or set(map(type, internal)) != {int} or min(internal) < 0 or max(internal) >= 2**32
            or internal[-1] > 624):
        raise Bad("has an internal state that is not 625 words of 32 bits")
    generator = random.Random()
    generator.setstate((version, tuple(internal), gauss))
    return generator


def saved_rng(generator: random.Random) -> list:
    """The generator's state as saved: [version, internal state, gauss] (what `rng` loads)."""
    version, internal, gauss = generator.getstate()
    return [version, list(internal), gauss]


def frame(value, ld):
    """An effect in progress: [code id, pc, self seat, card kind, honest, jumped, locals...] (effects/layout.py)."""
    if not isinstance(value, list) or len(value) < D.F_LOCALS:
        raise Bad(f"must be a list of at least {D.F_LOCALS} entries, not {show(value)}")
    codes = ld.game.codes
    code = at(D.F_CODE, integer(0, lambda ld: len(codes) - 1), value[D.F_CODE], ld)
    ops, nlocals = codes[code]
    at(D.F_PC, integer(0, lambda ld: len(ops)), value[D.F_PC], ld)
    at(D.F_SELF, seat, value[D.F_SELF], ld)
    at(D.F_CARD, card_kind_or_none, value[D.F_CARD], ld)
    at(D.F_HONEST, boolean, value[D.F_HONEST], ld)
    at(D.F_JUMPED, boolean, value[D.F_JUMPED], ld)
    if len(value) != D.F_LOCALS + nlocals:
        raise Bad(f"has {len(value) - D.F_LOCALS} locals; code {code} has {nlocals}")
    for slot, kind in enumerate(ld.game.code_records[code].local_kinds, start=D.F_LOCALS):
        at(slot, _LOCALS[kind], value[slot], ld)
    pc = value[D.F_PC]
    for live in ld.game.code_records[code].live:      # what the code has certainly set by the op it resumes at
        if live.first <= pc <= live.last:
            held = value[live.slot]
            if held is None:
                raise Bad(f"is unset, but the effect has set it before op {pc}", (live.slot,))
            limit = live.most if live.len_of is None else len(value[live.len_of] or ())
            if limit is not None and not 0 <= held <= limit:
                raise Bad(f"is {held}, out of range (0 to {limit})", (live.slot,))
    return value


def _text(value, ld):
    if not isinstance(value, str):
        raise Bad(f"must be a string, not {show(value)}")
    return value


# What a local of each kind (Code.local_kinds, from the effect compiler) may hold; unset is null.
_LOCALS = {kind: optional(check) for kind, check in (
    (E.PLAYER, seat_or_none), (E.INT, integer()), (E.BOOL, boolean), (E.COLOR, color_or_none),
    (E.STRING, _text), (E.GROUP, list_of(seat, distinct=True)), (E.SEATS, list_of(seat, distinct=True)),
    (E.NUMBERS, list_of(integer(1), distinct=True)),
    (D.SEALED, seat_or_none), (D.PICKS, per_seat(seat_or_none)),
    (D.SEALED_NUMBER, integer(0, lambda ld: ld.game.number_top)),
    (D.BIDS, per_seat(integer(-1, lambda ld: ld.game.number_top))))}


def frames(value, ld):
    """The open effect frames, innermost last; any number of them (every frame a player's answer opened)."""
    return list_of(frame)(value, ld)


def show(value) -> str:
    """A short rendering of a saved value for a message."""
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
