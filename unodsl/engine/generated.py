"""The fast mode's rollout, generated from a Game's rules: Python source written for one variant.

`rollout_of(game, hand_over)` returns the `play_out(state, rand)` of the module made for `game`: the same
game as the reference mode's rollout (`State.play_out`: at each decision `legal_action_ids()[int(rand() * n)]`)
from the same draws, played faster. tests/test_modes.py and tests/test_generated.py hold it to that,
step for step, on every shipped variant and house rule and on generated variants.

What the module is made of:

* **Tables as constants.** The playable rows (one bitmask of kinds per color in play and top card),
  each kind's color, what each kind does when played, the action ids: literals of the source, which
  is hashed (the cache key).
* **The rule choices decided.** The template's `#if` sections (UNO calls, the may-draw rule, keeping a
  drawn card, strict restrictions, challenges, the turn's draw) are kept or dropped as the source is
  written: a rule the variant does not have leaves no test behind.
* **State in locals.** A turn's scalars (the seat, the color in play, the direction, turn counters,
  the turn's work, the drawn card, who played) live in locals, and each hand also as a bitmask of the
  kinds it holds, so that what may be played is `mask & row` and the i-th legal play the i-th set bit.
  They are written back to the State (SYNC) whenever it runs something for the loop, and read again
  after (RELOAD). The turn's hand-off resets the TURN fields of engine/fields.py, from the declaration.
* **Effects from their compiled code.** Each card type's effect is made from its Code record, op by
  op: the calls whose operands it knows (`next draws N and loses turn`, `P draws N`, `skip P`,
  `reverse`, `choose color`, `next may challenge`) become source on the locals; any other op is called
  as the VM would call it, between SYNC and RELOAD; a decision one of them asks (a player chosen, a
  color named) is taken in the loop, any other hands the paused frame to the State. A type whose
  effect may loop, push an effect or reshape hands (or draw, where drawing runs an after-draw event)
  is played by the State (`play`), and the loop goes on from what it leaves.
* **One loop for every variant.** Where the Game's rules have the shape the turn loop assumes
  (`fast_loop_refusal` says why not, otherwise), turns are played in it; every other decision, and
  every decision of a variant without that shape, is taken as FastState takes it (the listed
  actions counted, never built, where it can).

A module is cached on disk by the hash of its source (`files.cache_dir("generated")`; UNODSL_NO_CACHE=1
keeps it in memory), where Python's import system keeps its bytecode, so a second process skips the
compile; `unodsl explain VARIANT --generated` prints the source. UNODSL_COMPILE=1 asks for the compiled
tier (`compiled`: Cython and the C compiler, the `compiled` extra), with the plain module as the fallback.
"""

from __future__ import annotations

import hashlib
import importlib.util
import linecache
import os
import re
import sys

from ..effects import ast as A
from ..effects import layout as D
from ..effects.code import NEXT_SEAT, SELF_SEAT
from ..effects.layout import DRAWS, PAUSES
from ..files import atomic_write, cache_dir
from .ops import OP_FLAGS

# What a kind does when played, in the loop: a plain card, an effect generated op by op, or a play the State
# makes (the loop then goes on from the state it leaves).
PLAIN, GENERATED, HAND_OVER = 0, 2, 3

# The fields an effect may leave set, after which the loop does not go on: the State settles the play.
_LEAVES = ("st.next_exact >= 0", "st.turn_from >= 0", "st.lock_owner >= 0", "st.stack",
           "st.uno_askers", "st.frames", "True in st.eliminated", "st.pending is not None", "st.over",
           "not all(hands)")

_PAUSING = frozenset(name for name, flags in OP_FLAGS.items() if PAUSES in flags)
_MODULES: dict = {}        # source digest -> the module's make(G, E): the most recently used, in this process
KEPT = 64                  # modules _MODULES keeps (a Game keeps its own rollout whatever this forgets)


def fast_loop_refusal(game) -> str | None:
    """Why `game`'s turns cannot be played in the generated turn loop (None: they can). The loop then takes
    every decision as FastState does."""
    v = game.variant
    if not game.fast:
        return "the reference mode"
    if game.jump_in or game.stacking or game.skip_kinds is not None:
        return "jump-in, stacking or skips that pass on"
    if game.uno_left > 1:
        return "UNO called at more than one card left (uno.at)"
    if game.false_calls or game.catch_rules or game.out_calls or game.windows:
        return "false UNO calls, catch rules, the out call or declared windows"
    if game.eliminate_when is not None or game.sets is not None:
        return "eliminations or sets"
    if game.win_when is not None:
        return "a round won by a rule (round.win_when)"
    if game.turn_start >= 0 or game.turn_end >= 0 or game.card_played >= 0:
        return "turn hooks or the play hook"
    if not v.start_card or not game.rules.reshuffle or game.rules.blocked:
        return "no start card, no reshuffle, or a blocked end"
    if game.play_piles:
        return "piles played on beside the discard pile"
    return None


