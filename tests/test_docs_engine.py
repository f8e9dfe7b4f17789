"""docs/language.md says what the engine does: the limits table holds the engine's constants,
and section 7 says who is asked to call UNO after an effect."""

from __future__ import annotations

import re
from pathlib import Path

from unodsl import engine
from unodsl.source import compose
from unodsl.effects import check, parse as effects
from unodsl.model import variant as model
from unodsl.source import yaml_tree as source

REPO = Path(__file__).resolve().parent.parent
LANGUAGE = (REPO / "docs" / "language.md").read_text(encoding="utf-8")


def _limits() -> dict[str, tuple[str, str]]:
    """Section 10's table: limit -> (value, diagnostic)."""
    section = LANGUAGE[LANGUAGE.index("## 10. Limits"):]
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", section, re.M)
    return {name.strip(): (value.strip(), code.strip()) for name, value, code in rows[1:]}


def _first_number(text: str) -> int:
    return int(re.search(r"[0-9][0-9,]*", text).group(0).replace(",", ""))


def test_limits_table_holds_the_constants():
    limits = _limits()
    expected = {
        "File size": (source.MAX_BYTES, "E105"),
        "Nesting depth": (source.MAX_DEPTH, "E114"),
        "Length of a number in YAML": (source.MAX_NUMBER_CHARS, "E110"),
        "Files extended or included": (compose.MAX_FILES, "E322"),
        "Cards in the deck": (model.MAX_CARDS, "E308"),
        "Copies in one `numbers`, `per_color` or `count` entry": (model.MAX_COUNT, "E204"),
        "Length of one effect or condition": (effects.MAX_EFFECT_LENGTH, "E404"),
        "Length of all a variant's effects and conditions together": (effects.MAX_EFFECTS_LENGTH, "E405"),
        "Nesting of statements and expressions in one effect or condition": (effects.MAX_NESTING, "E513"),
        "`repeat` count": (check.MAX_REPEAT, "E506"),
        "Work in one turn: effect steps and cards moved, over all its decisions": (engine.MAX_STEPS_PER_TURN, "—"),
        "Effects open at once (one started inside another)": (engine.MAX_FRAMES, "—"),
    }
    for name, (value, code) in expected.items():
        assert name in limits, name
        assert (_first_number(limits[name][0]), limits[name][1]) == (value, code), name
    assert _first_number(limits["Aliases"][0]) == source.MAX_ALIASES
    assert f"{source.MAX_NODES:,} nodes" in limits["Aliases"][0]


def test_discards_color_asks_for_uno_in_the_docs():
    sentence = LANGUAGE[LANGUAGE.index("A player left with one card by any of these"):][:200]
    assert "but `discards color`" not in sentence
    assert "`discards color` included" in sentence
    # The engine: the discard_color op hands its change to the same check as swaps and gives.
    import inspect
    from unodsl.engine import ops
    assert "st.hand_changed(" in inspect.getsource(ops.discard_color)
