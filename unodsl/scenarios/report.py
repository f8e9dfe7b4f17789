"""The results of `unodsl test`: per scenario, then as lines, JSON or JUnit XML."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, one_line


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
        """passed, failed, error (could not run), known_issue (fails as expected) or fixed (a known issue
        that passes)."""
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
