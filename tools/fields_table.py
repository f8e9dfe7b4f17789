"""Developer tool, not shipped: regenerate the State's field table in docs/api.md from the fields'
declaration (unodsl/engine/fields.py): `python -m tools.fields_table --write` (without --write: say
whether it is out of date). tests/test_fields.py fails while it is."""

from __future__ import annotations

import sys
from pathlib import Path

from unodsl.engine.fields import FIELDS

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "api.md"
BEGIN = "<!-- fields: begin (generated from unodsl/engine/fields.py by `python -m tools.fields_table --write`) -->"
END = "<!-- fields: end -->"


def _code(source: str) -> str:
    return "`" + source.replace("|", "\\|") + "`"


def render_table() -> str:
    """The Markdown table of the State's fields, one row per declared field, in the declaration's order."""
    rows = ["| field | type | reset | initial value | saved, checked by | seen by | meaning |",
            "|---|---|---|---|---|---|---|"]
    for f in FIELDS:
        initial = _code(f.initial) if f.initial is not None and f.reset != "deal" else "by the deal"
        if f.check is None:
            saved = "not saved"
        else:
            saved = _code(f.check) + (f" (when {_code(f.saved_when)})" if f.saved_when else "")
        rows.append(f"| `{f.name}` | {_code(f.type)} | {f.reset} | {initial} | {saved} | {f.seen} | "
                    f"{f.doc.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"


def spliced(text: str) -> str:
    """`text` (docs/api.md) with the table between its markers made anew; ValueError if a marker is missing."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"docs/api.md lacks the markers {BEGIN!r} ... {END!r}")
    return text[:start + len(BEGIN)] + "\n" + render_table() + text[end:]


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    fresh = spliced(text)
    if fresh == text:
        print("docs/api.md: the field table is up to date")
        return 0
    if "--write" in argv:
        PAGE.write_text(fresh, encoding="utf-8")
        print("docs/api.md: the field table written")
        return 0
    print("docs/api.md: the field table is out of date; run python -m tools.fields_table --write")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
