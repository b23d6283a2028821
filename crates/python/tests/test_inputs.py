"""Every input a Python user has (lists, pathlib, open files, PGN text; issue 40 §4), nothing
lost on a cut file (§5), and the smaller things of §6."""

from __future__ import annotations

import io
import pathlib
import warnings

import chess
import chess.pgn
import pytest

import tabia

from conftest import FIXTURES

TWO = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 *\n"


def _whites(games) -> list[str]:
    return [g.headers.get("White") for g in games]


def test_paths_lists_tuples_and_pathlib(sample, ok_dir):
    other = ok_dir / "annotations.pgn"
    expected = _whites(tabia.read_games(str(sample), str(other)))
    assert _whites(tabia.read_games([sample, other])) == expected
    assert _whites(tabia.read_games((str(sample), other))) == expected
    assert _whites(tabia.read_games(sample, [other])) == expected
    assert _whites(tabia.read_games(pathlib.Path(sample), pathlib.Path(other))) == expected
    table = tabia.read_table([sample, other])
    assert table.column("White").to_pylist() == expected
    assert tabia.stats([sample, other])["games"] == len(expected)
    assert tabia.tree([sample, other]).games == len(expected)
    assert len(tabia.read_training([sample])["ply"]) == 85


def test_open_files_binary_and_text(sample):
    expected = _whites(tabia.read_games(sample))
    with open(sample, "rb") as f:
        games = list(tabia.read_games(f))
    assert _whites(games) == expected
    assert games[0].file == str(sample)
    with open(sample, encoding="utf-8") as f:
        assert _whites(tabia.read_games(f)) == expected
    with open(sample, "rb") as f:
        assert tabia.read_table(f).num_rows == 1
    assert _whites(tabia.read_games(io.BytesIO(sample.read_bytes()))) == expected
    assert list(tabia.read_games(io.StringIO(TWO)))[1].file == "<file>"


def test_pgn_text_as_str_and_bytes():
    assert _whites(tabia.read_games(TWO)) == ["A", "C"]
    assert _whites(tabia.read_games(TWO.encode())) == ["A", "C"]
    # A str is text when it holds a newline or starts with a tag: a one-line game too.
    assert _whites(tabia.read_games('[White "E"] 1. e4 *')) == ["E"]
    assert tabia.read_table(TWO).column("Black").to_pylist() == ["B", "D"]
    assert tabia.stats(TWO)["games"] == 2
    assert [g.file for g in tabia.read_games(TWO, TWO.encode())] == ["<string>"] * 2 + ["<bytes>"] * 2
    # Anything else is a path, and a missing one says so.
    with pytest.raises(tabia.GameError, match="no-such-file.pgn"):
        list(tabia.read_games("no-such-file.pgn"))


def test_compressed_bytes_in_memory(sample):
    zstandard = pytest.importorskip("zstandard")
    data = zstandard.ZstdCompressor().compress(sample.read_bytes())
    assert _whites(tabia.read_games(data)) == _whites(tabia.read_games(sample))


def test_a_mix_in_order(sample):
    whites = _whites(tabia.read_games(TWO, sample, [io.StringIO(TWO)]))
    assert whites == ["A", "C", "Fischer, Robert J.", "A", "C"]


def test_not_an_input():
    with pytest.raises(TypeError, match="not int"):
        tabia.read_games(3)


def test_read_game_as_python_chess(sample):
    with open(sample, encoding="utf-8") as f:
        ours = tabia.read_game(f)
    with open(sample, encoding="utf-8") as f:
        theirs = chess.pgn.read_game(f)
    assert ours.headers["White"] == theirs.headers["White"]
    assert ours.uci == [m.uci() for m in theirs.mainline_moves()]
    # One game at a time from an open file, None at the end.
    handle = io.StringIO(TWO + "\n" + TWO)
    whites = []
    while (game := tabia.read_game(handle)) is not None:
        whites.append(game.headers["White"])
    assert whites == ["A", "C", "A", "C"]
    handle = io.BytesIO(TWO.encode())
    assert tabia.read_game(handle).headers["White"] == "A"
    assert tabia.read_game(handle).uci == ["d2d4"]
    assert tabia.read_game(handle) is None
    # Text: its first game.
    assert tabia.read_game(TWO).headers["White"] == "A"
    assert tabia.read_game("") is None
    assert tabia.read_game(b"\n\n") is None


def test_read_game_of_a_file_without_results():
    handle = io.StringIO('[White "A"]\n\n1. e4 e5\n\n[White "B"]\n\n1. d4\n')
    assert tabia.read_game(handle).uci == ["e2e4", "e7e5"]
    assert tabia.read_game(handle).headers["White"] == "B"
    assert tabia.read_game(handle) is None


# §5: a cut file.


