"""The compile step: a variant's effects and conditions become engine code, and the tables that choose fast paths.

The engine hands the compiler its instruction set (`ops`: name -> function) and says what
each instruction may do (`flags`); the compiler never imports the engine.
"""

from __future__ import annotations

from ..effects.compiler import Context, EffectCompiler, guard_of
from .ops import DRAWS


def _never(st, fr) -> bool:
    """The may-draw condition of a variant whose condition did not compile."""
    return False


def _always(st, fr) -> bool:
    """The may-draw condition of a variant that has none: a player may always draw."""
    return True


def compile_effects(game, ops: dict, flags: dict) -> None:
    """Compile every effect and condition of `game.variant` into `game`'s code tables."""
    v = game.variant
    compiler = EffectCompiler(game, ops)
    game.on_play, game.on_start, game.restriction, game.strict, game.resolve_last = [], [], [], [], []
    for tid, ct in v.cards.items():
        compiler.current_card = ct
        game.on_play.append(compiler.compile_effect(ct.on_play, Context("on_play")))
        start_text = ct.on_start or v.start_default
        start = compiler.compile_effect(start_text, Context("on_start")) if start_text else game.on_play[-1]
        game.on_start.append(start)
        game.restriction.append(compiler.compile_condition(ct.restriction, Context("condition")))
        game.strict.append(ct.restriction_check == "strict")
        game.resolve_last.append(ct.last_card == "resolve")
    compiler.current_card = None
    game.on_deal = compiler.compile_effect(v.on_deal, Context("setup"))
    game.on_player_out = compiler.compile_effect(v.on_player_out, Context("event"))
    game.after_draw = compiler.compile_effect(v.after_draw, Context("event"))
    # The after-draw event runs on every draw; when its whole body sits under an `if` (Teams' tag-back),
    # the fast path makes the test before a frame is pushed (FastState._after_draw_event).
    game.after_draw_guard = (guard_of(game.codes[game.after_draw][0])
                             if game.after_draw >= 0 and game.fast else None)
    game.may_always_draw = v.may_draw_if is None or v.may_draw_if.source.strip() == "true"
    # A condition that does not compile (the file is refused, but check_file still builds the game for
    # its diagnostics) allows no draw, as `false` would; the turn paths never test it for None.
    if v.may_draw_if is None:
        game.may_draw_if = _always
    else:
        game.may_draw_if = compiler.compile_condition(v.may_draw_if, Context("condition")) or _never
    # `hand(next) OP c` as a table by hand size, which FastState.play_out reads in place (None: not that form).
    game.may_draw_next_answers = getattr(game.may_draw_if, "next_answers", None)
    # A condition only reads its frame: one immutable frame per seat, not a new list every turn.
    game.seat_frames = tuple((-1, 0, p, -1, True, False) for p in range(game.max_players))
    game.strict_kinds = {k for k in range(game.num_kinds) if game.restriction[game.k_type[k]] is not None
                         and game.strict[game.k_type[k]]}
    game.jump_in = v.jump_in
    game.stacking = v.stacking != "none"
    game.deck_size = len(game.deck)
    game.max_turns = v.max_turns
    # A turn below this needs no jump-in window: the fast path begins it inline (-1: never).
    game.plain_turns = -1 if v.jump_in else v.max_turns
    game.may_keep_drawn = v.drawn_card != "forced"
    game.uno_enabled = v.uno_enabled
    # The fast paths that State takes where these tables say so: all off in the reference mode.
    fast = game.fast
    game.simple_draw = (fast and v.no_playable == "draw_one" and v.drawn_card != "forbidden"
                        and game.after_draw < 0)
    # Kinds whose play needs no effect, no restriction: the fast path of a turn.
    game.plain = [fast and game.on_play[t] < 0 and game.restriction[t] is None for t in game.k_type]
    # Straight effects: every op is a forward jump, an assignment or a call of a State method that
    # cannot pause for a decision, push an effect or end the round. One runs to its end at once,
    # without an effect frame on the stack (drawing may run the after-draw event, if there is one).
    allowed = set() if game.after_draw >= 0 else {DRAWS}
    safe = {""} | {name for name, may in flags.items() if may <= allowed}
    game.straight = [fast and all(getattr(op, "calls", None) in safe for op in ops) for ops, _ in game.codes]
    game.stack_types = None
    if v.stack_cards is not None:
        game.stack_types = {game.type_ids.index(t) for t in v.stack_cards if t in game.type_ids}
    game.diagnostics.extend(compiler.diags)
    game.rulings_used = compiler.rulings_used
