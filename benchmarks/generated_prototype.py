"""A prototype of issue 28's generated fast mode: a rollout module written for one Game, as Python source.

Not the engine's fast mode (engine/fast.py is): the stand-in that settles what the generator will
emit, measured on the hand-written engine's rules (benchmarks/reference-rules.yaml) against the
hand-written engine (bench_throughput.py, bench_instructions.py). `source_for(game)` writes the module;
`compile_for(game)` returns its `play_out(state, rand)`, which plays the same game as
`State.play_out(rand)` in the reference mode, from the same draws (tests/test_generated_prototype.py
holds it to that: the same history and the same saved state at the end, on every seed tried).

What it settles:

* **Data layout.** The State keeps its hands as lists (their order is part of the state: it is
  saved, shown and compared step by step), and the module adds, in locals, one bitmask per seat of
  the kinds held: matching is `mask & ROW[color + 1][top]`, the number of playable kinds its
  `bit_count()`, the i-th of them the i-th set bit (sorted by kind, as the legal actions are). A
  card moved keeps both: `hand.remove(k)` then the bit cleared if no copy is left (`k not in hand`,
  a C scan of a short list), `hand.append(k)` and the bit set. Per-kind counts were not needed.
* **Tables as constants.** Rows, bits, colors, types and action ids are literals of the source,
  which is hashed with the Game's digest (a cache key).
* **State in locals.** The turn's scalars (current seat, color, direction, the top card's row,
  turn counters, steps, the drawn card, who played) live in locals and are written back only when
  control hands over to the reference body, and at the end.
* **Effect bodies inline** where a card type's effect is one the prototype knows (the classic
  five: penalty, skip, reverse, choose color, the challenged Wild Draw Four), each counting the
  steps its ops would (one per op run, and one per card drawn), since `steps` is saved state; the
  real generator makes these from each instruction's one body (a template with its operands).
* **Hand-over.** Any other case goes to the reference body with the state exactly as it would
  be: a play that would empty the hand (the round ends: `State._play`), a card type whose effect
  is not inlined (`State._play`), a refill of the draw pile (`State._draw_one`), the turn limit
  (`State._next_turn`), and every decision the fast loop does not start in (`legal_action_ids` and
  `apply_id`, as the reference mode's rollout does). After a hand-over the locals are read again
  and the masks rebuilt.
* **Random numbers.** Every decision draws `rand()` exactly as the listed rollout does
  (`int(rand() * n)` over the n legal actions), and shuffles go through the State's own methods,
  so both modes consume the generator alike.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:     # its sibling inline_prototype.py
    sys.path.insert(0, str(Path(__file__).resolve().parent))

# The card effects the prototype inlines: the classic five, by their effect text (the real generator
# reads the compiled ops instead).
PENALTY_2 = "next draws 2 and loses turn"
SKIP = "skip next"
REVERSE = "reverse\nif players == 2 and rule.two_player_reverse_is_skip:\n    skip next"
CHOOSE = "choose color"
WD4 = ("choose color\nnext may challenge:\n    guilty: self draws 4\n    innocent: next draws 6; skip next"
       "      # a lost challenge is not a stackable penalty\n    accepted: next draws 4 and loses turn")


class NotCovered(Exception):
    """The Game has a rule the prototype does not specialise (the real generator hands it over instead)."""


def _effect_kind(text: str | None) -> str:
    text = (getattr(text, "source", text) or "").strip()
    for name, known in (("penalty2", PENALTY_2), ("skip", SKIP), ("reverse", REVERSE), ("choose", CHOOSE),
                        ("wd4", WD4)):
        if text == known.strip():
            return name
    return "" if not text else "other"


def _check(game) -> None:
    """Raise NotCovered unless the Game has the shape the prototype's loop assumes."""
    v = game.variant
    if game.strict_kinds or game.jump_in or game.stacking:
        raise NotCovered("strict restrictions, jump-in or stacking")
    if (game.uno_hand, game.uno_left) not in ((-1, -1), (2, 1)):
        raise NotCovered("UNO called at another hand size than one card")
    if game.false_calls or game.catch_rules or game.out_calls or game.windows:
        raise NotCovered("false UNO calls, catch rules, the out call or declared windows (uno.false_call, uno.catch, "
                         "uno.out, windows:)")
    if not game.may_always_draw or not game.may_keep_drawn or not game.simple_draw:
        raise NotCovered("not classic's turn (may always draw, may keep, one card)")
    if game.after_draw >= 0 or game.turn_draw >= 0 or game.eliminate_when is not None or game.sets is not None:
        raise NotCovered("draw events, eliminations or sets")
    if game.win_when is not None:
        raise NotCovered("a round won by a rule (round.win_when)")
    if v.team_size > 1:
        raise NotCovered("teams")
    if game.turn_start >= 0 or game.turn_end >= 0 or game.card_played >= 0:
        raise NotCovered("turn hooks or the play hook (events.turn_start, turn_end, card_played)")
    if not v.start_card or not v.reshuffle or v.blocked is not None or v.packs:
        raise NotCovered("no start card, no reshuffle, a blocked end or packs by player count")
    if game.play_piles or any(pile.deal for pile in v.piles.values()):
        raise NotCovered("piles played on beside the discard pile, or dealt to (piles: playable, deal)")


