"""Which shipped house rules do not go together over a variant, and why, in plain words (the lobby page
greys a choice out with the reason; making such a room is refused with the same words).

Two kinds of clash, as `unodsl check` finds them (E331 and E330): two rules of one `exclusive:`
group ("one way of stacking at a time"), and a declared conflict (`conflicts: - with: jump_in`)
that no ruling of the combination settles. The facts are read from each house rule's file (its
`house_rule:` block, what it turns on, the rulings it declares) and the variant's rulings, without
loading anything; tests/test_web_features.py holds the prediction to what loading every pair of the
rules that declare either kind says.
"""

from __future__ import annotations

import threading

import yaml

from ..source import catalog

_lock = threading.Lock()
_cache: dict[tuple, dict] = {}


def rule_facts(lobby) -> dict[str, dict]:
    """For each shipped house rule: its title, ids, what it turns on, its conflicts, group and rulings."""
    key = (lobby.variant_key, tuple(lobby.house_rules()))
    with _lock:                      # one computation at a time; a second caller waits for the first's
        if key not in _cache:
            _cache[key] = _facts(lobby)
        return _cache[key]


def _facts(lobby) -> dict[str, dict]:
    """Read from each house rule's file (no load: milliseconds); the test holds it to what check says."""
    base_rulings = set(lobby.base.variant.rulings)
    facts = {}
    for shipped in catalog.shipped():
        if not shipped.house_rule:
            continue
        with open(shipped.path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle) or {}
        block = data.get("house_rule") or {}
        on = {str(block.get("id", shipped.name))}
        for switch in ("stacking", "jump_in"):
            if isinstance(data.get(switch), dict) and data[switch].get("enabled"):
                on.add(switch)
        conflicts = [(str(c.get("with")), str(c.get("ruling")), str(c.get("why") or "").strip())
                     for c in block.get("conflicts") or [] if isinstance(c, dict)]
        facts[shipped.name] = {
            "title": shipped.title, "on": on, "conflicts": conflicts,
            "exclusive": block.get("exclusive") if isinstance(block.get("exclusive"), str) else None,
            "rulings": base_rulings | set(data.get("rulings") or {}),
        }
    return facts


def clash(facts: dict[str, dict], a: str, b: str) -> str | None:
    """Why house rules `a` and `b` cannot be chosen together (None: they can), said about `b` to one who chose `a`."""
    fa, fb = facts[a], facts[b]
    if fa["exclusive"] and fa["exclusive"] == fb["exclusive"]:
        return f"only one {fa['exclusive']} rule at a time, and {fa['title']} is chosen"
    rulings = fa["rulings"] | fb["rulings"]
    for one, other in ((fa, fb), (fb, fa)):
        for with_, ruling, why in one["conflicts"]:
            if with_ in other["on"] and ruling not in rulings:
                question = f" ({why})" if why else ""
                return f"does not go with {fa['title']}: the two leave a question open{question}"
    return None


def clashes(lobby) -> dict[str, list[dict]]:
    """Every shipped house rule with the ones it does not go with: [{"with": name, "reason": words}]."""
    facts = rule_facts(lobby)
    names = [n for n in lobby.house_rules() if n in facts]
    out: dict[str, list[dict]] = {n: [] for n in names}
    for a in names:
        for b in names:
            if a != b:
                reason = clash(facts, a, b)
                if reason:
                    out[b].append({"with": a, "reason": reason})
    return out


def first_clash(lobby, includes) -> str | None:
    """The first pair of `includes` that do not go together, in words; None when they all do."""
    if len(includes) < 2:
        return None
    facts = rule_facts(lobby)
    for i, a in enumerate(includes):
        for b in includes[i + 1:]:
            if a in facts and b in facts:
                reason = clash(facts, a, b)
                if reason:
                    return f"{b} and {a}: {reason}"
    return None
