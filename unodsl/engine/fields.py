"""The State's fields, each declared once: from this table come the State's slots, its constructor, its
round reset, `clone`, the save schema (savefile.py) and the field table of docs/api.md.

A field says:

- `type`: what it holds, a word of `TYPES` (a closed vocabulary: `clone`'s copy of a field is derived
  from it, and tests/test_fields.py holds every field of sampled states to it);
- `reset`: when it is given a value. `NEVER`: from the constructor's arguments; `MATCH`: when the
  game begins, kept through its rounds; `DEAL`: by each deal (Flow._deal, and Game.position, which
  places it); `ROUND`: to `initial` as each round begins (`reset_round_fields`); `TURN`: as a round
  does, and again as each turn begins (Flow._start_turn and its fast copy FastState.end_turn, where
  a test holds the assignments to this table: they stay inline on the hot path);
- `initial`: its first value, Python source over `g` (the Game), `n` (the table size), `self` (the
  state, for a value made from fields the deal set), `seed`, `match` and `record`; generated into
  the constructor (NEVER, MATCH) and the round reset (ROUND, TURN);
- `check`: how a saved value is checked and loaded, source over the checkers of savefile.py and
  saved_values.py; `None` for a field not saved, whose `initial` a loaded state gets (record false);
  `saved_when`: for a field only some variants' saves hold (source over `g`), else always saved;
  `dump`: how it is written, source over `value` (and `state`, `g`, `names`: the card ids), when
  not as it is; fields are saved and checked in the table's order;
- `seen`: who may see its value: `PUBLIC` every seat, `OWNER` the seat it belongs to (the others a part
  of it: a size, a kind), `NOBODY` (its consequences only), `DECLARED` as the variant declares each
  part; what a seat may see is derived from it in engine/observation.py (a field not public is redacted as
  its entry in `observation.REDACTED` says, or removed), as tests/test_observation.py checks;
- `doc`: one line, for docs/api.md.

Adding a field is adding its line here (docs/architecture.md, "Where to add a field").
"""

from __future__ import annotations

import linecache
import random
import re
from dataclasses import dataclass

NEVER, MATCH, DEAL, ROUND, TURN = "never", "match", "deal", "round", "turn"
PUBLIC, OWNER, NOBODY, DECLARED = "public", "owner", "nobody", "declared"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the State, as the module's docstring says."""

    name: str
    type: str
    reset: str
    initial: str | None
    check: str | None
    seen: str
    doc: str
    saved_when: str | None = None
    dump: str | None = None


F = Field
CARDS = "[names[k] for k in value]"
ZONES = "[[names[k] for k in zone] for zone in value]"