# The fields a generated effect may leave in a state the fast loop does not continue from.
_LEAVES = ("next_exact", "turn_from", "lock_owner", "stack", "vulnerable", "uno_askers", "frames", "eliminated",
           "pending", "over")


def _operand(fn, code_flags) -> str | None:
    """The source of an op's operand closure, where it is one the prototype reads (the real generator reads
    the op records instead)."""
    from unodsl.effects import code as C
    if fn is C._next:
        # `next`: the neighbour in play, which the loop's table gives while no hand can empty before it.
        return "following[cur]" if code_flags <= {"draws"} else "st.next_of(cur)"
    return None


def _call_of(op, code_flags):
    """(instruction name, operand sources) of a call op made by effects.code._call, or None."""
    from unodsl.effects.layout import F_SELF
    from unodsl.engine import ops as OPS
    names = op.__code__.co_freevars
    cells = dict(zip(names, (c.cell_contents for c in op.__closure__ or ())))
    method = cells.get("method")
    if method is None or getattr(method, "__name__", None) not in OPS.OPS or OPS.OPS[method.__name__] is not method:
        return None
    args = []
    for name in ("a", "index", "b"):              # the operand order of effects.code._call's shapes
        if name == "index" and "index" in cells:
            if cells["index"] != F_SELF:
                return None
            args.append("cur")
        elif name in cells and name != "index":
            source = _operand(cells[name], code_flags)
            if source is None:
                return None
            args.append(source)
    if "value" in cells:
        if not isinstance(cells["value"], (int, bool)):
            return None
        args.append(repr(cells["value"]))
    if names not in (("method",), ("method", "value"), ("index", "method"), ("a", "method"),
                     ("index", "method", "value"), ("a", "method", "value")):
        return None                                # two computed operands: their order is not read here
    return method.__name__, args


def generated_effect(game, code: int) -> list[str] | None:
    """The source of effect `code` made from its instructions' one bodies (inline_prototype.inline), for an
    effect of calls only (a last jump to its end allowed); None for any other (a template or a hand-over)."""
    import inline_prototype
    ops, _ = game.codes[code]
    record = game.code_records[code] if hasattr(game, "code_records") else None
    flags = set(getattr(record, "flags", ())) if record is not None else _flags_of(ops)
    if flags is None or flags & {"pauses", "pushes"}:
        return None
    lines = []
    for pc, op in enumerate(ops):
        if op.__name__ == "jump":
            if pc != len(ops) - 1:
                return None
            continue
        call = _call_of(op, flags)
        if call is None:
            return None
        try:
            lines += inline_prototype.inline(game, call[0], call[1], {}, {"events": None}).splitlines()
        except inline_prototype.NotInlined:
            return None
    lines.append(f"st.steps += {len(ops)}")       # one step per op run, as the VM counts
    return lines


def _flags_of(ops) -> set | None:
    from unodsl.engine import ops as OPS
    flags = set()
    for op in ops:
        method = dict(zip(op.__code__.co_freevars, (c.cell_contents for c in op.__closure__ or ()))).get("method")
        if method is not None and getattr(method, "__name__", None) in OPS.OP_FLAGS:
            flags |= set(OPS.OP_FLAGS[method.__name__])
    return flags


