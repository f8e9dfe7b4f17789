"""Build the effect parser's LALR tables and write them to unodsl/effects/parser_tables.py (shipped built).

Run it after any change to unodsl/effects/effect.lark (grammar/effect.lark is its copy) or to the build
options in unodsl/effects/parse.py; tests/test_parser_tables.py fails until it is run.

    python scripts/build_parser_tables.py           # rebuild and write
    python scripts/build_parser_tables.py --check   # exit 1 if the shipped tables are not current
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unodsl.effects import parse

TARGET = Path(parse.__file__).resolve().parent / "parser_tables.py"

HEADER = '''"""The effect parser's LALR tables, built: written by scripts/build_parser_tables.py, do not edit.

`unodsl.effects.parse.parser()` loads them when GRAMMAR_DIGEST is the hash of today's grammar and build
options and LARK_VERSION the installed Lark's (else it builds the parser from the grammar);
tests/test_parser_tables.py fails when the grammar changed and they were not rebuilt.
"""

# flake8: noqa
# fmt: off
'''


def source() -> str:
    """The text of parser_tables.py for today's grammar and Lark."""
    grammar = parse.grammar_path().read_text(encoding="utf-8")
    data, memo = parse.serialize_tables(parse.build_parser(grammar, cache=False))
    return (HEADER + f"\nGRAMMAR_DIGEST = {parse.grammar_digest(grammar)!r}\nLARK_VERSION = {parse.lark_version!r}\n\n"
            f"DATA = {literal(data)}\n\nMEMO = {literal(memo)}\n")


def literal(value, indent: int = 0, width: int = 116) -> str:
    """`repr(value)` over lines of at most about `width` characters: the items of a long dict or list
    packed several to a line, one that does not fit on a line broken in its turn."""
    text = repr(value)
    if len(text) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return text
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{k!r}: {literal(v, indent + 4, width)}" for k, v in value.items()]
        open_, close = "{", "}"
    else:
        items = [literal(v, indent + 4, width) for v in value]
        open_, close = "[", "]"
    lines, line = [], ""
    for item in items:
        if "\n" in item or (line and len(pad) + len(line) + len(item) + 2 > width):
            if line:
                lines.append(line)
            line = ""
        line = f"{line} {item}," if line else f"{item},"
        if "\n" in item:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return open_ + "\n" + "\n".join(pad + text for text in lines) + "\n" + " " * indent + close


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped tables are current")
    args = parser.parse_args(argv)
    # Lark numbers the states differently from one build to the next, so the tables are current when
    # they were built from today's grammar and options (their hash) by this Lark, not when equal as text.
    current = parse.shipped_tables_current(parse.grammar_path().read_text(encoding="utf-8"))
    if args.check:
        print(f"{TARGET}: {'current' if current else 'NOT current: run scripts/build_parser_tables.py'}")
        return 0 if current else 1
    text = source()
    TARGET.write_text(text, encoding="utf-8")
    print(f"{TARGET}: written ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
