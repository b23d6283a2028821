//! `tabia.Position`: a legal chess position, with python-chess's names where the concept is
//! the same (`fen()`, `push_san()`, `legal_moves`, `turn`, `is_check()`).

use pyo3::{exceptions::PyValueError, prelude::*};
use tabia::position::{
    EpRule, ParsePositionError, RenderOptions, render_ascii, render_svg,
    shakmaty::{Color, Piece, Role},
};

pyo3::create_exception!(
    tabia,
    PositionError,
    PyValueError,
    "A text that is not a position (FEN, EPD, `startpos`), or a position that is not legal. \
     Attribute `problems`: every reason the position is not legal (empty for a syntax error)."
);

/// A legal position (standard chess, Chess960 or a lichess variant). A `Position` is legal by
/// construction: `tabia.status(fen)` lists every reason a text is not.
#[pyclass(module = "tabia")]
#[derive(Clone)]
pub(crate) struct Position {
    pos: tabia::Position,
}

impl From<tabia::Position> for Position {
    fn from(pos: tabia::Position) -> Position {
        Position { pos }
    }
}

fn parse(text: &str) -> PyResult<tabia::Position> {
    tabia::Position::from_arg(text).map_err(|error| {
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

/// Every reason `fen` is not a legal position; empty when it is one.
///
/// Raises `PositionError` when the text is not a FEN, EPD or `startpos` at all.
#[pyfunction]
pub(crate) fn status(fen: &str) -> PyResult<Vec<String>> {
    match tabia::Position::from_arg(fen) {
        Ok(_) => Ok(Vec::new()),
        Err(ParsePositionError::Illegal(e)) => {
            Ok(e.problems().iter().map(ToString::to_string).collect())
        }
        Err(error) => parse(fen)
            .map(|_| ())
            .and(Err(PositionError::new_err(error.to_string()))),
    }
}

/// Whether `fen` is a legal position.
#[pyfunction]
pub(crate) fn is_valid(fen: &str) -> PyResult<bool> {
    status(fen).map(|problems| problems.is_empty())
}

#[pymethods]
impl Position {
    /// A position from a FEN, a partial FEN (missing fields take `w - - 0 1`), an EPD or
    /// `startpos` (the default). Raises `PositionError` with every problem of an illegal one.
    #[new]
    #[pyo3(signature = (fen = "startpos"))]
    fn new(fen: &str) -> PyResult<Position> {
        parse(fen).map(Position::from)
    }

    /// The FEN (en passant square only when a capture is legal, as python-chess writes it).
    fn fen(&self) -> String {
        self.pos.fen(EpRule::Legal)
    }

    /// The EPD: the FEN's first four fields.
    fn epd(&self) -> String {
        self.pos.epd(EpRule::Legal)
    }

    /// Plays a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`); returns its UCI. Raises
    /// ValueError for an illegal or ambiguous move, saying why.
    fn push_san(&mut self, san: &str) -> PyResult<String> {
        if looks_uci(san) {
            return Err(PyValueError::new_err(format!(
                "`{san}` is UCI, not SAN: use push_uci"
            )));
        }
        self.push(san)
    }

    /// Plays a move in UCI (`g1f3`, `e7e8q`, `e1g1`); returns its SAN.
    fn push_uci(&mut self, uci: &str) -> PyResult<String> {
        if !looks_uci(uci) {
            return Err(PyValueError::new_err(format!("`{uci}` is not a UCI move")));
        }
        let m = self.parse_move(uci)?;
        let san = self.pos.san(m).to_string();
        self.pos.play_unchecked(m);
        Ok(san)
    }

    /// Plays a move in any notation tabia reads (SAN, UCI, long algebraic); returns its UCI.
    fn push(&mut self, text: &str) -> PyResult<String> {
        let m = self.parse_move(text)?;
        let uci = m.to_uci(self.pos.castling_mode()).to_string();
        self.pos.play_unchecked(m);
        Ok(uci)
    }

    /// The SAN of a move given in UCI (or any notation), in this position.
    fn san(&self, text: &str) -> PyResult<String> {
        let m = self.parse_move(text)?;
        Ok(self.pos.san(m).to_string())
    }

    /// The legal moves, in UCI.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        let mode = self.pos.castling_mode();
        self.pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(mode).to_string())
            .collect()
    }

    /// The side to move: True for White (python-chess's `chess.WHITE`).
    #[getter]
    fn turn(&self) -> bool {
        self.pos.turn() == Color::White
    }

    /// The halfmove clock of the fifty-move rule.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// The fullmove number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        !self.pos.is_check() && self.pos.legal_moves().is_empty()
    }

    /// The Polyglot Zobrist hash (python-chess's `chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> u64 {
        self.pos.zobrist()
    }

    /// tabia's position key (pieces, side, castling, legal en passant; variant state), as
    /// hex: equal keys, equal positions.
    fn key(&self) -> String {
        self.pos.key().to_string()
    }

    /// The 12 piece bitboards (bit 0 is a1, bit 63 h8): White's pawns, knights, bishops,
    /// rooks, queens, king, then Black's; the layout of the moves table's training columns.
    fn bitboards(&self) -> Vec<u64> {
        bitboards(&self.pos)
    }

    /// An ASCII diagram.
    fn __str__(&self) -> String {
        render_ascii(&self.pos.setup(EpRule::Legal), &RenderOptions::default())
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.fen())
    }

    /// The board as SVG (a notebook draws it).
    fn _repr_svg_(&self) -> String {
        render_svg(&self.pos.setup(EpRule::Legal), &RenderOptions::default())
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.pos.fen(EpRule::Legal) == other.pos.fen(EpRule::Legal)
    }

    fn __hash__(&self) -> u64 {
        self.pos.zobrist()
    }

    /// A copy (python-chess's `board.copy()`).
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }
}

impl Position {
    /// The position inside.
    pub(crate) fn inner(&self) -> &tabia::Position {
        &self.pos
    }

    /// A position from a FEN, EPD or `startpos`, or `PositionError`.
    pub(crate) fn parse_text(text: &str) -> PyResult<tabia::Position> {
        parse(text)
    }

    fn parse_move(&self, text: &str) -> PyResult<tabia::position::shakmaty::Move> {
        self.pos
            .parse_move(text)
            .map_err(|e| PyValueError::new_err(format!("{e} in {}", self.fen())))
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