def source_for(game, from_bodies: bool = False) -> str:
    """The Python source of the module specialised for `game` (raises NotCovered); `from_bodies`: effects made
    only of instruction calls are generated from the instructions' bodies (generated_effect) instead of the
    templates (measured: 12,908 instructions a turn on reference-rules.yaml against the templates' 9,534, the
    State's fields written and read around each such effect and every mask rebuilt)."""
    _check(game)
    g = game
    kinds = g.num_kinds
    colors = len(g.variant.colors)
    rows = []
    for c in range(-1, colors):
        row = []
        for top in range(kinds):
            ok = g.playable_after[c + 1][top]
            row.append((1 << kinds) - 1 if ok is None else sum(1 << k for k in ok))
        rows.append(tuple(row))
    color_masks = tuple(sum(1 << k for k in range(kinds) if g.k_color[k] == c) for c in range(-1, colors))
    effect = {}
    for t, type_id in enumerate(g.type_ids):
        card = g.variant.cards[type_id] if isinstance(g.variant.cards, dict) else g.variant.cards[t]
        effect[t] = _effect_kind(getattr(card, "on_play", None))
        if (g.restriction[t] is not None or g.challenge[t] is not None) and effect[t] != "wd4":
            effect[t] = "other"
    # What a kind does when played: 0 plain, 1 penalty 2, 2 skip, 3 reverse, 4 choose color, 5 wd4, 9 hand over.
    codes = {"": 0, "penalty2": 1, "skip": 2, "reverse": 3, "choose": 4, "wd4": 5, "other": 9}
    generated = {}
    for t in range(len(g.type_ids)):
        code = g.on_play[t]
        if (from_bodies and code >= 0 and g.restriction[t] is None and g.challenge[t] is None
                and effect[t] not in ("choose", "wd4")):
            lines = generated_effect(g, code)
            if lines is not None:
                generated[t] = lines
                effect[t] = "generated"
    codes["generated"] = 8
    action = tuple(codes[effect[g.k_type[k]]] for k in range(kinds))
    steps_of = {}
    for t in range(len(g.type_ids)):
        code = g.on_play[t]
        steps_of[t] = len(g.codes[code][0]) if code >= 0 else 0
    src = f'''\
# Generated by benchmarks/generated_prototype.py for {g.variant.name!r}: a prototype, read its docstring.
BIT = {tuple(1 << k for k in range(kinds))!r}
ROWS = {tuple(rows)!r}
COLOR_MASK = {color_masks!r}
K_COLOR = {tuple(g.k_color)!r}
K_TYPE = {tuple(g.k_type)!r}
ACT = {action!r}
K = {kinds}
UNO_HAND, UNO_LEFT = {g.uno_hand}, {g.uno_left}
A_DRAW, A_KEEP, A_COLOR, A_CHALLENGE, A_ACCEPT = {g.A_DRAW}, {g.A_KEEP}, {g.A_COLOR}, {g.A_CHALLENGE}, {g.fixed_actions["challenge"][1]}
COLOR_ACTIONS = {tuple(tuple(a) for a in g.color_actions)!r}     # per side up
PLAIN_TURNS = {g.plain_turns}
DECK_SIZE = {g.deck_size}


def mask_of(hand):
    mask = 0
    for k in hand:
        mask |= BIT[k]
    return mask


def play_out(st, rand):
    """State.play_out for this variant, specialised (the same game as the reference mode's)."""
    n = st.n
    hist = st.history.append
    follow = (None, tuple((s + 1) % n for s in range(n)), tuple((s - 1) % n for s in range(n)))
    no_skips = [0] * n
    while not st.over:
        pending = st.pending
        hands = st.hands
        if (pending[0] != "turn" or st.lock_owner >= 0 or st.next_exact >= 0 or st.turn_from >= 0 or st.stack
                or st.vulnerable or st.uno_askers or st.frames or st.skip != no_skips or not all(hands)
                or True in st.eliminated):
            # Not a plain turn: one decision the reference way (the listed rollout's draw).
            actions = st.legal_action_ids()
            st.apply_id(actions[int(rand() * len(actions))])
            continue
        # --- the fast loop: load the state into locals (the reference body rebinds some lists: read them here)
        uno_called, revealed, vulnerable = st.uno_called, st.revealed, st.vulnerable
        color_actions = COLOR_ACTIONS[st.side]         # a flip (handed over) changes the side
        skips = st.skip
        cur, color, d = pending[1], st.color, st.direction
        pile, discard = st.draw_pile, st.discard
        turns, total, steps, drawn = st.turns, st.total_turns, st.steps, st.drawn_this_turn
        following = follow[d]
        row = ROWS[color + 1][discard[-1]]
        masks = [mask_of(h) for h in hands]
        st.pending = None
        while True:
            hand = hands[cur]
            skipped = -1
            legal = masks[cur] & row
            m = legal.bit_count()
            nn = 2 * m if len(hand) == UNO_HAND else m  # each play doubled with an UNO call
            i = int(rand() * (nn + 1))
            k = -1
            uno = False
            if i == nn:                                 # draw
                hist(A_DRAW)
                if pile:
                    k = pile.pop()
                else:                                   # refill: the reference body's
                    st.draw_pile, st.discard = pile, discard
                    k = st._draw_one()
                    pile, discard = st.draw_pile, st.discard
                    row = ROWS[color + 1][discard[-1]]
                if k >= 0:
                    hand.append(k)
                    masks[cur] |= BIT[k]
                    steps += 1
                    uno_called[cur] = False
                    drawn = k
                    if row >> k & 1:                    # the drawn card may be played: play or keep
                        nd = 2 if len(hand) == UNO_HAND else 1
                        j = int(rand() * (nd + 1))
                        if j == nd:
                            hist(A_KEEP)
                            k = -1
                        else:
                            uno = j == 1
                            hist(k + K if uno else k)
                    else:
                        k = -1
            else:
                if i >= m:
                    i -= m
                    uno = True
                while i:
                    legal &= legal - 1
                    i -= 1
                k = (legal & -legal).bit_length() - 1
                hist(k + K if uno else k)
            if k >= 0:
                act = ACT[k]
                if len(hand) == 1 or act == 9:
                    # The round ends with this play, or its effect is not inlined: the reference body plays it.
                    st.current, st.color, st.direction, st.draw_pile, st.discard = cur, color, d, pile, discard
                    st.turns, st.total_turns, st.steps, st.drawn_this_turn = turns, total, steps, drawn
                    st.next_player, st.played_by = cur, -1
                    st._play(cur, k, uno)
                    break
                hand.remove(k)
                if k not in hand:
                    masks[cur] ^= BIT[k]
                if len(hand) == UNO_LEFT:               # at UNO: called, or open to a catch
                    uno_called[cur] = uno
                    if not uno:
                        vulnerable.append(cur)
                discard.append(k)
                if act == 0:
                    color = K_COLOR[k]
                    row = ROWS[color + 1][k]
                elif act == 8:
                    # An effect made from its instructions' bodies: on the State itself, the locals written first.
                    color = K_COLOR[k] if K_COLOR[k] >= 0 else color
                    st.current, st.color, st.direction, st.draw_pile, st.discard = cur, color, d, pile, discard
                    st.played_by, st.drawn_this_turn, st.steps = cur, drawn, steps
                    t = K_TYPE[k]
{{GENERATED}}
                    color, d, pile, discard, steps = st.color, st.direction, st.draw_pile, st.discard, st.steps
                    following = follow[d]
                    row = ROWS[color + 1][k]
                    masks = [mask_of(h) for h in hands]
                    if ({{LEAVES}}) or not all(hands):
                        # Not a state the loop goes on from: the reference body settles the play.
                        st.turns, st.total_turns = turns, total
                        st.next_player = cur
                        st._after_play()
                        break
                elif act == 4 or act == 5:
                    honest = not masks[cur] & COLOR_MASK[color + 1]
                    steps += 1                          # choose color: a decision
                    a = color_actions[int(rand() * len(color_actions))]
                    hist(a)
                    color = c = a - A_COLOR
                    row = ROWS[c + 1][k]
                    if act == 5:
                        v = following[cur]
                        steps += 1                      # next may challenge: a decision
                        if int(rand() * 2) == 0:
                            hist(A_CHALLENGE)
                            seen = revealed.get(v)
                            if seen is None:
                                seen = revealed[v] = {{}}
                            seen[cur] = list(hand)
                            if honest:
                                victim, count, skipped, steps = v, 6, v, steps + 3
                            else:
                                victim, count, steps = cur, 4, steps + 2
                        else:
                            hist(A_ACCEPT)
                            victim, count, skipped, steps = v, 4, v, steps + 2
                        got_hand = hands[victim]
                        if count <= len(pile):
                            got_hand += pile[:-count - 1:-1]
                            del pile[-count:]
                            uno_called[victim] = False
                            steps += count
                        else:
                            st.draw_pile, st.discard = pile, discard
                            steps += st._draw(victim, count)
                            pile, discard = st.draw_pile, st.discard
                        masks[victim] = mask_of(got_hand)
                else:
                    color = K_COLOR[k]
                    row = ROWS[color + 1][k]
                    if act == 1:                        # next draws 2 and loses turn
                        v = skipped = following[cur]
                        got_hand = hands[v]
                        if 2 <= len(pile):
                            got_hand += pile[:-3:-1]
                            del pile[-2:]
                            uno_called[v] = False
                            steps += 3
                        else:
                            st.draw_pile, st.discard = pile, discard
                            steps += 1 + st._draw(v, 2)
                            pile, discard = st.draw_pile, st.discard
                            row = ROWS[color + 1][k]
                        masks[v] = mask_of(got_hand)
                    elif act == 2:                      # skip next
                        skipped = following[cur]
                        steps += 1
                    else:                               # reverse (a skip with two players)
                        d = -d
                        following = follow[d]
                        if n == 2:
                            skipped = following[cur]
                            steps += 4
                        else:
                            steps += 2
            # --- the hand-off: the next seat in play, a skipped one passed over
            seat = following[cur]
            if seat == skipped:
                seat = following[seat]
            elif skips != no_skips:                     # skipped by a generated effect: as State._advance
                seat = cur
                while True:
                    seat = following[seat]
                    if skips[seat]:
                        skips[seat] = 0
                        continue
                    break
                skips[:] = no_skips
            if turns >= PLAIN_TURNS or vulnerable:     # the turn limit, or the catch window opens
                st.current, st.color, st.direction, st.draw_pile, st.discard = cur, color, d, pile, discard
                st.turns, st.total_turns, st.steps, st.drawn_this_turn = turns, total, steps, drawn
                st.played_by = cur if k >= 0 else -1
                st._next_turn(seat)
                break
            cur = seat
            turns += 1
            total += 1
            steps = 0
            drawn = -1
'''
    block = []
    for n_, (t, lines) in enumerate(sorted(generated.items())):
        block.append(f"                    {'if' if n_ == 0 else 'elif'} t == {t}:")
        block += ["                        " + line for line in "\n".join(lines).splitlines()]
    if not block:
        block = ["                    pass"]
    leaves = " or ".join(f"st.{f} >= 0" if f in ("next_exact", "turn_from", "lock_owner")
                         else "True in st.eliminated" if f == "eliminated"
                         else "st.pending is not None" if f == "pending" else f"st.{f}" for f in _LEAVES)
    src = src.replace("{GENERATED}", "\n".join(block)).replace("{LEAVES}", leaves)
    return src