FIELDS: tuple[Field, ...] = (
    F("g", "Game", NEVER, "g", None, PUBLIC, "the game it plays (its rules); a save names it by its digest"),
    F("n", "int", NEVER, "n", "players", PUBLIC, "the number of seats"),
    F("seed", "int", NEVER, "seed", "integer()", NOBODY, "the seed its generator began from"),
    F("match", "bool", NEVER, "match", "boolean", PUBLIC, "a match to the target score, not one round"),
    F("scores", "list[int]", MATCH, "[0] * n", "per_seat(integer())", PUBLIC, "each seat's score"),
    F("round", "int", MATCH, "0", "integer(1)", PUBLIC, "the round being played, from 1 (counted by the deal)"),
    F("dealer", "int", MATCH, "-1", "seat", PUBLIC, "the dealer's seat (chosen by each deal)"),
    F("over", "bool", MATCH, "False", "boolean", PUBLIC, "the game (or match) has ended"),
    F("winner", "int | None", MATCH, "None", "optional(seat)", PUBLIC,
      "the winning seat once over (for teams, a seat of the winning team), or None"),
    F("round_winner", "int | None", ROUND, "None", "optional(seat)", PUBLIC,
      "the seat that won the round just ended, or None"),
    F("stalled", "bool", MATCH, "False", "boolean", PUBLIC, "a round ended without a winner by going out (the turn cap)"),
    F("total_turns", "int", MATCH, "0", "integer(0)", PUBLIC, "turns begun in the whole game"),
    F("reshuffles", "int", MATCH, "0", "integer(0)", PUBLIC, "times the discard pile was shuffled into the draw pile"),
    F("history", "list[int]", MATCH, "[]", "list_of(action)", NOBODY,
      "the action ids applied so far (with the seed, a replay); a seat learns them through `events_for`"),
    F("log", "list[str] | None", MATCH, "[] if record else None", None, NOBODY,
      "a recorded game's human-readable log, else None"),
    F("events", "list[Event] | None", MATCH, "[] if record else None", None, NOBODY,
      "a recorded game's events (engine/events.py), else None; a seat sees them through `events_for`"),
    F("dealing", "int", MATCH, "0", None, NOBODY,
      "1 while a round is dealt and begun, 2 once another is asked for (Flow.new_round)"),
    F("beginning", "int", MATCH, "0", None, NOBODY,
      "1 while a turn is begun, 2 once another is asked for (Flow._begin_turn)"),
    F("hands", "list[list[int]]", DEAL, None, "per_seat(cards)", OWNER, "each seat's cards, by kind", dump=ZONES),
    F("draw_pile", "list[int]", DEAL, None, "cards", NOBODY,
      "the draw pile, its top card last (its size is public)", dump=CARDS),
    F("discard", "list[int]", DEAL, None, "discard", PUBLIC,
      "the discard pile, its top card last (empty before the first play without a start card)", dump=CARDS),
    F("limbo", "list[list[int]]", ROUND, "[[], []]", "list_of(cards, length=lambda ld: 2)", OWNER,
      "the cards an exchange has set aside, two lots (the seat picking sees its own lot)", dump=ZONES),
    F("color", "int", DEAL, None, "color_or_none", PUBLIC, "the color in play, or -1"),
    F("direction", "int", DEAL, "1", "one_of(1, -1)", PUBLIC, "1 clockwise, -1 counter-clockwise"),
    F("current", "int", ROUND, "self.dealer", "seat", PUBLIC, "the seat whose turn it is"),
    F("skip", "list[int]", ROUND, "[0] * n", "per_seat(integer(0))", PUBLIC, "turns each seat is to lose"),
    F("stack", "int", ROUND, "0", "integer(0)", PUBLIC, "the cards an open stack makes the victim draw"),
    F("stack_victim", "int", ROUND, "-1", "seat_or_none", PUBLIC, "the seat an open stack is against, or -1"),
    F("lock_color", "int", ROUND, "-1", "color_or_none", PUBLIC, "the color a lock demands, or -1"),
    F("lock_owner", "int", ROUND, "-1", "lock_owner", PUBLIC, "the seat whose turn ends the lock, or -1"),
    F("next_exact", "int", ROUND, "-1", "seat_or_none", PUBLIC, "the seat an effect named to play next, or -1"),
    F("turn_from", "int", ROUND, "-1", "seat_or_none", PUBLIC,
      "the seat the next turn is counted from, when not the current one, or -1"),
    F("turns", "int", ROUND, "0", "integer(0)", PUBLIC, "turns begun in this round"),
    F("after", "str", ROUND, "AFTER_SETUP", "one_of(AFTER_SETUP, AFTER_PLAY, AFTER_DRAW, AFTER_OUTS, AFTER_WINDOW, "
      "AFTER_TURN_START, AFTER_TURN_END)",
      PUBLIC, "what follows once the open effects finish (flow.py); saved only while effects are open",
      dump="value if state.frames else AFTER_SETUP"),
    F("then", "str", ROUND, "END_TURN", "one_of(END_TURN, OFFER_DRAWN, WINDOWS, CONTINUE_SET, OFFER_TURN, HAND_OFF)",
      PUBLIC,
      "what follows once a resolution has settled; saved only while player-out events are open",
      dump="value if state.frames and state.after == AFTER_OUTS else END_TURN"),
    F("steps", "int", TURN, "0", "integer(0)", PUBLIC, "effect steps taken this turn (the work limit)"),
    F("next_player", "int", ROUND, "-1", "next_player", PUBLIC,
      "the seat whose turn comes after the windows between turns; -1 before the first turn"),
    F("played_by", "int", TURN, "-1", "seat_or_none", PUBLIC, "the seat that played the last card this turn, or -1"),
    F("flips", "int", ROUND, "0", "integer(0)", PUBLIC, "times a two-sided deck was flipped this round"),
    F("drawn_this_turn", "int", TURN, "-1", "card_kind_or_none", OWNER,
      "the card the turn's player (`current`) drew this turn, or -1; theirs to see"),
    F("vulnerable", "list[int]", ROUND, "[]", "list_of(seat, distinct=True)", PUBLIC,
      "the seats at UNO without having called it, who may be caught"),
    F("uno_called", "list[bool]", ROUND, "[False] * n", "per_seat(boolean)", PUBLIC, "each seat has called UNO"),
    F("uno_askers", "list[int]", ROUND, "[]", "list_of(seat, distinct=True)", PUBLIC,
      "the seats to ask to call UNO between turns (a hand an effect brought to UNO)"),
    F("eliminated", "list[bool]", ROUND, "[False] * n", "per_seat(boolean)", PUBLIC, "each seat is out of the round"),
    F("out", "list[bool]", ROUND, "[not hand for hand in self.hands]", "per_seat(boolean)", PUBLIC,
      "each seat is out of cards (as last settled)"),
    F("window", "list[int]", ROUND, "[]", "list_of(seat)", PUBLIC,
      "the seats still to ask in the open jump-in or catch window"),
    F("window_kind", "str", ROUND, "''", "one_of('', D.JUMP, D.CATCH)", PUBLIC, "the open window: jump, catch or ''"),
    F("revealed", "dict[int, dict[int, list[int]]]", ROUND, "{}", "revealed", OWNER,
      "what each seat has been shown of other hands: {viewer: {seat: cards}}",
      dump="{str(p): {str(q): [names[k] for k in c] for q, c in seen.items()} for p, seen in value.items()}"),
    F("rng", "Random", NEVER, "random.Random(seed)", "rng", NOBODY, "the game's random generator",
      dump="saved_rng(value)"),
    F("frames", "list[frame]", ROUND, "[]", "frames", OWNER,
      "the effects in progress, innermost last: [code, pc, self, card, honest, jumped, locals...]; a restricted "
      "card's honesty is its player's to see"),
    F("pending", "tuple | None", ROUND, "None", "pending", OWNER,
      "the decision waited for, (kind, seat, ...), None once over; its kind and seat are public, the rest "
      "(a drawn card) its seat's"),
    F("side", "int", DEAL, "0", "side", PUBLIC, "the side up of a two-sided deck", saved_when="g.k_back is not None"),
    F("piles", "list[list[int]]", ROUND, "[[] for _ in g.pile_names]",
      "list_of(cards, length=lambda ld: len(ld.game.pile_names))", DECLARED,
      "the declared piles' cards by slot (a pile of each player: one per seat to max_players), top last "
      "(a face-down pile shows its size)", saved_when="bool(g.pile_names)",
      dump=ZONES),
    F("on_pile", "int", ROUND, "-1", "pile_in_play", PUBLIC,
      "the pile last played on, which `top` and the color in play read: -1 the discard pile, else a playable "
      "declared pile", saved_when="bool(g.play_piles)"),
    F("pile_colors", "list[int]", ROUND, "[-1] * len(g.pile_names)", "pile_colors", PUBLIC,
      "per declared pile, the color in play on it (a playable pile), else -1", saved_when="bool(g.play_piles)"),
    F("vars", "list[value]", DEAL, "list(g.var_initial)", "variables", DECLARED,
      "the declared `state:` variables' values, in their order (each deal resets those reset per round)",
      saved_when="bool(g.state_vars)",
      dump="[shown_value(var, x, g.variant.colors) for var, x in zip(g.state_vars, value)]"),
    F("pvars", "list[list[value]]", DEAL, "[list(g.pvar_initial) for _ in range(n)]", "player_variables",
      DECLARED, "per seat, the declared `player_state:` variables' values", saved_when="bool(g.player_vars)",
      dump="[[shown_value(var, x, g.variant.colors) for var, x in zip(g.player_vars, values)] for values in value]"),
    F("set_play", "list[int]", ROUND, "[]", "set_play", PUBLIC,
      "the set being played (turn.sets): [] or [size, sum, first card, card under it]",
      saved_when="g.sets is not None"),
    # uno.catch (docs/language.md 9.9): who called since the window last closed, how often each seat accused.
    F("callers", "list[int]", ROUND, "[]", "list_of(seat, distinct=True)", PUBLIC,
      "the seats that called UNO since the catch window last closed: accusing them is wrong (uno.catch.wrong)",
      saved_when="g.wrong_catches"),
    F("accusations", "list[int]", ROUND, "[0] * n", "per_seat(integer(0))", PUBLIC,
      "the accusations each seat made this round (uno.catch.limit)", saved_when="g.catch_rules"),
    # windows: (docs/language.md, windows): the declared window being offered between turns, and to whom still.
    F("window_at", "int", ROUND, "-1", "integer(-1, lambda ld: len(ld.game.windows) - 1)", PUBLIC,
      "the declared window (windows:) being offered at this hand-off, by its place in the file; -1 none",
      saved_when="bool(g.windows)"),
    F("offered", "list[int]", ROUND, "[]", "window_offered", PUBLIC,
      "the seats still to be offered the window window_at at this hand-off, in turn order",
      saved_when="bool(g.windows)"),
    # the stack as a value (issue 29 item 7)
    F("stack_card", "int", ROUND, "-1", "card_kind_or_none", PUBLIC,
      "the card an open stack is answered against (the last that added to it), or -1", saved_when="g.stacking"),
    # a pending skip (stacking.skips, issue 29 item 7): a saved stack decision agrees with it (savefile.skip_victim)
    F("skip_stack", "int", ROUND, "0", "integer(0)", PUBLIC,
      "the turns a pending skip makes its victim lose (stacking.skips)", saved_when="g.skip_kinds is not None"),
    F("skip_victim", "int", ROUND, "-1", "skip_victim", PUBLIC,
      "the seat a pending skip is against, who may answer it, or -1", saved_when="g.skip_kinds is not None"),
    F("lost_turns", "list[int]", ROUND, "[0] * n", "per_seat(integer(0))", PUBLIC,
      "the turns each seat is still to lose, its skip flag up meanwhile (stacking.skips: skips add up)",
      saved_when="g.skip_kinds is not None"),
    F("roles", "list[int]", MATCH, "list(g.variant.roles_for(n))", "roles", PUBLIC,
      "each seat's role (roles:), an index into roles.names; given as the match begins (Flow._deal)",
      saved_when="bool(g.variant.roles)", dump="[list(g.variant.roles)[r] for r in value]"),
)

