"""The typed variant: frozen dataclasses built from a located YAML tree.

This stage resolves cross references (card types, colors, rulings) and reports
E3xx diagnostics; effect strings stay as located text for `effects.py`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ..diagnostics import Diagnostic, suggestion_suffix
from ..source.yaml_tree import Node
from .variables import Variable, build_variables

MAX_CARDS = 10_000
MAX_COUNT = 10_000


# Rule modes: one StrEnum per setting that names a way to play, its values the YAML's words (the
# schema lists the same). A member equals its word (`Stacking.NONE == "none"`), so text that
# reads a mode as a string still works; the engine compares members and chooses its tables once
# per Game.

class Dealer(StrEnum):
    """deal.dealer: who deals the first round."""
    RANDOM = "random"
    HIGH_CARD = "high_card"
    SEAT_0 = "seat_0"


class NoPlayable(StrEnum):
    """turn.no_playable: what a player without a playable card draws."""
    DRAW_ONE = "draw_one"
    DRAW_UNTIL_PLAYABLE = "draw_until_playable"


class DrawnCard(StrEnum):
    """turn.drawn_card: whether a playable drawn card may, must or may not be played."""
    OPTIONAL = "optional"
    FORCED = "forced"
    FORBIDDEN = "forbidden"


class Stacking(StrEnum):
    """stacking.answer: which draw cards may answer a draw penalty (NONE: stacking is off)."""
    NONE = "none"
    SAME_TYPE = "same_type"
    SAME_OR_HIGHER = "same_or_higher"
    PLUS4_ON_PLUS2 = "plus4_on_plus2"
    ANY_DRAW = "any_draw"


class RoundEnds(StrEnum):
    """round.ends_when: the first player out of cards, or a whole team."""
    FIRST_OUT = "first_out"
    TEAM_OUT = "team_out"


class Stall(StrEnum):
    """round.stall: who wins a round that stalls."""
    FEWEST_POINTS = "fewest_points"
    FEWEST_CARDS = "fewest_cards"
    NO_WINNER = "no_winner"


class EliminatedCards(StrEnum):
    """round.eliminated_cards: where an eliminated player's hand goes."""
    UNDER_DRAW = "under_draw"
    UNDER_DISCARD = "under_discard"
    INTO_DRAW = "into_draw"


class Scoring(StrEnum):
    """scoring.mode: the winner collects the others' points, everyone scores what they hold, or none."""
    WINNER_COLLECTS = "winner_collects"
    LOWEST_HELD = "lowest_held"
    NONE = "none"


class ScoreBy(StrEnum):
    """scoring.by: points go to the player or to the whole team."""
    PLAYER = "player"
    TEAM = "team"


class RestrictionCheck(StrEnum):
    """A card's restriction_check: a bluff that may be challenged, or a card that may not be played."""
    CHALLENGE = "challenge"
    STRICT = "strict"


class LastCard(StrEnum):
    """A card's last_card: whether its effect resolves when it is a player's last card."""
    RESOLVE = "resolve"
    IGNORE = "ignore"


@dataclass(frozen=True)
class Text:
    """An effect or condition string together with the YAML node it came from."""

    source: str
    node: Node | None = None

    def position(self) -> tuple[str, int, int]:
        """Return (path, line, column) of the start of the text."""
        if self.node is None:
            return ("<builtin>", 1, 1)
        return (self.node.path, self.node.line, self.node.column)


@dataclass(frozen=True)
class CardType:
    """One card type of the deck (e.g. `draw_two`), with its copies and behaviour."""

    id: str
    name: str
    kind: str                                  # number | action | wild
    wild: bool
    copies: dict[str, dict[int | None, int]]   # color ("" for colorless) -> number (None) -> copies
    points: int | None                         # None means face value
    draw: int                                  # draw penalty size, 0 if none
    label: str                                 # suffix added after the number in card ids
    restriction: Text | None
    restriction_check: RestrictionCheck
    on_play: Text | None
    on_start: Text | None
    last_card: LastCard
    text: str | None
    node: Node | None = None
    side: str = ""                             # the side of a two-sided deck this face is on ("" for one side)
    back: str | None = None                    # the card type on this face's other side (first side only)
    # Extra attributes (`attrs:`), read as card.NAME / top.NAME: name -> an int, a bool or a string
    # (a string naming one of the variant's colors is that color; the checker tells them apart).
    attrs: dict[str, object] = field(default_factory=dict)
    match: Text | None = None                  # the card's own matching test, over the top-level one


@dataclass(frozen=True)
class Pile:
    """A table pile beyond the draw and discard piles (`piles:`): empty when a round starts."""

    name: str
    face_up: bool                              # every card public (as the discard pile), else only its size
    node: Node | None = None


@dataclass(frozen=True)
class Ruling:
    """A named edge-case decision, with the value we chose and where it comes from."""

    name: str
    value: object
    section: str | None
    summary: str | None
    choices: tuple | None
    node: Node | None = None
    type: str | None = None              # "color": the value is one of the variant's colors


