//! `tabia.Position`: a legal chess position and the moves that led to it, with python-chess's
//! `Board` vocabulary where the concept is the same (`push`, `pop`, `move_stack`, `legal_moves`
//! as `Move`s, `piece_at`, `outcome()`, `is_repetition()`, `san()`, `turn`, `fen()`).

use pyo3::{
    exceptions::{PyIndexError, PyTypeError, PyValueError},
    prelude::*,
    types::{PyBool, PyDict, PyTuple},
};
use tabia::position::{
    EpRule, GameVariant, MoveStack, ParsePositionError, RenderOptions, render_ascii, render_svg,
    shakmaty::{CastlingSide, Color, Move as ChessMove, Piece, Role},
};

use crate::{
    board::{self, LegalMoves, Move, Outcome},
    convert,
};

pyo3::create_exception!(
    tabia,
    PositionError,
    PyValueError,
    "A text that is not a position (FEN, EPD, `startpos`), or a position that is not legal. \
     Attribute `problems`: every reason the position is not legal (empty for a syntax error)."
);

/// A legal position (standard chess, Chess960 or a lichess variant) and the moves played to
/// reach it (`move_stack`, `pop()`, repetitions). A `Position` is legal by construction:
/// `tabia.status(fen)` lists every reason a text is not.
#[pyclass(module = "tabia")]
#[derive(Clone)]
pub(crate) struct Position {
    stack: MoveStack,
}

impl From<tabia::Position> for Position {
    fn from(pos: tabia::Position) -> Position {
        Position {
            stack: MoveStack::new(pos),
        }
    }
}

impl From<MoveStack> for Position {
    fn from(stack: MoveStack) -> Position {
        Position { stack }
    }
}

/// The position of `text` under `variant` (None: as the text implies), or `PositionError`
/// with every problem.
pub(crate) fn parse_variant(text: &str, variant: Option<GameVariant>) -> PyResult<tabia::Position> {
    tabia::Position::from_arg_variant(text, variant).map_err(|error| {
        let problems: Vec<String> = match &error {
            ParsePositionError::Illegal(e) => {
                e.problems().iter().map(ToString::to_string).collect()
            }
            _ => Vec::new(),
        };
        let err = PositionError::new_err(error.to_string());
        Python::attach(|py| match err.value(py).setattr("problems", problems) {
            Ok(()) => err,
            Err(failed) => failed,
        })
    })
}

fn parse(text: &str) -> PyResult<tabia::Position> {
    parse_variant(text, None)
}

/// Every reason `fen` is not a legal position; empty when it is one. A text that is not a
/// FEN, EPD or `startpos` at all has one reason: why it cannot be read.
#[pyfunction]
pub(crate) fn status(fen: &str) -> Vec<String> {
    match tabia::Position::from_arg(fen) {
        Ok(_) => Vec::new(),
        Err(ParsePositionError::Illegal(e)) => {
            e.problems().iter().map(ToString::to_string).collect()
        }
        Err(error) => vec![error.to_string()],
    }
}

/// Whether `fen` is a legal position.
#[pyfunction]
pub(crate) fn is_valid(fen: &str) -> bool {
    status(fen).is_empty()
}

/// The en-passant rule of python-chess's `en_passant=` argument (also `read_table`'s, for
/// the moves' `fen` and `ep_square`).
pub(crate) fn ep_rule(en_passant: &str) -> PyResult<EpRule> {
    match en_passant {
        "legal" => Ok(EpRule::Legal),
        "fen" => Ok(EpRule::Always),
        "xfen" => Ok(EpRule::PseudoLegal),
        other => Err(PyValueError::new_err(format!(
            "en_passant={other:?}: expected \"legal\", \"fen\" or \"xfen\""
        ))),
    }
}

fn color(white: bool) -> Color {
    Color::from_white(white)
}

