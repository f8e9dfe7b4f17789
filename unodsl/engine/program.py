"""The compile step: a variant's effects and conditions become engine code, and the tables that choose fast paths.

The engine hands the lowering its instruction set (`ops`: name -> function) and says what
each instruction may do (`flags`, in effects.layout's words); effects never imports the
engine, and the engine never imports the parser: it reads the trees `Variant.syntax` holds.
"""

from __future__ import annotations

from dataclasses import replace

from ..effects import ast as A
from ..effects.ast import diagnostic_at
from ..effects.check import Checker, Context
from ..effects.layout import DRAWS, PAUSES, PUSHES
from ..effects.lower import Lowering
from .rules import Compiled
from .matching import kinds_meeting, match_table


class NotParsed(ValueError):
    """A Game was asked to compile a Variant whose effects were never parsed (Variant.syntax is None)."""


def _never(st, fr) -> bool:
    """The may-draw condition of a variant whose condition did not compile."""
    return False


def _always(st, fr) -> bool:
    """The may-draw condition of a variant that has none: a player may always draw."""
    return True


class Program:
    """The compile step of one game: trees checked (E5xx, into `checker.diags`), lowered and registered.

    compile_effects runs one over a variant's texts; tests and tools compile a tree of their
    own into a game with `compile_effect` and `compile_condition`.
    """

    def __init__(self, game, ops: dict, flags: dict):
        self.game = game
        self.checker = Checker(game)
        self.lowering = Lowering(game, ops, flags)
        # Every procedure's body is checked once, here; each call inlines it (Lowering.procedures).
        self.lowering.functions = self.checker.functions()      # before the bodies that call them
        self.lowering.procedures = self.checker.procedures()
        self.first = len(game.codes)      # the code id of the first code this program registers
        self.lowered: list = []           # per code id from `first` on: its Code record

    def compile_effect(self, tree, ctx: Context, name: str) -> int:
        """Check and lower an effect tree, register it in the game as `name` (its key in the file, as
        `unodsl explain` and a stopped effect's event name it); return its code id or -1."""
        if tree is None:
            return -1
        checked = self.checker.effect(tree, ctx)
        if checked is None:
            return -1
        code = replace(self.lowering.effect(tree, checked), name=name)
        self.game.codes.append((code.ops, code.nlocals))
        self.game.code_records.append(code)
        self.lowered.append(code)
        return len(self.game.codes) - 1

    def compile_condition(self, tree, ctx: Context):
        """Check and lower a condition tree; its Predicate, or None if absent or broken."""
        if tree is None:
            return None
        checked = self.checker.condition(tree, ctx)
        return None if checked is None else self.lowering.condition(tree, checked)

    def code(self, code_id: int):
        """The Code record of a code id this program registered."""
        return self.lowered[code_id - self.first]


