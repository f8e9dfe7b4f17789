"""Saved states: written as JSON, and on loading every field is checked against a schema of the state.

The schema is made from the fields' declaration (engine/fields.py): each saved field's `check` is
source over the checkers here and in saved_values.py, which say what a valid value is: its type,
its range (seat indexes of this table, colors and cards of this variant), its length (one entry
per seat). A field checker also checks what its value must agree with in the fields checked before
it (the declaration's order): the pending decision with the effect frames, windows and hands it
refers to. Then the cards of every zone together must be exactly the deck. `dump_state` writes
every saved field, as its `dump` says (cards by id); a field not saved gets its initial value.

This module knows the state only by its fields: it builds one with `game.state_class`, so the
engine imports it, not the other way round.
"""

from __future__ import annotations

import json
from collections import Counter

from ..effects import layout as D
from . import fields as declaration
from .errors import InvalidState
from .flow import (AFTER_DRAW, AFTER_OUTS, AFTER_PLAY, AFTER_SETUP, AFTER_TURN_END, AFTER_TURN_START, AFTER_WINDOW,
                   CONTINUE_SET, END_TURN, HAND_OFF, OFFER_DRAWN, OFFER_TURN, WINDOWS)
from .ops import DECIDES
from .saved_values import (Bad, Loading, action, at, boolean, card_id, card_kind_or_none, cards, color, color_or_none,
                           frames, integer, is_int, list_of, one_of, optional, per_seat, players, revealed, rng, saved_rng,
                           seat, seat_or_none, show)
from .variables import checked_value, shown_value

FORMAT = "unodsl-state/1"


# --- the pending decision: one shape per kind ----------------------------------------------------

def _top(ld):
    """The innermost effect frame (checked already) of a decision made inside an effect."""
    return ld.got["frames"][-1]


def _slot_of_top(value, ld):
    fr = _top(ld)
    return integer(D.F_LOCALS, lambda ld: len(fr) - 1)(value, ld)


def _color_slot_of_top(value, ld):
    """The local a color chosen as a value goes into (`let NAME = P chooses color`): one of color's kind."""
    slot = _slot_of_top(value, ld)
    kinds = ld.game.code_records[_top(ld)[D.F_CODE]].local_kinds
    if kinds[slot - D.F_LOCALS] != "color":
        raise Bad(f"is local {slot} of the paused effect, which does not hold a color")
    return slot


def _number_slot_of_top(value, ld):
    """The local a number chosen goes into: a number (`let NAME = P chooses number ...`) or a sealed number's answer."""
    slot = _slot_of_top(value, ld)
    if ld.game.code_records[_top(ld)[D.F_CODE]].local_kinds[slot - D.F_LOCALS] not in ("number", D.SEALED_NUMBER):
        raise Bad(f"is local {slot} of the paused effect, which does not hold a number chosen")
    return slot


def _number_offered(value, ld):
    """A bound of the numbers offered: one of the variant's `number N` actions."""
    return integer(0, lambda ld: ld.game.number_top)(value, ld)


def _pc_of_top(value, ld):
    ops = ld.game.codes[_top(ld)[D.F_CODE]][0]
    return integer(0, lambda ld: len(ops))(value, ld)


def _candidates(value, ld):
    out = list_of(seat, distinct=True, nonempty=True)(value, ld)
    if out != sorted(out):
        raise Bad("must list the seats in order")
    return tuple(out)


def _option_offered(value, ld):
    """One option a choice offers: [option id, where its body starts in the paused effect]."""
    if not isinstance(value, list) or len(value) != 2:
        raise Bad(f"must be [option id, body position], not {show(value)}")
    option = integer(0, lambda ld: len(ld.game.option_names) - 1)
    return at(0, option, value[0], ld), at(1, _pc_of_top, value[1], ld)


def _offered(value, ld):
    """The options a choice offers, two or more (one alone is taken without asking)."""
    out = list_of(_option_offered)(value, ld)
    if len(out) < 2:
        raise Bad("must offer two options or more: one alone is taken without asking")
    if len({option for option, _ in out}) != len(out):
        raise Bad("offers an option twice")
    return tuple(out)


def _give_destination(value, ld):
    """A seat that receives the cards, or -1 - i for the blind pick into an exchange's limbo i."""
    if is_int(value) and value in (-1, -2):
        return value
    return seat(value, ld)


def _drawn_card(value, ld):
    kind = card_kind_or_none(value, ld)
    if kind not in ld.got["hands"][ld.actor]:
        raise Bad(f"names card kind {kind}, which the drawing player's entry in 'hands' does not hold")
    return kind


