"""Shared fixtures: the repository's PGN fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "pgn"


@pytest.fixture
def sample() -> Path:
    return FIXTURES / "ok" / "sample.pgn"


@pytest.fixture
def ok_dir() -> Path:
    return FIXTURES / "ok"