@pytest.fixture(scope="module")
def cut(tmp_path_factory) -> tuple[pathlib.Path, list[str]]:
    """A .pgn.zst cut in the middle, as a truncated download, and the White of every game
    in it whole."""
    zstandard = pytest.importorskip("zstandard")
    root = tmp_path_factory.mktemp("cut")
    game = (FIXTURES / "ok" / "sample.pgn").read_text()
    games = [game.replace("Fischer, Robert J.", f"Player {i}") for i in range(2000)]
    data = zstandard.ZstdCompressor().compress("\n\n".join(games).encode())
    path = root / "cut.pgn.zst"
    path.write_bytes(data[: len(data) // 2])
    return path, [f"Player {i}" for i in range(2000)]


def _read_before_the_cut(path) -> tuple[list[str], list[tabia.GameError]]:
    reader = tabia.read_games(path, errors="collect")
    return _whites(reader), reader.errors


def test_read_games_gives_the_games_before_the_cut(cut):
    path, whites = cut
    read, errors = _read_before_the_cut(path)
    assert 0 < len(read) < len(whites)
    assert read == whites[: len(read)]
    assert len(errors) == 1 and errors[0].kind == "input"


def test_stats_counts_the_games_before_the_cut(cut):
    path, _ = cut
    read, _ = _read_before_the_cut(path)
    stats = tabia.stats(path)
    assert stats["games"] == len(read)
    assert len(stats["input_errors"]) == 1
    assert str(path) in stats["input_errors"][0]


def test_read_table_keeps_the_games_before_the_cut(cut, sample):
    path, _ = cut
    read, _ = _read_before_the_cut(path)
    with pytest.raises(tabia.GameError) as raised:
        tabia.read_table(path, sample)
    # What was read is on the error: the cut file's games, and the file after it.
    assert raised.value.table.num_rows == len(read) + 1
    assert raised.value.table.column("White").to_pylist()[:3] == read[:3]
    assert raised.value.errors == [raised.value]
    assert raised.value.kind == "input"
    table, errors = tabia.read_table(path, errors="collect")
    assert table.num_rows == len(read) and len(errors) == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = tabia.read_table(path, moves=True, errors="warn")
    assert table.num_rows == 85 * len(read)
    assert len(caught) == 1 and "cut.pgn.zst" in str(caught[0].message)
    # Whole inputs: no errors to collect.
    table, errors = tabia.read_table(sample, errors="collect")
    assert (table.num_rows, errors) == (1, [])
    with pytest.raises(ValueError, match="errors='ignore'"):
        tabia.read_table(sample, errors="ignore")


def test_read_training_keeps_the_moves_before_the_cut(cut):
    path, _ = cut
    read, _ = _read_before_the_cut(path)
    with pytest.raises(tabia.GameError) as raised:
        tabia.read_training(path)
    assert len(raised.value.arrays["ply"]) == 85 * len(read)
    arrays, errors = tabia.read_training(path, errors="collect")
    assert len(arrays["ply"]) == 85 * len(read) and len(errors) == 1


def test_an_illegal_move_keeps_its_legal_plies():
    pgn = '[White "A"]\n\n1. e4 e5 2. Nf3 Ke7 3. Bb5 Kxe5 *\n'
    theirs = chess.pgn.read_game(io.StringIO(pgn))
    legal = [m.uci() for m in theirs.mainline_moves()]
    assert len(legal) == 5
    moves = tabia.read_table(pgn, moves=True)
    assert moves.column("uci").to_pylist() == legal
    games = tabia.read_table(pgn)
    assert "illegal move" in games.column("errors").to_pylist()[0][0]
    # ply_count counts the plies kept: the moves table has ply_count rows for every game.
    assert games.column("ply_count").to_pylist() == [5]
    assert games.column("final_zobrist").to_pylist() == [None]
    assert len(tabia.read_training(pgn)["ply"]) == 5
    nested = tabia.read_table(pgn, nested=True).column("moves").to_pylist()[0]
    assert [m["uci"] for m in nested] == legal


# §6: the smaller things.


def test_headers_set_are_written(sample):
    game = next(iter(tabia.read_games(sample)))
    unchanged = game.pgn()
    game.headers["White"] = "X"
    game.headers["Annotator"] = "Y"
    written = game.pgn()
    assert '[White "X"]' in written and '[Annotator "Y"]' in written
    assert "Fischer" in unchanged and "Fischer" not in written
    del game.headers["Annotator"]
    assert "Annotator" not in game.pgn()
    assert written.split("\n\n", 1)[1] == unchanged.split("\n\n", 1)[1]
    assert str(game) == game.pgn()


def test_jobs_must_be_a_count(sample):
    for call in (tabia.read_games, tabia.read_table, tabia.stats, tabia.tree, tabia.scan):
        with pytest.raises(ValueError, match="jobs=-1"):
            call(sample, jobs=-1)


def test_dir_lists_the_api():
    own = {n for n in dir(tabia) if not n.startswith("_")}
    extra = own - set(tabia.__all__) - {"spark", "dask"}
    assert not extra, f"tabia's namespace shows {sorted(extra)}"


def test_status_of_garbage_says_why():
    reasons = tabia.status("garbage")
    assert len(reasons) == 1 and reasons[0]
    assert tabia.is_valid("garbage") is False
    assert tabia.status(chess.STARTING_FEN) == []
