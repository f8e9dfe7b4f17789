"""Rule scenarios: set up a position, apply actions, check the result (`unodsl test`).

A scenario file (schemas/scenarios.schema.json) names a variant and lists scenarios:

    variant: ../classic.yaml
    scenarios:
      - name: a skip skips
        rule: "1.4"
        given: {hands: [[red_skip, red_1], [red_2], [red_3]], top: red_5, turn: 0}
        actions: [play red_skip]
        expect: {turn: 2}

`given.build_state` turns a `given` into an engine `State` (every card of the deck
stays somewhere, so a scenario can never create or lose a card), `expect.check_expect`
compares a state with an `expect`, and this module runs the actions between them:
`run_scenario` one scenario, `run_scenario_files` whole files, returning a
`report.Report` whose lines are `path:line:col: ...`. Problems in a
scenario file itself are diagnostics (E1xx YAML, E2xx schema, E6xx scenario), never
tracebacks; a scenario that runs but does not hold is a failure pinned to the key
or action that failed.

    E600 not a scenario file               E605 unknown color
    E601 variant file missing or broken    E606 unknown action
    E602 unknown card id                   E607 unknown ruling or bad ruling value
    E603 more copies than the deck has     E608 keys that cannot be combined
    E604 seat or player count not possible E609 scenario name used twice
                                           E610 unknown variable or bad variable value
                                           E611 unknown role
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..check import ruling_problem
from ..diagnostics import Diagnostic
from ..engine import Game, IllegalAction, PinnedChanceError, State
from ..source import catalog
from ..source.compose import find_root
from ..source.schema import validate_tree
from ..source.yaml_tree import Node, load_file
from .expect import check_conservation, check_expect, check_refusal, who_decides
from .given import ScenarioError, action_id, build_state, seat_index
from .report import Report, ScenarioResult


# ---------------------------------------------------------------------------
# Running one scenario


@dataclass
class Outcome:
    """What running one scenario found: (key path, message) per failure, or a setup error."""

    failures: list[tuple[tuple, str]] = field(default_factory=list)
    error: ScenarioError | None = None
    state: State | None = None


def run_scenario(game: Game, scenario: dict) -> Outcome:
    """Set up, act and check one scenario (plain data); never raises for a scenario's content."""
    outcome = Outcome()
    try:
        state = build_state(game, scenario)
    except ScenarioError as err:
        outcome.error = err
        return outcome
    except PinnedChanceError as err:             # the start card drew what the scenario says cannot come
        outcome.failures.append((("given", "random", err.index), f"random[{err.index}]: {err}"))
        return outcome
    outcome.state = state
    broken = check_conservation(state)
    if broken:
        outcome.failures.append((("given",), "setup: " + broken))
        return outcome
    expect = scenario.get("expect") or {}
    refused = expect.get("refused")
    actions = scenario.get("actions") or []
    try:
        # Every action string is read before any is applied, so a typo is an error, not a failure.
        parsed = []
        for i, item in enumerate(actions):
            text, by, where = (item["do"], item["by"], ("actions", i, "do")) if isinstance(item, dict) \
                else (item, None, ("actions", i))
            parsed.append((i, text, by, where, action_id(game, text, where)))
        refused_id = action_id(game, refused, ("expect", "refused")) if refused is not None else None
    except ScenarioError as err:
        outcome.error = err
        return outcome
    for i, text, by, where, a in parsed:
        if by is not None:
            seat_index(state.n, by, ("actions", i, "by"))
            if state.current_player != by:
                outcome.failures.append((("actions", i), f"actions[{i}] '{text}': seat {by} cannot act now; "
                                         f"{who_decides(state)} must decide"))
                return outcome
        # The last action may be the refused one itself: then its refusal is the check.
        if a == refused_id and i == len(parsed) - 1 and a not in state.legal_action_ids():
            break
        try:
            state.apply(a)
        except IllegalAction as err:
            outcome.failures.append((where, f"actions[{i}] '{text}' was refused for {who_decides(state)}: "
                                     f"{err.reason}"))
            return outcome
        except PinnedChanceError as err:
            outcome.failures.append((("given", "random", err.index), f"random[{err.index}]: {err} "
                                     f"(drawn by actions[{i}] '{text}')"))
            return outcome
        except Exception as err:                     # an engine bug: report it, do not crash the run
            outcome.failures.append((where, f"actions[{i}] '{text}': the engine failed: "
                                     f"{type(err).__name__}: {err}"))
            return outcome
        broken = check_conservation(state)
        if broken:
            outcome.failures.append((where, f"actions[{i}] '{text}': {broken}"))
            return outcome
    pinned = (scenario.get("given") or {}).get("random") or []
    if len(pinned) > getattr(state, "pinned_used", 0):
        unused = len(pinned) - state.pinned_used
        outcome.failures.append((("given", "random", state.pinned_used),
                                 f"random: {unused} of the {len(pinned)} outcomes given {'was' if unused == 1 else 'were'} "
                                 f"never drawn (the game drew {state.pinned_used})"))
    legal_now = state.legal_action_ids()
    if refused is not None:
        outcome.failures.extend(check_refusal(state, refused, refused_id, expect.get("reason")))
    elif "reason" in expect:
        outcome.failures.append((("expect", "reason"), "reason is given without refused"))
    try:
        outcome.failures.extend(check_expect(state, expect, legal_now))
    except ScenarioError as err:
        outcome.error = err
    return outcome


