"""The schema stage: check a located YAML tree against the JSON Schema of its file kind.

Each `jsonschema` error is mapped back to the YAML node it is about, so it can be
reported at a line and column, and given one stable E2xx code:

    E201 unknown key            E205 missing required key
    E202 wrong type             E206 bad pattern (a name or id of the wrong shape)
    E203 value not allowed      E207 other schema error (duplicates, list sizes, ...)
    E204 number out of range
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, suggestion_suffix
from .quickschema import QuickValidator

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

    from .yaml_tree import Node

_PACKAGE_DIR = Path(__file__).resolve().parent
_SCHEMA_DIRS = (_PACKAGE_DIR / "schemas",)

_SNAKE = "^[a-z][a-z0-9_]*$"
# What each pattern of the schemas asks for, in words (pattern -> message after the value).
_PATTERN_WORDS = {
    _SNAKE: "must be snake_case (a lowercase letter, then lowercase letters, digits or _)",
    r"^\d{1,4}(-\d{1,4})?$": "is not a number or a range like 1-9",
    "^[a-z0-9_]*$": "may only hold lowercase letters, digits and _",
    r"^[0-9]+(\.[0-9]+)*": "must start with a section number like 5.5",
    "^(-?[0-9]{1,7}|[a-z][a-z0-9_]*)$": "is not a whole number or a snake_case name",
}
# Names given to the keys of a map whose keys are free (`propertyNames`), by parent key.
_KEY_NOUNS = {"cards": "card type id", "rulings": "ruling name", "numbers": "number key",
              "distributions": "distribution name"}
_TYPE_WORDS = {"object": "mapping", "array": "list"}
_RANGE_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_MAX_SHOWN = 40        # characters of a string value quoted in a message


@functools.lru_cache(maxsize=None)
def load_schema(name: str = "variant") -> dict:
    """Return the JSON Schema `<name>.schema.json`, from the installed package data or the repository."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"bad schema name {name!r}")
    for folder in _SCHEMA_DIRS:
        file = folder / f"{name}.schema.json"
        if file.is_file():
            with open(file, encoding="utf-8") as handle:
                return json.load(handle)
    raise FileNotFoundError(f"no schema named {name!r} in {', '.join(str(d) for d in _SCHEMA_DIRS)}")


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    """Return the (cached) validator for the schema `name`."""
    from jsonschema import Draft202012Validator   # imported only when a file has schema errors
    return Draft202012Validator(load_schema(name))


@functools.lru_cache(maxsize=None)
def quick_validator(name: str) -> QuickValidator:
    """Return the (cached) yes/no checker for the schema `name` (see quickschema.py)."""
    return QuickValidator(load_schema(name))


def validate_tree(node: Node | None, schema_name: str = "variant") -> list[Diagnostic]:
    """Check `node` against the schema `schema_name` and return sorted E2xx diagnostics; never raises."""
    if node is None:
        return []
    quick = quick_validator(schema_name)   # an unknown schema name is a programming error: let it raise
    try:
        if quick.usable and quick.is_valid(_plain(node)):
            return []
        return _Checker(node).run(_validator(schema_name))
    except Exception as exc:  # a checker bug must not hide the file's other diagnostics
        path = getattr(node, "path", "<unknown>")
        line, column = getattr(node, "line", 1) or 1, getattr(node, "column", 1) or 1
        return [Diagnostic(path, line, column, "E207", f"the schema check failed ({type(exc).__name__})")]


# ---------------------------------------------------------------------------
# Plain data and node lookup


def _plain(node: Node) -> Any:
    """Return the plain Python value of a located node, with every mapping key a string."""
    if node.kind == "map":
        return {str(key): _plain(child) for key, child in node.value.items()}
    if node.kind == "seq":
        return [_plain(child) for child in node.value]
    return node.value


