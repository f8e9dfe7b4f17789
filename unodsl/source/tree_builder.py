"""Building the located tree from PyYAML's event stream, bounding depth, aliases and nodes as it
goes, refusing non-core tags and duplicate keys (E104, E106, E107, E110-E116).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import yaml

from ..diagnostics import Diagnostic, Edit, Fix, offset_to_position, split_lines
from .node import _BREAK_CHARS, Node, _advance

# Python refuses longer decimal strings (int_max_str_digits), and no real rule needs one.
MAX_NUMBER_CHARS = 4300

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_CORE + name for name in ("str", "int", "float", "bool", "null"))
_CONSTRUCTED = frozenset(_CORE + name for name in ("int", "float", "bool", "null"))
_TAG_KINDS = {_CORE + "map": "map", _CORE + "seq": "seq", **{tag: "scalar" for tag in _SCALAR_TAGS}}
_ALLOWED_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!map, !!seq"
_KIND_NAMES = {"map": "a mapping", "seq": "a list", "scalar": "a single value"}
# A line that ends in a block scalar header such as "key: |", "- >-" or "text: |2 # note".
_BLOCK_HEADER = re.compile(r"(?:^|\s)[|>][0-9+-]{0,2}[ \t]*(?:#.*)?$")
# An anchor or tag written before a node's text ("&a", "!!str").
_PROPERTY = re.compile(r"[!&]\S*\s+")
_TAG_TOKEN = re.compile(r"(?:&\S*\s+)?(![^\s,\[\]{}]*)")


class _Loader(yaml.SafeLoader):
    """Pure-Python SafeLoader whose implicit resolution only produces str, int, float, bool and null."""


class _CLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The same over libyaml's parser, which reads large files tens of times faster."""


# Timestamps, merge keys ("<<") and "=" stay plain strings: later stages never want them.
_Loader.yaml_implicit_resolvers = _CLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag in _CONSTRUCTED]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
# Both parsers report the same positions; libyaml is used whenever PyYAML was built with it.
_LOADER = _CLoader if getattr(yaml, "__with_libyaml__", False) else _Loader
# Characters YAML forbids; checked up front so both parsers report them the same way.
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


