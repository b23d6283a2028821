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


SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture
def snapshot():
    """Compares text with tests/snapshots/NAME.txt; TABIA_UPDATE_SNAPSHOTS=1 writes it."""
    import os

    def check(name: str, text: str) -> None:
        path = SNAPSHOTS / f"{name}.txt"
        if os.environ.get("TABIA_UPDATE_SNAPSHOTS") == "1" or not path.exists():
            if os.environ.get("CI") == "true" and not path.exists():
                raise AssertionError(f"snapshot {path} missing (run with TABIA_UPDATE_SNAPSHOTS=1)")
            path.write_text(text)
        assert text == path.read_text(), f"snapshot {path.name} differs"

    return check
