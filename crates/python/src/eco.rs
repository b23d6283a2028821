//! `tabia.Opening` and `tabia.eco`: openings named by the embedded table.

use pyo3::prelude::*;

/// An opening of the embedded table (lichess's).
#[pyclass(module = "tabia", frozen, get_all)]
pub(crate) struct Opening {
    /// The ECO code, like `B90`.
    eco: String,
    /// The full name.
    name: String,
    /// The name up to the first `": "`.
    family: String,
    /// The name after the first `": "`, if any.
    variation: Option<String>,
    /// The table's line to the position, as PGN movetext.
    moves: String,
    /// The plies of that line.
    ply: usize,
}

impl From<&tabia::eco::Opening> for Opening {
    fn from(o: &tabia::eco::Opening) -> Opening {
        Opening {
            eco: o.eco().to_owned(),
            name: o.name().to_owned(),
            family: o.family().to_owned(),
            variation: o.variation().map(str::to_owned),
            moves: o.moves().to_owned(),
            ply: o.ply(),
        }
    }
}

#[pymethods]
impl Opening {
    fn __repr__(&self) -> String {
        format!("<tabia.Opening {} {}>", self.eco, self.name)
    }
}

/// The opening of a game given as PGN movetext (`1. e4 c5 2. Nf3 d6`) or a whole PGN game:
/// the deepest named position its mainline reaches, transpositions included; None when it
/// reaches none. Raises `ValueError` for text that is not PGN.
#[pyfunction]
pub(crate) fn eco(pgn: &str) -> PyResult<Option<Opening>> {
    let game: tabia::Game = pgn.parse().map_err(|e: tabia::notation::Error| {
        pyo3::exceptions::PyValueError::new_err(e.to_string())
    })?;
    Ok(tabia::opening(&game).map(Opening::from))
}
