//! python-chess's values, with its numbers: `Move` (squares 0 = a1 … 63 = h8, piece types
//! 1 = pawn … 6 = king), `Piece` (a piece type and a color, True for White), `Outcome` and
//! `Termination`, the square names, and `LegalMoves`. Each compares equal to python-chess's
//! own by value, so that the two libraries' values mix in one program.

use pyo3::{
    exceptions::{PyIndexError, PyValueError},
    prelude::*,
    sync::PyOnceLock,
    types::{PyDict, PyList, PyTuple},
};
use tabia::position::{
    Termination as Ending,
    shakmaty::{
        CastlingMode, Color, Move as ChessMove, Piece as ChessPiece, Role, Square, uci::UciMove,
    },
};

/// The 64 square names, a1 to h8 (python-chess's `chess.SQUARE_NAMES`).
fn square_names() -> Vec<String> {
    Square::ALL.iter().map(ToString::to_string).collect()
}

/// The square `index` (0 = a1 … 63 = h8), or IndexError.
pub(crate) fn square(index: i64) -> PyResult<Square> {
    u32::try_from(index)
        .ok()
        .and_then(|i| Square::try_from(i).ok())
        .ok_or_else(|| PyIndexError::new_err(format!("square index out of range: {index}")))
}

/// The name of square `square` (`e4` for 28), as python-chess's `chess.square_name`.
#[pyfunction]
fn square_name(square: i64) -> PyResult<String> {
    Ok(self::square(square)?.to_string())
}

/// The square named `name` (28 for `e4`), as python-chess's `chess.parse_square`; ValueError
/// for a name that is not a square.
#[pyfunction]
fn parse_square(name: &str) -> PyResult<u8> {
    name.parse::<Square>()
        .map(u8::from)
        .map_err(|_| PyValueError::new_err(format!("{name:?} is not a square name")))
}

fn role(piece_type: u8) -> PyResult<Role> {
    Role::try_from(piece_type)
        .map_err(|_| PyValueError::new_err(format!("not a piece type: {piece_type} (1 to 6)")))
}

/// A move as python-chess's `chess.Move`: from and to squares, a promotion and a drop as piece
/// types. `Move(0, 0)` is the null move (`uci()` is `0000`); a drop goes from and to its square.
/// Equal to a python-chess `Move` with the same fields, and hashed as one.
#[pyclass(module = "tabia", name = "Move", frozen)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Move {
    from: u8,
    to: u8,
    promotion: Option<u8>,
    drop: Option<u8>,
}

impl Move {
    /// The move `m` played in a position with castling `mode` (castling as the king's two
    /// squares in standard chess, king takes rook in Chess960, as python-chess writes them).
    pub(crate) fn of(m: ChessMove, mode: CastlingMode) -> Move {
        Move::from_uci_move(m.to_uci(mode))
    }

    /// The move of a null move or a move.
    pub(crate) fn of_option(m: Option<ChessMove>, mode: CastlingMode) -> Move {
        m.map_or(Move::NULL, |m| Move::of(m, mode))
    }

    const NULL: Move = Move {
        from: 0,
        to: 0,
        promotion: None,
        drop: None,
    };