# --- effects ---------------------------------------------------------------------------------------------

def plays_alone(game, t: int) -> bool:
    """Whether card type t's strict restriction is `not self holds playable` (the official rule of a Wild Draw
    Four that may only be played with no other card to play): judged in the loop from the bitmask of the kinds
    that match, as the State judges it (k as if it had left the hand, `holds playable` matching only)."""
    if game.restriction[t] is None:
        return False
    cards = game.variant.cards
    tree = game.variant.syntax.tree(cards[game.type_ids[t]].strict)
    test = tree.test if isinstance(tree, A.Condition) else None
    return (isinstance(test, A.Not) and isinstance(test.operand, A.Holds)
            and isinstance(test.operand.who, A.Self) and isinstance(test.operand.what, A.HoldPlayable))


def _seat(value) -> str | None:
    """The source of a seat operand the loop holds in a local: self (the player), next (their neighbour in
    play: every hand holds cards and nobody is eliminated while the loop runs), or a local of the effect's
    frame (a player chosen: -1 when nobody was)."""
    if value is SELF_SEAT:
        return "cur"
    if value is NEXT_SEAT:
        return "following[cur]"
    if value.slot is not None and value.slot > D.F_JUMPED:
        return f"fr[{value.slot}]"
    return None


def _if_seat(value, lines: list[str]) -> list[str]:
    """`lines` for a seat operand that may be nobody (a frame's local: -1) run only for somebody, as the
    instructions do."""
    if value.slot is not None and value.slot > D.F_JUMPED:
        return [f"if {_seat(value)} >= 0:"] + ["    " + line for line in lines]
    return lines


def _count(value) -> int | None:
    c = value.const if value.is_const else None
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def _draw_lines(game, who: str, n: int) -> list[str]:
    """`who draws n` as ops.draw does it with no event, elimination or after-draw effect: the top n cards, or
    the State's own draw when the pile runs short (a refill)."""
    n = min(n, game.deck_size)
    if n <= 0:
        return []
    return [f"v = {who}",
            "got = hands[v]",
            f"if {n} <= len(pile):",
            f"    got += pile[:{-n - 1}:-1]",
            f"    del pile[{-n}:]",
            "    uno_called[v] = False",
            f"    steps += {n}",
            "else:                                   # a refill on the way: the State's draw",
            f"    steps += st.draw_cards(v, {n})",
            "    pile, discard = st.draw_pile, st.discard",
            "masks[v] = -1                          # its bitmask, made again when it is wanted"]


def _op_lines(game, op, code: int, pc: int) -> tuple[list[str], bool]:
    """The source of one op, ending with the next pc (`pc = ...`), and whether it is run by the State (the
    op itself called, the locals written back before and, after a call, read again)."""
    args = op.args
    if op.calls in ("penalty", "draw") and len(args) == 2 and _seat(args[0]) and _count(args[1]) is not None:
        lines = _draw_lines(game, _seat(args[0]), _count(args[1])) or [f"v = {_seat(args[0])}"]
        if op.calls == "penalty":
            lines.append("skips[v] += 1")
        return _if_seat(args[0], lines) + [f"pc = {pc + 1}"], False
    if op.calls == "skip" and len(args) == 1 and _seat(args[0]):
        return _if_seat(args[0], [f"skips[{_seat(args[0])}] += 1"]) + [f"pc = {pc + 1}"], False
    if op.calls == "reverse" and not args:
        return ["d = -d", "following = follow[d]", f"pc = {pc + 1}"], False
    if op.calls == "choose_color" and len(args) == 1 and args[0] is SELF_SEAT:
        return _CHOOSE_COLOR + [f"pc = {pc + 1}"], False
    if op.calls == "challenge" and len(args) == 2 and args[0] is NEXT_SEAT:
        guilty, innocent, accepted = (pc + offset for offset in args[1].const)
        return [line.format(innocent=innocent, guilty=guilty, accepted=accepted) for line in _CHALLENGE], False
    if op.jump is not None and op.jump > 0:
        return [f"pc = {pc + op.jump}"], False
    if op.test is not None and op.test.form is not None and op.test.form[0] == "players":
        _, compare, c = op.test.form             # `players OP c`: the players in the round, State.active_count with
        # its common case inline (calling it for every test measured +1.4% a decision on All Wild)
        return [f"pc = {pc + op.if_true} if (n if all(hands) and True not in st.eliminated else active_count(st)) "
                f"{compare} {c} else {pc + op.if_false}"], False
    if op.test is not None:                      # an `if` test: it reads the State, and changes nothing
        return ["SYNC", f"pc = OPS[{code}][{pc}](st, fr, {pc})"], True
    if op.calls in _PAUSING:
        end = len(game.code_records[code].records)
        return (["SYNC", f"pc = OPS[{code}][{pc}](st, fr, {pc})"]
                + [line.format(end=end) for line in _DECISION] + ["RELOAD"]), True
    return ["SYNC", f"pc = OPS[{code}][{pc}](st, fr, {pc})", "RELOAD"], True