_SNAKE = re.compile(r"[a-z][a-z0-9_]*")     # a name the schema allows as a distribution's value


@dataclass(frozen=True)
class Procedure:
    """A named effect with typed parameters (`procedures:`), run from effects as `do NAME(ARGS)`."""

    name: str
    params: tuple[tuple[str, str], ...]     # (name, type: player | number | color), in call order
    body: Text | None
    node: Node | None = None


@dataclass(frozen=True)
class Distribution:
    """A named chance (`distributions:`), read by effects as `random NAME`: values and their weights."""

    name: str
    values: tuple                   # whole numbers, or color names
    weights: tuple[int, ...]        # positive, one per value
    node: Node | None = None

    @property
    def numeric(self) -> bool:
        return all(isinstance(v, int) for v in self.values)


@dataclass(frozen=True)
class Conflict:
    """A house rule that needs a ruling when combined with another one."""

    other: str
    ruling: str
    why: str | None
    node: Node | None = None


@dataclass(frozen=True)
class Variant:
    """A whole variant after `extends`/`include` are merged and references checked."""

    name: str
    description: str | None
    path: str
    sources: tuple[str, ...]
    house_rules: tuple[str, ...]
    conflicts: dict[str, tuple[Conflict, ...]]
    # House rule id (also `stacking`, `jump_in`) -> the checked file's extends/include entry
    # that brought it in, None when the checked file itself turns it on.
    house_rule_links: dict[str, Node | None]
    min_players: int
    max_players: int
    allowed_players: tuple[int, ...] | None
    team_size: int
    colors: tuple[str, ...]
    cards: dict[str, CardType]
    declared_total: int | None
    hand_size: int
    dealer: Dealer
    on_deal: Text | None
    start_default: Text | None
    no_playable: NoPlayable
    may_draw_if: Text | None
    drawn_card: DrawnCard
    lock_allows_wild: bool
    turn_draw: Text | None            # turn.draw: what a turn's draw does, instead of no_playable's draw
    uno_enabled: bool
    uno_penalty: int                  # cards drawn by a caught player (0 when the penalty is an effect)
    uno_penalty_effect: Text | None   # uno.penalty given as an effect: self = the caught player, `catcher` readable
    uno_at: int                       # the hand size that must call UNO (1: the last card)
    uno_partner_may_call: bool
    stacking: Stacking
    stack_cards: tuple[str, ...] | None
    stack_challenge: bool
    jump_in: bool
    jump_in_wilds: bool
    on_player_out: Text | None
    after_draw: Text | None
    round_ends: RoundEnds
    max_turns: int
    stall: Stall
    eliminate_when: Text | None       # checked for every player at the end of every resolution
    eliminated_cards: EliminatedCards
    on_round_end: Text | None         # round.on_end: run once when a round with a winner ends, before scoring
    scoring: Scoring
    target: int
    score_by: ScoreBy
    max_rounds: int                   # a match that has not reached the target ends after this many rounds
    rulings: dict[str, Ruling]
    match: Text | None = None         # the matching test that replaces the fixed color/number/symbol one
    piles: dict[str, Pile] = field(default_factory=dict)   # the declared table piles, in file order
    distributions: dict[str, Distribution] = field(default_factory=dict)
    procedures: dict[str, Procedure] = field(default_factory=dict)
    # Declared variables (model/variables.py): global ones, and those with one value per player.
    state: dict[str, Variable] = field(default_factory=dict)
    player_state: dict[str, Variable] = field(default_factory=dict)
    root: Node | None = field(default=None, compare=False, repr=False)
    # Every effect and condition parsed once (an effects.ast.Syntax), set by the check step: the model
    # sits below the effect language and cannot parse; Game reads the trees from here.
    syntax: object = field(default=None, compare=False, repr=False)
    # A two-sided deck: its sides in order (the deck is dealt with the first one up), each with its
    # colors; empty for a one-sided deck.
    sides: tuple[str, ...] = ()
    side_colors: tuple[tuple[str, ...], ...] = ()
    sets: "SetRule | None" = None     # turn.sets: several cards played in one turn

    @property
    def deck_size(self) -> int:
        """Return the number of physical cards in the deck (a two-sided card counts once, by its first face)."""
        return sum(n for ct in self.cards.values() if self.dealt(ct)
                   for by_num in ct.copies.values() for n in by_num.values())

    def dealt(self, ct: CardType) -> bool:
        """Whether cards of type `ct` are dealt as they are: every type of a one-sided deck, the first side's
        of a two-sided one (the others are their backs)."""
        return not self.sides or ct.side == self.sides[0]


# ---------------------------------------------------------------------------
# Building


_KIND_WORDS = {"bool": "true/false", "int": "number", "color": "color", "string": "string"}
# What `card.NAME` reads on every card; `attrs:` may not reuse these names (E325).
BUILTIN_ATTRIBUTES = ("number", "points", "draw", "color", "type", "kind")


