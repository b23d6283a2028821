//! `tabia.Index`: a position index (`tabia::index`), built, opened and asked. Answers are
//! the library's serialised values (lichess's explorer JSON, `tabia index … --json`) read
//! back as dicts and lists.

use std::path::PathBuf;

use pyo3::{
    exceptions::{PyFileExistsError, PyFileNotFoundError, PyOSError, PyValueError},
    prelude::*,
    types::{PyDict, PyString},
};
use tabia::{
    index::{
        Filter, GameRecord, Index as Inner, IndexError, IndexOptions, Limits, Request, Summary,
    },
    position::shakmaty::Color,
};

/// A position index of game collections (`tabia index`): what was played from a position,
/// how it scored, which games reached it.
#[pyclass(module = "tabia", name = "Index", frozen)]
pub(crate) struct Index {
    index: Inner,
}

/// `err` as the exception a Python user expects: a missing index is `FileNotFoundError`, a
/// folder that holds one already `FileExistsError`, a file system error `OSError`, the
/// rest (another format, a damaged file, options that do not match) `ValueError`; each with
/// the library's message.
fn index_error(err: &IndexError) -> PyErr {
    let message = err.to_string();
    match err {
        IndexError::Missing(_) => PyFileNotFoundError::new_err(message),
        IndexError::Exists(_) => PyFileExistsError::new_err(message),
        IndexError::Io(..) | IndexError::Busy(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

fn value_error(err: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// One path or a list of them.
fn paths(value: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(path) = value.extract::<PathBuf>() {
        return Ok(vec![path]);
    }
    value.extract::<Vec<PathBuf>>()
}

/// A comma-separated parameter given as a string or as a list (of strings or numbers).
fn list_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Some(text.to_str()?.to_owned()));
    }
    let mut items = Vec::new();
    for item in value.try_iter()? {
        items.push(item?.str()?.to_str()?.to_owned());
    }
    Ok(Some(items.join(",")))
}

/// The position asked for and the filter, from the explorer's parameters.
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
fn request(
    fen: Option<&str>,
    play: Option<&Bound<'_, PyAny>>,
    variant: Option<&str>,
    speeds: Option<&Bound<'_, PyAny>>,
    ratings: Option<&Bound<'_, PyAny>>,
    since: Option<&str>,
    until: Option<&str>,
) -> PyResult<(Request, Filter)> {
    let play = list_arg(play)?;
    let request = Request::parse(fen, play.as_deref(), variant).map_err(value_error)?;
    let filter = Filter::parse(
        list_arg(speeds)?.as_deref(),
        list_arg(ratings)?.as_deref(),
        since,
        until,
    )
    .map_err(value_error)?;
    Ok((request, filter))
}

/// A serialised answer as Python's dicts and lists, its keys in the order of the JSON API
/// (through `json.loads`, whose C parser is as quick as building them here).
fn json(py: Python<'_>, text: serde_json::Result<String>) -> PyResult<Py<PyAny>> {
    let text = text.map_err(value_error)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A build's, add's or merge's summary as a dict.
fn summary(py: Python<'_>, summary: &Summary) -> PyResult<Py<PyAny>> {
    let dict = PyDict::new(py);
    dict.set_item("read", summary.read)?;
    dict.set_item("indexed", summary.indexed)?;
    dict.set_item("duplicates", summary.duplicates)?;
    dict.set_item("bad", summary.bad)?;
    dict.set_item("errors", &summary.errors)?;
    Ok(dict.into_any().unbind())
}

#[pymethods]
impl Index {
    /// Opens the index in the folder `path` to read.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Index> {
        let index = py
            .detach(|| Inner::open(&path))
            .map_err(|e| index_error(&e))?;
        Ok(Index { index })
    }

    /// Builds an index of `paths` (a file or folder, or a list of them; PGN, compressed or
    /// not) in the folder `path`, indexing `max_ply` plies of each game (None: all), on
    /// `jobs` workers (0: one per core). Gives the summary.
    #[staticmethod]
    #[pyo3(signature = (path, paths, max_ply = Some(50), jobs = 0))]
    fn build(
        py: Python<'_>,
        path: PathBuf,
        paths: &Bound<'_, PyAny>,
        max_ply: Option<u32>,
        jobs: usize,
    ) -> PyResult<Py<PyAny>> {
        let files = self::paths(paths)?;
        let options = IndexOptions {
            max_ply,
            ..IndexOptions::default()
        };
        let done = py
            .detach(|| Inner::build(&path, &files, options, jobs))
            .map_err(|e| index_error(&e))?;
        summary(py, &done)
    }

    /// Adds the games of `paths` to the index (games it holds already are duplicates). The
    /// index read so far sees them at its next call.
    #[pyo3(signature = (paths, jobs = 0))]
    fn add(&self, py: Python<'_>, paths: &Bound<'_, PyAny>, jobs: usize) -> PyResult<Py<PyAny>> {
        let files = self::paths(paths)?;
        let dir = self.index.info().map_err(|e| index_error(&e))?.path;
        let done = py
            .detach(|| Inner::add(&dir, &files, jobs))
            .map_err(|e| index_error(&e))?;
        summary(py, &done)
    }

    /// Joins the indexes in the folders `paths` into a new one in `out`.
    #[staticmethod]
    fn merge(py: Python<'_>, paths: Vec<PathBuf>, out: PathBuf) -> PyResult<Py<PyAny>> {
        let done = py
            .detach(|| Inner::merge(&paths, &out))
            .map_err(|e| index_error(&e))?;
        summary(py, &done)
    }

    /// The explorer's answer for a position (lichess's JSON as a dict); `history=True` adds
    /// the results month by month.
    #[pyo3(signature = (fen = None, play = None, variant = None, speeds = None, ratings = None, since = None, until = None, moves = 12, top_games = 4, recent_games = 4, history = false))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments.
    fn explore(
        &self,
        py: Python<'_>,
        fen: Option<&str>,
        play: Option<&Bound<'_, PyAny>>,
        variant: Option<&str>,
        speeds: Option<&Bound<'_, PyAny>>,
        ratings: Option<&Bound<'_, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        moves: usize,
        top_games: usize,
        recent_games: usize,
        history: bool,
    ) -> PyResult<Py<PyAny>> {
        let (request, filter) = request(fen, play, variant, speeds, ratings, since, until)?;
        let limits = Limits {
            moves,
            top_games,
            recent_games,
            history,
        };
        let answer = py
            .detach(|| self.index.explore(&request, &filter, limits))
            .map_err(|e| index_error(&e))?;
        json(py, serde_json::to_string(&answer))
    }

    /// The games that reached a position (by any move order), `limit` of them from `offset`,
    /// as dicts (`tabia index games --json`).
    #[pyo3(signature = (fen = None, play = None, variant = None, speeds = None, ratings = None, since = None, until = None, offset = 0, limit = 100))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments.
    fn games(
        &self,
        py: Python<'_>,
        fen: Option<&str>,
        play: Option<&Bound<'_, PyAny>>,
        variant: Option<&str>,
        speeds: Option<&Bound<'_, PyAny>>,
        ratings: Option<&Bound<'_, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> PyResult<Py<PyAny>> {
        let (request, filter) = request(fen, play, variant, speeds, ratings, since, until)?;
        let page = py
            .detach(|| self.index.games(&request.position, &filter, offset, limit))
            .map_err(|e| index_error(&e))?;
        let records: Vec<GameRecord> = page
            .games
            .iter()
            .map(|(id, info)| GameRecord::new(*id, info))
            .collect();
        json(py, serde_json::to_string(&records))
    }

    /// Game `id` in the export form, or None.
    fn pgn(&self, py: Python<'_>, id: u32) -> PyResult<Option<String>> {
        py.detach(|| self.index.pgn(id))
            .map_err(|e| index_error(&e))
    }

    /// What `name` played with `color` ("white" or "black") from a position and how they
    /// scored (lichess's personal explorer, as a dict).
    #[pyo3(signature = (name, color = "white", fen = None, play = None, variant = None, speeds = None, ratings = None, since = None, until = None, moves = 12, recent_games = 4))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments.
    fn player(
        &self,
        py: Python<'_>,
        name: &str,
        color: &str,
        fen: Option<&str>,
        play: Option<&Bound<'_, PyAny>>,
        variant: Option<&str>,
        speeds: Option<&Bound<'_, PyAny>>,
        ratings: Option<&Bound<'_, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        moves: usize,
        recent_games: usize,
    ) -> PyResult<Py<PyAny>> {
        let color = match color {
            "white" | "w" => Color::White,
            "black" | "b" => Color::Black,
            other => {
                return Err(PyValueError::new_err(format!(
                    "color={other:?}: expected \"white\" or \"black\""
                )));
            }
        };
        let (request, filter) = request(fen, play, variant, speeds, ratings, since, until)?;
        let limits = Limits {
            moves,
            top_games: 0,
            recent_games,
            history: false,
        };
        let answer = py
            .detach(|| self.index.player(name, color, &request, &filter, limits))
            .map_err(|e| index_error(&e))?;
        json(py, serde_json::to_string(&answer))
    }

    /// The index's folder, format, plies indexed, games, positions and size in bytes.
    fn info(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let info = self.index.info().map_err(|e| index_error(&e))?;
        json(py, serde_json::to_string(&info))
    }

    /// The games indexed.
    fn __len__(&self) -> PyResult<usize> {
        let info = self.index.info().map_err(|e| index_error(&e))?;
        Ok(usize::try_from(info.games).unwrap_or(usize::MAX))
    }

    fn __repr__(&self) -> PyResult<String> {
        let info = self.index.info().map_err(|e| index_error(&e))?;
        Ok(format!(
            "<tabia.Index {} of {} games>",
            info.path.display(),
            info.games
        ))
    }
}
