"""Saved states: written as JSON, and on loading every field is checked against a schema of the state.

`dump_state` writes every field of `FIELDS`, cards by id. `FIELDS` says, for each saved
field, what a valid value is: its type, its range (seat indexes of this table, colors and
cards of this variant), its length (one entry per seat). A field checker also checks what
its value must agree with in the fields checked before it (the table's order): the
pending decision with the effect frames, windows and hands it refers to. Then the
cards of every zone together must be exactly the deck.

A field added to `State.__slots__` needs an entry here (a test says so): one line that
combines the checkers below, or a small function of its own. This module knows the state
only by its fields: it builds one with `game.state_class`, so the engine imports it, not
the other way round.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

from ..effects import layout as D
from ..effects import types as E
from .errors import InvalidState
from .flow import AFTER_DRAW, AFTER_OUTS, AFTER_PLAY, AFTER_SETUP, AFTER_WINDOW, CONTINUE_SET, END_TURN, OFFER_DRAWN, WINDOWS
from .variables import checked_value, shown_value

FORMAT = "unodsl-state/1"


class _Bad(Exception):
    """A value that does not fit its schema; `path` locates it inside the field ([2][1])."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.message = message
        self.path = path


class _Loading:
    """What the checkers read: the game, the table size, and the fields checked so far (loaded values)."""

    def __init__(self, game):
        self.game = game
        self.n = 0
        self.actor = -1             # the player to act of the pending decision, once checked
        self.got: dict = {}


def _at(index, check, value, ld):
    """Check one item of a list (or dict), locating any problem at its index."""
    try:
        return check(value, ld)
    except _Bad as bad:
        raise _Bad(bad.message, (index,) + bad.path) from None


# --- checkers: each takes (value, loading) and returns the value to load --------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(low: int | None = None, high=None):
    """An integer, at least `low`; `high(ld)` gives the largest allowed, if any."""
    def check(value, ld):
        if not _is_int(value):
            raise _Bad(f"must be an integer, not {_show(value)}")
        top = high(ld) if high is not None else None
        if (low is not None and value < low) or (top is not None and value > top):
            raise _Bad(f"is {value}, out of range ({low} to {top})" if top is not None
                       else f"is {value}, less than {low}")
        return value
    return check


def boolean(value, ld):
    if not isinstance(value, bool):
        raise _Bad(f"must be true or false, not {_show(value)}")
    return value


def one_of(*allowed):
    def check(value, ld):
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise _Bad(f"is {_show(value)}, not one of {', '.join(_show(a) for a in allowed)}")
        return value
    return check


def seat(value, ld):
    """A seat of this table: 0 to n - 1."""
    if not _is_int(value) or not 0 <= value < ld.n:
        raise _Bad(f"is {_show(value)}, not a seat of this {ld.n}-player game (0 to {ld.n - 1})")
    return value


def seat_or_none(value, ld):
    """A seat, or -1 for none."""
    return value if value == -1 and _is_int(value) else seat(value, ld)


def optional(check):
    """null, or a value that fits `check`."""
    def check_optional(value, ld):
        return None if value is None else check(value, ld)
    return check_optional


def color_or_none(value, ld):
    """A color index of this variant, or -1 for none."""
    colors = ld.game.variant.colors
    if not _is_int(value) or not -1 <= value < len(colors):
        raise _Bad(f"is {_show(value)}, not a color of this variant (0 to {len(colors) - 1}) or -1")
    return value


def color(value, ld):
    if value == -1:
        raise _Bad("is -1, not a color")
    return color_or_none(value, ld)


def card_kind_or_none(value, ld):
    """A card kind of this variant (an index into its card ids), or -1 for none."""
    if not _is_int(value) or not -1 <= value < ld.game.num_kinds:
        raise _Bad(f"is {_show(value)}, not a card kind of this variant (0 to {ld.game.num_kinds - 1}) or -1")
    return value


def action(value, ld):
    if not _is_int(value) or not 0 <= value < ld.game.num_actions:
        raise _Bad(f"is {_show(value)}, not an action of this variant (0 to {ld.game.num_actions - 1})")
    return value


