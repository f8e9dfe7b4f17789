"""What several subcommands share: the --root, --bots, --ruling and --include options, variant
arguments, loading a game, exiting with a message when a file cannot be written."""

from __future__ import annotations

import os
import sys

import click

from ..diagnostics import format_text
from .files import atomic_write, exit_unwritten, refuse_overwrite


class BotList(click.ParamType):
    """`--bots`: one seat spec for every seat, or a comma list seated in turn (`heuristic,random,ismcts:200`).

    Each entry is a seat spec as `agents.seats.make_seat` takes it: a bot with options after colons,
    `py:package.module:Class`, `ws://host:port`, `llm:MODEL` (docs/agents.md); the value stays the
    text given, checked entry by entry (a py: class is imported; nothing connects).
    """

    name = "bots"

    def convert(self, value, param, ctx):
        from ..agents.seats import check_seat
        entries = [entry.strip() for entry in str(value).split(",")]
        for entry in entries:
            try:
                check_seat(entry)
            except ValueError as err:
                self.fail(str(err), param, ctx)
        return ",".join(entries)


BOT_CHOICE = BotList()


def rulings_option(fn):
    """`--ruling NAME=VALUE`, repeatable: a ruling changed for this run (values are read as YAML scalars)."""
    return click.option("--ruling", "rulings", multiple=True, metavar="NAME=VALUE",
                        help="Change a ruling for this run (repeatable): --ruling draw_two_start_skips=false.")(fn)


def include_option(fn):
    """`--include FILE`, repeatable: a house rule (a file or a shipped name) laid over the variant."""
    return click.option("--include", "includes", multiple=True, metavar="FILE",
                        help="Lay a house rule over the variant (repeatable): --include stacking-mattel.")(fn)


def parse_rulings(given: tuple[str, ...], grid: bool = False) -> dict:
    """NAME=VALUE pairs as a dict of ruling values; with `grid`, each value a list (NAME=V1,V2,...)."""
    import yaml
    out: dict = {}
    for item in given:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise click.BadParameter(f"'{item}' is not NAME=VALUE", param_hint="'--ruling'")
        values = value.split(",") if grid else [value]
        try:
            parsed = [yaml.safe_load(v) if v.strip() else "" for v in values]
        except yaml.YAMLError:
            raise click.BadParameter(f"'{item}': a value is not a plain scalar", param_hint="'--ruling'") from None
        if any(isinstance(v, (dict, list)) for v in parsed):
            raise click.BadParameter(f"'{item}': a ruling value is a number, a word or true/false",
                                     param_hint="'--ruling'")
        out[name.strip()] = parsed if grid else parsed[0]
    return out


def with_includes(given: str, includes: tuple[str, ...]) -> tuple[str, dict | None]:
    """The variant to load (`given`, a path or a shipped name) with `includes` laid over it: check.with_includes."""
    if not includes:
        return variant_file(given), None
    from ..check import with_includes as compose
    return compose(variant_file(given), includes, given=given)


# One option for every command that reads variants, so they all resolve links alike.
root_option = click.option(
    "--root", type=click.Path(file_okay=False), default=None,
    help="Folder that extends/include may not leave (default: the wider of the file's project "
         "and the working folder; never / or a top-level folder).")


class UnknownVariant(click.ClickException):
    """A bare name that is neither a file nor a shipped variant: a usage error."""

    exit_code = 2


def variant_file(value: str) -> str:
    """The file a variant argument means: an existing path as given, else a shipped name (`classic`)."""
    from ..source import catalog
    if os.path.lexists(value) or not catalog.is_name(value):
        return value
    found = catalog.path_of(value)
    if found is None:
        raise UnknownVariant(catalog.unknown_message(value))
    return found


def load_game(path: str, root: str | None = None, rulings: dict | None = None, texts: dict | None = None):
    """Load a variant (a path or a shipped name) for playing; on problems print them and exit 1.

    `rulings` override the variant's; `texts` are unsaved files (see with_includes)."""
    from ..check import check_file
    path = variant_file(path)
    result = check_file(path, root, rulings, texts=texts)
    if result.errors or result.game is None:
        click.echo(format_text(result.errors) or f"{path}:1:1: E306 the variant defines no cards", err=True)
        sys.exit(1)
    return result.game


def check_players(game, players: int) -> None:
    """Refuse a player count the variant cannot seat, as a usage error."""
    try:
        game.check_players(players)
    except ValueError as err:
        raise click.UsageError(str(err)) from None


