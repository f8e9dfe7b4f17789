"""Rule scenarios: set up a position, apply actions, check the result (`unodsl test`).

A scenario file (schemas/scenarios.schema.json) names a variant and lists scenarios:

    variant: ../classic.yaml
    scenarios:
      - name: a skip skips
        rule: "1.4"
        given: {hands: [[red_skip, red_1], [red_2], [red_3]], top: red_5, turn: 0}
        actions: [play red_skip]
        expect: {turn: 2}

`build_state` turns a `given` into an engine `State` (every card of the deck stays
somewhere, so a scenario can never create or lose a card); `run_scenario_files`
runs files and returns a `Report` whose lines are `path:line:col: ...`. Problems in a
scenario file itself are diagnostics (E1xx YAML, E2xx schema, E6xx scenario), never
tracebacks; a scenario that runs but does not hold is a failure pinned to the key
or action that failed.

    E600 not a scenario file               E605 unknown color
    E601 variant file missing or broken    E606 unknown action
    E602 unknown card id                   E607 unknown ruling or bad ruling value
    E603 more copies than the deck has     E608 keys that cannot be combined
    E604 seat or player count not possible E609 scenario name used twice
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field

from ..source.compose import find_root
from ..diagnostics import Diagnostic, one_line, suggestion_suffix
from ..engine import Game, IllegalAction, State
from ..source.schema import validate_tree
from ..source.yaml_tree import Node, load_file

REST_PLACES = ("draw_pile", "discard")


class ScenarioError(Exception):
    """A scenario that cannot be set up or read; `where` is the key path inside the scenario."""

    def __init__(self, code: str, message: str, where: tuple = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = tuple(where)


# ---------------------------------------------------------------------------
# Reading ids


def card_kind(game: Game, name, where: tuple) -> int:
    """The kind (int) of a card id, or a ScenarioError naming the closest id."""
    if isinstance(name, str) and name in game.card_index:
        return game.card_index[name]
    raise ScenarioError("E602", f"unknown card id '{name}'" + suggestion_suffix(str(name), game.card_names), where)


def color_index(game: Game, name, where: tuple) -> int:
    """The index of a color name in the variant (`none` means no color named yet: -1)."""
    colors = game.variant.colors
    if name in colors:
        return colors.index(name)
    if name == "none":
        return -1
    listed = ", ".join(colors) if colors else "none (the variant has no colors)"
    raise ScenarioError("E605", f"unknown color '{name}' (the colors are {listed})"
                        + suggestion_suffix(str(name), colors), where)


def action_id(game: Game, text, where: tuple) -> int:
    """The engine id of an action string, or E606 if the variant has no such action."""
    try:
        return game.action_from_string(str(text))
    except IllegalAction as err:
        reason = "" if err.reason == "not an action of this variant" else f" ({err.reason})"
        raise ScenarioError("E606", f"'{text}' is not an action of this variant{reason}; actions look "
                            "like 'play red_7', 'play red_7 uno', 'draw', 'keep', 'color blue', 'target 2', "
                            "'challenge', 'accept', 'catch 1', 'give red_3', 'pass'", where) from None


def _seat(n: int, value, where: tuple, what: str = "seat") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ScenarioError("E604", f"{what} {value!r} does not exist with {n} players (seats 0 to {n - 1})", where)
    return value


def scenario_players(game: Game, scenario: dict) -> int:
    """The player count: `players`, else the number of given hands, else 4 (or the nearest allowed)."""
    v = game.variant
    allowed = list(v.allowed_players or range(v.min_players, v.max_players + 1))
    given = scenario.get("given") or {}
    if "players" in scenario:
        n = scenario["players"]
        where = ("players",)
    elif given.get("hands"):
        n = len(given["hands"])
        where = ("given", "hands")
    else:
        return min(allowed, key=lambda k: (abs(k - 4), k))
    if n not in allowed:
        contiguous = allowed == list(range(allowed[0], allowed[-1] + 1))
        shown = f"{allowed[0]} to {allowed[-1]}" if contiguous else ", ".join(map(str, allowed))
        raise ScenarioError("E604", f"{v.name} is played by {shown} players, not {n}", where)
    return n


# ---------------------------------------------------------------------------
# Building the position


def build_state(game: Game, scenario: dict) -> State:
    """Start a game and overwrite its zones with the scenario's `given`; raises ScenarioError.

    Cards the scenario does not place are dealt (hands not given), turned up (no `top`)
    or put under the draw pile (or under the discard pile with `rest: discard`), so the
    state holds exactly the variant's deck.
    """
    given = scenario.get("given") or {}
    n = scenario_players(game, scenario)
    if "teams" in scenario and bool(scenario["teams"]) != (game.variant.team_size > 1):
        raise ScenarioError("E608", "teams: true needs a variant with teams" if scenario["teams"]
                            else "this variant is always played in teams", ("teams",))

    pool = Counter(game.deck)
    copies = Counter(game.deck)

    def take(name, where: tuple) -> int:
        k = card_kind(game, name, where)
        if pool[k] <= 0:
            used = copies[k] - pool[k] + 1
            raise ScenarioError("E603", f"the scenario uses {used} copies of {name}, the deck has {copies[k]}", where)
        pool[k] -= 1
        return k

    hands_given = given.get("hands")
    if hands_given is not None and len(hands_given) > n:
        raise ScenarioError("E604", f"{len(hands_given)} hands given for {n} players", ("given", "hands"))
    hands: list[list[int] | None] = [None] * n
    for seat, cards in enumerate(hands_given or []):
        hands[seat] = [take(c, ("given", "hands", seat, i)) for i, c in enumerate(cards)]

    if "top" in given and "start_card" in given:
        raise ScenarioError("E608", "give either top or start_card, not both", ("given", "start_card"))
    if "start_card" in given and "turn" in given:
        raise ScenarioError("E608", "with start_card the start card decides who plays first; remove turn",
                            ("given", "turn"))
    starter_key = "start_card" if "start_card" in given else "top"
    top = take(given[starter_key], ("given", starter_key)) if starter_key in given else None
    below = [take(c, ("given", "discard", i)) for i, c in enumerate(given.get("discard") or [])]
    pile_top_first = [take(c, ("given", "draw_pile", i)) for i, c in enumerate(given.get("draw_pile") or [])]

    # Everything not placed, in a seeded order: dealt first, then the rest.
    rest = []
    for k in sorted(pool):
        rest.extend([k] * pool[k])
    random.Random(0).shuffle(rest)
    for seat in range(n):
        if hands[seat] is None:
            hands[seat] = [rest.pop() for _ in range(min(game.variant.hand_size, len(rest)))]
    if top is None:
        if not rest:
            raise ScenarioError("E603", "no card is left to turn up as the top card", ("given",))
        numbers = [i for i, k in enumerate(rest) if game.k_category[k] == "number"]
        top = rest.pop(numbers[-1] if numbers else -1)

    rest_place = given.get("rest", "draw_pile")
    if isinstance(rest_place, int) and not isinstance(rest_place, bool):
        hands[_seat(n, rest_place, ("given", "rest"))].extend(rest)
        rest = []
    elif rest_place not in REST_PLACES:
        raise ScenarioError("E608", f"rest must be one of {', '.join(REST_PLACES)} or a seat", ("given", "rest"))
    discard = (rest if rest_place == "discard" else []) + below + [top]
    draw_pile = pile_top_first + (rest[::-1] if rest_place == "draw_pile" else [])

    direction = given.get("direction", 1)
    dealer = _seat(n, given["dealer"], ("given", "dealer"), "dealer") if "dealer" in given else None
    if "turn" in given:
        turn = _seat(n, given["turn"], ("given", "turn"))
        if dealer is None:
            dealer = (turn - direction) % n
    else:
        dealer = (-direction) % n if dealer is None else dealer
        turn = (dealer + direction) % n
    color = color_index(game, given["color"], ("given", "color")) if "color" in given else None
    scores = given.get("scores")
    if scores is not None and len(scores) != n:
        raise ScenarioError("E604", f"{len(scores)} scores given for {n} players (scores are by seat)",
                            ("given", "scores"))
    uno_called = [_seat(n, seat, ("given", "uno_called", i)) for i, seat in enumerate(given.get("uno_called") or [])]
    # The engine's own set-up: a start card begins the round exactly as a dealt round does.
    return game.position(hands, draw_pile, discard, dealer=dealer, turn=turn, direction=direction, color=color,
                         scores=scores, uno_called=uno_called, match=bool(scenario.get("match", False)),
                         start=starter_key == "start_card")


# ---------------------------------------------------------------------------
# Checking a state


def check_conservation(state: State) -> str | None:
    """Say which cards were created or lost, or None when every zone adds up to the deck."""
    g = state.g
    seen = Counter()
    for hand in state.hands:
        seen.update(hand)
    seen.update(state.draw_pile)
    seen.update(state.discard)
    for part in state.limbo:
        seen.update(part)
    deck = Counter(g.deck)
    if seen == deck:
        return None
    extra = sorted(g.card_names[k] + f" ({seen[k]} of {deck[k]})" for k in seen if seen[k] > deck[k])
    lost = sorted(g.card_names[k] + f" ({seen[k]} of {deck[k]})" for k in deck if seen[k] < deck[k])
    parts = []
    if extra:
        parts.append("duplicated " + ", ".join(extra[:5]) + (" ..." if len(extra) > 5 else ""))
    if lost:
        parts.append("lost " + ", ".join(lost[:5]) + (" ..." if len(lost) > 5 else ""))
    return "cards are not conserved: " + "; ".join(parts)


def _cards(game: Game, kinds) -> str:
    return "[" + ", ".join(sorted(game.card_names[k] for k in kinds)) + "]"


def _seats(values) -> str:
    return "[" + ", ".join(map(str, sorted(values))) + "]"


def _who(state: State) -> str:
    if state.over:
        return "none (the game is over)"
    return f"seat {state.current_player} ('{state.decision}')"


def check_expect(state: State, expect: dict, legal_before: list | None = None) -> list[tuple[tuple, str]]:
    """Compare the state with `expect`; return (key path, message) for every mismatch."""
    g = state.g
    n = state.n
    out: list[tuple[tuple, str]] = []

    def mismatch(key, expected, got, where=None):
        out.append((where or ("expect", key), f"{key}: expected {expected}, got {got}"))

    if "hands" in expect:
        wanted = expect["hands"]
        if len(wanted) != n:
            out.append((("expect", "hands"), f"hands: expected {len(wanted)} hands, the game has {n} players"))
        for seat, cards in enumerate(wanted[:n]):
            kinds = [card_kind(g, c, ("expect", "hands", seat, i)) for i, c in enumerate(cards)]
            if Counter(kinds) != Counter(state.hands[seat]):
                mismatch(f"hands[{seat}]", _cards(g, kinds), _cards(g, state.hands[seat]), ("expect", "hands", seat))
    if "hand_sizes" in expect:
        sizes = [len(h) for h in state.hands]
        if list(expect["hand_sizes"]) != sizes:
            mismatch("hand_sizes", expect["hand_sizes"], sizes)
    if "turn" in expect:
        got = state.current_player
        if got != expect["turn"]:
            mismatch("turn", expect["turn"], got if got >= 0 else "none (the game is over)")
    if "decision" in expect:
        got = state.decision or "none"
        if got != expect["decision"]:
            mismatch("decision", expect["decision"], got)
    if "color" in expect:
        want = expect["color"]
        color_index(g, want, ("expect", "color"))
        got = state.current_color or "none"
        if got != want:
            mismatch("color", want, got)
    if "direction" in expect and expect["direction"] != state.direction:
        mismatch("direction", expect["direction"], state.direction)
    if "top" in expect:
        card_kind(g, expect["top"], ("expect", "top"))
        if state.top_card != expect["top"]:
            mismatch("top", expect["top"], state.top_card or "none (the discard pile is empty)")
    if "scores" in expect:
        if list(expect["scores"]) != list(state.scores):
            mismatch("scores", expect["scores"], list(state.scores))
    if "winner" in expect:
        got = state.winner if state.over else state.round_winner
        if got != expect["winner"]:
            mismatch("winner", "none" if expect["winner"] is None else expect["winner"],
                     "none" if got is None else got)
    if "over" in expect and bool(expect["over"]) != state.over:
        mismatch("over", str(expect["over"]).lower(), str(state.over).lower())
    if "draw_pile_size" in expect and expect["draw_pile_size"] != len(state.draw_pile):
        mismatch("draw_pile_size", expect["draw_pile_size"], len(state.draw_pile))
    if "discard_size" in expect and expect["discard_size"] != len(state.discard):
        mismatch("discard_size", expect["discard_size"], len(state.discard))
    if "uno_called" in expect:
        for i, seat in enumerate(expect["uno_called"]):
            _seat(n, seat, ("expect", "uno_called", i))
        got = [p for p in range(n) if state.uno_called[p]]
        if sorted(expect["uno_called"]) != got:
            mismatch("uno_called", _seats(expect["uno_called"]), _seats(got))
    if "stack" in expect and expect["stack"] != state.stack:
        mismatch("stack", expect["stack"], state.stack)
    if "lock" in expect:
        want = expect["lock"]
        got = None if state.lock_owner < 0 else (g.variant.colors[state.lock_color], state.lock_owner)
        if want is None:
            if got is not None:
                mismatch("lock", "none", f"{got[0]} until seat {got[1]}'s turn")
        else:
            color_index(g, want["color"], ("expect", "lock", "color"))
            _seat(n, want["owner"], ("expect", "lock", "owner"))
            if got != (want["color"], want["owner"]):
                mismatch("lock", f"{want['color']} until seat {want['owner']}'s turn",
                         "none" if got is None else f"{got[0]} until seat {got[1]}'s turn")
    if "revealed" in expect:
        for i, item in enumerate(expect["revealed"]):
            to = _seat(n, item["to"], ("expect", "revealed", i, "to"))
            of = _seat(n, item["of"], ("expect", "revealed", i, "of"))
            seen = state.revealed.get(to, {}).get(of)
            if "cards" in item:
                kinds = [card_kind(g, c, ("expect", "revealed", i, "cards", j)) for j, c in enumerate(item["cards"])]
                if seen is None or Counter(seen) != Counter(kinds):
                    mismatch(f"revealed[{i}]", f"seat {to} saw {_cards(g, kinds)} of seat {of}",
                             f"seat {to} saw nothing of seat {of}" if seen is None
                             else f"seat {to} saw {_cards(g, seen)}", ("expect", "revealed", i))
            elif seen is None:
                mismatch(f"revealed[{i}]", f"seat {to} saw seat {of}'s hand", "nothing was shown",
                         ("expect", "revealed", i))
    for key, must in (("legal", True), ("not_legal", False)):
        if key not in expect:
            continue
        legal = set(state.legal_action_ids()) if legal_before is None else set(legal_before)
        for i, text in enumerate(expect[key]):
            a = action_id(g, text, ("expect", key, i))
            if (a in legal) != must:
                shown = ", ".join(g.action_to_string(x) for x in sorted(legal)) or "nothing"
                verdict = "is not legal" if must else "is legal"
                out.append(((("expect", key, i)), f"{key}: '{text}' {verdict} for {_who(state)}; legal: {shown}"))
    return out


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
            _seat(state.n, by, ("actions", i, "by"))
            if state.current_player != by:
                outcome.failures.append((("actions", i), f"actions[{i}] '{text}': seat {by} cannot act now; "
                                         f"{_who(state)} must decide"))
                return outcome
        # The last action may be the refused one itself: then its refusal is the check.
        if a == refused_id and i == len(parsed) - 1 and a not in state.legal_action_ids():
            break
        try:
            state.apply(a)
        except IllegalAction as err:
            outcome.failures.append((where, f"actions[{i}] '{text}' was refused for {_who(state)}: {err.reason}"))
            return outcome
        except Exception as err:                     # an engine bug: report it, do not crash the run
            outcome.failures.append((where, f"actions[{i}] '{text}': the engine failed: "
                                     f"{type(err).__name__}: {err}"))
            return outcome
        broken = check_conservation(state)
        if broken:
            outcome.failures.append((where, f"actions[{i}] '{text}': {broken}"))
            return outcome
    legal_now = state.legal_action_ids()
    if refused is not None:
        outcome.failures.extend(_check_refusal(state, refused, refused_id, expect.get("reason")))
    elif "reason" in expect:
        outcome.failures.append((("expect", "reason"), "reason is given without refused"))
    try:
        outcome.failures.extend(check_expect(state, expect, legal_now))
    except ScenarioError as err:
        outcome.error = err
    return outcome


def _check_refusal(state: State, text: str, a: int, reason: str | None) -> list[tuple[tuple, str]]:
    """Try the refused action on a copy: it must raise IllegalAction and change nothing."""
    before = state.to_json()
    probe = state.clone()
    try:
        probe.apply(a)
    except IllegalAction as err:
        out = []
        if probe.to_json() != before:
            out.append((("expect", "refused"), f"refused: '{text}' was refused but the state changed"))
        if reason is not None and reason.lower() not in err.reason.lower():
            out.append((("expect", "reason"), f"reason: expected a refusal containing '{reason}', got '{err.reason}'"))
        return out
    except Exception as err:
        return [(("expect", "refused"), f"refused: the engine failed on '{text}': {type(err).__name__}: {err}")]
    return [(("expect", "refused"), f"refused: '{text}' was accepted")]


# ---------------------------------------------------------------------------
# Files and reports


@dataclass
class ScenarioResult:
    """One scenario's result, located in its file."""

    path: str
    line: int
    column: int
    name: str
    rule: str | None
    failures: list[tuple[int, int, str]] = field(default_factory=list)   # (line, column, message)
    errored: bool = False                   # could not run: a diagnostic in the report says why
    known_issue: str | None = None          # the engine is known to fail it (see the schema)

    @property
    def ok(self) -> bool:
        """Passed; or, for a known issue, still fails as expected."""
        if self.errored:
            return False
        return bool(self.failures) if self.known_issue else not self.failures

    @property
    def expected_failure(self) -> bool:
        return bool(self.known_issue) and bool(self.failures) and not self.errored

    def label(self) -> str:
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"scenario '{self.name}'{rule}"