def card_id(value, ld):
    """A card id (as saved: 'red_7'), loaded as its kind."""
    if not isinstance(value, str):
        raise _Bad(f"must be a card id, not {_show(value)}")
    kind = ld.game.card_index.get(value)
    if kind is None:
        raise _Bad(f"holds unknown card '{value[:40]}'")
    return kind


def list_of(check, length=None, distinct: bool = False, nonempty: bool = False):
    """A list whose every item fits `check`; `length(ld)` gives its required length, if fixed."""
    fast = _FAST.get(check)

    def check_list(value, ld):
        if not isinstance(value, list):
            raise _Bad(f"must be a list, not {_show(value)}")
        if length is not None and len(value) != length(ld):
            raise _Bad(f"must have {length(ld)} entries, not {len(value)}")
        if nonempty and not value:
            raise _Bad("must not be empty")
        out = fast(value, ld) if fast is not None else None
        if out is None:                 # no fast path, or it failed: check item by item, to say which
            out = [_at(i, check, item, ld) for i, item in enumerate(value)]
        if distinct and len(set(out)) != len(out):
            raise _Bad("names a seat twice")
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
        raise _Bad(str(err)) from None
    ld.n = value
    return value


def revealed(value, ld):
    """What each seat has seen of other hands: {viewer: {seen: [card ids]}}, seats as decimal strings."""
    if not isinstance(value, dict):
        raise _Bad(f"must be an object, not {_show(value)}")
    return {_at(viewer, _seat_key, viewer, ld): _at(viewer, _seen, seen, ld) for viewer, seen in value.items()}


def _seen(value, ld):
    if not isinstance(value, dict):
        raise _Bad(f"must be an object, not {_show(value)}")
    return {_at(q, _seat_key, q, ld): _at(q, cards, hand, ld) for q, hand in value.items()}


def _seat_key(key, ld):
    if not (key.isdigit() and key.isascii()) or len(key) > 3:
        raise _Bad(f"key {_show(key)} is not a seat")
    return seat(int(key), ld)


def rng(value, ld):
    """The random generator's state, as random.Random.getstate() gives it (a list for a tuple)."""
    if not isinstance(value, list) or len(value) != 3:
        raise _Bad("is not a random generator state [version, internal state, gauss]")
    version, internal, gauss = value
    if version != 3 or not _is_int(version):
        raise _Bad(f"has version {_show(version)}, not 3")
    if not (gauss is None or (isinstance(gauss, float) and math.isfinite(gauss))):
        raise _Bad(f"has gauss {_show(gauss)}, not null or a number")
    if (not isinstance(internal, list) or len(internal) != 625
            or set(map(type, internal)) != {int} or min(internal) < 0 or max(internal) >= 2**32
            or internal[-1] > 624):
        raise _Bad("has an internal state that is not 625 words of 32 bits")
    generator = random.Random()
    generator.setstate((version, tuple(internal), gauss))
    return generator


def frame(value, ld):
    """An effect in progress: [code id, pc, self seat, card kind, honest, jumped, locals...] (effects/layout.py)."""
    if not isinstance(value, list) or len(value) < D.F_LOCALS:
        raise _Bad(f"must be a list of at least {D.F_LOCALS} entries, not {_show(value)}")
    codes = ld.game.codes
    code = _at(D.F_CODE, integer(0, lambda ld: len(codes) - 1), value[D.F_CODE], ld)
    ops, nlocals = codes[code]
    _at(D.F_PC, integer(0, lambda ld: len(ops)), value[D.F_PC], ld)
    _at(D.F_SELF, seat, value[D.F_SELF], ld)
    _at(D.F_CARD, card_kind_or_none, value[D.F_CARD], ld)
    _at(D.F_HONEST, boolean, value[D.F_HONEST], ld)
    _at(D.F_JUMPED, boolean, value[D.F_JUMPED], ld)
    if len(value) != D.F_LOCALS + nlocals:
        raise _Bad(f"has {len(value) - D.F_LOCALS} locals; code {code} has {nlocals}")
    for slot, kind in enumerate(ld.game.code_locals[code], start=D.F_LOCALS):
        _at(slot, _LOCALS[kind], value[slot], ld)
    return value


def _text(value, ld):
    if not isinstance(value, str):
        raise _Bad(f"must be a string, not {_show(value)}")
    return value


