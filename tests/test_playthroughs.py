"""Golden playthroughs: a rule change shows up as a text diff (regenerate with
`python -m tools.playthroughs --write` and review the diff)."""

from __future__ import annotations

import glob
import os

import pytest

from tools.playthroughs import render_playthrough, trace_path

VARIANTS = sorted(glob.glob("variants/*.yaml"))


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
@pytest.mark.parametrize("path", VARIANTS)
def test_playthrough_matches_the_committed_trace(path, fast):
    expected_path = trace_path(path)
    assert os.path.exists(expected_path), f"missing {expected_path}: run python -m tools.playthroughs --write"
    with open(expected_path, encoding="utf-8") as handle:
        expected = handle.read()
    assert render_playthrough(path, fast=fast) == expected
