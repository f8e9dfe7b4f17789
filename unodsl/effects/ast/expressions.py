"""The syntax tree's expressions: one node class per expression rule (operators, tests, atoms,
players, groups), and the declared variables' statements and reads."""

from __future__ import annotations

from .nodes import KEYWORD, Expr, Node, Span, Stmt, _rule


# ---- expressions: operators ----------------------------------------------------------------------


@_rule("or_expr")
class Or(Expr):
    parts: tuple[Expr, ...]


@_rule("and_expr")
class And(Expr):
    parts: tuple[Expr, ...]


@_rule("not_")
class Not(Expr):
    operand: Expr


@_rule("comparison")
class Compare(Expr):
    left: Expr
    op: str
    right: Expr
    op_span: Span = KEYWORD


@_rule("binop")
class BinOp(Expr):
    left: Expr
    op: str
    right: Expr


@_rule("neg")
class Neg(Expr):
    operand: Expr


# ---- expressions: tests on players and cards -----------------------------------------------------


@_rule("hold_color")
class HoldColor(Node):
    color: Expr


@_rule("hold_type")
class HoldType(Node):
    name: str


@_rule("hold_wild")
class HoldWild(Node):
    pass


@_rule("hold_playable")
class HoldPlayable(Node):
    pass


@_rule("hold_number")
class HoldNumber(Node):
    number: Expr


@_rule("holds")
class Holds(Expr):
    who: Expr
    what: Node                     # HoldColor, HoldType, HoldWild, HoldPlayable or HoldNumber


@_rule("is_out")
class IsOut(Expr):
    who: Expr


@_rule("role_is")
class RoleIs(Expr):
    who: Expr
    role: str                      # a name of roles.names


@_rule("is_partner")
class IsPartner(Expr):
    who: Expr
    other: Expr


@_rule("card_is")
class CardIs(Expr):
    kind: str


@_rule("side_is")
class SideIs(Expr):
    side: str


@_rule("top_is")
class TopIs(Expr):
    kind: str


# ---- expressions: atoms --------------------------------------------------------------------------


@_rule("int_")
class Int(Expr):
    digits: str                    # as written: the checker refuses one too large (E512)


@_rule("true")
class TrueLit(Expr):
    pass


@_rule("false")
class FalseLit(Expr):
    pass


@_rule("string")
class String(Expr):
    value: str                     # without its quotes


@_rule("current_color")
class CurrentColor(Expr):
    pass


@_rule("player_count")
class PlayerCount(Expr):
    pass


@_rule("stack_size")
class StackSize(Expr):
    pass


@_rule("jumped")
class Jumped(Expr):
    pass


@_rule("card_attr")
class CardAttr(Expr):
    name: str


@_rule("top_attr")
class TopAttr(Expr):
    name: str                      # of the top card of the discard pile


@_rule("drawn_attr")
class DrawnAttr(Expr):
    """`drawn.NAME`: an attribute of the card just drawn, inside a `draws until` condition."""
    name: str


@_rule("drawn_is")
class DrawnIs(Expr):
    """`drawn is KIND`, inside a `draws until` condition."""
    kind: str


@_rule("rule_ref")
class RuleRef(Expr):
    name: str


@_rule("hand_size")
class HandSize(Expr):
    who: Expr


@_rule("hand_points")
class HandPoints(Expr):
    who: Expr


@_rule("half")
class Half(Expr):
    value: Expr


@_rule("max_hand")
class MaxHand(Expr):
    group: Expr


@_rule("min_hand")
class MinHand(Expr):
    group: Expr


@_rule("group_count")
class GroupCount(Expr):
    group: Expr


@_rule("seat_pile")
class SeatPile(Expr):
    """`NAME of P`: P's own pile of a pile of each player (`per_player: true`), wherever a pile is named."""
    name: str
    who: Expr


@_rule("indexed_pile")
class IndexedPile(Expr):
    """`NAME N`: pile N (from 1) of an array of piles (`count: N`), wherever a pile is named; N a number or a
    number's name (`lane 2`, `lane i`)."""
    name: str
    index: Expr


@_rule("role_pile")
class RolePile(Expr):
    """`NAME of role of P`: the pile of P's role of a pile of each role (`per_role: true`), wherever a pile is
    named; a role's own by its name is a SeatPile whose owner is the role's name (`armory of captain`)."""
    name: str
    who: Expr


@_rule("pile_count")
class PileCount(Expr):
    pile: str | SeatPile | IndexedPile | RolePile


@_rule("pile_top_attr")
class PileTopAttr(Expr):
    pile: str | SeatPile           # `top of PILE.NAME`: an attribute of a pile's top card
    name: str


@_rule("random_between")
class RandomBetween(Expr):
    """A whole number from low to high, both included, drawn from the game's generator."""

    low: Expr
    high: Expr


@_rule("random_from")
class RandomFrom(Expr):
    """A value drawn from a declared distribution (`distributions:`), by its weights."""

    name: str


