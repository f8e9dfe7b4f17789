"""Developer tool, not shipped: regenerate the rulebooks in docs/variants/ (`python -m tools.rulebooks`)."""

from __future__ import annotations

import sys
from pathlib import Path

from unodsl.check import check_file
from unodsl.rulebook.document import render_rulebook

REPO = Path(__file__).resolve().parent.parent


def rulebook_paths(repo: Path = REPO) -> list[tuple[Path, Path]]:
    """(variant file, rulebook file) for every variants/*.yaml, sorted by name."""
    return [(path, repo / "docs" / "variants" / (path.stem + ".md"))
            for path in sorted((repo / "variants").glob("*.yaml"))]


def write_rulebooks(repo: Path = REPO) -> tuple[list[Path], list[str]]:
    """Regenerate docs/variants/<variant>.md; returns (files written, problems) and removes stale pages."""
    written, problems = [], []
    out_dir = repo / "docs" / "variants"
    out_dir.mkdir(parents=True, exist_ok=True)
    expected = set()
    for variant_path, page in rulebook_paths(repo):
        expected.add(page.name)
        result = check_file(str(variant_path), str(repo))
        if result.errors or result.game is None:
            problems.extend(d.header() for d in result.errors or [])
            problems.append(f"{variant_path}: not compiled, rulebook not written")
            continue
        text = render_rulebook(result.game, "markdown")
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
        written.append(page)
    for stale in sorted(out_dir.glob("*.md")):
        if stale.name not in expected:
            stale.unlink()
    return written, problems


def main(argv: list[str] | None = None) -> int:
    """Regenerate every rulebook in docs/variants/; exit 1 if a variant does not compile."""
    written, problems = write_rulebooks()
    for page in written:
        print(f"wrote {page.relative_to(REPO)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":          # pragma: no cover
    sys.exit(main())