# `choose color` (the player names the color in play): a decision, counted.
_CHOOSE_COLOR = ["a = color_actions[int(rand() * len(color_actions))]     # a decision: the color in play",
                 "hist(a)",
                 "color = a - A_COLOR"]
# `next may challenge:` its three branches at their pcs (ops.challenge, Moves._apply_challenge).
_CHALLENGE = ["v = following[cur]",
              "if int(rand() * 2) == 0:                # a decision: challenge the play, or accept it",
              "    hist(A_CHALLENGE)",
              "    seen = st.revealed.get(v)",
              "    if seen is None:",
              "        seen = st.revealed[v] = {{}}",
              "    seen[cur] = list(hand)",
              "    pc = {innocent} if honest else {guilty}",
              "else:",
              "    hist(A_ACCEPT)",
              "    pc = {accepted}"]
# After an op that may pause, called on the State: a player chosen or a color named is taken here, as the
# rollout takes it (counted, then applied as Moves applies it to the paused frame); any other decision, the
# frame is handed to the State paused, as the reference mode has it (on the stack, the play settled after).
_DECISION = ["if pc < 0:",
             "    asked = st.pending",
             "    if asked[0] == TARGET:",
             "        st.pending = None",
             "        q = asked[3][int(rand() * len(asked[3]))]",
             "        hist(A_TARGET + q)",
             "        fr[asked[2]] = q",
             "        pc = fr[F_PC]",
             "    elif asked[0] == COLOR:",
             "        st.pending = None",
             "        a = COLOR_ACTIONS[st.side][int(rand() * len(COLOR_ACTIONS[st.side]))]",
             "        hist(a)",
             "        if len(asked) == 3:",
             "            fr[asked[2]] = a - A_COLOR",
             "        else:",
             "            st.color = a - A_COLOR",
             "        pc = fr[F_PC]",
             "    else:",
             "        st.steps += ran                 # the ops run, as the VM adds them at a pause",
             "        st.frames.append(fr)",
             "        st.after = AFTER_PLAY",
             "        paused, pc = True, {end}"]


def _effect_lines(game, code: int) -> tuple[list[str], bool] | None:
    """The source of effect `code` run to its end in the loop, its work counted as the VM counts it (a step
    per op run, beside what the ops count), and whether the State runs some op of it; None where the State
    must play the card (an effect that may pause, push, reshape hands or loop, or draw with an event)."""
    record = game.code_records[code]
    if record.loops or not record.flags <= {DRAWS, PAUSES}:
        return None
    if DRAWS in record.flags and game.after_draw >= 0:
        return None                              # a draw runs the after-draw event first: the State's order
    ops = record.records
    blocks = [_op_lines(game, op, code, pc) for pc, op in enumerate(ops)]
    generic = any(made for _, made in blocks)
    framed = generic or any("fr[" in line for lines, _ in blocks for line in lines)
    pausing = any(made and op.calls in _PAUSING for (_, made), op in zip(blocks, ops))
    body: list[str] = []
    if framed:
        body.append(f"fr = new_frame(st, {code}, cur, k, True, False)")
    if pausing:
        body.append("paused = False")
    if not pausing and all(op.test is None and (op.jump is None or pc == len(ops) - 1) for pc, op in enumerate(ops)):
        for lines, _ in blocks:                  # straight on: every op runs once, its next pc not read
            body += [line.removeprefix("pc = ") for line in lines if not re.fullmatch(r"pc = -?\d+", line)]
        body.append(f"steps += {len(ops)}")
    else:                                        # tests and jumps: each op at most once, in pc order
        body += ["pc = 0", "ran = 0", f"while pc < {len(ops)}:", "    ran += 1"]
        for pc, (lines, _) in enumerate(blocks):
            body.append(f"    {'if' if pc == 0 else 'elif'} pc == {pc}:")
            body += ["        " + line for line in lines]
        body.append("steps += ran")
    if pausing:
        body += ["if paused:                               # the State has the paused frame: it goes on from there",
                 "    break"]
    return body, generic


def _expand(lines: list[str]) -> list[str]:
    """The SYNC and RELOAD lines written out (not functions: the loop's state stays in fast locals)."""
    out = []
    for line in lines:
        word = line.strip()
        if word in ("SYNC", "RELOAD"):
            pad = line[:len(line) - len(line.lstrip())]
            out += [pad + part for part in (_SYNC if word == "SYNC" else _RELOAD)]
        else:
            out.append(line)
    return out