#[pymethods]
impl Position {
    /// A position from a FEN, a partial FEN (missing fields take `w - - 0 1`), an EPD or
    /// `startpos` (the default); `chess960=True` for Chess960 castling whatever the castling
    /// letters say. Raises `PositionError` with every problem of an illegal one.
    #[new]
    #[pyo3(signature = (fen = "startpos", *, chess960 = false))]
    fn new(fen: &str, chess960: bool) -> PyResult<Position> {
        let rules = chess960.then_some(GameVariant {
            chess960,
            ..GameVariant::STANDARD
        });
        parse_variant(fen, rules).map(Position::from)
    }

    /// The position of a python-chess board, its move stack included (so `pop()` and
    /// repetitions work as on the board). Raises ValueError for a board tabia cannot hold (an
    /// illegal position, a variant it does not play).
    #[staticmethod]
    fn from_board(board: &Bound<'_, PyAny>) -> PyResult<Position> {
        convert::from_board(board).map(Position::from)
    }

    /// The position as a python-chess `chess.Board` (a `chess.variant` board for a variant),
    /// with the move stack. Needs python-chess (ImportError otherwise).
    fn to_board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_board(py, &self.stack)
    }

    /// The FEN. `en_passant`: `"legal"` (the default, as python-chess: the square only when a
    /// capture is legal), `"fen"` (after every double push) or `"xfen"` (when a pawn could
    /// capture, legal or not).
    #[pyo3(signature = (*, en_passant = "legal"))]
    fn fen(&self, en_passant: &str) -> PyResult<String> {
        Ok(self.pos().fen(ep_rule(en_passant)?))
    }

    /// The EPD: the FEN's first four fields (no operations).
    #[pyo3(signature = (*, en_passant = "legal"))]
    fn epd(&self, en_passant: &str) -> PyResult<String> {
        Ok(self.pos().epd(ep_rule(en_passant)?))
    }

    /// The piece placement, the FEN's first field (without a Crazyhouse pocket).
    fn board_fen(&self) -> String {
        let epd = self.pos().epd(EpRule::Legal);
        let placement = epd.split(' ').next().unwrap_or_default();
        placement.split('[').next().unwrap_or(placement).to_owned()
    }

    /// Plays a move: a `Move`, a python-chess `Move` or a move as text (UCI, SAN or long
    /// algebraic). Raises ValueError for an illegal move, saying why (python-chess's `push`
    /// does not check).
    fn push(&mut self, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.resolve(m)?;
        self.play(m)
    }

    /// Plays a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) and returns it as a `Move`. Raises
    /// ValueError for an illegal or ambiguous move, saying why.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        let m = self.parse_san_move(san)?;
        self.play(m)?;
        Ok(self.to_move(m))
    }

    /// Plays a move in UCI (`g1f3`, `e7e8q`, `e1g1`, `0000`) and returns it as a `Move`.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        let m = self.parse_uci_move(uci)?;
        self.play(m)?;
        Ok(self.to_move(m))
    }

    /// The legal move of a SAN (`Nf3`), as a `Move`; ValueError, saying why, for anything else.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        self.parse_san_move(san).map(|m| self.to_move(m))
    }

    /// The legal move of a UCI string (`g1f3`), as a `Move`; ValueError, saying why, for
    /// anything else.
    fn parse_uci(&self, uci: &str) -> PyResult<Move> {
        self.parse_uci_move(uci).map(|m| self.to_move(m))
    }

    /// Takes back the last move and returns it; IndexError when no move was played.
    fn pop(&mut self) -> PyResult<Move> {
        match self.stack.pop() {
            Some(m) => Ok(self.to_move(m)),
            None => Err(PyIndexError::new_err("pop from empty move stack")),
        }
    }

    /// The last move played; IndexError when there is none.
    fn peek(&self) -> PyResult<Move> {
        match self.stack.last() {
            Some(m) => Ok(self.to_move(m)),
            None => Err(PyIndexError::new_err("peek from empty move stack")),
        }
    }

    /// The moves played, first to last (a new list at each access).
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mode = self.pos().castling_mode();
        self.stack
            .moves()
            .map(|m| Move::of_option(m, mode))
            .collect()
    }

    /// Forgets the moves played: the current position becomes the root.
    fn clear_stack(&mut self) {
        self.stack.keep_last(0);
    }

    /// The position before the first move of the stack, with no stack.
    fn root(&self) -> Position {
        Position::from(self.stack.root().clone())
    }

    /// The SAN of a move (a `Move`, a python-chess `Move` or text) in this position, as
    /// python-chess writes it (`Nf3`, `exd5`, `O-O`, `e8=Q#`; `--` for a null move).
    fn san(&self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(match self.resolve(m)? {
            Some(m) => self.pos().san(m).to_string(),
            None => "--".to_owned(),
        })
    }

    /// The long algebraic notation of a move (`Ng1-f3`, `e4xd5`, `O-O`), as python-chess's.
    fn lan(&self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(match self.resolve(m)? {
            Some(m) => self.pos().lan(m).to_string(),
            None => "--".to_owned(),
        })
    }

    /// The UCI of a move in this position (Chess960 castling as king takes rook).
    fn uci(&self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(m)?;
        Ok(Move::of_option(m, self.pos().castling_mode()).uci_string())
    }

    /// The moves in SAN with move numbers, from this position (`1. e4 e5 2. Nf3`; `1... e5`
    /// when Black starts), as python-chess's `variation_san`. ValueError at an illegal move.
    fn variation_san(&self, moves: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut board = self.clone();
        let mut out = String::new();
        for (i, m) in moves.try_iter()?.enumerate() {
            let m = board.resolve(&m?)?;
            let pos = board.pos();
            let number = pos.fullmoves().get();
            if !out.is_empty() {
                out.push(' ');
            }
            match (pos.turn(), i) {
                (Color::White, _) => out.push_str(&format!("{number}. ")),
                (Color::Black, 0) => out.push_str(&format!("{number}... ")),
                (Color::Black, _) => {}
            }
            match m {
                Some(m) => out.push_str(&pos.san(m).to_string()),
                None => out.push_str("--"),
            }
            board.play(m)?;
        }
        Ok(out)
    }

    /// The legal moves, as `Move`s: iterate them, `len()`, `in`, `count()`. A snapshot of
    /// this position (python-chess's is a live view of its board).
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves::of(self.pos())
    }

    /// Whether a move (a `Move`, a python-chess `Move`, text) is legal here.
    fn is_legal(&self, m: &Bound<'_, PyAny>) -> bool {
        matches!(self.resolve(m), Ok(Some(_)))
    }

    /// Whether the legal move `m` gives check.
    fn gives_check(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_some_and(|m| self.pos().gives_check(m)))
    }

    /// Whether the legal move `m` captures (en passant included).
    fn is_capture(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_some_and(ChessMove::is_capture))
    }

    /// Whether the legal move `m` captures en passant.
    fn is_en_passant(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_some_and(ChessMove::is_en_passant))
    }

    /// Whether the legal move `m` castles.
    fn is_castling(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_some_and(ChessMove::is_castle))
    }

    /// Whether the legal move `m` castles kingside.
    fn is_kingside_castling(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self
            .resolve(m)?
            .is_some_and(|m| m.castling_side() == Some(CastlingSide::KingSide)))
    }

    /// Whether the legal move `m` castles queenside.
    fn is_queenside_castling(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self
            .resolve(m)?
            .is_some_and(|m| m.castling_side() == Some(CastlingSide::QueenSide)))
    }

    /// Whether the legal move `m` resets the fifty-move clock (a capture or a pawn move).
    fn is_zeroing(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_some_and(ChessMove::is_zeroing))
    }

    /// The piece on `square` (0 = a1 … 63 = h8), or None.
    fn piece_at(&self, square: i64) -> PyResult<Option<board::Piece>> {
        Ok(self
            .pos()
            .board()
            .piece_at(board::square(square)?)
            .map(board::Piece::from))
    }

    /// The piece type on `square` (1 = pawn … 6 = king), or None.
    fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        Ok(self
            .pos()
            .board()
            .role_at(board::square(square)?)
            .map(u8::from))
    }

    /// The color of the piece on `square` (True for White), or None.
    fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        Ok(self
            .pos()
            .board()
            .color_at(board::square(square)?)
            .map(Color::is_white))
    }

    /// The square of `color`'s king, or None (Horde's White, Antichess).
    fn king(&self, color: bool) -> Option<u8> {
        self.pos().board().king_of(self::color(color)).map(u8::from)
    }

    /// Every piece by its square, a dict from h8 down to a1 as python-chess's `piece_map()`.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        let pieces: Vec<_> = self.pos().board().iter().collect();
        for (square, piece) in pieces.into_iter().rev() {
            map.set_item(u8::from(square), board::Piece::from(piece))?;
        }
        Ok(map)
    }

    /// The squares of `color`'s pieces of `piece_type`, in ascending order (python-chess's
    /// `pieces()` is a `SquareSet`; this is a list).
    fn pieces(&self, piece_type: u8, color: bool) -> PyResult<Vec<u8>> {
        let role = Role::try_from(piece_type)
            .map_err(|_| PyValueError::new_err(format!("not a piece type: {piece_type}")))?;
        let piece = Piece {
            role,
            color: self::color(color),
        };
        Ok(self
            .pos()
            .board()
            .by_piece(piece)
            .into_iter()
            .map(u8::from)
            .collect())
    }

    /// The side to move: True for White (python-chess's `chess.WHITE`).
    #[getter]
    fn turn(&self) -> bool {
        self.pos().turn() == Color::White
    }

    /// The halfmove clock of the fifty-move rule.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos().halfmoves()
    }

    /// The fullmove number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos().fullmoves().get()
    }

    /// Plies since the start of the game, by the move number: `2 * (fullmove_number - 1)`,
    /// plus one when Black is to move.
    fn ply(&self) -> u32 {
        2 * (self.fullmove_number() - 1) + u32::from(!self.turn())
    }

    /// The square behind a pawn that just moved two squares, a capture there legal or not
    /// (python-chess's `ep_square`); None.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.pos().ep_square(EpRule::Always).map(u8::from)
    }

    /// The squares of the rooks that may still castle, as a bitboard (python-chess's
    /// `castling_rights`: bit 0 is a1).
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.pos().castles().castling_rights().0
    }

    /// Whether `color` may still castle on either side.
    fn has_castling_rights(&self, color: bool) -> bool {
        self.pos().castles().has_color(self::color(color))
    }

    /// Whether `color` may still castle kingside.
    fn has_kingside_castling_rights(&self, color: bool) -> bool {
        self.pos()
            .castles()
            .has(self::color(color), CastlingSide::KingSide)
    }

    /// Whether `color` may still castle queenside.
    fn has_queenside_castling_rights(&self, color: bool) -> bool {
        self.pos()
            .castles()
            .has(self::color(color), CastlingSide::QueenSide)
    }

    /// Whether castling is Chess960's (king takes rook in UCI).
    #[getter]
    fn chess960(&self) -> bool {
        self.pos().castling_mode().is_chess960()
    }

    /// Always True: a `Position` is legal by construction (python-chess's `is_valid()`).
    fn is_valid(&self) -> bool {
        true
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos().is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        self.pos().is_stalemate()
    }

    /// Whether neither side has the material to mate (python-chess's rule).
    fn is_insufficient_material(&self) -> bool {
        self.pos().is_insufficient_material()
    }

    /// Whether the current position occurred at least `count` times, counting back through
    /// the moves played to the last irreversible one.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.stack.is_repetition(count)
    }

    /// Whether the current position occurred five times: drawn without a claim.
    fn is_fivefold_repetition(&self) -> bool {
        self.stack.is_repetition(5)
    }

    /// Whether 100 plies went by without a capture or pawn move (and a move is possible).
    fn is_fifty_moves(&self) -> bool {
        self.stack.is_fifty_moves()
    }

    /// Whether 150 plies went by without a capture or pawn move: drawn without a claim.
    fn is_seventyfive_moves(&self) -> bool {
        self.stack.is_seventyfive_moves()
    }

    /// Whether the side to move may claim a draw by threefold repetition (now, or by the
    /// move it is about to play).
    fn can_claim_threefold_repetition(&self) -> bool {
        self.stack.can_claim_threefold_repetition()
    }

    /// Whether the side to move may claim a draw by the fifty-move rule (now, or by the move
    /// it is about to play).
    fn can_claim_fifty_moves(&self) -> bool {
        self.stack.can_claim_fifty_moves()
    }

    /// Whether the side to move may claim a draw.
    fn can_claim_draw(&self) -> bool {
        self.stack.can_claim_draw()
    }

    /// How the game ended here, or None: checked in python-chess's order (checkmate,
    /// insufficient material, stalemate, the 75-move rule, fivefold repetition; with
    /// `claim_draw`, the fifty-move rule and threefold repetition).
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        self.stack
            .outcome(claim_draw)
            .map(|ending| Outcome::of(ending, self.pos().turn()))
    }

    /// Whether the game is over (`outcome()` is not None).
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.stack.outcome(claim_draw).is_some()
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.stack.outcome(claim_draw).map_or("*", |e| e.result())
    }

    /// The Polyglot Zobrist hash (python-chess's `chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> u64 {
        self.pos().zobrist()
    }

    /// tabia's position key (pieces, side, castling, legal en passant; variant state), as
    /// hex: equal keys, equal positions.
    fn key(&self) -> String {
        self.pos().key().to_string()
    }

    /// The 12 piece bitboards (bit 0 is a1, bit 63 h8): White's pawns, knights, bishops,
    /// rooks, queens, king, then Black's; the layout of the moves table's training columns.
    fn bitboards(&self) -> Vec<u64> {
        bitboards(self.pos())
    }

    /// An ASCII diagram.
    fn __str__(&self) -> String {
        render_ascii(&self.pos().setup(EpRule::Legal), &RenderOptions::default())
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.pos().fen(EpRule::Legal))
    }

    /// The board as SVG (a notebook draws it).
    fn _repr_svg_(&self) -> String {
        render_svg(&self.pos().setup(EpRule::Legal), &RenderOptions::default())
    }

    /// Equal positions: the same FEN (moves played to reach them do not count, as for
    /// python-chess's boards); a python-chess board compares by its FEN.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let fen = self.pos().fen(EpRule::Legal);
        let same = if let Ok(other) = other.extract::<PyRef<'_, Position>>() {
            other.pos().fen(EpRule::Legal) == fen
        } else if other.hasattr("move_stack")? && other.hasattr("fen")? {
            other.call_method0("fen")?.extract::<String>()? == fen
        } else {
            return Ok(py.NotImplemented());
        };
        Ok(PyBool::new(py, same).to_owned().into_any().unbind())
    }

    fn __hash__(&self) -> u64 {
        self.pos().zobrist()
    }

    /// A copy; `stack=False` leaves the moves played out, `stack=N` keeps the last N
    /// (python-chess's `board.copy()`).
    #[pyo3(signature = (*, stack = None))]
    fn copy(&self, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let mut copy = self.clone();
        match stack {
            // True keeps every move; False none; N the last N.
            Some(keep) if keep.is_instance_of::<PyBool>() => {
                copy.stack
                    .keep_last(if keep.is_truthy()? { usize::MAX } else { 0 });
            }
            Some(keep) => copy.stack.keep_last(keep.extract()?),
            None => {}
        }
        Ok(copy)
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// What pickle keeps: the root FEN, the rules, the moves in UCI.
    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        convert::state(py, &self.stack)
    }

    fn __setstate__(&mut self, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        self.stack = convert::from_state(state)?;
        Ok(())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let state = slf.borrow().__getstate__(py)?;
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                PyTuple::empty(py).into_any(),
                state.into_any(),
            ],
        )
    }
}

