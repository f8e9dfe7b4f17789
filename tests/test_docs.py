"""The documentation cannot rot: every example in docs/language.md parses and checks, and
docs/diagnostics.md lists exactly the diagnostic codes the source can emit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from unodsl.engine.ops import OP_FLAGS, OPS
from unodsl.check import check_file, load
from unodsl.effects.check import Context
from unodsl.effects.parse import parse
from unodsl.engine.program import Program
from unodsl.model.variant import Text

REPO = Path(__file__).resolve().parent.parent
LANGUAGE = REPO / "docs" / "language.md"
DIAGNOSTICS = REPO / "docs" / "diagnostics.md"

# A fenced block: ```lang [words] ... ```; the info words mark what an example needs.
_FENCE = re.compile(r"^```([a-z]+)([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)

TEAMS_VARIANT = """\
unodsl: 1
name: Classic in teams (docs test)
extends: classic.yaml
players: {allowed: [4, 6, 8]}
teams: {size: 2}
"""


def _blocks(path: Path) -> list[tuple[str, tuple[str, ...], str, int]]:
    """(language, info words, text, line) of each fenced block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append((m.group(1), tuple(m.group(2).split()), m.group(3), line))
    return out


def _examples(lang: str, with_line: bool = False) -> list:
    return [pytest.param(info, body, *((line,) if with_line else ()), id=f"line{line}")
            for kind, info, body, line in _blocks(LANGUAGE) if kind == lang]


def docs_workspace(root: Path) -> Path:
    """Fill `root` with a copy of variants/, the teams variant and every `file=` example of docs/language.md."""
    shutil.copytree(REPO / "variants", root / "variants")
    (root / "variants" / "_docs_teams.yaml").write_text(TEAMS_VARIANT, encoding="utf-8")
    for kind, info, body, _ in _blocks(LANGUAGE):
        for word in info:
            if kind == "yaml" and word.startswith("file="):
                target = root / "variants" / word[len("file="):]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(body, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    return docs_workspace(tmp_path_factory.mktemp("docs"))


@pytest.fixture(scope="module")
def games(workspace):
    return {"classic": load(str(REPO / "variants" / "classic.yaml"), str(REPO)),
            "teams": load(str(workspace / "variants" / "_docs_teams.yaml"), str(workspace)),
            "flip": load(str(REPO / "variants" / "flip.yaml"), str(REPO))}


def _compile(games, info, body, condition: bool):
    game = games["teams" if "teams" in info else "flip" if "flip" in info else "classic"]
    where = "on_start" if "on_start" in info else ("condition" if condition else "on_play")
    where = next((w for w in ("turn_draw", "uno_penalty", "uno_catch", "round_end", "on_stack", "turn_start", "turn_end",
                              "card_played") if w in info), where)
    program = Program(game, OPS, OP_FLAGS)
    tree, diags = parse(Text(body), "condition" if condition else "effect")
    if condition:
        ok = program.compile_condition(tree, Context(where)) is not None
    else:
        ok = program.compile_effect(tree, Context(where), where) >= 0
    errors = [f"{d.line}:{d.column}: {d.code} {d.message}" for d in diags + program.checker.diags
              if d.severity == "error"]
    return ok, errors


def test_language_has_examples():
    kinds = {kind for kind, *_ in _blocks(LANGUAGE)}
    assert {"yaml", "effect", "condition"} <= kinds


@pytest.mark.parametrize("info, body", _examples("effect"))
def test_effect_examples_compile(games, info, body):
    ok, errors = _compile(games, info, body, condition=False)
    assert not errors
    assert ok


@pytest.mark.parametrize("info, body", _examples("condition"))
def test_condition_examples_compile(games, info, body):
    ok, errors = _compile(games, info, body, condition=True)
    assert not errors
    assert ok


@pytest.mark.parametrize("info, body, line", _examples("yaml", with_line=True))
def test_yaml_examples(workspace, info, body, line, monkeypatch):
    data = yaml.safe_load(body)
    if not (isinstance(data, dict) and "unodsl" in data):
        return                                      # a partial example: valid YAML is enough
    names = [w[len("file="):] for w in info if w.startswith("file=")]
    path = workspace / "variants" / (names[0] if names else f"_example_line{line}.yaml")
    if not names:
        path.write_text(body, encoding="utf-8")
    monkeypatch.chdir(workspace)
    result = check_file(str(path.relative_to(workspace)))
    assert [d.header() for d in result.diagnostics] == []
    assert result.game is not None


def test_partial_yaml_examples_that_name_effects_compile(games):
    """Effects inside partial YAML examples compile too (against the teams variant, a superset); a whole file
    (with its own piles, attributes, state: or rulings) is checked as a file by test_yaml_examples."""
    # turn.draw, uno.penalty (as text) and round.on_end compile in their own contexts.
    effect_keys = {"on_play", "on_start", "on_deal", "player_out", "after_draw", "default", "draw", "penalty", "on_end",
                   "on_stack", "turn_start", "turn_end", "card_played"}
    condition_keys = {"restriction", "may_draw_if", "eliminate_when", "on_stack_if"}
    seen = 0

    def walk(node, key=None):
        nonlocal seen
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, str) and key in effect_keys | condition_keys:
            seen += 1
            where = {"on_start": "on_start", "default": "on_start", "draw": "turn_draw", "penalty": "uno_penalty",
                     "on_end": "round_end", "on_stack": "on_stack", "turn_start": "turn_start", "turn_end": "turn_end",
                     "card_played": "card_played"}.get(key, "on_play")
            ok, errors = _compile(games, ("teams", where), node, condition=key in condition_keys)
            assert not errors, (key, node)
    for kind, info, body, _ in _blocks(LANGUAGE):
        data = yaml.safe_load(body) if kind == "yaml" else None
        if kind == "yaml" and not (isinstance(data, dict) and "unodsl" in data):   # whole files: test_yaml_examples
            walk(data)
    assert seen > 5


# ---------------------------------------------------------------------------
# docs/diagnostics.md and the codes in the source

_CODE = re.compile(r"\b([EW][1-9][0-9]{2})\b")


def _source_codes() -> set[str]:
    codes = set()
    for path in (REPO / "unodsl").rglob("*.py"):
        for m in re.finditer(r"[\"']([EW][0-9]{3})[\"' ]", path.read_text(encoding="utf-8")):
            codes.add(m.group(1))
    return codes


def _documented_codes() -> set[str]:
    text = DIAGNOSTICS.read_text(encoding="utf-8")
    return set(re.findall(r"^#+ *([EW][0-9]{3})\b", text, re.M))


def test_every_source_code_is_documented():
    missing = _source_codes() - _documented_codes()
    assert not missing, f"codes emitted by unodsl/ but not documented in docs/diagnostics.md: {sorted(missing)}"


def test_every_documented_code_is_in_the_source():
    extra = _documented_codes() - _source_codes()
    assert not extra, f"codes documented in docs/diagnostics.md but emitted nowhere: {sorted(extra)}"


def test_diagnostics_doc_mentions_only_real_codes():
    text = DIAGNOSTICS.read_text(encoding="utf-8")
    assert set(_CODE.findall(text)) <= _source_codes() | {"E1xx", "E2xx"}


def test_fragments_are_merged():
    assert not (REPO / "docs" / "diagnostics-e1.md").exists()
    assert not (REPO / "docs" / "diagnostics-e2.md").exists()


def test_language_doc_anchors_resolve():
    text = LANGUAGE.read_text(encoding="utf-8")
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchors.add(slug)
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert links
    assert set(links) <= anchors, sorted(set(links) - anchors)
