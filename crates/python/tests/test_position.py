"""tabia.Position against python-chess: the same FEN, moves, keys and rules."""

from __future__ import annotations

import random

import chess
import chess.polyglot
import chess.svg
import pytest

import tabia


def test_start_position():
    pos = tabia.Position()
    assert pos.fen() == chess.STARTING_FEN
    assert pos.turn is chess.WHITE
    assert sorted(m.uci() for m in pos.legal_moves) == sorted(
        m.uci() for m in chess.Board().legal_moves
    )
    assert pos.zobrist_hash() == chess.polyglot.zobrist_hash(chess.Board()) == 0x463B96181691FC9C


def test_random_games_agree_with_python_chess():
    rng = random.Random(30)
    for _ in range(40):
        ours, theirs = tabia.Position(), chess.Board()
        for _ in range(rng.randrange(1, 120)):
            moves = list(theirs.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            san = theirs.san(move)
            assert ours.san(move.uci()) == ours.san(move) == san
            assert ours.lan(move) == theirs.lan(move)
            assert ours.gives_check(move) == theirs.gives_check(move)
            assert ours.is_capture(move) == theirs.is_capture(move)
            assert ours.is_en_passant(move) == theirs.is_en_passant(move)
            assert ours.is_castling(move) == theirs.is_castling(move)
            assert ours.is_zeroing(move) == theirs.is_zeroing(move)
            # push_san and push_uci return the move played, as python-chess's do.
            if rng.random() < 0.5:
                assert ours.push_san(san) == move
            else:
                assert ours.push_uci(move.uci()) == move
            theirs.push(move)
            assert ours.peek() == theirs.peek() and ours.move_stack == theirs.move_stack
            assert ours.fen() == theirs.fen()
            assert ours.epd() == theirs.epd(en_passant="legal")
            assert ours.zobrist_hash() == chess.polyglot.zobrist_hash(theirs)
            assert ours.is_check() == theirs.is_check()
            assert ours.is_checkmate() == theirs.is_checkmate()
            assert ours.is_stalemate() == theirs.is_stalemate()
            assert set(ours.legal_moves) == set(theirs.legal_moves)
            assert ours.ep_square == theirs.ep_square
            assert ours.castling_rights == theirs.castling_rights
            assert ours.is_insufficient_material() == theirs.is_insufficient_material()
            assert ours.is_repetition() == theirs.is_repetition()
            if theirs.ply() % 4 == 0:  # python-chess's claims are slow to ask at every ply
                assert ours.outcome(claim_draw=True) == theirs.outcome(claim_draw=True)
            assert ours.outcome() == theirs.outcome()
            assert ours.piece_map() == theirs.piece_map()
            bitboards = [
                int(theirs.pieces(piece_type, color))
                for color in (chess.WHITE, chess.BLACK)
                for piece_type in chess.PIECE_TYPES
            ]
            assert ours.bitboards() == bitboards
            assert (ours.halfmove_clock, ours.fullmove_number) == (
                theirs.halfmove_clock,
                theirs.fullmove_number,
            )
            assert tabia.Position(theirs.fen()) == ours


def test_illegal_positions_give_every_reason(snapshot):
    fen = "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"
    assert not tabia.is_valid(fen)
    problems = tabia.status(fen)
    with pytest.raises(tabia.PositionError) as raised:
        tabia.Position(fen)
    assert raised.value.problems == problems
    assert isinstance(raised.value, ValueError)
    texts = [
        fen,
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "kk6/8/8/8/8/8/8/KK6 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
    ]
    out = "".join(f"{t}\n" + "".join(f"  {p}\n" for p in tabia.status(t)) for t in texts)
    snapshot("position-status", out)
    assert tabia.status(chess.STARTING_FEN) == []
    with pytest.raises(tabia.PositionError) as raised:
        tabia.Position("not a fen")
    assert raised.value.problems == []


def test_malformed_fens_say_what_is_wrong_and_where(snapshot):
    # Issue 40 §6: a ninth rank is said to be one (it was read as a Crazyhouse pocket holding
    # a king), with the number of ranks and the column; the other malformed placements too.
    texts = [
        "8/8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3/k w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/RNBQKBNR w KQkq - 0 1",
        "8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2X w - - 0 1",
        "4k3/8/8/9/8/8/8/4K3 w - - 0 1",
    ]
    out = []
    for text in texts:
        with pytest.raises(tabia.PositionError) as raised:
            tabia.Position(text)
        assert tabia.status(text) == [str(raised.value)], text
        out.append(f"{text}\n{raised.value}\n")
    snapshot("fen-errors", "\n".join(out))
    # A ninth rank without a king is still lichess's Crazyhouse pocket.
    assert tabia.Position("4k3/8/8/8/8/8/8/4K3/Qp w - - 0 1").fen() == "4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1"


def test_bad_moves_say_why():
    pos = tabia.Position()
    with pytest.raises(ValueError, match="Ke2"):
        pos.push_san("Ke2")
    with pytest.raises(ValueError, match="is UCI, not SAN"):
        pos.push_san("e2e4")
    with pytest.raises(ValueError, match="is not a UCI move"):
        pos.push_uci("e4")
    assert pos.fen() == chess.STARTING_FEN


def test_svg_and_text():
    pos = tabia.Position()
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert str(pos).splitlines()[0] == "r n b q k b n r"
    assert repr(pos) == f"Position({chess.STARTING_FEN!r})"
    copy = pos.copy()
    copy.push("e4")
    assert pos != copy and pos.fen() == chess.STARTING_FEN