def attr_kind(value: object, colors: tuple[str, ...]) -> str:
    """What an `attrs:` value is: "bool", "int", "color" (a string naming a color) or "string"."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "color" if value in colors else "string"


def _origin(node: Node) -> str:
    """Where an inherited value was written: a shipped variant by its name, else path:line:col."""
    import os
    from ..source import catalog
    try:
        shipped = os.path.realpath(catalog.folder())
    except FileNotFoundError:
        shipped = None
    real = os.path.realpath(node.path)
    if shipped and os.path.dirname(real) in (shipped, os.path.join(shipped, catalog.HOUSE_RULES)):
        return f"the shipped variant '{os.path.splitext(os.path.basename(real))[0]}' (line {node.line})"
    return f"{node.path}:{node.line}:{node.column}"


class _Builder:
    """Turns a merged YAML tree into a Variant, collecting diagnostics."""

    def __init__(self, root: Node, path: str, house_rules: list[Node], links: dict[str, Node | None]):
        self.root = root
        self.path = path
        self.house_rule_nodes = house_rules
        self.links = links
        self.diags: list[Diagnostic] = []

    def error(self, node: Node | None, code: str, message: str, severity: str = "error") -> None:
        """Record a diagnostic at `node` (or at the file start)."""
        if node is None:
            self.diags.append(Diagnostic(self.path, 1, 1, code, message, severity))
        elif node.kind == "map" and node.key_line is not None:
            # A problem with a whole section or card points at the key that names it.
            self.diags.append(Diagnostic(node.path, node.key_line, node.key_column, code, message, severity))
        else:
            self.diags.append(Diagnostic(node.path, node.line, node.column, code, message, severity))

    def deck_total_error(self, total: Node, declared: int, deck_size: int) -> None:
        """E307; a total inherited from a file the user does not edit is reported in the checked file.

        There it is put at what changed the deck: the file's own `cards` key, else the
        `extends`/`include` entry that brought the cards in.
        """
        if total.path == self.path:
            self.error(total, "E307", f"deck.total says {declared} cards but the card types add up to {deck_size}")
            return
        cards = self.get(self.root, "cards")
        at = cards if cards is not None and cards.path == self.path else None
        if at is None and cards is not None:
            at = self.links.get(cards.path)
        if at is None:
            at = self.links.get(total.path)
        self.error(at, "E307", f"the card types add up to {deck_size} cards, but deck.total, inherited from "
                               f"{_origin(total)}, says {declared}: "
                               f"add 'deck: {{total: {deck_size}}}' to this file")

    # --- typed accessors; the schema has already reported type errors, so these stay quiet.

    def get(self, node: Node | None, key: str) -> Node | None:
        if node is None or node.kind != "map":
            return None
        return node.value.get(key)

    def scalar(self, node: Node | None, key: str, default, kind=None):
        child = self.get(node, key)
        if child is None or child.kind != "scalar" or child.value is None:
            return default
        value = child.value
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            return default
        if kind is bool and not isinstance(value, bool):
            return default
        if kind is str and not isinstance(value, str):
            return default
        return value

    def mode(self, node: Node | None, key: str, default: StrEnum) -> StrEnum:
        """A rule mode: the member named by the YAML word; any other value the schema reported (E2xx)."""
        word = self.scalar(node, key, default.value, str)
        return type(default)(word) if word in type(default)._value2member_map_ else default

    def text(self, node: Node | None, key: str) -> Text | None:
        """An effect's source text; anything but a string was already reported by the schema."""
        child = self.get(node, key)
        if child is None or child.kind != "scalar" or not isinstance(child.value, str):
            return None
        return Text(child.value, child)

    def condition(self, node: Node | None, key: str) -> Text | None:
        """A condition's source text; a YAML boolean is the condition `true` or `false`."""
        child = self.get(node, key)
        if child is not None and child.kind == "scalar" and isinstance(child.value, bool):
            return Text("true" if child.value else "false", child)
        return self.text(node, key)

    def strings(self, node: Node | None, key: str) -> list[tuple[str, Node]]:
        child = self.get(node, key)
        if child is None or child.kind != "seq":
            return []
        return [(str(item.value), item) for item in child.value if item.kind == "scalar" and item.value is not None]

    # --- sections

    def build(self) -> Variant | None:
        root = self.root
        colors = [c for c, _ in self.strings(root, "colors")]
        sides = self.build_sides(colors)
        cards = self.build_cards(colors, sides)
        if sides:
            self.check_backs(cards, list(sides))
        players = self.get(root, "players")
        min_p = self.scalar(players, "min", 2, int)
        max_p = self.scalar(players, "max", 10, int)
        allowed = [v for v in (self.scalar_list(players, "allowed")) if isinstance(v, int)] or None
        if allowed:
            min_p, max_p = min(allowed), max(allowed)
        if max_p < min_p:
            self.error(self.get(players, "max"), "E310", f"players.max ({max_p}) is below players.min ({min_p})")
        teams = self.get(root, "teams")
        team_size = self.scalar(teams, "size", 1, int) if teams is not None else 1
        if team_size > 1:
            for n in allowed or range(min_p, max_p + 1):
                if n % team_size:
                    self.error(players, "E311", f"{n} players cannot sit in teams of {team_size}")
                    break
                if n == team_size:
                    self.error(players, "E311", f"{n} players in teams of {team_size} make a single team; "
                                                "a team game needs at least two")
                    break
        deal = self.get(root, "deal")
        hand_size = self.scalar(deal, "hand_size", 7, int)
        deck_node = self.get(root, "deck")
        declared = self.scalar(deck_node, "total", None, int)
        variant_cards = {k: v for k, v in cards.items()}
        self.check_attrs(variant_cards, tuple(colors))
        deck_size = sum(n for ct in variant_cards.values() if not sides or ct.side == next(iter(sides))
                        for by in ct.copies.values() for n in by.values())
        if declared is not None and declared != deck_size:
            self.deck_total_error(self.get(deck_node, "total"), declared, deck_size)
        if deck_size > MAX_CARDS:
            self.error(self.get(root, "cards"), "E308", f"the deck has {deck_size} cards, over the limit of {MAX_CARDS}")
        elif cards and deck_size < max_p * hand_size + 1:
            self.error(self.get(players, "max") or self.get(root, "cards") or None, "E309",
                       f"a deck of {deck_size} cards cannot deal {hand_size} cards to {max_p} players and turn a start card")
        if not cards and not self.house_rule_nodes:
            self.error(self.get(root, "cards") or None, "E306", "the variant defines no cards")
        turn = self.get(root, "turn")
        uno = self.get(root, "uno")
        stacking = self.get(root, "stacking")
        stack_on = self.scalar(stacking, "enabled", stacking is not None, bool)
        stack_mode = self.mode(stacking, "answer", Stacking.SAME_TYPE) if stack_on else Stacking.NONE
        stack_cards = None
        if stacking is not None and self.get(stacking, "cards") is not None:
            stack_cards = []
            for card_id, node in self.strings(stacking, "cards"):
                self.check_card_ref(card_id, node, cards)
                stack_cards.append(card_id)
        jump = self.get(root, "jump_in")
        events = self.get(root, "events")
        rnd = self.get(root, "round")
        scoring = self.get(root, "scoring")
        rulings = self.build_rulings(colors)
        state, player_state = build_variables(root, colors, cards, rulings, self.error)
        conflicts = self.build_conflicts()
        self.check_exclusive()
        score_by = self.mode(scoring, "by", ScoreBy.TEAM if team_size > 1 else ScoreBy.PLAYER)
        round_ends = self.mode(rnd, "ends_when", RoundEnds.FIRST_OUT)
        if team_size < 2:
            if score_by is ScoreBy.TEAM:
                self.error(self.get(scoring, "by"), "E312", "scoring.by is 'team' but the variant has no teams")
            if round_ends is RoundEnds.TEAM_OUT:
                self.error(self.get(rnd, "ends_when"), "E312", "round.ends_when is 'team_out' but the variant has no teams")
        return Variant(
            name=self.scalar(root, "name", "unnamed", str),
            description=self.scalar(root, "description", None, str),
            path=self.path,
            sources=tuple(s for s, _ in self.strings(root, "sources")),
            house_rules=tuple(self.house_rule_ids()),
            conflicts=conflicts,
            house_rule_links=self.house_rule_links(),
            min_players=min_p,
            max_players=max_p,
            allowed_players=tuple(allowed) if allowed else None,
            team_size=team_size,
            colors=tuple(colors),
            cards=variant_cards,
            declared_total=declared,
            hand_size=hand_size,
            dealer=self.mode(deal, "dealer", Dealer.RANDOM),
            on_deal=self.text(deal, "on_deal"),
            start_default=self.text(self.get(root, "start"), "default"),
            no_playable=self.mode(turn, "no_playable", NoPlayable.DRAW_ONE),
            may_draw_if=self.condition(turn, "may_draw_if"),
            drawn_card=self.mode(turn, "drawn_card", DrawnCard.OPTIONAL),
            lock_allows_wild=self.scalar(turn, "lock_allows_wild", False, bool),
            turn_draw=self.text(turn, "draw"),
            uno_enabled=self.scalar(uno, "enabled", True, bool),
            uno_penalty=self.scalar(uno, "penalty", 0 if self.text(uno, "penalty") else 2, int),
            uno_penalty_effect=self.text(uno, "penalty"),
            uno_at=self.scalar(uno, "at", 1, int),
            uno_partner_may_call=self.scalar(uno, "partner_may_call", False, bool),
            stacking=stack_mode,
            stack_cards=tuple(stack_cards) if stack_cards is not None else None,
            stack_challenge=self.scalar(stacking, "challenge", False, bool),
            jump_in=self.scalar(jump, "enabled", jump is not None, bool),
            jump_in_wilds=self.scalar(jump, "wilds", False, bool),
            on_player_out=self.text(events, "player_out"),
            after_draw=self.text(events, "after_draw"),
            round_ends=round_ends,
            max_turns=self.scalar(rnd, "max_turns", 3000, int),
            stall=self.mode(rnd, "stall", Stall.FEWEST_POINTS),
            eliminate_when=self.condition(rnd, "eliminate_when"),
            eliminated_cards=self.mode(rnd, "eliminated_cards", EliminatedCards.UNDER_DRAW),
            on_round_end=self.text(rnd, "on_end"),
            scoring=self.mode(scoring, "mode", Scoring.WINNER_COLLECTS),
            target=self.scalar(scoring, "target", 500, int),
            max_rounds=self.scalar(scoring, "max_rounds", 1000, int),
            score_by=score_by,
            rulings=rulings,
            match=self.condition(root, "match"),
            piles=self.build_piles(),
            distributions=self.build_distributions(colors),
            procedures=self.build_procedures(),
            state=state,
            player_state=player_state,
            root=root,
            sides=tuple(sides),
            side_colors=tuple(tuple(c) for c in sides.values()),
            sets=self.build_sets(turn),
        )

    def scalar_list(self, node, key):
        child = self.get(node, key)
        if child is None or child.kind != "seq":
            return []
        return [item.value for item in child.value if item.kind == "scalar"]

    def house_rule_ids(self) -> list[str]:
        return [self.scalar(node, "id", "", str) for node in self.house_rule_nodes]

    def check_card_ref(self, card_id: str, node: Node, cards: dict) -> None:
        if card_id not in cards:
            self.error(node, "E301", f"unknown card type '{card_id}'" + suggestion_suffix(card_id, cards))

    def build_cards(self, colors: list[str], sides: dict[str, list[str]]) -> dict[str, CardType]:
        cards_node = self.get(self.root, "cards")
        out: dict[str, CardType] = {}
        if cards_node is None or cards_node.kind != "map":
            return out
        for card_id, spec in cards_node.value.items():
            if spec.kind == "scalar" and spec.value is None:
                continue                     # `card: null` in an including file removes the type
            if spec.kind != "map":
                continue
            side, side_colors = "", colors
            if sides:
                side = self.scalar(spec, "side", next(iter(sides)), str)
                if side not in sides:
                    self.error(self.get(spec, "side"), "E317", f"unknown side '{side}'" + suggestion_suffix(side, sides))
                    continue
                side_colors = sides[side]
            else:
                for key in ("side", "back"):
                    if self.get(spec, key) is not None:
                        self.error(self.get(spec, key), "E317", f"'{key}' needs a two-sided deck: "
                                   "declare its sides at the top level (sides: {light: [...], dark: [...]})")
            card = self.build_card(card_id, spec, colors, side_colors)
            if card is not None and sides:
                card = replace(card, side=side, back=self.scalar(spec, "back", None, str))
            if card is not None:
                out[card_id] = card
        return out

    def _given_twice(self, card_id: str, twice: list[int], key: str, node: Node,
                     given_by: dict[int, tuple[str, Node]]) -> None:
        """E303 once for each earlier key that gave some of `twice` again; an inherited key is named, with
        where it comes from and how to remove it."""
        shown = set()
        for n in twice:
            other_key, other = given_by[n]
            if other_key in shown:
                continue
            shown.add(other_key)
            numbers = [m for m in twice if given_by[m][0] == other_key]
            which = (f"number {numbers[0]}" if len(numbers) == 1 else
                     f"numbers {numbers[0]}-{numbers[-1]}" if numbers == list(range(numbers[0], numbers[-1] + 1))
                     else "numbers " + ", ".join(map(str, numbers)))
            verb = "is" if len(numbers) == 1 else "are"
            if other.path != node.path:
                self.error(node, "E303", f"{which} of '{card_id}' given by '{key}' here {verb} also given by "
                           f"'{other_key}', inherited from {os.path.basename(other.path)} (line {other.line}): "
                           f"to replace that range, remove it with '\"{other_key}\": null'")
            else:
                self.error(node, "E303", f"{which} of '{card_id}' given by '{key}' {verb} also given by "
                           f"'{other_key}'")

    def build_card(self, card_id: str, spec: Node, colors: list[str],
                   side_colors: list[str] | None = None) -> CardType | None:
        wild = self.scalar(spec, "wild", False, bool)
        numbers_node = self.get(spec, "numbers")
        numbers: dict[int | None, int] = {}
        given_by: dict[int, tuple[str, Node]] = {}          # number -> the key and count that gave it
        if numbers_node is not None and numbers_node.kind == "map":
            for key, count_node in numbers_node.value.items():
                count = count_node.value if count_node.kind == "scalar" else None
                if not isinstance(count, int) or isinstance(count, bool):
                    continue
                rng = self.number_range(str(key), count_node)
                if rng is None:
                    continue
                if count > MAX_COUNT or count < 0:
                    continue                  # the schema reports the range (E204)
                twice = [n for n in rng if n in numbers]
                if twice:
                    self._given_twice(card_id, twice, str(key), count_node, given_by)
                for n in rng:
                    numbers[n] = count
                    given_by[n] = (str(key), count_node)
        per_color = self.scalar(spec, "per_color", None, int)
        count = self.scalar(spec, "count", None, int)
        for key, val in (("per_color", per_color), ("count", count)):
            if self.get(spec, key) is not None and val is None:
                return None                   # present but not an integer: the schema reports it (E202)
            if val is not None and not 0 <= val <= MAX_COUNT:
                return None                   # the schema reports the range (E204)
        card_colors = colors if side_colors is None else side_colors
        if self.get(spec, "colors") is not None:
            card_colors = []
            for color, node in self.strings(spec, "colors"):
                if color not in colors:
                    self.error(node, "E302", f"unknown color '{color}'" + suggestion_suffix(color, colors))
                else:
                    card_colors.append(color)
        given = [k for k in ("numbers", "per_color", "count") if self.get(spec, k) is not None]
        if len(given) != 1:
            self.error(spec, "E303", f"card type '{card_id}' needs exactly one of numbers, per_color or count"
                       + (f" (it has {', '.join(given)})" if given else ""))
            return None
        copies: dict[str, dict[int | None, int]] = {}
        if numbers_node is not None and not numbers:
            self.error(numbers_node, "E303", f"card type '{card_id}' lists no valid numbers")
            return None
        if count is not None:
            copies[""] = {None: count}
        elif wild and not card_colors:
            copies[""] = numbers if numbers else {None: per_color or 0}
        else:
            for color in card_colors:
                copies[color] = dict(numbers) if numbers else {None: per_color}
        kind = self.scalar(spec, "kind", "number" if numbers else ("wild" if wild else "action"), str)
        points_node = self.get(spec, "points")
        points: int | None = 0
        if points_node is not None and points_node.kind == "scalar":
            if points_node.value == "face":
                points = None
                if not numbers:
                    self.error(points_node, "E313", f"'{card_id}' scores its face value but has no numbers")
            elif isinstance(points_node.value, int):
                points = points_node.value
        elif self.mode(self.get(self.root, "scoring"), "mode", Scoring.WINNER_COLLECTS) is not Scoring.NONE:
            self.error(spec, "E314", f"card type '{card_id}' has no points but scoring is on")
        return CardType(
            id=card_id,
            name=self.scalar(spec, "name", card_id.replace("_", " ").title(), str),
            kind=kind,
            wild=wild,
            copies=copies,
            points=points,
            draw=self.scalar(spec, "draw", 0, int),
            label=self.scalar(spec, "label", "", str),
            restriction=self.condition(spec, "restriction"),
            restriction_check=self.mode(spec, "restriction_check", RestrictionCheck.CHALLENGE),
            on_play=self.text(spec, "on_play"),
            on_start=self.text(spec, "on_start"),
            last_card=self.mode(spec, "last_card", LastCard.RESOLVE),
            text=self.scalar(spec, "text", None, str),
            node=spec,
            attrs=self.card_attrs(card_id, spec),
            match=self.condition(spec, "match"),
        )

    def build_piles(self) -> dict[str, Pile]:
        """The declared piles; `draw` and `discard` name the two every game has (E319)."""
        node = self.get(self.root, "piles")
        out: dict[str, Pile] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue                              # null removed an inherited pile; else the schema reported it
            if name in ("draw", "discard"):
                self.error(spec, "E319", f"'{name}' is the {name} pile every game has: give the pile another name")
                continue
            out[str(name)] = Pile(str(name), self.scalar(spec, "face", "up", str) == "up", spec)
        return out

    def check_attrs(self, cards: dict[str, CardType], colors: tuple[str, ...]) -> None:
        """E318 for an attribute that holds values of two kinds on two card types (card.NAME has one type)."""
        first: dict[str, tuple[str, str]] = {}
        for card in cards.values():
            for name, value in card.attrs.items():
                kind = attr_kind(value, colors)
                seen = first.setdefault(name, (kind, card.id))
                if seen[0] != kind:
                    node = self.get(self.get(card.node, "attrs"), name)
                    self.error(node, "E318", f"attribute '{name}' is a {_KIND_WORDS[kind]} on '{card.id}' but a "
                                             f"{_KIND_WORDS[seen[0]]} on '{seen[1]}'")

    def card_attrs(self, card_id: str, spec: Node) -> dict[str, object]:
        """A card type's `attrs:`; a name the language already gives every card is E325."""
        node = self.get(spec, "attrs")
        out: dict[str, object] = {}
        if node is None or node.kind != "map":
            return out
        for name, value in node.value.items():
            if name in BUILTIN_ATTRIBUTES:
                self.error(value, "E325", f"'{name}' is already an attribute of every card (card.{name}): "
                                          f"give '{card_id}' an attribute of another name")
            elif value.kind == "scalar" and isinstance(value.value, (bool, int, str)):
                out[str(name)] = value.value          # any other value the schema reported (E202)
        return out

    def number_range(self, key: str, node: Node) -> range | None:
        m = re.fullmatch(r"(\d{1,4})(?:-(\d{1,4}))?", key)
        if not m:
            self.error(node, "E303", f"'{key}' is not a number or a range like 1-9")
            return None
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            self.error(node, "E303", f"range {key} is empty")
            return None
        return range(lo, hi + 1)

    # --- a two-sided deck

    def build_sides(self, colors: list[str]) -> dict[str, list[str]]:
        """`sides:` (side name -> its colors, in order), or {} for a one-sided deck; E302 for a color
        that is not one of the variant's."""
        node = self.get(self.root, "sides")
        out: dict[str, list[str]] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            out[name] = []
            for color, at in self.strings(node, name):
                if color not in colors:
                    self.error(at, "E302", f"unknown color '{color}'" + suggestion_suffix(color, colors))
                else:
                    out[name].append(color)
        if len(out) != 2:
            self.error(node, "E317", f"a two-sided deck has two sides, not {len(out)}")
            return {}
        return out

    def check_backs(self, cards: dict[str, CardType], sides: list[str]) -> None:
        """E317 unless every first-side type names a back on the other side that pairs with it card for
        card (color by position in the type's colors, the same numbers, the same copies), and every
        other-side type is the back of exactly one type; E301 for a back of an unknown type."""
        first, other = sides
        backed: dict[str, str] = {}
        for ct in cards.values():
            back_node = self.get(ct.node, "back")
            if ct.side != first:
                if back_node is not None:
                    self.error(back_node, "E317", f"'{ct.id}' is on the {other} side: only the {first} side's "
                               f"card types name their back (the {other} face is printed on it)")
                continue
            if ct.back is None:
                self.error(ct.node, "E317", f"card type '{ct.id}' is on the {first} side of a two-sided deck "
                           f"and needs a 'back:', the {other} card type printed on its other face")
                continue
            back = cards.get(ct.back)
            if back is None:
                self.error(back_node, "E301", f"unknown card type '{ct.back}'"
                           + suggestion_suffix(ct.back, [c.id for c in cards.values() if c.side == other]))
            elif back.side != other:
                self.error(back_node, "E317", f"the back of '{ct.id}' must be a card type of the {other} side, "
                           f"but '{back.id}' is on the {first} side")
            elif back.id in backed:
                self.error(back_node, "E317", f"'{back.id}' is already the back of '{backed[back.id]}': "
                           "each card type of the other side backs one type")
            elif list(ct.copies.values()) != list(back.copies.values()):
                self.error(back_node, "E317", f"'{ct.id}' and its back '{back.id}' do not pair card for card: "
                           f"they need as many colors (the first of one backs the first of the other, and so on), "
                           f"the same numbers and the same copies of each ({_copies(ct)} against {_copies(back)})")
            else:
                backed[back.id] = ct.id
        for ct in cards.values():
            if ct.side == other and ct.id not in backed and not any(c.back == ct.id for c in cards.values()):
                self.error(ct.node, "E317", f"card type '{ct.id}' is on the {other} side but is the back of "
                           f"no card type: name it as the 'back:' of a {first} card type")

    def build_rulings(self, colors: list[str]) -> dict[str, Ruling]:
        node = self.get(self.root, "rulings")
        out: dict[str, Ruling] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            value_node = self.get(spec, "value")
            value = value_node.value if value_node is not None and value_node.kind == "scalar" else None
            choices_node = self.get(spec, "choices")
            choices = tuple(self.scalar_list(spec, "choices")) if choices_node is not None else None
            if choices and value not in choices:
                shown = ", ".join(json.dumps(c) for c in choices)
                self.error(value_node or spec, "E315",
                           f"ruling '{name}' has value {json.dumps(value)}, not one of its choices [{shown}]")
            kind = self.scalar(spec, "type", None, str)
            if kind == "color" and value not in colors:
                self.error(value_node or spec, "E343", f"ruling '{name}' is a color, but {json.dumps(value)} is not "
                           "one of the colors" + suggestion_suffix(str(value), colors))
            out[name] = Ruling(name, value, self.scalar(spec, "section", None, str),
                               self.scalar(spec, "summary", None, str), choices, spec, kind)
        return out

    def build_distributions(self, colors: list[str]) -> dict[str, Distribution]:
        """The `distributions:` map; E350 for one without values, mixing numbers with names, or naming
        something but a color (the schema holds the keys and weights to their form)."""
        node = self.get(self.root, "distributions")
        out: dict[str, Distribution] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            pairs = [(int(key) if re.fullmatch(r"-?[0-9]+", key) else key, weight.value)
                     for key, weight in spec.value.items()
                     if weight.kind == "scalar" and type(weight.value) is int and weight.value > 0]
            numbers = sum(isinstance(value, int) for value, _ in pairs)
            if not spec.value:
                self.error(spec, "E350", f"distribution '{name}' has no values")
            elif 0 < numbers < len(pairs):
                self.error(spec, "E350", f"distribution '{name}' mixes numbers and names: give it only one kind")
            elif not numbers and any(value not in colors and _SNAKE.fullmatch(value) for value, _ in pairs):
                bad = next(value for value, _ in pairs if value not in colors and _SNAKE.fullmatch(value))
                self.error(spec, "E350", f"distribution '{name}' names '{bad}', which is not a color"
                           + suggestion_suffix(bad, colors))
            elif pairs:
                out[name] = Distribution(name, tuple(v for v, _ in pairs), tuple(w for _, w in pairs), spec)
        return out

    def build_procedures(self) -> dict[str, Procedure]:
        """The `procedures:` map (the schema holds its form; effects.check checks the bodies and calls)."""
        node = self.get(self.root, "procedures")
        out: dict[str, Procedure] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            params = self.get(spec, "params")
            typed = tuple((param, kind.value) for param, kind in (params.value.items() if params is not None
                                                                   and params.kind == "map" else ())
                          if kind.kind == "scalar" and kind.value in ("player", "number", "color"))
            out[name] = Procedure(name, typed, self.text(spec, "body"), spec)
        return out

    def build_conflicts(self) -> dict[str, tuple[Conflict, ...]]:
        out: dict[str, tuple[Conflict, ...]] = {}
        for node in self.house_rule_nodes:
            rule_id = self.scalar(node, "id", "", str)
            items = self.get(node, "conflicts")
            conflicts = []
            for item in (items.value if items is not None and items.kind == "seq" else []):
                conflicts.append(Conflict(self.scalar(item, "with", "", str), self.scalar(item, "ruling", "", str),
                                          self.scalar(item, "why", None, str), item))
            out[rule_id] = tuple(conflicts)
        return out


    def house_rule_links(self) -> dict[str, Node | None]:
        out = {self.scalar(node, "id", "", str): self.links.get(node.path) for node in self.house_rule_nodes}
        for section in ("stacking", "jump_in"):
            node = self.get(self.root, section)
            if node is not None:
                out.setdefault(section, self.links.get(node.path))
        return out

    def check_exclusive(self) -> None:
        """E331 for a house rule that shares its `exclusive` name with one merged before it."""
        first: dict[str, str] = {}
        for node in self.house_rule_nodes:
            rule_id = self.scalar(node, "id", "", str)
            group = self.scalar(node, "exclusive", None, str)
            if group is None:
                continue
            earlier = first.setdefault(group, rule_id)
            if earlier != rule_id:
                # The entry that brought the second one in is what the user has to change.
                self.error(self.links.get(node.path) or self.get(node, "exclusive"), "E331",
                           f"house rules '{earlier}' and '{rule_id}' are both 'exclusive: {group}': "
                           f"include only one of them")


    def build_sets(self, turn: Node | None) -> "SetRule | None":
        """turn.sets: the conditions a set of cards played in one turn is built by, and its longest length."""
        node = self.get(turn, "sets")
        if node is None or node.kind != "map":
            return None
        return SetRule(self.scalar(node, "max", SET_MAX_DEFAULT, int), self.condition(node, "continue"),
                       self.condition(node, "finish"), node)