impl Position {
    /// The position inside.
    pub(crate) fn inner(&self) -> &tabia::Position {
        self.stack.position()
    }

    fn pos(&self) -> &tabia::Position {
        self.stack.position()
    }

    /// A position from a FEN, EPD or `startpos`, or `PositionError`.
    pub(crate) fn parse_text(text: &str) -> PyResult<tabia::Position> {
        parse(text)
    }

    fn to_move(&self, m: Option<ChessMove>) -> Move {
        Move::of_option(m, self.pos().castling_mode())
    }

    fn illegal(&self, e: impl std::fmt::Display) -> PyErr {
        PyValueError::new_err(format!("{e} in {}", self.pos().fen(EpRule::Legal)))
    }

    /// Plays a legal move, or a null move (ValueError in check).
    fn play(&mut self, m: Option<ChessMove>) -> PyResult<()> {
        match m {
            Some(m) => self.stack.push(m),
            None if self.stack.push_null() => {}
            None => return Err(self.illegal("a null move is not possible in check")),
        }
        Ok(())
    }

    /// The legal move an object names here (None: the null move): a `Move`, a python-chess
    /// `Move`, or text in any notation tabia reads.
    fn resolve(&self, obj: &Bound<'_, PyAny>) -> PyResult<Option<ChessMove>> {
        if let Ok(text) = obj.extract::<&str>() {
            if text == "0000" || text == "--" {
                return Ok(None);
            }
            return self
                .pos()
                .parse_move(text)
                .map(Some)
                .map_err(|e| self.illegal(e));
        }
        match Move::extract_any(obj)? {
            Some(m) if m.is_null() => Ok(None),
            Some(m) => self
                .pos()
                .resolve_uci(m.to_uci_move()?)
                .map(Some)
                .map_err(|e| self.illegal(e)),
            None => Err(PyTypeError::new_err(format!(
                "expected a Move, a python-chess Move or a move as text, not {}",
                obj.get_type().name()?
            ))),
        }
    }

