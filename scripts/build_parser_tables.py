"""Build the effect parser's LALR tables and write them to unodsl/effects/parser_tables.pickle (shipped built).

Run it after any change to unodsl/effects/effect.lark (grammar/effect.lark is its copy) or to the build
options in unodsl/effects/parse.py; tests/test_parser_tables.py fails until it is run.

    python scripts/build_parser_tables.py           # rebuild and write
    python scripts/build_parser_tables.py --check   # exit 1 if the shipped tables are not current
"""

from __future__ import annotations

import argparse
import pickle
import sys

from unodsl.effects import parse

TARGET = parse.tables_path()


def build() -> dict:
    """The tables of today's grammar, built by this Lark, with what they were built from.

    Plain data only (the lexer class and the postlexer are put back on load), pickled: a pickle loads in a
    few ms whether or not Python may write bytecode, where the same literals as a module would be compiled
    again at every import without its .pyc (0.5 s and more).
    """
    grammar = parse.grammar_path().read_text(encoding="utf-8")
    data, memo = parse.serialize_tables(parse.build_parser(grammar, cache=False))
    return {"grammar_digest": parse.grammar_digest(grammar), "lark_version": parse.lark_version,
            "data": data, "memo": memo}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped tables are current")
    args = parser.parse_args(argv)
    # Lark numbers the states differently from one build to the next, so the tables are current when
    # they were built from today's grammar and options (their hash) by this Lark, not when equal as text.
    current = parse.tables_current(parse.read_tables(), parse.grammar_path().read_text(encoding="utf-8"))
    if args.check:
        print(f"{TARGET}: {'current' if current else 'NOT current: run scripts/build_parser_tables.py'}")
        return 0 if current else 1
    blob = pickle.dumps(build(), protocol=4)
    TARGET.write_bytes(blob)
    print(f"{TARGET}: written ({len(blob):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
