"""The typed variant: frozen dataclasses built from a located YAML tree (by `build`).

The build resolves cross references (card types, colors, rulings) and reports
E3xx diagnostics; effect strings stay as located text for `effects.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..source.yaml_tree import Node
from .variables import Variable

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


class CatchLimit(StrEnum):
    """uno.catch.limit: how often a player may accuse others of a missed call."""
    NONE = "none"
    WINDOW = "window"           # once each time a catch window is open
    ROUND = "round"             # once each round


class RestrictionCheck(StrEnum):
    """A card's restriction_check: a bluff that may be challenged, or a card that may not be played."""
    CHALLENGE = "challenge"
    STRICT = "strict"


class LastCard(StrEnum):
    """A card's last_card: whether its effect resolves when it is a player's last card."""
    RESOLVE = "resolve"
    IGNORE = "ignore"


class RolesGiven(StrEnum):
    """roles.given: how seats get their roles as a match begins."""
    SEAT = "seat"             # in seat order: seat 0 the first role of the list, and so on
    RANDOM = "random"         # the same roles, seated at random


@dataclass(frozen=True)
class Role:
    """A role a seat may have (`roles.names`): held by up to `seats` seats for the whole match."""

    name: str
    seats: int
    summary: str | None
    node: Node | None = None


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
    # The card's restrictions: `strict`, a condition it cannot be played without; `challenge`, one it is played
    # against freely, which a `may challenge` finds out (the play's honesty). `restriction: C` with
    # `restriction_check` is one of the two; `restriction: {strict: C, challenge: D}` gives both.
    strict: Text | None
    challenge: Text | None
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
    # Played on a pending draw stack: the effect run in place of on_play (it passes the stack on), and
    # when it applies (None: always). A card type with one answers a stack when it matches as on a turn.
    on_stack: Text | None = None
    on_stack_if: Text | None = None


@dataclass(frozen=True)
class Pile:
    """A table pile beyond the draw and discard piles (`piles:`): empty when a round starts, unless dealt to."""

    name: str
    face_up: bool                              # every card public (as the discard pile), else only its size
    node: Node | None = None
    playable: bool = False                     # cards are played on it, as on the discard pile (its own top, color)
    per_player: bool = False                   # each seat has its own pile of this name (`stock of P`)
    deal: int = 0                              # cards dealt onto it (onto each seat's) from the deck as a round starts
    count: int = 0                             # an array of this many piles (`count: N`, named `lane 1` ...), 0 one pile
    per_role: bool = False                     # each role (roles:) has its own pile of this name (`armory of captain`)
    where: Text | None = None                  # filled from the deck's cards meeting it (`card`), before the hands


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


@dataclass(frozen=True)
class Procedure:
    """A named effect with typed parameters (`procedures:`), run from effects as `do NAME(ARGS)`."""

    name: str
    params: tuple[tuple[str, str], ...]     # (name, type: player | number | color), in call order
    body: Text | None
    node: Node | None = None


@dataclass(frozen=True)
class Function:
    """A named value or condition with typed parameters (`functions:`), read by expressions as `NAME(ARGS)`."""

    name: str
    params: tuple[tuple[str, str], ...]     # (name, type: player | number | color), in call order
    value: Text | None
    node: Node | None = None


