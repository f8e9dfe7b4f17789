"""`unodsl explain`: the compiled code of a variant's effects, op by op, beside the lines it came from."""

from __future__ import annotations

import sys

import click

from .shared import load_game, root_option


@click.command("explain")
@click.argument("file")
@click.argument("names", nargs=-1)
@click.option("--generated", is_flag=True,
              help="Print the Python module the fast mode generated from the variant's rules (engine/generated.py).")
@root_option
def explain(file: str, names: tuple[str, ...], generated: bool, root: str | None) -> None:
    """List the compiled code of the variant's effects (as Python's `dis` lists bytecode).

    NAMES narrow it: a card (`skip`) lists that card's effects, a key (`events.turn_end`, `turn.draw`)
    that effect. Each op shows the line of the file its statement was written on, its position (pc)
    and what it does; the statement's text is shown where it begins. With --generated, the module the
    fast mode plays rollouts with: its tables, its turn loop and each card's effect as generated source.
    """
    game = load_game(file, root)
    if generated:
        from ..engine.generated import source_for
        click.echo(source_for(game), nl=False)
        return
    wanted = [code for code, name in enumerate(r.name for r in game.code_records)
              if not names or any(_names(name, n) for n in names)]
    if not wanted:
        known = sorted({record.name.split(".")[1] if record.name.startswith("cards.") else record.name
                        for record in game.code_records})
        click.echo(f"unodsl: no effect named {', '.join(names)} in {file}; effects of: {', '.join(known)}", err=True)
        sys.exit(1)
    shown: set[str] = set()
    blocks = []
    for code in wanted:
        name = game.code_records[code].name
        if name in shown:           # start.default is compiled once per card; its code reads the same
            continue
        shown.add(name)
        blocks.append(listing(game, code))
    click.echo("\n\n".join(blocks))


def _names(key: str, name: str) -> bool:
    return key == name or key.startswith(name + ".") or key.startswith(f"cards.{name}.")


def listing(game, code: int) -> str:
    """The listing of one compiled effect: a header with its key and place, then one line per op."""
    lines = game.code_records[code].lines
    first = next((w for w in lines if w is not None), None)
    place = "" if first is None else "  ({}:{})".format(*first.where()[:2])
    out = [f"{game.code_records[code].name}{place}", f"{'line':>6} {'pc':>4}  {'op':<24} source"]
    previous = None
    for pc, written in enumerate(lines):
        if written is None:
            out.append(f"{'':>6} {pc:>4}  {'(engine)':<24}")
            continue
        path, line, _ = written.where()
        starts = (written.text, written.line, written.column) != previous
        previous = (written.text, written.line, written.column)
        source = written.source_line() if starts else ""
        out.append(f"{line if starts else '':>6} {pc:>4}  {written.label:<24} {source}".rstrip())
    return "\n".join(out)
