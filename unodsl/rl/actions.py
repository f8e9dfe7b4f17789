"""The frozen action space of an RL environment: the engine's actions a variant can actually produce.

The engine numbers every action any variant could need (classic: 3,109 ids, 2,916 of them trade
pairs it never uses). An `ActionTable` keeps only the kinds of action the variant's rules can
produce, read from the variant (its rulings and the statements of its effects), and names the
choice of a player (`target`, `catch`) by its seat offset from the player deciding, so one policy
serves every seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..effects.ast import walk
from .tables import shared

# Statements of the effect language that open a decision, by the grammar's rule name.
_TRADE, _GIVE, _PUT = "trade", {"give", "exchange"}, "put"
_COLOR = {"choose_color_self", "choose_color_by", "choose_color_value"}
_CHALLENGE = "challenge"
_CHOOSE_PLAYER = "choose_player"
_SECRET_CHOICE = "secret_choice"            # a sealed choice: each member chooses a player, never themselves
_OTHERS_ONLY = {"others", "opponents"}      # groups of `choose player` that never hold the chooser


@dataclass(frozen=True)
class Capabilities:
    """What a variant's rules can ask of a player, beyond playing a card and drawing."""

    play_uno: bool      # 'play X uno' (UNO enabled)
    keep: bool          # keep a drawn card (a drawn card is offered and need not be played)
    pass_: bool         # decline a jump-in, a catch, an UNO call or a declared window
    challenge: bool     # challenge / accept (a `may challenge` statement)
    uno: bool           # call UNO outside one's own play (UNO enabled)
    colors: bool        # name a color (a `choose color` statement)
    targets: bool       # choose a player (`choose player GROUP`, a sealed choice)
    target_self: bool   # ... in a group that may hold the chooser
    catch: bool         # catch a player who did not call UNO (UNO enabled)
    give: bool          # pick a card to give (`gives`, `exchanges`)
    trade: bool         # trade pairs and `done` (`trade with`)
    put: bool = False   # pick a card to put on a named pile (`puts N on PILE`)
    sets: bool = False  # go on with a set of cards played in one turn, or stop: `done` (turn.sets)


def _effect_texts(variant):
    for ct in variant.cards.values():
        yield ct.on_play
        yield ct.on_start
        yield ct.on_stack
    for procedure in variant.procedures.values():      # a body is run where it is called: its decisions too
        yield procedure.body
    yield variant.on_deal
    yield variant.start_default
    yield from variant.event_effects().values()
    yield variant.turn_draw
    yield variant.uno_penalty_effect
    yield variant.uno_false_call_effect
    yield variant.uno_wrong_catch_effect
    yield variant.uno_out_penalty_effect
    for window in variant.windows.values():
        yield window.effect
    yield variant.on_round_end


def capabilities(game) -> Capabilities:
    """Read from a compiled game's variant which meta-actions its rules can produce."""
    v = game.variant
    rules: set[str] = set()
    groups: set[str] = set()
    for text in _effect_texts(v):
        tree = v.syntax.tree(text)
        if tree is None:        # absent or empty
            continue
        for node in walk(tree):
            rules.add(node.rule)
            if node.rule == _CHOOSE_PLAYER:
                groups.add(node.group.rule)
                if node.chooser is not None and node.chooser.rule != "self_":
                    groups.add("chosen by another")     # `others` of self may hold that chooser
    uno = bool(v.uno_enabled)
    return Capabilities(
        play_uno=uno,
        keep=v.drawn_card not in ("forced", "forbidden"),
        pass_=bool(v.jump_in) or uno or bool(v.windows),     # windows: invoke or pass
        challenge=_CHALLENGE in rules,
        uno=uno,
        colors=bool(rules & _COLOR) and len(v.colors) > 0,
        targets=_CHOOSE_PLAYER in rules or _SECRET_CHOICE in rules,
        target_self=bool(groups - _OTHERS_ONLY),
        catch=uno,
        give=bool(rules & _GIVE),
        trade=_TRADE in rules,
        put=_PUT in rules,
        sets=v.sets is not None,
    )


