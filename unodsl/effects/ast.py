"""The effect syntax tree: one frozen dataclass per grammar rule, each with its source span.

`effects.parse` builds it once from Lark's tree; the checker, the folder, the lowering
and the rulebook read it. Each class names the grammar rule (or alias) it stands for in
`rule`, and the passes over the tree have one method per rule, named after it.

A span is a position within the effect text (1-based lines and columns, as Lark counts
them); a condition's spans are in its own lines, although it is parsed as one line. The
root (Effect, Condition) holds the Text, so `diagnostic_at` can reach the file position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterator

from ..diagnostics import Diagnostic
from ..model.variant import Text


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node was written within its effect text."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 1, 1, 1)     # a node Lark gives no position (none in the grammar today)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the tree; `span` is not part of its value (equal trees may sit at different places)."""

    rule: ClassVar[str] = ""
    span: Span = field(kw_only=True, compare=False, repr=False)


class Stmt(Node):
    """A statement (its subclasses are dataclasses; this one only groups them)."""

    __slots__ = ()


class Expr(Node):
    """An expression: a number, condition, player, group, color or string."""

    __slots__ = ()


# Grammar rule (or alias) -> its node class; filled in by @_rule, below.
NODES: dict[str, type] = {}


def _rule(name: str):
    """Decorate a node class: a frozen slotted dataclass standing for grammar rule `name`."""
    def make(cls):
        cls.rule = name
        made = dataclass(frozen=True, slots=True)(cls)
        NODES[name] = made
        return made
    return make


# ---- roots ---------------------------------------------------------------------------------------


@_rule("effect")
class Effect(Node):
    body: tuple[Stmt, ...]
    text: Text = field(kw_only=True, compare=False, repr=False)


@_rule("condition")
class Condition(Node):
    test: Expr
    text: Text = field(kw_only=True, compare=False, repr=False)


# ---- statements ----------------------------------------------------------------------------------


@_rule("draw")
class Draw(Stmt):
    who: Expr
    count: Expr


@_rule("draw_until")
class DrawUntil(Stmt):
    who: Expr


@_rule("draw_until_cond")
class DrawUntilCond(Stmt):
    who: Expr
    test: Expr            # reads the card just drawn as `drawn`


@_rule("draw_to")
class DrawTo(Stmt):
    who: Expr
    count: Expr


@_rule("penalty")
class Penalty(Stmt):
    who: Expr
    count: Expr


@_rule("skip_one")
class SkipOne(Stmt):
    who: Expr


@_rule("skip_many")
class SkipMany(Stmt):
    count: Expr


@_rule("reverse")
class Reverse(Stmt):
    pass


@_rule("choose_color_self")
class ChooseColorSelf(Stmt):
    pass


@_rule("choose_color_by")
class ChooseColorBy(Stmt):
    who: Expr


@_rule("set_color")
class SetColor(Stmt):
    color: Expr


@_rule("let")
class Let(Stmt):
    name: str
    value: Expr


@_rule("swap_hands")
class SwapHands(Stmt):
    who: Expr


@_rule("rotate_hands")
class RotateHands(Stmt):
    pass


@_rule("give")
class Give(Stmt):
    giver: Expr
    count: Expr
    taker: Expr


@_rule("exchange")
class Exchange(Stmt):
    first: Expr
    count: Expr
    second: Expr


@_rule("look")
class Look(Stmt):
    who: Expr


@_rule("trade")
class Trade(Stmt):
    who: Expr


@_rule("discard_color")
class DiscardColor(Stmt):
    who: Expr
    color: Expr


@_rule("redeal")
class Redeal(Stmt):
    pass


@_rule("extra_turn")
class ExtraTurn(Stmt):
    pass


@_rule("turn_to")
class TurnTo(Stmt):
    who: Expr


@_rule("eliminate")
class Eliminate(Stmt):
    who: Expr


@_rule("lock")
class Lock(Stmt):
    color: Expr
    owner: Expr


@_rule("must_play")
class MustPlay(Stmt):
    who: Expr
    color: Expr


@_rule("flip_again")
class FlipAgain(Stmt):
    pass


@_rule("return_and_flip")
class ReturnAndFlip(Stmt):
    pass


@_rule("nothing")
class Nothing(Stmt):
    pass


@_rule("score")
class Score(Stmt):
    who: Expr
    count: Expr