def _forced_color(value, ld):
    if value == -1:                             # `must play where`: the effect's filter, not saved, says which
        if not ld.got["hands"][ld.actor]:
            raise Bad("is -1 (a card meeting a condition), but the forced player's entry in 'hands' is empty")
        return -1
    c = color(value, ld)
    hand = ld.got["hands"][ld.actor]
    if not any(ld.game.k_color[k] == c for k in hand):
        raise Bad(f"is color {c}, of which the forced player's entry in 'hands' holds no card")
    return c


def _pile(value, ld):
    """Where a `put` decision puts the cards: the draw pile, the discard pile or a declared pile."""
    if not isinstance(value, int) or isinstance(value, bool) or not D.DISCARD_PILE <= value < len(ld.game.pile_names):
        raise Bad(f"is {show(value)}, not a pile of this variant (-1 draw, -2 discard, "
                   f"0 to {len(ld.game.pile_names) - 1} its piles)")
    return value


def _other_seat(value, ld):
    if seat(value, ld) == ld.actor:
        raise Bad("is the player to act; they trade with someone else")
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
    D.NUMBER: ((_number_slot_of_top, _number_offered, _number_offered), True),
    D.OPTION: ((_offered,), True),
    D.SET: ((), False),
    D.WINDOW: ((), False),
}
# A decision with a longer second shape: a color chosen as a value names the local it goes into, and the op
# that asks it (ops.choose_color_value) is another than the one asking the color in play.
LONGER = {D.COLOR: ((_color_slot_of_top,), "choose_color_value")}


def pending(value, ld):
    """The decision waiting for the player to act; null once the game is over."""
    if ld.got["over"]:
        if value is not None:
            raise Bad("must be null: field 'over' says the game is over")
        if ld.got["frames"]:
            raise Bad("is null (field 'over' is true), but field 'frames' is not empty")
        return None
    if not isinstance(value, list) or not value:
        raise Bad(f"must be a decision [kind, player, ...] while the game is not over (field 'over'), "
                   f"not {show(value)}")
    kind = value[0]
    if not isinstance(kind, str) or kind not in PENDING:
        raise Bad(f"is {show(kind)}, not a kind of decision", (0,))
    rest, in_effect = PENDING[kind]
    asker = None                                # any instruction asking this kind of decision
    if kind in LONGER and len(value) == 2 + len(LONGER[kind][0]):
        rest, asker = LONGER[kind]
    elif len(value) != 2 + len(rest):
        longer = f" or {2 + len(LONGER[kind][0])}" if kind in LONGER else ""
        raise Bad(f"a '{kind}' decision has {2 + len(rest)}{longer} entries, not {len(value)}")
    p = ld.actor = at(1, seat, value[1], ld)
    if ld.got["eliminated"][p]:
        raise Bad(f"asks player {p}, who is eliminated (field 'eliminated'): an eliminated player decides nothing",
                  (1,))
    if in_effect != bool(ld.got["frames"]):
        raise Bad(f"is a '{kind}' decision, made " + ("inside an effect, but field 'frames' is empty" if in_effect
                                                        else "outside effects, but field 'frames' is not empty"))
    if in_effect:
        code, pc = _top(ld)[D.F_CODE], _top(ld)[D.F_PC]
        asks = ld.game.code_records[code].pause_names(pc)
        if kind in LONGER:                      # the two shapes are asked by different instructions
            asks = [name for name in asks if (name == LONGER[kind][1]) == (asker is not None)]
        if not any(DECIDES[name] == kind for name in asks):
            raise Bad(f"is a '{kind}' decision, but the effect paused in the last of field 'frames' (code {code}) "
                      f"asks for no '{kind}' decision where it resumes (pc {pc})", (0,))
    loaded = (kind, p) + tuple(at(i, check, item, ld) for i, (check, item) in enumerate(zip(rest, value[2:]), 2))
    _agrees(kind, p, ld)
    if kind == D.TARGET:
        _sealed_agrees(p, loaded[2], ld)
    if kind == D.NUMBER:
        _numbers_agree(p, loaded, ld)
    return loaded