# The loop's locals written back to the State, and read again after the State has run an op.
_SYNC = ("st.current, st.next_player, st.color, st.direction, st.played_by = cur, cur, color, d, played",
         "st.turns, st.total_turns, st.steps, st.drawn_this_turn = turns, total, steps, drawn")
_RELOAD = ("color, d, steps, pile, discard, skips = st.color, st.direction, st.steps, st.draw_pile, st.discard, st.skip",
           "hands, uno_called, vulnerable = st.hands, st.uno_called, st.vulnerable",
           "hand = hands[cur]",
           "following = follow[d]",
           "color_actions = COLOR_ACTIONS[st.side]",
           "masks = [-1] * n")


# The compiled tier's bit operations on a C integer (a deck of at most 62 kinds: its masks fit, -1 stays the
# mask not yet made): the count of kinds held and the lowest kind held, each one instruction.
_C_BITS = ('cdef extern from *:',
           '    int __builtin_popcountll(unsigned long long) nogil',
           '    int __builtin_ctzll(unsigned long long) nogil',
           '')


# The compiled tier's uniform pick, int(r * n) with the product and its truncation in C; the module's
# constants as C globals (its tables as tuples), read without a lookup by name.
_C_TYPED = ('cdef inline long pick(double r, long n):',
            '    return <long>(r * n)',
            '',
            '',
            'cdef long K, UNO_HAND, UNO_LEFT, A_DRAW, A_KEEP, A_COLOR, A_CHALLENGE, A_ACCEPT, PLAIN_TURNS',
            'cdef tuple BIT, ROWS, K_COLOR, K_TYPE, ACT, CHALLENGED, STRICT_KINDS, COLOR_ACTIONS, ALONE',
            '')


# --- the module ------------------------------------------------------------------------------------------

def source_for(game, typed: bool = False) -> str:
    """The Python source of the module generated for `game`; `typed`: the Cython source of its compiled tier,
    the same with the loop's integer locals declared C integers."""
    g = game
    refusal = fast_loop_refusal(g)
    kinds = g.num_kinds
    rows = []
    for c in range(-1, len(g.variant.colors)):
        row = []
        for top in range(kinds):
            ok = g.playable_after[c + 1][top]
            row.append((1 << kinds) - 1 if ok is None else sum(1 << k for k in ok))
        rows.append(tuple(row))
    alone = [plays_alone(g, t) for t in range(len(g.type_ids))]        # per card type
    act, effects = [], {}
    for t in range(len(g.type_ids)):
        code = g.on_play[t]
        # A strict restriction is judged before the card is chosen (the loop's listing, as the State's): its play
        # is as any other's.
        if code < 0:
            act.append(HAND_OVER if g.challenge[t] is not None else PLAIN)
        else:
            made = _effect_lines(g, code) if refusal is None else None
            act.append(HAND_OVER if made is None else GENERATED)
            if made is not None:
                effects[t] = made
    flags = {"typed": typed,
             "c_masks": typed and kinds <= 62,       # the compiled tier's bitmasks of kinds in C integers
             "loop": refusal is None,
             "uno": g.uno_hand >= 0,
             "may_always_draw": g.may_always_draw,
             "next_answers": g.may_draw_next_answers is not None,
             "may_keep": g.may_keep_drawn,
             "strict": bool(g.strict_kinds),
             "judged_by_state": any(not alone[g.k_type[k]] for k in g.strict_kinds),
             "not_simple_draw": not g.simple_draw,
             "challenged": any(g.challenge[t] is not None and act[t] != HAND_OVER for t in range(len(act))),
             "effects": bool(effects)}
    lines = [f"# Generated by unodsl.engine.generated for {g.variant.name!r} (read that module's docstring).",
             f"# The turn loop: {'used' if refusal is None else 'not used: ' + refusal}.",
             "",
             *(_C_TYPED if typed else ()),
             *(_C_BITS if flags["c_masks"] else ()),

             f"BIT = {tuple(1 << k for k in range(kinds))!r}",
             f"ROWS = {tuple(rows)!r}      # [color in play + 1][top card]: the kinds that may be played",
             f"K_COLOR = {tuple(g.k_color)!r}",
             f"K_TYPE = {tuple(g.k_type)!r}",
             f"ACT = {tuple(act[g.k_type[k]] for k in range(kinds))!r}      # 0 plain, 2 generated, 3 the State's",
             f"CHALLENGED = {tuple(g.challenge[g.k_type[k]] is not None for k in range(kinds))!r}",
             f"K = {kinds}",
             f"STRICT_KINDS = {tuple(sorted(g.strict_kinds))!r}      # kinds with a strict restriction, judged in play",
             f"STRICT_MASK = {sum(1 << k for k in g.strict_kinds)}",
             f"ALONE = {tuple(alone[g.k_type[k]] for k in range(kinds))!r}      # played only with no other "
             "card to play",
             f"UNO_HAND, UNO_LEFT = {g.uno_hand}, {g.uno_left}",
             f"A_DRAW, A_KEEP, A_COLOR, A_CHALLENGE, A_ACCEPT = {g.A_DRAW}, {g.A_KEEP}, {g.A_COLOR}, "
             f"{g.fixed_actions[D.CHALLENGE][0]}, {g.fixed_actions[D.CHALLENGE][1]}",
             f"COLOR_ACTIONS = {tuple(tuple(a) for a in g.color_actions)!r}     # per side up",
             f"PLAIN_TURNS = {g.plain_turns}",
             "",
             "",
             "def mask_of(hand):",
             "    mask = 0",
             "    for k in hand:",
             "        mask |= BIT[k]",
             "    return mask",
             "",
             ""]
    text = _MAKE_HEAD + _indent(_TURN_LOOP, 12) + _indent(_ANY_DECISION, 8) + "    return play_out\n"
    body = []
    for n_, (t, (effect, generic)) in enumerate(sorted(effects.items())):
        body.append(f"{'if' if n_ == 0 else 'elif'} t == {t}:      # {g.code_records[g.on_play[t]].name}")
        if g.challenge[t] is None and any(op.calls == "challenge" for op in g.code_records[g.on_play[t]].records):
            body.append("    honest = True                # no challenge restriction: every play is honest")
        body += ["    " + line for line in effect]
        body.append(f"    generic = {generic}")
    pad = " " * (text.index("{EFFECTS}") - text.rindex("\n", 0, text.index("{EFFECTS}")) - 1)
    text = text.replace("{EFFECTS}", "\n".join(pad + line for line in body).lstrip())
    text = text.replace("{TURN_RESET}", _turn_reset()).replace("{LEAVES}", " or ".join(_LEAVES))
    lines += _expand(_select(text.splitlines(), flags))
    source = "\n".join(lines) + "\n"
    return _c_draws(source) if typed else source