# What a local of each kind (Game.code_locals, from the effect compiler) may hold; unset is null.
_LOCALS = {kind: optional(check) for kind, check in (
    (E.PLAYER, seat_or_none), (E.INT, integer()), (E.BOOL, boolean), (E.COLOR, color_or_none),
    (E.STRING, _text), (E.GROUP, list_of(seat, distinct=True)), (E.SEATS, list_of(seat, distinct=True)))}


def frames(value, ld):
    """The open effect frames, innermost last; any number of them (every frame a player's answer opened)."""
    return list_of(frame)(value, ld)


# --- the pending decision: one shape per kind ----------------------------------------------------

def _top(ld):
    """The innermost effect frame (checked already) of a decision made inside an effect."""
    return ld.got["frames"][-1]


def _slot_of_top(value, ld):
    fr = _top(ld)
    return integer(D.F_LOCALS, lambda ld: len(fr) - 1)(value, ld)


def _pc_of_top(value, ld):
    ops = ld.game.codes[_top(ld)[D.F_CODE]][0]
    return integer(0, lambda ld: len(ops))(value, ld)


def _candidates(value, ld):
    out = list_of(seat, distinct=True, nonempty=True)(value, ld)
    if out != sorted(out):
        raise _Bad("must list the seats in order")
    return tuple(out)


def _option_offered(value, ld):
    """One option a choice offers: [option id, where its body starts in the paused effect]."""
    if not isinstance(value, list) or len(value) != 2:
        raise _Bad(f"must be [option id, body position], not {_show(value)}")
    option = integer(0, lambda ld: len(ld.game.option_names) - 1)
    return _at(0, option, value[0], ld), _at(1, _pc_of_top, value[1], ld)


def _offered(value, ld):
    """The options a choice offers, two or more (one alone is taken without asking)."""
    out = list_of(_option_offered)(value, ld)
    if len(out) < 2:
        raise _Bad("must offer two options or more: one alone is taken without asking")
    if len({option for option, _ in out}) != len(out):
        raise _Bad("offers an option twice")
    return tuple(out)


def _give_destination(value, ld):
    """A seat that receives the cards, or -1 - i for the blind pick into an exchange's limbo i."""
    if _is_int(value) and value in (-1, -2):
        return value
    return seat(value, ld)


def _drawn_card(value, ld):
    kind = card_kind_or_none(value, ld)
    if kind not in ld.got["hands"][ld.actor]:
        raise _Bad(f"names card kind {kind}, which the drawing player's entry in 'hands' does not hold")
    return kind


def _forced_color(value, ld):
    c = color(value, ld)
    hand = ld.got["hands"][ld.actor]
    if not any(ld.game.k_color[k] == c for k in hand):
        raise _Bad(f"is color {c}, of which the forced player's entry in 'hands' holds no card")
    return c


def _pile(value, ld):
    """Where a `put` decision puts the cards: the draw pile, the discard pile or a declared pile."""
    if not isinstance(value, int) or isinstance(value, bool) or not D.DISCARD_PILE <= value < len(ld.game.pile_names):
        raise _Bad(f"is {_show(value)}, not a pile of this variant (-1 draw, -2 discard, "
                   f"0 to {len(ld.game.pile_names) - 1} its piles)")
    return value


def _other_seat(value, ld):
    if seat(value, ld) == ld.actor:
        raise _Bad("is the player to act; they trade with someone else")
    return value


# A decision is [kind, player to act, ...]: what follows the player, and whether an effect is paused
# under it (an effect frame is open exactly when the decision was asked for inside an effect).
PENDING = {
    D.TURN: ((), False),
    D.DRAWN: ((_drawn_card,), False),
    D.COLOR: ((), True),
    D.TARGET: ((_slot_of_top, _candidates), True),
    D.CHALLENGE: ((_pc_of_top, _pc_of_top, _pc_of_top), True),
    D.GIVE: ((integer(1), _give_destination), True),
    D.TRADE: ((_other_seat, integer(1)), True),
    D.STACK: ((), False),
    D.FORCED: ((_forced_color,), True),
    D.JUMP: ((), False),
    D.CATCH: ((), False),
    D.UNO: ((), False),
    D.PUT: ((integer(1), _pile), True),
    D.OPTION: ((_offered,), True),
    D.SET: ((), False),
}


