"""`unodsl fmt`: a variant file laid out one way, with every line of the user's text kept.

What changes:
- the keys of a mapping the schema describes (the top level, a card, `turn`, `uno`, ...) follow the
  schema's order; mappings of names the user chose (`cards`, `rulings`, ...) keep the user's order.
  A key moves with the comments written above it and the comments indented under its last line;
- an effect or condition written as a `|` block is indented two spaces under its key, and each
  nested block four more than its parent;
- trailing spaces go, runs of blank lines become one, the file ends with one line break.

What does not: anything inside text that is not effect text (a `description: |`), flow
mappings and lists, lists of mappings, values and comments. The result is read back and compared
with the input (the same values, the same effects, the same non-blank lines, only moved or
re-indented) and formatted again (it must not change): a file that fails either is left as it
was, with the reason. Formatting is a stage like the others: it returns a value, the CLI writes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .node import Node
from .schema_tree import ITEM, variant_schema
from .yaml_tree import load_text

EFFECT_INDENT = 4           # each nested block of an effect, as docs/language.md writes them
_ODD_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


@dataclass(frozen=True)
class Formatted:
    """The formatted text, or None and why the file was left as it was."""

    text: str | None
    reason: str = ""


def format_variant(text: str, path: str = "<text>") -> Formatted:
    """Format a variant (or house-rule) file's text; never loses a line of it (see the module's docstring)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    plain = text.replace("\r\n", "\n")
    if any(ch in plain for ch in _ODD_BREAKS):
        return Formatted(None, "it uses line breaks other than LF or CRLF")
    bom = plain.startswith("\ufeff")
    if bom:
        plain = plain[1:]
    first = _format_once(plain, path)
    if first.text is None:
        return first
    again = _format_once(first.text, path)
    if again.text != first.text:
        return Formatted(None, "formatting it twice gives two different texts (please report the file)")
    out = first.text.replace("\n", newline)
    return Formatted(("\ufeff" if bom else "") + out)


def _format_once(text: str, path: str) -> Formatted:
    root, diags = load_text(text, path)
    if root is None or any(d.severity == "error" and d.code.startswith("E1") for d in diags):
        return Formatted(None, "it is not valid YAML: fix what 'unodsl check' says first")
    if "\t" in text:
        return Formatted(None, "it holds tab characters")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    layout = _Layout(lines, root)
    out = layout.document()
    new = _tidy(out, layout.verbatim_lines(out))
    problem = _compare(text, new, path)
    if problem:
        return Formatted(None, problem)
    return Formatted(new)


class _Layout:
    """The lines of a file, re-ordered entry by entry and with effect blocks re-indented."""

    def __init__(self, lines: list[str], root: Node):
        self.lines = lines
        self.root = root
        self.schema = variant_schema()
        self.reindented: dict[int, list[str]] = {}      # the first content line of an effect block -> its new lines
        self.block_lines: set[int] = set()               # lines inside a text block that is not an effect
        self._mark_blocks(root, ())
        self.kept: set[str] = set()

    # ---- what a file holds

    def document(self) -> list[tuple[int, str]]:
        """The formatted lines, each as (its line number in the input, its text)."""
        root = self.root
        entries = self._entries(root)
        if not entries:
            return [(n, self.lines[n - 1]) for n in range(1, len(self.lines) + 1)]
        head = [(n, self.lines[n - 1]) for n in range(1, entries[0][1])]
        tail_start = entries[-1][2] + 1
        body = self._mapping(root, (), entries)
        tail = [(n, self.lines[n - 1]) for n in range(tail_start, len(self.lines) + 1)]
        return head + body + tail

    def _entries(self, node: Node) -> list[tuple[str, int, int]]:
        """(key, first line, last line) of each entry of a block mapping, in the file's order; [] when it is not one.

        An entry's first line is its key's, or, after the first entry, the line after the previous entry's
        last (blank lines and comments between two keys go with the key below them). Its last line is
        its value's, extended over comments indented deeper than the key (written under the value).
        """
        if node.kind != "map" or not node.value or self._is_flow(node):
            return []
        children = sorted(node.value.items(), key=lambda kv: (kv[1].key_line or 0, kv[1].key_column or 0))
        keys = [(child.key_line, child.key_column) for _, child in children]
        if any(line is None for line, _ in keys) or len({line for line, _ in keys}) != len(keys) \
                or len({column for _, column in keys}) != 1:
            return []
        column = keys[0][1]
        out = []
        for i, (key, child) in enumerate(children):
            last = max(child.key_line, self._last_line(child))
            limit = children[i + 1][1].key_line - 1 if i + 1 < len(children) else len(self.lines)
            probe = last
            while probe < limit:
                text = self.lines[probe]                 # line probe + 1
                stripped = text.lstrip(" ")
                if not stripped:
                    probe += 1
                    continue
                if stripped.startswith("#") and len(text) - len(stripped) >= column:
                    probe += 1
                    last = probe
                    continue
                break
            first = child.key_line if i == 0 else out[-1][2] + 1
            out.append((key, first, last))
        return out

    def _last_line(self, node: Node) -> int:
        if node.kind == "map" and node.value:
            return max(max(child.key_line or child.line, self._last_line(child)) for child in node.value.values())
        if node.kind == "seq" and node.value:
            return max(node.end_line, max(self._last_line(child) for child in node.value))
        return node.end_line

    def _is_flow(self, node: Node) -> bool:
        line = self.lines[node.line - 1] if 1 <= node.line <= len(self.lines) else ""
        return line[node.column - 1:node.column] in ("{", "[")

    def _mapping(self, node: Node, path: tuple[str, ...], entries: list[tuple[str, int, int]]) -> list[tuple[int, str]]:
        order = [key.name for key in self.schema.keys_at(path)] if path != ("cards",) else []
        if order:
            rank = {name: i for i, name in enumerate(order)}
            entries = sorted(entries, key=lambda e: (rank.get(e[0], len(rank)), entries.index(e)))
        out: list[tuple[int, str]] = []
        for key, first, last in entries:
            out.extend(self._entry(node.value[key], path + (key,), first, last))
        return out

    def _entry(self, value: Node, path: tuple[str, ...], first: int, last: int) -> list[tuple[int, str]]:
        children = self._entries(value) if value.kind == "map" else []
        if children and first <= children[0][1] and children[-1][2] <= last:
            before = [(n, self.lines[n - 1]) for n in range(first, children[0][1])]
            after = [(n, self.lines[n - 1]) for n in range(children[-1][2] + 1, last + 1)]
            return before + self._mapping(value, path, children) + after
        out = []
        for n in range(first, last + 1):
            if n in self.reindented:
                out.extend((n, text) for text in self.reindented[n])
            elif any(n in range(start, start + len(block)) for start, block in self._covered()):
                continue
            else:
                out.append((n, self.lines[n - 1]))
        return out

    def _covered(self):
        return [(start, block) for start, block in self.reindented.items()]

    # ---- text blocks

    def _mark_blocks(self, node: Node, path: tuple[str, ...]) -> None:
        if node.kind == "map":
            for key, child in node.value.items():
                self._mark_blocks(child, path + (key,))
        elif node.kind == "seq":
            for child in node.value:
                self._mark_blocks(child, path + (ITEM,))
        elif node.style in ("|", ">"):
            content = range(node.line + 1, node.end_line + 1)
            language = self.schema.language_at(path) if node.style == "|" else None
            header = self.lines[node.line - 1][node.column - 1:].split("#")[0].strip()
            if language is not None and header in ("|", "|-", "|+") and node.key_column is not None:
                block = _reindent([self.lines[n - 1] for n in content], node.key_column - 1 + 2)
                if block is not None:
                    self.reindented[content.start] = block
                    return
            self.block_lines.update(content)

    def verbatim_lines(self, out: list[tuple[int, str]]) -> set[int]:
        """Indices in `out` of lines inside a text block that is not effect text: left exactly as they are."""
        return {i for i, (n, _) in enumerate(out) if n in self.block_lines}


