"""filter, stats and tree: the facade's collection entry points."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

import tabia


def test_filter_by_keywords_and_by_command_line_text(ok_dir: Path):
    by_name = [g.headers["White"] for g in tabia.filter(ok_dir, white="Fischer")]
    assert by_name == ["Fischer, Robert J."]
    by_text = list(tabia.filter(ok_dir, criteria=["--white Fischer"]))
    assert [g.number for g in by_text] == [1] and by_text[0].file.endswith("sample.pgn")
    # Values of one criterion are alternatives; different criteria must all hold.
    either = tabia.filter(ok_dir, white=["Fischer", "alice"], errors="collect")
    assert sorted(g.headers["White"] for g in either) == ["Fischer, Robert J.", "alice"]
    assert list(tabia.filter(ok_dir, white="Fischer", result="1-0")) == []
    # The flag form of the command line, `--NAME=VALUE`, reads the same (issue 40 §6).
    for text in ["--white=Fischer", "white=Fischer", "--white  Fischer"]:
        assert [g.number for g in tabia.filter(ok_dir, criteria=[text])] == [1], text
    assert [g.number for g in tabia.filter(ok_dir, criteria="--tag=White=Fischer, Robert J.")] == [1]


def test_filter_features_and_positions(ok_dir: Path):
    mates = tabia.filter(ok_dir, checkmate=True, errors="collect")
    games = list(mates)
    assert all(g.end_board().is_checkmate() for g in games) and len(games) == 2
    assert [e.kind for e in mates.errors] == ["replay"]
    ruy = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    found = list(tabia.filter(ok_dir, position=ruy, errors="collect"))
    assert {g.file.rsplit("/", 1)[1] for g in found} == {"sample.pgn", "annotations.pgn", "no-tags.pgn"}


def test_filter_errors(ok_dir: Path, snapshot):
    messages = []
    for kwargs in ({"colour": "w"}, {"elo": "high"}, {"checkmate": "yes"}, {"to_move": "x"}):
        with pytest.raises(ValueError) as raised:
            tabia.filter(ok_dir, **kwargs)
        messages.append(f"{kwargs}: {raised.value}\n")
    # Criteria as command-line text: a tag compared without --tag is shown how to write it.
    for text in ["White=Carlsen", "--colour=w", "--elo=high"]:
        with pytest.raises(ValueError) as raised:
            tabia.filter(ok_dir, criteria=[text])
        messages.append(f"{text!r}: {raised.value}\n")
    snapshot("filter-errors", "".join(messages))


def test_stats(ok_dir: Path):
    stats = tabia.stats(ok_dir)
    assert stats["games"] == stats["read"] + stats["errors"]
    assert stats["games"] == len(list(tabia.read_games(ok_dir, errors="yield")))
    assert stats["input_errors"] == []
    missing = tabia.stats(ok_dir / "missing.pgn")
    assert len(missing["input_errors"]) == 1 and "missing.pgn" in missing["input_errors"][0]


def test_tree(ok_dir: Path):
    tree = tabia.tree(ok_dir, max_ply=8)
    first = tree.moves()
    assert first[0].san == "e4" and first[0].uci == "e2e4"
    assert sum(m.games for m in first) <= tree.games
    board = chess.Board()
    board.push_san("e4")
    after = tree.moves(board.fen())
    assert after == [] or after[0].games <= first[0].games
    assert tree.moves(tabia.Position(board.fen()))[0].uci == after[0].uci
    # The illegal move of move-numbers.pgn is at ply 10: beyond the 8 plies indexed.
    assert tree.errors == []
    assert [e.kind for e in tabia.tree(ok_dir).errors] == ["replay"]
