"""The syntax tree's base classes: spans, nodes, the registry of node classes by grammar rule, the roots."""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field
from operator import attrgetter
from typing import ClassVar

from ...model.variant import Text


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node was written within its effect text."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 1, 1, 1)     # a node Lark gives no position (none in the grammar today)


class Node:
    """A node of the tree: a frozen, slotted record of its fields; `span` (where it was written) and any
    other keyword-only field are not part of its value (equal trees may sit at different places).

    Each node class is made by `_node` (through `@_rule`): it declares its fields as annotations, the
    positional ones first, the keyword-only ones as `= KEYWORD`. They behave as `@dataclass(frozen=True,
    slots=True)` with those keyword-only fields `field(kw_only=True, compare=False, repr=False)` did:
    the same `__init__`, equality, hash and repr, assignment refused (FrozenInstanceError), pickling;
    only `__init__` is written for each class, the rest is shared here, because the dataclass machinery
    compiled six methods for each of the 114 classes at every start of unodsl (52 ms of a first
    `unodsl check`). tests/test_ast_nodes.py holds them to what the dataclasses did.
    """

    __slots__ = ("span",)
    rule: ClassVar[str] = ""
    _fields: ClassVar[tuple[str, ...]] = ()          # positional: the node's value, in order
    _keywords: ClassVar[tuple[str, ...]] = ("span",)    # keyword-only, not compared nor shown
    _values: ClassVar = staticmethod(lambda node: ())

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    def __hash__(self):
        return hash(self._values(self))

    def __repr__(self):
        return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self._fields)})"

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):
        keywords = {name: getattr(self, name) for name in self._keywords}
        return _remake, (self.__class__, self._values(self), keywords)


def _remake(cls, values, keywords):
    """A node from its pickled fields."""
    return cls(*values, **keywords)


class Stmt(Node):
    """A statement (its subclasses are node classes; this one only groups them)."""

    __slots__ = ()


class Expr(Node):
    """An expression: a number, condition, player, group, color or string."""

    __slots__ = ()


KEYWORD = field(kw_only=True, compare=False, repr=False)     # a keyword-only field, not part of the value

# Grammar rule (or alias) -> its node class; filled in by @_rule, below.
NODES: dict[str, type] = {}


def _node(cls):
    """Make `cls` a node class: slots for its own fields, its `__init__`, and what equality reads.

    A positional field may have a plain default (`= None`), as a dataclass field may, after those without.
    """
    own = [name for name in cls.__dict__.get("__annotations__", {}) if name != "rule"]
    defaults = {}
    for name in own:
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field) and default is not KEYWORD:
            raise TypeError(f"{cls.__name__}.{name}: a node field is plain, `= value` or `= KEYWORD`")
        if default is not MISSING and default is not KEYWORD:
            defaults[name] = default
        elif defaults and default is MISSING:
            raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
    base = cls.__mro__[1]
    keyword_names = {name for name in own if cls.__dict__.get(name, MISSING) is KEYWORD}
    fields = base._fields + tuple(name for name in own if name not in keyword_names)
    keywords = base._keywords + tuple(name for name in own if name in keyword_names)
    namespace = {k: v for k, v in cls.__dict__.items() if k not in own and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(own)
    namespace["_fields"], namespace["_keywords"], namespace["__match_args__"] = fields, keywords, fields
    if not fields:
        namespace["_values"] = staticmethod(lambda node: ())
    elif len(fields) == 1:
        namespace["_values"] = staticmethod(lambda node, get=attrgetter(fields[0]): (get(node),))
    else:
        namespace["_values"] = staticmethod(attrgetter(*fields))
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    params = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in fields)
    params += (", " if fields else "") + "*, " + ", ".join(keywords)
    body = "\n".join(f"    _set(self, {name!r}, {name})" for name in fields + keywords)
    scope = {"_set": object.__setattr__, **{f"_default_{name}": value for name, value in defaults.items()}}
    exec(f"def __init__(self, {params}):\n{body}\n", scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__init__ = init
    return made


def _rule(name: str):
    """Decorate a node class standing for grammar rule `name`."""
    def make(cls):
        cls.rule = name
        made = _node(cls)
        NODES[name] = made
        return made
    return make


# ---- roots ---------------------------------------------------------------------------------------


@_rule("effect")
class Effect(Node):
    body: tuple[Stmt, ...]
    text: Text = KEYWORD


@_rule("condition")
class Condition(Node):
    test: Expr
    text: Text = KEYWORD
