"""What the effect checker and the lowering share: the types of expressions, the tables the check
reads them from, the context an effect is checked in and the facts it hands the lowering (`Checked`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast as A
from ..model.variables import VarType

MAX_REPEAT = 1000
MAX_NUMBER = 1_000_000
# A number choice (`chooses number from A to B`) offers whole numbers within 0..MAX_CHOSEN: the variant has one
# action `number N` per N from 0 to its largest upper bound written as a number (to MAX_CHOSEN when one is not).
MAX_CHOSEN = 100

# Types of expressions
INT, BOOL, PLAYER, GROUP, COLOR, STRING = "number", "condition", "player", "group", "color", "string"
CARDS = "card collection"   # cards of a hand or a pile, filtered: read by count(...) and the aggregates
COLLECTIONS = (GROUP, CARDS)
CARDS_READ_WHERE_WRITTEN = ("a card collection is read where it is written, inside count(...) or an aggregate "
                            "(sum, max, min, any, all: 'sum(card.points over cards of self)'); it is not named, "
                            "compared or walked: let a number or a condition instead, e.g. 'let n = count(...)'")
# A filter or an aggregate reads its collection member by member; nested ones multiply. One expression
# may test at most this many members in one evaluation (E543), so a condition stays quick to ask.
MAX_SCAN = 100_000
SEATS = "seats"             # not an expression type: the list of seats a `for each` walks
NUMBERS = "numbers"         # not an expression type: the numbers a `for each` over an array of piles walks
CHANCE = (A.RandomBetween, A.RandomFrom)    # the expressions that draw from the game's generator

# Statements refused in round.on_end (E514): they ask for a decision, or draw (and so run events).
ROUND_OVER_REFUSES = frozenset({"draw", "draw_until", "draw_until_cond", "draw_to", "penalty", "choose_color_self", "choose_color_by",
                                "give", "exchange", "trade", "challenge", "must_play", "must_play_block", "must_play_where",
                                "choice", "secret_choice", "secret_number"})

# A declared variable's type (model.variables.VarType) -> the type of reading it: a card type and an
# enum value are words, as `card.type` is.
VARIABLE_TYPES = {VarType.INT: INT, VarType.BOOL: BOOL, VarType.COLOR: COLOR, VarType.CARD_TYPE: STRING,
                  VarType.ENUM: STRING}

CARD_ATTRIBUTES = {"number": INT, "points": INT, "draw": INT, "color": COLOR, "type": STRING, "kind": STRING}
_ATTR_TYPES = {"bool": BOOL, "int": INT, "color": COLOR, "string": STRING}
# What a `match:` condition may be made of: it reads the candidate card, the top card, the current
# color, rulings and constants, so its answer is a table by (current color, top card, card), made once.
MATCH_READS = frozenset({"card_attr", "top_attr", "card_is", "top_is", "current_color", "rule_ref", "var",
                         "int_", "true", "false", "string", "comparison", "binop", "neg", "not_",
                         "and_expr", "or_expr", "half"})
# What a pile's `where:` reads: the card alone (the pile is filled before any card is in play).
CARD_READS = MATCH_READS - {"top_attr", "top_is", "current_color"}


@dataclass
class Context:
    """What a piece of effect code may refer to, and where it lives."""

    where: str            # on_play | on_start | event | setup | condition | uno_penalty | uno_false_call | uno_catch
                          # | uno_wrong | uno_out | window | round_end | turn_draw
                          # | match | procedure | set | on_stack | pile
    start_only: bool = False
    procedure: str = ""   # the procedure whose body this is, if one


@dataclass
class Checked:
    """What the checker learned about one effect or condition, for the lowering."""

    types: dict[int, str] = field(default_factory=dict)      # id(expression) -> its type
    refers: dict[int, object] = field(default_factory=dict)  # id(Var) -> its Let, ForEach or Param, a color index
    #                                                           or a Variable (also id(VarOf), id(SetVar...))
    where: str = "condition"                                  # the Context's: the lowering lays out its frame by it
    params: tuple = ()                                       # a procedure body's Params, in call order


@dataclass(frozen=True, eq=False)
class Param:
    """A parameter of a procedure, as the names in its body refer to it (`Checked.refers`)."""

    procedure: str
    name: str
    type: str


class _Broken(Exception):
    """Raised inside the checker to abandon one statement after its diagnostic."""


def literal_number(e) -> int | None:
    """The value of a number written as such (`5`, `-1`), else None: a number choice's bounds are checked by it."""
    if isinstance(e, A.Neg) and isinstance(e.operand, A.Int) and len(e.operand.digits) <= 9:
        return -int(e.operand.digits)
    if isinstance(e, A.Int) and len(e.digits) <= 9:
        return int(e.digits)
    return None
