//! `read_games`: the games of files as Python objects, parsed and replayed on all cores.

use std::{collections::VecDeque, path::PathBuf};

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyDict, PyList},
};
use tabia::notation::pgn::{Move as Node, Score};

use crate::{error::game_error, position::Position};

/// A game read on a worker: the tree, and what its replay gave.
pub(crate) struct Read {
    game: tabia::Game,
    input: String,
    number: u64,
    /// The UCI of each mainline move.
    uci: Vec<String>,
    /// The position after the last mainline move.
    end: tabia::Position,
    /// What the reader and the replay repaired or found odd, `LINE:COL: message`.
    warnings: Vec<String>,
}

/// Reads and replays one game on a worker.
pub(crate) fn read_one(item: &tabia::Item<'_>, variations: bool) -> Result<Read, tabia::GameError> {
    let game = item.parse()?;
    let replay_error = |e| tabia::GameError::replay(item.input(), item.number(), e);
    // The variations are replayed (and so checked) only when asked.
    if variations {
        tabia::Replay::new(&game)
            .variations(true)
            .finish()
            .map_err(replay_error)?;
    }
    let mut replay = tabia::Replay::new(&game);
    let mut uci = Vec::with_capacity(game.mainline.moves.len());
    for played in replay.by_ref() {
        uci.push(played.map_err(replay_error)?.uci());
    }
    let replayed = replay.finish().map_err(replay_error)?;
    let warnings = replayed
        .warnings
        .iter()
        .map(|w| match w.origin().filter(|at| at.line > 0) {
            Some(at) => format!("{}:{}: {w}", at.line, at.column),
            None => w.to_string(),
        })
        .collect();
    Ok(Read {
        input: item.input().to_owned(),
        number: item.number(),
        uci,
        end: replayed.end,
        warnings,
        game,
    })
}

/// How `read_games` treats a game it cannot read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    Raise,
    Yield,
    Collect,
}

impl Errors {
    pub(crate) fn parse(errors: &str) -> PyResult<Errors> {
        match errors {
            "raise" => Ok(Errors::Raise),
            "yield" => Ok(Errors::Yield),
            "collect" => Ok(Errors::Collect),
            other => Err(PyValueError::new_err(format!(
                "errors={other:?}: expected \"raise\", \"yield\" or \"collect\""
            ))),
        }
    }
}

/// The iterator `read_games` returns.
#[pyclass(module = "tabia", name = "GameReader")]
pub(crate) struct GameReader {
    games: std::sync::Mutex<tabia::Mapped<Read>>,
    buffer: VecDeque<Result<Read, tabia::GameError>>,
    errors_mode: Errors,
    errors: Vec<Py<PyAny>>,
}

impl GameReader {
    pub(crate) fn new(games: tabia::Mapped<Read>, errors: Errors) -> GameReader {
        GameReader {
            games: std::sync::Mutex::new(games),
            buffer: VecDeque::new(),
            errors_mode: errors,
            errors: Vec::new(),
        }
    }
}

/// How many games are taken from the workers at a time, the GIL released.
const CHUNK: usize = 256;

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            if self.buffer.is_empty() {
                let games = &self.games;
                let chunk: Vec<_> = py.detach(|| match games.lock() {
                    Ok(mut games) => games.by_ref().take(CHUNK).collect(),
                    Err(_) => Vec::new(),
                });
                py.check_signals()?;
                if chunk.is_empty() {
                    return Ok(None);
                }
                self.buffer.extend(chunk);
            }
            match self.buffer.pop_front() {
                None => return Ok(None),
                Some(Ok(read)) => return Ok(Some(Py::new(py, Game::from(read))?.into_any())),
                Some(Err(error)) => {
                    let err = game_error(py, &error);
                    match self.errors_mode {
                        Errors::Raise => return Err(err),
                        Errors::Yield => return Ok(Some(err.into_value(py).into_any())),
                        Errors::Collect => self.errors.push(err.into_value(py).into_any()),
                    }
                }
            }
        }
    }

    /// With `errors="collect"`: the `GameError` of every game left out so far, in input order.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.errors.iter().map(|e| e.clone_ref(py)).collect()
    }
}

