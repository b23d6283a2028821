"""Objects that travel: games, positions and moves pickle and copy by value, and cross process
boundaries (multiprocessing, and so Spark and Dask)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle

import chess

import tabia

from conftest import ROOT


def every_game() -> list[tabia.Game]:
    """Every game the repository's fixtures hold (variants, Chess960, null moves, Latin-1)."""
    return list(tabia.read_games(*sorted((ROOT / "fixtures").rglob("*.pgn")), errors="collect"))


def same_game(a: tabia.Game, b: tabia.Game) -> None:
    where = f"{a.file}:{a.number}"
    assert (a.file, a.number, a.offset, a.line) == (b.file, b.number, b.offset, b.line), where
    assert a.headers == b.headers and a.result == b.result, where
    assert a.uci == b.uci and a.san == b.san and a.warnings == b.warnings, where
    assert a.board() == b.board() and a.end_board() == b.end_board(), where
    assert a.end_board().move_stack == b.end_board().move_stack, where
    try:
        text = a.pgn()
    except ValueError:
        return
    assert text == b.pgn() and a.comments == b.comments, where


def test_games_pickle_and_copy_by_value():
    games = every_game()
    assert len(games) > 50
    variants = 0
    for game in games:
        for other in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game)):
            same_game(game, other)
        variants += "Variant" in game.headers
    assert variants > 0


def test_positions_pickle_with_their_moves():
    pos = tabia.Position()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        pos.push_san(san)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(pos, protocol=protocol))
        assert back == pos and back.move_stack == pos.move_stack
        assert back.can_claim_threefold_repetition()
        back.push_san("Ng8")
        assert back.is_repetition(3) and not pos.is_repetition(3)
        assert back.pop() == chess.Move.from_uci("f6g8") and back.pop() == pos.peek()
    for other in (copy.copy(pos), copy.deepcopy(pos), pos.copy()):
        assert other == pos and other.move_stack == pos.move_stack
        other.pop()
        assert other != pos and len(pos.move_stack) == 7
    # The root's en passant square, Chess960 castling and a variant's rules survive.
    texts = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ]
    for text in texts:
        pos = tabia.Position(text)
        for _ in range(4):
            pos.push(next(iter(pos.legal_moves)))
        pos.pop()
        back = pickle.loads(pickle.dumps(pos))
        assert back.fen() == pos.fen() and back.move_stack == pos.move_stack
        assert back.root().fen(en_passant="fen") == pos.root().fen(en_passant="fen")
        assert back.chess960 == pos.chess960
        assert sorted(m.uci() for m in back.legal_moves) == sorted(m.uci() for m in pos.legal_moves)


def test_values_pickle():
    pos = tabia.Position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    values = [
        tabia.Move.from_uci("e7e8q"),
        tabia.Move.from_uci("N@f3"),
        tabia.Move.null(),
        tabia.Piece.from_symbol("k"),
        pos.outcome(),
        tabia.Termination.STALEMATE,
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value


def end_board(game: tabia.Game) -> tabia.Position:
    return game.end_board()


def test_games_and_positions_cross_processes():
    games = [g for g in every_game() if "Variant" not in g.headers][:40]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        ends = pool.map(end_board, games)
        # Positions go to the workers too, and come back with their moves.
        fens = pool.map(tabia.Position.fen, ends)
    assert ends == [g.end_board() for g in games]
    assert fens == [g.end_board().fen() for g in games]
    assert [e.move_stack for e in ends] == [g.mainline_moves() for g in games]
