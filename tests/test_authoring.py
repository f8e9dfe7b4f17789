"""Authoring commands: `unodsl new` writes files that check clean; the shipped names in the Python API."""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

import unodsl
from unodsl.check import check_file
from unodsl.cli import main


def run(*args, cwd=None):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# ---------------------------------------------------------------- unodsl new


@pytest.mark.parametrize("args, kind", [((), "variant"), (("--extends", "no-mercy"), "variant"),
                                        (("--house-rule",), "house rule")])
def test_new_writes_a_file_that_checks_clean(tmp_path, monkeypatch, args, kind):
    monkeypatch.chdir(tmp_path)
    result = run("new", "our-rules", *args)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "our-rules.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=") and text.count("\n#") >= 3
    schema = text.split("$schema=", 1)[1].split("\n", 1)[0]
    assert os.path.isfile(schema) and schema.endswith("variant.schema.json")
    assert check_file("our-rules.yaml").diagnostics == []
    assert f"a {kind} that checks clean" in result.output
    if kind == "house rule":
        assert "id: our_rules" in text
        (tmp_path / "family.yaml").write_text("unodsl: 1\nname: Family\nextends: classic\ninclude: [our-rules.yaml]\n")
        assert check_file("family.yaml").diagnostics == []
        assert unodsl.load("family.yaml").variant.uno_penalty == 4
    else:
        game = unodsl.load("our-rules.yaml")
        assert game.new_game(4, seed=1).legal_actions()


def test_new_extends_a_file_by_its_path_from_the_new_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "ours.yaml").write_text("unodsl: 1\nname: Ours\nextends: classic\nuno: {penalty: 6}\n")
    (tmp_path / "sub").mkdir()
    result = run("new", "sub/kid", "--extends", "base/ours.yaml")
    assert result.exit_code == 0, result.output
    assert "extends: ../base/ours.yaml" in (tmp_path / "sub" / "kid.yaml").read_text()
    assert unodsl.load("sub/kid.yaml").variant.uno_penalty == 6


def test_new_never_replaces_a_file_without_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("my own text\n")
    result = run("new", "mine")
    assert result.exit_code == 2 and "exists; pass --force" in result.output
    assert (tmp_path / "mine.yaml").read_text() == "my own text\n"
    assert run("new", "mine", "--force").exit_code == 0
    assert "extends: classic" in (tmp_path / "mine.yaml").read_text()


def test_new_refuses_an_unknown_base_with_the_closest_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "x", "--extends", "clasic")
    assert result.exit_code == 2 and "did you mean 'classic'?" in result.output
    assert not (tmp_path / "x.yaml").exists()


def test_new_honours_the_umask(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o027)
    try:
        assert run("new", "private").exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "private.yaml").stat().st_mode) == 0o640


# ---------------------------------------------------------------- the Python API by name


def test_load_takes_a_shipped_name_and_house_rules_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = unodsl.load("classic")
    assert game.variant.name == "UNO (classic)"
    family = unodsl.load("classic", include=["stacking-mattel", "jump-in"])
    assert family.variant.stacking != "none" and family.variant.jump_in
    assert not game.variant.jump_in
    assert list(tmp_path.iterdir()) == []              # the composed file is never written


def test_load_of_an_unknown_name_says_the_closest_one():
    with pytest.raises(unodsl.DiagnosticError) as err:
        unodsl.load("clasic")
    assert err.value.diagnostics[0].code == "E101"
    assert "did you mean 'classic'?" in str(err.value)
    with pytest.raises(unodsl.DiagnosticError) as err:
        unodsl.load("classic", include=["stackin-mattel"])
    assert "did you mean 'stacking-mattel'?" in str(err.value)


def test_variants_lists_names_summaries_and_paths():
    entries = unodsl.variants()
    names = [e.name for e in entries]
    assert "classic" in names and "stacking-mattel" in names
    first_house_rule = next(i for i, e in enumerate(entries) if e.house_rule)
    assert not any(e.house_rule for e in entries[:first_house_rule])
    assert all(e.house_rule for e in entries[first_house_rule:])
    for entry in entries:
        assert os.path.isabs(entry.path) and os.path.isfile(entry.path)
        assert entry.summary.endswith(".") and entry.title
    classic = next(e for e in entries if e.name == "classic")
    assert unodsl.load(classic.path).variant.name == classic.title