def _c_draws(source: str) -> str:
    """The compiled tier's source with each `int(rand() * N)` made `pick(rand(), N)`: the product and its
    truncation in C (the same double product, the same truncation toward zero)."""
    out, at = [], 0
    while True:
        start = source.find("int(rand() * ", at)
        if start < 0:
            return "".join(out) + source[at:]
        depth, end = 0, start + len("int(")
        while depth or source[end] != ")":
            depth += {"(": 1, ")": -1}.get(source[end], 0)
            end += 1
        out += [source[at:start], "pick(rand(), ", source[start + len("int(rand() * "):end], ")"]
        at = end + 1


def _turn_reset() -> str:
    """The turn's hand-off, made from the field declaration (engine/fields.py): each TURN field back to its
    initial value, in the loop's local where it holds one."""
    from .fields import FIELDS, TURN
    out = []
    for f in FIELDS:
        if f.reset == TURN:
            local = _TURN_LOCALS.get(f.name)
            out.append(f"{local} = {f.initial}" if local else f"st.{f.name} = {f.initial}")
    return "; ".join(out)


# The TURN fields the loop keeps in locals (written back by SYNC).
_TURN_LOCALS = {"steps": "steps", "played_by": "played", "drawn_this_turn": "drawn"}


def _select(lines: list[str], flags: dict) -> list[str]:
    """The template's lines with its `#if FLAG` / `#else` / `#endif` sections decided by the Game's rule
    choices (`flags`): a rule the variant does not have leaves no test behind."""
    out, stack = [], []                  # per open section: (kept where it opens, its branch taken)
    keep = True
    for line in lines:
        word = line.strip()
        if word.startswith("#if "):
            stack.append((keep, flags[word[4:].strip()]))
            keep = keep and stack[-1][1]
        elif word == "#else":
            outer, taken = stack[-1]
            keep = outer and not taken
        elif word == "#endif":
            keep = stack.pop()[0]
        elif keep:
            out.append(line)
    return out


def _indent(text: str, by: int) -> str:
    return "".join((" " * by + line) if line.strip() else line for line in text.splitlines(True))