def _reindent(block: list[str], base: int) -> list[str] | None:
    """An effect block's lines with each nesting level EFFECT_INDENT deeper than its parent, from `base`; None when
    the levels cannot be told (a dedent to no enclosing level)."""
    levels: list[int] = []
    depth: list[int | None] = []
    for line in block:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            depth.append(None)
            continue
        indent = len(line) - len(line.lstrip(" "))
        if not levels or indent > levels[-1]:
            levels.append(indent)
        else:
            while levels and indent < levels[-1]:
                levels.pop()
            if not levels or indent != levels[-1]:
                return None
        depth.append(len(levels) - 1)
    out = []
    for i, line in enumerate(block):
        stripped = line.strip()
        if not stripped:
            out.append("")
            continue
        level = depth[i]
        if level is None:             # a comment: at the level of the code line after it (else before it)
            after = next((d for d in depth[i + 1:] if d is not None), None)
            before = next((d for d in reversed(depth[:i]) if d is not None), 0)
            level = after if after is not None else before
        out.append(" " * (base + EFFECT_INDENT * level) + stripped)
    return out


def _tidy(out: list[tuple[int, str]], verbatim: set[int]) -> str:
    """Trailing spaces off, one blank line at most between two lines, none at the start; one line break at the end."""
    lines: list[str] = []
    for i, (_, text) in enumerate(out):
        if i in verbatim:
            lines.append(text)
            continue
        text = text.rstrip(" ")
        if not text and (not lines or lines[-1] == ""):
            continue
        lines.append(text)
    while lines and lines[-1] == "" and (len(out) - 1) not in verbatim:
        lines.pop()
    return "\n".join(lines) + "\n"


def _compare(before: str, after: str, path: str) -> str:
    """Why `after` is not `before` laid out again (a value, an effect or a line lost or changed), or ""."""
    old, _ = load_text(before, path)
    new, problems = load_text(after, path)
    if new is None or problems:
        return "the formatted text does not read back (please report the file)"
    if _shape(old, ()) != _shape(new, ()):
        return "the formatted text does not hold the same values (please report the file)"
    kept = Counter(line.strip() for line in before.split("\n") if line.strip())
    made = Counter(line.strip() for line in after.split("\n") if line.strip())
    if kept != made:
        return "the formatted text does not keep every line (please report the file)"
    return ""


def _shape(node: Node, path: tuple[str, ...]):
    """A node's value, with effect text as its lines' nesting levels and words (what re-indenting keeps)."""
    if node.kind == "map":
        return {key: _shape(child, path + (key,)) for key, child in node.value.items()}
    if node.kind == "seq":
        return [_shape(child, path + (ITEM,)) for child in node.value]
    if isinstance(node.value, str) and node.style == "|" and variant_schema().language_at(path) is not None:
        lines = node.value.split("\n")
        levels = _reindent(lines, 0)
        return tuple(lines if levels is None else levels)
    return node.value
