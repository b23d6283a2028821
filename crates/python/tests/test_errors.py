"""Errors are Python exceptions with their place: messages and attributes, snapshotted."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import tabia

from conftest import FIXTURES, ROOT


def describe(error: tabia.GameError) -> str:
    file = Path(error.file).relative_to(ROOT) if Path(error.file).is_absolute() else error.file
    return (
        f"{error.kind} {file} game={error.number} line={error.line} column={error.column}\n"
        f"  message: {error.message}\n"
    )


def test_syntax_errors_of_the_fixtures(snapshot):
    out = []
    for path in sorted((FIXTURES / "err").glob("*.pgn")):
        items = list(tabia.read_games(path, errors="yield"))
        for item in items:
            if isinstance(item, tabia.GameError):
                assert str(item).startswith(f"{path}:{item.line}:{item.column}: game {item.number}: ")
                assert str(item).endswith(item.message)
                out.append(describe(item))
        # Games and errors add up to every game the file holds, numbered in order.
        numbers = [g.number for g in items if g.number is not None]
        assert numbers == list(range(1, len(numbers) + 1))
    snapshot("syntax-errors", "".join(out))


def test_raise_goes_on_after_the_error(ok_dir: Path):
    reader = tabia.read_games(ok_dir / "move-numbers.pgn", ok_dir / "sample.pgn")
    with pytest.raises(tabia.GameError) as raised:
        next(reader)
    error = raised.value
    assert isinstance(error, ValueError)
    assert (error.kind, error.number, error.line, error.column) == ("replay", 1, 1, 55)
    assert error.message == (
        "illegal move 5... O-O (ply 10): cannot castle kingside: a piece stands between king and rook"
    )
    # The iterator goes on with the next game.
    assert next(reader).headers["White"] == "Fischer, Robert J."


def test_collect_keeps_what_it_leaves_out(ok_dir: Path):
    reader = tabia.read_games(ok_dir, errors="collect")
    games = list(reader)
    assert [e.kind for e in reader.errors] == ["replay"]
    assert len(games) + len(reader.errors) == len(list(tabia.read_games(ok_dir, errors="yield")))


def test_an_input_that_cannot_be_opened(tmp_path: Path, sample: Path):
    missing = tmp_path / "missing.pgn"
    items = list(tabia.read_games(missing, sample, errors="yield"))
    assert isinstance(items[0], tabia.GameError)
    assert (items[0].kind, items[0].file, items[0].number) == ("input", str(missing), None)
    assert "missing.pgn" in str(items[0])
    assert isinstance(items[1], tabia.Game)
    with pytest.raises(tabia.GameError, match="missing.pgn"):
        tabia.read_table(missing)


def test_a_truncated_download(tmp_path: Path, sample: Path):
    # Large enough to span several batches: the games of the batch the cut falls in are not
    # given (tabia-stream reads a batch whole or reports its input's error).
    data = gzip.compress(sample.read_bytes() * 2000)
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(data[: len(data) // 2])
    items = list(tabia.read_games(cut, errors="yield"))
    assert isinstance(items[-1], tabia.GameError)
    assert items[-1].kind == "input"
    assert all(isinstance(g, tabia.Game) for g in items[:-1])
    assert len(items) > 500
    assert "read error" in str(items[-1])


def test_bad_arguments():
    with pytest.raises(ValueError, match='errors="skip": expected "raise", "yield" or "collect"'):
        tabia.read_games("x.pgn", errors="skip")
    with pytest.raises(ValueError, match='no column "whiteelo" in the games table'):
        tabia.read_table(FIXTURES / "ok" / "sample.pgn", columns=["whiteelo"])


def test_scan_ends_with_the_input_error(tmp_path: Path, sample: Path):
    import pyarrow as pa

    reader = tabia.scan(sample, tmp_path / "missing.pgn")
    first = reader.read_next_batch()
    assert first.num_rows == 1
    with pytest.raises(pa.ArrowException, match="missing.pgn"):
        reader.read_next_batch()