_MAKE_HEAD = """\
def make(G, E):
    \"\"\"play_out(st, rand) for the Game G: State.play_out's game, from the same draws. E: the State's bodies
    it hands over to (engine/fast.py: hand_over).\"\"\"
    from unodsl.effects import layout as D
    from unodsl.engine.flow import AFTER_PLAY
    from unodsl.engine.moves import APPLY, LEGAL
    F_PC, COLOR, A_TARGET = D.F_PC, D.COLOR, G.A_TARGET
    play, draw_cards, draw_card, new_frame, next_turn = E["play"], E["draw"], E["draw_one"], E["frame"], E["next_turn"]
    after_play, turn_draw, end_turn, pick_trade, pick_kinds = (E["after_play"], E["turn_draw"], E["end_turn"],
                                                               E["pick_trade"], E["pick_kinds"])
    listed, legal_ids, apply_id, judged = E["listed"], E["legal_action_ids"], E["apply_id"], E["judge_strict"]
    active_count = E["active_count"]
    OPS = [ops for ops, _ in G.codes]
    playable_after, seat_frames, may_draw_if = G.playable_after, G.seat_frames, G.may_draw_if
    may_always_draw, may_keep, uno_hand = G.may_always_draw, G.may_keep_drawn, G.uno_hand
    next_answers = G.may_draw_next_answers
    checks = G.challenge

    strict, k_all, draw_id, keep_id = G.strict_kinds, G.num_kinds, G.A_DRAW, G.A_KEEP
    fixed, legal, apply = G.fixed_actions, LEGAL, APPLY
    TURN, DRAWN, TRADE, TARGET, GIVE = D.TURN, D.DRAWN, D.TRADE, D.TARGET, D.GIVE

    def play_out(st, rand):
#if typed
        cdef long n, cur, color, d, turns, total, steps, drawn, played, m, nn, i, j, k, nd, seat, c, act, t, v, pc, ran
        cdef bint uno, passes
#endif
#if c_masks
        cdef long long mask, legal_kinds, row, found
#endif
#if typed
        cdef list hands, hand, pile, discard, masks, skips, uno_called, vulnerable
        cdef tuple following
#endif
        if st.log is not None or st.events is not None:     # a recorded game: every decision listed and logged
            listed(st, rand)
            return
        n = st.n
        hist = st.history.append
        follow = (None, tuple((s + 1) % n for s in range(n)), tuple((s - 1) % n for s in range(n)))
        no_skips = G.no_skips[n]
        while not st.over:
            pending = st.pending
            kind = pending[0]
"""