BY_NAME = {f.name: f for f in FIELDS}
SLOTS = tuple(f.name for f in FIELDS)
SAVED = tuple(f for f in FIELDS if f.check is not None)
UNSAVED = tuple(f for f in FIELDS if f.check is None)


# --- the types: what a field may hold, and how clone copies it ---------------------------------------

def _scalar(value) -> bool:
    return value is None or type(value) in (int, bool, str)


def _ints(value) -> bool:
    return type(value) is list and all(type(x) is int for x in value)


def _frame(value) -> bool:
    """[code, pc, self, card, honest, jumped, locals...]: a local holds a scalar or a list of seats."""
    return type(value) is list and all(_scalar(x) or _ints(x) for x in value)


def _revealed(value) -> bool:
    return type(value) is dict and all(type(p) is int and type(seen) is dict and
                                       all(type(q) is int and _ints(c) for q, c in seen.items())
                                       for p, seen in value.items())


# A type: (the source of a copy of `v` that clone makes, a test of a value of the type).
TYPES: dict[str, tuple[str, object]] = {
    "Game": ("v", lambda x: type(x).__name__ == "Game"),
    "int": ("v", lambda x: type(x) is int),
    "bool": ("v", lambda x: type(x) is bool),
    "str": ("v", lambda x: type(x) is str),
    "int | None": ("v", lambda x: x is None or type(x) is int),
    "tuple | None": ("v", lambda x: x is None or type(x) is tuple),
    "Random": ("_copy_rng(v)", lambda x: type(x) is random.Random),
    "list[int]": ("v[:]", _ints),
    "list[bool]": ("v[:]", lambda x: type(x) is list and all(type(b) is bool for b in x)),
    "list[value]": ("v[:]", lambda x: type(x) is list and all(_scalar(b) for b in x)),
    "list[str] | None": ("None if v is None else v[:]",
                         lambda x: x is None or (type(x) is list and all(type(s) is str for s in x))),
    "list[Event] | None": ("None if v is None else v[:]",
                           lambda x: x is None or (type(x) is list and all(type(e).__name__ == "Event" for e in x))),
    "list[list[int]]": ("[x[:] for x in v]", lambda x: type(x) is list and all(map(_ints, x))),
    "list[list[value]]": ("[x[:] for x in v]", lambda x: type(x) is list and all(
        type(y) is list and all(map(_scalar, y)) for y in x)),
    "list[frame]": ("[x[:] if list not in map(type, x) else _deep_list(x) for x in v]",
                    lambda x: type(x) is list and all(map(_frame, x))),
    "dict[int, dict[int, list[int]]]": ("{p: {q: c[:] for q, c in seen.items()} for p, seen in v.items()}", _revealed),
}