class _Fatal(Exception):
    """Stops building: the diagnostic it carries leaves no usable tree."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass
class _Anchor:
    """What an alias to an anchored node needs: the node, its expanded size and height, its key text."""

    node: Node
    size: int
    height: int
    text: str | None


@dataclass
class _Frame:
    """A mapping or list being built, with the bookkeeping its children need."""

    node: Node
    anchor: str | None
    flow: bool
    size: int = 1
    height: int = 1
    expect_key: bool = True
    key: tuple[str, int, int] | None = None  # None after a refused key: its value is dropped
    key_lines: dict[str, int] = field(default_factory=dict)


class _Builder:
    """Turns one text's YAML events into a Node tree plus diagnostics."""

    def __init__(self, text: str, path: str, max_depth: int, max_aliases: int, max_nodes: int,
                 loader_class: type | None = None):
        self.text, self.path, self.loader_class = text, path, loader_class
        self.max_depth, self.max_aliases, self.max_nodes = max_depth, max_aliases, max_nodes
        self.diags: list[Diagnostic] = []
        self.stack: list[_Frame] = []
        # An anchor maps to its frame while its collection is still open, so aliases inside it are caught.
        self.anchors: dict[str, _Anchor | _Frame] = {}
        self.aliases = 0
        self.visited = 0
        self.documents = 0
        self.root: Node | None = None
        self.loader = None
        self.patches = 0        # values read again in quotes (E117)

    def build(self) -> Node | None:
        """Run the whole event stream; every YAML failure becomes a diagnostic."""
        bad = _NON_PRINTABLE.search(self.text)
        if bad is not None:
            self.diags.append(self._unprintable(bad.start()))
            return None
        try:
            self.loader = (self.loader_class or _LOADER)(self.text)
            self._run()
        except _Fatal as stop:
            self.diags.append(stop.diagnostic)
            return None
        except yaml.reader.ReaderError:
            # Only reachable if a parser disagrees with the check above; the offset it gives may be in bytes.
            self.diags.append(Diagnostic(self.path, 1, 1, "E104", "text contains a character YAML does not allow"))
            return None
        except yaml.MarkedYAMLError as exc:
            if "nesting depth" in str(exc.problem) and (self.loader_class or _LOADER) is not _Loader:
                # Newer libyaml refuses deep flow nesting in its scanner, far past our own limit; the
                # pure-Python parser lets our depth count stop at the limit, at the exact position.
                retry = _Builder(self.text, self.path, self.max_depth, self.max_aliases, self.max_nodes,
                                 loader_class=_Loader)
                root = retry.build()
                self.diags.extend(retry.diags)
                return root
            recovered = self._value_with_colon(exc)
            if recovered is not None:
                return recovered
            self.diags.extend(self._syntax_problems(exc))
            return None
        except yaml.YAMLError as exc:
            self.diags.append(Diagnostic(self.path, 1, 1, "E110", _first_line(str(exc))))
            return None
        except RecursionError:
            self.diags.append(Diagnostic(self.path, 1, 1, "E114", "nesting is too deep to read"))
            return None
        finally:
            if self.loader is not None:
                self.loader.dispose()
        return self._checked_root()

    def _run(self) -> None:
        """Feed events to their handlers until the stream ends."""
        handlers = {
            yaml.DocumentStartEvent: self._document_start,
            yaml.MappingStartEvent: lambda event: self._collection_start(event, "map"),
            yaml.SequenceStartEvent: lambda event: self._collection_start(event, "seq"),
            yaml.MappingEndEvent: self._collection_end,
            yaml.SequenceEndEvent: self._collection_end,
            yaml.ScalarEvent: self._scalar,
            yaml.AliasEvent: self._alias,
        }
        while True:
            event = self.loader.get_event()
            if isinstance(event, yaml.StreamEndEvent):
                return
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)

    # ---- events

    def _document_start(self, event: yaml.DocumentStartEvent) -> None:
        """Allow exactly one document per file."""
        self.documents += 1
        if self.documents > 1:
            raise _Fatal(self._diag(event.start_mark, "E110",
                                    "a variant file holds one YAML document, but a second one starts here"))

    def _collection_start(self, event: yaml.CollectionStartEvent, kind: str) -> None:
        """Open a mapping or list, refusing it if it nests too deep."""
        if len(self.stack) + 1 > self.max_depth:
            raise _Fatal(self._diag(event.start_mark, "E114",
                                    f"nesting is deeper than the limit of {self.max_depth} levels"))
        self._check_tag(event, kind)
        line, column = self._node_start(event)[1:]
        node = Node(kind, {} if kind == "map" else [], line, column, line, column, self.path)
        frame = _Frame(node, event.anchor, flow=bool(event.flow_style))
        if event.anchor is not None:
            self.anchors[event.anchor] = frame
        self.visited += 1
        self.stack.append(frame)

    def _collection_end(self, event: yaml.CollectionEndEvent) -> None:
        """Close the innermost mapping or list and hand it to its parent."""
        frame = self.stack.pop()
        node = frame.node
        if frame.flow:
            node.end_line, node.end_column = _position(event.end_mark)
        if frame.anchor is not None and self.anchors.get(frame.anchor) is frame:
            self.anchors[frame.anchor] = _Anchor(node, frame.size, frame.height, None)
        self._deliver(node, frame.size, frame.height, None, (node.line, node.column),
                      (node.end_line, node.end_column))

    def _scalar(self, event: yaml.ScalarEvent) -> None:
        """Build a scalar node with its resolved value and exact source slice."""
        tag = self._scalar_tag(event)
        value = self._scalar_value(event, tag)
        last = event.end_mark.index
        start, line, column = self._node_start(event, last)
        raw = self.text[start:last]
        if event.style in ("|", ">"):
            # Block scalars end after their trailing line breaks; point at the last character instead.
            end_line, end_column = _advance(line, column, raw.rstrip(" \t" + _BREAK_CHARS))
        else:
            end_line, end_column = _position(event.end_mark)
        node = Node("scalar", value, line, column, end_line, end_column, self.path,
                    style=event.style or None,  # libyaml says "" for plain
                    raw=raw if isinstance(value, str) else None)
        self.visited += 1
        if event.anchor is not None:
            self.anchors[event.anchor] = _Anchor(node, 1, 0, event.value)
        self._deliver(node, 1, 0, event.value, (line, column), (end_line, end_column))

    def _node_start(self, event: yaml.NodeEvent, limit: int | None = None) -> tuple[int, int, int]:
        """Where a node's own text begins (offset, line, column): after its anchor and tag, if any."""
        first = start = event.start_mark.index
        line, column = _position(event.start_mark)
        for _ in range((event.anchor is not None) + (event.tag is not None)):
            match = _PROPERTY.match(self.text, start, len(self.text) if limit is None else limit)
            if match is None:
                break
            start = match.end()
        return (start, *_advance(line, column, self.text[first:start]))

    def _alias(self, event: yaml.AliasEvent) -> None:
        """Place a reference to an anchored node, refusing aliases that could blow up."""
        name = event.anchor
        anchor = self.anchors.get(name)
        if isinstance(anchor, _Frame):
            raise _Fatal(self._diag(event.start_mark, "E113",
                                    f"alias '*{name}' refers to a node that contains it (recursive alias)"))
        if anchor is None:
            raise _Fatal(self._diag(event.start_mark, "E110", f"alias '*{name}' has no anchor '&{name}' before it"))
        self.aliases += 1
        if self.aliases > self.max_aliases:
            raise _Fatal(self._diag(event.start_mark, "E113",
                                    f"more than {self.max_aliases} aliases; refusing to expand '*{name}'"))
        if self.visited + anchor.size > self.max_nodes:
            raise _Fatal(self._diag(event.start_mark, "E113",
                                    f"alias '*{name}' would expand the document past {self.max_nodes} nodes "
                                    "(an alias bomb?)"))
        if len(self.stack) + anchor.height > self.max_depth:
            raise _Fatal(self._diag(event.start_mark, "E114",
                                    f"alias '*{name}' nests deeper than the limit of {self.max_depth} levels"))
        self.visited += anchor.size
        # A copy, so this use can carry its own key position while sharing the children.
        self._deliver(replace(anchor.node), anchor.size, anchor.height, anchor.text,
                      _position(event.start_mark), _position(event.end_mark))

    # ---- placing nodes

    def _deliver(self, node: Node, size: int, height: int, text: str | None,
                 at: tuple[int, int], end: tuple[int, int]) -> None:
        """Attach a finished node (written at `at`) to the collection being built, or make it the root."""
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        frame.size += size
        frame.height = max(frame.height, height + 1)
        if not frame.flow:
            frame.node.end_line, frame.node.end_column = end
        if frame.node.kind == "seq":
            frame.node.value.append(node)
        elif frame.expect_key:
            self._take_key(frame, node, text, at)
        else:
            self._take_value(frame, node)

    def _take_key(self, frame: _Frame, node: Node, text: str | None, at: tuple[int, int]) -> None:
        """Record a mapping key, refusing non-scalar, empty and duplicate keys."""
        frame.expect_key, frame.key = False, None
        if node.kind != "scalar" or text is None:
            self.diags.append(Diagnostic(self.path, *at, "E116",
                                         f"a mapping key must be a string or number, not {_KIND_NAMES[node.kind]}"))
        elif text == "" and node.style is None:
            self.diags.append(Diagnostic(self.path, *at, "E116", "a mapping key must not be empty"))
        elif text in frame.key_lines:
            self.diags.append(Diagnostic(self.path, *at, "E112",
                                         f"duplicate key '{text}' (first defined on line {frame.key_lines[text]})",
                                         end_line=at[0], end_column=at[1] + len(text)))
        else:
            frame.key_lines[text] = at[0]
            frame.key = (text, *at)

    def _take_value(self, frame: _Frame, node: Node) -> None:
        """Store a value under the pending key (dropped if the key was refused)."""
        frame.expect_key = True
        if frame.key is not None:
            key, node.key_line, node.key_column = frame.key
            frame.node.value[key] = node

    # ---- tags and values

    def _scalar_tag(self, event: yaml.ScalarEvent) -> str:
        """The scalar's tag: resolved as SafeLoader would, or str after a refused tag."""
        if event.tag is None:
            return self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if event.tag in _SCALAR_TAGS:
            return event.tag
        self._check_tag(event, "scalar")
        return _CORE + "str"

    def _check_tag(self, event: yaml.NodeEvent, kind: str) -> None:
        """E115 for any tag other than the core tag matching this kind of node."""
        if event.tag is None or _TAG_KINDS.get(event.tag) == kind:
            return
        shown = _show_tag(event.tag)
        if event.tag in _TAG_KINDS:
            message = f"tag '{shown}' cannot be used on {_KIND_NAMES[kind]}"
        else:
            message = f"tag '{shown}' is not allowed (only {_ALLOWED_TAGS})"
        line, column = _position(event.start_mark)
        match = _TAG_TOKEN.match(self.text, event.start_mark.index)
        if match:
            line, column = _advance(line, column, self.text[event.start_mark.index:match.start(1)])
        width = len(match.group(1)) if match else 1
        self.diags.append(Diagnostic(self.path, line, column, "E115", message,
                                     end_line=line, end_column=column + width))

    def _scalar_value(self, event: yaml.ScalarEvent, tag: str) -> object:
        """Construct int/float/bool/null with SafeLoader's own code; everything else stays text."""
        if tag not in _CONSTRUCTED:
            return event.value
        if tag != _CORE + "null" and len(event.value) > MAX_NUMBER_CHARS:
            self.diags.append(self._diag(event.start_mark, "E110",
                                         f"number is too long to read ({len(event.value)} characters, "
                                         f"limit is {MAX_NUMBER_CHARS})"))
            return event.value
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            return self.loader.yaml_constructors[tag](self.loader, node)
        except Exception:  # noqa: BLE001 - an explicit tag can sit on any text, e.g. "!!int abc"
            code = "E115" if event.tag is not None else "E110"
            shown = event.value if len(event.value) <= 40 else event.value[:37] + "..."
            self.diags.append(self._diag(event.start_mark, code, f"'{shown}' is not a valid {_show_tag(tag)} value"))
            return event.value

    # ---- the finished tree

    def _checked_root(self) -> Node | None:
        """The root if it is a mapping; E106/E107 otherwise."""
        root = self.root
        if root is None or _is_empty_scalar(root):
            self.diags.append(Diagnostic(self.path, 1, 1, "E106",
                                         "file is empty (no YAML content, only blank lines or comments)"))
            return None
        if root.kind != "map":
            self.diags.append(Diagnostic(self.path, root.line, root.column, "E107",
                                         f"the top level must be a mapping of keys to values, "
                                         f"but this file holds {_KIND_NAMES[root.kind]}"))
            return None
        return root

    # ---- turning PyYAML errors into diagnostics

    def _diag(self, mark, code: str, message: str) -> Diagnostic:
        """A diagnostic at a PyYAML mark."""
        return Diagnostic(self.path, *_position(mark), code, message)

    def _unprintable(self, offset: int) -> Diagnostic:
        """E104 for a character YAML refuses (NUL, control characters, lone surrogates)."""
        char = self.text[offset]
        line, column = offset_to_position(self.text, offset)
        if char == "\x00":
            message = "text contains a NUL character; it looks like binary data, not YAML text"
        else:
            message = f"character U+{ord(char):04X} is not allowed in YAML text"
        return Diagnostic(self.path, line, column, "E104", message)

    def _value_with_colon(self, exc: yaml.MarkedYAMLError) -> Node | None:
        """E117 for a one-line value holding ': ' (`on_play: if x: skip next`), which YAML reads as a second key,
        and the tree read as if the value were quoted, so that the rest of the file is still checked.

        The line is read again with the value in quotes; the value's node then keeps the text and the
        positions of the line as written, so the effect's own diagnostics point into it.
        """
        mark = exc.problem_mark
        if mark is None or "mapping values are not allowed" not in str(exc.problem) or self.patches >= _MAX_PATCHES:
            return None
        lines = self.text.split("\n")
        if not 0 <= mark.line < len(lines):
            return None
        found = _KEY_AND_VALUE.match(lines[mark.line])
        if found is None or ": " not in found.group("value") + " " or mark.column < found.start("value"):
            return None
        value = found.group("value").rstrip()
        start = found.start("value")
        quoted = "'" + value.replace("'", "''") + "'"
        text = "\n".join(lines[:mark.line] + [lines[mark.line][:start] + quoted + lines[mark.line][start + len(value):]]
                         + lines[mark.line + 1:])
        retry = _Builder(text, self.path, self.max_depth, self.max_aliases, self.max_nodes, self.loader_class)
        retry.patches = self.patches + 1
        root = retry.build()
        line, column = mark.line + 1, start + 1
        indent = " " * (len(found.group("indent")) + 2)
        key = found.group("key")
        self.diags.append(Diagnostic(
            self.path, line, column, "E117",
            f"the value of '{key}' holds ': ', which YAML reads as the start of another key: write it as a '|' "
            f"block ('{key}: |' and the text on the next line) or in quotes",
            end_line=line, end_column=column + len(value),
            fix=Fix("make the value a '|' block", (Edit(line, column, line, column + len(value),
                                                         "|\n" + indent + value),))))
        self.diags.extend(retry.diags)
        if root is not None:
            _restore(root, line, column, value, lines[mark.line][start:start + len(value)])
        return root

    def _syntax_problems(self, exc: yaml.MarkedYAMLError) -> list[Diagnostic]:
        """E110 with the parser's own wording, or E111 for every tab when a tab broke the parse."""
        mark = exc.problem_mark or exc.context_mark
        line, column = _position(mark) if mark is not None else (1, 1)
        lines = split_lines(self.text) or [""]
        if line > len(lines):                 # "end of stream" marks sit on a line past the last one
            line, column = len(lines), len(lines[-1]) + 1
        found = self.text[mark.index] if mark is not None and 0 <= mark.index < len(self.text) else ""
        if found == "\t":
            return _tab_problems(self.text, self.path, line, column)
        message = _first_line(exc.problem or exc.context or "invalid YAML")
        if "nesting depth" in message:
            # Newer libyaml stops deep flow nesting in its scanner, before our own depth count sees it.
            return [Diagnostic(self.path, line, column, "E114",
                               f"nesting is deeper than the limit of {self.max_depth} levels")]
        if message == "found character that cannot start any token" and found:
            message = f"found character {found!r} that cannot start any token"  # libyaml leaves the character out
        if exc.problem and exc.context:
            message += f" ({_first_line(exc.context)})"
        return [Diagnostic(self.path, line, column, "E110", message)]