# The turn loop, entered at a plain turn: every hand holds cards, nobody is eliminated, skipped or locked out,
# no stack, no catch window, no effect open. Its locals are written back (SYNC) and read again (RELOAD)
# around everything the State does for it.
_TURN_LOOP = """\
#if loop
if (kind == TURN and st.lock_owner < 0 and st.next_exact < 0 and st.turn_from < 0 and not st.stack
        and not st.vulnerable and not st.uno_askers and not st.frames and st.skip == no_skips
        and all(st.hands) and True not in st.eliminated):
    hands = st.hands
    uno_called, vulnerable = st.uno_called, st.vulnerable
    color_actions = COLOR_ACTIONS[st.side]
    skips = st.skip
    cur, color, d = pending[1], st.color, st.direction
    pile, discard = st.draw_pile, st.discard
    turns, total, steps, drawn, played = st.turns, st.total_turns, st.steps, st.drawn_this_turn, st.played_by
    following = follow[d]
    row = ROWS[color + 1][discard[-1]]
    masks = [-1] * n                                # per seat: the kinds held as bits, -1 until wanted
    st.pending = None
    while True:
        hand = hands[cur]
        mask = masks[cur]
        if mask < 0:
            mask = masks[cur] = mask_of(hand)
        legal_kinds = mask & row
#if strict
        if legal_kinds & STRICT_MASK:                   # a strict restriction: judged as the State judges it
#if judged_by_state
            SYNC
#endif
            found = legal_kinds
            for j in STRICT_KINDS:
                if found >> j & 1:
                    if ALONE[j]:                        # another kind matches, or another card of j
                        passes = not (found ^ BIT[j]) and hand.count(j) == 1
                    else:
                        passes = judged(st, cur, j)
                    if not passes:
                        legal_kinds ^= BIT[j]
#endif
#if c_masks
        m = __builtin_popcountll(legal_kinds)
#else
        m = legal_kinds.bit_count()
#endif
#if uno
        nn = 2 * m if len(hand) == UNO_HAND else m      # each play doubled with an UNO call
#else
        nn = m
#endif
#if may_always_draw
        i = int(rand() * (nn + 1))
#else
        if not m:
            i = 0                                       # int(rand() * 1): the draw, and the draw taken
            rand()
        else:
#if next_answers
            may_draw = next_answers[len(hands[following[cur]])]
#else
            SYNC
            may_draw = may_draw_if(st, seat_frames[cur])
#endif
            i = int(rand() * (nn + 1)) if may_draw else int(rand() * nn)
#endif
        k = -1
        uno = False
        if i == nn:                                     # the draw
            hist(A_DRAW)
#if not_simple_draw
            SYNC
            turn_draw(st, cur)                          # the State's draw: until playable, turn.draw's effect, ...
            break
#else
            if pile:
                k = pile.pop()
            else:                                       # a refill: the State's
                k = draw_card(st)
                pile, discard = st.draw_pile, st.discard
            if k >= 0:
                hand.append(k)
                masks[cur] |= BIT[k]
                steps += 1
                uno_called[cur] = False
                drawn = k
#if strict
                playable = row >> k & 1
                if playable and STRICT_MASK >> k & 1:
                    if ALONE[k]:
                        playable = not ((masks[cur] & row) ^ BIT[k]) and hand.count(k) == 1
                    else:
                        SYNC
                        playable = judged(st, cur, k)
                if playable:                            # the drawn card may be played: play it, or keep it
#else
                if row >> k & 1:                        # the drawn card may be played: play it, or keep it
#endif
#if uno
                    nd = 2 if len(hand) == UNO_HAND else 1
#else
                    nd = 1
#endif
#if may_keep
                    j = int(rand() * (nd + 1))
#else
                    j = int(rand() * nd)
#endif
                    if j == nd:
                        hist(A_KEEP)
                        k = -1
                    else:
                        uno = j == 1
                        hist(k + K if uno else k)
                else:
                    k = -1
#endif
        else:
            if i >= m:
                i -= m
                uno = True
            while i:
                legal_kinds &= legal_kinds - 1
                i -= 1
#if c_masks
            k = __builtin_ctzll(legal_kinds)
#else
            k = (legal_kinds & -legal_kinds).bit_length() - 1
#endif
            hist(k + K if uno else k)
        if k >= 0:
            act = ACT[k]
            if len(hand) == 1 or act == 3:
                # The round ends with this play, or its effect is the State's: the State plays it.
                SYNC
                play(st, cur, k, uno)
                break
            hand.remove(k)
            if k not in hand:
                masks[cur] ^= BIT[k]
#if challenged
            if CHALLENGED[k]:                           # honest or not: judged before the card is down
                SYNC
                honest = bool(checks[K_TYPE[k]](st, [-1, 0, cur, k, True, False]))
#endif
#if uno
            if len(hand) == UNO_LEFT:                   # at UNO: called, or open to a catch
                uno_called[cur] = uno
                if not uno:
                    vulnerable.append(cur)
#endif
            discard.append(k)
            played = cur
            c = K_COLOR[k]
            if c >= 0:
                color = c
#if effects
            if act == 2:
                t = K_TYPE[k]
                {EFFECTS}
                if generic:
                    SYNC
                    if {LEAVES}:
                        # Not a state the loop goes on from: the State settles the play.
                        after_play(st)
                        break
            row = ROWS[color + 1][discard[-1]]        # the top card (an effect may have turned it over)
#else
            row = ROWS[color + 1][k]
#endif
        # --- the hand-off: the next seat in play, skipped ones passed over (State.advance)
        seat = following[cur]
        if skips != no_skips:
            seat = cur
            while True:
                seat = following[seat]
                if skips[seat]:
                    skips[seat] = 0
                    continue
                break
            skips[:] = no_skips
        if turns >= PLAIN_TURNS or vulnerable:         # the turn limit, or the catch window opens
            SYNC
            next_turn(st, seat)
            break
        cur = seat
        turns += 1
        total += 1
        {TURN_RESET}
    continue
#endif
"""

# Any other decision, as FastState takes it: turns, drawn cards, targets, gifts and trades counted, not listed.
_ANY_DECISION = """\
    if kind == TURN and st.lock_owner < 0:
        p = pending[1]
        hand = st.hands[p]
        ok = playable_after[st.color + 1][st.discard[-1]]
        plays = set(hand) if ok is None else ok.intersection(hand)
        if not strict or strict.isdisjoint(plays):    # else a restricted card: the listed way, below
            m = len(plays)
            nn = 2 * m if len(hand) == uno_hand else m
            if not m or may_always_draw:
                i = int(rand() * (nn + 1))
            else:
                seat = (p + st.direction) % n
                if next_answers is not None and st.hands[seat] and not st.eliminated[seat]:
                    may_draw = next_answers[len(st.hands[seat])]
                else:
                    may_draw = may_draw_if(st, seat_frames[p])
                i = int(rand() * (nn + 1)) if may_draw else int(rand() * nn)
            st.pending = None
            if i == nn:
                hist(draw_id)
                turn_draw(st, p)
                continue
            card = sorted(plays)[i % m]
            hist(card if i < m else card + k_all)
            play(st, p, card, i >= m)
            continue
    elif kind == DRAWN:
        _, p, card = pending
        nd = 2 if len(st.hands[p]) == uno_hand else 1
        i = int(rand() * (nd + 1)) if may_keep else int(rand() * nd)
        st.pending = None
        if i == nd:
            hist(keep_id)
            end_turn(st)
        else:
            hist(card + i * k_all)
            play(st, p, card, i == 1)
        continue
    elif kind != TURN:
        if kind == TRADE:
            action = pick_trade(st, rand)
        elif kind == TARGET:
            seats = pending[3]
            action = G.A_TARGET + seats[int(rand() * len(seats))]
        elif kind == GIVE:
            kinds = pick_kinds(st, pending[1])
            action = G.A_GIVE + kinds[int(rand() * len(kinds))]
        else:
            actions = fixed.get(kind) or legal[kind](st)
            action = actions[int(rand() * len(actions))]
        hist(action)
        apply[kind](st, action)
        continue
    actions = legal_ids(st)                           # a turn under a color lock, or with a restricted card
    apply_id(st, actions[int(rand() * len(actions))])
"""


