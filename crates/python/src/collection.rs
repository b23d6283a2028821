//! `filter`, `stats`, `tree`: the facade's collection entry points.

use std::sync::Arc;

use pyo3::{exceptions::PyValueError, prelude::*};
use tabia::{
    book::{Tree as BookTree, TreeOptions},
    select::{Criterion, Options, Query},
};

use crate::{
    error::game_error,
    games::{Errors, GameReader, Wants, read_one},
    position::Position,
};

/// The games of `paths` that match `texts` (`tabia filter`'s criteria written as on the
/// command line: `--white Carlsen`, `--white=Carlsen`, `--checkmate`) and `criteria` (each a
/// `(name, value)` pair, `value` None for a feature such as `checkmate`), parsed and replayed
/// on all cores, in input order.
#[pyfunction]
#[pyo3(signature = (inputs, texts, criteria, jobs = None, errors = "raise", variations = false, eco_by_position = false, ply_range = None, to_move = None))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
pub(crate) fn filter(
    inputs: &Bound<'_, PyAny>,
    texts: Vec<String>,
    criteria: Vec<(String, Option<String>)>,
    jobs: Option<usize>,
    errors: &str,
    variations: bool,
    eco_by_position: bool,
    ply_range: Option<&str>,
    to_move: Option<&str>,
) -> PyResult<GameReader> {
    let errors = Errors::parse(errors)?;
    let criteria = texts
        .iter()
        .map(|text| text.parse::<Criterion>())
        .chain(
            criteria
                .iter()
                .map(|(name, value)| Criterion::from_option(name, value.as_deref())),
        )
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let ply_range = ply_range
        .map(str::parse)
        .transpose()
        .map_err(|e: tabia::select::ParseError| PyValueError::new_err(e.to_string()))?;
    let to_move = match to_move {
        None => None,
        Some("w" | "white") => Some(tabia::position::shakmaty::Color::White),
        Some("b" | "black") => Some(tabia::position::shakmaty::Color::Black),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "to_move={other:?}: expected \"w\" or \"b\""
            )));
        }
    };
    let options = Options {
        variations,
        ply_range,
        to_move,
        eco_by_position,
    };
    let wants = Arc::new(Wants::default());
    let games = crate::inputs::reader(inputs, jobs)?
        .select_map(Query::new(criteria, options), move |item| {
            read_one(item, false, &wants)
        });
    Ok(GameReader::new(games, errors))
}

/// The statistics of the collection, as `tabia stats --json` gives them, and the inputs
/// that could not be read (`input_errors`).
#[pyfunction]
#[pyo3(signature = (inputs, jobs = None))]
pub(crate) fn stats(
    py: Python<'_>,
    inputs: &Bound<'_, PyAny>,
    jobs: Option<usize>,
) -> PyResult<String> {
    let reader = crate::inputs::reader(inputs, jobs)?;
    let gathered = py.detach(|| reader.stats());
    py.check_signals()?;
    let report = gathered.value.report(None);
    let mut json =
        serde_json::to_value(&report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let serde_json::Value::Object(map) = &mut json {
        let errors: Vec<String> = gathered.errors.iter().map(ToString::to_string).collect();
        map.insert("input_errors".to_owned(), errors.into());
    }
    Ok(json.to_string())
}

/// An opening tree: every move played from each position of the games, how often and how
/// it scored (transpositions merge).
#[pyclass(module = "tabia", frozen)]
pub(crate) struct Tree {
    tree: BookTree,
    /// The `GameError` of each game or input left out.
    errors: Vec<Py<PyAny>>,
}

/// The opening tree of `paths` (`max_ply` plies of each game).
#[pyfunction]
#[pyo3(signature = (inputs, max_ply = 30, jobs = None))]
pub(crate) fn tree(
    py: Python<'_>,
    inputs: &Bound<'_, PyAny>,
    max_ply: u32,
    jobs: Option<usize>,
) -> PyResult<Tree> {
    let reader = crate::inputs::reader(inputs, jobs)?;
    let options = TreeOptions {
        max_ply,
        ..TreeOptions::default()
    };
    let gathered = py.detach(|| reader.tree(options));
    py.check_signals()?;
    let errors = gathered
        .errors
        .iter()
        .map(|e| game_error(py, e).into_value(py).into_any())
        .collect();
    Ok(Tree {
        tree: gathered.value,
        errors,
    })
}

#[pymethods]
impl Tree {
    /// The games added.
    #[getter]
    fn games(&self) -> u64 {
        self.tree.games()
    }

    /// The `GameError` of every game or input left out, in input order.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.errors.iter().map(|e| e.clone_ref(py)).collect()
    }

    /// The moves played from `position` (a `Position`, or a FEN; the start by default), most
    /// played first: dicts of `uci`, `san`, `games`, `white`, `draws`, `black` (wins, draws,
    /// losses by colour) and `average_rating` (None when no game was rated).
    #[pyo3(signature = (position = None))]
    fn moves(&self, position: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<TreeMove>> {
        let pos = match position {
            None => tabia::Position::new(),
            Some(p) => match p.extract::<PyRef<'_, Position>>() {
                Ok(p) => p.inner().clone(),
                Err(_) => Position::parse_text(&p.extract::<String>()?)?,
            },
        };
        let node = self.tree.node(&pos);
        let mode = pos.castling_mode();
        Ok(node
            .moves
            .iter()
            .map(|m| TreeMove {
                uci: m.m.to_uci(mode).to_string(),
                san: pos.san(m.m).to_string(),
                games: m.stats.games,
                white: m.stats.white,
                draws: m.stats.draws,
                black: m.stats.black,
                average_rating: (m.stats.rated > 0).then(|| {
                    // Ratings and their counts fit an f64 exactly.
                    #[allow(clippy::cast_precision_loss)]
                    let average = m.stats.rating_sum as f64 / f64::from(m.stats.rated);
                    average
                }),
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabia.Tree of {} games, {} moves>",
            self.tree.games(),
            self.tree.len()
        )
    }
}

/// A move of a [`Tree`] position with its figures.
#[pyclass(module = "tabia", frozen, get_all)]
pub(crate) struct TreeMove {
    uci: String,
    san: String,
    games: u32,
    white: u32,
    draws: u32,
    black: u32,
    average_rating: Option<f64>,
}

#[pymethods]
impl TreeMove {
    fn __repr__(&self) -> String {
        format!(
            "<tabia.TreeMove {} {} games +{}={}-{}>",
            self.san, self.games, self.white, self.draws, self.black
        )
    }
}
