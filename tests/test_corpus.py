"""The invalid-input corpus: every file under tests/corpus/invalid/ pins its diagnostics exactly.

Each corpus file is a small variant with deliberate problems. A line that should be
reported carries a comment naming the code and column it expects:

    players: {min: 2, maxi: 4}       # expect: E201@19
    on_play: next draws red          # expect: E501@25 E502@30     (several on one line)

Inside a `|` effect block the comment is an effect-language comment, which the effect
lexer ignores, so it may sit on the very line it describes.

Problems with no line of their own (an empty file, a diagnostic reported in another
file) go in a sidecar `NAME.expect`, one `LINE:COLUMN CODE` per line, optionally
prefixed by a path relative to the corpus file (`../other.yaml 1:1 E101`).

Files too big or too binary to commit (non-UTF-8, >1 MB, 1000-deep nesting, alias
floods, FIFOs...) are generated into tmp_path by `GENERATED` below.

The check is exact: no missing diagnostic, no extra one, in any file, and
`check_file` must never raise.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from unodsl.check import check_file

CORPUS = Path(__file__).resolve().parent / "corpus"
INVALID = CORPUS / "invalid"
BASE = CORPUS / "base.yaml"

_EXPECT = re.compile(r"#\s*expect:\s*(?P<items>[^#]*)")
_ITEM = re.compile(r"^(?P<code>[EW]\d{3})@(?P<column>\d+)$")
_SIDECAR = re.compile(r"^(?:(?P<path>\S+)\s+)?(?P<line>\d+):(?P<column>\d+)\s+(?P<code>[EW]\d{3})$")

# Corpus files that expose a known bug: the test is expected to fail until it is fixed
# (strict, so a fix is noticed and the mark removed).
KNOWN_BUGS = {
    "pos_empty_block_condition.yaml":
        "source.Node.locate maps a position in an empty `|` block to the line after the header, "
        "column 1 (the next key), so E401 for an empty condition lands outside the value",
}


# ---------------------------------------------------------------- reading expectations


def _real(path: str | os.PathLike) -> str:
    return os.path.realpath(os.fspath(path))


def parse_expectations(path: Path) -> set[tuple[str, int, int, str]]:
    """The (real path, line, column, code) triples a corpus file announces, inline and in its sidecar."""
    expected: set[tuple[str, int, int, str]] = set()
    me = _real(path)
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.split("\n"), start=1):
        match = _EXPECT.search(line)
        if match is None:
            continue
        items = match.group("items").replace(",", " ").split()
        assert items, f"{path.name}:{number}: '# expect:' with nothing after it"
        for item in items:
            parsed = _ITEM.match(item)
            assert parsed, f"{path.name}:{number}: cannot read expectation {item!r} (want CODE@COLUMN)"
            expected.add((me, number, int(parsed.group("column")), parsed.group("code")))
    sidecar = path.with_suffix(".expect")
    if sidecar.exists():
        for number, line in enumerate(sidecar.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parsed = _SIDECAR.match(line)
            assert parsed, f"{sidecar.name}:{number}: cannot read {line!r} (want [PATH] LINE:COLUMN CODE)"
            where = _real(path.parent / parsed.group("path")) if parsed.group("path") else me
            expected.add((where, int(parsed.group("line")), int(parsed.group("column")), parsed.group("code")))
    return expected


def reported(path: str | os.PathLike, root: str | os.PathLike = CORPUS) -> set[tuple[str, int, int, str]]:
    """The (real path, line, column, code) of every error and warning `check_file` reports."""
    result = check_file(os.fspath(path), root=os.fspath(root))
    for diag in result.diagnostics:
        assert diag.severity in ("error", "warning"), diag
        assert diag.code[0] == ("W" if diag.severity == "warning" else "E"), diag
        assert diag.message and "\n" not in diag.message, diag
    return {(_real(d.path), d.line, d.column, d.code) for d in result.diagnostics}


def _shown(items: set[tuple[str, int, int, str]], origin: str) -> list[str]:
    """Expectations as short text for assertion messages."""
    out = []
    for path, line, column, code in sorted(items):
        prefix = "" if path == origin else os.path.relpath(path, os.path.dirname(origin)) + " "
        out.append(f"{prefix}{line}:{column} {code}")
    return out


def assert_exact(path: Path, expected: set, got: set) -> None:
    origin = _real(path)
    missing, extra = expected - got, got - expected
    assert not missing and not extra, (
        f"{path.name}: missing {_shown(missing, origin)}, unexpected {_shown(extra, origin)}")


# ---------------------------------------------------------------- the committed corpus


def corpus_files() -> list[Path]:
    return sorted(INVALID.glob("*.yaml"))


def _params():
    for path in corpus_files():
        marks = []
        if path.name in KNOWN_BUGS:
            marks.append(pytest.mark.xfail(reason=KNOWN_BUGS[path.name], strict=True))
        yield pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", list(_params()))
def test_corpus_file(path: Path) -> None:
    expected = parse_expectations(path)
    assert expected, f"{path.name} announces no expectation"
    assert_exact(path, expected, reported(path))


def test_base_is_clean() -> None:
    assert reported(BASE) == set()


def test_every_sidecar_has_its_yaml() -> None:
    for sidecar in INVALID.glob("*.expect"):
        assert sidecar.with_suffix(".yaml").exists(), sidecar.name


def test_corpus_size_and_coverage() -> None:
    files = corpus_files()
    codes = {code for path in files for (_, _, _, code) in parse_expectations(path)}
    assert len(files) >= 40, f"only {len(files)} corpus files"
    assert len(codes) >= 30, f"only {len(codes)} distinct codes: {sorted(codes)}"
    families = {code[:2] for code in codes}
    assert {"E1", "E2", "E3", "E4", "E5", "W3", "W5"} <= families, sorted(families)


def test_corpus_files_stay_small() -> None:
    """Big or binary inputs are generated at test time, never committed."""
    for path in CORPUS.rglob("*"):
        if path.is_file():
            assert path.stat().st_size < 16_000, path
            path.read_bytes().decode("utf-8")


# ---------------------------------------------------------------- generated inputs


@dataclass
class Generated:
    """An input written into tmp_path at test time, with the diagnostics it must produce."""

    name: str
    files: dict[str, bytes | str]           # relative path -> content ("<dir>" makes a directory)
    check: str                              # the file to check
    expected: list[tuple[str, int, int, str]]  # (relative path, line, column, code)


def _deep_flow(depth: int) -> str:
    return "unodsl: 1\nname: Deep\nsources: " + "[" * depth + "]" * depth + "\n"


def _deep_block(depth: int) -> str:
    lines = ["unodsl: 1", "name: Deep"]
    for level in range(depth):
        lines.append(" " * level + f"k{level}:")
    return "\n".join(lines) + "\n"


def _alias_flood(count: int) -> str:
    return "unodsl: 1\nname: Flood\na: &a x\nsources:\n" + "".join("  - *a\n" for _ in range(count))


def _billion_laughs() -> str:
    lines = ["unodsl: 1", "name: Laughs", 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 9):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _chain(count: int) -> dict[str, str]:
    """f0 extends f1 extends ... f{count-1}; the last one is a valid variant."""
    files = {}
    for i in range(count - 1):
        files[f"f{i}.yaml"] = f"extends: f{i + 1}.yaml\nunodsl: 1\nname: link {i}\n"
    files[f"f{count - 1}.yaml"] = BASE.read_text(encoding="utf-8")
    return files


_HEAD = "unodsl: 1\nname: Generated\n"

# An effect error on the second line of a `|` block, written with each kind of line break.
_BLOCK_EFFECT = (
    "extends: base.yaml\nunodsl: 1\nname: Line breaks\ncards:\n  x:\n    per_color: 1\n    points: 1\n"
    "    on_play: |\n      reverse\n      next draws red\n"
)


def _with_base(text: str) -> dict[str, str]:
    return {"base.yaml": BASE.read_text(encoding="utf-8"), "v.yaml": text}

GENERATED = [
    Generated("latin1", {"v.yaml": _HEAD.encode() + b"description: caf\xe9\n"}, "v.yaml",
              [("v.yaml", 3, 17, "E104")]),
    Generated("nul_byte", {"v.yaml": _HEAD.encode() + b"\x00\x01\x02binary"}, "v.yaml",
              [("v.yaml", 3, 1, "E104")]),
    Generated("utf16", {"v.yaml": "\ufeffunodsl: 1\n".encode("utf-16")}, "v.yaml", [("v.yaml", 1, 1, "E104")]),
    Generated("control_char", {"v.yaml": _HEAD + "description: a\x07b\n"}, "v.yaml", [("v.yaml", 3, 15, "E104")]),
    Generated("too_large", {"v.yaml": _HEAD + "description: " + "x" * 1_000_001 + "\n"}, "v.yaml",
              [("v.yaml", 1, 1, "E105")]),
    Generated("empty", {"v.yaml": ""}, "v.yaml", [("v.yaml", 1, 1, "E106")]),
    Generated("blank_lines", {"v.yaml": "\n\n   \n"}, "v.yaml", [("v.yaml", 1, 1, "E106")]),
    Generated("scalar_top", {"v.yaml": "just text\n"}, "v.yaml", [("v.yaml", 1, 1, "E107")]),
    Generated("deep_flow_1000", {"v.yaml": _deep_flow(1000)}, "v.yaml", [("v.yaml", 3, 10 + 63, "E114")]),
    Generated("deep_block_1000", {"v.yaml": _deep_block(1000)}, "v.yaml", [("v.yaml", 3 + 64, 65, "E114")]),
    Generated("alias_flood", {"v.yaml": _alias_flood(150)}, "v.yaml", [("v.yaml", 5 + 100, 5, "E113")]),
    Generated("billion_laughs", {"v.yaml": _billion_laughs()}, "v.yaml", [("v.yaml", 8, 15, "E113")]),
    Generated("crlf_block_effect", _with_base(_BLOCK_EFFECT.replace("\n", "\r\n")), "v.yaml",
              [("v.yaml", 10, 18, "E501")]),
    Generated("cr_block_effect", _with_base(_BLOCK_EFFECT.replace("\n", "\r")), "v.yaml",
              [("v.yaml", 10, 18, "E501")]),
    Generated("bom_block_effect", _with_base("\ufeff" + _BLOCK_EFFECT), "v.yaml", [("v.yaml", 10, 18, "E501")]),
    Generated("missing", {}, "nope.yaml", [("nope.yaml", 1, 1, "E101")]),
    Generated("directory", {"dir.yaml": "<dir>"}, "dir.yaml", [("dir.yaml", 1, 1, "E102")]),
    Generated("two_file_cycle",
              {"a.yaml": "extends: b.yaml\nunodsl: 1\nname: A\n",
               "b.yaml": "extends: a.yaml\nunodsl: 1\nname: B\n"},
              "a.yaml", [("b.yaml", 1, 10, "E321")]),
    Generated("too_many_files", _chain(70), "f0.yaml",
              [("f63.yaml", 1, 10, "E322")]),
]


def _materialize(case: Generated, folder: Path) -> None:
    for rel, content in case.files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if content == "<dir>":
            target.mkdir()
        elif isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", newline="")


@pytest.mark.parametrize("case", GENERATED, ids=[case.name for case in GENERATED])
def test_generated_input(case: Generated, tmp_path: Path) -> None:
    _materialize(case, tmp_path)
    path = tmp_path / case.check
    expected = {(_real(tmp_path / rel), line, column, code) for rel, line, column, code in case.expected}
    assert_exact(path, expected, reported(path, root=tmp_path))


@pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "win32", reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert reported(fifo, root=tmp_path) == {(_real(fifo), 1, 1, "E103")}


def test_all_codes_covered() -> None:
    """The committed corpus and the generated inputs together reach every family of codes."""
    codes = {code for path in corpus_files() for (_, _, _, code) in parse_expectations(path)}
    codes |= {code for case in GENERATED for (_, _, _, code) in case.expected}
    wanted = {
        "E101", "E102", "E104", "E105", "E106", "E107", "E110", "E111", "E112", "E113", "E114", "E115", "E116",
        "E201", "E202", "E203", "E204", "E205", "E206", "E207",
        "E301", "E302", "E303", "E306", "E307", "E308", "E309", "E310", "E311", "E312", "E313", "E314", "E315",
        "E316", "E320", "E321", "E322", "E323", "E330", "W301",
        "E401", "E402", "E403",
        "E501", "E502", "E503", "E504", "E506", "E507", "E511", "W501",
        "E350", "E530", "E531", "E532", "E533", "E534", "E535", "E536", "E537", "E538",
    }
    assert not wanted - codes, sorted(wanted - codes)


@pytest.mark.parametrize("path", sorted((CORPUS / "house-rules").glob("*.yaml")), ids=lambda p: p.stem)
def test_included_house_rules_are_clean_on_their_own(path: Path) -> None:
    assert reported(path) == set()
