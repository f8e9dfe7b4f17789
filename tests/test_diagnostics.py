"""Tests for unodsl.diagnostics: the Diagnostic value and its formatters."""

import json

import pytest

from unodsl.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Edit,
    Fix,
    did_you_mean,
    format_full,
    format_json,
    format_text,
    has_errors,
    offset_to_position,
    split_lines,
    suggestion_suffix,
)


def test_defaults_and_warning_codes():
    error = Diagnostic("a.yaml", 3, 5, "E112", "duplicate key 'x'")
    assert error.severity == "error"
    assert error.end_line is None and error.end_column is None
    # W codes are warnings even if the caller forgets to say so.
    assert Diagnostic("a.yaml", 1, 1, "W301", "unused").severity == "warning"


def test_diagnostic_is_frozen():
    diag = Diagnostic("a.yaml", 1, 1, "E101", "file not found")
    with pytest.raises(AttributeError):
        diag.line = 2  # type: ignore[misc]


def test_sort_key_orders_by_path_line_column_code():
    diags = [
        Diagnostic("b.yaml", 1, 1, "E101", "x"),
        Diagnostic("a.yaml", 2, 1, "E110", "x"),
        Diagnostic("a.yaml", 1, 9, "E112", "x"),
        Diagnostic("a.yaml", 1, 9, "E111", "x"),
    ]
    assert [d.sort_key() for d in sorted(diags, key=Diagnostic.sort_key)] == [
        ("a.yaml", 1, 9, "E111"),
        ("a.yaml", 1, 9, "E112"),
        ("a.yaml", 2, 1, "E110"),
        ("b.yaml", 1, 1, "E101"),
    ]


def test_to_dict_has_every_field():
    diag = Diagnostic("a.yaml", 2, 3, "E115", "bad tag", end_line=2, end_column=9)
    assert diag.to_dict() == {
        "path": "a.yaml", "line": 2, "column": 3, "end_line": 2, "end_column": 9,
        "code": "E115", "severity": "error", "message": "bad tag", "fix": None,
    }
    fixed = Diagnostic("a.yaml", 2, 3, "E201", "unknown key 'nmae' (did you mean 'name'?)",
                       fix=Fix("replace 'nmae' by 'name'", (Edit(2, 3, 2, 7, "name"),)))
    assert fixed.to_dict()["fix"] == {"title": "replace 'nmae' by 'name'",
                                      "edits": [{"line": 2, "column": 3, "end_line": 2, "end_column": 7,
                                                 "text": "name"}]}
    assert fixed == Diagnostic("a.yaml", 2, 3, "E201", "unknown key 'nmae' (did you mean 'name'?)")


def test_format_text_sorted_one_per_line():
    diags = [
        Diagnostic("v.yaml", 4, 2, "E112", "duplicate key 'name' (first defined on line 1)"),
        Diagnostic("v.yaml", 1, 1, "W301", "something odd"),
    ]
    assert format_text(diags) == (
        "v.yaml:1:1: W301 something odd\n"
        "v.yaml:4:2: E112 duplicate key 'name' (first defined on line 1)"
    )
    assert format_text([]) == ""


def test_format_full_single_caret():
    source = "name: classic\nplayers: 4\nname: again\n"
    diag = Diagnostic("v.yaml", 3, 1, "E112", "duplicate key 'name' (first defined on line 1)")
    assert format_full([diag], {"v.yaml": source}) == (
        "v.yaml:3:1: E112 duplicate key 'name' (first defined on line 1)\n"
        "    name: again\n"
        "    ^"
    )


def test_format_full_range_underlines_to_end_column():
    source = "x: !!python/name:os.system y\n"
    diag = Diagnostic("v.yaml", 1, 4, "E115", "tag not allowed", end_line=1, end_column=27)
    assert format_full([diag], {"v.yaml": source}) == (
        "v.yaml:1:4: E115 tag not allowed\n"
        "    x: !!python/name:os.system y\n"
        "       ^~~~~~~~~~~~~~~~~~~~~~~"
    )


def test_format_full_caret_in_middle_of_line_and_multiple_diagnostics():
    sources = {"a.yaml": "a: 1\nb: [1, 2\n", "b.yaml": "k: v\n"}
    diags = [
        Diagnostic("b.yaml", 1, 4, "E200", "second file"),
        Diagnostic("a.yaml", 2, 7, "E110", "problem"),
    ]
    assert format_full(diags, sources) == (
        "a.yaml:2:7: E110 problem\n"
        "    b: [1, 2\n"
        "          ^\n"
        "b.yaml:1:4: E200 second file\n"
        "    k: v\n"
        "       ^"
    )


def test_format_full_widens_tabs_so_the_caret_lines_up():
    diag = Diagnostic("t.yaml", 2, 2, "E111", "tab", end_line=2, end_column=3)
    assert format_full([diag], {"t.yaml": "a:\n\tb: 1\n"}) == (
        "t.yaml:2:2: E111 tab\n"
        "        b: 1\n"
        "        ^"
    )


