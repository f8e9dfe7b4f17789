"""Variant composition: `extends` and `include`, merged into one located tree.

A file is applied on top of the file it extends, then its includes in order,
then its own keys, so the most specific file always wins. Paths resolve
relative to the file that names them and may not leave the chosen root.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from .diagnostics import Diagnostic
from .schema import validate_tree
from .source import Node, load_file

MAX_FILES = 64
_LINK_KEYS = ("extends", "include", "house_rule")


@dataclass
class Composition:
    """The merged tree of a variant and everything learned while merging."""

    root: Node | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)       # path -> source text, for carets
    house_rules: list[Node] = field(default_factory=list)     # each `house_rule` node, in merge order
    files: list[str] = field(default_factory=list)
    # Each file read -> the `extends`, `include` or `check_with` entry of the checked file
    # through which it was reached (directly or through other files), None for the checked
    # file itself: a problem of the combination is reported there, in the user's own file.
    links: dict[str, Node | None] = field(default_factory=dict)


def compose_file(path: str, root_dir: str | None = None) -> Composition:
    """Load `path` and everything it extends or includes, merged into one tree."""
    comp = Composition(None)
    root = os.path.realpath(root_dir) if root_dir else default_root(path)
    comp.root = _load(path, root, comp, stack=(), display=path, via=None)
    return comp


def default_root(path: str) -> str:
    """The folder links may not leave: the working folder if it holds the file, else the file's parent folder."""
    top = os.path.realpath(path)
    cwd = os.path.realpath(os.getcwd())
    if os.path.commonpath([top, cwd]) == cwd:
        return cwd
    return os.path.dirname(os.path.dirname(top))


def _load(path: str, root: str, comp: Composition, stack: tuple[str, ...], display: str,
          via: Node | None) -> Node | None:
    node, diags, text = load_file(display)
    comp.texts[display] = text
    comp.files.append(display)
    comp.links.setdefault(display, via)
    comp.diagnostics.extend(diags)
    if node is None:
        return None
    comp.diagnostics.extend(validate_tree(node))
    if node.kind != "map":
        return None
    real = os.path.realpath(path)
    stack = stack + (real,)
    base: Node | None = None
    ext = node.value.get("extends")
    if ext is not None and ext.kind == "scalar" and isinstance(ext.value, str):
        base = _load_link(ext, real, root, comp, stack, via or ext)
    inc = node.value.get("include")
    if inc is not None and inc.kind == "seq":
        for item in inc.value:
            if item.kind == "scalar" and isinstance(item.value, str):
                overlay = _load_link(item, real, root, comp, stack, via or item)
                if overlay is not None:
                    base = overlay if base is None else merge(base, overlay)
    hr = node.value.get("house_rule")
    if hr is not None:
        comp.house_rules.append(hr)
        # A house-rule file checked on its own is checked on top of the variant it names.
        check_with = hr.value.get("check_with") if hr.kind == "map" else None
        if not stack[:-1] and base is None and check_with is not None and isinstance(check_with.value, str):
            base = _load_link(check_with, real, root, comp, stack, check_with)
    own = replace(node, value={k: v for k, v in node.value.items() if k not in _LINK_KEYS})
    return own if base is None else merge(base, own)


def _load_link(ref: Node, including: str, root: str, comp: Composition, stack: tuple[str, ...],
               via: Node) -> Node | None:
    target = os.path.normpath(os.path.join(os.path.dirname(including), ref.value))
    real = os.path.realpath(target)
    if os.path.commonpath([real, root]) != root:
        comp.diagnostics.append(Diagnostic(ref.path, ref.line, ref.column, "E320",
                                           f"'{ref.value}' is outside the root folder {root} (pass --root to allow it)"))
        return None
    if real in stack:
        comp.diagnostics.append(Diagnostic(ref.path, ref.line, ref.column, "E321",
                                           f"'{ref.value}' includes itself (cycle through {os.path.basename(real)})"))
        return None
    if len(comp.files) >= MAX_FILES:
        comp.diagnostics.append(Diagnostic(ref.path, ref.line, ref.column, "E322",
                                           f"more than {MAX_FILES} files extended or included"))
        return None
    display = os.path.relpath(target) if not os.path.isabs(ref.path) else target
    before = len(comp.diagnostics)
    loaded = _load(target, root, comp, stack, display, via)
    if loaded is None and not any(d.code in ("E101", "E102", "E103") for d in comp.diagnostics[before:]):
        return None
    if loaded is None:
        comp.diagnostics.append(Diagnostic(ref.path, ref.line, ref.column, "E323", f"cannot load '{ref.value}'"))
    return loaded


def merge(base: Node, overlay: Node) -> Node:
    """Apply `overlay` on top of `base`: maps merge key by key, anything else replaces."""
    if base.kind != "map" or overlay.kind != "map":
        return overlay
    merged = dict(base.value)
    for key, value in overlay.value.items():
        if key in merged and merged[key].kind == "map" and value.kind == "map":
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    # Positions come from the most specific file, so diagnostics point at the override.
    return replace(overlay, value=merged)