def pending(value, ld):
    """The decision waiting for the player to act; null once the game is over."""
    if ld.got["over"]:
        if value is not None:
            raise _Bad("must be null: field 'over' says the game is over")
        if ld.got["frames"]:
            raise _Bad("is null (field 'over' is true), but field 'frames' is not empty")
        return None
    if not isinstance(value, list) or not value:
        raise _Bad(f"must be a decision [kind, player, ...] while the game is not over (field 'over'), "
                   f"not {_show(value)}")
    kind = value[0]
    if not isinstance(kind, str) or kind not in PENDING:
        raise _Bad(f"is {_show(kind)}, not a kind of decision", (0,))
    rest, in_effect = PENDING[kind]
    if len(value) != 2 + len(rest):
        raise _Bad(f"a '{kind}' decision has {2 + len(rest)} entries, not {len(value)}")
    p = ld.actor = _at(1, seat, value[1], ld)
    if in_effect != bool(ld.got["frames"]):
        raise _Bad(f"is a '{kind}' decision, made " + ("inside an effect, but field 'frames' is empty" if in_effect
                                                        else "outside effects, but field 'frames' is not empty"))
    loaded = (kind, p) + tuple(_at(i, check, item, ld) for i, (check, item) in enumerate(zip(rest, value[2:]), 2))
    _agrees(kind, p, ld)
    return loaded


def _agrees(kind: str, p: int, ld) -> None:
    """What the engine reads beside the decision when it is answered (apply_id) must be there."""
    got = ld.got
    if kind == D.COLOR and not ld.game.variant.colors:
        raise _Bad("asks for a color, but this variant has no colors")
    if kind == D.STACK and not (got["stack"] > 0 and got["stack_victim"] == p):
        raise _Bad(f"asks player {p} to answer a stack, but fields 'stack' and 'stack_victim' say none is open "
                   "against them")
    if kind in (D.JUMP, D.CATCH) and not (got["window_kind"] == kind and got["window"] and got["window"][0] == p):
        raise _Bad(f"asks player {p} in a '{kind}' window, but fields 'window' and 'window_kind' say it is not "
                   "open at their seat")
    if kind in (D.UNO, D.CATCH) and got["next_player"] < 0:
        raise _Bad(f"opens a '{kind}' window between turns, but field 'next_player' names no next player")
    if kind == D.UNO and not (got["uno_askers"] and got["uno_askers"][0] == p):
        raise _Bad(f"asks player {p} to call UNO, but they are not first in field 'uno_askers'")
    if kind in (D.GIVE, D.TRADE, D.PUT) and not got["hands"][p]:
        raise _Bad(f"asks player {p} to pick from their entry in 'hands', which is empty")
    if kind == D.SET and ld.game.sets is None:
        raise _Bad("asks to go on with a set, but this variant has no sets (turn.sets)")


def _next_player(value, ld):
    """The seat whose turn comes after the windows between turns; -1 until the round's first turn.

    Before it, effects are open only in the set-up: the set-up's own (`after` "setup"), or the
    player-out events of a player it put out of cards ("outs", no turn begun yet).
    """
    p = seat_or_none(value, ld)
    after = ld.got["after"]
    if p < 0 and after != AFTER_SETUP and not (after == AFTER_OUTS and ld.got["turns"] == 0):
        raise _Bad(f"is -1 (no turn yet), but field 'after' is {_show(after)}: a turn was played")
    return p


def _lock_owner(value, ld):
    owner = seat_or_none(value, ld)
    if owner >= 0 and ld.got["lock_color"] < 0:
        raise _Bad("names a seat, but field 'lock_color' locks no color")
    return owner


def _variable_value(var):
    """A saved value of the declared variable `var` (as players see it), loaded as the engine keeps it."""
    def check(value, ld):
        try:
            return checked_value(ld.game, var, value)
        except ValueError as err:
            raise _Bad(str(err)[:200]) from None
    return check