    fn from_uci_move(uci: UciMove) -> Move {
        match uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => Move {
                from: u8::from(from),
                to: u8::from(to),
                promotion: promotion.map(u8::from),
                drop: None,
            },
            UciMove::Put { role, to } => Move {
                from: u8::from(to),
                to: u8::from(to),
                promotion: None,
                drop: Some(u8::from(role)),
            },
            UciMove::Null => Move::NULL,
        }
    }

    /// The move as shakmaty's UCI move, to resolve in a position.
    pub(crate) fn to_uci_move(self) -> PyResult<UciMove> {
        if self == Move::NULL {
            return Ok(UciMove::Null);
        }
        let to = square(self.to.into())?;
        if let Some(drop) = self.drop {
            return Ok(UciMove::Put {
                role: role(drop)?,
                to,
            });
        }
        Ok(UciMove::Normal {
            from: square(self.from.into())?,
            to,
            promotion: self.promotion.map(role).transpose()?,
        })
    }

    /// Whether this is the null move.
    pub(crate) fn is_null(self) -> bool {
        self == Move::NULL
    }

    /// The move of a Python object: a tabia `Move`, an object with python-chess's move fields
    /// (`from_square`, `to_square`, `promotion`, `drop`), or a UCI string. None for another
    /// object.
    pub(crate) fn extract_any(obj: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
        if let Ok(m) = obj.extract::<PyRef<'_, Move>>() {
            return Ok(Some(*m));
        }
        if let Ok(text) = obj.extract::<&str>() {
            return Move::parse(text).map(Some);
        }
        if !obj.hasattr("from_square")? || !obj.hasattr("to_square")? {
            return Ok(None);
        }
        let field = |name: &str| -> PyResult<Option<u8>> {
            match obj.getattr(name) {
                Ok(value) if !value.is_none() => value.extract().map(Some),
                _ => Ok(None),
            }
        };
        Ok(Some(Move {
            from: field("from_square")?.unwrap_or(0),
            to: field("to_square")?.unwrap_or(0),
            promotion: field("promotion")?.filter(|&p| p != 0),
            drop: field("drop")?.filter(|&d| d != 0),
        }))
    }

    /// A UCI string (`e2e4`, `e7e8q`, `N@f3`, `0000`), as python-chess's `Move.from_uci`.
    pub(crate) fn parse(uci: &str) -> PyResult<Move> {
        let m = UciMove::from_ascii(uci.as_bytes())
            .map(Move::from_uci_move)
            .map_err(|_| PyValueError::new_err(format!("invalid uci: {uci:?}")))?;
        if m.drop.is_none() && m.from == m.to && !m.is_null() {
            return Err(PyValueError::new_err(format!(
                "invalid uci (null move?): {uci:?}"
            )));
        }
        Ok(m)
    }

    pub(crate) fn uci_string(self) -> String {
        match self.to_uci_move() {
            Ok(uci) => uci.to_string(),
            Err(_) => "0000".to_owned(),
        }
    }
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        from_square: i64,
        to_square: i64,
        promotion: Option<u8>,
        drop: Option<u8>,
    ) -> PyResult<Move> {
        let m = Move {
            from: u8::from(square(from_square)?),
            to: u8::from(square(to_square)?),
            promotion: promotion.filter(|&p| p != 0),
            drop: drop.filter(|&d| d != 0),
        };
        m.to_uci_move()?;
        Ok(m)
    }

    /// The move of a UCI string (`e2e4`, `e7e8q`, `N@f3`, `0000` for the null move);
    /// ValueError for anything else.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        Move::parse(uci)
    }

    /// The null move, `0000`.
    #[staticmethod]
    fn null() -> Move {
        Move::NULL
    }

    /// The square the move starts from (a drop's square for a drop).
    #[getter(from_square)]
    fn origin(&self) -> u8 {
        self.from
    }

    /// The square the move goes to.
    #[getter(to_square)]
    fn target(&self) -> u8 {
        self.to
    }

    /// The piece type a pawn promotes to, or None.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        self.promotion
    }

    /// The piece type dropped (Crazyhouse), or None.
    #[getter]
    fn drop(&self) -> Option<u8> {
        self.drop
    }

    /// The move in UCI: `e2e4`, `e7e8q`, `N@f3`, `0000`.
    fn uci(&self) -> String {
        self.uci_string()
    }

    fn __str__(&self) -> String {
        self.uci_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci_string())
    }

    fn __bool__(&self) -> bool {
        !self.is_null()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        if other.is_instance_of::<pyo3::types::PyString>() {
            return Ok(py.NotImplemented());
        }
        Ok(match Move::extract_any(other)? {
            Some(m) => (m == *self)
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind(),
            None => py.NotImplemented(),
        })
    }

    /// python-chess's hash of the same move (its dataclass hashes the four fields), so that
    /// either kind finds the other in a set or a dict.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(
            py,
            [Some(self.from), Some(self.to), self.promotion, self.drop],
        )?
        .hash()
    }

    /// Pickled as its four fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let m = slf.get();
        let args = (m.from, m.to, m.promotion, m.drop).into_pyobject(slf.py())?;
        PyTuple::new(slf.py(), [slf.get_type().into_any(), args.into_any()])
    }
}

/// The legal moves of a position, as `Move`s (python-chess's `LegalMoveGenerator`: iterate,
/// `len()`, `in`, `count()`, `bool()`).
#[pyclass(module = "tabia", frozen)]
pub(crate) struct LegalMoves {
    pos: tabia::Position,
    moves: Vec<ChessMove>,
}

impl LegalMoves {
    /// The legal moves of `pos`.
    pub(crate) fn of(pos: &tabia::Position) -> LegalMoves {
        LegalMoves {
            pos: pos.clone(),
            moves: pos.legal_moves().to_vec(),
        }
    }