def digest(game) -> str:
    """The cache key of the module: the source's hash (the source holds every table it reads)."""
    return hashlib.sha256(source_for(game).encode()).hexdigest()[:16]


def compile_for(game, from_bodies: bool = False):
    """`play_out(state, rand)` of the module made for `game` (raises NotCovered)."""
    namespace: dict = {}
    exec(compile(source_for(game, from_bodies), f"<generated for {game.variant.name}>", "exec"), namespace)
    return namespace["play_out"]


def play_one_for(game):
    """A `runs.simulate.play_one` for random bots that plays out with the module made for `game`."""
    play_out = compile_for(game)

    def play_one(g, players, seed, bots, match=False):
        state = g.new_game(players, seed=seed, match=match)
        play_out(state, state.rng.random)
        return state
    return play_one


def compile_native(game, folder: str):
    """`play_out` of the same module compiled to C by Cython (the optional compiled tier), built in `folder`
    under its digest (a second call finds it built). Needs Cython and a C compiler; raises otherwise."""
    import importlib.util
    import subprocess
    import sys
    import sysconfig
    from pathlib import Path

    name = f"unodsl_generated_{digest(game)}"
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    library = out / f"{name}{suffix}"
    if not library.exists():
        source = out / f"{name}.py"
        source.write_text(source_for(game))
        c_file = out / f"{name}.c"
        subprocess.run([sys.executable, "-m", "cython", "-3", str(source), "-o", str(c_file)], check=True)
        include = sysconfig.get_paths()["include"]
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", f"-I{include}", str(c_file), "-o", str(library)],
                       check=True)
    spec = importlib.util.spec_from_file_location(name, library)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play_out