def _child(node: Node, step: str | int) -> Node | None:
    """Return the child of `node` at one step of a jsonschema path, or None."""
    if node.kind == "map" and isinstance(node.value, dict):
        found = node.value.get(step) if isinstance(step, str) else None
        if found is not None:
            return found
        for key, child in node.value.items():
            if str(key) == str(step):
                return child
        return None
    if node.kind == "seq" and isinstance(step, int) and 0 <= step < len(node.value):
        return node.value[step]
    return None


def _locate(root: Node, path) -> Node:
    """Return the deepest node along `path` (the node itself when every step is found)."""
    node = root
    for step in path:
        child = _child(node, step)
        if child is None:
            break
        node = child
    return node


def _label(path) -> str:
    """Return a dotted path such as `cards.draw_two.numbers` or `scenarios[0].given`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


# ---------------------------------------------------------------------------
# Words for values and types


def _shown(value: Any) -> str:
    """Return a short YAML-like rendering of a scalar value, never a whole mapping or list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        text = value.replace("\n", "\\n")
        if len(text) > _MAX_SHOWN:
            text = text[:_MAX_SHOWN] + "..."
        return f"'{text}'"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _described(value: Any) -> str:
    """Return the type and value of `value`, e.g. `string 'two'`, `integer 3`, `a mapping`."""
    if isinstance(value, bool):
        return f"boolean {_shown(value)}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        return f"string {_shown(value)}"
    return _shown(value)


def _either(words: list[str]) -> str:
    """Join alternatives: `a`, `a or b`, `a, b or c`."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _type_words(types) -> list[str]:
    if isinstance(types, str):
        types = [types]
    return [_TYPE_WORDS.get(t, t) for t in types]


def _branch_words(schema: Any) -> list[str]:
    """Describe what one anyOf/oneOf branch accepts, e.g. ['integer'] or ["'face'"]."""
    if not isinstance(schema, dict):
        return []
    if "const" in schema:
        return [_shown(schema["const"])]
    if isinstance(schema.get("enum"), list) and len(schema["enum"]) <= 3:
        return [_shown(v) for v in schema["enum"]]
    if "type" in schema:
        return _type_words(schema["type"])
    return []


def _hint(value: Any, allowed: Any) -> str:
    """A did-you-mean suffix for a string value among the allowed strings, else ""."""
    if not isinstance(value, str) or not isinstance(allowed, list):
        return ""
    return suggestion_suffix(value, [v for v in allowed if isinstance(v, str)])


def _fitting_branches(error: ValidationError) -> list[list[ValidationError]]:
    """The errors of each anyOf/oneOf branch whose type the value has (its errors are about content)."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    return [errs for _, errs in sorted(branches.items())
            if not any(e.validator == "type" and not e.relative_path for e in errs)]


def _allowed_strings(branches: Any) -> list[str]:
    """The string constants and enum values of anyOf/oneOf branches, for did-you-mean."""
    out = []
    for branch in branches if isinstance(branches, list) else []:
        if isinstance(branch, dict):
            values = list(branch.get("enum", [])) + ([branch["const"]] if "const" in branch else [])
            out.extend(v for v in values if isinstance(v, str))
    return out


# ---------------------------------------------------------------------------
# Mapping errors to diagnostics