    fn list(&self) -> Vec<Move> {
        let mode = self.pos.castling_mode();
        self.moves.iter().map(|&m| Move::of(m, mode)).collect()
    }
}

#[pymethods]
impl LegalMoves {
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, self.list())?.try_iter()?.into_any())
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __bool__(&self) -> bool {
        !self.moves.is_empty()
    }

    /// How many legal moves there are.
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __contains__(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(match Move::extract_any(m)? {
            Some(m) => self.list().contains(&m),
            None => false,
        })
    }

    fn __repr__(&self) -> String {
        let sans: Vec<String> = self
            .moves
            .iter()
            .map(|&m| self.pos.san(m).to_string())
            .collect();
        format!("<LegalMoves ({})>", sans.join(", "))
    }
}

/// A piece as python-chess's `chess.Piece`: a piece type (1 = pawn … 6 = king) and a color
/// (True for White). Equal to a python-chess `Piece` with the same fields.
#[pyclass(module = "tabia", name = "Piece", frozen)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece {
    piece: ChessPiece,
}

impl From<ChessPiece> for Piece {
    fn from(piece: ChessPiece) -> Piece {
        Piece { piece }
    }
}

#[pymethods]
impl Piece {
    #[new]
    fn new(piece_type: u8, color: bool) -> PyResult<Piece> {
        Ok(Piece::from(ChessPiece {
            role: role(piece_type)?,
            color: Color::from_white(color),
        }))
    }

    /// The piece of a letter (`P` a white pawn, `n` a black knight).
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (chars.next().and_then(ChessPiece::from_char), chars.next()) {
            (Some(piece), None) => Ok(Piece::from(piece)),
            _ => Err(PyValueError::new_err(format!(
                "not a piece symbol: {symbol:?}"
            ))),
        }
    }

    /// 1 = pawn, 2 = knight, 3 = bishop, 4 = rook, 5 = queen, 6 = king.
    #[getter]
    fn piece_type(&self) -> u8 {
        u8::from(self.piece.role)
    }

    /// True for White.
    #[getter]
    fn color(&self) -> bool {
        self.piece.color.is_white()
    }

    /// The letter: upper case for White (`P`), lower case for Black (`n`).
    fn symbol(&self) -> String {
        self.piece.char().to_string()
    }

    /// The figurine (`♙`, `♞`), colors swapped with `invert_color`.
    #[pyo3(signature = (*, invert_color = false))]
    fn unicode_symbol(&self, invert_color: bool) -> String {
        let piece = ChessPiece {
            color: self.piece.color ^ invert_color,
            ..self.piece
        };
        piece.unicode_char().to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.symbol())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        if let Ok(piece) = other.extract::<PyRef<'_, Piece>>() {
            return Ok((*piece == *self)
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind());
        }
        if other.hasattr("piece_type")? && other.hasattr("color")? {
            let same = other.getattr("piece_type")?.extract::<i64>().ok()
                == Some(self.piece_type().into())
                && other.getattr("color")?.is_truthy()? == self.color();
            return Ok(same.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        Ok(py.NotImplemented())
    }

    /// python-chess's hash of the same piece (`piece_type - 1` for White, `+ 5` for Black).
    fn __hash__(&self) -> u8 {
        self.piece_type() + if self.color() { 0 } else { 6 } - 1
    }

    /// Pickled as its piece type and color.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let p = slf.get();
        let args = (p.piece_type(), p.color()).into_pyobject(slf.py())?;
        PyTuple::new(slf.py(), [slf.get_type().into_any(), args.into_any()])
    }
}

/// python-chess's `Termination` names, in its order (its values are 1, 2, … in this order).
const TERMINATIONS: [&str; 10] = [
    "CHECKMATE",
    "STALEMATE",
    "INSUFFICIENT_MATERIAL",
    "SEVENTYFIVE_MOVES",
    "FIVEFOLD_REPETITION",
    "FIFTY_MOVES",
    "THREEFOLD_REPETITION",
    "VARIANT_WIN",
    "VARIANT_LOSS",
    "VARIANT_DRAW",
];

/// The enum `tabia.Termination`, made once.
static TERMINATION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn termination_enum(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    TERMINATION
        .get_or_try_init(py, || {
            let kwargs = PyDict::new(py);
            kwargs.set_item("module", "tabia")?;
            py.import("enum")?
                .getattr("Enum")?
                .call(("Termination", TERMINATIONS.to_vec()), Some(&kwargs))
                .map(Bound::unbind)
        })
        .map(|e| e.bind(py))
}

