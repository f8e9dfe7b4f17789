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


CLASSIC = (REPO / "variants" / "classic.yaml").read_text(encoding="utf-8")


def _outside(tmp_path, own: str) -> Path:
    """A variant in tmp/inner/v.yaml that extends tmp/other/classic.yaml, with `own` lines of its own."""
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "classic.yaml").write_text(CLASSIC, encoding="utf-8")
    (tmp_path / "inner").mkdir()
    variant = tmp_path / "inner" / "v.yaml"
    variant.write_text("unodsl: 1\nname: Outside\nextends: ../other/classic.yaml\n" + own, encoding="utf-8")
    return variant


def test_e320_says_which_root_and_how_to_widen_it(tmp_path):
    variant = _outside(tmp_path, "")
    result = check_file(str(variant), root=str(tmp_path / "inner"))
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(3, 10, "E320")]
    assert result.diagnostics[0].message == (
        f"'../other/classic.yaml' is outside the root folder {os.path.realpath(tmp_path / 'inner')} "
        "(given with --root); pass --root DIR with a folder that holds both files to allow it")


def test_after_e320_only_the_files_own_problems_are_reported(tmp_path):
    """No E306/E307/E309/E502 invented from the missing base; own schema and effect syntax problems stay."""
    variant = _outside(tmp_path, (
        "deck: {total: 5}\n"
        "players: {max: 9}\n"
        "colour: red\n"
        "cards:\n"
        "  joker: {count: 1, wild: true, points: 50, on_play: 'rule.from_base and'}\n"
        "  tricky: {count: 1, wild: true, points: 50, on_play: next draws rule.from_base}\n"))
    result = check_file(str(variant), root=str(tmp_path / "inner"))
    assert sorted((d.line, d.code) for d in result.diagnostics) == [(3, "E320"), (6, "E201"), (8, "E401")]


def test_the_base_is_found_with_a_wider_root(tmp_path):
    variant = _outside(tmp_path, "")
    assert check_file(str(variant), root=str(tmp_path)).diagnostics == []


def test_a_nul_byte_in_a_link_is_a_located_diagnostic(tmp_path):
    for key, line in (("extends: \"a\\0b.yaml\"\n", 3), ("include: [\"a\\0b.yaml\"]\n", 3),
                      ("house_rule: {id: x, check_with: \"a\\0b.yaml\"}\n", 3)):
        variant = tmp_path / "v.yaml"
        variant.write_text("unodsl: 1\nname: Nul\n" + key, encoding="utf-8")
        result = check_file(str(variant), root=str(tmp_path))
        assert [(d.line, d.code) for d in result.diagnostics] == [(line, "E323")], result.diagnostics
        assert result.diagnostics[0].message == "cannot load 'a\\x00b.yaml': a path cannot contain a NUL character"


def test_a_default_root_is_never_slash_or_a_top_level_folder(tmp_path, monkeypatch):
    from unodsl.source.compose import find_root
    monkeypatch.chdir(tmp_path)
    assert find_root("/x/house.yaml") == find_root("/x/house.yaml")
    assert find_root("/x/house.yaml").folder == "/x"
    assert find_root("/x/y/house.yaml").folder == "/x/y"
    assert find_root("/x/y/z/house.yaml").folder == "/x/y"
    assert find_root("/x/house.yaml", "/").folder == "/"          # only when asked for


def test_a_file_in_a_folder_of_tmp_cannot_reach_its_siblings(tmp_path, monkeypatch):
    """/tmp/A/house.yaml used to get root /tmp, so `extends` reached every other folder of /tmp."""
    import tempfile
    monkeypatch.chdir(tmp_path)
    mine, other = Path(tempfile.mkdtemp(dir="/tmp")), Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        (other / "base.yaml").write_text(CLASSIC, encoding="utf-8")
        (mine / "house.yaml").write_text(f"unodsl: 1\nname: H\nextends: ../{other.name}/base.yaml\n",
                                         encoding="utf-8")
        result = check_file(str(mine / "house.yaml"))
        assert [d.code for d in result.diagnostics] == ["E320"]
        assert f"outside the root folder {os.path.realpath(mine)} (the file's own folder)" in result.diagnostics[0].message
    finally:
        for folder in (mine, other):
            for child in folder.iterdir():
                child.unlink()
            folder.rmdir()


def test_the_default_root_is_the_files_project(tmp_path, monkeypatch):
    project = tmp_path / "proj"
    (project / "a" / "b" / "c").mkdir(parents=True)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    (project / "shared.yaml").write_text(CLASSIC, encoding="utf-8")
    variant = project / "a" / "b" / "c" / "v.yaml"
    variant.write_text("unodsl: 1\nname: Deep\nextends: ../../../shared.yaml\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert check_file(str(variant)).diagnostics == []
    (tmp_path / "outside.yaml").write_text(CLASSIC, encoding="utf-8")
    variant.write_text("unodsl: 1\nname: Deep\nextends: ../../../../outside.yaml\n", encoding="utf-8")
    message = check_file(str(variant)).diagnostics[0].message
    assert f"root folder {os.path.realpath(project)} (the project folder: it holds pyproject.toml)" in message
    monkeypatch.chdir(tmp_path)                         # a working folder that holds the project widens it
    assert check_file(str(variant)).diagnostics == []


def test_an_inherited_deck_total_is_reported_in_the_users_file_at_the_cards_that_changed_it(tmp_path):
    """E307 for a total the user did not write: at the user's `cards` key, saying what to add there."""
    from unodsl.check import check_file
    mine = tmp_path / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: classic\ncards:\n"
                    "  extra_wild: {name: Extra Wild, count: 2, wild: true, points: 50, on_play: choose color}\n")
    result = check_file(str(mine))
    assert [d.header() for d in result.diagnostics] == [
        f"{mine}:4:1: E307 the card types add up to 110 cards, but deck.total, inherited from "
        "the shipped variant 'classic' (line 17), says 108: add 'deck: {total: 110}' to this file"]


