"""The grammar and the schemas live in the package; the top-level grammar/ and schemas/ are copies of them.

Editors and other tools find them at the top of the repository, as the design card asks; the
package reads its own. A change to one without the other fails here.
"""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAIRS = [("grammar/effect.lark", "unodsl/effects/effect.lark")] + [
    (f"schemas/{p.name}", f"unodsl/source/schemas/{p.name}") for p in sorted((REPO / "schemas").glob("*.json"))]


@pytest.mark.parametrize("top,packaged", PAIRS)
def test_the_top_level_copy_is_identical_to_the_packaged_one(top, packaged):
    assert (REPO / top).read_bytes() == (REPO / packaged).read_bytes(), (
        f"{top} and {packaged} differ: edit {packaged}, then copy it to {top}")


def test_every_packaged_schema_has_a_top_level_copy():
    packaged = {p.name for p in (REPO / "unodsl" / "source" / "schemas").glob("*.json")}
    assert packaged == {p.name for p in (REPO / "schemas").glob("*.json")} and packaged