# ---------------------------------------------------------------- small helpers

_MAX_PATCHES = 100
# A block mapping line `key: value` (or `- key: value`) whose value is plain text: what E117 reads again quoted.
_KEY_AND_VALUE = re.compile(r"^(?P<indent>[ ]*(?:-[ ]+)*)(?P<key>[A-Za-z0-9_][A-Za-z0-9_ -]*):[ ]+"
                            r"(?P<value>[^\s'\"|>{}\[\]&*!#%@`,?:-][^#]*?|-[^\s#][^#]*?)(?:[ \t]+#.*)?$")


def _restore(node: Node, line: int, column: int, value: str, raw: str) -> bool:
    """Give the scalar read again in quotes at (line, column) the plain text it was written as; True when found."""
    if node.kind == "scalar":
        if node.line == line and node.column == column and node.value == value:
            node.style, node.raw, node.end_column = None, raw, column + len(raw)
            return True
        return False
    children = node.value.values() if node.kind == "map" else node.value
    return any(_restore(child, line, column, value, raw) for child in children)



def _position(mark) -> tuple[int, int]:
    """The 1-based (line, column) of a 0-based PyYAML mark."""
    return mark.line + 1, mark.column + 1



def _first_line(text: str) -> str:
    """Only the first line of a message, so no multi-line dump leaks into a diagnostic."""
    return text.strip().splitlines()[0] if text.strip() else "invalid YAML"