@_rule("choose_player")
class ChoosePlayer(Expr):
    """A player of `group` chosen by `chooser` (None: the effect's owner, `self`): `let NAME = P chooses player G`."""

    group: Expr
    chooser: Expr | None = None


@_rule("choose_color_value")
class ChooseColorValue(Expr):
    """A color chosen by `chooser` (None: the effect's owner, `self`), the color in play unchanged:
    `let NAME = P chooses color`."""

    chooser: Expr | None = None


@_rule("choose_number")
class ChooseNumber(Expr):
    """A whole number from `low` to `high` chosen by `chooser` (None: the effect's owner, `self`):
    `let NAME = P chooses number from A to B`."""

    low: Expr
    high: Expr
    chooser: Expr | None = None


@_rule("var")
class Var(Expr):
    name: str


# ---- expressions: players ------------------------------------------------------------------------


@_rule("self_")
class Self(Expr):
    pass


@_rule("next_")
class Next(Expr):
    pass


@_rule("previous")
class Previous(Expr):
    pass


@_rule("dealer")
class Dealer(Expr):
    pass


@_rule("partner_self")
class PartnerSelf(Expr):
    pass


@_rule("partner_of")
class PartnerOf(Expr):
    who: Expr


@_rule("next_of")
class NextOf(Expr):
    who: Expr


@_rule("next_seat")
class NextSeat(Expr):
    pass


@_rule("seat_after")
class SeatAfter(Expr):
    who: Expr


@_rule("most_cards")
class MostCards(Expr):
    pass


@_rule("fewest_cards")
class FewestCards(Expr):
    pass


@_rule("catcher")
class Catcher(Expr):
    pass


# ---- expressions: groups -------------------------------------------------------------------------


@_rule("all_players")
class AllPlayers(Expr):
    pass


@_rule("others")
class Others(Expr):
    pass


@_rule("opponents")
class Opponents(Expr):
    pass


@_rule("team_of")
class TeamOf(Expr):
    who: Expr


@_rule("all_from")
class AllFrom(Expr):
    who: Expr


@_rule("others_from")
class OthersFrom(Expr):
    who: Expr


@_rule("one_per_team")
class OnePerTeam(Expr):
    pass


# ---- declared variables and seats ---------------------------------------------------------------


@_rule("set_var")
class SetVar(Stmt):
    name: str
    value: Expr


@_rule("set_var_of")
class SetVarOf(Stmt):
    name: str
    who: Expr
    value: Expr


@_rule("var_of")
class VarOf(Expr):
    name: str
    who: Expr


@_rule("direction")
class Direction(Expr):
    pass


@_rule("previous_of")
class PreviousOf(Expr):
    who: Expr


@_rule("left_of")
class LeftOf(Expr):
    who: Expr


@_rule("right_of")
class RightOf(Expr):
    who: Expr


# --- sets (turn.sets): several cards played in one turn

@_rule("set_attr")
class SetAttr(Expr):
    """`set.size` / `set.sum`: how many cards the set being played holds, and the sum of their numbers."""
    name: str


@_rule("set_card_attr")
class SetCardAttr(Expr):
    """`set.first.NAME` / `set.base.NAME`: an attribute of the set's first card, or of the card it was played on."""
    card: str
    name: str


# --- collections: cards and players as values, filters and aggregates

@_rule("cards_of")
class CardsOf(Expr):
    """`cards of P` (P's hand) or `cards of PILE` (a pile's cards, bottom first): the checker tells which."""
    who: Expr


@_rule("group_except")
class GroupExcept(Expr):
    """`G except P`: the group without P."""
    group: Expr
    who: Expr


@_rule("filter_where")
class Where(Expr):
    """`C where COND`: the members of a collection for which COND holds (COND reads `card` or `player`)."""
    members: Expr
    test: Expr


@_rule("each_player")
class EachPlayer(Expr):
    """`player`: the member of a group a filter or an aggregate is reading."""


class Aggregate(Expr):
    """`AGG(EXPR over C)`: EXPR read once per member of C, folded into one value."""

    __slots__ = ()


@_rule("agg_sum")
class AggSum(Aggregate):
    value: Expr
    over: Expr


@_rule("agg_max")
class AggMax(Aggregate):
    value: Expr
    over: Expr


@_rule("agg_min")
class AggMin(Aggregate):
    value: Expr
    over: Expr


@_rule("agg_any")
class AggAny(Aggregate):
    value: Expr
    over: Expr


@_rule("agg_all")
class AggAll(Aggregate):
    value: Expr
    over: Expr



@_rule("fn_call")
class FnCall(Expr):
    """`NAME(ARGS)`: the value of a function (`functions:`), its parameters standing for the arguments."""
    name: str
    args: tuple[Expr, ...]



@_rule("under_attr")
class UnderAttr(Expr):
    """`under.NAME`: an attribute of the card this card was played on (in a card's on_play and on_stack)."""
    name: str


@_rule("under_is")
class UnderIs(Expr):
    """`under is KIND`: the kind of the card this card was played on."""
    kind: str
