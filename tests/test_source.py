"""Tests for unodsl.source.yaml_tree: loading YAML into located nodes, and every E1xx diagnostic."""

import os

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unodsl.source import tree_builder
from unodsl.source import yaml_tree as source
from unodsl.source.yaml_tree import Node, load_file, load_text

HAS_LIBYAML = getattr(yaml, "__with_libyaml__", False)
PARSERS = [pytest.param(tree_builder._Loader, id="pure")] + (
    [pytest.param(tree_builder._CLoader, id="libyaml")] if HAS_LIBYAML else [])


@pytest.fixture(params=PARSERS)
def parser(request, monkeypatch):
    """Run a test once with each YAML parser the loader may use; positions must not depend on it."""
    monkeypatch.setattr(tree_builder, "_LOADER", request.param)
    return request.param


def write(tmp_path, text, name="variant.yaml"):
    """Write `text` (str or bytes) to a file and return its path as a string."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def codes(diags):
    return [d.code for d in diags]


def where(diags):
    return [(d.code, d.line, d.column) for d in diags]


# ---------------------------------------------------------------- the happy path


def test_load_file_returns_located_tree(tmp_path, parser):
    text = (
        "name: Classic\n"
        "players: {min: 2, max: 10}\n"
        "deck:\n"
        "  - red\n"
        "  - 'blue'\n"
        "rules:\n"
        "  stack: yes\n"
        "  on: 2\n"
        "  ratio: 1.5\n"
        "  nothing:\n"
        "  date: 2024-01-01\n"
    )
    path = write(tmp_path, text)
    root, diags, loaded = load_file(path)
    assert diags == []
    assert loaded == text
    assert root.to_python() == {
        "name": "Classic",
        "players": {"min": 2, "max": 10},
        "deck": ["red", "blue"],
        # YAML 1.1 booleans as SafeLoader reads them; keys keep the text written; dates stay text.
        "rules": {"stack": True, "on": 2, "ratio": 1.5, "nothing": None, "date": "2024-01-01"},
    }
    assert root.kind == "map" and root.path == path
    name = root.get("name")
    assert (name.kind, name.line, name.column, name.end_line, name.end_column) == ("scalar", 1, 7, 1, 14)
    assert (name.key_line, name.key_column) == (1, 1)
    assert name.raw == "Classic" and name.style is None
    players = root.get("players")
    assert (players.kind, players.line, players.column, players.end_line, players.end_column) == ("map", 2, 10, 2, 27)
    assert (players.get("max").line, players.get("max").column) == (2, 24)
    deck = root.get("deck")
    assert deck.kind == "seq" and [(n.line, n.column) for n in deck.value] == [(4, 5), (5, 5)]
    assert deck.value[1].style == "'" and deck.value[1].raw == "'blue'"
    rules = root.get("rules")
    assert (rules.line, rules.column, rules.key_line, rules.key_column) == (7, 3, 6, 1)
    assert rules.get("stack").raw is None  # raw is kept for string scalars only
    assert root.get("missing") is None and deck.get("x") is None


def test_keys_are_insertion_ordered_strings(parser):
    root, diags = load_text("b: 1\n1: one\na: 2\n0x10: hex\n", "k.yaml")
    assert diags == []
    assert list(root.value) == ["b", "1", "a", "0x10"]


def test_alias_is_a_reference_with_its_own_key_position(parser):
    root, diags = load_text("base: &b {draw: 2}\ncopy: *b\n", "a.yaml")
    assert diags == []
    assert root.to_python() == {"base": {"draw": 2}, "copy": {"draw": 2}}
    copy = root.get("copy")
    assert (copy.key_line, copy.key_column) == (2, 1)
    assert (copy.line, copy.column) == (1, 10)  # the value itself is written at the anchor
    assert root.get("base").key_line == 1


def test_tagged_scalar_position_is_its_text(parser):
    root, diags = load_text("a: !!str 12\nb: &x  hello\n", "t.yaml")
    assert diags == []
    assert root.get("a").value == "12" and (root.get("a").line, root.get("a").column) == (1, 10)
    assert root.get("b").raw == "hello" and root.get("b").column == 8


def test_bom_is_ignored(tmp_path, parser):
    path = write(tmp_path, "\ufeffa: 1\n".encode("utf-8"))
    root, diags, text = load_file(path)
    assert diags == [] and root.to_python() == {"a": 1}
    assert text == "a: 1\n" and root.get("a").column == 4


def test_crlf_positions(parser):
    root, diags = load_text("a: 1\r\nb:\r\n  c: x\r\n", "w.yaml")
    assert diags == []
    c = root.get("b").get("c")
    assert (c.line, c.column, c.key_line, c.key_column) == (3, 6, 3, 3)


# ---------------------------------------------------------------- E101-E107


def test_e101_file_not_found(tmp_path):
    path = str(tmp_path / "nope.yaml")
    root, diags, text = load_file(path)
    assert root is None and text == ""
    assert where(diags) == [("E101", 1, 1)]
    assert diags[0].path == path and diags[0].message == "file not found"


def test_e101_parent_is_a_file(tmp_path):
    parent = write(tmp_path, "a: 1\n")
    assert codes(load_file(os.path.join(parent, "child.yaml"))[1]) == ["E101"]


def test_e102_directory(tmp_path):
    root, diags, text = load_file(str(tmp_path))
    assert root is None and text == ""
    assert where(diags) == [("E102", 1, 1)]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file")
def test_e103_permission_denied(tmp_path):
    path = write(tmp_path, "a: 1\n")
    os.chmod(path, 0)
    try:
        assert where(load_file(path)[1]) == [("E103", 1, 1)]
    finally:
        os.chmod(path, 0o644)


def test_e103_unreadable(tmp_path, monkeypatch):
    path = write(tmp_path, "a: 1\n")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(source, "open", refuse, raising=False)
    root, diags, text = load_file(path)
    assert root is None and text == ""
    assert where(diags) == [("E103", 1, 1)]
    assert diags[0].message == "cannot read file: permission denied"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_e103_fifo_does_not_block(tmp_path):
    path = str(tmp_path / "pipe.yaml")
    os.mkfifo(path)
    import threading
    found = []
    reader = threading.Thread(target=lambda: found.append(codes(load_file(path)[1])), daemon=True)
    reader.start()
    reader.join(60)                 # not a speed limit: only so a regression fails instead of hanging
    if reader.is_alive():           # blocked opening the FIFO: give it a writer so the thread ends
        with open(path, "w"):
            pass
        reader.join()
        pytest.fail("load_file blocked on a FIFO, waiting for a writer")
    assert found == [["E103"]]


def test_e104_nul_byte_position(tmp_path):
    path = write(tmp_path, b"name: ok\nrule: ab\x00cd\n")
    root, diags, text = load_file(path)
    assert root is None
    assert where(diags) == [("E104", 2, 9)]
    assert "NUL" in diags[0].message
    assert text.startswith("name: ok\n")  # still returned so the line can be shown


def test_e104_invalid_utf8_position(tmp_path):
    path = write(tmp_path, b"a: 1\nb" + "é".encode() + b": \xff\n")
    root, diags, _ = load_file(path)
    assert root is None
    assert where(diags) == [("E104", 2, 5)]
    assert "0xff" in diags[0].message


def test_e104_utf16(tmp_path):
    path = write(tmp_path, "a: 1\n".encode("utf-16"))
    assert where(load_file(path)[1]) == [("E104", 1, 1)]


def test_e104_control_character_in_text(parser):
    root, diags = load_text("a: 1\nb: x\x07y\n", "c.yaml")
    assert root is None
    assert where(diags) == [("E104", 2, 5)]
    assert diags[0].message == "character U+0007 is not allowed in YAML text"


def test_e105_too_large(tmp_path):
    path = write(tmp_path, "a: 1\n" * 10)
    root, diags, text = load_file(path, max_bytes=20)
    assert root is None and text == ""
    assert where(diags) == [("E105", 1, 1)]
    assert diags[0].message == "file is too large (50 bytes, limit is 20 bytes)"
    assert codes(load_text("a: 1\n" * 10, "t.yaml", max_bytes=20)[1]) == ["E105"]


@pytest.mark.parametrize("text", ["", "\n\n   \n", "# only a comment\n\n# another\n", "---\n", "--- # c\n...\n"])
def test_e106_empty(tmp_path, parser, text):
    root, diags, _ = load_file(write(tmp_path, text))
    assert root is None
    assert where(diags) == [("E106", 1, 1)]


@pytest.mark.parametrize("text, found, position", [
    ("- a\n- b\n", "a list", (1, 1)),
    ("\n\njust text\n", "a single value", (3, 1)),
    ("# c\n  42\n", "a single value", (2, 3)),
    ("null\n", "a single value", (1, 1)),
])
def test_e107_top_level_not_a_mapping(parser, text, found, position):
    root, diags = load_text(text, "top.yaml")
    assert root is None
    assert where(diags) == [("E107", *position)]
    assert diags[0].message == f"the top level must be a mapping of keys to values, but this file holds {found}"


# ---------------------------------------------------------------- E110-E117


@pytest.mark.parametrize("text, value, position", [
    ("name: x\nrule: a: b\n", "a: b", (2, 7)),
    ("name: x\nrule: it's a: b   # note\n", "it's a: b", (2, 7)),
    ("cards:\n  - on_play: if x: y\n", "if x: y", (2, 14)),
])
def test_e117_a_value_with_a_colon_is_reported_and_read_as_written(parser, text, value, position):
    root, diags = load_text(text, "s.yaml")
    assert where(diags) == [("E117", *position)]
    found = root.value["rule"] if "rule" in root.value else root.value["cards"].value[0].value["on_play"]
    assert (found.value, found.style, found.line, found.column) == (value, None, *position)
    assert found.raw == value and found.end_column == position[1] + len(value)
    assert diags[0].fix.edits[0].text.startswith("|\n")


@pytest.mark.parametrize("text, position", [
    ("name: x\nrule: a\n  b: c\n", (3, 4)),    # mapping values are not allowed here
    ("a: [1, 2\n", (2, 1)),                   # unclosed flow sequence
    ("a: 'open\n", (2, 1)),                   # unclosed quote
    ("a: 1\n b: 2\n", (2, 3)),                # bad indentation
    ("a: @x\n", (1, 4)),                      # reserved indicator
    ("a: *nowhere\n", (1, 4)),                # alias without an anchor
    ("a: 1\n---\nb: 2\n", (2, 1)),            # a second document
])
def test_e110_syntax_error_position(parser, text, position):
    """(A `: ` inside a plain value is E117 and read on: test_e117_*.)"""
    root, diags = load_text(text, "s.yaml")
    assert root is None
    assert where(diags) == [("E110", *position)]
    message = diags[0].message
    assert "\n" not in message and "Traceback" not in message and "<unicode string>" not in message


def test_e110_message_names_the_character(parser):
    diags = load_text("a: @x\n", "s.yaml")[1]
    assert diags[0].message.startswith("found character '@' that cannot start any token")


def test_e111_tabs_are_all_reported(parser):
    text = "rules:\n\tdraw: 2\n  \tskip: yes\nok: 1\n\t\t# comment\n"
    root, diags = load_text(text, "tabs.yaml")
    assert root is None
    assert where(diags) == [("E111", 2, 1), ("E111", 3, 3), ("E111", 5, 1)]
    assert diags[0].message == "tab character used for indentation; indent with spaces"
    assert (diags[1].end_line, diags[1].end_column) == (3, 4)
    assert (diags[2].end_line, diags[2].end_column) == (5, 3)


def test_e111_tab_in_block_scalar_content_is_text(parser):
    root, diags = load_text("effect: |\n  draw 2\n  \tskip\nnext: 1\n", "b.yaml")
    assert diags == []
    assert root.get("effect").value == "draw 2\n\tskip\n"


def test_e111_tab_instead_of_block_indentation(parser):
    assert where(load_text("effect: |\n\tdraw 2\n", "b.yaml")[1]) == [("E111", 2, 1)]


def test_e112_duplicate_key_message(parser):
    text = "name: a\nplayers: 2\nname: b\n"
    root, diags = load_text(text, "dup.yaml")
    assert diags == [source.Diagnostic("dup.yaml", 3, 1, "E112", "duplicate key 'name' (first defined on line 1)",
                                       end_line=3, end_column=5)]
    assert root.to_python() == {"name": "a", "players": 2}  # the first value is kept


def test_e112_nested_and_flow_duplicates(parser):
    text = "rules:\n  stack: 1\n  other: {x: 1, x: 2}\n  stack: 3\n"
    diags = load_text(text, "dup.yaml")[1]
    assert [(d.line, d.column, d.message) for d in diags] == [
        (3, 17, "duplicate key 'x' (first defined on line 3)"),
        (4, 3, "duplicate key 'stack' (first defined on line 2)"),
    ]


def test_e112_keys_compare_as_text(parser):
    diags = load_text("1: a\n'1': b\n", "dup.yaml")[1]
    assert where(diags) == [("E112", 2, 1)]


def test_e113_alias_bomb_is_refused_without_expanding(parser):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    # Refused by counting, not by expanding 9**9 nodes (which would not end): the node budget
    # and the alias limit are pinned in the tests below; speed is for benchmarks.
    root, diags = load_text("\n".join(lines) + "\n", "bomb.yaml")
    assert root is None
    assert codes(diags) == ["E113"]
    assert "alias bomb" in diags[0].message


def test_e113_too_many_aliases(parser):
    text = "base: &b 1\nuses: [" + ", ".join(["*b"] * 5) + "]\n"
    assert load_text(text, "a.yaml", max_aliases=5)[1] == []
    root, diags = load_text(text, "a.yaml", max_aliases=4)
    assert root is None
    assert where(diags) == [("E113", 2, 24)]


def test_e113_node_budget(parser):
    text = "base: &b [1, 2, 3, 4]\ncopy: [*b, *b]\n"
    # 7 nodes for the first line, 2 for "copy: [", then 5 for each expansion of *b.
    assert load_text(text, "a.yaml", max_nodes=19)[1] == []
    assert where(load_text(text, "a.yaml", max_nodes=18)[1]) == [("E113", 2, 12)]
    assert where(load_text(text, "a.yaml", max_nodes=13)[1]) == [("E113", 2, 8)]


def test_e113_recursive_alias(parser):
    root, diags = load_text("loop: &l [1, *l]\n", "r.yaml")
    assert root is None
    assert where(diags) == [("E113", 1, 14)]
    assert "recursive" in diags[0].message


@pytest.mark.parametrize("text", [
    "a: " + "[" * 1000 + "]" * 1000 + "\n",
    "a: " + "[" * 1000,                                   # unclosed, too
    "a: " + "{b: " * 1000 + "}" * 1000 + "\n",
    "".join(" " * i + "k:\n" for i in range(1000)) + " " * 1000 + "k: 1\n",
    "a:\n" + "".join(" " * (i + 1) + "- \n" for i in range(1000)),
    "- " * 1000 + "x\n",
])
def test_e114_deep_nesting(tmp_path, parser, text):
    root, diags, _ = load_file(write(tmp_path, text))
    assert root is None
    assert codes(diags) == ["E114"]
    assert diags[0].message == "nesting is deeper than the limit of 64 levels"


def test_e114_position_and_limit(parser):
    text = "a: " + "[" * 5 + "]" * 5 + "\n"
    assert load_text(text, "d.yaml", max_depth=6)[1] == []  # the root mapping is level 1
    assert where(load_text(text, "d.yaml", max_depth=5)[1]) == [("E114", 1, 8)]


def test_e114_alias_cannot_smuggle_depth(parser):
    text = "deep: &d [[[1]]]\nmore: [[*d]]\n"
    assert load_text(text, "d.yaml", max_depth=6)[1] == []
    assert where(load_text(text, "d.yaml", max_depth=5)[1]) == [("E114", 2, 9)]


def test_e115_python_tag_runs_nothing(tmp_path, parser):
    marker = tmp_path / "ran"
    text = f'x: !!python/object/apply:os.system ["touch {marker}"]\n'
    root, diags, _ = load_file(write(tmp_path, text))
    assert not marker.exists()
    assert where(diags) == [("E115", 1, 4)]
    assert diags[0].message.startswith("tag '!!python/object/apply:os.system' is not allowed")
    assert (diags[0].end_line, diags[0].end_column) == (1, 35)
    assert root.to_python() == {"x": [f"touch {marker}"]}  # plain data only


@pytest.mark.parametrize("text, tag, position", [
    ("a: !!python/name:os.system x\n", "!!python/name:os.system", (1, 4)),
    ("a: !foo bar\n", "!foo", (1, 4)),
    ("a: !!timestamp 2001-01-01\n", "!!timestamp", (1, 4)),
    ("a:\n  - !!set {x: 1}\n", "!!set", (2, 5)),
    ("a: &anchor !custom 1\n", "!custom", (1, 12)),
])
def test_e115_forbidden_tags(parser, text, tag, position):
    diags = load_text(text, "t.yaml")[1]
    assert where(diags) == [("E115", *position)]
    assert f"'{tag}'" in diags[0].message


def test_e115_core_tags_are_allowed_and_applied(parser):
    root, diags = load_text("a: !!int '7'\nb: !!str 7\nc: !!float 1\nd: !!bool 'yes'\ne: !!null x\n"
                            "f: !!map {k: v}\ng: !!seq [1]\n", "t.yaml")
    assert diags == []
    assert root.to_python() == {"a": 7, "b": "7", "c": 1.0, "d": True, "e": None, "f": {"k": "v"}, "g": [1]}


def test_e115_core_tag_on_wrong_value(parser):
    diags = load_text("a: !!int abc\nb: !!seq {k: v}\n", "t.yaml")[1]
    assert [(d.code, d.line, d.message) for d in diags] == [
        ("E115", 1, "'abc' is not a valid !!int value"),
        ("E115", 2, "tag '!!seq' cannot be used on a mapping"),
    ]


@pytest.mark.parametrize("text, position", [
    ("? [a, b]\n: 1\nok: 2\n", (1, 3)),
    ("{[a]: 1, ok: 2}\n", (1, 2)),
    ("? {k: v}\n: 1\nok: 2\n", (1, 3)),
    ("? \n: no key\nok: 2\n", (1, 2)),
])
def test_e116_non_scalar_key(parser, text, position):
    root, diags = load_text(text, "k.yaml")
    assert where(diags) == [("E116", *position)]
    assert root.to_python() == {"ok": 2}


@pytest.mark.parametrize("code, text, position", [
    ("E106", "# nothing here\n", (1, 1)),
    ("E107", "- just\n- a list\n", (1, 1)),
    ("E110", "a: [1\n", (2, 1)),
    ("E111", "a:\n\tb: 1\n", (2, 1)),
    ("E112", "a: 1\nb: 2\na: 3\n", (3, 1)),
    ("E113", "a: &a [*a]\n", (1, 8)),
    ("E114", "a: " + "[" * 100 + "]" * 100 + "\n", (1, 67)),
    ("E115", "a: !foo x\n", (1, 4)),
    ("E116", "? [k]\n: v\n", (1, 3)),
])
def test_each_code_from_a_file(tmp_path, code, text, position):
    root, diags, loaded = load_file(write(tmp_path, text))
    assert loaded == text
    assert where(diags) == [(code, *position)]


# ---------------------------------------------------------------- locate()


def check_locate(node, text):
    """Every character of the value, located, must be the same character in the file."""
    lines = text.split("\n")
    for number, value_line in enumerate(node.value.split("\n"), 1):
        for column, char in enumerate(value_line, 1):
            line, col = node.locate(number, column)
            assert lines[line - 1][col - 1] == char, (number, column, line, col)


def test_locate_plain(parser):
    text = "effects:\n  on_play: draw 2 then skip\n"
    node = load_text(text, "l.yaml")[0].get("effects").get("on_play")
    assert node.locate(1, 1) == (2, 12)
    assert node.locate(1, 8) == (2, 19)
    assert node.locate(1, 17) == (2, 28)  # just past the end, where "unexpected end" errors point
    check_locate(node, text)


def test_locate_plain_multiline(parser):
    text = "e: draw 2\n  then skip\n\n  done\n"
    node = load_text(text, "l.yaml")[0].get("e")
    assert node.value == "draw 2 then skip\ndone"
    assert node.locate(1, 8) == (2, 3)
    assert node.locate(2, 1) == (4, 3)
    check_locate(node, text)


def test_locate_single_quoted(parser):
    text = "e: 'it''s a ''test'''\n"
    node = load_text(text, "l.yaml")[0].get("e")
    assert node.value == "it's a 'test'"
    assert node.locate(1, 1) == (1, 5)
    assert node.locate(1, 5) == (1, 10)
    check_locate(node, text)


def test_locate_double_quoted(parser):
    text = 'e: "draw(2); skip()"\n'
    node = load_text(text, "l.yaml")[0].get("e")
    assert node.locate(1, 1) == (1, 5)
    assert node.locate(1, 13) == (1, 17)
    check_locate(node, text)


def test_locate_double_quoted_escapes_best_effort(parser):
    node = load_text('e: "a\\tb\\u00e9c"\n', "l.yaml")[0].get("e")
    assert node.value == "a\tbéc"
    assert node.locate(1, 2) == (1, 6)   # the escape that made the tab
    assert node.locate(1, 5) == (1, 15)  # exact again after the escapes


@pytest.mark.parametrize("header", ["|", "|-", "|+", "|1"])
def test_locate_literal_block(parser, header):
    text = f"card:\n  effect: {header}\n    draw 2\n      then skip\n\n    done\nnext: 1\n"
    node = load_text(text, "l.yaml")[0].get("card").get("effect")
    assert node.style == "|"
    value_lines = node.value.split("\n")
    if header == "|1":  # indentation 1 past the parent's 2: one space stays in the text
        assert value_lines[0] == " draw 2"
        assert node.locate(1, 1) == (3, 4)
    else:
        assert value_lines[:4] == ["draw 2", "  then skip", "", "done"]
        assert node.locate(1, 1) == (3, 5)
        assert node.locate(2, 1) == (4, 5)   # leading spaces of a more-indented line are exact too
        assert node.locate(2, 3) == (4, 7)
        assert node.locate(4, 4) == (6, 8)
    check_locate(node, text)


def test_locate_literal_with_tabs_and_crlf(parser):
    text = "e: |\r\n  a\r\n  \tb\r\n"
    node = load_text(text, "l.yaml")[0].get("e")
    assert node.value == "a\n\tb\n"
    assert node.locate(2, 1) == (3, 3)
    assert node.locate(2, 2) == (3, 4)


def test_locate_folded_best_effort(parser):
    text = "e: >\n  alpha beta\n  gamma\n"
    node = load_text(text, "l.yaml")[0].get("e")
    assert node.value == "alpha beta gamma\n"
    assert node.locate(1, 12) == (3, 3)
    check_locate(node, text)


def test_locate_through_an_alias(parser):
    text = "a: &x 'skip()'\nb: *x\n"
    node = load_text(text, "l.yaml")[0].get("b")
    assert node.locate(1, 1) == (1, 8)


def test_locate_never_fails_on_odd_input(parser):
    root = load_text("a: x\nb: 3\nc: [1]\n", "l.yaml")[0]
    for node in (root.get("a"), root.get("b"), root.get("c")):
        for line, col in ((0, 0), (1, 1), (5, 99), (-3, 2)):
            assert isinstance(node.locate(line, col), tuple)


def test_node_is_a_plain_dataclass():
    node = Node("scalar", "x", 1, 2, 1, 3, "p.yaml")
    assert node.key_line is None and node.style is None and node.raw is None
    assert node.to_python() == "x" and node.get("x") is None


# ---------------------------------------------------------------- never raise, never hang

YAMLISH = st.text(alphabet=st.sampled_from(list("ab1 -:?,[]{}#&*!|>'\"%@`\t\n\r.~\\0xé\x85\ufeff")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), YAMLISH))
def test_load_text_never_raises(text):
    for loader in {tree_builder._Loader, tree_builder._LOADER}:
        builder = tree_builder._Builder(text.lstrip("\ufeff"), "f.yaml", 64, 100, 200_000, loader)
        builder.build()  # no exception escapes, even without load_text's last-resort guard
    root, diags = load_text(text, "f.yaml")
    assert root is None or root.kind == "map"
    for diag in diags:
        assert diag.code.startswith("E1") and "internal error" not in diag.message
        assert diag.line >= 1 and diag.column >= 1
    if root is not None:
        root.to_python()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200))
def test_load_file_never_raises(tmp_path, data):
    path = write(tmp_path, data, "fuzz.yaml")
    root, diags, text = load_file(path)
    assert isinstance(text, str)
    assert root is not None or diags
    assert all("internal error" not in d.message for d in diags)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=12), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12), min_size=1, max_size=5))
def test_values_resolve_like_safeloader(data):
    text = yaml.safe_dump(data, allow_unicode=True)
    root, diags = load_text(text, "dump.yaml")
    assert diags == []
    # Compared with SafeLoader rather than `data`: PyYAML itself does not round-trip every string (e.g. NEL).
    assert root.to_python() == yaml.load(text, Loader=yaml.SafeLoader)


SAMPLES = [
    "a: 1\nb: [x, 'y', \"z\"]\nc:\n  - |\n    lit\n  - >\n    fold\n  - {k: v}\nd: &a plain text\ne: *a\n",
    "k: 'multi\n  line'\nl: \"esc\\taped\"\nm: |+\n  keep\n\nn: !!str 1\n? complex\n: value\n",
]


@pytest.mark.skipif(not HAS_LIBYAML, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", SAMPLES)
def test_pure_and_libyaml_build_identical_trees(text):
    trees = [tree_builder._Builder(text, "p.yaml", 64, 100, 200_000, loader).build()
             for loader in (tree_builder._Loader, tree_builder._CLoader)]
    assert trees[0] is not None and trees[0] == trees[1]


def test_load_file_accepts_path_objects(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    root, diags, _ = load_file(path)
    assert diags == [] and root.to_python() == {"a": 1}
    assert root.path == str(path)


def test_long_number_is_reported_not_raised(parser):
    root, diags = load_text("a: " + "9" * 5000 + "\nb: " + "9" * 400 + "\n", "n.yaml")
    assert where(diags) == [("E110", 1, 4)]
    assert root.get("b").value == int("9" * 400)  # absurd but readable numbers are fine here


def test_load_text_and_file_agree(tmp_path):
    text = "a: [1, 2]\nb: {c: d}\n"
    path = write(tmp_path, text)
    root, diags, _ = load_file(path)
    assert diags == [] and load_text(text, path) == (root, [])
