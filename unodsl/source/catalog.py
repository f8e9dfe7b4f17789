"""The shipped variants and house rules, found by name (`classic`, `stacking-mattel`).

A name is a link value or command argument without `/` and without `.yaml`; it names
`<name>.yaml` in the shipped variants folder or in its `house-rules/` folder. The wheel
carries them as package data (`unodsl/data/variants`); a source tree has them in `variants/`.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

HOUSE_RULES = "house-rules"
SCENARIOS = "scenarios"


@dataclass(frozen=True)
class Shipped:
    """One shipped file: its name, whether it is a house rule, its path (absolute) and a one-line summary."""

    name: str
    house_rule: bool
    path: str
    title: str
    summary: str


def folder() -> Path:
    """The shipped variants folder, from the installed package or the source tree."""
    here = Path(__file__).resolve().parent.parent      # unodsl/
    # In a clone, data/variants is a link to the top-level variants/: paths are shown as the latter.
    for candidate in (here / "data" / "variants", here.parent / "variants"):
        if (candidate / "classic.yaml").is_file():
            return candidate.resolve()
    raise FileNotFoundError("the shipped variants were not found next to the unodsl package")


def is_name(value: str) -> bool:
    """Whether `value` is a shipped name rather than a path: no `/` (or `\\`) and no `.yaml`/`.yml` ending."""
    return (bool(value) and "/" not in value and "\\" not in value and "\0" not in value
            and not value.endswith((".yaml", ".yml")) and value not in (".", ".."))


def names() -> list[str]:
    """Every shipped name: variants first, then house rules, each sorted."""
    base = folder()
    found = sorted(p.stem for p in base.glob("*.yaml"))
    found += sorted(p.stem for p in (base / HOUSE_RULES).glob("*.yaml") if p.stem not in found)
    return found


def path_of(name: str) -> str | None:
    """The path of the shipped file called `name`, or None."""
    if not is_name(name):
        return None
    base = folder()
    for candidate in (base / f"{name}.yaml", base / HOUSE_RULES / f"{name}.yaml"):
        try:
            if candidate.is_file():
                return str(candidate)
        except OSError:                 # a name too long for a file name (ENAMETOOLONG) names no shipped file
            continue
    return None


def unknown_message(name: str) -> str:
    """The message for a name that is no shipped file, with the closest one when there is one."""
    close = difflib.get_close_matches(name, names(), n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in name)
    return f"unknown variant '{shown}'{hint} (`unodsl list` shows them)"


def shipped() -> list[Shipped]:
    """Every shipped variant and house rule with its title and one-line summary."""
    import yaml
    out = []
    for name in names():
        path = path_of(name)
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle) or {}
        house = data.get("house_rule") if isinstance(data.get("house_rule"), dict) else None
        text = (house or {}).get("summary") or data.get("description") or ""
        out.append(Shipped(name, house is not None, path,
                           str(data.get("name") or name), _first_sentence(str(text))))
    return out


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return text.split(". ", 1)[0].rstrip(".") + "." if text else ""