class _Checker:
    """Turns the jsonschema errors of one tree into located diagnostics."""

    def __init__(self, root: Node):
        self.root = root
        self.instance = _plain(root)
        self.file = root.path

    def run(self, validator: Draft202012Validator) -> list[Diagnostic]:
        errors = [leaf for error in validator.iter_errors(self.instance) for leaf in self.leaves(error)]
        # A value of the wrong type fails its enum or const too: report the type only.
        typed = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
        diags: list[Diagnostic] = []
        for error in errors:
            if error.validator != "type" and tuple(error.absolute_path) in typed and not self.about_key(error):
                continue
            diags.extend(self.diagnose(error))
        unique = {(d.path, d.line, d.column, d.code, d.message): d for d in diags}
        return [unique[key] for key in sorted(unique, key=lambda k: (str(k[0]), *k[1:]))]

    # --- choosing errors

    def leaves(self, error: ValidationError) -> Iterator[ValidationError]:
        """Yield the errors to report for `error`, resolving anyOf/oneOf to the branch that fits."""
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            yield error
            return
        fitting = _fitting_branches(error)
        if len(fitting) == 1 and all(e.validator in ("enum", "const") and not e.relative_path for e in fitting[0]):
            yield error          # the right type but not an allowed value: name every branch
        elif len(fitting) == 1:
            for sub in fitting[0]:
                yield from self.leaves(sub)
        elif not fitting:
            yield error          # reported as a type error listing the branches
        else:
            from jsonschema.exceptions import best_match
            yield from self.leaves(best_match(error.context))

    def about_key(self, error: ValidationError) -> bool:
        """True if `error` is about a mapping key (from `propertyNames`), not a value."""
        return "propertyNames" in error.absolute_schema_path

    # --- describing errors

    def at(self, node: Node, code: str, message: str, key: str | None = None) -> Diagnostic:
        """Return a diagnostic at `node`, or at `key`, its key in the owning mapping, when given."""
        if key is not None and getattr(node, "key_line", None) is not None:
            column = node.key_column or 1
            return Diagnostic(node.path or self.file, node.key_line, column, code, message,
                              end_line=node.key_line, end_column=column + len(key))
        return Diagnostic(node.path or self.file, node.line, node.column, code, message,
                          end_line=getattr(node, "end_line", None), end_column=getattr(node, "end_column", None))

    def where(self, path) -> str:
        """Say which mapping `path` names: `at the top level`, `in card 'skip'`, `in 'players'`."""
        path = list(path)
        if not path:
            return "at the top level"
        if len(path) == 2 and path[0] == "cards":
            return f"in card {_shown(path[1])}"
        if len(path) == 2 and path[0] == "rulings":
            return f"in ruling {_shown(path[1])}"
        if len(path) >= 2 and path[0] == "scenarios" and isinstance(path[1], int):
            scenario = _locate(self.root, path[:2])
            name = scenario.get("name") if scenario.kind == "map" else None
            which = (f"scenario {_shown(name.value)}" if name is not None and isinstance(name.value, str)
                     else f"scenario {path[1] + 1}")
            return f"in {which}" if len(path) == 2 else f"in {_shown(_label(path[2:]))} of {which}"
        return f"in {_shown(_label(path))}"

    def diagnose(self, error: ValidationError) -> list[Diagnostic]:
        path = list(error.absolute_path)
        node = _locate(self.root, path)
        kind = error.validator
        value = error.instance
        if self.about_key(error):
            return [self.bad_key(error, path, node)]
        if kind == "additionalProperties":
            return self.unknown_keys(error, path, node)
        if kind in ("anyOf", "oneOf") and error.context:
            words = [w for branch in error.validator_value for w in _branch_words(branch)]
            got = f"expected {_either(words)}, got {_described(value)}"
            if _fitting_branches(error):     # the right type, but not an allowed value
                return [self.at(node, "E203", got + _hint(value, _allowed_strings(error.validator_value)))]
            return [self.at(node, "E202", got)]
        if kind == "type":
            expected = _either(_type_words(error.validator_value))
            return [self.at(node, "E202", f"expected {expected}, got {_described(value)}")]
        if kind == "enum":
            allowed = error.validator_value
            listed = ", ".join(v if isinstance(v, str) else _shown(v) for v in allowed)
            return [self.at(node, "E203", f"{_shown(value)} is not one of {listed}{_hint(value, allowed)}")]
        if kind == "const":
            return [self.at(node, "E203", f"expected {_shown(error.validator_value)}, got {_shown(value)}")]
        if kind in _RANGE_KEYWORDS:
            return [self.at(node, "E204", self.range_message(error.schema, value))]
        if kind == "required":
            return self.missing_keys(error, path, node)
        if kind == "pattern":
            words = _PATTERN_WORDS.get(error.validator_value, f"does not match {error.validator_value}")
            return [self.at(node, "E206", f"{_shown(value)} {words}")]
        if kind == "uniqueItems":
            return self.duplicates(path, node, value)
        if kind in ("maxItems", "minItems"):
            limit = error.validator_value
            count = len(value) if isinstance(value, list) else 0
            if kind == "maxItems":
                return [self.at(node, "E207", f"the list has {count} items, at most {limit} are allowed")]
            return [self.at(node, "E207", f"the list needs at least {limit} item{'s' if limit != 1 else ''}")]
        if kind == "minLength" and error.validator_value == 1:
            return [self.at(node, "E207", "must not be empty")]
        if kind == "minLength":
            return [self.at(node, "E207", f"must be at least {error.validator_value} characters long")]
        # jsonschema's own messages can quote a whole mapping; name the failed keyword instead.
        return [self.at(node, "E207", f"{_shown(value)} does not satisfy the schema's '{kind}' rule")]

    def bad_key(self, error: ValidationError, path: list, node: Node) -> Diagnostic:
        """E206 (or another code) for a mapping key that fails `propertyNames`."""
        key = error.instance
        child = _child(node, key) if isinstance(key, str) else None
        target, at_key = (node, None) if child is None else (child, key)
        noun = _KEY_NOUNS.get(path[-1] if path else "", "key")
        if error.validator == "pattern":
            words = _PATTERN_WORDS.get(error.validator_value, f"does not match {error.validator_value}")
            return self.at(target, "E206", f"{noun} {_shown(key)} {words}", key=at_key)
        return self.at(target, "E207", f"{noun} {_shown(key)} is not allowed {self.where(path)}", key=at_key)

    def unknown_keys(self, error: ValidationError, path: list, node: Node) -> list[Diagnostic]:
        """One E201 per key the schema does not list, at the key itself."""
        if not isinstance(error.instance, dict):
            return []
        schema = error.schema if isinstance(error.schema, dict) else {}
        known = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        out = []
        for key in error.instance:
            if key in known or any(re.search(p, key) for p in patterns):
                continue
            child = _child(node, key)
            message = f"unknown key {_shown(key)} {self.where(path)}" + suggestion_suffix(key, known)
            if child is None:
                out.append(self.at(node, "E201", message))
            else:
                out.append(self.at(child, "E201", message, key=key))
        return out

    def missing_keys(self, error: ValidationError, path: list, node: Node) -> list[Diagnostic]:
        """One E205 per missing key, at the key that owns the mapping (or the mapping itself)."""
        if not isinstance(error.instance, dict):
            return []
        owner = path[-1] if path and isinstance(path[-1], str) else None
        return [self.at(node, "E205", f"missing required key '{name}' {self.where(path)}", key=owner)
                for name in error.validator_value if name not in error.instance]

    def duplicates(self, path: list, node: Node, items: Any) -> list[Diagnostic]:
        """One E207 per repeated list item, at the repeat."""
        seen: set[str] = set()
        out = []
        for index, item in enumerate(items if isinstance(items, list) else []):
            token = json.dumps(item, sort_keys=True, default=str)
            if token in seen:
                child = _child(node, index)
                shown = _shown(item) if not isinstance(item, (dict, list)) else "this item"
                out.append(self.at(child if child is not None else node, "E207", f"{shown} is listed twice"))
            seen.add(token)
        return out or [self.at(node, "E207", "the list items must be unique")]

    @staticmethod
    def range_message(schema: Any, value: Any) -> str:
        """Say why a number is out of range, giving the whole range when the schema has one."""
        schema = schema if isinstance(schema, dict) else {}
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{_shown(value)} is outside {low}..{high}"
        if low is not None:
            return f"{_shown(value)} is below the minimum {low}"
        if high is not None:
            return f"{_shown(value)} is above the maximum {high}"
        if "exclusiveMinimum" in schema:
            return f"{_shown(value)} must be more than {schema['exclusiveMinimum']}"
        return f"{_shown(value)} must be less than {schema.get('exclusiveMaximum')}"