def compile_effects(game, ops: dict, flags: dict) -> Compiled:
    """Compile every effect and condition of `game.variant` into `game`'s code tables; return what the rule
    choices need to know of them (engine/rules.py).

    The variant's texts were parsed before (Variant.syntax, by effects.parse.parse_variant):
    the engine never runs the parser.
    """
    v = game.variant
    if v.syntax is None:
        raise NotParsed("this Variant's effects are not parsed: build it with unodsl.check_file or unodsl.load, "
                        "or give Game `unodsl.effects.parse.with_syntax(variant)`")
    program = Program(game, ops, flags)
    tree = v.syntax.tree
    game.diagnostics.extend(v.syntax.diagnostics)
    # Per card type: its strict restriction (a play's legality) and its challenge restriction (a play's
    # honesty, found out by `may challenge`), each a condition's function or None.
    game.on_play, game.on_start, game.restriction, game.challenge, game.resolve_last = [], [], [], [], []
    for tid, ct in v.cards.items():
        program.checker.current_card = ct
        game.on_play.append(program.compile_effect(tree(ct.on_play), Context("on_play"), f"cards.{ct.id}.on_play"))
        start_text = ct.on_start or v.start_default
        start = program.compile_effect(tree(start_text), Context("on_start"),
                                         f"cards.{ct.id}.on_start" if ct.on_start else "start.default") if start_text else game.on_play[-1]
        game.on_start.append(start)
        for text, table in ((ct.strict, game.restriction), (ct.challenge, game.challenge)):
            restriction = program.compile_condition(tree(text), Context("condition"))
            table.append(restriction.fn if restriction is not None else None)
        game.resolve_last.append(ct.last_card == "resolve")
    program.checker.current_card = None
    game.on_deal = program.compile_effect(tree(v.on_deal), Context("setup"), "deal.on_deal")
    game.on_player_out = program.compile_effect(tree(v.on_player_out), Context("event"), "events.player_out")
    game.after_draw = program.compile_effect(tree(v.after_draw), Context("event"), "events.after_draw")
    game.turn_draw = program.compile_effect(tree(v.turn_draw), Context("turn_draw"), "turn.draw")
    game.uno_penalty_code = program.compile_effect(tree(v.uno_penalty_effect), Context("uno_penalty"),
                                                   "uno.penalty")
    _compile_uno_calls(game, program)
    _compile_windows(game, program)
    game.on_round_end = program.compile_effect(tree(v.on_round_end), Context("round_end"), "round.on_end")
    # The turn hooks and the play hook (events.turn_start, turn_end, card_played): -1 where the variant has none.
    game.turn_start = program.compile_effect(tree(v.turn_start), Context("turn_start"), "events.turn_start")
    game.turn_end = program.compile_effect(tree(v.turn_end), Context("turn_end"), "events.turn_end")
    game.card_played = program.compile_effect(tree(v.card_played), Context("card_played"), "events.card_played")
    game.sets = None            # turn.sets, compiled below (_compile_sets) once the tables it reads exist
    if game.on_round_end >= 0 and program.code(game.on_round_end).flags & {DRAWS, PAUSES, PUSHES}:
        # The checker refuses such statements where they are written (E514); this holds any it does not list.
        program.checker.diags.append(diagnostic_at(v.on_round_end, 1, 1, "E514", "the round is over: round.on_end "
                                                   "may keep score or move cards, but no one decides or draws any more"))
        game.on_round_end = -1
    # The after-draw event runs on every draw; when its whole body sits under an `if` (Teams' tag-back),
    # the fast path makes the test before a frame is pushed (FastState.after_draw_event).
    game.after_draw_guard = (program.code(game.after_draw).guard
                             if game.after_draw >= 0 and game.fast else None)
    # A condition that does not compile (the file is refused, but check_file still builds the game for
    # its diagnostics) allows no draw, as `false` would; the turn paths never test it for None.
    may_draw = program.compile_condition(tree(v.may_draw_if), Context("condition"))
    if v.may_draw_if is None:
        game.may_draw_if = _always
    else:
        game.may_draw_if = may_draw.fn if may_draw is not None else _never
    # `hand(next) OP c` as a table by hand size, which FastState.play_out reads in place (None: not that form).
    game.may_draw_next_answers = may_draw.next_answers if may_draw is not None else None
    # round.eliminate_when, tested for every player as each resolution settles (Flow.eliminate_by_rule);
    # None without one, or when it does not compile (the file is refused).
    knock_out = program.compile_condition(tree(v.eliminate_when), Context("condition"))
    game.eliminate_when = knock_out.fn if knock_out is not None else None
    # round.win_when, tested for every player in the round as each resolution settles (Flow.won_by_rule).
    wins = program.compile_condition(tree(v.win_when), Context("condition"))
    game.win_when = wins.fn if wins is not None else None
    # The smallest hand size for which round.eliminate_when may hold: a hand below it is not tested (FastState.eliminate_by_rule,
    # ops.draw and ops.draw_until). Known in the fast mode for a condition that reads nothing but hand(self)
    # (its table by size, from the effect compiler's fused forms); else 1, every hand tested, as in the reference mode.
    answers = knock_out.own_answers if knock_out is not None else None
    game.eliminate_from = 1 if answers is None else next(
        (size for size in range(1, len(answers)) if answers[size]), len(answers))
    game.seat_frames = tuple((-1, 0, p, -1, True, False) for p in range(game.max_players))
    game.strict_kinds = {k for k in range(game.num_kinds) if game.restriction[game.k_type[k]] is not None}
    # stacking.skips: the kinds that answer a pending skip (ops.skip), or None when skips are not stacked.
    game.skip_kinds = (frozenset(k for k in range(game.num_kinds) if game.type_ids[game.k_type[k]] in v.skip_answers)
                       if v.skip_answers is not None else None)
    game.deck_size = len(game.deck) * game.max_packs      # the most cards a table of this game plays with
    _compile_on_stack(game, program)
    game.stack_types = None
    if v.stack_cards is not None:
        game.stack_types = {game.type_ids.index(t) for t in v.stack_cards if t in game.type_ids}
    _compile_matching(game, program)
    _compile_pile_fills(game, program)
    _compile_sets(game, program)
    game.diagnostics.extend(program.checker.diags)
    game.rulings_used = program.checker.rulings_used
    return Compiled(after_draw=game.after_draw, turn_draw=game.turn_draw, turn_start=game.turn_start,
                    card_played=game.card_played, windows=bool(game.windows),
                    eliminates=game.eliminate_when is not None, wins=game.win_when is not None,
                    may_draw_constant=may_draw.constant if may_draw is not None else None,
                    scores_by_effect=any(isinstance(node, A.Score) for effect in v.syntax.trees.values()
                                         for node in A.walk(effect)),
                    play_piles=bool(game.play_piles))