def _agrees(kind: str, p: int, ld) -> None:
    """What the engine reads beside the decision when it is answered (apply_id) must be there."""
    got = ld.got
    if kind == D.COLOR and not ld.game.variant.colors:
        raise Bad("asks for a color, but this variant has no colors")
    # With stacking.skips the decision may be a pending skip's: skip_victim, loaded later, checks it then.
    if kind == D.STACK and not (got["stack"] > 0 and got["stack_victim"] == p) and ld.game.skip_kinds is None:
        raise Bad(f"asks player {p} to answer a stack, but fields 'stack' and 'stack_victim' say none is open "
                   "against them")
    if kind in (D.JUMP, D.CATCH) and not (got["window_kind"] == kind and got["window"] and got["window"][0] == p):
        raise Bad(f"asks player {p} in a '{kind}' window, but fields 'window' and 'window_kind' say it is not "
                   "open at their seat")
    if kind in (D.UNO, D.CATCH) and got["next_player"] < 0:
        raise Bad(f"opens a '{kind}' window between turns, but field 'next_player' names no next player")
    if kind == D.UNO and not (got["uno_askers"] and got["uno_askers"][0] == p):
        raise Bad(f"asks player {p} to call UNO, but they are not first in field 'uno_askers'")
    if kind in (D.GIVE, D.TRADE, D.PUT) and not got["hands"][p]:
        raise Bad(f"asks player {p} to pick from their entry in 'hands', which is empty")
    if kind == D.SET and ld.game.sets is None:
        raise Bad("asks to go on with a set, but this variant has no sets (turn.sets)")
    if kind == D.WINDOW and not (ld.game.windows and got["next_player"] >= 0):
        raise Bad("offers a declared window between turns, but this variant has none (windows:) or field "
                  "'next_player' names no next player")


def _sealed_agrees(p: int, slot: int, ld) -> None:
    """A sealed choice's answer (a local of kind layout.SEALED) is asked of the first member still to choose:
    the op (effects' s_secret_choice) lays out the members to ask, the candidates, the choices and the answer
    in four locals, in that order, and stands at itself."""
    fr = _top(ld)
    kinds = ld.game.code_records[fr[D.F_CODE]].local_kinds
    if kinds[slot - D.F_LOCALS] != D.SEALED:
        return
    waiting, offered, picks = fr[slot - 3], fr[slot - 2], fr[slot - 1]
    if not waiting or waiting[0] != p or offered is None or picks is None:
        raise Bad(f"asks player {p} for a sealed choice, but the paused effect's locals say they are not the "
                  "first still to choose")


def window_offered(value, ld):
    """The seats still to be offered the declared window `window_at` (windows:): while a window decision waits,
    its player is the first of them, and `window_at` names a window."""
    seats = list_of(seat, distinct=True)(value, ld)
    pending = ld.got["pending"]
    if pending is not None and pending[0] == D.WINDOW and (not seats or seats[0] != pending[1]
                                                          or ld.got["window_at"] < 0):
        raise Bad(f"must start with player {pending[1]}, whom field 'pending' offers the window "
                  f"{ld.got['window_at']} (field 'window_at')")
    return seats


def _numbers_agree(p: int, loaded: tuple, ld) -> None:
    """A number decision offers two numbers or more, lowest first; a sealed one's answer is asked of the first
    member still to choose, its range the statement's, and every number chosen so far lies in that range (the
    op, ops.choose_number_secretly, lays out the members, the range, the numbers and the answer in that order)."""
    _, _, slot, low, high = loaded
    if low >= high:
        raise Bad(f"offers the numbers {low} to {high}: it must offer two or more, the lowest first")
    fr = _top(ld)
    if ld.game.code_records[fr[D.F_CODE]].local_kinds[slot - D.F_LOCALS] != D.SEALED_NUMBER:
        return
    waiting, lowest, highest, chosen = fr[slot - 4], fr[slot - 3], fr[slot - 2], fr[slot - 1]
    if not waiting or waiting[0] != p or chosen is None or (lowest, highest) != (low, high):
        raise Bad(f"asks player {p} for a sealed number from {low} to {high}, but the paused effect's locals say "
                  "they are not the first still to choose, or another range")
    for q, n in enumerate(chosen):
        if n != -1 and not low <= n <= high:
            raise Bad(f"is a sealed number choice from {low} to {high}, but the paused effect's locals hold "
                      f"{n} chosen by player {q}")


def skip_victim(value, ld):
    """The seat a pending skip is against; a saved stack decision with no draw stack against its player must be
    this skip's (stacking.skips)."""
    q = seat_or_none(value, ld)
    pending, got = ld.got["pending"], ld.got
    if (pending is not None and pending[0] == D.STACK and not (got["stack"] > 0 and got["stack_victim"] == pending[1])
            and not (got["skip_stack"] > 0 and q == pending[1])):
        raise Bad(f"asks player {pending[1]} to answer a stack, but fields 'stack', 'stack_victim', 'skip_stack' and "
                  "'skip_victim' say none is open against them")
    return q


