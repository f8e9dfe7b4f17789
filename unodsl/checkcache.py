"""A cache of clean `check` results, so re-checking an unchanged variant skips the heavy stages.

Like ruff's cache: an entry records every file a check read (the variant, what it
extends and includes), as named, with the file it resolved to and its content hash,
and a hash of unodsl itself (code, grammar, schemas). A hit needs every hash to match, so any edit anywhere misses. Only clean
results are cached; a file with problems always goes through every stage, which
also gives `--format full` its source lines. Standard library only: a hit must not
import YAML, Lark or jsonschema.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .files import atomic_write
from .files import cache_dir as files_cache_dir

_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is switched off (UNODSL_NO_CACHE=1)."""
    return files_cache_dir("check")


def _digest(path: str | Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def _tool_digest() -> str:
    """A hash of unodsl's own code, grammar and schemas: a new unodsl never reuses old answers."""
    h = hashlib.sha256()
    sources = sorted(p for pattern in ("*.py", "*.lark", "*.json") for p in _PACKAGE.rglob(pattern))
    for source in sources:
        h.update(source.relative_to(_PACKAGE).as_posix().encode())
        h.update((_digest(source) or "").encode())
    return h.hexdigest()


def _key(path: str, root: str | None) -> str:
    material = json.dumps([os.path.realpath(path), os.path.realpath(root) if root else None, os.getcwd(),
                           _digest(path), _tool_digest()])
    return hashlib.sha256(material.encode()).hexdigest()


def is_known_clean(path: str, root: str | None) -> bool:
    """True when `path` and everything it read are unchanged since a clean check."""
    folder = cache_dir()
    if folder is None or _digest(path) is None:
        return False
    try:
        entry = json.loads((folder / f"{_key(path, root)}.json").read_text(encoding="utf-8"))
        files = entry["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(files, dict) and all(_read_as(name) == seen for name, seen in files.items())


def _read_as(name: str) -> list | None:
    """What reading `name` gives now: the file it resolves to and that file's content hash.

    Keyed by the path as the check named it (not resolved), so a symbolic link that now
    points elsewhere, even at an unchanged file, is seen as a change.
    """
    digest = _digest(name)
    return None if digest is None else [os.path.realpath(name), digest]


def remember_clean(path: str, root: str | None, files: list[str]) -> None:
    """Record a clean check of `path` that read `files`; never fails the check itself."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        entry = {"files": {os.path.abspath(f): _read_as(f) for f in files}}
        atomic_write(str(folder / f"{_key(path, root)}.json"), json.dumps(entry), force=True)
    except OSError:
        pass