/// Every game of `paths`, parsed and replayed on all cores, in input order.
#[pyfunction]
#[pyo3(signature = (paths, jobs = None, variations = false, errors = "raise"))]
pub(crate) fn read_games(
    paths: Vec<PathBuf>,
    jobs: Option<usize>,
    variations: bool,
    errors: &str,
) -> PyResult<GameReader> {
    let errors = Errors::parse(errors)?;
    let games = tabia::Reader::new(paths)
        .jobs(jobs.unwrap_or(0))
        .map(move |item| read_one(item, variations));
    Ok(GameReader::new(games, errors))
}

/// A game: its headers, its mainline (SAN and UCI, with comments, clocks, evaluations and
/// NAGs), its result, where it starts in its input.
#[pyclass(module = "tabia", frozen)]
pub(crate) struct Game {
    read: Read,
    /// The SAN of each mainline move as python-chess writes it, made on first use.
    san: std::sync::OnceLock<Vec<String>>,
}

impl From<Read> for Game {
    fn from(read: Read) -> Game {
        Game {
            read,
            san: std::sync::OnceLock::new(),
        }
    }
}

impl Game {
    /// The SAN python-chess writes (canonical disambiguation and check marks), from the
    /// position before each move; the game replayed without error on the worker.
    fn canonical_san(&self) -> &[String] {
        self.san.get_or_init(|| {
            let game = &self.read.game;
            let Ok(mut before) = tabia::position::start_position(game) else {
                return Vec::new();
            };
            let mut sans = Vec::with_capacity(game.mainline.moves.len());
            for played in tabia::Replay::new(game) {
                let Ok(played) = played else { break };
                sans.push(match &played.mv {
                    Some(m) => before.san(*m).to_string(),
                    None => "--".to_owned(),
                });
                before = played.position;
            }
            sans
        })
    }
}

/// A move of a game's mainline with its annotations.
#[pyclass(module = "tabia", frozen, get_all)]
pub(crate) struct Move {
    /// 1 for the first move.
    ply: u32,
    /// The move in SAN, as python-chess writes it.
    san: String,
    /// The move as written (normalised: figurines, `0-0` and the like read as SAN).
    written: String,
    /// The move in UCI.
    uci: String,
    /// The comments after the move, as written (commands such as `[%clk]` included).
    comments: Vec<String>,
    /// The NAGs of the move (`!` is 1).
    nags: Vec<u16>,
    /// `[%clk]` after the move, in seconds (python-chess's `clock()`).
    clock: Option<f64>,
    /// `[%emt]` after the move, in seconds.
    emt: Option<f64>,
    /// `[%eval]` in centipawns, White's view.
    eval_cp: Option<i32>,
    /// `[%eval #N]`: mate in N, positive when White mates.
    eval_mate: Option<i32>,
}

#[pymethods]
impl Move {
    fn __repr__(&self) -> String {
        format!("<tabia.Move {} {} ({})>", self.ply, self.san, self.uci)
    }
}

fn seconds(ms: Option<u64>) -> Option<f64> {
    // Milliseconds of a chess clock fit an f64 exactly.
    #[allow(clippy::cast_precision_loss)]
    ms.map(|ms| ms as f64 / 1000.0)
}

