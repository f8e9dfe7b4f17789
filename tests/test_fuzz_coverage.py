"""The fuzz campaigns' generators cover the whole language: a test fails when a grammar rule of
unodsl/effects/effect.lark or a key of schemas/variant.schema.json has no generator.

"Covered" is strict: the rule or key must occur in a generated variant that `check` accepts
(the ones the campaigns of tests/test_fuzz_games.py then play with their invariants), among the
template variants with their extension (`template_variant(rng, extra=...)`), the collection
templates (issue 29) and the variants whose
effects come from the grammar (`grammar_variant`). A rule is a name the parser puts in its tree
(a rule, or an alias such as `skip_many`); a key is a path in the schema (`cards.*.on_play`,
`house_rule.conflicts[].with`).

What no generator covers yet is listed in UNCOVERED with the reason; the test also fails when one
of those becomes covered, so the list only shrinks. A new statement, expression or section
therefore needs a generator (a template in test_fuzz_games.py) before this test passes.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import yaml
from hypothesis import given, settings, HealthCheck

from unodsl.effects import ast as A
from unodsl.effects.parse import parse_tree, parser

from test_fuzz_games import (COLLECTION_ELIMINATE_WHEN, COLLECTION_ON_PLAY, COLLECTION_STRICT, compile_text,
                             grammar_variant, template_variant)

REPO = Path(__file__).resolve().parent.parent
TEMPLATE_SEEDS = 300            # the template variants looked at (the default campaign plays 200)
COLLECTION_SEEDS = 60           # issue 29's collection templates (test_collection_templates_play_safely plays 60)
GRAMMAR_EXAMPLES = 150          # the grammar variants looked at (as many as the default campaign plays)

# Covered by no generator yet, and why. Each entry must stay uncovered (else remove it).
UNCOVERED = {
    # Two-sided decks: `sides:` with each card's `back` and `side`, and the statements that need them.
    "flip_all": "two-sided decks (sides:) are not generated",
    "side_is": "two-sided decks (sides:) are not generated",
    "sides": "two-sided decks are not generated",
    "cards.*.back": "two-sided decks are not generated",
    "cards.*.side": "two-sided decks are not generated",
    # House-rule files and includes: the campaign plays the shipped ones and every pair of them.
    "house_rule": "house rules: the shipped ones and their pairs are played (test_shipped_cases_play_safely)",
    "house_rule.id": "house rules: played as shipped",
    "house_rule.summary": "house rules: played as shipped",
    "house_rule.check_with": "house rules: played as shipped",
    "house_rule.exclusive": "house rules: played as shipped",
    "house_rule.conflicts": "house rules: played as shipped",
    "house_rule.conflicts[].with": "house rules: played as shipped",
    "house_rule.conflicts[].ruling": "house rules: played as shipped",
    "house_rule.conflicts[].why": "house rules: played as shipped",
    "include": "house rules: pairs of them are included by the shipped-case campaign",
    "rulings.*.type": "a ruling's declared type (color) is not generated",
    "player_state.*.summary": "not generated yet",
}


def _lark_names() -> set[str]:
    """The names the parser may put in its tree: every rule and alias but the inlined and hidden ones."""
    names = set()
    for rule in parser().rules:
        name = rule.alias or rule.origin.name
        name = getattr(name, "name", name)
        # A `?rule` without an alias is inlined when one child is left (the punctuation is filtered out).
        kept = [sym for sym in rule.expansion if not getattr(sym, "filter_out", False)]
        inlined = rule.options.expand1 and len(kept) <= 1 and not rule.alias
        if not name.startswith("_") and not inlined and name not in ("start", "effect", "condition"):
            names.add(str(name))
    return names


def _schema_keys(node: dict, path: str, defs: dict, out: set, seen: set) -> None:
    if "$ref" in node:
        name = node["$ref"].split("/")[-1]
        if (name, path) not in seen:
            seen.add((name, path))
            _schema_keys(defs[name], path, defs, out, seen)
        return
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in node.get(key, []):
            _schema_keys(sub, path, defs, out, seen)
    for key, sub in node.get("properties", {}).items():
        child = f"{path}.{key}" if path else key
        out.add(child)
        _schema_keys(sub, child, defs, out, seen)
    if isinstance(node.get("additionalProperties"), dict):
        _schema_keys(node["additionalProperties"], f"{path}.*", defs, out, seen)
    for sub in node.get("patternProperties", {}).values():
        _schema_keys(sub, f"{path}.*", defs, out, seen)
    if isinstance(node.get("items"), dict):
        _schema_keys(node["items"], f"{path}[]", defs, out, seen)


def schema_keys() -> set[str]:
    schema = json.loads((REPO / "schemas" / "variant.schema.json").read_text(encoding="utf-8"))
    out: set[str] = set()
    _schema_keys(schema, "", schema["$defs"], out, set())
    return out


def _document_keys(value, path: str, out: set) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            child = f"{path}.{key}" if path else str(key)
            out.add(child)
            _document_keys(sub, child, out)
    elif isinstance(value, list):
        for sub in value:
            _document_keys(sub, f"{path}[]", out)


class Coverage:
    def __init__(self):
        self.rules: set[str] = set()
        self.keys: set[str] = set()
        self.clean = 0

    def add(self, text: str, base: str) -> None:
        result = compile_text(text, base)
        if result.errors or result.game is None:
            return
        self.clean += 1
        syntax = result.game.variant.syntax
        for effect in syntax.texts:
            tree = syntax.tree(effect)
            if tree is None:
                continue
            lark, _ = parse_tree(effect, "condition" if isinstance(tree, A.Condition) else "effect")
            if lark is not None:
                self.rules.update(str(t.data) for t in lark.iter_subtrees())
        _document_keys(yaml.safe_load(text), "", self.keys)

    def covers_key(self, key: str) -> bool:
        pattern = re.compile("^" + re.escape(key).replace(r"\*", r"[^.\[\]]+") + "$")
        return any(pattern.match(k) for k in self.keys)


def _coverage() -> Coverage:
    found = Coverage()
    for seed in range(TEMPLATE_SEEDS):
        base, text = template_variant(random.Random(seed), extra=random.Random(~seed))
        found.add(text, base)
    for seed in range(COLLECTION_SEEDS):
        base, text = template_variant(random.Random(seed), COLLECTION_ON_PLAY, COLLECTION_STRICT,
                                      COLLECTION_ELIMINATE_WHEN)
        found.add(text, base)

    @settings(max_examples=GRAMMAR_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(grammar_variant())
    def grammar(case):
        base, text = case
        found.add(text, base)
    grammar()
    return found


def test_every_grammar_rule_and_schema_key_has_a_generator(record_property):
    found = _coverage()
    rules, keys = _lark_names(), schema_keys()
    missing = sorted(r for r in rules if r not in found.rules and r not in UNCOVERED)
    missing += sorted(k for k in keys if not found.covers_key(k) and k not in UNCOVERED)
    stale = sorted(n for n in UNCOVERED if n in found.rules or (n in keys and found.covers_key(n))
                   or (n not in rules and n not in keys))
    record_property("clean_variants", found.clean)
    print(f"\n[fuzz-coverage] {found.clean} clean variants: {len(rules)} grammar rules, {len(keys)} schema keys, "
          f"{len(UNCOVERED)} listed as not generated")
    assert not missing, f"no generator makes a clean variant with these (add a template): {missing}"
    assert not stale, f"listed in UNCOVERED but generated now, or no longer in the language (remove them): {stale}"