@dataclass
class Report:
    """Every scenario run and every problem found in the files."""

    results: list[ScenarioResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    @property
    def passed(self) -> int:
        return sum(r.ok and not r.expected_failure for r in self.results)

    @property
    def failed(self) -> int:
        return sum(not r.ok for r in self.results)

    @property
    def known_issues(self) -> int:
        return sum(r.expected_failure for r in self.results)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in dict.fromkeys(self.diagnostics) if d.severity == "error"]

    @property
    def ok(self) -> bool:
        """True when every scenario passed and no file had an error."""
        return self.failed == 0 and not self.errors

    def lines(self, verbose: bool = False) -> list[str]:
        """One line per problem and failure (per scenario too when verbose), then the summary."""
        # A broken variant named by several files is reported once.
        entries = [(d.sort_key(), d.header()) for d in dict.fromkeys(self.diagnostics)]
        for r in self.results:
            at = (r.path, r.line, r.column, "")
            shown = one_line(r.path)                    # a path holding a newline stays on one line
            head = f"{shown}:{r.line}:{r.column}: {r.label()}"
            if r.expected_failure:
                if verbose:
                    entries.append((at, f"{head}: known issue: {r.known_issue}"))
                    entries.extend(((r.path, line, column, ""), f"{shown}:{line}:{column}: {r.label()}: "
                                    f"(known issue) {message}") for line, column, message in r.failures)
                continue
            if r.known_issue and not r.errored:
                entries.append((at, f"{head}: passes now; remove 'known_issue: {r.known_issue}'"))
                continue
            for line, column, message in r.failures:
                entries.append(((r.path, line, column, ""), f"{shown}:{line}:{column}: {r.label()}: {message}"))
            if verbose and r.ok:
                entries.append((at, f"{head}: ok"))
        out = [text for _, text in sorted(entries, key=lambda e: e[0])]
        summary = f"{self.passed} passed, {self.failed} failed"
        if self.known_issues:
            summary += f", {self.known_issues} known issue(s)"
        if self.errors:
            summary += f", {len(self.errors)} error(s) in scenario files"
        out.append(summary)
        return out


    def status(self, r: ScenarioResult) -> str:
        """passed, failed, error (could not run), known_issue (fails as expected) or fixed (a known issue that passes)."""
        if r.errored:
            return "error"
        if r.expected_failure:
            return "known_issue"
        if r.known_issue:
            return "fixed"
        return "failed" if r.failures else "passed"

    def to_dict(self) -> dict:
        """The report for tools: one object per scenario, the file problems and the summary."""
        return {
            "scenarios": [{"path": r.path, "line": r.line, "column": r.column, "name": r.name, "rule": r.rule,
                           "status": self.status(r),
                           "failures": [{"line": line, "column": column, "message": message}
                                        for line, column, message in r.failures]}
                          for r in self.results],
            "diagnostics": [d.to_dict() for d in dict.fromkeys(self.diagnostics)],
            "summary": {"files": self.files, "scenarios": len(self.results), "passed": self.passed,
                        "failed": self.failed, "known_issues": self.known_issues, "errors": len(self.errors),
                        "ok": self.ok},
        }

    def to_junit(self) -> str:
        """The report as JUnit XML: a testsuite per scenario file, a testcase per scenario.

        A failed scenario has a <failure>, one that could not run an <error>, a known
        issue is <skipped>; a file problem outside any scenario is an <error> testcase
        named after the file, so CI systems show it too.
        """
        import xml.etree.ElementTree as ET
        suites = ET.Element("testsuites", name="unodsl test")
        problems = [d for d in dict.fromkeys(self.diagnostics) if d.severity == "error"]
        paths = list(dict.fromkeys([r.path for r in self.results] + [d.path for d in problems]))
        totals = dict(tests=0, failures=0, errors=0, skipped=0)
        for path in paths:
            suite = ET.SubElement(suites, "testsuite", name=path)
            counts = dict(tests=0, failures=0, errors=0, skipped=0)
            results = [r for r in self.results if r.path == path]
            at_scenario = set()
            for r in results:
                case = ET.SubElement(suite, "testcase", name=r.name, classname=_junit_class(path),
                                     file=path, line=str(r.line))
                counts["tests"] += 1
                status = self.status(r)
                mine = [d for d in problems if d.path == path and d.message.endswith(f" in scenario '{r.name}'")]
                at_scenario.update(mine)
                if status == "error":
                    counts["errors"] += 1
                    text = "\n".join(d.header() for d in mine) or f"{path}:{r.line}:{r.column}: could not run"
                    ET.SubElement(case, "error", message=mine[0].message if mine else "could not run").text = text
                elif status in ("failed", "fixed"):
                    counts["failures"] += 1
                    lines = [f"{path}:{line}:{column}: {message}" for line, column, message in r.failures]
                    message = (r.failures[0][2] if r.failures
                               else f"passes now; remove 'known_issue: {r.known_issue}'")
                    ET.SubElement(case, "failure", message=message).text = "\n".join(lines) or message
                elif status == "known_issue":
                    counts["skipped"] += 1
                    ET.SubElement(case, "skipped", message=f"known issue: {r.known_issue}")
            for d in problems:
                if d.path == path and d not in at_scenario:
                    case = ET.SubElement(suite, "testcase", name=f"{path} ({d.code})",
                                         classname=_junit_class(path), file=path, line=str(d.line))
                    counts["tests"] += 1
                    counts["errors"] += 1
                    ET.SubElement(case, "error", message=f"{d.code} {d.message}").text = d.header()
            for key, value in counts.items():
                suite.set(key, str(value))
                totals[key] += value
        for key, value in totals.items():
            suites.set(key, str(value))
        ET.indent(suites)
        return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _junit_class(path: str) -> str:
    """A JUnit class name for a scenario file: its path without the extension, dotted."""
    stem = os.path.splitext(os.path.normpath(path))[0].lstrip(os.sep)
    return stem.replace(os.sep, ".")


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
                                                 f"internal error while running scenarios: {type(err).__name__}: {err}"))
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
    if not os.path.isfile(variant_path):
        report.diagnostics.append(Diagnostic(path, variant_node.line, variant_node.column, "E601",
                                             f"variant file '{variant_node.value}' not found "
                                             f"(looked for {os.path.normpath(variant_path)})"))
        return
    variant_path = os.path.normpath(variant_path)
    allowed = find_root(path, cache.root)
    if not allowed.contains(os.path.realpath(variant_path)):
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


_VALUE_KINDS = {bool: "true or false", int: "a whole number", str: "a string"}


def _ruling_error(game: Game, rulings: dict) -> ScenarioError | None:
    """E607 for a ruling the variant does not have, or a value of the wrong type or outside its choices."""
    from ..engine import ENGINE_RULINGS
    known = game.variant.rulings
    for name, value in rulings.items():
        where = ("given", "rulings", name)
        if name not in known and name not in ENGINE_RULINGS:
            return ScenarioError("E607", f"unknown ruling '{name}'" + suggestion_suffix(name, list(known)), where)
        ruling = known.get(name)
        if ruling is None:
            continue
        if type(value) is not type(ruling.value) and ruling.value is not None:
            kind = _VALUE_KINDS.get(type(ruling.value), type(ruling.value).__name__)
            return ScenarioError("E607", f"ruling '{name}' takes {kind}, not {value!r}", where)
        if ruling.choices and value not in ruling.choices:
            return ScenarioError("E607", f"ruling '{name}' is one of {', '.join(map(str, ruling.choices))}, "
                                 f"not {value!r}", where)
    return None