class ActionTable:
    """The RL action ids of a variant at a table of `num_players`, and their engine ids per seat.

    Layout, in order: `play K` per card kind, `play K uno` per kind, `draw`, `keep`, `pass`,
    `challenge`, `accept`, `uno`, `done`, `color C` per color, `target +i` per seat offset,
    `catch +i` per offset, `give K` per kind, `trade A B` per ordered pair of distinct kinds, `put K` per kind,
    `option NAME` per option name of the variant's choices and windows, `play K on PILE` and `play K uno on PILE` per
    playable pile, `number N` per number its number choices may offer; each group only where the variant can produce it.
    """

    def __init__(self, game, num_players: int):
        self.num_players = n = num_players
        self.caps = caps = capabilities(game)
        k = game.num_kinds
        names = game.card_names
        # (label, engine id or None, seat offset or None): a relative entry's engine id is
        # base + (seat + offset) % n.
        rows: list[tuple[str, int | None, int | None, int]] = []

        def fixed(text: str) -> None:
            rows.append((text, game.action_from_string(text), None, 0))

        for i in range(k):
            rows.append((f"play {names[i]}", i, None, 0))
        if caps.play_uno:
            for i in range(k):
                rows.append((f"play {names[i]} uno", k + i, None, 0))
        fixed("draw")
        for flag, text in ((caps.keep, "keep"), (caps.pass_, "pass"), (caps.challenge, "challenge"),
                           (caps.challenge, "accept"), (caps.uno, "uno"), (caps.trade or caps.sets, "done")):
            if flag:
                fixed(text)
        if caps.colors:
            for c in game.variant.colors:
                fixed(f"color {c}")
        # A choice of one candidate is made by the engine itself: `others` at two seats asks nobody.
        if caps.targets and (caps.target_self or n > 2):
            base = game.action_from_string("target 0")
            for off in range(0 if caps.target_self else 1, n):
                rows.append((f"target +{off}", None, off, base))
        if caps.catch:
            base = game.action_from_string("catch 0")
            table = game.new_game(players=n, seed=0)        # only to ask who is whose partner
            for off in range(1, n):
                # A partner is never caught; the offset is kept if it is an opponent of some seat.
                if not all(table.same_team(seat, (seat + off) % n) for seat in range(n)):
                    rows.append((f"catch +{off}", None, off, base))
        if caps.give:
            for i in range(k):
                fixed(f"give {names[i]}")
        if caps.trade:
            for a in range(k):
                for b in range(k):
                    if a != b:
                        fixed(f"trade {names[a]} {names[b]}")
        if caps.put:
            for i in range(k):
                fixed(f"put {names[i]}")
        for name in game.option_names:          # a choice's options (`P chooses:`): none in most variants
            fixed(f"option {name}")
        for pile in game.play_piles:            # plays on a playable pile (`playable: true`): none in most variants
            where = game.pile_names[pile]
            for i in range(k):
                fixed(f"play {names[i]} on {where}")
            if caps.play_uno:
                for i in range(k):
                    fixed(f"play {names[i]} uno on {where}")
        for number in range(game.number_top + 1):     # numbers chosen (`chooses number from A to B`): last
            fixed(f"number {number}")
        # Immutable, as the tables are shared by every environment of the variant (rl/tables.py).
        self.labels: tuple[str, ...] = tuple(r[0] for r in rows)
        self.size = len(rows)
        # engine_of[seat][rl id] and rl_of[seat][engine id], built once per seat.
        engine_of, rl_of = [], []
        for seat in range(n):
            row = tuple(eid if off is None else base + (seat + off) % n for _, eid, off, base in rows)
            engine_of.append(row)
            rl_of.append(MappingProxyType({e: i for i, e in enumerate(row)}))
        self.engine_of: tuple[tuple[int, ...], ...] = tuple(engine_of)
        self.rl_of: tuple[MappingProxyType, ...] = tuple(rl_of)
        self.index = MappingProxyType({label: i for i, label in enumerate(self.labels)})

    def to_engine(self, action: int, seat: int) -> int:
        """Return the engine id of RL action `action` taken by `seat`."""
        return self.engine_of[seat][action]

    def from_engine(self, engine_id: int, seat: int) -> int:
        """Return the RL id of engine action `engine_id` taken by `seat`; KeyError if it has none."""
        return self.rl_of[seat][engine_id]

    def label(self, action: int) -> str:
        """Return the seat-relative label of an RL action (`play red_7`, `target +1`)."""
        return self.labels[action]

    def mask(self, seat: int, engine_ids: list[int], dtype=np.int8) -> np.ndarray:
        """Return an array of `dtype`, 1 at the RL id of each of `engine_ids` taken by `seat` and 0 elsewhere
        (KeyError for an engine action without one)."""
        mask = np.zeros(self.size, dtype)
        rl_of = self.rl_of[seat]
        for e in engine_ids:
            mask[rl_of[e]] = 1
        return mask


def action_table(game, num_players: int) -> ActionTable:
    """The ActionTable of `game`'s variant at `num_players`, built once per variant and shared by every
    environment of it (rl/tables.py; a table is never changed after it is built)."""
    return shared(game, (ActionTable, num_players), lambda: ActionTable(game, num_players))


def action_strings(game) -> tuple[str, ...]:
    """The engine's action strings of `game` by engine id, made once per variant and shared (a tuple):
    the environments' infos list them at every step."""
    return shared(game, action_strings, lambda: tuple(game.action_to_string(e) for e in range(game.num_actions)))


class LegalIds:
    """A state's legal engine action ids, asked of the engine once per position.

    An environment needs them up to three times a step (the infos, the mask, the legality
    check). A position is the state object and the length of its history: every move, through
    `apply_id`, `apply` or `play_out`, adds to the history, and a state put in place of another
    (a resampled one, a loaded one) is another object.
    """

    __slots__ = ("state", "moves", "ids")

    def __init__(self):
        self.state, self.moves, self.ids = None, -1, []

    def __call__(self, state) -> list[int]:
        """The legal ids of `state` now (a hot caller may test `state` and `moves` inline and read `ids`)."""
        if state is not self.state or len(state.history) != self.moves:
            self.state, self.moves, self.ids = state, len(state.history), state.legal_action_ids()
        return self.ids