def _show_tag(tag: str) -> str:
    """A tag as users write it: "!!int" rather than "tag:yaml.org,2002:int"."""
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag


def _is_empty_scalar(node: Node) -> bool:
    """Whether a node is the empty plain scalar PyYAML reports for a document with no content."""
    return (node.kind == "scalar" and node.value is None and node.style is None
            and (node.line, node.column) == (node.end_line, node.end_column))


def _tab_problems(text: str, path: str, line: int, column: int) -> list[Diagnostic]:
    """E111 for every indenting tab, plus the tab PyYAML stopped at if it is elsewhere."""
    diags = _indent_tabs(text, path)
    if not any((d.line, d.column) == (line, column) for d in diags):
        diags.append(Diagnostic(path, line, column, "E111",
                                "tab character is not allowed here; YAML separates and indents with spaces",
                                end_line=line, end_column=column + 1))
    return sorted(diags, key=Diagnostic.sort_key)


def _indent_tabs(text: str, path: str) -> list[Diagnostic]:
    """E111 for each line whose indentation holds a tab, except inside block scalar content."""
    diags = []
    block: tuple[int, int | None] | None = None  # (header indent, content indent once known)
    for number, line in enumerate(split_lines(text), 1):
        spaces = len(line) - len(line.lstrip(" "))
        blank = not line.strip(" \t")
        if block is not None:
            parent, content = block
            if content is None and not blank:
                # The first non-blank line fixes the block's indentation, or shows it is empty.
                block = (parent, spaces) if spaces > parent else None
                if block is not None:
                    continue
            elif content is not None and spaces >= content:
                continue  # block content: tabs after the indentation are part of the text
            elif not blank:
                block = None
        lead = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:lead]:
            diags.append(Diagnostic(path, number, line.index("\t") + 1, "E111",
                                    "tab character used for indentation; indent with spaces",
                                    end_line=number, end_column=lead + 1))
        if block is None and not line.lstrip(" \t").startswith("#") and _BLOCK_HEADER.search(line):
            block = (spaces, None)
    return diags