def _values(declared, value, ld) -> list:
    if not isinstance(value, list) or len(value) != len(declared):
        raise _Bad(f"must be a list of {len(declared)} values, not {_show(value)}")
    return [_at(i, _variable_value(var), item, ld) for i, (var, item) in enumerate(zip(declared, value))]


def variables(value, ld):
    """The global variables' values, in the order of the variant's state:."""
    return _values(ld.game.state_vars, value, ld)


def player_variables(value, ld):
    """Per seat, the values of the variant's player_state:, in its order."""
    return per_seat(lambda item, ld: _values(ld.game.player_vars, item, ld))(value, ld)


def side(value, ld):
    """The side up of a two-sided deck, by index (a field saved only for such a deck)."""
    sides = len(ld.game.variant.sides)
    if not _is_int(value) or not 0 <= value < sides:
        raise _Bad(f"is {_show(value)}, not a side of this deck (0 to {sides - 1})")
    return value


# --- the schema: one entry per saved field, checked in this order --------------------------------

FIELDS = {
    "n": players,
    "seed": integer(),
    "match": boolean,
    "scores": per_seat(integer()),
    "round": integer(1),
    "dealer": seat,
    "over": boolean,
    "winner": optional(seat),
    "round_winner": optional(seat),
    "stalled": boolean,
    "total_turns": integer(0),
    "reshuffles": integer(0),
    "history": list_of(action),
    "hands": per_seat(cards),
    "draw_pile": cards,
    "discard": list_of(card_id, nonempty=True),
    "limbo": list_of(cards, length=lambda ld: 2),
    "color": color_or_none,
    "direction": one_of(1, -1),
    "current": seat,
    "skip": per_seat(integer(0)),
    "stack": integer(0),
    "stack_victim": seat_or_none,
    "lock_color": color_or_none,
    "lock_owner": _lock_owner,
    "next_exact": seat_or_none,
    "turn_from": seat_or_none,
    "turns": integer(0),
    "after": one_of(AFTER_SETUP, AFTER_PLAY, AFTER_DRAW, AFTER_OUTS, AFTER_WINDOW),
    "then": one_of(END_TURN, OFFER_DRAWN, WINDOWS, CONTINUE_SET),
    "steps": integer(0),
    "next_player": _next_player,
    "played_by": seat_or_none,
    "flips": integer(0),
    "drawn_this_turn": card_kind_or_none,
    "vulnerable": list_of(seat, distinct=True),
    "uno_called": per_seat(boolean),
    "uno_askers": list_of(seat, distinct=True),
    "eliminated": per_seat(boolean),
    "out": per_seat(boolean),
    "window": list_of(seat),
    "window_kind": one_of("", D.JUMP, D.CATCH),
    "revealed": revealed,
    "rng": rng,
    "frames": frames,
    "pending": pending,             # last: it is checked against the frames, windows and hands it refers to
}


def set_play(value, ld):
    """The set being played (turn.sets): [] or [size, sum of its numbers, its first card, the card under it]."""
    if value == []:
        if ld.got["pending"] is not None and ld.got["pending"][0] == D.SET:
            raise _Bad("is empty, but field 'pending' asks to go on with a set")
        return []
    if not isinstance(value, list) or len(value) != 4:
        raise _Bad(f"must be [] or [size, sum, first card, card under it], not {_show(value)}")
    longest = ld.game.sets.max
    return [_at(0, integer(1, lambda ld: longest), value[0], ld), _at(1, integer(0), value[1], ld),
            _at(2, card_kind_or_none, value[2], ld), _at(3, card_kind_or_none, value[3], ld)]


# The fields only some variants' states save and load, checked after FIELDS: name -> (its checker,
# whether a game's states save it, the value it holds in the states of the others at a table of n).
# So the saves of a variant without two-sided cards, named piles or declared variables are what
# they were before those existed.
OPTIONAL = {
    "side": (side, lambda game: game.k_back is not None, lambda game, n: 0),
    "piles": (list_of(cards, length=lambda ld: len(ld.game.pile_names)), lambda game: bool(game.pile_names),
              lambda game, n: []),
    "vars": (variables, lambda game: bool(game.state_vars), lambda game, n: []),
    "pvars": (player_variables, lambda game: bool(game.player_vars), lambda game, n: [[] for _ in range(n)]),
    "set_play": (set_play, lambda game: game.sets is not None, lambda game, n: []),
}