@_rule("flip_all")
class FlipAll(Stmt):
    pass


# Named piles: a pile is named by a NAME, `draw`, `discard` or a declared pile (the checker resolves it).

@_rule("move")
class Move(Stmt):
    count: Expr
    source: str
    dest: str


@_rule("take")
class Take(Stmt):
    who: Expr
    count: Expr
    pile: str


@_rule("put")
class Put(Stmt):
    who: Expr
    count: Expr
    pile: str


@_rule("must_play_block")
class MustPlayBlock(Stmt):
    who: Expr
    color: Expr
    otherwise: tuple[Stmt, ...]


@_rule("call")
class Call(Stmt):
    """`do NAME(ARGS)`: the procedure NAME's body, run with its parameters bound to ARGS."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Clause:
    """One `if` or `elif` of an if statement: its test and its body (not a node: spans are the parts')."""

    test: Expr
    body: tuple[Stmt, ...]


@_rule("if_stmt")
class If(Stmt):
    clauses: tuple[Clause, ...]
    otherwise: tuple[Stmt, ...] | None


@_rule("for_stmt")
class ForEach(Stmt):
    name: str
    group: Expr
    body: tuple[Stmt, ...]


@_rule("repeat_stmt")
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


BRANCHES = ("guilty", "innocent", "accepted")      # a challenge's branches, in the order they are laid out


@dataclass(frozen=True, slots=True)
class Branch(Node):
    """One branch of a challenge; `kind` is its grammar alias, one of BRANCHES."""

    kind: str
    body: tuple[Stmt, ...]


@_rule("challenge")
class Challenge(Stmt):
    who: Expr
    branches: tuple[Branch, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a choice: its name, the condition it is offered under (None: always) and its body."""

    name: str
    test: Expr | None
    body: tuple[Stmt, ...]
    span: Span                      # where its name is written


@_rule("choice")
class Choice(Stmt):
    who: Expr
    options: tuple[Option, ...]


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
    op_span: Span = field(kw_only=True, compare=False, repr=False)


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


@_rule("pile_count")
class PileCount(Expr):
    pile: str


@_rule("pile_top_attr")
class PileTopAttr(Expr):
    pile: str                      # `top of PILE.NAME`: an attribute of a pile's top card
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
    group: Expr


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


# ---- the registry and walking --------------------------------------------------------------------


NODES.update({kind: Branch for kind in BRANCHES})       # the branches of a challenge share one class
STATEMENTS = tuple(sorted(name for name, cls in NODES.items() if issubclass(cls, Stmt)))
EXPRESSIONS = tuple(sorted(name for name, cls in NODES.items() if issubclass(cls, Expr)))


def children(node) -> Iterator[Node]:
    """The nodes directly below `node` (clause tests and bodies, branches, operands), in source order."""
    for name in node.__dataclass_fields__:
        if name in ("span", "text", "op_span"):
            continue
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Clause):
                    yield item.test
                    yield from item.body
                elif isinstance(item, Option):
                    if item.test is not None:
                        yield item.test
                    yield from item.body
                elif isinstance(item, Node):
                    yield item


def walk(node) -> Iterator[Node]:
    """`node` and every node below it, parents first, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


@dataclass(frozen=True)
class Syntax:
    """Every effect and condition text of one variant, parsed once (`effects.parse.parse_variant`)."""

    trees: dict[int, Effect | Condition]    # id(Text) -> its tree; a text not here is empty or was refused
    texts: tuple[Text, ...]                 # the texts parsed, held so that their ids stay theirs
    diagnostics: tuple[Diagnostic, ...]     # E4xx, and E405, E510, E513

    def tree(self, text: Text | None):
        """The tree of one of the variant's texts, or None when it has none (absent, empty or refused)."""
        return None if text is None else self.trees.get(id(text))


def diagnostic_at(text: Text, line: int, column: int, code: str, message: str,
                  severity: str = "error") -> Diagnostic:
    """A diagnostic at (line, column) of effect text `text`, placed at its position in the file."""
    node = text.node
    if node is None:
        return Diagnostic("<builtin>", line, column, code, message, severity)
    try:
        fline, fcol = node.locate(line, column)
    except Exception:                           # a position we cannot map: point at the value
        fline, fcol = node.line, node.column
    return Diagnostic(node.path, fline, fcol, code, message, severity)


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