# ---------------------------------------------------------------------------
# Files


class _GameCache:
    """Compiled variants by (file, ruling overrides): compiling is the slow part."""

    def __init__(self, fast: bool | None = None, root: str | None = None):
        self.games: dict[tuple, object] = {}
        self.fast = fast
        self.root = root

    def get(self, path: str, rulings: dict):
        from ..check import check_file
        key = (os.path.realpath(path), tuple(sorted(rulings.items(), key=lambda kv: kv[0])))
        if key not in self.games:
            try:
                self.games[key] = check_file(path, self.root, rulings or None, self.fast)
            except Exception as err:                # never a traceback for a variant we cannot compile
                self.games[key] = err
        return self.games[key]


def run_scenario_files(paths: list[str], fast: bool | None = None, root: str | None = None) -> Report:
    """Run every scenario of every file; problems and failures are collected, never raised.

    `fast=False` runs them in the engine's reference mode (see Game); `root` is the folder
    that a scenario file's variant, and what it extends or includes, may not leave
    (default: as for `check`).
    """
    report = Report()
    cache = _GameCache(fast, root)
    for path in paths:
        report.files += 1
        try:
            _run_file(path, report, cache)
        except Exception as err:                    # a bug here must not hide the other files' results
            report.diagnostics.append(Diagnostic(path, 1, 1, "E699",
                                                 "internal error while running scenarios: "
                                                 f"{type(err).__name__}: {err}"))
    return report


def _locate(node: Node, where: tuple) -> tuple[int, int]:
    """The (line, column) of the deepest node along `where`: the key for a mapping entry."""
    line, column = node.line, node.column
    for step in where:
        child = None
        if node.kind == "map" and isinstance(step, str):
            child = node.value.get(step)
        elif node.kind == "seq" and isinstance(step, int) and 0 <= step < len(node.value):
            child = node.value[step]
        if child is None:
            break
        node = child
        if isinstance(step, str) and node.key_line is not None:
            line, column = node.key_line, node.key_column
        else:
            line, column = node.line, node.column
    return line, column


def scenario_files_of(variant_path: str) -> tuple[list[str], list[str]]:
    """(the scenario files whose `variant:` is `variant_path`, the folders looked in).

    They are looked for beside the variant, in a `scenarios/` folder beside it and in a
    `scenarios/` folder beside its folder (`variants/house-rules/x.yaml` ->
    `variants/scenarios/`), as the shipped variants keep them.
    """
    folder = os.path.dirname(os.path.abspath(variant_path))
    candidates = [folder, os.path.join(folder, "scenarios"), os.path.join(os.path.dirname(folder), "scenarios")]
    looked = list(dict.fromkeys(candidates))
    target = os.path.realpath(variant_path)
    found = []
    for where in looked:
        try:
            names = sorted(os.listdir(where))
        except OSError:
            continue
        for name in names:
            candidate = os.path.join(where, name)
            if not name.endswith((".yaml", ".yml")) or not os.path.isfile(candidate):
                continue
            named = _variant_named_by(candidate)
            if named is not None and os.path.realpath(os.path.join(where, named)) == target:
                found.append(os.path.relpath(candidate) if not os.path.isabs(variant_path) else candidate)
    return found, looked