fn eval_parts(node: &Node) -> (Option<i32>, Option<i32>) {
    match node.eval().map(|e| e.score) {
        Some(Score::Cp(cp)) => (Some(cp), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    }
}

#[pymethods]
impl Game {
    /// The tag pairs, in input order, as a dict (python-chess's `game.headers`).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.read.game.tags {
            // The first of a repeated tag is the one that counts, as for the tables.
            if !dict.contains(name)? {
                dict.set_item(name, value)?;
            }
        }
        Ok(dict)
    }

    /// The mainline in SAN, as python-chess writes it (the SAN as written, where it differs,
    /// is each `Move`'s `written`).
    #[getter]
    fn san<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.canonical_san())
    }

    /// The mainline in UCI.
    #[getter]
    fn uci<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.read.uci)
    }

    /// The mainline's moves with their annotations.
    fn mainline(&self) -> Vec<Move> {
        let moves = &self.read.game.mainline.moves;
        moves
            .iter()
            .zip(&self.read.uci)
            .zip(self.canonical_san())
            .zip(1..)
            .map(|(((node, uci), san), ply)| {
                let (eval_cp, eval_mate) = eval_parts(node);
                Move {
                    ply,
                    san: san.clone(),
                    written: node.san.to_string(),
                    uci: uci.clone(),
                    comments: node.comments.clone(),
                    nags: node.nags.iter().map(|n| u16::from(n.0)).collect(),
                    clock: seconds(node.clock()),
                    emt: seconds(node.emt()),
                    eval_cp,
                    eval_mate,
                }
            })
            .collect()
    }

    /// `[%clk]` after each mainline move, in seconds (None where a move has none).
    #[getter]
    fn clocks(&self) -> Vec<Option<f64>> {
        let moves = &self.read.game.mainline.moves;
        moves.iter().map(|m| seconds(m.clock())).collect()
    }

    /// `[%eval]` after each mainline move in centipawns, White's view (None where a move has
    /// none or the evaluation is a mate; see `mainline()` for mates).
    #[getter]
    fn evals(&self) -> Vec<Option<i32>> {
        let moves = &self.read.game.mainline.moves;
        moves.iter().map(|m| eval_parts(m).0).collect()
    }

    /// The NAGs of each mainline move.
    #[getter]
    fn nags(&self) -> Vec<Vec<u16>> {
        let moves = &self.read.game.mainline.moves;
        moves
            .iter()
            .map(|m| m.nags.iter().map(|n| u16::from(n.0)).collect())
            .collect()
    }

    /// The comments after each mainline move, as written.
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        let moves = &self.read.game.mainline.moves;
        moves.iter().map(|m| m.comments.clone()).collect()
    }

    /// The comments before the first move.
    #[getter]
    fn intro_comments(&self) -> Vec<String> {
        self.read.game.mainline.comments.clone()
    }

    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[getter]
    fn result(&self) -> &'static str {
        self.read.game.result.as_str()
    }

    /// What the reader and the replay repaired or found odd (`LINE:COL: message`).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.read.warnings.clone()
    }

    /// The input's name.
    #[getter]
    fn file(&self) -> &str {
        &self.read.input
    }

    /// The game's number in its input, from 1.
    #[getter]
    fn number(&self) -> u64 {
        self.read.number
    }

    /// The byte offset where the game starts in its (decompressed) input.
    #[getter]
    fn offset(&self) -> u64 {
        self.read.game.start.offset
    }

    /// The 1-based line where the game starts.
    #[getter]
    fn line(&self) -> u64 {
        self.read.game.start.line
    }

    /// The starting position (the `FEN` tag's, or the standard one), as python-chess's
    /// `game.board()`.
    fn board(&self) -> PyResult<Position> {
        tabia::position::start_position(&self.read.game)
            .map(Position::from)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The position after the last mainline move (python-chess's `game.end().board()`).
    fn end_board(&self) -> Position {
        Position::from(self.read.end.clone())
    }

    /// The position after each mainline move.
    fn positions(&self) -> PyResult<Vec<Position>> {
        tabia::Replay::new(&self.read.game)
            .map(|played| {
                played
                    .map(|p| Position::from(p.position))
                    .map_err(|e| PyValueError::new_err(e.to_string()))
            })
            .collect()
    }

    /// The opening, named by the positions the mainline reaches (transpositions count), by
    /// the embedded table; None when it reaches no named position.
    fn opening(&self) -> Option<crate::eco::Opening> {
        tabia::opening(&self.read.game).map(crate::eco::Opening::from)
    }

    /// The game in PGN export format.
    fn pgn(&self) -> String {
        self.read.game.to_string()
    }

    fn __str__(&self) -> String {
        self.pgn()
    }

    fn __repr__(&self) -> String {
        let tag = |name| self.read.game.tag(name).unwrap_or("?");
        format!(
            "<tabia.Game {} vs {} {} ({} plies, {}:{})>",
            tag("White"),
            tag("Black"),
            self.read.game.result.as_str(),
            self.read.uci.len(),
            self.read.input,
            self.read.number
        )
    }
}
