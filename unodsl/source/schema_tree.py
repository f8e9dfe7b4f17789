"""The variant JSON Schema read by YAML path: which keys a mapping takes, what a key means.

A path is a tuple of mapping keys from the file's root, with "[]" for an item of a list,
as `cursor` finds it: ("cards", "skip", "on_play"), ("include", "[]").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .schema import load_schema

ITEM = "[]"
_EFFECT_REFS = {"#/$defs/effect": "effect", "#/$defs/condition": "condition"}


@dataclass(frozen=True)
class Key:
    """A key a mapping takes, with the schema's description of its value."""

    name: str
    description: str
    required: bool


class SchemaTree:
    """Walks a JSON Schema (`$ref` into `$defs`, properties, additionalProperties, items, anyOf)."""

    def __init__(self, schema: dict):
        self.schema = schema

    def nodes_at(self, path: tuple[str, ...]) -> list[dict]:
        """Every schema node that may describe the value at `path` (several under anyOf); [] when none does."""
        nodes = [self.schema]
        for step in path:
            nodes = [child for node in nodes for alt in self._alternatives(node) for child in self._child(alt, step)]
            if not nodes:
                return []
        return nodes

    def keys_at(self, path: tuple[str, ...]) -> list[Key]:
        """The keys the schema names for the mapping at `path`, in the schema's order."""
        found: dict[str, Key] = {}
        for node in self.nodes_at(path):
            for alt in self._alternatives(node):
                required = set(alt.get("required", ()))
                for name, child in (alt.get("properties") or {}).items():
                    if name not in found:
                        found[name] = Key(name, self.description(child), name in required)
        return list(found.values())

    def description_at(self, path: tuple[str, ...]) -> str | None:
        """The description of the value at `path`: the key's own text first, then its definition's."""
        for node in self.nodes_at(path):
            text = self.description(node)
            if text:
                return text
        return None

    def values_at(self, path: tuple[str, ...]) -> list[str]:
        """The scalar values the schema lists for `path`: its enum members, or true and false for a boolean."""
        out: list[str] = []
        for node in self.nodes_at(path):
            for alt in self._alternatives(node):
                for value in alt.get("enum", ()):
                    shown = _yaml_scalar(value)
                    if shown not in out:
                        out.append(shown)
                types = alt.get("type")
                if types == "boolean" or (isinstance(types, list) and "boolean" in types):
                    out.extend(v for v in ("true", "false") if v not in out)
        return out

    def language_at(self, path: tuple[str, ...]) -> str | None:
        """"effect" or "condition" when the value at `path` is effect-language text, else None."""
        for node in self.nodes_at(path):
            ref = node.get("$ref")
            if ref in _EFFECT_REFS:
                return _EFFECT_REFS[ref]
        return None

    def is_path(self, path: tuple[str, ...]) -> bool:
        """Whether the value at `path` names another file or a shipped variant (`extends`, `include` items)."""
        return any(node.get("$ref") == "#/$defs/path" for node in self.nodes_at(path))

    def description(self, node: dict) -> str:
        """A node's own description, else that of the definition it refers to."""
        if node.get("description"):
            return node["description"]
        target = self._resolve(node)
        return target.get("description", "") if target is not node else ""

    def _child(self, node: dict, step: str) -> list[dict]:
        if step == ITEM:
            items = node.get("items")
            return [items] if isinstance(items, dict) else []
        props = node.get("properties") or {}
        if step in props:
            return [props[step]]
        extra = node.get("additionalProperties")
        return [extra] if isinstance(extra, dict) else []

    def _alternatives(self, node: dict) -> list[dict]:
        """The node with its `$ref` followed, and each branch of anyOf/oneOf/allOf."""
        target = self._resolve(node)
        out = [target]
        for word in ("anyOf", "oneOf", "allOf"):
            for branch in target.get(word, ()):
                out.extend(self._alternatives(branch))
        return out

    def _resolve(self, node: dict) -> dict:
        seen = 0
        while isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/") and seen < 16:
            target = self.schema
            for part in node["$ref"][2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            node, seen = target, seen + 1
        return node


def _yaml_scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@functools.lru_cache(maxsize=1)
def variant_schema() -> SchemaTree:
    """The variant schema, read once per process."""
    return SchemaTree(load_schema("variant"))