def _copies(ct: CardType) -> str:
    """A type's cards in short, for a diagnostic: '4 colors x 2 copies of 1-9' and the like."""
    colors = [c for c in ct.copies if c] or ["no color"]
    counts = sorted({n for by in ct.copies.values() for n in by.values()})
    numbers = sorted(n for n in next(iter(ct.copies.values()), {}) if n is not None)
    what = f"numbers {numbers[0]}-{numbers[-1]}" if numbers else "the card"
    return f"{len(colors) if colors != ['no color'] else 'no'} color{'s' if len(colors) != 1 else ''}, " \
           f"{'/'.join(map(str, counts))} of {what}"


def build_variant(root: Node, path: str, house_rules: list[Node] = (),
                  links: dict[str, Node | None] | None = None) -> tuple[Variant | None, list[Diagnostic]]:
    """Build the typed variant from a merged, schema-checked tree.

    `links` maps each file of the composition to the checked file's entry that brought it
    in (see `compose.Composition.links`), so problems of the combination point there.
    """
    builder = _Builder(root, path, list(house_rules), dict(links or {}))
    variant = builder.build()
    return variant, builder.diags


# --- sets (turn.sets)

SET_MAX_DEFAULT = 4         # the longest set when turn.sets gives no `max` (the schema allows 2 to 6)


@dataclass(frozen=True)
class SetRule:
    """turn.sets: after a card played on their turn, a player may go on playing cards for which
    `continue` holds, one at a time, up to `max` cards; a set of two or more ends only where `finish` holds."""

    max: int
    continue_: Text | None
    finish: Text | None                 # None: any set may end after any card
    node: Node | None = None
