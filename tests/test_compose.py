"""Composition problems (extends, include, house rules) are reported where the user can fix them."""

from __future__ import annotations

import os
from pathlib import Path

from unodsl.check import check_file

REPO = Path(__file__).resolve().parent.parent


def _codes(result) -> list[tuple[str, int, int, str]]:
    return [(os.path.realpath(d.path), d.line, d.column, d.code) for d in result.diagnostics]


def test_shipped_stacking_rules_included_together_are_e331_at_the_later_includes(tmp_path):
    variant = tmp_path / "three.yaml"
    variant.write_text(
        "unodsl: 1\n"
        "name: Three stacking rules\n"
        f"extends: {REPO}/variants/classic.yaml\n"
        "include:\n"
        f"  - {REPO}/variants/house-rules/stacking-mattel.yaml\n"
        f"  - {REPO}/variants/house-rules/stacking-plus4-on-plus2.yaml\n"
        f"  - {REPO}/variants/house-rules/stacking-progressive.yaml\n", encoding="utf-8")
    result = check_file(str(variant), root="/")
    me = os.path.realpath(variant)
    assert _codes(result) == [(me, 6, 5, "E331"), (me, 7, 5, "E331")]
    assert result.diagnostics[0].message == (
        "house rules 'stacking_mattel' and 'stacking_plus4_on_plus2' are both 'exclusive: stacking': "
        "include only one of them")


def test_one_stacking_rule_with_jump_in_is_clean(tmp_path):
    variant = tmp_path / "one.yaml"
    variant.write_text(
        "unodsl: 1\n"
        "name: One stacking rule\n"
        f"extends: {REPO}/variants/classic.yaml\n"
        f"include: [{REPO}/variants/house-rules/stacking-mattel.yaml, {REPO}/variants/house-rules/jump-in.yaml]\n",
        encoding="utf-8")
    assert check_file(str(variant), root="/").diagnostics == []


def test_e330_from_a_base_points_at_the_extends_line(tmp_path):
    """A conflict brought in by the base is reported at the checked file's `extends`, once."""
    corpus = REPO / "tests" / "corpus"
    base = tmp_path / "base.yaml"
    base.write_text(
        "unodsl: 1\nname: Base\n"
        f"extends: {corpus}/base.yaml\n"
        f"include: [{corpus}/house-rules/needs-ruling.yaml]\n", encoding="utf-8")
    variant = tmp_path / "mine.yaml"
    variant.write_text("unodsl: 1\nname: Mine\nextends: base.yaml\njump_in: {enabled: true}\n", encoding="utf-8")
    result = check_file(str(variant), root="/")
    assert _codes(result) == [(os.path.realpath(variant), 3, 10, "E330")]