def next_player(value, ld):
    """The seat whose turn comes after the windows between turns; -1 until the round's first turn.

    Before it, effects are open only in the set-up: the set-up's own (`after` "setup"), or the
    player-out events of a player it put out of cards ("outs", no turn begun yet).
    """
    p = seat_or_none(value, ld)
    after = ld.got["after"]
    if p < 0 and after != AFTER_SETUP and not (after == AFTER_OUTS and ld.got["turns"] == 0):
        raise Bad(f"is -1 (no turn yet), but field 'after' is {show(after)}: a turn was played")
    return p


def lock_owner(value, ld):
    owner = seat_or_none(value, ld)
    if owner >= 0 and ld.got["lock_color"] < 0:
        raise Bad("names a seat, but field 'lock_color' locks no color")
    return owner


def _variable_value(var):
    """A saved value of the declared variable `var` (as players see it), loaded as the engine keeps it."""
    def check(value, ld):
        try:
            return checked_value(ld.game, var, value)
        except ValueError as err:
            raise Bad(str(err)[:200]) from None
    return check


def _values(declared, value, ld) -> list:
    if not isinstance(value, list) or len(value) != len(declared):
        raise Bad(f"must be a list of {len(declared)} values, not {show(value)}")
    return [at(i, _variable_value(var), item, ld) for i, (var, item) in enumerate(zip(declared, value))]


def variables(value, ld):
    """The global variables' values, in the order of the variant's state:."""
    return _values(ld.game.state_vars, value, ld)


def player_variables(value, ld):
    """Per seat, the values of the variant's player_state:, in its order."""
    return per_seat(lambda item, ld: _values(ld.game.player_vars, item, ld))(value, ld)


def side(value, ld):
    """The side up of a two-sided deck, by index (a field saved only for such a deck)."""
    sides = len(ld.game.variant.sides)
    if not is_int(value) or not 0 <= value < sides:
        raise Bad(f"is {show(value)}, not a side of this deck (0 to {sides - 1})")
    return value


def roles(value, ld):
    """Each seat's role by its name (roles:), each role held by no more seats than its `seats`."""
    declared = ld.game.variant.roles
    names = list(declared)

    def role(item, ld):
        if item not in declared:
            raise Bad(f"is {show(item)}, not a role of this variant ({', '.join(names)})")
        return names.index(item)
    out = per_seat(role)(value, ld)
    for i, name in enumerate(names):
        if out.count(i) > declared[name].seats:
            raise Bad(f"gives role {name!r} to {out.count(i)} seats, more than its {declared[name].seats}")
    return out


def discard(value, ld):
    """The discard pile: it holds its top card, but before the first play of a variant without a start card."""
    return (_any_discard if not ld.game.variant.start_card else _discard)(value, ld)


_discard = list_of(card_id, nonempty=True)
_any_discard = list_of(card_id)


def pile_in_play(value, ld):
    """The pile last played on: -1 the discard pile, else a playable declared pile's index."""
    piles = ld.game.play_piles
    if value != -1 and (not is_int(value) or value not in piles):
        raise Bad(f"is {show(value)}, not -1 (the discard pile) nor a playable pile of this variant {list(piles)}")
    return value


def pile_colors(value, ld):
    """Per declared pile, the color in play on it (a playable pile), else -1."""
    colors = list_of(color_or_none, length=lambda ld: len(ld.game.pile_names))(value, ld)
    for name, playable, c in zip(ld.game.pile_names, ld.game.pile_playable, colors):
        if c >= 0 and not playable:
            raise Bad(f"gives the pile '{name}' a color, but no card is played on it")
    return colors


def set_play(value, ld):
    """The set being played (turn.sets): [] or [size, sum of its numbers, its first card, the card under it]."""
    if value == []:
        if ld.got["pending"] is not None and ld.got["pending"][0] == D.SET:
            raise Bad("is empty, but field 'pending' asks to go on with a set")
        return []
    if not isinstance(value, list) or len(value) != 4:
        raise Bad(f"must be [] or [size, sum, first card, card under it], not {show(value)}")
    longest = ld.game.sets.max
    if ld.got["pending"] is not None and ld.got["pending"][0] == D.SET and is_int(value[0]) and value[0] >= longest:
        # The engine asks to go on with a set only while a card may still go on it (SetState._offer_set).
        raise Bad(f"is a set of {value[0]} cards, as long as turn.sets' max allows, but field 'pending' asks to "
                  "go on with it", (0,))
    return [at(0, integer(1, lambda ld: longest), value[0], ld), at(1, integer(0), value[1], ld),
            at(2, card_kind_or_none, value[2], ld), at(3, card_kind_or_none, value[3], ld)]


