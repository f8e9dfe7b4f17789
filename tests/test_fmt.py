"""`unodsl fmt`: one layout, idempotent, every line of the user's text kept; and the pre-commit hooks."""

from __future__ import annotations

import glob
import os
import re
import stat
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from unodsl.check import check_file
from unodsl.cli import main
from unodsl.source.formatting import format_variant

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted(glob.glob(str(REPO / "variants" / "*.yaml")) + glob.glob(str(REPO / "variants" / "house-rules" / "*.yaml"))
                 + glob.glob(str(REPO / "docs" / "examples" / "*.yaml")))

MESSY = """\
# The Garcias' rules: the header stays on top.
name: The Garcias
unodsl: 1

extends: classic


cards:   
  # our own card
  wild_swap_hands:
    on_play: |
         let p = choose player others
         if hand(p) > hand(self):   # only a bigger hand
           swap hands with p
         # then
         choose color
    points: 40        # a wild's worth
    wild: true
    count: 2
    name: Wild Swap Hands
deck: {total: 110}
uno:
  penalty: 4
description: |
  Text   with   its own   spacing,
     kept as it is.
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_a_messy_file_is_laid_out_and_keeps_every_line():
    out = format_variant(MESSY, "messy.yaml").text
    assert out.splitlines()[:5] == ["# The Garcias' rules: the header stays on top.", "unodsl: 1",
                                    "name: The Garcias", "description: |", "  Text   with   its own   spacing,"]
    keys = [line.split(":")[0] for line in out.splitlines() if re.match(r"^[a-z]", line)]
    assert keys == ["unodsl", "name", "description", "extends", "deck", "cards", "uno"]
    card = out.split("  wild_swap_hands:\n", 1)[1]
    assert card.startswith("    name: Wild Swap Hands\n    count: 2\n    wild: true\n    points: 40        # a wild's worth\n")
    assert ("    on_play: |\n      let p = choose player others\n      if hand(p) > hand(self):   # only a bigger hand\n"
            "          swap hands with p\n      # then\n      choose color\n") in card
    assert "  # our own card\n  wild_swap_hands:" in out
    assert "     kept as it is.\n" in out                        # a text block that is not an effect: as it was
    assert "\n\n\n" not in out and not any(line != line.rstrip() for line in out.splitlines())
    strip = lambda text: Counter(line.strip() for line in text.splitlines() if line.strip())  # noqa: E731
    assert strip(out) == strip(MESSY)
    assert yaml.safe_load(out)["cards"]["wild_swap_hands"]["points"] == 40
    assert format_variant(out, "messy.yaml").text == out


@pytest.mark.parametrize("path", SHIPPED, ids=[os.path.relpath(p, REPO) for p in SHIPPED])
def test_every_shipped_file_formats_to_a_fixed_point_that_checks_the_same(path, tmp_path):
    text = Path(path).read_text(encoding="utf-8")
    out = format_variant(text, path)
    assert out.text is not None, out.reason
    assert format_variant(out.text, path).text == out.text
    # The formatted copy, beside the original (links are relative), checks exactly as the original.
    copy = Path(path).with_name(".fmt-test-" + Path(path).name)
    try:
        copy.write_text(out.text, encoding="utf-8")
        got = [(d.line, d.code) for d in check_file(str(copy)).diagnostics]
        want = [(d.line, d.code) for d in check_file(path).diagnostics]
        assert len(got) == len(want)
    finally:
        copy.unlink()


def test_a_file_that_cannot_be_formatted_safely_is_left_as_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("unodsl: 1\nname: [unclosed\n")
    (tmp_path / "tabs.yaml").write_text("unodsl: 1\nname: x\ncards:\n  skip:\n    on_play: |\n      skip\tnext\n")
    result = run("fmt", "bad.yaml", "tabs.yaml")
    assert result.exit_code == 1
    assert "bad.yaml left as it was: it is not valid YAML" in result.output
    assert "tabs.yaml left as it was: it holds tab characters" in result.output
    assert (tmp_path / "bad.yaml").read_text() == "unodsl: 1\nname: [unclosed\n"


def test_check_reports_and_fmt_writes_keeping_mode_and_crlf(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "v.yaml"
    path.write_bytes(MESSY.replace("\n", "\r\n").encode())
    path.chmod(0o600)
    result = run("fmt", "--check", ".")
    assert result.exit_code == 1 and "would reformat ./v.yaml" in result.output
    assert path.read_bytes() == MESSY.replace("\n", "\r\n").encode()
    assert run("fmt", "v.yaml").exit_code == 0
    data = path.read_bytes()
    assert b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    result = run("fmt", "--check", "v.yaml")
    assert result.exit_code == 0 and "0 file(s) would be reformatted, 1 already formatted" in result.output


def test_fmt_diff_shows_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("name: v\nunodsl: 1\nextends: classic\n")
    result = run("fmt", "--diff", "v.yaml")
    assert result.exit_code == 1 and "+unodsl: 1\n name: v\n-unodsl: 1\n" in result.output
    assert (tmp_path / "v.yaml").read_text() == "name: v\nunodsl: 1\nextends: classic\n"


def test_new_writes_a_formatted_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (("new", "a"), ("new", "b", "--house-rule")):
        assert run(*args).exit_code == 0
    assert run("fmt", "--check", "a.yaml", "b.yaml").exit_code == 0


# ---------------------------------------------------------------- pre-commit


def test_the_pre_commit_hooks_run_the_commands_they_name(tmp_path, monkeypatch):
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["unodsl-check", "unodsl-fmt"]
    for hook in hooks:
        assert {"id", "name", "entry", "language"} <= set(hook) and hook["language"] == "python"
        assert hook["entry"].split()[0] == "unodsl"
        assert re.search(hook["exclude"], "variants/scenarios/classic.yaml")
        assert not re.search(hook["exclude"], "variants/classic.yaml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("unodsl: 1\nname: v\nextends: classic\n")
    for hook in hooks:                        # pre-commit runs `entry FILE...`
        result = run(*hook["entry"].split()[1:], "v.yaml")
        assert result.exit_code == 0, (hook["id"], result.output)