def write_or_exit(path: str, text: str | bytes, force: bool, name: str, during: str, kept: str) -> None:
    """Write `text` (or bytes) to `path` atomically; if that is refused (the file appeared meanwhile) or fails, say
    so, keeping both texts, and exit 1."""
    try:
        atomic_write(path, text, force=force)
    except OSError as err:
        exit_unwritten(err, path, name, during, kept)


def report_target(path: str, force: bool) -> tuple[str, str, bool]:
    """(path, "html" or "md", force) of a report, refused before any game is played when it cannot be written."""
    fmt = {".html": "html", ".htm": "html", ".md": "md"}.get(os.path.splitext(path)[1].lower())
    if fmt is None:
        raise click.BadParameter(f"'{path}': a report is .html or .md", param_hint="'--report'")
    refuse_overwrite(path, force)
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        click.echo("unodsl: --report needs matplotlib (pip install 'unodsl[report]')", err=True)
        sys.exit(2)
    return path, fmt, force


def save_target(path: str, force: bool) -> tuple[str, str, bool]:
    """(path, "csv" or "parquet", force) of a --save table, refused before any game is played when it cannot be
    written (an existing file without --force, another extension, Parquet without pyarrow)."""
    from ..runs.export import table_format
    fmt = table_format(path)
    if fmt is None:
        raise click.BadParameter(f"'{path}': a table is .csv or .parquet", param_hint="'--save'")
    refuse_overwrite(path, force)
    import importlib.util
    if fmt == "parquet" and importlib.util.find_spec("pyarrow") is None:
        click.echo("unodsl: --save FILE.parquet needs pyarrow (pip install 'unodsl[parquet]'); .csv needs nothing",
                   err=True)
        sys.exit(2)
    return path, fmt, force


def isatty(stream) -> bool:
    """Whether `stream` is a terminal; False for a stream that cannot say (closed, replaced)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def study_options(fn):
    """The options of the studies that `--figures`, `--report` and `compare` play (runs/studies.py)."""
    for option in reversed([
        click.option("--study-games", type=click.IntRange(0, 10**9), default=None, metavar="N",
                     help="Play the studies (skill gap, restricted play, luck against skill) on the first N "
                          "games [all of them; 0: none]."),
        click.option("--skill", "skill", multiple=True, metavar="STRONG/WEAK",
                     help="Skill gap: one STRONG bot among WEAK ones (repeatable) [expert/heuristic; none: off]."),
        click.option("--restrict", "restrict", multiple=True, metavar="OPTION",
                     help="Restricted play: card:TYPE, challenge, play-drawn, stack, jump-in or uno (repeatable) "
                          "[every one the variant offers; none: off]."),
        click.option("--ladder", default=None, metavar="BOT,BOT,...",
                     help="Luck against skill: the bots rated against each other [random,heuristic,expert; "
                          "none: off]."),
    ]):
        fn = option(fn)
    return fn


def study_plan(games_played: int, study_games, skill: tuple, restrict: tuple, ladder, games: tuple):
    """The studies.Plan the options ask for, checked against the `games` compiled (a usage error otherwise)."""
    import random

    from ..agents.bots import make_bot
    from ..runs.studies import DEFAULT_LADDER, DEFAULT_SKILL, Plan, check_restriction

    def bot(name: str, option: str) -> str:
        try:
            make_bot(name, random.Random(0))
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint=option) from None
        return name

    pairs = DEFAULT_SKILL
    if skill:
        pairs = ()
        for item in skill:
            if item.strip() == "none":
                continue
            strong, slash, weak = item.partition("/")
            if not slash:
                raise click.BadParameter(f"'{item}' is not STRONG/WEAK (expert/heuristic)", param_hint="'--skill'")
            pairs += ((bot(strong.strip(), "'--skill'"), bot(weak.strip(), "'--skill'")),)
    restrictions = None
    if restrict:
        restrictions = tuple(r.strip() for r in restrict if r.strip() != "none")
        for r in restrictions:
            problems = [check_restriction(game, r) for game in games]
            if all(problems):
                raise click.BadParameter(problems[0], param_hint="'--restrict'")
    rungs = DEFAULT_LADDER
    if ladder is not None:
        rungs = () if ladder.strip() == "none" else tuple(bot(b.strip(), "'--ladder'") for b in ladder.split(","))
        if len(rungs) == 1:
            raise click.BadParameter("a ladder needs two bots or more", param_hint="'--ladder'")
    count = games_played if study_games is None else min(study_games, games_played)
    return Plan(games=count, skill=pairs, restrict=restrictions, ladder=rungs)