def fields_of(game) -> dict:
    """The saved fields of `game`'s states (name -> checker), in the order they are checked."""
    return {**FIELDS, **{name: check for name, (check, saved, _) in OPTIONAL.items() if saved(game)}}


def dump_state(state) -> str:
    """The whole state, RNG included, as JSON text: every field of FIELDS, cards by id."""
    data = {f: getattr(state, f) for f in fields_of(state.g)}
    # `after` says how to go on once the open effects finish, and `then` how to go on after the
    # player-out events: read only while they are open (each is set before such effects run), so
    # otherwise a saved state holds their defaults.
    if not state.frames:
        data["after"] = AFTER_SETUP
    if not state.frames or state.after != AFTER_OUTS:
        data["then"] = END_TURN
    names = state.g.card_names
    data["hands"] = [[names[k] for k in h] for h in state.hands]
    data["draw_pile"] = [names[k] for k in state.draw_pile]
    data["discard"] = [names[k] for k in state.discard]
    data["limbo"] = [[names[k] for k in h] for h in state.limbo]
    if "piles" in data:
        data["piles"] = [[names[k] for k in h] for h in state.piles]
    data["revealed"] = {str(p): {str(q): [names[k] for k in c] for q, c in seen.items()}
                        for p, seen in state.revealed.items()}
    version, internal, gauss = state.rng.getstate()
    data["rng"] = [version, list(internal), gauss]
    g, colors = state.g, state.g.variant.colors
    if "vars" in data:
        data["vars"] = [shown_value(var, value, colors) for var, value in zip(g.state_vars, state.vars)]
    if "pvars" in data:
        data["pvars"] = [[shown_value(var, value, colors) for var, value in zip(g.player_vars, values)]
                         for values in state.pvars]
    data["variant"] = state.g.digest
    data["format"] = FORMAT
    return json.dumps(data)


def load_state(game, text: str):
    """Build a state of `game` from JSON text, raising InvalidState that names the first field that is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise InvalidState(f"not a saved state: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidState(f"not a saved state (missing format '{FORMAT}')")
    if data.get("variant") != game.digest:
        raise InvalidState(f"saved for another variant (digest {_show(data.get('variant'))}, "
                           f"this one is {game.digest})")
    fields = fields_of(game)
    missing = [f for f in fields if f not in data]
    if missing:
        raise InvalidState(f"missing fields: {', '.join(missing)}")
    unknown = [f for f in data if f not in fields and f not in ("format", "variant")]
    if unknown:
        raise InvalidState(f"unknown field '{unknown[0][:40]}'")
    ld = _Loading(game)
    for name, check in fields.items():
        try:
            ld.got[name] = check(data[name], ld)
        except _Bad as bad:
            where = name + "".join(f"[{i}]" for i in bad.path)
            raise InvalidState(f"field '{where}' {bad.message}") from None
    for name, (_, _, default) in OPTIONAL.items():
        if name not in fields:
            ld.got[name] = default(game, ld.got["n"])
    _check_cards(game, ld.got)
    game.tables_for(ld.got["n"])
    state = game.state_class.__new__(game.state_class)
    state.g = game
    for name in (*FIELDS, *OPTIONAL):
        setattr(state, name, ld.got[name])
    state.log = None
    state.events = None
    state.dealing = 0
    return state


def _check_cards(game, got: dict) -> None:
    """All zones together hold exactly the deck: no card made up, none lost."""
    held = Counter(k for zone in (*got["hands"], got["draw_pile"], got["discard"], *got["limbo"], *got["piles"])
                   for k in zone)
    expected = Counter(game.deck_up(got["side"]))
    if held != expected:
        extra = held - expected
        if extra:
            problem = f"card '{game.card_names[next(iter(extra))]}' appears more often than the deck holds"
        else:
            problem = f"card '{game.card_names[next(iter(expected - held))]}' is missing from every zone"
        raise InvalidState(f"fields 'hands', 'draw_pile', 'discard', 'limbo' and 'piles' do not hold the deck: "
                           f"{problem}")


def _show(value) -> str:
    """A short rendering of a saved value for a message."""
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