# --- the schema: made from the fields' declaration (engine/fields.py), checked in its order ------

def _made(source: str):
    return eval(source, globals())          # the declaration's own source, over this module's names


# Saved by every state: name -> its checker. `pending` is last: it is checked against the frames,
# windows and hands it refers to.
FIELDS = {f.name: _made(f.check) for f in declaration.SAVED if f.saved_when is None}

# The fields only some variants' states save and load: name -> (its checker, whether a game's states
# save it, the value it holds in the states of the others at a table of n: its initial value).
# So the saves of a variant without two-sided cards, named piles or declared variables are what
# they were before those existed.
OPTIONAL = {f.name: (_made(f.check), _made(f"lambda g: {f.saved_when}"), _made(f"lambda g, n: {f.initial}"))
            for f in declaration.SAVED if f.saved_when is not None}

# A field not saved: its initial value in a loaded state (not recorded).
UNSAVED = {f.name: _made(f"lambda g, n, record=False: {f.initial}") for f in declaration.UNSAVED}


def fields_of(game) -> dict:
    """The saved fields of `game`'s states (name -> checker), in the order they are checked."""
    return {f.name: FIELDS[f.name] if f.name in FIELDS else OPTIONAL[f.name][0]
            for f in declaration.SAVED if f.name in FIELDS or OPTIONAL[f.name][1](game)}


def _dump_source() -> str:
    """`dump_fields(state)`: every saved field, as its `dump` says, in one straight-line body."""
    lines = ["def dump_fields(state):", "    g = state.g", "    names = g.card_names", "    data = {}"]
    for f in declaration.SAVED:
        indent = "    "
        if f.saved_when is not None:
            lines.append(f"    if {f.saved_when}:")
            indent += "    "
        if f.dump is None:
            lines.append(f"{indent}data[{f.name!r}] = state.{f.name}")
        else:
            lines += [f"{indent}value = state.{f.name}", f"{indent}data[{f.name!r}] = {f.dump}"]
    return "\n".join(lines + ["    return data"]) + "\n"


dump_fields = declaration.made("dump_fields", _dump_source(), globals())


def dump_state(state) -> str:
    """The whole state, RNG included, as JSON text: every saved field, cards by id."""
    data = dump_fields(state)
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
        raise InvalidState(f"saved for another variant (digest {show(data.get('variant'))}, "
                           f"this one is {game.digest})")
    fields = fields_of(game)
    missing = [f for f in fields if f not in data]
    if missing:
        raise InvalidState(f"missing fields: {', '.join(missing)}")
    unknown = [f for f in data if f not in fields and f not in ("format", "variant")]
    if unknown:
        raise InvalidState(f"unknown field '{unknown[0][:40]}'")
    ld = Loading(game)
    for name, check in fields.items():
        try:
            ld.got[name] = check(data[name], ld)
        except Bad as bad:
            where = name + "".join(f"[{i}]" for i in bad.path)
            raise InvalidState(f"field '{where}' {bad.message}") from None
    for name, (_, _, default) in OPTIONAL.items():
        if name not in fields:
            ld.got[name] = default(game, ld.got["n"])
    _check_cards(game, ld.got)
    game.tables_for(ld.got["n"])
    state = game.state_class.__new__(game.state_class)
    for name in declaration.SLOTS:
        setattr(state, name, ld.got[name] if name in ld.got else UNSAVED[name](game, ld.got["n"]))
    return state


def _check_cards(game, got: dict) -> None:
    """All zones together hold exactly the deck: no card made up, none lost."""
    held = Counter(k for zone in (*got["hands"], got["draw_pile"], got["discard"], *got["limbo"], *got["piles"])
                   for k in zone)
    expected = Counter(game.deck_up(got["side"], got["n"]))
    if held != expected:
        extra = held - expected
        if extra:
            problem = f"card '{game.card_names[next(iter(extra))]}' appears more often than the deck holds"
        else:
            problem = f"card '{game.card_names[next(iter(expected - held))]}' is missing from every zone"
        raise InvalidState(f"fields 'hands', 'draw_pile', 'discard', 'limbo' and 'piles' do not hold the deck: "
                           f"{problem}")