def fits(field: Field, value) -> bool:
    """Whether `value` is of the field's declared type."""
    return TYPES[field.type][1](value)


# --- what is derived: code generated once, when the engine is imported -------------------------------

def _copy_rng(rng: random.Random) -> random.Random:
    new = random.Random.__new__(random.Random)      # not seeded from the OS (half a clone's time)
    new.setstate(rng.getstate())
    return new


def _deep_list(value: list) -> list:
    """A copy of `value` and of every list in it, at any depth."""
    return [(_deep_list(x) if isinstance(x, list) else x) for x in value]


def made(name: str, source: str, namespace: dict):
    """The function `name` defined by `source`, run in `namespace`: its file `<unodsl.engine.fields: NAME>`,
    whose lines tracebacks and `inspect.getsource` show."""
    filename = f"<unodsl.engine.fields: {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scope = dict(namespace)
    exec(compile(source, filename, "exec"), scope)
    return scope[name]


def _uses(fields, name: str) -> bool:
    return any(re.search(rf"\b{name}\b", f.initial) for f in fields)


def init_source() -> str:
    """The State's constructor: the fields given by its arguments (NEVER) and those a game begins with (MATCH)."""
    lines = ["def __init__(self, g, n, seed, match, record):",
             '    """A game of `g` at a table of `n`, its generator seeded with `seed`; not dealt yet."""',
             "    g.tables_for(n)"]
    lines += [f"    self.{f.name} = {f.initial}" for f in FIELDS if f.reset in (NEVER, MATCH)]
    return "\n".join(lines) + "\n"


