"""The syntax tree's node classes behave as the frozen slotted dataclasses they replaced.

`effects/ast/nodes.py` makes each node class itself (its `__init__` written once per class, equality,
hash, repr, immutability and pickling shared on `Node`), because `@dataclass` compiled six methods for
each of the 114 classes at every start. Here each class is held to what `dataclass(frozen=True,
slots=True)` with `span` (and `text`, `op_span`) as `field(kw_only=True, compare=False, repr=False)` gave.
"""

from __future__ import annotations

import copy
import inspect
import pickle
from dataclasses import FrozenInstanceError

import pytest

from unodsl.effects import ast as A
from unodsl.effects.ast.nodes import NODES, Node, Span

CLASSES = sorted(set(NODES.values()) | {A.Branch}, key=lambda cls: cls.__name__)
SPAN, OTHER_SPAN = Span(1, 2, 3, 4), Span(5, 6, 7, 8)


def make(cls, values, span=SPAN):
    """An instance of `cls` with `values` for its positional fields (its keyword-only ones get spans)."""
    return cls(*values, **{name: span for name in cls._keywords})


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_a_node_class_is_what_its_dataclass_was(cls):
    annotations = [name for name in cls.__annotations__ if name != "rule"]
    keywords = [name for name in annotations if name in ("span", "text", "op_span")]
    fields = tuple(name for name in annotations if name not in keywords)
    assert cls._fields == fields == cls.__match_args__
    assert cls._keywords == ("span", *keywords)
    # __init__: the fields by position, the keyword-only ones by keyword only, none with a default.
    parameters = list(inspect.signature(cls).parameters.values())
    assert [(p.name, p.kind) for p in parameters] == (
        [(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in fields]
        + [(name, inspect.Parameter.KEYWORD_ONLY) for name in cls._keywords])
    assert all(p.default is inspect.Parameter.empty for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY)
    assert not hasattr(make(cls, range(len(fields))), "__dict__")          # slotted
    values = [f"v{i}" for i in range(len(fields))]
    node = make(cls, values)
    assert [getattr(node, name) for name in fields] == values and node.span == SPAN
    # The value is the positional fields: equal whatever the spans, as the dataclass compared them.
    twin, other = make(cls, values, OTHER_SPAN), make(cls, [*values[:-1], "x"]) if fields else None
    assert node == twin and hash(node) == hash(twin) == hash(tuple(values))
    if other is not None:
        assert node != other
    assert repr(node) == f"{cls.__qualname__}({', '.join(f'{name}={value!r}' for name, value in zip(fields, values))})"
    # Frozen.
    for name in (*fields, "span"):
        with pytest.raises(FrozenInstanceError):
            setattr(node, name, "changed")
        with pytest.raises(FrozenInstanceError):
            delattr(node, name)
    # Copies and pickles keep every field, spans included.
    for again in (pickle.loads(pickle.dumps(node)), copy.copy(node), copy.deepcopy(node)):
        assert type(again) is cls and again == node
        assert [getattr(again, name) for name in cls._keywords] == [getattr(node, name) for name in cls._keywords]


def test_nodes_of_different_classes_are_never_equal():
    a, b = A.AllPlayers(span=SPAN), A.Catcher(span=SPAN)
    assert a != b and (a == b) is False
    assert A.AllPlayers(span=SPAN) == A.AllPlayers(span=OTHER_SPAN)
    assert Node.__eq__(a, "not a node") is NotImplemented


def test_a_node_field_may_have_a_plain_default_after_those_without():
    from dataclasses import field

    from unodsl.effects.ast.nodes import Expr, _node

    class Fine(Expr):
        x: int
        y: int = 3
    made = _node(Fine)
    assert made(1, span=SPAN).y == 3 and made(1, 4, span=SPAN).y == 4 and made(1, span=SPAN) == made(1, 3, span=SPAN)

    class Late(Expr):
        x: int = 3
        y: int
    with pytest.raises(TypeError, match="follows one with a default"):
        _node(Late)

    class Odd(Expr):
        x: int = field(default=3)
    with pytest.raises(TypeError, match="plain"):
        _node(Odd)


def test_a_parsed_effect_pickles_and_compares_equal():
    from unodsl.effects.parse import parse
    from unodsl.model.variant import Text
    tree, diags = parse(Text("if hand(next) > 2:\n    next draws 2\nelse:\n    skip next\n"))
    assert diags == [] and pickle.loads(pickle.dumps(tree)) == tree
    assert list(A.walk(tree)) == list(A.walk(copy.deepcopy(tree)))


def test_the_where_fields_default_to_none_as_they_did():
    for cls in CLASSES:
        for name, parameter in inspect.signature(cls).parameters.items():
            if parameter.default is not inspect.Parameter.empty:      # `where COND`, `else:` and the like
                assert parameter.default is None or isinstance(parameter.default, tuple), (cls.__name__, name)
    give = A.Give(*[None] * 3, span=SPAN)
    assert give.test is None and give == A.Give(None, None, None, None, span=OTHER_SPAN)
