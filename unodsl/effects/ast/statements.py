"""The syntax tree's statements: one node class per statement rule, and the parts of compound ones
(an `if`'s clauses, a challenge's branches, a choice's options)."""

from __future__ import annotations

from dataclasses import dataclass

from .nodes import Expr, Node, Span, Stmt, _node, _rule


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


@_rule("clear_color")
class ClearColor(Stmt):
    pass


@_rule("let")
class Let(Stmt):
    name: str
    value: Expr


@_rule("secret_choice")
class SecretChoice(Stmt):
    """`let NAME = G secretly choose player H`: each member of `choosers` secretly chooses a player of
    `candidates` (a group, or a Where over one) other than themselves; NAME is the group chosen most."""

    name: str
    choosers: Expr
    candidates: Expr


@_rule("secret_number")
class SecretNumber(Stmt):
    """`G secretly choose number from A to B into VAR`: each member of `choosers` secretly chooses a number
    from `low` to `high`; all are shown at once, each into the member's value of the per-player variable."""

    choosers: Expr
    low: Expr
    high: Expr
    name: str
    name_span: Span | None = None   # where VAR is written, for its diagnostics


@_rule("swap_hands")
class SwapHands(Stmt):
    who: Expr


@_rule("rotate_hands")
class RotateHands(Stmt):
    way: str | None = None      # `left`, `right`, `play`, `against` (hand_way); None: with the play


@_rule("give")
class Give(Stmt):
    giver: Expr
    count: Expr
    taker: Expr
    test: Expr | None = None       # `where COND`: only cards meeting it may be picked
    otherwise: tuple[Stmt, ...] | None = None      # `else:` after `where COND`: run when none meets it


@_rule("exchange")
class Exchange(Stmt):
    first: Expr
    count: Expr
    second: Expr


@_rule("look")
class Look(Stmt):
    who: Expr


@_rule("show_hand")
class ShowHand(Stmt):
    who: Expr                      # whose hand
    to: Expr                       # a player, or a group (`players where COND` included)


@_rule("trade")
class Trade(Stmt):
    who: Expr


@_rule("discard_color")
class DiscardColor(Stmt):
    who: Expr
    color: Expr


@_rule("redeal")
class Redeal(Stmt):
    way: str | None = None      # as RotateHands.way: the way the cards are dealt round from `self`


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


# Named piles: a pile is named by a NAME, `draw`, `discard` or a declared pile (the checker resolves it), or
# is a SeatPile (`stock of P`).

@_rule("move")
class Move(Stmt):
    count: Expr
    source: str | SeatPile
    dest: str | SeatPile


@_rule("take")
class Take(Stmt):
    who: Expr
    count: Expr
    pile: str | SeatPile
    test: Expr | None = None       # `where COND`: the top cards meeting it, the others left in place
    otherwise: tuple[Stmt, ...] | None = None      # `else:` after `where COND`: run when none meets it


@_rule("take_top")
class TakeTop(Stmt):
    who: Expr
    pile: str | SeatPile


@_rule("take_all")
class TakeAll(Stmt):
    who: Expr
    pile: str | SeatPile


@_rule("put")
class Put(Stmt):
    who: Expr
    count: Expr
    pile: str | SeatPile
    test: Expr | None = None       # `where COND`: only cards meeting it may be picked
    otherwise: tuple[Stmt, ...] | None = None      # `else:` after `where COND`: run when none meets it


@_rule("discard_where")
class DiscardWhere(Stmt):
    """`P discards cards where COND`: every card of P's hand meeting COND goes under the top card."""
    who: Expr
    test: Expr


@_rule("must_play_where")
class MustPlayWhere(Stmt):
    """`P must play where COND [else: ...]`: P must play a card meeting COND (read as `card`), if they hold one."""
    who: Expr
    test: Expr
    otherwise: tuple[Stmt, ...] | None = None


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


@_node
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


# ---- a draw stack turned away ---------------------------------------------------------------------


@_rule("pass_stack")
class PassStack(Stmt):
    who: Expr             # faces the whole pending stack next (only in a card's on_stack effect)


@_rule("draw_stack")
class DrawStack(Stmt):
    who: Expr             # draws the whole pending stack at once, which closes it