def round_reset_source() -> str:
    """The round reset: every ROUND and TURN field to its initial value."""
    fresh = [f for f in FIELDS if f.reset in (ROUND, TURN)]
    lines = ["def reset_round_fields(self):",
             '    """Clear what a round in progress carries: turn, effects, windows, skips, stack, lock, reveals."""']
    if _uses(fresh, "n"):
        lines.append("    n = self.n")
    if _uses(fresh, "g"):
        lines.append("    g = self.g")
    lines += [f"    self.{f.name} = {f.initial}" for f in fresh]
    return "\n".join(lines) + "\n"


def clone_source() -> str:
    """`clone`: every field copied as its type says, in one straight-line body.

    A state not dealt yet (some fields unset) is copied field by field, as far as it goes.
    """
    lines = ["def clone(self):",
             '    """An independent copy that continues identically."""',
             "    cls = type(self)",
             "    new = cls.__new__(cls)",
             "    try:"]
    for f in FIELDS:
        copy = TYPES[f.type][0]
        if len(re.findall(r"\bv\b", copy)) == 1:           # read once: in place
            lines.append(f"        new.{f.name} = " + re.sub(r"\bv\b", f"self.{f.name}", copy))
        else:
            lines += [f"        v = self.{f.name}", f"        new.{f.name} = {copy}"]
    lines += ["    except AttributeError:",
              "        _clone_partial(self, new)",
              "    return new"]
    return "\n".join(lines) + "\n"


def _clone_partial(old, new) -> None:
    """clone's copy of a state not dealt yet: each field it has, copied as its type says."""
    for f in FIELDS:
        if hasattr(old, f.name):
            setattr(new, f.name, made("copy", f"def copy(v):\n    return {TYPES[f.type][0]}\n", _NAMESPACE)(
                getattr(old, f.name)))


_NAMESPACE = {"random": random, "_copy_rng": _copy_rng, "_deep_list": _deep_list, "_clone_partial": _clone_partial}


def derived(namespace: dict) -> dict:
    """The State's members made from the table: `__slots__`, `__init__`, `reset_round_fields` and `clone`.

    `namespace` gives the names the initial values use (flow.py's AFTER_SETUP, END_TURN).
    """
    scope = {**_NAMESPACE, **namespace}
    members = {name: made(name, source(), scope) for name, source in (
        ("__init__", init_source), ("reset_round_fields", round_reset_source), ("clone", clone_source))}
    for name, function in members.items():
        function.__qualname__ = f"State.{name}"
    return {"__slots__": SLOTS, **members}
