"""Variant composition: `extends` and `include`, merged into one located tree.

A file is applied on top of the file it extends, then its includes in order,
then its own keys, so the most specific file always wins. Paths resolve
relative to the file that names them and may not leave the chosen root; a value
without `/` and without `.yaml` (`extends: classic`) names a shipped file (see catalog).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from . import catalog
from ..diagnostics import Diagnostic
from .schema import validate_tree
from .yaml_tree import Node, load_bytes, load_file

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
    root_folder: Root | None = None
    # A file named by a link could not be loaded: later stages would only report what is missing.
    incomplete: bool = False
    buffers: dict[str, str] = field(default_factory=dict)     # real path -> text read in place of the file
    # (key path, its null) of every inherited entry a null removed: ("rulings", "x"), ("cards", "skip")...
    removed: list[tuple[tuple[str, ...], Node]] = field(default_factory=list)


# A folder holding one of these is a project: its variants may link to each other.
PROJECT_MARKERS = ("pyproject.toml", ".git", "variants")


@dataclass(frozen=True)
class Root:
    """The folder that links may not leave, and why it was chosen (said in E320)."""

    folder: str
    why: str

    def contains(self, real: str) -> bool:
        """Whether the resolved path `real` lies inside this root."""
        return os.path.commonpath([real, self.folder]) == self.folder


def compose_file(path: str, root_dir: str | None = None, texts: Mapping[str, str] | None = None) -> Composition:
    """Load `path` and everything it extends or includes, merged into one tree.

    `texts` (real path -> text) stands in for files on disk: an editor's unsaved buffers.
    Such a text is read as its file would be once saved as UTF-8; paths stay the real ones.
    """
    comp = Composition(None)
    comp.buffers = {os.path.realpath(p): t for p, t in (texts or {}).items()}
    try:
        root = find_root(path, root_dir)
    except (ValueError, OSError) as err:      # the checked path itself is one the system refuses
        comp.diagnostics.append(Diagnostic(path, 1, 1, "E103", f"cannot read file: {_os_problem(err)}"))
        return comp
    comp.root_folder = root
    comp.root = _load(path, root, comp, stack=(), display=path, via=None)
    return comp


def find_root(path: str, root_dir: str | None = None) -> Root:
    """The root for links read from `path`: `root_dir` when given, else a default that is never `/` or a top-level folder.

    The default is the wider of the file's project (the nearest folder above it holding
    pyproject.toml, .git or a variants/ folder) and the working folder when it holds the
    file; without either, the folder above the file's folder, or the file's own folder
    when that one would be `/` or a top-level folder.
    """
    if root_dir:
        return Root(os.path.realpath(root_dir), "given with --root")
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    found: list[Root] = []
    project = _project_of(folder)
    if project is not None:
        found.append(project)
    cwd = os.path.realpath(os.getcwd())
    if _deep_enough(cwd) and os.path.commonpath([real, cwd]) == cwd:
        found.append(Root(cwd, "the working folder"))
    if found:
        return min(found, key=lambda r: len(r.folder))      # both hold the file: the shorter is the wider
    above = os.path.dirname(folder)
    if _deep_enough(above):
        return Root(above, "the folder above the file's folder")
    return Root(folder, "the file's own folder")


def _deep_enough(folder: str) -> bool:
    """Whether `folder` may be a default root: not `/` and not a top-level folder such as /home or /tmp."""
    parent = os.path.dirname(folder)
    return parent != folder and os.path.dirname(parent) != parent


def _project_of(folder: str) -> Root | None:
    """The nearest folder from `folder` upwards that holds a project marker, stopping above top-level folders."""
    while _deep_enough(folder):
        for marker in PROJECT_MARKERS:
            if os.path.lexists(os.path.join(folder, marker)):
                return Root(folder, f"the project folder: it holds {marker}")
        folder = os.path.dirname(folder)
    return None


def _load(path: str, root: Root, comp: Composition, stack: tuple[str, ...], display: str,
          via: Node | None) -> Node | None:
    buffer = comp.buffers.get(os.path.realpath(path)) if comp.buffers else None
    if buffer is None:
        node, diags, text = load_file(display)
    else:
        node, diags, text = load_bytes(buffer.encode("utf-8", "surrogatepass"), display)
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
                    base = overlay if base is None else _merge_noting(base, overlay, comp)
    hr = node.value.get("house_rule")
    if hr is not None:
        comp.house_rules.append(hr)
        # A house-rule file checked on its own is checked on top of the variant it names.
        check_with = hr.value.get("check_with") if hr.kind == "map" else None
        if not stack[:-1] and base is None and check_with is not None and isinstance(check_with.value, str):
            base = _load_link(check_with, real, root, comp, stack, check_with)
    own = replace(node, value={k: v for k, v in node.value.items() if k not in _LINK_KEYS})
    return own if base is None else _merge_noting(base, own, comp)


def _merge_noting(base: Node, overlay: Node, comp: Composition) -> Node:
    """merge, with a warning (W302) for each null that has nothing inherited to remove."""
    nothing: list[Node] = []
    merged = merge(base, overlay, nothing, comp.removed)
    for node in nothing:
        comp.diagnostics.append(Diagnostic(node.path, node.line, node.column, "W302",
                                           "null removes an inherited entry, but nothing of that name is "
                                           "inherited here", "warning"))
    return merged


def _load_link(ref: Node, including: str, root: Root, comp: Composition, stack: tuple[str, ...],
               via: Node) -> Node | None:
    """Load the file a link names; None, with the composition marked incomplete, when it cannot be had."""
    loaded, problem = _follow(ref, including, root, comp, stack, via)
    if problem is not None:
        comp.diagnostics.append(Diagnostic(ref.path, ref.line, ref.column, *problem))
    if loaded is None:
        comp.incomplete = True
    return loaded


def _follow(ref: Node, including: str, root: Root, comp: Composition, stack: tuple[str, ...],
            via: Node) -> tuple[Node | None, tuple[str, str] | None]:
    """(the linked file's tree or None, the (code, message) to report at the link or None)."""
    if catalog.is_name(ref.value):
        return _follow_shipped(ref, root, comp, stack, via)
    try:
        target = os.path.normpath(os.path.join(os.path.dirname(including), ref.value))
        real = os.path.realpath(target)
    except (ValueError, OSError) as err:      # a NUL byte, or a path the system refuses
        return None, ("E323", f"cannot load {shown_path(ref.value)}: {_os_problem(err)}")
    if not root.contains(real):
        return None, ("E320", f"{shown_path(ref.value)} is outside the root folder {root.folder} ({root.why}); "
                              "pass --root DIR with a folder that holds both files to allow it")
    if real in stack:
        return None, ("E321", f"{shown_path(ref.value)} includes itself (cycle through {os.path.basename(real)})")
    if len(comp.files) >= MAX_FILES:
        return None, ("E322", f"more than {MAX_FILES} files extended or included")
    display = os.path.relpath(target) if not os.path.isabs(ref.path) else target
    before = len(comp.diagnostics)
    loaded = _load(target, root, comp, stack, display, via)
    if loaded is None and any(d.code in ("E101", "E102", "E103") for d in comp.diagnostics[before:]):
        return None, ("E323", f"cannot load {shown_path(ref.value)}")
    return loaded, None


def _follow_shipped(ref: Node, root: Root, comp: Composition, stack: tuple[str, ...],
                    via: Node) -> tuple[Node | None, tuple[str, str] | None]:
    """Follow a link that names a shipped file (`extends: classic`).

    The shipped files may lie outside the user's root (an installed package): they are
    ours, so the root is not asked; their own links may not leave the shipped folder.
    """
    target = catalog.path_of(ref.value)
    if target is None:
        return None, ("E324", catalog.unknown_message(ref.value))
    real = os.path.realpath(target)
    if real in stack:
        return None, ("E321", f"{shown_path(ref.value)} includes itself (cycle through {os.path.basename(real)})")
    if len(comp.files) >= MAX_FILES:
        return None, ("E322", f"more than {MAX_FILES} files extended or included")
    shipped_root = root if root.contains(real) else Root(str(catalog.folder().resolve()), "the shipped variants")
    display = os.path.relpath(target)
    if display.startswith(".."):
        display = target                        # an installed package: its full path reads better
    before = len(comp.diagnostics)
    loaded = _load(target, shipped_root, comp, stack, display, via)
    if loaded is None and any(d.code in ("E101", "E102", "E103") for d in comp.diagnostics[before:]):
        return None, ("E323", f"cannot load {shown_path(ref.value)}")
    return loaded, None


def shown_path(path: str) -> str:
    """A path quoted for a one-line message: characters that cannot be printed are escaped."""
    return "'" + "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in path) + "'"


def _os_problem(err: Exception) -> str:
    if isinstance(err, ValueError) and "null" in str(err):
        return "a path cannot contain a NUL character"
    return getattr(err, "strerror", None) or str(err)


def merge(base: Node, overlay: Node, removed_nothing: list[Node] | None = None,
          removed: list[tuple[tuple[str, ...], Node]] | None = None, at: tuple[str, ...] = ()) -> Node:
    """Apply `overlay` (found at the key path `at`) on top of `base`: maps merge key by key, anything
    else replaces.

    A key set to null in `overlay` removes the inherited entry (a card type, a number range,
    a ruling) and is listed in `removed` as (its key path, the null); one with no entry to
    remove goes to `removed_nothing`, for a warning.
    """
    if base.kind != "map" or overlay.kind != "map":
        return overlay
    merged = dict(base.value)
    for key, value in overlay.value.items():
        if value.kind == "scalar" and value.value is None:
            if merged.pop(key, None) is None:
                if removed_nothing is not None:
                    removed_nothing.append(value)
            elif removed is not None:
                removed.append((at + (key,), value))
        elif key in merged and merged[key].kind == "map" and value.kind == "map":
            merged[key] = merge(merged[key], value, removed_nothing, removed, at + (key,))
        else:
            merged[key] = value
    # Positions come from the most specific file, so diagnostics point at the override.
    return replace(overlay, value=merged)