@dataclass(frozen=True)
class Window:
    """A rule players may invoke at any time (`windows:`): offered between turns to each member of `who` for
    whom `when` holds, as the UNO catch window is; invoking it runs `effect` with self = the invoker."""

    name: str
    who: str                        # all | others | opponents (of the player whose turn ends)
    when: Text | None               # None: always
    effect: Text | None
    summary: str = ""
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
    # stacking.skips: the card types that answer a pending skip (None: skips are not stacked), and whether an
    # answer adds its skips to the pending ones (counted) or passes on its own.
    skip_answers: tuple[str, ...] | None
    skips_counted: bool
    jump_in: bool
    jump_in_wilds: bool
    on_player_out: Text | None
    after_draw: Text | None
    round_ends: RoundEnds
    max_turns: int
    stall: Stall
    eliminate_when: Text | None       # checked for every player at the end of every resolution
    win_when: Text | None             # round.win_when: a player for whom it holds as a resolution settles wins
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
    functions: dict[str, Function] = field(default_factory=dict)
    windows: dict[str, Window] = field(default_factory=dict)     # windows: rules invoked at any time, in file order
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
    uno_call: str = "UNO"             # uno.call: the word called (the action stays `uno`)
    # uno.false_call and uno.catch (docs/language.md 9.9); each None where the variant has none of it.
    uno_false_call: int | None = None         # cards a false caller draws (0 when it is an effect): false calls exist
    uno_false_call_effect: Text | None = None     # uno.false_call as an effect: self = the caller
    uno_catch_if: Text | None = None          # whether `catcher` may accuse `self` in the catch window
    uno_catch_limit: CatchLimit = CatchLimit.NONE     # how often a player may accuse
    uno_wrong_catch: int | None = None        # cards a wrong accuser draws (0 when an effect): accusations may be wrong
    uno_wrong_catch_effect: Text | None = None    # uno.catch.wrong as an effect: self = the accuser
    # uno.out (docs/language.md 9.9): a call due with the last card; None where the variant has none.
    uno_out_call: str | None = None           # the word called with the last card: the out call exists
    uno_out_penalty: int = 2                  # cards drawn by a player who plays their last card without it
    uno_out_penalty_effect: Text | None = None    # uno.out.penalty as an effect: self = that player
    # House rule id -> its `summary` (what it changes, for the rulebook), for those that give one.
    house_rule_summaries: dict[str, str] = field(default_factory=dict)
    # events.turn_start / turn_end: run as each turn begins and ends (self = the player whose turn it is);
    # events.card_played: run after every card played and its own effect (self = its player, card = it).
    turn_start: Text | None = None
    turn_end: Text | None = None
    card_played: Text | None = None
    # How a round starts and stops (issue 29, item 4):
    start_card: bool = True           # start.card: false deals no start card (empty discard pile, no color)
    reshuffle: bool = True            # deck.reshuffle: false never turns the discard pile into a new draw pile
    blocked: "Stall | None" = None    # round.blocked: who wins a round nobody can go on with (None: no such end)
    # deck.packs: (fewest players, most players, packs) ranges; a table of n players plays packs_for(n) packs.
    packs: tuple[tuple[int, int, int], ...] = ()
    # Seats with roles (issue 29, item 8): the roles in file order, and how they are given as a match begins.
    roles: dict[str, Role] = field(default_factory=dict)
    roles_given: RolesGiven = RolesGiven.SEAT

    def roles_for(self, players: int) -> tuple[int, ...]:
        """The roles (indices into `roles`) of a table of `players` in seat order before any are seated at
        random: each role as many times as its `seats`, in file order, the first `players` of them."""
        out: list[int] = []
        for i, role in enumerate(self.roles.values()):
            out.extend([i] * role.seats)
        return tuple(out[:players])

    def packs_for(self, players: int) -> int:
        """How many copies of the deck a table of `players` plays with (deck.packs; 1 outside its ranges)."""
        for low, high, packs in self.packs:
            if low <= players <= high:
                return packs
        return 1

    def event_effects(self) -> dict[str, Text]:
        """The effects of the `events:` section that the file gives, by key (EVENTS' order)."""
        return {key: text for key, attr in EVENTS.items() if (text := getattr(self, attr)) is not None}

    @property
    def deck_size(self) -> int:
        """Return the number of physical cards in the deck (a two-sided card counts once, by its first face)."""
        return sum(n for ct in self.cards.values() if self.dealt(ct)
                   for by_num in ct.copies.values() for n in by_num.values())

    def dealt(self, ct: CardType) -> bool:
        """Whether cards of type `ct` are dealt as they are: every type of a one-sided deck, the first side's
        of a two-sided one (the others are their backs)."""
        return not self.sides or ct.side == self.sides[0]


# The keys of `events:`, each with the Variant field holding its effect, in the order they are read and
# compiled: every stage (parse, check, lower, the rulebook, the fuzz generator) reads them from here.
EVENTS = {"player_out": "on_player_out", "after_draw": "after_draw", "turn_start": "turn_start",
          "turn_end": "turn_end", "card_played": "card_played"}


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
