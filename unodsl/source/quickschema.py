"""A quick yes/no JSON Schema check, so that valid files never import jsonschema.

Importing jsonschema (with attrs, referencing and the bundled metaschemas) costs
more than everything else `unodsl check` does on a valid file: about 350 million
of its 820 million instructions. A valid file needs no error messages, so the
schema stage first asks this checker, which knows only the keywords our schemas
use. A file it rejects goes on to jsonschema, which finds and explains the errors.

Its verdict must be jsonschema's (Draft 2020-12) on every document: a file it
wrongly accepted would skip the schema's diagnostics. tests/test_schema.py holds
it to that on the shipped files, the invalid corpus and mutated documents. A
schema with a keyword it does not know makes it unusable (`usable` is False),
and every file then goes to jsonschema as before.
"""

from __future__ import annotations

import re
from typing import Any

# Keywords that only annotate: they never make a document invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples"})
_VALIDATION = frozenset({
    "$ref", "$defs", "type", "enum", "const", "anyOf",
    "required", "properties", "additionalProperties", "propertyNames",
    "items", "minItems", "maxItems", "uniqueItems",
    "minLength", "maxLength", "pattern",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
})
_KNOWN = _ANNOTATIONS | _VALIDATION


class QuickValidator:
    """`is_valid(document)`: the verdict of Draft 2020-12 validation, for a subset of keywords."""

    def __init__(self, schema: dict) -> None:
        self.schema = schema
        self.defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
        self.usable = _supported(schema, self.defs)
        self._patterns: dict[str, re.Pattern] = {}

    def is_valid(self, instance: Any) -> bool:
        """True if the document is valid; only meaningful when `usable`."""
        return self._valid(instance, self.schema)

    def _valid(self, x: Any, s: Any) -> bool:
        if s is True:
            return True
        if s is False:
            return False
        ref = s.get("$ref")
        if ref is not None and not self._valid(x, self.defs[ref[len("#/$defs/"):]]):
            return False
        kind = s.get("type")
        if kind is not None and not (_is_type(x, kind) if isinstance(kind, str)
                                     else any(_is_type(x, k) for k in kind)):
            return False
        if "enum" in s and not any(_equal(x, option) for option in s["enum"]):
            return False
        if "const" in s and not _equal(x, s["const"]):
            return False
        if "anyOf" in s and not any(self._valid(x, branch) for branch in s["anyOf"]):
            return False
        if isinstance(x, dict):
            return self._valid_object(x, s)
        if isinstance(x, list):
            return self._valid_array(x, s)
        if isinstance(x, str):
            return self._valid_string(x, s)
        if _is_type(x, "number"):
            return _in_range(x, s)
        return True

    def _valid_object(self, x: dict, s: dict) -> bool:
        if any(key not in x for key in s.get("required", ())):
            return False
        properties = s.get("properties", {})
        additional = s.get("additionalProperties", True)
        names = s.get("propertyNames")
        for key, value in x.items():
            if names is not None and not self._valid(key, names):
                return False
            if key in properties:
                if not self._valid(value, properties[key]):
                    return False
            elif additional is not True and not self._valid(value, additional):
                return False
        return True

    def _valid_array(self, x: list, s: dict) -> bool:
        if len(x) < s.get("minItems", 0) or len(x) > s.get("maxItems", len(x)):
            return False
        if s.get("uniqueItems") and not _unique(x):
            return False
        items = s.get("items")
        return items is None or all(self._valid(item, items) for item in x)

    def _valid_string(self, x: str, s: dict) -> bool:
        if len(x) < s.get("minLength", 0) or len(x) > s.get("maxLength", len(x)):
            return False
        pattern = s.get("pattern")
        if pattern is None:
            return True
        compiled = self._patterns.get(pattern)
        if compiled is None:
            compiled = self._patterns[pattern] = re.compile(pattern)
        return compiled.search(x) is not None       # JSON Schema patterns are not anchored


def _supported(schema: Any, defs: dict) -> bool:
    """True if every keyword of `schema` is one this checker knows, and every $ref is local."""
    stack = [schema]
    while stack:
        s = stack.pop()
        if isinstance(s, bool):
            continue
        if not isinstance(s, dict) or not _KNOWN.issuperset(s):
            return False
        ref = s.get("$ref")
        if ref is not None and not (isinstance(ref, str) and ref.startswith("#/$defs/")
                                    and ref[len("#/$defs/"):] in defs):
            return False
        for key in ("properties", "$defs"):
            stack.extend(s.get(key, {}).values())
        for key in ("additionalProperties", "propertyNames", "items"):
            if key in s:
                stack.append(s[key])
        stack.extend(s.get("anyOf", ()))
    return True


def _is_type(x: Any, kind: str) -> bool:
    """JSON Schema's types over Python values, as jsonschema's Draft 2020-12 type checker has them."""
    if kind == "string":
        return isinstance(x, str)
    if kind == "object":
        return isinstance(x, dict)
    if kind == "array":
        return isinstance(x, list)
    if kind == "boolean":
        return isinstance(x, bool)
    if kind == "null":
        return x is None
    if isinstance(x, bool):
        return False                                 # bool is an int in Python, not in JSON
    if kind == "integer":
        return isinstance(x, int) or (isinstance(x, float) and x.is_integer())
    if kind == "number":
        return isinstance(x, (int, float))
    return False


def _in_range(x: int | float, s: dict) -> bool:
    if "minimum" in s and x < s["minimum"]:
        return False
    if "maximum" in s and x > s["maximum"]:
        return False
    if "exclusiveMinimum" in s and x <= s["exclusiveMinimum"]:
        return False
    return not ("exclusiveMaximum" in s and x >= s["exclusiveMaximum"])


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, false is not 0; lists and mappings compare item by item."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(p, q) for p, q in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def _unique(items: list) -> bool:
    """No two items JSON-equal; linear for scalars (a 200,000-item list must not take minutes)."""
    seen = set()
    for item in items:
        if isinstance(item, (list, dict)):
            return _unique_slow(items)
        key = (type(item) is bool, item)             # true is not 1, but 1 is 1.0
        if key in seen:
            return False
        seen.add(key)
    return True


def _unique_slow(items: list) -> bool:
    return all(not _equal(items[i], items[j]) for i in range(len(items)) for j in range(i))