def _variant_named_by(path: str) -> str | None:
    """The `variant:` value of a scenario file, read from its top-level lines only (no full parse)."""
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("variant:"):
                    value = line.split(":", 1)[1].split(" #", 1)[0].strip().strip("'\"")
                    return value or None
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _run_file(path: str, report: Report, cache: _GameCache) -> None:
    root, diags, _text = load_file(path)
    report.diagnostics.extend(diags)
    if root is None or any(d.severity == "error" for d in diags):
        return
    if root.get("variant") is None and (root.get("unodsl") is not None or root.get("cards") is not None
                                        or root.get("house_rule") is not None):
        found, looked = scenario_files_of(path)
        if found:                               # `unodsl test variants/classic.yaml`: its scenarios
            report.files += len(found) - 1
            for scenario_path in found:
                _run_file(scenario_path, report, cache)
            return
        where = ", ".join(looked[:-1]) + " and " + looked[-1] if len(looked) > 1 else looked[0]
        report.diagnostics.append(Diagnostic(path, root.line, root.column, "E600",
                                             f"this is a variant file, and no scenario file names it (looked in "
                                             f"{where}); 'unodsl test' runs scenario files "
                                             "(a 'variant:' and a list of 'scenarios:')"))
        return
    schema_diags = validate_tree(root, "scenarios")
    if schema_diags:
        report.diagnostics.extend(schema_diags)
        return
    variant_node = root.get("variant")
    variant_path = os.path.join(os.path.dirname(path), variant_node.value)
    shipped = None
    if not os.path.lexists(variant_path) and catalog.is_name(variant_node.value):
        shipped = catalog.path_of(variant_node.value)        # `variant: classic`, as `extends: classic`
        if shipped is None:
            report.diagnostics.append(Diagnostic(path, variant_node.line, variant_node.column, "E324",
                                                 catalog.unknown_message(variant_node.value)))
            return
        variant_path = shipped
    if not os.path.isfile(variant_path):
        report.diagnostics.append(Diagnostic(path, variant_node.line, variant_node.column, "E601",
                                             f"variant file '{variant_node.value}' not found "
                                             f"(looked for {os.path.normpath(variant_path)})"))
        return
    variant_path = os.path.normpath(variant_path)
    allowed = find_root(path, cache.root)
    if shipped is None and not allowed.contains(os.path.realpath(variant_path)):
        report.diagnostics.append(Diagnostic(path, variant_node.line, variant_node.column, "E320",
                                             f"variant '{variant_node.value}' is outside the root {allowed.folder} "
                                             f"({allowed.why}); pass --root DIR with a folder that holds both files"))
        return
    base = cache.get(variant_path, {})
    if isinstance(base, Exception) or base.errors or base.game is None:
        report.diagnostics.append(Diagnostic(path, variant_node.line, variant_node.column, "E601",
                                             f"variant '{variant_node.value}' has errors; run "
                                             f"'unodsl check {variant_path}'"))
        if not isinstance(base, Exception):
            report.diagnostics.extend(base.errors)
        return
    seen: dict[str, int] = {}
    scenarios = root.get("scenarios")
    for snode in (scenarios.value if scenarios is not None else []):
        scenario = snode.to_python()
        name = scenario["name"]
        rule = scenario.get("rule")
        result = ScenarioResult(path, snode.line, snode.column, name, str(rule) if rule is not None else None,
                                known_issue=(scenario.get("known_issue") or "").strip() or None)
        if name in seen:
            line, column = _locate(snode, ("name",))
            report.diagnostics.append(Diagnostic(path, line, column, "E609",
                                                 f"scenario name '{name}' is used twice (first on line {seen[name]})"))
        seen.setdefault(name, snode.line)
        error = None
        rulings = (scenario.get("given") or {}).get("rulings") or {}
        game = base.game
        if rulings:
            error = _ruling_error(base.game, rulings)
            if error is None:
                compiled = cache.get(variant_path, rulings)
                if isinstance(compiled, Exception) or compiled.errors or compiled.game is None:
                    error = ScenarioError("E607", "the variant does not compile with these rulings",
                                          ("given", "rulings"))
                else:
                    game = compiled.game
        if error is None:
            try:
                outcome = run_scenario(game, scenario)
            except ScenarioError as err:
                outcome = Outcome(error=err)
            except Exception as err:                # an engine bug while setting up
                outcome = Outcome(failures=[((), f"the engine failed: {type(err).__name__}: {err}")])
            error = outcome.error
            for where, message in outcome.failures:
                result.failures.append((*_locate(snode, where), message))
        if error is not None:
            line, column = _locate(snode, error.where)
            report.diagnostics.append(Diagnostic(path, line, column, error.code,
                                                 f"{error.message} in scenario '{name}'"))
            result.errored = True
        report.results.append(result)


def _ruling_error(game: Game, rulings: dict) -> ScenarioError | None:
    """E607 for a ruling the variant does not have, or a value of the wrong type or outside its choices."""
    for name, value in rulings.items():
        problem = ruling_problem(game.variant, name, value)
        if problem is not None:
            return ScenarioError("E607", problem, ("given", "rulings", name))
    return None