def test_a_deck_total_changed_by_an_include_is_reported_at_the_include(tmp_path):
    from unodsl.check import check_file
    (tmp_path / "more.yaml").write_text("unodsl: 1\nname: More\ncards:\n"
                                        "  extra_wild: {name: Extra Wild, count: 2, wild: true, points: 50, on_play: choose color}\n")
    mine = tmp_path / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: classic\ninclude: [more.yaml]\n")
    result = check_file(str(mine))
    assert [d.header() for d in result.diagnostics] == [
        f"{mine}:4:11: E307 the card types add up to 110 cards, but deck.total, inherited from "
        "the shipped variant 'classic' (line 17), says 108: add 'deck: {total: 110}' to this file"]


def test_texts_stand_in_for_files_on_disk(tmp_path):
    """check_file(texts=...) reads an unsaved buffer in place of the file: its own file and a linked one."""
    from unodsl.check import check_file
    (tmp_path / "pyproject.toml").write_text("")
    base = tmp_path / "base.yaml"
    base.write_text("unodsl: 1\nname: Base\nextends: classic\n")
    mine = tmp_path / "mine.yaml"
    mine.write_text("unodsl: 1\nname: Mine\nextends: base.yaml\n")
    assert check_file(str(mine)).errors == []
    edited = check_file(str(mine), texts={str(base): "unodsl: 1\nname: Base\nextends: classic\nfoo: 1\n"})
    assert [(d.path, d.line, d.code) for d in edited.errors] == [(str(base), 4, "E201")]
    assert edited.links[str(base)].line == 3                  # reached through mine.yaml's extends
    broken = check_file(str(mine), texts={str(mine): "unodsl: 1\nname: [\n"})
    assert [d.code for d in broken.errors] == ["E110"] and base.read_text().endswith("classic\n")


def _project(tmp_path, text: str) -> str:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "mine.yaml").write_text("unodsl: 1\nname: Mine\nextends: classic\n" + text)
    return str(tmp_path / "mine.yaml")


def _found(path: str) -> list[tuple]:
    from unodsl.check import check_file
    return [(os.path.basename(d.path), d.line, d.column, d.code) for d in check_file(path).diagnostics]


def test_null_removes_an_inherited_number_range_and_a_range_over_one_is_named(tmp_path):
    clean = _project(tmp_path, 'cards:\n  number:\n    numbers: {"1-9": null, "1-5": 2, "6-9": 2}\n')
    assert _found(clean) == []
    twice = _project(tmp_path, 'cards:\n  number:\n    numbers: {"1-5": 2, "6-9": 2}\n')
    from unodsl.check import check_file
    errors = check_file(twice).errors
    assert [(d.line, d.code) for d in errors] == [(6, "E303"), (6, "E303")]
    assert "inherited from classic.yaml (line 22)" in errors[0].message and '"1-9": null' in errors[0].message


def test_removing_what_an_inherited_effect_reads_is_reported_in_the_users_file(tmp_path):
    ruling = _project(tmp_path, "rulings:\n  draw_two_start_skips: null\n")
    assert _found(ruling) == [("mine.yaml", 5, 25, "E502")]
    card = _project(tmp_path, "deck: {total: 100}\ncards:\n  draw_two: null\n")
    assert _found(card) == [("mine.yaml", 3, 10, "W301")]        # at the extends line, not in classic.yaml
    both = _project(tmp_path, "deck: {total: 100}\ncards:\n  draw_two: null\nrulings:\n  draw_two_start_skips: null\n")
    assert _found(both) == []
    typo = _project(tmp_path, "rulings:\n  draw_too_start_skips: null\n")
    assert _found(typo) == [("mine.yaml", 5, 25, "W302")]


def test_a_house_rule_that_adds_cards_fits_every_deck_with_total_null(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "plus.yaml").write_text(
        "unodsl: 1\nname: Plus one\nhouse_rule: {id: plus_one, summary: one more card, check_with: classic}\n"
        "deck: {total: null}\ncards:\n  wild_extra: {count: 1, wild: true, points: 50}\n")
    from unodsl.check import check_file
    assert check_file(str(tmp_path / "plus.yaml")).errors == []
    for base, cards in (("classic", 109), ("teams", None)):
        (tmp_path / "mine.yaml").write_text(f"unodsl: 1\nname: Mine\nextends: {base}\ninclude: [plus.yaml]\n")
        result = check_file(str(tmp_path / "mine.yaml"))
        assert result.errors == [] and "wild_extra" in result.variant.cards
        if cards:
            assert len(result.game.deck) == cards


def test_a_ruling_without_a_value_is_reported_and_compiles_without_an_internal_error(tmp_path):
    """Found by the restructuring fuzz: `value: null` on a ruling an effect reads gave E599 (the lowering had
    no rule for a ruling the folder leaves alone)."""
    path = _project(tmp_path, "rulings:\n  draw_two_start_skips: {value: null}\n")
    codes = [code for *_, code in _found(path)]
    assert "E202" in codes and "E599" not in codes
