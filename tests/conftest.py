"""Shared test set-up: no test reads or writes the user's check cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_check_cache(monkeypatch):
    monkeypatch.setenv("UNODSL_NO_CACHE", "1")