    fn parse_san_move(&self, san: &str) -> PyResult<Option<ChessMove>> {
        if san == "--" || san == "Z0" {
            return Ok(None);
        }
        if looks_uci(san) {
            return Err(PyValueError::new_err(format!(
                "`{san}` is UCI, not SAN: use push_uci"
            )));
        }
        self.pos()
            .parse_move(san)
            .map(Some)
            .map_err(|e| self.illegal(e))
    }

    fn parse_uci_move(&self, uci: &str) -> PyResult<Option<ChessMove>> {
        if uci == "0000" {
            return Ok(None);
        }
        if !looks_uci(uci) {
            return Err(PyValueError::new_err(format!("`{uci}` is not a UCI move")));
        }
        self.pos()
            .parse_move(uci)
            .map(Some)
            .map_err(|e| self.illegal(e))
    }
}

/// The 12 piece bitboards of `pos`, White's then Black's, pawn to king.
pub(crate) fn bitboards(pos: &tabia::Position) -> Vec<u64> {
    let board = pos.board();
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| Role::ALL.into_iter().map(move |role| Piece { color, role }))
        .map(|piece| board.by_piece(piece).0)
        .collect()
}

fn looks_uci(text: &str) -> bool {
    let b = text.as_bytes();
    text == "0000"
        || (matches!(b, [b'a'..=b'h', b'1'..=b'8', b'a'..=b'h', b'1'..=b'8', ..])
            && (b.len() == 4 || (b.len() == 5 && b"qrbnk".contains(&b[4]))))
        || (b.len() == 4 && b[1] == b'@')
}
