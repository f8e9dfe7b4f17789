"""The generic engine: a compiled variant (`Game`) and its state machine (`State`).

No card or variant name appears here: cards are small integers indexing tables,
and what a card does is a compiled op list (see effects.py). Every choice a
person makes is a decision point; an effect that needs a decision pauses with
its progress stored as data in `State.frames`.
"""

from __future__ import annotations

import hashlib
import json
import operator
import os
import random
from collections import Counter
from functools import partial

from ..effects import layout as D
from ..effects.layout import F_SELF
from ..diagnostics import Diagnostic
from ..model.variant import Variant
from ..effects.layout import DRAWS, PAUSES, PUSHES, RESHAPES
from .program import compile_effects

# Rulings the engine itself reads by name (documented in docs/language.md); `check` knows they are used.
ENGINE_RULINGS = ("jump_in_during_stack", "target_tie_plays_another_round")
# The work one turn may do: effect ops, and every card an op moves in bulk (a redeal, a rotation,
# a draw), over all the decisions taken inside the turn. A turn past it ends the round as a stall.
MAX_STEPS_PER_TURN = 100_000
MAX_FRAMES = 64                # effect frames open at once; an effect nested deeper ends the round as a stall

# The mode a Game gets when none is asked for: the fast one, unless UNODSL_FAST=0 (the whole test
# suite can then run in the reference mode).
FAST_BY_DEFAULT = os.environ.get("UNODSL_FAST", "1") != "0"

# What follows once a resolution has settled (who is out, whether the round is over): `State.then`.
END_TURN, OFFER_DRAWN, WINDOWS = "end_turn", "offer_drawn", "windows"


def shuffle(cards: list, rng: random.Random) -> None:
    """Shuffle in place: sort by one uniform random key per card.

    A uniformly random permutation (keys tie with probability ~n**2 / 2**54), at a
    third of the cost of `random.shuffle`, which draws each index through Python code.
    The key function is all C: `next(keys, card)` takes the next `rng.random()` from
    an endless iterator (the card is only next's unused default), in card order as a
    `lambda _: rng.random()` would, without a Python frame per card (-20%).
    """
    cards.sort(key=partial(next, iter(rng.random, None)))


# Comprehensions over a method's locals live in these helpers: in the method itself (CPython 3.11)
# they would make those locals cells, which every call of the method creates first, needed or not.

def _one_card(seats, hands) -> list[int]:
    """The seats of `seats` left with exactly one card."""
    return [p for p in seats if len(hands[p]) == 1]


def _with_cards(seats, hands) -> list[int]:
    """The seats of `seats` that hold cards."""
    return [p for p in seats if hands[p]]


def _teams_in_play(team, hands, eliminated) -> int:
    """How many teams (by the team table `team`) have a player in the round: cards and not eliminated."""
    return len({t for t, hand, out in zip(team, hands, eliminated) if hand and not out})


def _finished_team(team, hands, eliminated, count: int) -> int:
    """The first team (0 to count - 1) whose players still in the game all hold no cards, or -1.

    Team t's lowest seat is t. A team whose players are all eliminated is not finished.
    """
    for t in range(count):
        members = [q for q, tq in enumerate(team) if tq == t and not eliminated[q]]
        if members and not any(hands[q] for q in members):
            return t
    return -1


def _not_eliminated(seats, eliminated) -> tuple[int, ...]:
    """The seats of `seats` still in the game."""
    return tuple([p for p in seats if not eliminated[p]])


