"""The `unodsl` command line: the click group, its error handling, and the subcommands it registers.

Exit codes: 0 clean, 1 problems found (or a game/log error), 2 usage error.
Library code returns values and diagnostics; only this package prints.

A subcommand is one module here holding one click command (see check.py), registered
by one `main.add_command` line below. Its module imports only click and this package
at the top and everything heavy inside the command function, so that `unodsl check`
on a cached clean file starts without YAML, Lark, jsonschema or the engine.
"""

from __future__ import annotations

import os
import sys

import click

from .. import __version__
from . import (audit, bench_rules, check, compare, explain, fmt, ladder, listing, lsp, mcp_command, new, play, replay, rl_spec,
               rules, scenario_tests, serve, simulate, solve)
from .shared import isatty


class _PipeClosed(Exception):
    """stdout was closed by the reader (`| head`)."""


class _Interrupted(Exception):
    """Ctrl-C (SIGINT) while a command ran."""


class _Group(click.Group):
    """A group whose usage errors exit 2 with one line, and broken pipes exit quietly."""

    def invoke(self, ctx):
        # click turns a broken pipe into exit 1 and Ctrl-C into a blank line plus Abort;
        # take them over before it sees them.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _PipeClosed() from None
        except KeyboardInterrupt:
            raise _Interrupted() from None

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as err:
            sys.exit(err.exit_code)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.ctx.get_help() if err.ctx else err.format_message(), err=True)
            sys.exit(2)
        except click.UsageError as err:
            hint = f" (try '{err.ctx.command_path} --help')" if err.ctx else ""
            click.echo(f"unodsl: {err.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as err:
            click.echo(f"unodsl: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt, _Interrupted):
            # on a terminal the cursor sits after "^C": start a fresh line first
            click.echo(("\n" if isatty(sys.stderr) else "") + "unodsl: interrupted", err=True)
            sys.exit(130)
        except (BrokenPipeError, _PipeClosed):
            _quiet_broken_pipe()
            sys.exit(0)
        except Exception as err:          # a bug: one line, unless UNODSL_DEBUG asks for the traceback
            if type(err).__name__ == "Forfeit" and type(err).__module__ == "unodsl.agents.seats":
                click.echo(f"unodsl: {err} (its fallback is forfeit: the run stops)", err=True)
                sys.exit(1)
            if os.environ.get("UNODSL_DEBUG"):
                raise
            click.echo(f"unodsl: internal error: {type(err).__name__}: {err} "
                       "(set UNODSL_DEBUG=1 to see the traceback)", err=True)
            sys.exit(1)


def _quiet_broken_pipe() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unodsl")
def main() -> None:
    """Describe, check, play and study UNO variants."""


# `unodsl --help` lists them by name, whatever the order here.
main.add_command(check.check)
main.add_command(listing.list_command)
main.add_command(simulate.simulate)
main.add_command(play.play)
main.add_command(replay.replay)
main.add_command(rules.rules)
main.add_command(explain.explain)
main.add_command(scenario_tests.test_command)
main.add_command(rl_spec.rl_spec_command)
main.add_command(lsp.lsp_command)
main.add_command(compare.compare_command)
main.add_command(audit.audit_command)
main.add_command(solve.solve_command)
main.add_command(serve.serve)
main.add_command(mcp_command.mcp_command)
main.add_command(ladder.ladder)
main.add_command(bench_rules.bench_rules)
main.add_command(new.new_command)
main.add_command(fmt.fmt_command)


if __name__ == "__main__":            # pragma: no cover
    main(prog_name="unodsl")
