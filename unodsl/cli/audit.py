"""`unodsl audit`: every pair (or triple) of house rules over a variant, checked, fuzzed and compared."""

from __future__ import annotations

import json
import os
import sys
import time

import click

from .shared import check_players, isatty, load_game, report_target, root_option, variant_file, write_or_exit


@click.command(name="audit")
@click.argument("variant", default="classic", required=False)
@click.option("--include", "includes", multiple=True, metavar="FILE",
              help="A house rule of your own to audit with the shipped ones (repeatable).")
@click.option("--no-shipped", is_flag=True, help="Audit only the --include house rules, not the shipped ones.")
@click.option("--rule", "only", multiple=True, metavar="NAME",
              help="Audit only these shipped house rules (repeatable) [all of them].")
@click.option("--triples", is_flag=True, help="Every triple of house rules too, not only every pair.")
@click.option("-n", "--games", type=click.IntRange(2, 10**6), default=200, show_default=True,
              help="Heuristic games per combination (the stalls and the interactions), on shared seeds.")
@click.option("--fuzz", "fuzz_games", type=click.IntRange(0, 10**6), default=10, show_default=True,
              help="Random-bot games per combination, checked after every action (the invariants).")
@click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True,
              help="Number of players.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run.")
@click.option("--workers", "-w", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to spread the combinations over; results are identical.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a report: .html or .md (with a PNG beside it).")
@click.option("--force", is_flag=True, help="Overwrite an existing --report file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a table; json: every combination for tools.")
@root_option
def audit_command(variant, includes, no_shipped, only, triples, games, fuzz_games, players, seed, workers,
                  report_path, force, fmt, root) -> None:
    """Check every pair of house rules over VARIANT (default classic): conflicts, stalls, broken invariants,
    and effects that differ from the sum of the two rules' own.

    \b
    unodsl audit                              the shipped house rules over classic
    unodsl audit classic --include mine.yaml  yours with them
    unodsl audit --triples --rule seven-o --rule jump-in --rule stacking-mattel
    Exit 1 when a combination conflicts, stalls or breaks an invariant. docs/analytics.md tells the rest.
    """
    from ..runs.audit import audit
    from ..source import catalog
    report = report_target(report_path, force) if report_path is not None else None
    base = variant if (not os.path.lexists(variant) and catalog.is_name(variant)) else os.path.abspath(variant)
    variant_file(variant)                                  # an unknown name is a usage error here
    check_players(load_game(variant, root), players)
    shipped = [s.name for s in catalog.shipped() if s.house_rule]
    for name in only:
        if name not in shipped:
            raise click.BadParameter(catalog.unknown_message(name).replace("variant", "house rule", 1),
                                     param_hint="'--rule'")
    rules = [] if no_shipped else [name for name in shipped if not only or name in only]
    for given in includes:
        if not os.path.isfile(given):
            raise click.BadParameter(f"'{given}' is not a file", param_hint="'--include'")
        rules.append(os.path.abspath(given))
    if len(rules) < 2:
        raise click.UsageError("an audit needs two house rules or more (give --include FILE, or drop --no-shipped)")
    started = time.perf_counter()
    progress = _progress() if isatty(sys.stderr) else None
    rows, problems = audit(base, rules, os.getcwd(), players, games, fuzz_games, seed, 3 if triples else 2,
                           progress, root, workers)
    if progress:
        sys.stderr.write("\n")
    if problems:
        click.echo("\n".join(problems), err=True)
        sys.exit(1)
    header = {"variant": variant, "rules": [_short(r) for r in rules], "players": players, "games": games,
              "fuzz_games": fuzz_games, "seed": seed, "size": 3 if triples else 2}
    summaries = [dict(row.summary(), rules=[_short(r) for r in row.rules]) for row in rows]
    if report is not None:
        from ..runs.report import render_audit
        path, page_fmt, force = report
        stem = os.path.splitext(os.path.basename(path))[0]
        for file, data in render_audit(header, summaries, page_fmt, stem).items():
            write_or_exit(os.path.join(os.path.dirname(path), file), data, force, "report",
                          "the games were played", "the report")
    if fmt == "json":
        click.echo(json.dumps({**header, "combinations": summaries}, indent=2))
    else:
        click.echo(_format(header, summaries, time.perf_counter() - started))
    if any(s["status"] in ("conflict", "stall", "broken invariant") for s in summaries):
        sys.exit(1)


def _short(rule: str) -> str:
    """A house rule as the table names it: its shipped name, or its file's name."""
    return os.path.splitext(os.path.basename(rule))[0] if os.sep in rule else rule


def _progress():
    started = time.perf_counter()

    def show(done: int, total: int) -> None:
        if time.perf_counter() - started > 1.0:
            sys.stderr.write(f"\r{done}/{total} combinations")
            sys.stderr.flush()
    return show


def _format(header: dict, rows: list[dict], elapsed: float) -> str:
    singles = sum(1 for r in rows if len(r["rules"]) == 1)
    lines = [f"audit of {header['variant']}: {singles} house rules, {len(rows) - singles} "
             f"{'pairs and triples' if header['size'] == 3 else 'pairs'}; {header['players']} players; "
             f"{header['games']} heuristic and {header['fuzz_games']} random games each, seed {header['seed']}",
             f"{'house rules':<44} {'status':<17} {'stalls (heur.)':>14} {'stalls (rand.)':>14} {'hangs':>5}  "
             f"what"]
    for r in rows:
        what = ""
        if r["conflicts"]:
            what = r["conflicts"][0] + (f" (+{len(r['conflicts']) - 1} more)" if len(r["conflicts"]) > 1 else "")
        elif r["broken"]:
            what = r["broken"][0]
        elif r["interactions"]:
            what = "; ".join(f"{i['figure']} {i['interaction']:+.3g} [{i['interval'][0]:+.3g}, "
                             f"{i['interval'][1]:+.3g}]" for i in r["interactions"][:3])
        heur = f"{r['heuristic_stalls']}/{r['heuristic_games']}" if r["heuristic_games"] else ""
        rand = f"{r['random_stalls']}/{r['random_games']}" if r["random_games"] else ""
        lines.append(f"{' + '.join(r['rules']):<44} {r['status']:<17} {heur:>14} {rand:>14} "
                     f"{r['hangs'] if r['heuristic_games'] else '':>5}  {what}")
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lines.append(", ".join(f"{status}: {count}" for status, count in sorted(counts.items())) +
                 f"   time: {elapsed:.1f} s")
    lines.append("stalls (heur.): heuristic games ended by the stall ruling (a stall); stalls (rand.): random-bot "
                 "games that reached the turn limit (random bots play long games: shown, not flagged). An "
                 "interaction is a figure whose combined effect differs from the sum of the rules' own effects "
                 "(the interval corrected for the number of figures).")
    return "\n".join(lines)
