"""The rules reference is ours: nothing cites a file outside the repository, and every section
number a variant file cites has an anchor in the docs/rules/ page that holds it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "docs" / "rules"
VARIANTS = sorted((REPO / "variants").rglob("*.yaml"))

# A section's first number names its page (docs/rules/README.md says the same).
PAGE_OF = {"1": "classic.md", "2": "teams.md", "3": "frozen-2.md", "4": "all-wild.md",
           "5": "trolls-band-together.md", "6": "house-rules.md", "7": "no-mercy.md",
           "8": "flip.md", "9": "uno-attack.md", "10": "uno-h2o.md"}
# A section number in a comment: 1.4, 2.2.11.3, 10.4 (a lone "6" is too common a word to check).
_COMMENT_SECTION = re.compile(r"(?<![\w.])((?:10|[1-9])(?:\.[0-9]+)+)(?![\w.]*[0-9])")
_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def anchors(page: str) -> set[str]:
    """The anchors `<a id="...">` of one docs/rules/ page."""
    return set(_ANCHOR.findall((RULES / page).read_text(encoding="utf-8")))


def cited_sections(path: Path) -> list[tuple[int, str]]:
    """(line, section) for every section a variant or scenario file cites."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code, _, comment = line.partition("#")
        m = re.search(r'\b(?:rule|section):\s*"([0-9][0-9.]*)"', code)
        if m:
            out.append((n, m.group(1)))
        out += [(n, s) for s in _COMMENT_SECTION.findall(comment)]
    return out


def test_nothing_cites_the_private_reference():
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                           check=True).stdout.split()
    this = Path(__file__).relative_to(REPO).as_posix()
    offenders = [f for f in files if f != this and (REPO / f).is_file()
                 and "rules-reference.md" in (REPO / f).read_text(encoding="utf-8", errors="replace")]
    assert offenders == []


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_cited_section_has_an_anchor(path: Path):
    missing = [f"{n}: {s} (docs/rules/{PAGE_OF[s.split('.')[0]]})"
               for n, s in cited_sections(path) if s not in anchors(PAGE_OF[s.split(".")[0]])]
    assert missing == []


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_cited_page_exists(path: Path):
    text = path.read_text(encoding="utf-8")
    pages = re.findall(r"docs/rules/([\w.-]+\.md)", text)
    assert pages, "the file should say which docs/rules/ page its section numbers refer to"
    assert [p for p in pages if not (RULES / p).is_file()] == []


def test_every_ruling_is_named_on_its_page():
    """A ruling key a variant sets appears, with its section's anchor, on the cited page."""
    missing = []
    for path in VARIANTS:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for key, ruling in (data.get("rulings") or {}).items():
            page = PAGE_OF[str(ruling["section"]).split(".")[0]]
            if f"`{key}`" not in (RULES / page).read_text(encoding="utf-8"):
                missing.append(f"{path.name}: {key} not on {page}")
    assert missing == []


def test_readme_links_every_page():
    readme = (RULES / "README.md").read_text(encoding="utf-8")
    for page in RULES.glob("*.md"):
        if page.name != "README.md":
            assert f"]({page.name})" in readme, page.name
