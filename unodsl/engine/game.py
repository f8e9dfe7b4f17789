"""The compiled variant: a Game holds its tables and effect code, and starts games (dealt or set up)."""

from __future__ import annotations

import hashlib
import json
import os
import random

from ..diagnostics import Diagnostic
from ..model.variant import DrawnCard, NoPlayable, RoundEnds, Variant
from .fast import FastHookState, FastOpenHookState, FastOpenState, FastState
from .ops import OP_FLAGS, OPS
from .position import Positions
from .program import compile_effects
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

    # Slots for the same reason as State's: the engine reads these tables on every turn.
    __slots__ = ("variant", "ruling_overrides", "diagnostics", "codes", "type_ids", "card_names",
                 "card_index", "k_color", "k_number", "k_wild", "k_points", "k_draw", "k_type",
                 "k_type_id", "k_category", "deck", "num_kinds", "playable_after", "A_PLAY",
                 "A_PLAY_UNO", "A_DRAW", "A_KEEP", "A_PASS", "A_CHALLENGE", "A_ACCEPT",
                 "A_UNO", "A_DONE", "A_COLOR", "A_TARGET", "max_players", "team_tables", "no_skips", "turn_of",
                 "A_CATCH", "A_GIVE", "A_TRADE", "num_actions", "fixed_actions", "on_play", "on_start", "restriction",
                 "challenge", "resolve_last", "on_deal", "orders", "stacking", "skip_kinds", "deck_size", "after_draw_guard",
                 "on_player_out", "after_draw", "may_draw_if", "may_draw_next_answers", "may_always_draw", "seat_frames", "strict_kinds",
                 "jump_in", "max_turns", "plain_turns", "may_keep_drawn", "uno_enabled", "uno_hand", "uno_left", "simple_draw", "plain",
                 "straight", "stack_types", "rulings_used", "digest", "fast", "state_class", "code_locals", "code_live", "code_picks",
                 "code_pauses", "code_names", "code_lines", "code_records", "rollout", "stack_answers", "draws_until_playable", "offers_drawn", "first_out_ends", "team_out_ends",
                 "eliminate_when", "eliminate_from", "win_when", "turn_draw", "uno_penalty_code", "on_round_end",
                 "A_OPTION", "option_names", "option_index", "A_NUMBER", "number_top",
                 "k_back", "side_colors", "color_actions", "A_PUT", "pile_names", "face_up", "has_put",
                 "play_piles", "pile_playable", "A_PLAY_ON", "pile_seat", "pile_deal", "pile_fill", "pile_base", "pile_role",
                 "state_vars", "player_vars", "var_initial", "pvar_initial", "sets",
                 "on_stack", "on_stack_if", "deflectors", "rounds_score",
                 "adapter_cache", "turn_start", "turn_end", "card_played", "blocked", "reshuffle", "max_packs",
                 # uno.false_call and uno.catch (engine/program.py _compile_uno_calls)
                 "false_calls", "false_call_code", "catch_if", "wrong_catches", "wrong_catch_code", "catch_rules",
                 "out_calls", "out_penalty_code",
                 "windows")       # windows: (engine/program.py _compile_windows)

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
        self.code_locals: list = []           # per code: what each of its locals holds (effects.SEATS, a type)
        self.code_live: list = []             # per code: where its locals certainly hold values (effects.Live)
        self.code_picks: list = []            # per code: None, or resume pc -> the filter of a pick paused there
        self.code_names: list = []            # per code: the file's key it was written under ("cards.skip.on_play")
        self.code_lines: list = []            # per code: per pc, where its op was written (effects.code.Written)
        self.code_pauses: list = []           # per code: resume pc -> the pausing instructions whose frame resumes
                                              # there (a save's decision is one of theirs)
        self.code_records: list = []          # per code: its effects.code.Code record (ops with their operands), which
                                              # the generated fast mode is made from
        self.rollout = None                   # the fast mode's play_out, generated from this Game when first asked
                                              # (engine/generated.py: rollout_of)
        self.build_cards()
        self.build_actions()
        self.state_vars, self.player_vars, self.var_initial, self.pvar_initial = variable_tables(variant)
        compile_effects(self, OPS, OP_FLAGS)
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
        self._choose_rules()
        self.digest = variant_digest(variant, self.ruling_overrides)

    def _choose_rules(self) -> None:
        """The variant's rule modes, read once: the turn and the round read these fields, not the modes."""
        v = self.variant
        self.draws_until_playable = v.no_playable is NoPlayable.DRAW_UNTIL_PLAYABLE
        self.offers_drawn = v.drawn_card is not DrawnCard.FORBIDDEN
        self.first_out_ends = v.round_ends is RoundEnds.FIRST_OUT
        self.team_out_ends = v.round_ends is RoundEnds.TEAM_OUT
        self.stack_answers = self.stack_table(v.stacking)

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
