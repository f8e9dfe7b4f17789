"""The compiled variant: a Game holds its tables and effect code, and starts games (dealt or set up)."""

from __future__ import annotations

import hashlib
import json
import os
import random

from ..diagnostics import Diagnostic
from ..model.variant import Variant
from .fast import FastHookState, FastOpenHookState, FastOpenState, FastState
from .ops import OP_FLAGS, OPS
from .position import Positions
from .program import compile_effects, fast_tables
from .rules import choose_rules
from .state import State
from .tables import Tables
from .variables import variable_tables

# Rulings the engine itself reads by name (documented in docs/language.md); `check` knows they are used.
ENGINE_RULINGS = ("jump_in_during_stack", "target_tie_plays_another_round")
# The mode a Game gets when none is asked for: the fast one, unless UNODSL_FAST=0 (the whole test
# suite can then run in the reference mode).
FAST_BY_DEFAULT = os.environ.get("UNODSL_FAST", "1") != "0"


class Game(Tables, Positions):
    """A variant compiled once: card tables, action space and effect code.

    `fast=False` is the reference mode: every rule runs through its one general
    implementation, State's. The fast paths (a turn's inline legal actions and draw, guarded
    draw events, the rollout's counted decisions) are FastState's methods (engine/fast.py);
    plain cards and straight effects are State's, behind the tables `plain` and `straight`,
    all false in the reference mode; the fused hand-size tests are the effect compiler's.
    The test suite plays the same games both ways and requires them identical.
    """

    # Slots for the same reason as State's: the engine reads these tables on every turn. By who fills them:
    __slots__ = (
        # the Game's own
        "variant", "ruling_overrides", "diagnostics", "digest", "fast", "state_class", "rollout", "adapter_cache",
        # the tables (engine/tables.py: cards, the action codec, seats and teams; engine/position.py)
        "type_ids", "card_names", "card_index", "k_color", "k_number", "k_wild", "k_points", "k_draw", "k_type",
        "k_type_id", "k_category", "k_back", "deck", "max_packs", "num_kinds", "playable_after", "stack_answers",
        "side_colors", "color_actions", "option_names", "option_index", "number_top",
        "A_PLAY", "A_PLAY_UNO", "A_DRAW", "A_KEEP", "A_PASS", "A_CHALLENGE", "A_ACCEPT", "A_UNO", "A_DONE",
        "A_COLOR", "A_TARGET", "A_CATCH", "A_GIVE", "A_TRADE", "A_OPTION", "A_NUMBER", "A_PUT", "A_PLAY_ON",
        "num_actions", "fixed_actions", "max_players", "team_tables", "no_skips", "turn_of", "orders",
        "pile_names", "face_up", "has_put", "play_piles", "pile_playable", "pile_seat", "pile_deal", "pile_base",
        "pile_role",
        # the compiled program (engine/program.py; the variables' tables, engine/variables.py)
        "codes", "code_records", "rulings_used", "on_play", "on_start", "restriction", "challenge", "resolve_last",
        "on_deal", "on_player_out", "after_draw", "after_draw_guard", "turn_draw", "uno_penalty_code",
        "on_round_end", "turn_start", "turn_end", "card_played", "false_call_code", "wrong_catch_code",
        "out_penalty_code", "catch_if", "windows", "may_draw_if", "may_draw_next_answers", "eliminate_when",
        "eliminate_from", "win_when", "sets", "on_stack", "on_stack_if", "deflectors", "skip_kinds", "deck_size",
        "seat_frames", "strict_kinds", "stack_types", "pile_fill", "plain", "straight",
        "state_vars", "player_vars", "var_initial", "pvar_initial",
        # the rule choices (engine/rules.py), and the copies the turn reads of them (below, in __init__)
        "rules", "draws_until_playable", "offers_drawn", "may_keep_drawn", "may_always_draw", "simple_draw",
        "plain_turns", "max_turns", "blocked", "jump_in", "stacking", "uno_hand", "uno_left", "false_calls",
        "wrong_catches", "catch_rules", "out_calls", "first_out_ends", "team_out_ends",
    )

    def __init__(self, variant: Variant, rulings: dict | None = None, fast: bool | None = None):
        self.variant = variant
        # What the adapters build from this Game alone, built once and shared by all their instances
        # (the RL environments' action tables and observation layouts), by a key of theirs. The engine never reads it.
        self.adapter_cache: dict = {}
        self.fast = fast = FAST_BY_DEFAULT if fast is None else fast
        self.state_class = FastState if fast else State       # the reference mode plays plain States
        self.ruling_overrides = dict(rulings or {})
        self.diagnostics: list[Diagnostic] = []
        self.codes: list = []
        self.code_records: list = []          # per code: its effects.code.Code record, the one home of what is known
                                              # of it (its name, locals, source lines, pauses, ops with their operands)
        self.rollout = None                   # the fast mode's play_out, generated from this Game when first asked
                                              # (engine/generated.py: rollout_of)
        self.build_cards()
        self.build_actions()
        self.state_vars, self.player_vars, self.var_initial, self.pvar_initial = variable_tables(variant)
        self.rules = rules = choose_rules(variant, compile_effects(self, OPS, OP_FLAGS), fast)
        # The rule choices the turn reads on every decision, copied into slots of their own: the one place
        # a Game holds a rule choice outside `rules`.
        self.draws_until_playable, self.offers_drawn, self.may_keep_drawn = (rules.draws_until_playable,
                                                                            rules.offers_drawn, rules.may_keep_drawn)
        self.may_always_draw, self.simple_draw, self.plain_turns = (rules.may_always_draw, rules.simple_draw,
                                                                    rules.plain_turns)
        self.max_turns, self.blocked = rules.max_turns, rules.blocked
        self.jump_in, self.stacking = rules.jump_in, rules.stacking
        self.uno_hand, self.uno_left = rules.uno_hand, rules.uno_left
        self.false_calls, self.wrong_catches, self.catch_rules, self.out_calls = (
            rules.false_calls, rules.wrong_catches, rules.catch_rules, rules.out_calls)
        self.first_out_ends, self.team_out_ends = rules.first_out_ends, rules.team_out_ends
        fast_tables(self)
        self.stack_answers = self.stack_table(variant.stacking)
        if self.state_class is FastState and self.play_piles:
            self.state_class = State        # FastState knows one pile played on: it hands over to State's rules
        if self.state_class is FastState:
            # a turn_end hook: it runs, then FastState's hand-off; no start card: an empty discard pile is
            # played by State's rules until the first card is on it
            self.state_class = ((FastOpenHookState if self.turn_end >= 0 else FastOpenState) if not variant.start_card
                                else FastHookState if self.turn_end >= 0 else FastState)
            if self.false_calls or self.out_calls or self.windows:
                # A call offered with every play, or with the last card (uno.out): FastState's turn lists only the
                # calls due at uno.at; State's rules play it, and offer the declared windows (windows:).
                self.state_class = State
        self.digest = variant_digest(variant, self.ruling_overrides)

    def ruling_value(self, name: str):
        """Return the value of a ruling, with any override applied."""
        if name in self.ruling_overrides:
            return self.ruling_overrides[name]
        ruling = self.variant.rulings.get(name)
        return ruling.value if ruling else None

    @property
    def ok(self) -> bool:
        """True when the variant compiled without errors."""
        return not any(d.severity == "error" for d in self.diagnostics)

    # --- games

    def check_players(self, players: int) -> None:
        """Raise ValueError, saying what is allowed, if the variant is not played by `players`."""
        v = self.variant
        allowed = v.allowed_players or range(v.min_players, v.max_players + 1)
        if players not in allowed:
            raise ValueError(f"{v.name} is played by {_describe_players(v)} players, not {players}")

    def new_game(self, players: int, seed: int | None = None, match: bool = False, record: bool = False) -> "State":
        """Start a game (one round, or a match to the target score) with its own seeded RNG.

        A recorded game keeps its log and events (engine/events.py) and is played by State: the
        fast paths, FastState's, never record, so an unrecorded game pays no test for it there.
        """
        self.check_players(players)
        if seed is None:
            seed = random.randrange(2**63)
        state = self.state_class_for(record)(self, players, seed, match, record)
        state.new_round(first=True)
        return state

    def state_class_for(self, record: bool) -> type:
        """The class of a new state: a recorded game is played by State (FastState never records), one
        with sets by SetState in both modes."""
        if self.sets is not None:
            return self.state_class
        return State if record else self.state_class


def _describe_players(v: Variant) -> str:
    if v.allowed_players and len(v.allowed_players) > 1:
        return ", ".join(map(str, v.allowed_players[:-1])) + f" or {v.allowed_players[-1]}"
    if v.allowed_players:
        return str(v.allowed_players[0])
    return f"{v.min_players} to {v.max_players}"


def variant_digest(variant: Variant, overrides: dict) -> str:
    """A short digest of what matters for replay: the cards, the rules and the rulings."""
    root = variant.root.to_python() if variant.root is not None else {}
    text = json.dumps([root, overrides], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