def _team_table(players: int, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(team index of each seat, partner of each seat or -1) at a table of `players`, teams of `size`."""
    count = players // size if size > 1 else players
    team = tuple(p % count for p in range(players))
    partner = tuple((p + count) % players if size == 2 else -1 for p in range(players))
    return team, partner


def _seat_orders(players: int) -> tuple:
    """Every seat order at a table of `players`: [direction][include self][seat] -> a tuple of seats.

    Index 1 is the direction of play +1 and index -1 (the last) is -1; players_from reads it.
    """
    return (None, *(tuple(tuple(tuple((p + i * d) % players for i in range(0 if include else 1, players))
                                for p in range(players)) for include in (False, True))
                    for d in (1, -1)))


class IllegalAction(Exception):
    """An action that is not legal in this state; the state is unchanged."""

    def __init__(self, action, reason: str):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class InvalidState(Exception):
    """A saved state that cannot be loaded (tampered, truncated, for another variant)."""


# ---------------------------------------------------------------------------
# The compiled variant


class Game:
    """A variant compiled once: card tables, action space and effect code.

    `fast=False` is the reference mode: every rule runs through its one general
    implementation, State's. The fast paths (a turn's inline legal actions and draw, plain
    cards, straight effects run without a frame, guarded draw events, the rollout's counted
    decisions) are FastState's methods, and the fused hand-size tests the effect compiler's;
    the test suite plays the same games both ways and requires them identical.
    """

    # Slots for the same reason as State's: the engine reads these tables on every turn.
    __slots__ = ("variant", "ruling_overrides", "diagnostics", "codes", "type_ids", "card_names",
                 "card_index", "k_color", "k_number", "k_wild", "k_points", "k_draw", "k_type",
                 "k_type_id", "k_category", "deck", "num_kinds", "playable_after", "A_PLAY",
                 "A_PLAY_UNO", "A_DRAW", "A_KEEP", "A_PASS", "A_CHALLENGE", "A_ACCEPT",
                 "A_UNO", "A_DONE", "A_COLOR", "A_TARGET", "max_players", "team_tables", "no_skips", "turn_of",
                 "A_CATCH", "A_GIVE", "A_TRADE", "num_actions", "fixed_actions", "on_play", "on_start", "restriction",
                 "strict", "resolve_last", "on_deal", "orders", "stacking", "deck_size", "after_draw_guard",
                 "on_player_out", "after_draw", "may_draw_if", "may_draw_next_answers", "may_always_draw", "seat_frames", "strict_kinds",
                 "jump_in", "max_turns", "plain_turns", "may_keep_drawn", "uno_enabled", "simple_draw", "plain",
                 "straight", "stack_types", "rulings_used", "digest", "fast", "state_class", "code_locals")

    def __init__(self, variant: Variant, rulings: dict | None = None, fast: bool | None = None):
        self.variant = variant
        self.fast = fast = FAST_BY_DEFAULT if fast is None else fast
        self.state_class = FastState if fast else State       # the reference mode plays plain States
        self.ruling_overrides = dict(rulings or {})
        self.diagnostics: list[Diagnostic] = []
        self.codes: list = []
        self.code_locals: list = []           # per code: what each of its locals holds (effects.SEATS, a type)
        self._build_cards()
        self._build_actions()
        self._compile()
        self.digest = variant_digest(variant, self.ruling_overrides)

    # --- tables

    def _build_cards(self) -> None:
        v = self.variant
        self.type_ids = list(v.cards)
        names: list[str] = []
        color, number, face, wild, points, draw, ktype, type_id, category = ([] for _ in range(9))
        faces: dict = {}
        deck: list[int] = []
        for t_index, (tid, ct) in enumerate(v.cards.items()):
            for color_name, by_number in ct.copies.items():
                for num, copies in by_number.items():
                    if num is None:
                        name = f"{color_name}_{tid}" if color_name else tid
                        face_key = ("type", tid)
                    else:
                        name = f"{color_name}_{num}{ct.label}" if color_name else f"{tid}_{num}"
                        face_key = ("number", num)
                    if name in names:
                        node = ct.node
                        line, column = ((node.key_line or node.line, node.key_column or node.column)
                                        if node else (1, 1))
                        self.diagnostics.append(Diagnostic(node.path if node else v.path, line, column, "E316",
                                                           f"card id '{name}' is produced by two card types"))
                        continue
                    k = len(names)
                    names.append(name)
                    color.append(v.colors.index(color_name) if color_name else -1)
                    number.append(num if num is not None else -1)
                    face.append(faces.setdefault(face_key, len(faces)))
                    wild.append(ct.wild)
                    points.append(ct.points if ct.points is not None else (num or 0))
                    draw.append(ct.draw)
                    ktype.append(t_index)
                    type_id.append(tid)
                    category.append(ct.kind)
                    deck.extend([k] * copies)
        self.card_names = names
        self.card_index = {n: i for i, n in enumerate(names)}
        self.k_color, self.k_number, self.k_wild = color, number, wild
        self.k_points, self.k_draw, self.k_type, self.k_type_id, self.k_category = points, draw, ktype, type_id, category
        self.deck = tuple(deck)
        self.num_kinds = len(names)
        # playable_after[color + 1][top card] -> the kinds that may follow that card, as a set (a hand's
        # playable kinds are then one C-level intersection), or None when every kind may. Color -1 means
        # "no color named yet": anything goes.
        by_face = []
        for c in range(-1, len(v.colors)):
            row = []
            for f in range(len(faces)):
                ok = frozenset(k for k in range(len(names)) if c < 0 or wild[k] or color[k] == c or face[k] == f)
                row.append(None if len(ok) == len(names) else ok)
            by_face.append(row)
        self.playable_after = [[row[face[k]] for k in range(len(names))] for row in by_face]

    def _build_actions(self) -> None:
        k = self.num_kinds
        self.A_PLAY, self.A_PLAY_UNO = 0, k
        self.A_DRAW, self.A_KEEP, self.A_PASS = 2 * k, 2 * k + 1, 2 * k + 2
        self.A_CHALLENGE, self.A_ACCEPT, self.A_UNO, self.A_DONE = 2 * k + 3, 2 * k + 4, 2 * k + 5, 2 * k + 6
        self.A_COLOR = 2 * k + 7
        self.A_TARGET = self.A_COLOR + len(self.variant.colors)
        self.max_players = self.variant.max_players
        self.turn_of = tuple((D.TURN, p) for p in range(self.max_players))   # pending turn decisions, made once
        # The decisions whose legal actions are always the same.
        self.fixed_actions = {D.COLOR: tuple(range(self.A_COLOR, self.A_TARGET)),
                              D.CHALLENGE: (self.A_CHALLENGE, self.A_ACCEPT), D.UNO: (self.A_UNO, self.A_PASS)}
        # Team tables, seat orders and empty skip rows by table size, read on the hot path without a
        # call; built by tables_for when a game at that size starts, never for a size not played.
        self.team_tables = [None] * (self.max_players + 1)
        self.orders = [None] * (self.max_players + 1)
        self.no_skips = [None] * (self.max_players + 1)
        self.A_CATCH = self.A_TARGET + self.max_players
        self.A_GIVE = self.A_CATCH + self.max_players
        self.A_TRADE = self.A_GIVE + k
        self.num_actions = self.A_TRADE + k * k

    def _compile(self) -> None:
        compile_effects(self, OPS, OP_FLAGS)

    def tables_for(self, players: int) -> None:
        """Build the team table, seat orders and empty skip row of a table of `players`, once."""
        if self.orders[players] is None:
            self.team_tables[players] = _team_table(players, self.variant.team_size)
            self.orders[players] = _seat_orders(players)
            # `skip == no_skips[n]` (nobody to be skipped) is 3x faster than any().
            self.no_skips[players] = [0] * players

    def orders_for(self, players: int) -> tuple:
        """Every seat order at a table of `players` (see _seat_orders)."""
        self.tables_for(players)
        return self.orders[players]

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

    # --- actions as strings

    def action_to_string(self, action: int) -> str:
        """Return the short, stable string of an action id."""
        k = self.num_kinds
        names = self.card_names
        if action < k:
            return f"play {names[action]}"
        if action < 2 * k:
            return f"play {names[action - k]} uno"
        fixed = {self.A_DRAW: "draw", self.A_KEEP: "keep", self.A_PASS: "pass", self.A_CHALLENGE: "challenge",
                 self.A_ACCEPT: "accept", self.A_UNO: "uno", self.A_DONE: "done"}
        if action in fixed:
            return fixed[action]
        if action < self.A_TARGET:
            return f"color {self.variant.colors[action - self.A_COLOR]}"
        if action < self.A_CATCH:
            return f"target {action - self.A_TARGET}"
        if action < self.A_GIVE:
            return f"catch {action - self.A_CATCH}"
        if action < self.A_TRADE:
            return f"give {names[action - self.A_GIVE]}"
        mine, theirs = divmod(action - self.A_TRADE, k)
        return f"trade {names[mine]} {names[theirs]}"

    def action_from_string(self, text: str) -> int:
        """Parse an action string; raises IllegalAction if it names nothing."""
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction(text, "empty action")
        verb, args = words[0], words[1:]
        simple = {"draw": self.A_DRAW, "keep": self.A_KEEP, "pass": self.A_PASS, "challenge": self.A_CHALLENGE,
                  "accept": self.A_ACCEPT, "uno": self.A_UNO, "done": self.A_DONE}
        if verb in simple and not args:
            return simple[verb]
        if verb == "play" and args and len(args) <= 2 and args[0] in self.card_index:
            if len(args) == 1:
                return self.card_index[args[0]]
            if args[1] == "uno":
                return self.num_kinds + self.card_index[args[0]]
        if verb == "color" and len(args) == 1 and args[0] in self.variant.colors:
            return self.A_COLOR + self.variant.colors.index(args[0])
        if verb in ("target", "catch") and len(args) == 1 and args[0].isdigit() and int(args[0]) < self.max_players:
            return (self.A_TARGET if verb == "target" else self.A_CATCH) + int(args[0])
        if verb == "give" and len(args) == 1 and args[0] in self.card_index:
            return self.A_GIVE + self.card_index[args[0]]
        if verb == "trade" and len(args) == 2 and all(a in self.card_index for a in args):
            return self.A_TRADE + self.card_index[args[0]] * self.num_kinds + self.card_index[args[1]]
        raise IllegalAction(text, "not an action of this variant")

    # --- games

    def check_players(self, players: int) -> None:
        """Raise ValueError, saying what is allowed, if the variant is not played by `players`."""
        v = self.variant
        allowed = v.allowed_players or range(v.min_players, v.max_players + 1)
        if players not in allowed:
            raise ValueError(f"{v.name} is played by {_describe_players(v)} players, not {players}")

    def new_game(self, players: int, seed: int | None = None, match: bool = False, record: bool = False) -> "State":
        """Start a game (one round, or a match to the target score) with its own seeded RNG."""
        self.check_players(players)
        if seed is None:
            seed = random.randrange(2**63)
        state = self.state_class(self, players, seed, match, record)
        state._new_round(first=True)
        return state


    def position(self, hands: list, draw_pile: list, discard: list, *, dealer: int, turn: int | None = None,
                 direction: int = 1, color: str | int | None = None, scores: list | None = None,
                 uno_called=(), match: bool = False, seed: int = 0, rng: random.Random | None = None,
                 start: bool = False, record: bool = False) -> "State":
        """A game set up at a given position instead of dealt: what scenarios, tests and tools build.

        `hands` holds one list of cards per seat, `draw_pile` the draw pile from the top down,
        `discard` the discard pile from the bottom up (its last card is the top card); cards are
        ids or kinds, and together they must be exactly the deck. With `start`, the round begins
        as a dealt one does (the deal's effect, then the top card's start effect, then the seat
        after the dealer); else `turn` (default: the seat after the dealer) is to play. `color`
        defaults to the top card's. The game draws from `rng` if given, else from a generator
        seeded with `seed`. Raises ValueError saying what is wrong.
        """
        n = len(hands)
        self.check_players(n)

        def kinds(cards, where: str) -> list[int]:
            out = []
            for c in cards:
                k = self.card_index.get(c) if isinstance(c, str) else c
                if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < self.num_kinds:
                    raise ValueError(f"unknown card {c!r} in {where}")
                out.append(k)
            return out

        hand_kinds = [kinds(h, f"hand {i}") for i, h in enumerate(hands)]
        pile = kinds(draw_pile, "the draw pile")
        below = kinds(discard, "the discard pile")
        if not below:
            raise ValueError("the discard pile needs a top card")
        held = Counter(k for zone in hand_kinds + [pile, below] for k in zone)
        deck = Counter(self.deck)
        if held != deck:
            extra, short = held - deck, deck - held
            wrong = self.card_names[next(iter(extra or short))]
            raise ValueError(f"card {wrong} is placed more often than the deck holds" if extra
                             else f"card {wrong} is not placed")
        for name, seat in (("dealer", dealer), ("turn", turn)):
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
                raise ValueError(f"{name} seat {seat!r} does not exist with {n} players")
        if direction not in (1, -1):
            raise ValueError("direction must be 1 or -1")
        state = self.state_class(self, n, seed, match, record)
        if rng is not None:
            state.rng = rng
        state.round = 1
        state.dealer = dealer
        state.hands = hand_kinds
        state.draw_pile = pile[::-1]                # the engine draws from the end of the list
        state.discard = below
        state.direction = direction
        if color is None:
            state.color = self.k_color[below[-1]]
        elif isinstance(color, str):
            if color not in self.variant.colors:
                raise ValueError(f"unknown color {color!r}")
            state.color = self.variant.colors.index(color)
        else:
            state.color = color
        if scores is not None:
            if len(scores) != n:
                raise ValueError(f"{len(scores)} scores for {n} players")
            state.scores = list(scores)
        state.reset_round_fields()
        for seat in uno_called:
            state.uno_called[seat] = True
        if start:
            state._start_round()
        else:
            first = (dealer + direction) % n if turn is None else turn
            state.current = first
            state.turns = state.total_turns = 1
            state.after = AFTER_PLAY
            state.pending = (D.TURN, first)
        return state


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


# ---------------------------------------------------------------------------
# The state machine

AFTER_SETUP, AFTER_PLAY, AFTER_DRAW, AFTER_OUTS, AFTER_WINDOW = "setup", "play", "draw", "outs", "window"


class State:
    """One game in progress: zones, turn, pending decision and effect frames."""

    # Slots, not a __dict__: with this many fields an instance dict stops sharing its keys,
    # and every attribute access on the hot path becomes a dict lookup.
    __slots__ = ("g", "n", "seed", "match", "rng", "scores", "round", "dealer", "over", "winner", "round_winner",
                 "stalled", "total_turns", "reshuffles", "log", "history", "hands", "draw_pile", "discard", "color",
                 "direction", "current", "skip", "stack", "stack_victim", "lock_color", "lock_owner", "next_exact",
                 "turn_from", "frames", "pending", "limbo", "vulnerable", "uno_called", "uno_askers", "eliminated",
                 "out", "revealed", "turns", "next_player", "played_by", "flips", "drawn_this_turn", "window",
                 "window_kind", "after", "then", "steps")

    def __init__(self, game: Game, players: int, seed: int, match: bool, record: bool):
        game.tables_for(players)
        self.g = game
        self.n = players
        self.seed = seed
        self.match = match
        self.rng = random.Random(seed)
        self.scores = [0] * players
        self.round = 0
        self.dealer = -1
        self.over = False
        self.winner: int | None = None
        self.round_winner: int | None = None
        self.stalled = False
        self.total_turns = 0
        self.reshuffles = 0
        self.log: list[str] | None = [] if record else None
        self.history: list[int] = []

    # --- public API -------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat that must act now (-1 when the game is over)."""
        return -1 if self.over else self.pending[1]

    @property
    def is_over(self) -> bool:
        """True when the game (or match) has ended."""
        return self.over

    @property
    def decision(self) -> str:
        """The kind of decision pending (see decisions.py)."""
        return "" if self.over else self.pending[0]

    def legal_actions(self) -> list[str]:
        """The legal actions of the current player, as strings."""
        to_str = self.g.action_to_string
        return [to_str(a) for a in self.legal_action_ids()]

    def apply(self, action: str | int) -> None:
        """Apply an action (string or id); raises IllegalAction and leaves the state unchanged."""
        if isinstance(action, str):
            action_id = self.g.action_from_string(action)
        else:
            action_id = action
        if self.over:
            raise IllegalAction(action, "the game is over")
        legal = self.legal_action_ids()
        if action_id not in legal:
            raise IllegalAction(action, self._why_illegal(action_id))
        self.apply_id(action_id)

    def legal_action_ids(self) -> list[int]:
        """The legal actions of the current player, as integer ids: sorted, but a final `pass` or `done` last."""
        if self.over:
            return []
        return _LEGAL[self.pending[0]](self)

    def apply_id(self, action: int) -> None:
        """Apply a legal action id without re-checking legality (the bot fast path)."""
        if self.log is not None:
            self.log.append(f"p{self.pending[1]}: {self.g.action_to_string(action)}")
        self.history.append(action)
        kind, p = self.pending[0], self.pending[1]
        if kind != D.TURN:
            _APPLY[kind](self, action)
            return
        # A turn, as in legal_action_ids: a play, or a draw.
        self.pending = None
        g = self.g
        if action == g.A_DRAW:
            self._turn_draw(p)
        else:
            k = g.num_kinds
            self._play(p, action % k, action >= k)

    def play_out(self, rand=None) -> None:
        """Play uniformly random decisions until the game is over (a random rollout).

        At each decision it plays `legal_action_ids()[int(rand() * n)]`, n the number of
        legal actions: exactly the game that `RandomBot`s drawing from `rand` would play.
        `rand` defaults to the game's own generator.
        """
        rand = rand or self.rng.random
        while not self.over:
            actions = self.legal_action_ids()
            self.apply_id(actions[int(rand() * len(actions))])

    @property
    def top_card(self) -> str:
        return self.g.card_names[self.discard[-1]] if self.discard else ""

    @property
    def current_color(self) -> str | None:
        return self.g.variant.colors[self.color] if self.color >= 0 else None

    def hand(self, player: int) -> list[str]:
        """The cards of a player's hand, as ids (sorted for display)."""
        names = self.g.card_names
        return sorted(names[k] for k in self.hands[player])

    def observation(self, player: int) -> dict:
        """What `player` may know: own hand, others' hand sizes, public piles, what was shown to them."""
        g = self.g
        names = g.card_names
        obs = {
            "player": player,
            "hand": self.hand(player),
            "hand_sizes": [len(h) for h in self.hands],
            "top": self.top_card,
            "color": self.current_color,
            "direction": self.direction,
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard),
            "discard": sorted(names[k] for k in self.discard),      # face up: every card on it is public
            "current_player": self.current_player,
            "decision": self.decision,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "stack": self.stack,
            "lock": (g.variant.colors[self.lock_color] if self.lock_owner >= 0 else None),
            "uno_called": list(self.uno_called),
            "eliminated": list(self.eliminated),
            "revealed": {str(q): sorted(names[k] for k in cards)
                         for q, cards in self.revealed.get(player, {}).items()},
            "turn": self.turns,
            "round": self.round,
            "over": self.over,
            "winner": self.winner,
        }
        if self.current_player == player:
            obs["legal_actions"] = self.legal_actions()
        if self.pending and self.pending[0] == D.DRAWN and self.pending[1] == player:
            obs["drawn"] = names[self.pending[2]]
        return obs

    def clone(self) -> "State":
        """An independent copy that continues identically."""
        new = type(self).__new__(type(self))
        for key in State.__slots__:
            if not hasattr(self, key):
                continue
            value = getattr(self, key)
            if key == "g":
                pass
            elif key == "rng":
                value = random.Random()
                value.setstate(self.rng.getstate())
            elif isinstance(value, list):
                value = _deep_list(value)
            elif isinstance(value, dict):
                value = {k: (list(v) if isinstance(v, list) else
                             {kk: list(vv) for kk, vv in v.items()} if isinstance(v, dict) else v)
                         for k, v in value.items()}
            setattr(new, key, value)
        return new

    # --- serialization

    _FIELDS = ("n", "seed", "match", "scores", "round", "dealer", "over", "winner", "round_winner", "stalled",
               "total_turns", "reshuffles", "history", "hands", "draw_pile", "discard", "color", "direction",
               "current", "skip", "stack", "stack_victim", "lock_color", "lock_owner", "next_exact", "turn_from",
               "frames", "pending", "after", "limbo", "vulnerable", "uno_called", "uno_askers", "eliminated",
               "out", "turns", "next_player", "played_by", "flips", "drawn_this_turn", "window", "window_kind",
               "then", "steps")

    def to_json(self) -> str:
        """Serialize the whole state, RNG included, as JSON text."""
        data = {f: getattr(self, f) for f in self._FIELDS}
        # `after` says how to go on once the open effects finish, and `then` how to go on after the
        # player-out events: read only while they are open (each is set before such effects run), so
        # otherwise a saved state holds their defaults.
        if not self.frames:
            data["after"] = AFTER_SETUP
        if not self.frames or self.after != AFTER_OUTS:
            data["then"] = END_TURN
        names = self.g.card_names
        data["hands"] = [[names[k] for k in h] for h in self.hands]
        data["draw_pile"] = [names[k] for k in self.draw_pile]
        data["discard"] = [names[k] for k in self.discard]
        data["limbo"] = [[names[k] for k in h] for h in self.limbo]
        data["revealed"] = {str(p): {str(q): [names[k] for k in c] for q, c in seen.items()}
                            for p, seen in self.revealed.items()}
        data["rng"] = _rng_to_json(self.rng)
        data["variant"] = self.g.digest
        data["format"] = "unodsl-state/1"
        return json.dumps(data)

    @classmethod
    def from_json(cls, game: Game, text: str) -> "State":
        """Load a state saved by to_json; raises InvalidState naming what is wrong."""
        from .savefile import load_state
        return load_state(cls, game, text)

    # --- helpers used by effects --------------------------------------------

    def in_play(self, p: int) -> bool:
        return not self.eliminated[p] and bool(self.hands[p])

    def active_count(self) -> int:
        if all(self.hands) and True not in self.eliminated:
            return self.n                                   # the common case: everyone plays
        return sum(1 for hand, out in zip(self.hands, self.eliminated) if hand and not out)

    def hand_of(self, p: int) -> list[int]:
        return self.hands[p] if p >= 0 else []

    def hand_size(self, p: int) -> int:
        return len(self.hands[p]) if p >= 0 else 0

    def hand_points(self, p: int) -> int:
        return sum(map(self.g.k_points.__getitem__, self.hands[p])) if p >= 0 else 0

    def is_out(self, p: int) -> bool:
        return p >= 0 and (self.eliminated[p] or not self.hands[p])

    def next_of(self, p: int) -> int:
        """The next seat after p in the direction of play that is still in the round."""
        if p < 0:
            return -1
        seat = (p + self.direction) % self.n          # not p: there are at least two seats
        if self.hands[seat] and not self.eliminated[seat]:
            return seat                               # the common case: the neighbour plays on
        n, d, hands, eliminated = self.n, self.direction, self.hands, self.eliminated
        for _ in range(n - 1):
            seat = (seat + d) % n
            if seat != p and hands[seat] and not eliminated[seat]:
                return seat
        return -1

    def seat_after(self, p: int) -> int:
        """The seat after p in the direction of play, whether or not its player is still in the round."""
        return (p + self.direction) % self.n if p >= 0 else -1

    def previous_of(self, p: int) -> int:
        if p < 0:
            return -1
        n, d, hands, eliminated = self.n, self.direction, self.hands, self.eliminated
        seat = p
        for _ in range(n):
            seat = (seat - d) % n
            if seat != p and hands[seat] and not eliminated[seat]:
                return seat
        return -1

    def team_index(self, p: int) -> int:
        return self.g.team_tables[self.n][0][p]

    def same_team(self, a: int, b: int) -> bool:
        team = self.g.team_tables[self.n][0]
        return a >= 0 and b >= 0 and team[a] == team[b]

    def team_members(self, p: int) -> list[int]:
        if p < 0:
            return []
        return [q for q in self.players_from(p, True) if self.same_team(p, q)]

    def partner_of(self, p: int) -> int:
        if p < 0:
            return -1
        partner = self.g.team_tables[self.n][1][p]
        if partner >= 0:                              # teams of two: the other member
            return -1 if self.eliminated[partner] else partner
        for q in self.players_from(p, False):
            if self.same_team(p, q):
                return q
        return -1

    def team_leads(self) -> list[int]:
        size = self.g.variant.team_size
        return list(range(self.n // size)) if size > 1 else list(range(self.n))

    def players_from(self, p: int, include: bool) -> tuple[int, ...]:
        """Seats in turn order starting at p (or after p), not eliminated."""
        if p < 0:
            return ()
        order = self.g.orders[self.n][self.direction][include][p]
        if True in self.eliminated:
            return _not_eliminated(order, self.eliminated)
        return order

    def extreme_hand(self, p: int, most: bool) -> int:
        best, best_size = -1, None
        for q in self.players_from(p, True):
            size = len(self.hands[q])
            if best_size is None or (size > best_size if most else size < best_size):
                best, best_size = q, size
        return best

    def holds_playable(self, p: int) -> bool:
        return p >= 0 and bool(self._playable_kinds(p))

    # --- effect operations (called by compiled ops) ---------------------------
    # An eliminated player holds no cards and decides nothing: ops that would hand them cards or a
    # decision do nothing for them (docs/language.md, "Eliminated players").

    def op_draw(self, p: int, n: int) -> None:
        if p >= 0 and n > 0 and not self.eliminated[p]:
            g = self.g
            self.steps += self._draw(p, n if n <= g.deck_size else g.deck_size)
            if g.after_draw >= 0:                   # _after_draw_event, without the call when there is none
                self._after_draw_event(p)

    def op_draw_to(self, p: int, n: int) -> None:
        if p >= 0:
            self.op_draw(p, n - len(self.hands[p]))

    def op_draw_until_playable(self, p: int) -> None:
        if p < 0 or self.eliminated[p]:
            return
        drawn_any = False
        for _ in range(len(self.g.deck)):
            k = self._draw_one()
            if k < 0:
                break
            self.hands[p].append(k)
            self.steps += 1
            drawn_any = True
            if self._is_playable(p, k):
                break
        if drawn_any:
            self.uno_called[p] = False
            self._after_draw_event(p)

    def op_penalty(self, p: int, n: int) -> None:
        """Draw n and lose the turn, or, with stacking, pass the growing stack on."""
        if p < 0 or self.eliminated[p]:
            return
        if self.g.stacking and self._stack_answers(p):
            self.stack += n
            self.stack_victim = p
            self.next_exact = p
            return
        total = n + self.stack
        self.stack = 0
        self.stack_victim = -1
        self.op_draw(p, total)
        self.skip[p] += 1

    def op_skip(self, p: int) -> None:
        if p >= 0:
            self.skip[p] += 1

    def op_skip_next(self, p: int, n: int) -> None:
        """Skip the next n players after p, never the same player twice and never p."""
        seat = p
        if all(self.hands) and True not in self.eliminated:      # active_count's common case, without the call
            active = self.n
        else:
            active = self.active_count()
        for _ in range(n if n < active else active - 1):
            seat = self.next_of(seat)
            if seat < 0 or seat == p:
                break
            self.skip[seat] += 1

    def op_reverse(self) -> None:
        self.direction = -self.direction

    def op_choose_color(self, p: int) -> int:
        if p < 0 or self.eliminated[p]:
            return 0
        self.pending = (D.COLOR, p)
        return D.PAUSE

    def op_set_color(self, c: int) -> None:
        if c >= 0:
            self.color = c

    def op_choose_player(self, fr: list, slot: int, group: list[int]) -> int:
        eliminated = self.eliminated
        chooser = fr[F_SELF]
        if chooser >= 0 and eliminated[chooser]:
            fr[slot] = -1                   # an eliminated player chooses nobody
            return 0
        if True in eliminated:
            candidates = _not_eliminated(group, eliminated)
        else:
            candidates = group              # nobody is eliminated: every seat of the group may be chosen
        if not candidates:
            fr[slot] = -1
            return 0
        if len(candidates) == 1:
            fr[slot] = candidates[0]
            return 0
        self.pending = (D.TARGET, chooser, slot, tuple(sorted(candidates)))
        return D.PAUSE

    def op_swap_hands(self, a: int, b: int) -> None:
        if a >= 0 and b >= 0 and a != b and not self.eliminated[a] and not self.eliminated[b]:
            self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
            self._hand_changed(a)
            self._hand_changed(b)

    def op_rotate_hands(self) -> None:
        """Every hand passes to the next player in the direction of play."""
        seats = [q for q in range(self.n) if not self.eliminated[q]]
        old = [self.hands[q] for q in seats]
        for i, hand in enumerate(old):
            self.hands[seats[(i + self.direction) % len(seats)]] = hand
        self.steps += len(seats)
        for q in seats:
            self._hand_changed(q)

    def op_give(self, giver: int, n: int, taker: int) -> int:
        if giver < 0 or taker < 0 or giver == taker or self.eliminated[taker]:
            return 0
        n = min(n, len(self.hands[giver]))
        if n <= 0:
            return 0
        self.pending = (D.GIVE, giver, n, taker)
        return D.PAUSE

    def op_exchange_pick(self, p: int, other: int, n: int, slot: int) -> int:
        if p < 0 or other < 0 or p == other or self.eliminated[p] or self.eliminated[other]:
            return 0
        n = min(n, len(self.hands[p]))
        if n <= 0:
            return 0
        self.pending = (D.GIVE, p, n, -1 - slot)
        return D.PAUSE

    def op_exchange_finish(self, a: int, b: int) -> None:
        """The picked cards cross: a's go to b and b's to a (both seats read once, before the picks)."""
        first, second = self.limbo
        self.limbo = [[], []]
        if not first and not second:
            return                                    # nothing crossed: no hand changed
        self.hands[a].extend(second)
        self.hands[b].extend(first)
        self._hand_changed(a)
        self._hand_changed(b)

    def op_look(self, viewer: int, target: int) -> None:
        if viewer >= 0 and target >= 0 and viewer != target:
            self.revealed.setdefault(viewer, {})[target] = list(self.hands[target])

    def op_trade(self, p: int, other: int) -> int:
        if p < 0 or other < 0 or p == other or not self.hands[p] or not self.hands[other]:
            return 0
        self.pending = (D.TRADE, p, other, min(len(self.hands[p]), len(self.hands[other])))
        return D.PAUSE

    def op_discard_color(self, p: int, c: int) -> None:
        if p < 0 or c < 0:
            return
        k_color = self.g.k_color
        keep = [k for k in self.hands[p] if k_color[k] != c]
        gone = [k for k in self.hands[p] if k_color[k] == c]
        self.steps += len(gone)
        self.hands[p] = keep
        top = self.discard.pop()
        self.discard.extend(gone)
        self.discard.append(top)
        self._hand_changed(p)

    def op_redeal(self, p: int) -> None:
        """Gather every hand, shuffle, and deal them out one at a time from the player after p."""
        seats = [q for q in (*self.players_from(p, False), p) if not self.eliminated[q]]
        pool = [k for q in seats for k in self.hands[q]]
        self.steps += len(pool)
        shuffle(pool, self.rng)
        for q in seats:
            self.hands[q] = []
        for i, k in enumerate(pool):
            self.hands[seats[i % len(seats)]].append(k)
        for q in seats:
            self._hand_changed(q)

    def op_turn_to(self, p: int) -> None:
        if p >= 0:
            self.next_exact = p

    def op_eliminate(self, p: int) -> None:
        if p < 0 or self.eliminated[p]:
            return
        self.eliminated[p] = True
        self.draw_pile[0:0] = self.hands[p]
        self.hands[p] = []

    def op_lock(self, c: int, owner: int) -> None:
        if c >= 0 and owner >= 0:
            self.lock_color, self.lock_owner = c, owner

    def op_must_play(self, p: int, c: int, else_pc: int, end_pc: int) -> int:
        if p < 0:
            return else_pc
        self.turn_from = p
        if self.in_play(p) and c >= 0 and any(self.g.k_color[k] == c for k in self.hands[p]):
            self.pending = (D.FORCED, p, c)
            return D.PAUSE
        return else_pc

    def op_challenge(self, fr: list, victim: int, pc: int, targets: tuple) -> int:
        guilty, innocent, accepted = targets
        if victim < 0 or self.eliminated[victim] or (self.stack and not self.g.variant.stack_challenge):
            return pc + accepted
        fr[D.F_PC] = pc
        self.pending = (D.CHALLENGE, victim, pc + guilty, pc + innocent, pc + accepted)
        return D.PAUSE

    def op_flip_again(self, fr: list, put_back: bool) -> int:
        """Turn up another start card: the old one stays buried, or goes back into the deck."""
        fr[D.F_PC] = len(self.g.codes[fr[D.F_CODE]][0])
        self.flips += 1
        if self.flips > len(self.g.deck) or not self.draw_pile:
            return fr[D.F_PC]                       # nothing left to flip: keep this starter
        if put_back:
            old = self.discard.pop()
            self.draw_pile.append(old)
            shuffle(self.draw_pile, self.rng)
        k = self.draw_pile.pop()
        self.discard.append(k)
        self.color = self.g.k_color[k]
        code = self.g.on_start[self.g.k_type[k]]
        if code >= 0:
            self._push(code, fr[D.F_SELF], k, True, False)
        return fr[D.F_PC]

    # --- internals: cards -----------------------------------------------------

    def _draw_one(self) -> int:
        pile = self.draw_pile
        if not pile:
            if len(self.discard) <= 1:
                return -1                           # both piles empty: draw nothing (ruling 1.12)
            top = self.discard.pop()
            pile = self.discard
            shuffle(pile, self.rng)
            self.draw_pile = pile
            self.discard = [top]
            self.reshuffles += 1
        return pile.pop()

    def _draw(self, p: int, n: int) -> int:
        hand = self.hands[p]
        pile = self.draw_pile
        if 0 < n <= len(pile):                    # the common case: no reshuffle on the way
            hand += pile[:-n - 1:-1]              # the top n, in the order pop() takes them
            del pile[-n:]
            self.uno_called[p] = False
            return n
        got = 0
        for _ in range(n):
            k = self._draw_one()
            if k < 0:
                break
            hand.append(k)
            got += 1
        if got:
            self.uno_called[p] = False
        return got

    def _after_draw_event(self, p: int) -> None:
        """Push the after-draw event for p (the caller runs it).

        Fast path (Game.after_draw_guard, None in the reference mode): not pushed when the event's
        guard says it would do nothing. Its frame would run right after the op that drew, before
        anything a condition can read has changed (op_penalty adds a skip, _turn_draw notes the
        drawn card: neither is readable), so the guard gives the same answer here as at the top
        of the frame. A frame not pushed still counts the one step its test would have taken.
        """
        g = self.g
        code = g.after_draw
        if code >= 0:
            guard = g.after_draw_guard
            if guard is None or guard(self, g.seat_frames[p]):
                self._push(code, p, -1, True, False)
            else:
                self.steps += 1

    def _hand_changed(self, p: int) -> None:
        """A hand changed outside its owner's own play: they may need to call UNO."""
        if len(self.hands[p]) == 1:
            if not self.uno_called[p] and p not in self.uno_askers and self.g.variant.uno_enabled:
                self.uno_askers.append(p)
        else:
            self.uno_called[p] = False
            if p in self.uno_askers:                  # back above one card before being asked
                self.uno_askers.remove(p)

    def _is_playable(self, p: int, k: int) -> bool:
        """Whether p may play k now."""
        return k in self._playable_kinds(p, [k])

    def _playable_kinds(self, p: int, among=None) -> list[int]:
        """The distinct kinds in `among` (default p's hand) that p may play now."""
        g = self.g
        hand = self.hands[p] if among is None else among
        if self.lock_owner >= 0 and p != self.lock_owner:
            c = self.lock_color
            k_color, k_wild = g.k_color, g.k_wild
            allow_wild = g.variant.lock_allows_wild
            # Only the locked color; a wild only where the variant lets wilds through the lock.
            kinds = {k for k in hand if (k_color[k] == c and not k_wild[k]) or (allow_wild and k_wild[k])}
        else:
            ok = g.playable_after[self.color + 1][self.discard[-1]] if self.discard else None
            kinds = set(hand) if ok is None else set(hand) & ok
        if g.strict_kinds and kinds & g.strict_kinds:
            for k in list(kinds & g.strict_kinds):
                fr = [-1, 0, p, k, True, False]
                held = self.hands[p]
                at = held.index(k)
                del held[at]                       # judged as if k had left the hand, as at play time
                try:
                    honest = g.restriction[g.k_type[k]](self, fr)
                finally:
                    held.insert(at, k)
                if not honest:
                    kinds.discard(k)
        return sorted(kinds)

    def _stack_answers(self, p: int) -> list[int]:
        g = self.g
        mode = g.variant.stacking
        top = self.discard[-1]
        top_type, top_draw = g.k_type[top], g.k_draw[top]
        out = []
        for k in set(self.hands[p]):
            d = g.k_draw[k]
            if d <= 0 or (g.stack_types is not None and g.k_type[k] not in g.stack_types):
                continue
            t = g.k_type[k]
            if mode == "same_type":
                ok = t == top_type
            elif mode == "same_or_higher":
                ok = d >= top_draw
            elif mode == "plus4_on_plus2":
                ok = t == top_type or d > top_draw
            else:
                ok = True
            if ok:
                out.append(k)
        return sorted(out)

    # --- internals: the VM ----------------------------------------------------

    def _push(self, code: int, self_seat: int, card: int, honest: bool, jumped: bool) -> None:
        """Push a new frame for effect `code`, at its first op, its locals unset (layout in decisions.py)."""
        fr = [code, 0, self_seat, card, honest, jumped]
        nlocals = self.g.codes[code][1]
        if nlocals:
            fr += [None] * nlocals
        self.frames.append(fr)

    def _run(self) -> bool:
        """Run effect frames until they finish (True) or one pauses for a decision (False).

        The turn's budget (MAX_STEPS_PER_TURN, counted in `steps` across the turn's decisions) and
        the frame limit (MAX_FRAMES) bound every run: past either, the round ends as a stall.
        """
        frames = self.frames
        codes = self.g.codes
        steps = 0
        while frames:
            fr = frames[-1]
            ops = codes[fr[0]][0]
            pc = fr[1]
            n = len(ops)
            while pc < n:
                nxt = ops[pc](self, fr, pc)
                steps += 1
                if nxt < 0:
                    self.steps += steps
                    return False
                if nxt <= pc and self.steps + steps > MAX_STEPS_PER_TURN:
                    break                   # a loop past the turn's budget: stalled below
                pc = nxt
                if frames[-1] is not fr:
                    fr[1] = pc
                    break
            else:
                frames.pop()
            if self.steps + steps > MAX_STEPS_PER_TURN or len(frames) > MAX_FRAMES or self.over:
                frames.clear()
                self.steps += steps
                if not self.over:
                    self._end_round(None, stalled=True)
                return False                # the round is over: nothing of it goes on
        self.steps += steps
        return True

    def _resume(self) -> None:
        """Continue after a decision: finish the effects, then whatever comes after them (`after` says what)."""
        self.pending = None
        if not self._run() or self.over:
            return
        after = self.after
        if after == AFTER_PLAY:
            self._after_play()
        elif after == AFTER_DRAW:
            self._after_draw_action()
        elif after == AFTER_OUTS:
            self._after_outs(self.then)
        elif after == AFTER_WINDOW:
            self._settle(WINDOWS)
        else:
            self._after_setup()

    # --- internals: rounds and turns ------------------------------------------

    def _new_round(self, first: bool) -> None:
        g, n, rng = self.g, self.n, self.rng
        v = g.variant
        self.round += 1
        if first:
            if v.dealer == "high_card":
                self.dealer = self._high_card_dealer()
            elif v.dealer == "seat_0":
                self.dealer = 0
            else:
                self.dealer = rng.randrange(n)
        else:
            self.dealer = (self.dealer + 1) % n
        deck = list(g.deck)
        shuffle(deck, rng)
        # One card at a time from the top (the end of the list), starting left of the dealer.
        dealt = deck[:-v.hand_size * n - 1:-1] if v.hand_size else []
        del deck[len(deck) - len(dealt):]
        self.hands = [[] for _ in range(n)]
        for i in range(n):
            self.hands[(self.dealer + 1 + i) % n] = dealt[i::n]
        self.draw_pile = deck
        starter = deck.pop()
        self.discard = [starter]
        self.color = g.k_color[starter]
        self.direction = 1
        self.reset_round_fields()
        self._start_round()

    def _start_round(self) -> None:
        """The dealt round begins: the deal's effect (an opening pass), then the start card's, then play."""
        g = self.g
        starter = self.discard[-1]
        # Frames run last-pushed first.
        start = g.on_start[g.k_type[starter]]
        if start >= 0:
            self._push(start, self.dealer, starter, True, False)
        if g.on_deal >= 0:
            self._push(g.on_deal, self.dealer, -1, True, False)
        if self._run() and not self.over:
            self._after_setup()

    def reset_round_fields(self) -> None:
        """Clear what a round in progress carries: turn, effects, windows, skips, stack, lock, reveals."""
        n = self.n
        self.current = self.dealer
        self.skip = [0] * n
        self.stack = 0
        self.stack_victim = -1
        self.lock_color = -1
        self.lock_owner = -1
        self.next_exact = -1
        self.turn_from = -1
        self.frames = []
        self.pending = None
        self.limbo = [[], []]
        self.vulnerable = []
        self.uno_called = [False] * n
        self.uno_askers = []
        self.eliminated = [False] * n
        self.out = [not hand for hand in self.hands]
        self.revealed = {}
        self.turns = 0
        self.next_player = -1
        self.played_by = -1
        self.flips = 0
        self.drawn_this_turn = -1
        self.window = []
        self.window_kind = ""
        self.round_winner = None
        self.after = AFTER_SETUP
        self.then = END_TURN
        self.steps = 0

    def _high_card_dealer(self) -> int:
        """Each player turns a card; the highest number deals (symbols count 0); ties turn again."""
        g, rng = self.g, self.rng
        contenders = list(range(self.n))
        for _ in range(20):
            deck = list(g.deck)
            shuffle(deck, rng)
            values = {p: max(g.k_number[deck.pop()], 0) for p in contenders}
            best = max(values.values())
            contenders = [p for p in contenders if values[p] == best]
            if len(contenders) == 1:
                break
        return contenders[0]

    def _after_setup(self) -> None:
        """The round's set-up effects are done: settle like any resolution, then the first turn begins."""
        self.turn_from = self.dealer if self.turn_from < 0 else self.turn_from
        self._settle(END_TURN)

    def _end_turn(self) -> None:
        """The turn is over: the next player begins, after the UNO-call and catch windows if any are open."""
        self._next_turn(self._advance())

    def _next_turn(self, seat: int) -> None:
        """`seat` plays next: open the windows first if a player must call UNO or may be caught."""
        self.next_player = seat
        if self.vulnerable:
            self.vulnerable = _one_card(self.vulnerable, self.hands)
        if self.vulnerable or self.uno_askers:
            self._windows()
        else:
            self._begin_turn(seat)

    def _advance(self) -> int:
        """The seat that plays next: an exact hand-off, or the next seat in play not skipped."""
        n, d = self.n, self.direction
        skip = self.skip
        seat = self.next_exact
        if seat >= 0 and (self.eliminated[seat] or not self.hands[seat]):
            self.turn_from, seat = seat, -1     # a player not in play never acts: the turn goes on after them
        if seat >= 0:
            if seat == self.lock_owner:
                self.lock_owner = -1
        else:
            seat = self.turn_from if self.turn_from >= 0 else self.current
            hands, eliminated, lock_owner = self.hands, self.eliminated, self.lock_owner
            for _ in range(2 * n + 1):
                seat = (seat + d) % n
                if seat == lock_owner:
                    self.lock_owner = lock_owner = -1    # the lock ends when play reaches its owner (ruling 3.2)
                if eliminated[seat] or not hands[seat]:
                    continue
                if skip[seat]:
                    skip[seat] = 0
                    continue
                break
        self.next_exact = -1
        self.turn_from = -1
        if skip != self.g.no_skips[n]:
            skip[:] = [0] * n
        return seat

    def _windows(self) -> None:
        """Between turns: UNO calls for hands changed by effects, then the catch window."""
        if self.uno_askers:
            self.uno_askers = _one_card(self.uno_askers, self.hands)
        if self.uno_askers:
            self.pending = (D.UNO, self.uno_askers[0])
            return
        if self.vulnerable:
            if self.window_kind != D.CATCH:
                first = self.next_player
                order = [first, *self.players_from(first, False)]
                if self.g.variant.uno_partner_may_call and self.g.variant.team_size > 1:
                    partners = list(map(self.partner_of, self.vulnerable))
                    order = [q for q in partners if q >= 0] + order
                self.window = order
                self.window_kind = D.CATCH
            while self.window:
                q = self.window[0]
                if not self.eliminated[q] and self._may_catch(q):
                    self.pending = (D.CATCH, q)
                    return
                self.window.pop(0)
            self.vulnerable = []          # the next player begins: no more catching (rule 1.6.3)
        self.window = []
        self.window_kind = ""
        seat = self.next_player
        if self.eliminated[seat] or not self.hands[seat]:
            # Put out of play during the windows (a penalty's draw event): the turn goes on after them.
            self.turn_from = seat
            seat = self.next_player = self._advance()
        self._begin_turn(seat)

    def _begin_turn(self, p: int) -> None:
        self.current = p
        self.turns += 1
        self.total_turns += 1
        self.drawn_this_turn = -1
        self.played_by = -1
        self.steps = 0
        g = self.g
        if self.turns > g.max_turns:
            self._end_round(None, stalled=True)
            return
        if not g.jump_in and not self.stack:
            self.pending = g.turn_of[p]
            return
        v = g.variant
        if self.g.jump_in and self.discard:
            top = self.discard[-1]
            if v.jump_in_wilds or not self.g.k_wild[top]:
                if not self.stack or self.g.ruling_value("jump_in_during_stack"):
                    self.window = _with_cards(self.players_from(p, False), self.hands)
                    self.window_kind = D.JUMP
                    if self.window:
                        self.pending = (D.JUMP, self.window[0])
                        return
        self._offer_turn(p)

    def _offer_turn(self, p: int) -> None:
        if self.stack and self.stack_victim == p:
            self.pending = (D.STACK, p)
        else:
            self.pending = (D.TURN, p)

    def _play(self, p: int, k: int, uno: bool, jumped: bool = False) -> None:
        """Move k from p's hand to the discard pile and resolve it."""
        g = self.g
        hand = self.hands[p]
        hand.remove(k)
        if g.plain[k] and len(hand) > 1:
            # Fast path (Game.plain, all false in the reference mode): a card without effects or
            # restriction, not the last two: nobody can be out, nothing to resolve.
            self.discard.append(k)
            c = g.k_color[k]
            if c >= 0:
                self.color = c
            self.played_by = p
            self._end_turn()
            return
        self.after = AFTER_PLAY
        pushed = self._discard_played(p, k, uno, jumped)
        if pushed and (not self._run() or self.over):
            return
        self._after_play()

    def _discard_played(self, p: int, k: int, uno: bool, jumped: bool) -> bool:
        """Put k (already out of p's hand) on the pile: honesty, color, UNO; then start its effect, if any.

        True says an effect was pushed (the caller runs it).
        """
        g = self.g
        hand = self.hands[p]
        t = g.k_type[k]
        honest = True
        check = g.restriction[t]
        if check is not None and not g.strict[t]:
            honest = bool(check(self, [-1, 0, p, k, True, jumped]))
        self.discard.append(k)
        c = g.k_color[k]
        if c >= 0:
            self.color = c
        self.played_by = p
        if len(hand) == 1 and g.uno_enabled:
            self.uno_called[p] = uno
            if not uno and p not in self.vulnerable:
                self.vulnerable.append(p)
        code = g.on_play[t]
        if code >= 0 and (hand or g.resolve_last[t]):
            if g.straight[code] and not self.frames:
                # Fast path (Game.straight, all false in the reference mode): nothing in the effect can
                # pause, push or end the round, so it runs here and now, as _run would, without a frame.
                ops, nlocals = g.codes[code]
                fr = [code, 0, p, k, honest, jumped]                  # as _push makes it
                if nlocals:
                    fr += [None] * nlocals
                pc, end, steps = 0, len(ops), 0
                while pc < end:
                    pc = ops[pc](self, fr, pc)
                    steps += 1
                self.steps += steps                                   # as _run counts them
                return False
            self._push(code, p, k, honest, jumped)
            return True
        return False

    def _after_play(self) -> None:
        """A play's effects are done: settle, then end the turn."""
        self._settle(END_TURN)

    def _settle(self, then: str) -> None:
        """Effects are done: see who went out and whether the round is over; then go on with `then`.

        Every resolution ends here (a play, a turn's draw, a drawn stack, an UNO penalty), so a
        player put out of cards or eliminated by any of them is noticed the same way.
        """
        v = self.g.variant
        newly_out = []
        for q in self.players_from(self.played_by if self.played_by >= 0 else self.current, True):
            if not self.hands[q] and not self.out[q]:
                self.out[q] = True
                newly_out.append(q)
            elif self.hands[q]:
                self.out[q] = False
        if newly_out:
            if v.round_ends == "first_out":
                self._end_round(newly_out[0])
                return
            if self._team_finished():
                return
            if self.g.on_player_out >= 0:
                for q in reversed(newly_out):
                    self._push(self.g.on_player_out, q, -1, True, False)
                self.after = AFTER_OUTS
                self.then = then              # read back by _resume if the events pause for a decision
                if not self._run() or self.over:
                    return
        self._after_outs(then)

    def _after_outs(self, then: str) -> None:
        """The player-out events are done: end the round if it is decided, else go on with `then`."""
        if self._team_finished():
            return
        self.out = list(map(operator.not_, self.hands))
        if self.active_count() <= 1 or self._teams_alive() <= 1:
            alive = [q for q in range(self.n) if self.in_play(q)]     # the last player standing wins
            self._end_round(alive[0] if alive else None)
            return
        self._go_on(then)

    def _go_on(self, then: str) -> None:
        """Play goes on after a settled resolution: end the turn, offer the drawn card, or the windows."""
        if then == END_TURN:
            self._end_turn()
        elif then == OFFER_DRAWN:
            self._offer_drawn()
        else:
            self._windows()

    def _team_finished(self) -> bool:
        """With round_ends team_out: end the round if a whole team is out of cards (its lowest seat wins)."""
        if self.g.variant.round_ends != "team_out":
            return False
        size = self.g.variant.team_size
        lead = _finished_team(self.g.team_tables[self.n][0], self.hands, self.eliminated,
                              self.n // size if size > 1 else self.n)
        if lead < 0:
            return False
        self._end_round(lead)
        return True

    def _teams_alive(self) -> int:
        return _teams_in_play(self.g.team_tables[self.n][0], self.hands, self.eliminated)

    def _after_draw_action(self) -> None:
        """A turn's draw and its events are done: settle, then offer the drawn card."""
        self._settle(OFFER_DRAWN)

    def _offer_drawn(self) -> None:
        """Offer the card just drawn if it may be played, else end the turn."""
        p, k = self.current, self.drawn_this_turn
        if (k >= 0 and self.g.variant.drawn_card != "forbidden" and k in self.hands[p]
                and self._is_playable(p, k)):
            self.pending = (D.DRAWN, p, k)
            return
        self._end_turn()

    def _end_round(self, winner: int | None, stalled: bool = False) -> None:
        g, v = self.g, self.g.variant
        self.frames = []
        self.pending = None
        if self.stack and self.stack_victim >= 0:
            # A stack still open when the round ends is drawn before scoring (1.7.2).
            self._draw(self.stack_victim, self.stack)
            self.stack, self.stack_victim = 0, -1
        if stalled:
            self.stalled = True
            if winner is None and v.stall != "no_winner":
                winner = self._stall_winner()
        self.round_winner = winner
        value = g.k_points.__getitem__
        points = [sum(map(value, hand)) for hand in self.hands]         # hand_points of every seat
        if v.scoring == "winner_collects" and winner is not None:
            team = g.team_tables[self.n][0]         # without teams, every seat is a team of its own
            ours = team[winner]
            gained = sum([pts for pts, t in zip(points, team) if t != ours])
            if v.score_by == "team":
                for q in range(self.n):
                    if team[q] == ours:
                        self.scores[q] += gained
            else:
                self.scores[winner] += gained
        elif v.scoring == "lowest_held":
            for q in range(self.n):
                self.scores[q] += points[q]
        if not self.match or v.scoring == "none":
            self._finish(winner)
            return
        scores = self.scores            # not self in the comprehensions: it would make self a cell in the whole method
        last = self.round >= v.max_rounds           # no round may follow this one (scoring.max_rounds)
        if last or max(scores) >= v.target:
            if v.scoring == "lowest_held":
                self._finish(scores.index(min(scores)))      # the first seat with the lowest score
            else:
                high = max(scores)
                leaders = [q for q in range(self.n) if scores[q] == high]
                team = g.team_tables[self.n][0]
                if len({team[q] for q in leaders}) == 1 or g.ruling_value("target_tie_plays_another_round") is False:
                    self._finish(leaders[0])            # without the ruling, the first seat among the leaders
                elif last:
                    self._finish(None)                  # a tie at the top with no round left: no winner
                else:
                    self._new_round(first=False)        # a tie at the top plays another round (ruling 1.10.5)
            return
        self._new_round(first=False)

    def _stall_winner(self) -> int | None:
        """A stalled round's winner: the fewest points (then cards), or the fewest cards (then points)."""
        alive = [q for q in range(self.n) if not self.eliminated[q]]
        if self.g.variant.stall == "fewest_points":
            key = (lambda q: (self.hand_points(q), len(self.hands[q])))
        else:
            key = (lambda q: (len(self.hands[q]), self.hand_points(q)))
        return min(alive, key=key) if alive else None

    def _finish(self, winner: int | None) -> None:
        self.over = True
        self.winner = winner
        self.pending = None
        self.frames = []

    # --- legal actions per decision -------------------------------------------

    def _uno_variants(self, p: int, kinds: list[int]) -> list[int]:
        """Play actions for sorted `kinds`, doubled with 'play X uno' when the card is the next-to-last.

        Sorted still: every 'play X uno' id is above every 'play X' id.
        """
        if len(self.hands[p]) == 2 and self.g.uno_enabled:
            return kinds + list(map(self.g.num_kinds.__add__, kinds))
        return kinds

    def _legal_turn(self) -> list[int]:
        """A turn: every playable kind (doubled with an UNO call on the next-to-last card), then `draw`.

        Drawing is legal with nothing to play, or where the variant's may-draw rule allows it.
        """
        p = self.pending[1]
        g = self.g
        plays = self._playable_kinds(p)
        actions = self._uno_variants(p, plays)
        if not plays or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return actions

    def _legal_drawn(self) -> list[int]:
        _, p, k = self.pending
        actions = self._uno_variants(p, [k])
        if self.g.may_keep_drawn:
            actions.append(self.g.A_KEEP)
        return actions

    def _legal_color(self) -> list[int]:
        return list(self.g.fixed_actions[D.COLOR])

    def _legal_target(self) -> list[int]:
        return [self.g.A_TARGET + q for q in self.pending[3]]

    def _legal_challenge(self) -> list[int]:
        return list(self.g.fixed_actions[D.CHALLENGE])

    def _legal_give(self) -> list[int]:
        base = self.g.A_GIVE
        return [base + k for k in sorted(set(self.hands[self.pending[1]]))]

    def _legal_trade(self) -> list[int]:
        _, p, other, left = self.pending
        g = self.g
        base, kinds = g.A_TRADE, g.num_kinds
        theirs = sorted(set(self.hands[other]))
        actions = [first + b for a in sorted(set(self.hands[p])) for first in (base + a * kinds,)
                   for b in theirs if b != a]
        actions.append(g.A_DONE)
        return actions

    def _pick_trade(self, rand) -> int:
        """`_legal_trade()[int(rand() * n)]` without the list: per kind of mine, a row of theirs but itself."""
        _, p, other, _ = self.pending
        g = self.g
        held = set(self.hands[other])
        theirs = sorted(held)
        mine = sorted(set(self.hands[p]))
        width = len(theirs)
        n = len(mine) * width - len(held.intersection(mine)) + 1
        i = int(rand() * n)
        for a in mine:
            row = width - (a in held)
            if i < row:
                b = theirs[i]
                if b >= a and a in held:        # a itself is left out of its row
                    b = theirs[i + 1]
                return g.A_TRADE + a * g.num_kinds + b
            i -= row
        return g.A_DONE

    def _legal_stack(self) -> list[int]:
        p = self.pending[1]
        return self._uno_variants(p, self._stack_answers(p)) + [self.g.A_DRAW]

    def _legal_forced(self) -> list[int]:
        _, p, c = self.pending
        kinds = sorted({k for k in self.hands[p] if self.g.k_color[k] == c})
        return self._uno_variants(p, kinds)

    def _legal_jump(self) -> list[int]:
        p = self.pending[1]
        top = self.discard[-1]
        actions = self._uno_variants(p, [top]) if top in self.hands[p] else []
        return actions + [self.g.A_PASS]

    def _legal_catch(self) -> list[int]:
        return self._catch_actions(self.pending[1])

    def _may_catch(self, q: int) -> bool:
        """Whether q has more than `pass` in the catch window: `len(_catch_actions(q)) > 1`, without the list."""
        vulnerable = self.vulnerable
        if q in vulnerable:
            return True
        team = self.g.team_tables[self.n][0]        # without teams, every seat is a team of its own
        tq = team[q]
        for v in vulnerable:
            if team[v] != tq:
                return True
        if self.g.variant.uno_partner_may_call:     # a loop, not any(): self in a generator would make it a cell
            for v in vulnerable:
                if self.partner_of(v) == q:
                    return True
        return False

    def _catch_actions(self, q: int) -> list[int]:
        base = self.g.A_CATCH
        actions = [base + v for v in sorted(self.vulnerable) if v != q and not self.same_team(v, q)]
        # A late call is allowed until someone catches you (1.12); a partner may call for you (2.2.10).
        if q in self.vulnerable or (self.g.variant.uno_partner_may_call
                                    and any(self.partner_of(v) == q for v in self.vulnerable)):
            actions.append(self.g.A_UNO)
        return sorted(actions) + [self.g.A_PASS]

    def _legal_uno(self) -> list[int]:
        return list(self.g.fixed_actions[D.UNO])

    def _why_illegal(self, action: int) -> str:
        g = self.g
        kind = self.pending[0]
        if action < 2 * g.num_kinds:
            k = action % g.num_kinds
            p = self.pending[1]
            if kind not in (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP):
                return f"player {p} must decide '{kind}' now, not play a card"
            if k not in self.hands[p]:
                return f"player {p} does not hold {g.card_names[k]}"
            if action >= g.num_kinds and len(self.hands[p]) != 2:
                return "UNO is called when playing your next-to-last card"
            if kind == D.DRAWN:
                return "after drawing, only the drawn card may be played"
            if self.lock_owner >= 0:
                return f"only {g.variant.colors[self.lock_color]} cards may be played until the lock ends"
            return f"{g.card_names[k]} does not match {self.top_card} ({self.current_color or 'any color'})"
        if action == g.A_DRAW and kind == D.TURN:
            return "you may not draw now"
        return f"not a legal '{kind}' decision for player {self.pending[1]}"

    # --- applying actions per decision ----------------------------------------

    def _turn_draw(self, p: int) -> None:
        """A turn's draw: one card, or until playable (turn.no_playable); then settle and offer it."""
        g = self.g
        hand = self.hands[p]
        if g.simple_draw and self.lock_owner < 0:
            # Fast path (Game.simple_draw, false in the reference mode): one card, no draw event, no
            # lock: nobody can go out, so the drawn card is judged right here, as _offer_drawn does.
            k = self.draw_pile.pop() if self.draw_pile else self._draw_one()
            if k < 0:
                self._end_turn()
                return
            hand.append(k)
            self.steps += 1
            self.uno_called[p] = False
            self.drawn_this_turn = k
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            if (ok is None or k in ok) and (k not in g.strict_kinds or self._is_playable(p, k)):
                self.pending = (D.DRAWN, p, k)
            else:
                self._end_turn()
            return
        before = len(hand)
        if g.variant.no_playable == "draw_until_playable" and not self._playable_kinds(p):
            self.op_draw_until_playable(p)
        else:
            self.op_draw(p, 1)
        self.drawn_this_turn = hand[-1] if len(self.hands[p]) > before and self.hands[p] is hand else -1
        self.after = AFTER_DRAW
        if self.frames:
            if not self._run() or self.over:
                return
        self._after_draw_action()

    def _apply_drawn(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if a == self.g.A_KEEP:
            self._end_turn()
            return
        k = self.g.num_kinds
        self._play(p, a % k, a >= k)

    def _apply_color(self, a: int) -> None:
        self.color = a - self.g.A_COLOR
        self._resume()

    def _apply_target(self, a: int) -> None:
        slot = self.pending[2]
        self.frames[-1][slot] = a - self.g.A_TARGET
        self._resume()

    def _apply_challenge(self, a: int) -> None:
        _, victim, guilty, innocent, accepted = self.pending
        fr = self.frames[-1]
        if a == self.g.A_CHALLENGE:
            challenged = fr[D.F_SELF]
            self.revealed.setdefault(victim, {})[challenged] = list(self.hands[challenged])
            fr[D.F_PC] = innocent if fr[D.F_HONEST] else guilty
        else:
            fr[D.F_PC] = accepted
        self._resume()

    def _apply_give(self, a: int) -> None:
        _, giver, left, dest = self.pending
        k = a - self.g.A_GIVE
        self.hands[giver].remove(k)
        if dest >= 0:
            self.hands[dest].append(k)
        else:
            self.limbo[-1 - dest].append(k)
        if left > 1 and self.hands[giver]:
            self.pending = (D.GIVE, giver, left - 1, dest)
            return
        # Hands are judged for UNO once the whole gift has moved; an exchange judges both at its end.
        if dest >= 0:
            self._hand_changed(dest)
            self._hand_changed(giver)
        self._resume()

    def _apply_trade(self, a: int) -> None:
        _, p, other, left = self.pending
        g = self.g
        if a == g.A_DONE:
            self._resume()
            return
        mine, theirs = divmod(a - g.A_TRADE, g.num_kinds)
        self.hands[p].remove(mine)
        self.hands[other].remove(theirs)
        self.hands[p].append(theirs)
        self.hands[other].append(mine)
        seen = self.revealed.get(p)
        if seen is None:
            seen = self.revealed[p] = {}
        seen[other] = list(self.hands[other])
        if left > 1:
            self.pending = (D.TRADE, p, other, left - 1)
            return
        self._resume()

    def _apply_stack(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if a == self.g.A_DRAW:
            total = self.stack
            self.stack = 0
            self.stack_victim = -1
            self.after = AFTER_PLAY
            self.played_by = -1
            self.op_draw(p, total)               # drawing the stack is the lost turn
            if self.frames and (not self._run() or self.over):
                return
            self._after_play()
            return
        self.stack_victim = -1
        k = self.g.num_kinds
        self._play(p, a % k, a >= k)

    def _apply_forced(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        k = self.g.num_kinds
        # A forced play happens inside the effect that forced it: its own effect runs on top.
        self.hands[p].remove(a % k)
        self._discard_played(p, a % k, a >= k, False)
        self._resume()

    def _apply_jump(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if a == self.g.A_PASS:
            self.window.pop(0)
            if self.window:
                self.pending = (D.JUMP, self.window[0])
            else:
                self.window_kind = ""
                self._offer_turn(self.current)
            return
        self.window = []
        self.window_kind = ""
        self.current = p
        k = self.g.num_kinds
        self._play(p, a % k, a >= k, jumped=True)

    def _apply_catch(self, a: int) -> None:
        q = self.pending[1]
        self.pending = None
        g = self.g
        if a == g.A_PASS:
            self.window.pop(0)
        elif a == g.A_UNO:
            called = [v for v in self.vulnerable if v == q or self.partner_of(v) == q]
            for v in called:
                self.uno_called[v] = True
            self.vulnerable = [v for v in self.vulnerable if v not in called]
            self.window.pop(0)
        else:
            caught = a - g.A_CATCH
            self.vulnerable.remove(caught)
            self.steps += self._draw(caught, g.variant.uno_penalty)
            self.after = AFTER_WINDOW
            self._after_draw_event(caught)
            if self.frames and (not self._run() or self.over):
                return
            self._settle(WINDOWS)
            return
        self._windows()

    def _apply_uno(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        self.uno_askers.pop(0)
        if a == self.g.A_UNO:
            self.uno_called[p] = True
            if p in self.vulnerable:                  # calling now also covers an earlier forgotten call
                self.vulnerable.remove(p)
        elif p not in self.vulnerable and len(self.hands[p]) == 1:
            self.vulnerable.append(p)
        self._windows()


# Legal actions per decision (legal_action_ids answers a turn itself on the fast path), and how each
# decision but a turn is applied (apply_id applies a turn itself).
_LEGAL = {
    D.TURN: State._legal_turn, D.DRAWN: State._legal_drawn, D.COLOR: State._legal_color,
    D.TARGET: State._legal_target, D.CHALLENGE: State._legal_challenge, D.GIVE: State._legal_give,
    D.TRADE: State._legal_trade, D.STACK: State._legal_stack, D.FORCED: State._legal_forced,
    D.JUMP: State._legal_jump, D.CATCH: State._legal_catch, D.UNO: State._legal_uno,
}
_APPLY = {
    D.DRAWN: State._apply_drawn, D.COLOR: State._apply_color,
    D.TARGET: State._apply_target, D.CHALLENGE: State._apply_challenge, D.GIVE: State._apply_give,
    D.TRADE: State._apply_trade, D.STACK: State._apply_stack, D.FORCED: State._apply_forced,
    D.JUMP: State._apply_jump, D.CATCH: State._apply_catch, D.UNO: State._apply_uno,
}


# ---------------------------------------------------------------------------
# The fast paths


class FastState(State):
    """State with the fast paths: each method here specialises the rule of State's method of the
    same name for its common case, and hands every other case to it.

    A Game made with fast=True (the default) plays FastStates, one made with fast=False plain
    States: the reference mode. State itself takes four fast paths where the Game's tables say
    so, and those tables are all off in the reference mode: plain cards (Game.plain), straight
    effects (Game.straight), a turn's simple draw (Game.simple_draw) and guarded draw events
    (Game.after_draw_guard); the effect compiler's fused hand-size tests follow Game.fast too.
    tests/test_modes.py plays every shipped variant and house rule both ways and requires the
    same actions, states and results at every step.
    """

    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        """As State's; a turn (four decisions in five in classic) is answered inline, as _legal_turn does."""
        if self.over:
            return []
        kind, p = self.pending[0], self.pending[1]
        if kind != D.TURN:
            return _LEGAL[kind](self)
        g = self.g
        hand = self.hands[p]
        if self.lock_owner < 0 and not g.strict_kinds:
            # The common case, kept tight: one table row says what matches the top card.
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            plays = sorted(set(hand) if ok is None else ok.intersection(hand))
        else:
            plays = self._playable_kinds(p)
        if len(hand) == 2 and g.uno_enabled:            # _uno_variants, inline on the hottest path
            actions = plays + list(map(g.num_kinds.__add__, plays))       # map: no cell, as for the helpers
        else:
            actions = plays
        if not plays or g.may_always_draw or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return actions

    def play_out(self, rand=None) -> None:
        """As State's, the same game from the same draws: turns, drawn cards, targets, gifts and
        trades are answered without the list (their legal actions are counted and only the chosen
        one is made); colours, challenges and UNO calls come from tables made once."""
        rand = rand or self.rng.random
        g = self.g
        if self.log is not None:                 # a recorded game: apply_id writes each action to the log
            State.play_out(self, rand)
            return
        playable_after, seat_frames, may_draw_if = g.playable_after, g.seat_frames, g.may_draw_if
        may_always_draw, may_keep, uno_enabled = g.may_always_draw, g.may_keep_drawn, g.uno_enabled
        # A may-draw rule `hand(next) OP c` (All Wild's): its answer for every hand size, read here in place.
        next_answers = g.may_draw_next_answers
        strict, k, draw, keep = g.strict_kinds, g.num_kinds, g.A_DRAW, g.A_KEEP
        history = self.history
        fixed, legal, apply = g.fixed_actions, _LEGAL, _APPLY
        turn, drawn, trade, target, give = D.TURN, D.DRAWN, D.TRADE, D.TARGET, D.GIVE
        while not self.over:
            pending = self.pending
            kind = pending[0]
            if kind == turn and self.lock_owner < 0:
                # A turn, as legal_action_ids lists it: the playable kinds (doubled with an UNO call
                # when the card is the next-to-last), then the draw.
                p = pending[1]
                hand = self.hands[p]
                ok = playable_after[self.color + 1][self.discard[-1]]
                plays = set(hand) if ok is None else ok.intersection(hand)
                if not strict or strict.isdisjoint(plays):    # else a restricted card: the general way, below
                    m = len(plays)
                    n = 2 * m if len(hand) == 2 and uno_enabled else m
                    if not m or may_always_draw:
                        i = int(rand() * (n + 1))
                    else:
                        seat = (p + self.direction) % self.n
                        if next_answers is not None and self.hands[seat] and not self.eliminated[seat]:
                            may_draw = next_answers[len(self.hands[seat])]     # the condition's test, in place
                        else:
                            may_draw = may_draw_if(self, seat_frames[p])
                        i = int(rand() * (n + 1)) if may_draw else int(rand() * n)
                    self.pending = None
                    if i == n:
                        history.append(draw)
                        self._turn_draw(p)
                        continue
                    card = sorted(plays)[i % m]
                    history.append(card if i < m else card + k)
                    self._play(p, card, i >= m)
                    continue
            elif kind == drawn:
                # The card just drawn: play it (with an UNO call if it is the next-to-last), or keep it.
                _, p, card = pending
                n = 2 if len(self.hands[p]) == 2 and uno_enabled else 1
                i = int(rand() * (n + 1)) if may_keep else int(rand() * n)
                self.pending = None
                if i == n:
                    history.append(keep)
                    self._end_turn()
                else:
                    history.append(card + i * k)
                    self._play(p, card, i == 1)
                continue
            elif kind != turn:
                if kind == trade:                # pairs of cards: counted and picked, not listed
                    action = self._pick_trade(rand)
                elif kind == target:             # the candidates are in the decision (_legal_target)
                    seats = pending[3]
                    action = g.A_TARGET + seats[int(rand() * len(seats))]
                elif kind == give:               # one of the giver's kinds (_legal_give)
                    kinds = sorted(set(self.hands[pending[1]]))
                    action = g.A_GIVE + kinds[int(rand() * len(kinds))]
                else:
                    actions = fixed.get(kind) or legal[kind](self)
                    action = actions[int(rand() * len(actions))]
                history.append(action)
                apply[kind](self, action)
                continue
            # A turn under a color lock, or with a restricted card playable.
            actions = self.legal_action_ids()
            self.apply_id(actions[int(rand() * len(actions))])

    def _is_playable(self, p: int, k: int) -> bool:
        """As State's, read from the table when no lock and no strict restriction is in the way."""
        g = self.g
        if self.lock_owner < 0 and k not in g.strict_kinds:
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            return ok is None or k in ok
        return State._is_playable(self, p, k)

    def _end_turn(self) -> None:
        """As State's: with nothing to skip or hand over, the next seat is the neighbour in play, and with
        no window to open and no jump-in, their turn begins inline (what _begin_turn would do)."""
        if (self.next_exact < 0 and self.turn_from < 0 and self.lock_owner < 0
                and self.skip == self.g.no_skips[self.n]):
            seat = (self.current + self.direction) % self.n         # the neighbour, unless out of play
            if not self.hands[seat] or self.eliminated[seat]:
                seat = self._advance()
        else:
            seat = self._advance()
        if not self.vulnerable and not self.uno_askers and not self.stack and self.turns < self.g.plain_turns:
            self.next_player = self.current = seat
            self.turns += 1
            self.total_turns += 1
            self.drawn_this_turn = -1
            self.played_by = -1
            self.steps = 0
            self.pending = self.g.turn_of[seat]
            return
        self._next_turn(seat)

    def _after_play(self) -> None:
        """As State's, with _settle's common case inline: the hottest path."""
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self._end_turn()
            return
        State._settle(self, END_TURN)

    def _settle(self, then: str) -> None:
        """As State's; when nobody is out of cards (so nobody is eliminated either), play just goes on
        (as _after_outs does)."""
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self._go_on(then)
            return
        State._settle(self, then)


# The instruction set the effect compiler emits calls to: every State.op_* method, by name, and what
# each may do beyond changing the state's fields (see program.PAUSES and the others).
OPS = {name: getattr(State, name) for name in dir(State) if name.startswith("op_")}
OP_FLAGS = {
    "op_draw": {DRAWS}, "op_draw_to": {DRAWS}, "op_draw_until_playable": {DRAWS}, "op_penalty": {DRAWS},
    "op_skip": set(), "op_skip_next": set(), "op_reverse": set(), "op_set_color": set(), "op_turn_to": set(),
    "op_look": set(), "op_lock": set(),
    "op_swap_hands": {RESHAPES}, "op_rotate_hands": {RESHAPES}, "op_exchange_finish": {RESHAPES},
    "op_discard_color": {RESHAPES}, "op_redeal": {RESHAPES}, "op_eliminate": {RESHAPES},
    "op_choose_color": {PAUSES}, "op_choose_player": {PAUSES}, "op_give": {PAUSES}, "op_exchange_pick": {PAUSES},
    "op_trade": {PAUSES}, "op_must_play": {PAUSES}, "op_challenge": {PAUSES}, "op_flip_again": {PUSHES},
}


def _deep_list(value: list) -> list:
    return [(_deep_list(x) if isinstance(x, list) else x) for x in value]


def _rng_to_json(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]