def digest_of(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:20]


def _load(game):
    """The `make` of the module generated for `game`: the compiled tier's where UNODSL_COMPILE=1 asks for it
    and it can be built (once per process: a build that failed is not tried again), else the plain one's."""
    if os.environ.get("UNODSL_COMPILE") != "1":
        return _load_plain(source_for(game))
    source = source_for(game, typed=True)
    key = digest_of(source)
    make = _recall(key)
    if make is None:
        module = compiled(f"unodsl_generated_{key}", source, cache_dir("generated"))
        make = _remember(key, module.make if module is not None else _load_plain(source_for(game)))
    return make


def _recall(key: str):
    """The make kept under `key`, now the most recently used; None if none is kept."""
    make = _MODULES.pop(key, None)
    if make is not None:
        _MODULES[key] = make
    return make


def _remember(key: str, make):
    """Keep `make` under `key`, forgetting the least recently used beyond KEPT (a process that plays many
    variants out keeps a bounded number of modules)."""
    _MODULES[key] = make
    while len(_MODULES) > KEPT:
        del _MODULES[next(iter(_MODULES))]
    return make


def _load_plain(source: str):
    """The `make` of the plain module with this source, imported from the disk cache, or made in memory."""
    key = digest_of(source)
    make = _recall(key)
    if make is not None:
        return make
    name = f"unodsl_generated_{key}"
    folder = cache_dir("generated")
    module = None
    if folder is not None:
        path = folder / f"{name}.py"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text(encoding="utf-8") != source:
                atomic_write(str(path), source, force=True)
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except (OSError, SyntaxError, ImportError):       # an unwritable or damaged cache: made in memory
            module = None
    if module is None:
        filename = f"<unodsl generated {key}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope: dict = {"__name__": name}
        exec(compile(source, filename, "exec"), scope)
        make = scope["make"]
    else:
        make = module.make
    return _remember(key, make)


def compiled(name: str, source: str, folder):
    """The module compiled to C by Cython (the `compiled` extra) and the C compiler, built once into `folder`
    (a temporary folder without a cache) and loaded; None, with a warning, where either is missing or the
    build fails: the plain module plays the same game. UNODSL_COMPILE=1 asks for it."""
    import shutil
    import subprocess
    import sysconfig
    import tempfile
    import warnings
    from pathlib import Path

    temporary = None
    try:
        if folder is None:
            temporary = tempfile.TemporaryDirectory(prefix="unodsl-generated-")
            folder = Path(temporary.name)
        folder.mkdir(parents=True, exist_ok=True)
        library = folder / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
        if not library.exists():
            compiler = shutil.which(os.environ.get("CC", "cc"))
            if compiler is None or importlib.util.find_spec("Cython") is None:
                raise RuntimeError("compiling needs Cython (pip install 'unodsl[compiled]') and a C compiler")
            with tempfile.TemporaryDirectory(prefix="unodsl-build-") as build:
                py, c = Path(build) / f"{name}.pyx", Path(build) / f"{name}.c"
                py.write_text(source, encoding="utf-8")
                subprocess.run([sys.executable, "-m", "cython", "-3", str(py), "-o", str(c)],
                               check=True, capture_output=True)
                built = Path(build) / library.name
                subprocess.run([compiler, "-shared", "-fPIC", "-O2", f"-I{sysconfig.get_paths()['include']}",
                                str(c), "-o", str(built)], check=True, capture_output=True)
                os.replace(built, library)          # whole or not at all: a build cut short is never loaded
        spec = importlib.util.spec_from_file_location(name, library)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    except (OSError, RuntimeError, ImportError, subprocess.CalledProcessError) as error:
        detail = error.stderr.decode(errors="replace").strip()[-300:] if getattr(error, "stderr", None) else error
        warnings.warn(f"UNODSL_COMPILE=1: the generated module was not compiled ({detail}); it runs as Python",
                      RuntimeWarning, stacklevel=2)
        return None
    finally:
        if temporary is not None:
            temporary.cleanup()


def rollout_of(game, hand_over: dict):
    """The `play_out(state, rand)` generated for `game`, made once per Game; `hand_over`: the State's bodies
    it hands over to, by the names the module calls them (engine/fast.py)."""
    if game.rollout is None:
        game.rollout = _load(game)(game, hand_over)
    return game.rollout