def fast_tables(game) -> None:
    """The per-kind and per-code tables that choose the fast paths State takes, from the rule choices (all
    false in the reference mode): Game.plain, the kinds whose play needs no effect and no restriction, and
    Game.straight, the codes with no loop and no instruction that may pause for a decision, push an effect
    or reshape hands (and so end the round): one runs to its end at once, without an effect frame on the
    stack (drawing may run the after-draw event, if there is one)."""
    rules = game.rules
    game.plain = [rules.plain_plays and game.on_play[t] < 0 and game.restriction[t] is None
                  and game.challenge[t] is None for t in game.k_type]
    allowed = {DRAWS} if rules.straight_draws else set()
    game.straight = [game.fast and code.straight(allowed) for code in game.code_records]


def _compile_matching(game, program: Program) -> None:
    """The `match:` conditions (the variant's, each card type's), made into Game.playable_after.

    A card type's own condition decides for its cards; the variant's for the others; with
    neither, the fixed test's table stays as it is. A condition that does not compile
    (the file is refused) leaves the fixed test in its place.
    """
    v = game.variant
    tree = v.syntax.tree
    default = program.compile_condition(tree(v.match), Context("match"))
    tests = []
    for ct in v.cards.values():
        own = program.compile_condition(tree(ct.match), Context("match")) if ct.match is not None else None
        chosen = own if own is not None else default
        tests.append(chosen.fn if chosen is not None else None)
    if any(test is not None for test in tests):
        game.playable_after = match_table(game, tests)


def _compile_pile_fills(game, program: Program) -> None:
    """The piles filled from the deck by a condition (`where:`): Game.pile_fill, by slot, the kinds that meet it.

    A `where:` reads only the card (E562), so the kinds it takes are worked out here, once; None for a pile
    dealt from the top of the shuffled deck, or whose condition does not compile (the file is refused).
    """
    fills = {}
    for name, pile in game.variant.piles.items():
        test = program.compile_condition(game.variant.syntax.tree(pile.where), Context("pile"))
        if test is not None:
            fills[name] = kinds_meeting(game, test.fn)
            if not fills[name]:
                program.checker.diags.append(diagnostic_at(
                    pile.where, 1, 1, "W304", f"no card of the deck meets the where: of pile '{name}': the pile "
                    "is never filled from it", "warning"))
    fill = [None] * len(game.pile_names)
    bases = sorted(game.pile_base.items(), key=lambda item: item[1])       # each declared pile's first slot
    for (name, base), end in zip(bases, [base for _, base in bases[1:]] + [len(fill)]):
        fill[base:end] = [fills.get(name)] * (end - base)
    game.pile_fill = tuple(fill)


