"""tabia.Position is a Board: one python-chess program run on chess.Board and on
tabia.Position gives the same answer at every step."""

from __future__ import annotations

import sys

import chess
import chess.variant
import pytest

import tabia


def sq(name: str) -> int:
    """python-chess's square numbers (0 = a1 … 63 = h8), without either library."""
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def plain(value):
    """A value of either library as plain data: a move as its fields, a piece as its type and
    color, an outcome as its termination's name, winner and result."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "from_square"):
        return ("move", value.uci(), value.from_square, value.to_square, value.promotion, value.drop)
    if hasattr(value, "piece_type"):
        return ("piece", value.piece_type, value.color, value.symbol())
    if hasattr(value, "termination"):
        return ("outcome", value.termination.name, value.winner, value.result())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    raise TypeError(f"no plain form for {value!r}")


def script(Board) -> list[tuple[str, object]]:
    """A python-chess program that knows only the board class it is given."""
    out: list[tuple[str, object]] = []

    def record(label, value):
        out.append((label, plain(value)))

    def state(label, board):
        record(f"{label}: fen", board.fen())
        record(f"{label}: epd", board.epd())
        record(f"{label}: board_fen", board.board_fen())
        record(f"{label}: turn", board.turn)
        record(f"{label}: clocks", [board.fullmove_number, board.halfmove_clock, board.ply()])
        record(f"{label}: ep_square", board.ep_square)
        record(f"{label}: castling_rights", board.castling_rights)
        record(f"{label}: legal_moves", sorted(m.uci() for m in board.legal_moves))
        record(f"{label}: legal count", [len(list(board.legal_moves)), board.legal_moves.count()])
        record(f"{label}: move_stack", board.move_stack)
        record(f"{label}: checks", [board.is_check(), board.is_checkmate(), board.is_stalemate()])
        record(f"{label}: material", board.is_insufficient_material())
        record(f"{label}: repetition", [board.is_repetition(), board.is_repetition(2)])
        record(f"{label}: claims", [board.can_claim_threefold_repetition(), board.can_claim_fifty_moves(),
                                    board.can_claim_draw()])
        record(f"{label}: fifty", [board.is_fifty_moves(), board.is_seventyfive_moves(),
                                   board.is_fivefold_repetition()])
        record(f"{label}: game over", [board.is_game_over(), board.is_game_over(claim_draw=True)])
        record(f"{label}: outcome", [board.outcome(), board.outcome(claim_draw=True)])
        record(f"{label}: result", [board.result(), board.result(claim_draw=True)])
        record(f"{label}: piece_map", board.piece_map())
        record(f"{label}: kings", [board.king(True), board.king(False)])

    def about(label, board, move):
        record(f"{label}: move", move)
        record(f"{label}: san", board.san(move))
        record(f"{label}: lan", board.lan(move))
        record(f"{label}: uci", board.uci(move))
        record(f"{label}: legal", [board.is_legal(move), move in board.legal_moves])
        record(f"{label}: kind", [board.gives_check(move), board.is_capture(move),
                                  board.is_en_passant(move), board.is_castling(move),
                                  board.is_kingside_castling(move),
                                  board.is_queenside_castling(move), board.is_zeroing(move)])

    # Scholar's mate, move by move, then taken back and played again.
    board = Board()
    state("start", board)
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]:
        record(f"push_san {san}", board.push_san(san))
    record("pieces", [board.piece_at(sq(s)) for s in ["e1", "f7", "h5", "e4", "e3"]])
    record("piece types", [board.piece_type_at(sq("h5")), board.color_at(sq("f6")),
                           board.color_at(sq("d4"))])
    mate = board.parse_san("Qxf7#")
    about("Qxf7#", board, mate)
    board.push(mate)
    state("mated", board)
    record("peek", board.peek())
    record("pop", board.pop())
    state("after pop", board)
    board.push(mate)
    record("variation_san", Board().variation_san(board.move_stack))
    try:
        Board().pop()
    except IndexError:
        record("pop empty", "IndexError")
    try:
        Board().push_san("Ke2")
    except ValueError:
        record("illegal san", "ValueError")

    # A threefold repetition, claimed a move early, then the fivefold.
    board = Board()
    for i, uci in enumerate(["g1f3", "g8f6", "f3g1", "f6g8"] * 4):
        record(f"shuffle {i}", board.push_uci(uci))
        state(f"shuffle {i}", board)

    # Stalemate, and a position where neither side can mate.
    board = Board("k7/8/8/1Q6/8/8/8/K7 w - - 0 1")
    stalemate = board.parse_san("Qb6")
    about("Qb6", board, stalemate)
    board.push(stalemate)
    state("stalemate", board)
    state("knight", Board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"))
    state("fifty", Board("8/8/4k3/8/8/3RK3/8/8 w - - 99 80"))

    # Castling both ways, and the rights a rook's move takes.
    board = Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    state("castling", board)
    for san in ["Rb1", "Rg8"]:
        about(san, board, board.parse_san(san))
        board.push_san(san)
        state(san, board)
        record(f"{san}: rights", [board.has_castling_rights(True), board.has_castling_rights(False),
                                  board.has_kingside_castling_rights(True),
                                  board.has_queenside_castling_rights(False)])
    for san in ["O-O", "O-O-O"]:
        move = board.parse_san(san)
        about(san, board, move)
        board.push(move)
        state(san, board)

    # En passant: the square, the capture, the pawn gone.
    board = Board()
    for san in ["e4", "d5", "e5", "f5"]:
        board.push_san(san)
    state("en passant", board)
    capture = board.parse_san("exf6")
    about("exf6", board, capture)
    board.push(capture)
    state("after exf6", board)
    record("taken", board.piece_at(sq("f5")))

    # Promotion to a queen with check, and to a knight.
    board = Board("8/P7/8/8/8/8/8/k6K w - - 0 1")
    queen = board.parse_san("a8=Q+")
    about("a8=Q+", board, queen)
    board.push(queen)
    state("queen", board)
    board.pop()
    record("push_uci a7a8n", board.push_uci("a7a8n"))
    state("knight promotion", board)

    # Copies: with the stack, without, and independent of the original.
    copy = board.copy()
    copy.pop()
    record("copy", [copy.fen(), board.fen(), len(board.copy(stack=False).move_stack)])
    record("root", board.root().fen())
    return out


def test_the_same_script_gives_the_same_answers():
    theirs = script(chess.Board)
    ours = script(tabia.Position)
    assert len(ours) == len(theirs) > 400
    for (label, value), (their_label, their_value) in zip(ours, theirs):
        assert label == their_label
        assert value == their_value, label


def test_values_equal_python_chess_values():
    move = tabia.Move.from_uci("e7e8q")
    assert move == chess.Move.from_uci("e7e8q") and chess.Move.from_uci("e7e8q") == move
    assert move != chess.Move.from_uci("e7e8n") and move != "e7e8q"
    assert {move} == {chess.Move.from_uci("e7e8q")} and hash(move) == hash(chess.Move.from_uci("e7e8q"))
    assert (move.from_square, move.to_square, move.promotion, move.drop) == (52, 60, tabia.QUEEN, None)
    assert repr(move) == repr(chess.Move.from_uci("e7e8q")) == "Move.from_uci('e7e8q')"
    assert str(move) == "e7e8q" and move.uci() == "e7e8q"
    assert tabia.Move(12, 28) == tabia.Move.from_uci("e2e4")
    assert not tabia.Move.null() and tabia.Move.null().uci() == "0000"
    assert tabia.Move.from_uci("N@f3") == chess.Move.from_uci("N@f3")
    with pytest.raises(ValueError):
        tabia.Move.from_uci("e2")
    piece = tabia.Piece.from_symbol("n")
    assert piece == chess.Piece.from_symbol("n") and hash(piece) == hash(chess.Piece.from_symbol("n"))
    assert (piece.piece_type, piece.color, piece.symbol()) == (tabia.KNIGHT, tabia.BLACK, "n")
    assert repr(piece) == "Piece.from_symbol('n')" and piece.unicode_symbol() == "♞"
    assert tabia.SQUARE_NAMES == chess.SQUARE_NAMES
    assert tabia.square_name(28) == "e4" and tabia.parse_square("e4") == chess.E4
    with pytest.raises(ValueError):
        tabia.parse_square("i9")
    assert [t.name for t in tabia.Termination] == [t.name for t in chess.Termination]
    assert [t.value for t in tabia.Termination] == [t.value for t in chess.Termination]
    outcome = tabia.Outcome(tabia.Termination.CHECKMATE, tabia.WHITE)
    assert outcome == chess.Outcome(chess.Termination.CHECKMATE, chess.WHITE)
    assert repr(outcome) == repr(chess.Outcome(chess.Termination.CHECKMATE, chess.WHITE))
    assert outcome.result() == "1-0" and outcome.termination is tabia.Termination.CHECKMATE


def test_moves_of_either_library_are_played():
    pos, board = tabia.Position(), chess.Board()
    pos.push(chess.Move.from_uci("e2e4"))
    pos.push("e7e5")
    pos.push(tabia.Move.from_uci("g1f3"))
    pos.push("Nc6")
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6"]:
        board.push_uci(uci)
    assert pos == board and pos.move_stack == board.move_stack
    assert pos.san(chess.Move.from_uci("f1b5")) == "Bb5"
    assert chess.Move.from_uci("f1b5") in pos.legal_moves
    with pytest.raises(ValueError, match="e1e3"):
        pos.push(chess.Move.from_uci("e1e3"))
    with pytest.raises(TypeError, match="expected a Move"):
        pos.push(3.5)
    assert pos.is_legal(chess.Move.from_uci("e1e3")) is False
    # A null move, as python-chess plays it.
    pos.push(chess.Move.null())
    board.push(chess.Move.null())
    assert pos.fen() == board.fen() and pos.pop() == chess.Move.null()


def test_conversions_both_ways():
    board = chess.Board()
    for san in ["e4", "c5", "Nf3", "d6", "d4"]:
        board.push_san(san)
    pos = tabia.Position.from_board(board)
    assert pos.fen() == board.fen() and pos.move_stack == board.move_stack
    assert pos.root().fen() == chess.STARTING_FEN
    back = pos.to_board()
    assert isinstance(back, chess.Board) and back == board and back.move_stack == board.move_stack
    assert pos.pop() == board.pop()
    # Chess960: castling as king takes rook, kept both ways.
    fen960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    board = chess.Board(fen960, chess960=True)
    pos = tabia.Position.from_board(board)
    assert pos.chess960 and pos.fen() == board.fen()
    assert sorted(m.uci() for m in pos.legal_moves) == sorted(m.uci() for m in board.legal_moves)
    assert pos.to_board().chess960
    assert tabia.Position(fen960, chess960=True) == pos
    # A variant: its board class comes back.
    zh = chess.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        zh.push_san(san)
    pos = tabia.Position.from_board(zh)
    assert pos.fen() == zh.fen()
    assert type(pos.to_board()) is chess.variant.CrazyhouseBoard and pos.to_board().fen() == zh.fen()
    with pytest.raises(TypeError, match="python-chess Board"):
        tabia.Position.from_board("not a board")


def test_a_game_end_board_has_its_moves(sample):
    (game,) = tabia.read_games(sample)
    end = game.end_board()
    assert len(end.move_stack) == len(game.uci) == 85
    assert [m.uci() for m in end.move_stack] == game.uci == [m.uci() for m in game.mainline_moves()]
    assert end.root() == game.board()
    assert game.mainline()[0].move == chess.Move.from_uci("e2e4")
    end.pop()
    assert end == game.positions()[-2]


def test_to_board_says_python_chess_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "chess", None)
    with pytest.raises(ImportError, match="pip install chess"):
        tabia.Position().to_board()