def test_format_full_without_source_or_line_shows_only_the_header():
    diag = Diagnostic("gone.yaml", 1, 1, "E101", "file not found")
    assert format_full([diag], {}) == "gone.yaml:1:1: E101 file not found"
    assert format_full([diag], {"gone.yaml": ""}) == "gone.yaml:1:1: E101 file not found"
    far = Diagnostic("a.yaml", 99, 1, "E110", "past the end")
    assert format_full([far], {"a.yaml": "a: 1\n"}) == "a.yaml:99:1: E110 past the end"


def test_format_full_cuts_long_lines_around_the_caret():
    line = "k: " + "x" * 300 + " @"
    diag = Diagnostic("l.yaml", 1, len(line), "E110", "bad")
    snippet, caret = format_full([diag], {"l.yaml": line}).splitlines()[1:]
    assert len(snippet) < 120
    assert snippet.startswith("    ...") and snippet.endswith("@")
    assert caret.index("^") == snippet.index("@")


def test_format_full_uses_crlf_line_breaks_like_yaml():
    diag = Diagnostic("w.yaml", 2, 1, "E112", "dup")
    assert format_full([diag], {"w.yaml": "a: 1\r\na: 2\r\n"}).splitlines()[1] == "    a: 2"


def test_format_json_is_parseable_and_sorted():
    diags = [
        Diagnostic("v.yaml", 5, 1, "W301", "later"),
        Diagnostic("v.yaml", 2, 3, "E112", "dup", end_line=2, end_column=7),
    ]
    data = json.loads(format_json(diags))
    assert data == [
        {"path": "v.yaml", "line": 2, "column": 3, "end_line": 2, "end_column": 7,
         "code": "E112", "severity": "error", "message": "dup", "fix": None},
        {"path": "v.yaml", "line": 5, "column": 1, "end_line": None, "end_column": None,
         "code": "W301", "severity": "warning", "message": "later", "fix": None},
    ]
    assert json.loads(format_json([])) == []


def test_did_you_mean():
    keys = ["per_color", "numbers", "actions", "wilds"]
    assert did_you_mean("per_colour", keys) == "per_color"
    assert did_you_mean("PER_COLOR", keys) == "per_color"
    assert did_you_mean("zzzzzz", keys) is None
    assert did_you_mean("anything", []) is None
    # The word itself is never suggested back.
    assert did_you_mean("numbers", ["numbers"]) is None


def test_suggestion_suffix():
    assert suggestion_suffix("per_colour", ["per_color", "deck"]) == " (did you mean 'per_color'?)"
    assert suggestion_suffix("qqq", ["per_color"]) == ""


def test_diagnostic_error_carries_diagnostics():
    diags = [Diagnostic("v.yaml", 1, 1, "E106", "file is empty")]
    with pytest.raises(DiagnosticError) as info:
        raise DiagnosticError(diags)
    assert info.value.diagnostics == diags
    assert "E106" in str(info.value)


def test_has_errors():
    assert not has_errors([Diagnostic("v", 1, 1, "W301", "w")])
    assert has_errors([Diagnostic("v", 1, 1, "W301", "w"), Diagnostic("v", 1, 1, "E101", "e")])


def test_line_helpers_follow_yaml_line_breaks():
    text = "a\r\nb\rc\x85d\ne"
    assert split_lines(text) == ["a", "b", "c", "d", "e"]
    assert offset_to_position(text, 0) == (1, 1)
    assert offset_to_position(text, 3) == (2, 1)
    assert offset_to_position(text, text.index("e")) == (5, 1)
    assert offset_to_position("abc", 2) == (1, 3)


def test_one_line_formats_escape_line_breaks_and_control_characters_json_keeps_them():
    diag = Diagnostic("odd\nname\x1b.yaml", 2, 3, "E201", "unknown key 'a\rb'")
    assert format_text([diag]) == "odd\\nname\\x1b.yaml:2:3: E201 unknown key 'a\\rb'"
    assert format_full([diag], {}) == format_text([diag])
    assert json.loads(format_json([diag]))[0]["path"] == "odd\nname\x1b.yaml"
    assert json.loads(format_json([diag]))[0]["message"] == "unknown key 'a\rb'"
    # Ordinary text, accents included, is shown as it is.
    assert Diagnostic("café/v.yaml", 1, 1, "E101", "file not found").header() == "café/v.yaml:1:1: E101 file not found"


def test_check_of_a_file_with_a_newline_in_its_name_gives_one_line(tmp_path):
    from click.testing import CliRunner
    from unodsl.cli import main
    odd = tmp_path / "two\nlines.yaml"
    odd.write_text("unodsl: 1\nname: X\ncolours: [red]\n")
    result = CliRunner().invoke(main, ["check", str(odd)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [f"{tmp_path}/two\\nlines.yaml:1:1", f"{tmp_path}/two\\nlines.yaml:3:1"]