def _compile_uno_calls(game, program: Program) -> None:
    """uno.false_call, uno.catch and uno.out (docs/language.md 9.9): their effects and condition. Game.catch_if:
    whether `catcher` may accuse a player (its frame's local), None for anyone; a condition that does not
    compile (the file is refused) lets no one. The costs: false_call_code (a false call), wrong_catch_code (a
    wrong accusation), out_penalty_code (a last card played without the out call); -1 where the cost is a
    number of cards. Which of these rules the variant has is a rule choice (engine/rules.py).
    """
    v = game.variant
    tree = v.syntax.tree
    game.false_call_code = program.compile_effect(tree(v.uno_false_call_effect), Context("uno_false_call"),
                                                 "uno.false_call")
    game.wrong_catch_code = program.compile_effect(tree(v.uno_wrong_catch_effect), Context("uno_wrong"),
                                                 "uno.catch.wrong")
    may = program.compile_condition(tree(v.uno_catch_if), Context("uno_catch"))
    game.catch_if = None if v.uno_catch_if is None else may.fn if may is not None else _never
    # uno.out: the last card's play may carry the call, and one without it costs (out_penalty_code, or cards).
    game.out_penalty_code = program.compile_effect(tree(v.uno_out_penalty_effect), Context("uno_out"),
                                                  "uno.out.penalty")


def _compile_windows(game, program: Program) -> None:
    """windows: (docs/language.md, windows): per window in file order, (name, who, its `when` predicate or None,
    its effect's code, its `option NAME` number); Game.windows is () for a variant without any."""
    v = game.variant
    tree = v.syntax.tree
    windows = []
    for name, window in v.windows.items():
        when = program.compile_condition(tree(window.when), Context("window"))
        test = None if window.when is None else when.fn if when is not None else _never
        code = program.compile_effect(tree(window.effect), Context("window"), f"windows.{name}.effect")
        windows.append((name, window.who, test, code, game.option_index[name]))
    game.windows = tuple(windows)


def _compile_sets(game, program: Program) -> None:
    """turn.sets: its conditions lowered (Game.sets, engine/sets.py); a variant with sets plays SetStates.

    A `continue` that does not compile (the file is refused) lets no card go on a set.
    """
    rule = game.variant.sets
    if rule is None:
        return
    from .sets import SetRules, SetState
    tree = game.variant.syntax.tree
    go_on = program.compile_condition(tree(rule.continue_), Context("set"))
    finish = program.compile_condition(tree(rule.finish), Context("set")) if rule.finish is not None else None
    game.sets = SetRules(rule.max, go_on.fn if go_on is not None else _never,
                         finish.fn if finish is not None else None)
    game.state_class = SetState


def _compile_on_stack(game, program: Program) -> None:
    """Each card type's `on_stack` effect and `on_stack_if` condition (-1 and None without them, -1 too where
    the condition is constantly false, None where it is constantly true), and Game.deflectors: the kinds
    that have an effect, which answer a pending stack when they match (Moves._legal_stack).

    An on_stack effect must pass the stack on somewhere or have it drawn (E542): else nobody would face it.
    """
    v = game.variant
    tree = v.syntax.tree
    game.on_stack, game.on_stack_if = [], []
    for ct in v.cards.values():
        program.checker.current_card = ct
        effect = tree(ct.on_stack)
        if effect is not None and not any(isinstance(node, (A.PassStack, A.DrawStack)) for node in A.walk(effect)):
            program.checker.diags.append(diagnostic_at(ct.on_stack, 1, 1, "E542", f"'{ct.id}' has an on_stack "
                                                       "effect that never passes the stack on: add "
                                                       "'turn the stack away to P' or 'P draws the stack'"))
            effect = None
        game.on_stack.append(program.compile_effect(effect, Context("on_stack"), f"cards.{ct.id}.on_stack"))
        test = program.compile_condition(tree(ct.on_stack_if), Context("condition"))
        if test is not None and test.constant is False:
            game.on_stack[-1] = -1              # a ruling that is off: the card never turns a stack away
        game.on_stack_if.append(test.fn if test is not None and test.constant is None else None)
    program.checker.current_card = None
    game.deflectors = frozenset(k for k in range(game.num_kinds) if game.on_stack[game.k_type[k]] >= 0)