/// How a game ended, as python-chess's `chess.Outcome`: `termination` (a `tabia.Termination`,
/// named as python-chess's), `winner` (True for White, None for a draw) and `result()`.
/// Equal to a python-chess `Outcome` with the same termination name and winner.
#[pyclass(module = "tabia", name = "Outcome", frozen)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The index of the termination in [`TERMINATIONS`].
    termination: usize,
    winner: Option<bool>,
}

impl Outcome {
    /// The outcome of tabia's `ending` in a position with `turn` to move.
    pub(crate) fn of(ending: Ending, turn: Color) -> Outcome {
        let (name, winner) = match ending {
            Ending::Checkmate { winner } => ("CHECKMATE", Some(winner)),
            Ending::Stalemate => ("STALEMATE", None),
            Ending::InsufficientMaterial => ("INSUFFICIENT_MATERIAL", None),
            Ending::SeventyFiveMoveRule => ("SEVENTYFIVE_MOVES", None),
            Ending::FivefoldRepetition => ("FIVEFOLD_REPETITION", None),
            Ending::FiftyMoveRule => ("FIFTY_MOVES", None),
            Ending::ThreefoldRepetition => ("THREEFOLD_REPETITION", None),
            Ending::VariantEnd {
                winner: Some(winner),
                ..
            } if winner == turn => ("VARIANT_WIN", Some(winner)),
            Ending::VariantEnd {
                winner: Some(winner),
                ..
            } => ("VARIANT_LOSS", Some(winner)),
            // A variant's draw, and any ending tabia adds later: its result says who won.
            other => match other.result() {
                "1-0" => ("VARIANT_WIN", Some(Color::White)),
                "0-1" => ("VARIANT_WIN", Some(Color::Black)),
                _ => ("VARIANT_DRAW", None),
            },
        };
        Outcome {
            termination: TERMINATIONS.iter().position(|&n| n == name).unwrap_or(9),
            winner: winner.map(Color::is_white),
        }
    }
}

#[pymethods]
impl Outcome {
    #[new]
    fn new(termination: &Bound<'_, PyAny>, winner: Option<bool>) -> PyResult<Outcome> {
        let name: String = termination.getattr("name")?.extract()?;
        let termination = TERMINATIONS
            .iter()
            .position(|&n| n == name)
            .ok_or_else(|| PyValueError::new_err(format!("not a termination: {name}")))?;
        Ok(Outcome {
            termination,
            winner,
        })
    }

    /// Why the game ended: a `tabia.Termination` (`CHECKMATE`, `STALEMATE`, …).
    #[getter]
    fn termination<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        termination_enum(py)?.getattr(TERMINATIONS[self.termination])
    }

    /// True if White won, False if Black did, None for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.winner
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let termination = self.termination(py)?.repr()?;
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        Ok(format!(
            "Outcome(termination={termination}, winner={winner})"
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        if let Ok(outcome) = other.extract::<PyRef<'_, Outcome>>() {
            return Ok((*outcome == *self)
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind());
        }
        if other.hasattr("termination")? && other.hasattr("winner")? {
            let name = other.getattr("termination")?.getattr("name")?;
            let same = name.extract::<String>().ok().as_deref()
                == Some(TERMINATIONS[self.termination])
                && other.getattr("winner")?.extract::<Option<bool>>().ok() == Some(self.winner);
            return Ok(same.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        Ok(py.NotImplemented())
    }

    fn __hash__(&self) -> u64 {
        (self.termination as u64) << 2 | self.winner.map_or(0, |w| 1 + u64::from(w))
    }

    /// Pickled as its termination (an enum member, pickled by name) and winner.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let o = slf.get();
        let args = (o.termination(py)?, o.winner).into_pyobject(py)?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
    }
}

/// python-chess, imported when a conversion needs it, or ImportError saying so.
pub(crate) fn import_chess(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("chess").map_err(|_| {
        pyo3::exceptions::PyImportError::new_err(
            "this needs python-chess, which is not installed: pip install chess",
        )
    })
}

/// Adds this module's classes, functions and constants to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Move>()?;
    m.add_class::<Piece>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<LegalMoves>()?;
    m.add("Termination", termination_enum(m.py())?)?;
    m.add("SQUARE_NAMES", square_names())?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add("WHITE", true)?;
    m.add("BLACK", false)?;
    for (name, role) in ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"]
        .into_iter()
        .zip(Role::ALL)
    {
        m.add(name, u8::from(role))?;
    }
    Ok(())
}
