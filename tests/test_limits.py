"""Limits that keep `check` fast on any file under the size limit (issue 17.9).

The timings live in benchmarks/bench_limits.py; these tests check the diagnostics only.
"""

from __future__ import annotations

from pathlib import Path

from unodsl.effects import parse as effects
from unodsl.check import check_file
from unodsl.model.variant import Text

REPO = Path(__file__).resolve().parent.parent

HUGE_CARD = """\
unodsl: 1
extends: {classic}
name: Huge
deck:
  total: 109
cards:
  huge:
    name: Huge
    count: 1
    wild: true
    points: 50
    on_play: |
{body}"""


def _variant(tmp_path, body: str) -> Path:
    path = tmp_path / "huge.yaml"
    indented = "".join("      " + line + "\n" for line in body.split("\n"))
    path.write_text(HUGE_CARD.format(classic=REPO / "variants" / "classic.yaml", body=indented), encoding="utf-8")
    return path


def _codes(path) -> list[str]:
    return [d.header() for d in check_file(str(path), "/").diagnostics]


def test_an_effect_at_the_length_limit_is_parsed():
    line = "next draws 1\n"
    source = line * (effects.MAX_EFFECT_LENGTH // len(line))
    source += "#" * (effects.MAX_EFFECT_LENGTH - len(source))
    assert len(source) == effects.MAX_EFFECT_LENGTH
    tree, diags = effects.parse(Text(source))
    assert diags == [] and tree is not None


def test_an_effect_over_the_length_limit_is_refused_before_parsing():
    source = "next draws 1" + "+1" * effects.MAX_EFFECT_LENGTH
    tree, diags = effects.parse(Text(source))
    assert tree is None
    assert [d.header() for d in diags] == [
        f"<builtin>:1:1: E404 effect is {len(source):,} characters long, over the limit of "
        f"{effects.MAX_EFFECT_LENGTH:,}"]


def test_a_condition_over_the_length_limit_is_refused_the_same_way():
    source = "hand(self) > 1" + " and hand(next) > 1" * effects.MAX_EFFECT_LENGTH
    tree, diags = effects.parse(Text(source), start="condition")
    assert tree is None
    assert [d.code for d in diags] == ["E404"]
    assert "condition is" in diags[0].message


def test_a_huge_invalid_effect_gets_one_located_limit_diagnostic(tmp_path):
    # The 980 KB `1+1+...` of issue 17.9 (its block scalar ends with a newline): one E404 at its start.
    path = _variant(tmp_path, "next draws 1" + "+1" * 489_000)
    assert path.stat().st_size < 1_000_000
    assert _codes(path) == [f"{path}:13:7: E404 effect is 978,013 characters long, over the limit of "
                            f"{effects.MAX_EFFECT_LENGTH:,}"]


def test_a_huge_valid_effect_gets_the_limit_diagnostic_too(tmp_path):
    path = _variant(tmp_path, "\n".join(["let x = hand(next) + hand(self) * 2 - 1"] * 21_000))
    assert path.stat().st_size < 1_000_000
    codes = _codes(path)
    assert len(codes) == 1 and f"{path}:13:7: E404 effect is " in codes[0]


def test_effects_that_add_up_past_the_variant_s_budget_are_e405_once(tmp_path):
    # 99 effects just under the limit each took check 8 s; past the total, nothing more is parsed.
    line = "next draws 1\n"
    body = (line * ((effects.MAX_EFFECT_LENGTH - 100) // len(line))).rstrip("\n")
    cards = "".join(f"  c{i}:\n    name: C{i}\n    count: 1\n    wild: true\n    points: 50\n    on_play: |\n"
                    + "".join("      " + part + "\n" for part in body.split("\n")) for i in range(12))
    path = tmp_path / "many.yaml"
    path.write_text(f"unodsl: 1\nextends: {REPO / 'variants' / 'classic.yaml'}\nname: Many\ndeck:\n  total: 120\n"
                    f"cards:\n{cards}", encoding="utf-8")
    found = [d for d in check_file(str(path), "/").diagnostics if d.code.startswith("E4")]
    assert [d.code for d in found] == ["E405"]
    assert f"more than {effects.MAX_EFFECTS_LENGTH:,} characters" in found[0].message
