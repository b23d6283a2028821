//! `read_games`: the games of files as Python objects, parsed and replayed on all cores.

use std::{
    collections::VecDeque,
    fmt::Write,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, Ordering},
    },
};

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType},
};
use tabia::{
    notation::{
        pgn::{
            Move as Node, Origin, Outcome, RawGame, RawTag, ReadError, Score, Skip, Visitor,
            Warning,
        },
        san::SanPlus,
    },
    position::{
        Checker, MainlineReplayer, MoveStack, ReplayError, Replayed,
        shakmaty::{CastlingMode, Move as ChessMove, Square, uci::UciMove},
    },
};

use crate::{error::game_error, interned, position::Position};

/// A game read on a worker: its tags, its mainline as moves, what its replay gave, and its
/// bytes, from which its tree is parsed when asked for (comments, NAGs, clocks, the PGN):
/// no game tree is built for the headers and moves most users read, nor a string per move.
pub(crate) struct Read {
    input: String,
    number: u64,
    /// The game's bytes and where they start in the input.
    raw: RawGame,
    /// The tags, in input order ([`Tags`]).
    tags: Tags,
    /// The mainline (`None`: a null move).
    moves: Vec<Option<ChessMove>>,
    /// The position before the first move.
    start: tabia::Position,
    /// The movetext's termination marker.
    result: Outcome,
    /// What the reader and the replay repaired or found odd, `LINE:COL: message`.
    warnings: Vec<String>,
    /// What the games read before this one were asked for (None: a game read alone).
    wants: Option<Arc<Wants>>,
    /// The mainline in SAN, made on the worker once a game before was asked for it.
    sans: Option<Sans>,
    /// The game tree, parsed on the worker once a game before was asked for it.
    tree: Option<Result<tabia::Game, String>>,
}

/// What the games of one `read_games` were asked for so far, beyond their tags and moves: the
/// workers then make it for the games that follow while Python handles the ones before, rather
/// than the main thread making it, the GIL held, when asked. Nothing is made for a reader whose
/// games are never asked for it.
#[derive(Default)]
pub(crate) struct Wants {
    /// The SAN (`san`, `mainline()`).
    san: AtomicBool,
    /// The tree (`mainline()`'s annotations, `clocks`, `comments`, `pgn()`, `opening()`).
    tree: AtomicBool,
}

/// A game's mainline in SAN as python-chess writes it (canonical disambiguation and check
/// marks), in one string: one allocation a game, not one a move.
pub(crate) struct Sans {
    text: String,
    /// The end of each move in `text`.
    ends: Vec<usize>,
}

impl Sans {
    /// The SAN of `moves` played from `start`.
    fn of(start: &tabia::Position, moves: &[Option<ChessMove>]) -> Sans {
        let mut before = start.clone();
        let mut sans = Sans {
            text: String::with_capacity(moves.len() * 4),
            ends: Vec::with_capacity(moves.len()),
        };
        for m in moves {
            match m {
                Some(m) => {
                    // Writing to a String cannot fail.
                    let _ = write!(sans.text, "{}", before.san(*m));
                    before.play_unchecked(*m);
                }
                None => {
                    sans.text.push_str("--");
                    before.play_null();
                }
            }
            sans.ends.push(sans.text.len());
        }
        sans
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let san = &self.text[start..end];
            start = end;
            san
        })
    }

    fn get(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)?;
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i]);
        Some(&self.text[start..end])
    }
}

/// A game's tags in one string: names and values decoded (escapes, Latin-1) one after the
/// other, and where each ends (one allocation a game, not two a tag).
#[derive(Default)]
struct Tags {
    text: String,
    /// The end of each name and of its value in `text`.
    ends: Vec<(usize, usize)>,
    /// A name comes twice (the first counts).
    repeated: bool,
}

impl Tags {
    fn push(&mut self, name: &[u8], value: RawTag<'_>) {
        let name = tabia::notation::decode(name);
        self.repeated = self.repeated || self.iter().any(|(n, _)| n == name);
        self.text.push_str(&name);
        let name_end = self.text.len();
        self.text.push_str(&value.decode());
        self.ends.push((name_end, self.text.len()));
    }

    /// The tags, in input order.
    fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut start = 0;
        self.ends.iter().map(move |&(name_end, end)| {
            let pair = (&self.text[start..name_end], &self.text[name_end..end]);
            start = end;
            pair
        })
    }
}

/// A [`MainlineReplayer`] that also keeps the tags and the result, and reads the variations
/// (their syntax is checked, as the tree's would be) without replaying them.
struct Flat<F> {
    replayer: MainlineReplayer<F>,
    tags: Tags,
    result: Outcome,
    /// How deep in variations the reader is (0: the mainline).
    depth: usize,
}

impl<F: FnMut(&tabia::Position, Option<ChessMove>, u32)> Visitor for Flat<F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.replayer.begin_game(start)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.tags.push(name, value);
        self.replayer.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        // Never skipped, even after a bad start position (the replayer would skip): a syntax
        // error later in the game is the game's error, as when its tree is parsed.
        let _ = self.replayer.begin_movetext();
        Skip(false)
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.depth == 0 {
            self.replayer.san(san, at);
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.depth += 1;
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.result = outcome;
        self.replayer.outcome(outcome);
    }

    fn warning(&mut self, warning: Warning) {
        self.replayer.warning(warning);
    }

    fn end_game(&mut self) -> Result<Replayed, ReplayError> {
        self.replayer.end_game()
    }
}

/// Reads and replays one game on a worker, with what the games before were asked for.
pub(crate) fn read_one(
    item: &tabia::Item<'_>,
    variations: bool,
    wants: &Arc<Wants>,
) -> Result<Read, tabia::GameError> {
    let mut read =
        read_raw(item.input(), item.number(), item.raw(), variations).map_err(|e| match e {
            Unread::Syntax(e) => item.error(e),
            Unread::Replay(e) => tabia::GameError::replay(item.input(), item.number(), e),
        })?;
    if wants.san.load(Ordering::Relaxed) {
        read.sans = Some(Sans::of(&read.start, &read.moves));
    }
    if wants.tree.load(Ordering::Relaxed) {
        read.tree = Some(read.raw.parse().map_err(|e| e.to_string()));
    }
    read.wants = Some(Arc::clone(wants));
    Ok(read)
}

/// Why a game could not be read.
enum Unread {
    Syntax(ReadError),
    Replay(ReplayError),
}

/// Reads and replays game `number` of `input` from its bytes: on a worker, and again when a
/// pickled game is loaded.
fn read_raw(input: &str, number: u64, raw: &RawGame, variations: bool) -> Result<Read, Unread> {
    // The variations are replayed (and so checked) only when asked.
    if variations {
        let mut checker = Checker::new();
        raw.visit(&mut checker)
            .map_err(Unread::Syntax)?
            .map_err(Unread::Replay)?;
    }
    // About one move in 12 bytes of PGN (lichess with clocks: 15; bare games: 8).
    let mut moves = Vec::with_capacity(raw.bytes.len() / 12);
    let mut flat = Flat {
        replayer: MainlineReplayer::new(|_: &tabia::Position, m, _| moves.push(m)),
        tags: Tags::default(),
        result: Outcome::Unknown,
        depth: 0,
    };
    let replayed = raw
        .visit(&mut flat)
        .map_err(Unread::Syntax)?
        .map_err(Unread::Replay)?;
    let Flat { tags, result, .. } = flat;
    let warnings = replayed
        .warnings
        .iter()
        .map(|w| located(w.origin(), w))
        .collect();
    Ok(Read {
        input: input.to_owned(),
        number,
        raw: raw.clone(),
        tags,
        moves,
        start: replayed.start,
        result,
        warnings,
        wants: None,
        sans: None,
        tree: None,
    })
}

/// A game's warning as `Game.warnings` holds it: `LINE:COL: message` where its place is
/// known.
pub(crate) fn located(origin: Option<Origin>, message: impl std::fmt::Display) -> String {
    match origin.filter(|at| at.line > 0) {
        Some(at) => format!("{}:{}: {message}", at.line, at.column),
        None => message.to_string(),
    }
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

/// Every game of `inputs` (see [`crate::inputs`]), parsed and replayed on all cores, in input order.
#[pyfunction]
#[pyo3(signature = (inputs, jobs = None, variations = false, errors = "raise"))]
pub(crate) fn read_games(
    inputs: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    variations: bool,
    errors: &str,
) -> PyResult<GameReader> {
    let errors = Errors::parse(errors)?;
    let wants = Arc::new(Wants::default());
    let games =
        crate::inputs::reader(inputs, jobs)?.map(move |item| read_one(item, variations, &wants));
    Ok(GameReader::new(games, errors))
}

/// A game: its headers, its mainline (SAN and UCI, with comments, clocks, evaluations and
/// NAGs), its result, where it starts in its input.
#[pyclass(module = "tabia", frozen)]
pub(crate) struct Game {
    read: Read,
    /// The SAN of each mainline move as python-chess writes it, made on first use.
    san: OnceLock<Sans>,
    /// The game tree (comments, NAGs, variations), parsed from the bytes on first use.
    tree: OnceLock<Result<tabia::Game, String>>,
    /// `headers`, made on first use: the same dict at each access, as python-chess's.
    headers: OnceLock<Py<PyDict>>,
}

impl From<Read> for Game {
    fn from(mut read: Read) -> Game {
        let san = read.sans.take().map_or_else(OnceLock::new, OnceLock::from);
        let tree = read.tree.take().map_or_else(OnceLock::new, OnceLock::from);
        Game {
            read,
            san,
            tree,
            headers: OnceLock::new(),
        }
    }
}

impl Game {
    /// The game `tree`, made of the game of `item` (the analysis written into it): its text
    /// read back as `read_games` reads a game (the tags, the moves), where `item`'s game
    /// starts, with `warnings`. Its tree is `tree` itself: `pgn()` gives `tree`'s text.
    pub(crate) fn of_tree(
        item: &tabia::Item<'_>,
        tree: tabia::Game,
        warnings: Vec<String>,
    ) -> Result<Game, tabia::GameError> {
        let raw = RawGame {
            bytes: tree.to_string().into_bytes(),
            start: item.raw().start,
        };
        let mut read = read_raw(item.input(), item.number(), &raw, false).map_err(|e| match e {
            Unread::Syntax(e) => item.error(e),
            Unread::Replay(e) => tabia::GameError::replay(item.input(), item.number(), e),
        })?;
        read.warnings = warnings;
        Ok(Game {
            read,
            san: OnceLock::new(),
            tree: OnceLock::from(Ok(tree)),
            headers: OnceLock::new(),
        })
    }

    /// The SAN python-chess writes (canonical disambiguation and check marks), made on the
    /// worker or on first use (the workers then make it for the games that follow).
    fn canonical_san(&self) -> &Sans {
        self.san.get_or_init(|| {
            if let Some(wants) = &self.read.wants {
                wants.san.store(true, Ordering::Relaxed);
            }
            Sans::of(&self.read.start, &self.read.moves)
        })
    }

    /// The game tree, parsed on the worker or on first use (the game was read without error
    /// on the worker; the workers then parse the trees of the games that follow).
    fn tree(&self) -> PyResult<&tabia::Game> {
        self.tree
            .get_or_init(|| {
                if let Some(wants) = &self.read.wants {
                    wants.tree.store(true, Ordering::Relaxed);
                }
                self.read.raw.parse().map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| PyValueError::new_err(e.clone()))
    }

    /// The mainline's nodes (SAN as written, comments, NAGs).
    fn nodes(&self) -> PyResult<&[Node]> {
        Ok(&self.tree()?.mainline.moves)
    }

    /// The UCI of the mainline's moves (`0000` for a null move).
    fn uci_moves(&self) -> impl Iterator<Item = Uci> + '_ {
        let mode = self.read.start.castling_mode();
        self.read.moves.iter().map(move |&m| Uci::of(m, mode))
    }
}

/// A move in UCI, written in place (no string allocated a move).
pub(crate) struct Uci {
    bytes: [u8; 5],
    len: usize,
}

impl Uci {
    fn of(m: Option<ChessMove>, mode: CastlingMode) -> Uci {
        let square = |sq: Square| [sq.file().char() as u8, sq.rank().char() as u8];
        let mut bytes = [0; 5];
        let len = match m.map(|m| m.to_uci(mode)) {
            Some(UciMove::Normal {
                from,
                to,
                promotion,
            }) => {
                bytes[..2].copy_from_slice(&square(from));
                bytes[2..4].copy_from_slice(&square(to));
                match promotion {
                    Some(role) => {
                        bytes[4] = role.char() as u8;
                        5
                    }
                    None => 4,
                }
            }
            Some(UciMove::Put { role, to }) => {
                bytes[0] = role.upper_char() as u8;
                bytes[1] = b'@';
                bytes[2..4].copy_from_slice(&square(to));
                4
            }
            Some(UciMove::Null) | None => {
                bytes[..4].copy_from_slice(b"0000");
                4
            }
        };
        Uci { bytes, len }
    }

    fn as_str(&self) -> &str {
        // ASCII letters and digits only.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("0000")
    }
}

/// A move of a game's mainline with its annotations (python-chess's node of the mainline;
/// `move` is the `tabia.Move`): its game and its index, each field made when asked for (the
/// annotations from the game's tree, parsed once for the game).
#[pyclass(module = "tabia", name = "MainlineMove", frozen)]
pub(crate) struct Move {
    game: Py<Game>,
    index: usize,
}

impl Move {
    /// The move's node in the game tree (SAN as written, comments, NAGs).
    fn node(&self) -> PyResult<&Node> {
        self.game
            .get()
            .nodes()?
            .get(self.index)
            .ok_or_else(|| PyValueError::new_err("the game tree lacks this move"))
    }

    fn uci_of(&self) -> Uci {
        let read = &self.game.get().read;
        Uci::of(read.moves[self.index], read.start.castling_mode())
    }

    fn san_of(&self) -> &str {
        self.game
            .get()
            .canonical_san()
            .get(self.index)
            .unwrap_or("--")
    }
}

#[pymethods]
impl Move {
    /// 1 for the first move.
    #[getter]
    fn ply(&self) -> usize {
        self.index + 1
    }

    /// The move in SAN, as python-chess writes it.
    #[getter]
    fn san<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        interned::string(py, self.san_of())
    }

    /// The move as written (normalised: figurines, `0-0` and the like read as SAN).
    #[getter]
    fn written(&self) -> PyResult<String> {
        Ok(self.node()?.san.to_string())
    }

    /// The move in UCI.
    #[getter]
    fn uci<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        interned::string(py, self.uci_of().as_str())
    }

    /// The move as a `tabia.Move` (python-chess's `node.move`).
    #[getter(r#move)]
    fn board_move(&self) -> crate::board::Move {
        let read = &self.game.get().read;
        crate::board::Move::of_option(read.moves[self.index], read.start.castling_mode())
    }

    /// The comments after the move, each as python-chess reads one (see [`comments`];
    /// commands such as `[%clk]` included).
    #[getter]
    fn comments(&self) -> PyResult<Vec<String>> {
        Ok(comments(&self.node()?.comments))
    }

    /// The comments after the move joined by a space: python-chess's `node.comment`.
    #[getter]
    fn comment(&self) -> PyResult<String> {
        Ok(comments(&self.node()?.comments).join(" "))
    }

    /// The NAGs of the move (`!` is 1).
    #[getter]
    fn nags(&self) -> PyResult<Vec<u16>> {
        Ok(self.node()?.nags.iter().map(|n| u16::from(n.0)).collect())
    }

    /// `[%clk]` after the move, in seconds (python-chess's `clock()`).
    #[getter]
    fn clock(&self) -> PyResult<Option<f64>> {
        Ok(seconds(self.node()?.clock()))
    }

    /// `[%emt]` after the move, in seconds.
    #[getter]
    fn emt(&self) -> PyResult<Option<f64>> {
        Ok(seconds(self.node()?.emt()))
    }

    /// `[%eval]` in centipawns, White's view.
    #[getter]
    fn eval_cp(&self) -> PyResult<Option<i32>> {
        Ok(eval_parts(self.node()?).0)
    }

    /// `[%eval #N]`: mate in N, positive when White mates.
    #[getter]
    fn eval_mate(&self) -> PyResult<Option<i32>> {
        Ok(eval_parts(self.node()?).1)
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabia.MainlineMove {} {} ({})>",
            self.index + 1,
            self.san_of(),
            self.uci_of().as_str()
        )
    }
}

/// The comments of one place of a game (after a move, before the first) as python-chess
/// reads them: each without the one space that pads it inside its braces (`{ [%clk 0:05:00] }`
/// is `[%clk 0:05:00]`, `{  two  }` is ` two `), with `\n` for its line ends (as Python reads
/// a text file), the empty ones left out. Joined by a space, they are python-chess's
/// `node.comment`. The tree keeps the comments as written, for `pgn()`.
fn comments(written: &[String]) -> Vec<String> {
    written
        .iter()
        .map(|comment| {
            let comment = comment.strip_prefix(' ').unwrap_or(comment);
            let comment = comment.strip_suffix(' ').unwrap_or(comment);
            if comment.contains('\r') {
                comment.replace("\r\n", "\n").replace('\r', "\n")
            } else {
                comment.to_owned()
            }
        })
        .filter(|comment| !comment.is_empty())
        .collect()
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
    /// The tag pairs, in input order, as a dict (python-chess's `game.headers`: the same dict
    /// at each access; what is set or deleted in it is written by `pgn()`).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if let Some(dict) = self.headers.get() {
            return Ok(dict.bind(py).clone());
        }
        let dict = PyDict::new(py);
        for (name, value) in self.read.tags.iter() {
            // The first of a repeated tag is the one that counts, as for the tables.
            if !self.read.tags.repeated || !dict.contains(name)? {
                dict.set_item(interned::string(py, name), value)?;
            }
        }
        Ok(self.headers.get_or_init(|| dict.unbind()).bind(py).clone())
    }

    /// The mainline in SAN, as python-chess writes it (the SAN as written, where it differs,
    /// is each `Move`'s `written`).
    #[getter]
    fn san<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, interned::strings(py, self.canonical_san().iter()))
    }

    /// The mainline in UCI.
    #[getter]
    fn uci<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ucis: Vec<Uci> = self.uci_moves().collect();
        PyList::new(py, interned::strings(py, ucis.iter().map(Uci::as_str)))
    }

    /// The mainline's moves with their annotations (each made when asked for).
    fn mainline(slf: &Bound<'_, Self>) -> Vec<Move> {
        (0..slf.get().read.moves.len())
            .map(|index| Move {
                game: slf.clone().unbind(),
                index,
            })
            .collect()
    }

    /// `[%clk]` after each mainline move, in seconds (None where a move has none).
    #[getter]
    fn clocks(&self) -> PyResult<Vec<Option<f64>>> {
        Ok(self.nodes()?.iter().map(|m| seconds(m.clock())).collect())
    }

    /// `[%eval]` after each mainline move in centipawns, White's view (None where a move has
    /// none or the evaluation is a mate; see `mainline()` for mates).
    #[getter]
    fn evals(&self) -> PyResult<Vec<Option<i32>>> {
        Ok(self.nodes()?.iter().map(|m| eval_parts(m).0).collect())
    }

    /// The NAGs of each mainline move.
    #[getter]
    fn nags(&self) -> PyResult<Vec<Vec<u16>>> {
        Ok(self
            .nodes()?
            .iter()
            .map(|m| m.nags.iter().map(|n| u16::from(n.0)).collect())
            .collect())
    }

    /// The comments after each mainline move, each as python-chess reads one ([`comments`]).
    #[getter]
    fn comments(&self) -> PyResult<Vec<Vec<String>>> {
        Ok(self
            .nodes()?
            .iter()
            .map(|m| comments(&m.comments))
            .collect())
    }

    /// The comments before the first move, each as python-chess reads one ([`comments`]).
    #[getter]
    fn intro_comments(&self) -> PyResult<Vec<String>> {
        Ok(comments(&self.tree()?.mainline.comments))
    }

    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[getter]
    fn result(&self) -> &'static str {
        self.read.result.as_str()
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
        self.read.raw.start.offset
    }

    /// The 1-based line where the game starts.
    #[getter]
    fn line(&self) -> u64 {
        self.read.raw.start.line
    }

    /// The starting position (the `FEN` tag's, or the standard one), as python-chess's
    /// `game.board()`.
    fn board(&self) -> Position {
        Position::from(self.read.start.clone())
    }

    /// The position after the last mainline move, the mainline its move stack (python-chess's
    /// `game.end().board()`: `pop()` takes moves back, repetitions count).
    fn end_board(&self) -> Position {
        let mut stack = MoveStack::new(self.read.start.clone());
        for &m in &self.read.moves {
            match m {
                Some(m) => stack.push(m),
                None => {
                    stack.push_null();
                }
            }
        }
        Position::from(stack)
    }

    /// The mainline's moves as `tabia.Move`s (python-chess's `game.mainline_moves()`).
    fn mainline_moves(&self) -> Vec<crate::board::Move> {
        let mode = self.read.start.castling_mode();
        self.read
            .moves
            .iter()
            .map(|&m| crate::board::Move::of_option(m, mode))
            .collect()
    }

    /// What pickle keeps: the game's bytes and where they were read; loading reads them
    /// again, so the game comes back as it was read.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let read = &slf.get().read;
        let start = read.raw.start;
        let state = (
            PyBytes::new(py, &read.raw.bytes),
            read.input.as_str(),
            read.number,
            (start.offset, start.line, start.column),
        )
            .into_pyobject(py)?;
        PyTuple::new(
            py,
            [
                slf.get_type().getattr("_from_state")?,
                PyTuple::new(py, [state])?.into_any(),
            ],
        )
    }

    /// The game of a pickled state (see `__reduce__`).
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyTuple>) -> PyResult<Game> {
        let (bytes, input, number, (offset, line, column)): (
            Vec<u8>,
            String,
            u64,
            (u64, u64, u64),
        ) = state.extract()?;
        let raw = RawGame {
            bytes,
            start: Origin {
                offset,
                line,
                column,
            },
        };
        match read_raw(&input, number, &raw, false) {
            Ok(read) => Ok(Game::from(read)),
            Err(Unread::Syntax(e)) => Err(PyValueError::new_err(e.to_string())),
            Err(Unread::Replay(e)) => Err(PyValueError::new_err(e.to_string())),
        }
    }

    /// The position after each mainline move.
    fn positions(&self) -> Vec<Position> {
        let mut pos = self.read.start.clone();
        self.read
            .moves
            .iter()
            .map(|m| {
                match m {
                    Some(m) => pos.play_unchecked(*m),
                    None => {
                        pos.play_null();
                    }
                }
                Position::from(pos.clone())
            })
            .collect()
    }

    /// The opening, named by the positions the mainline reaches (transpositions count), by
    /// the embedded table; None when it reaches no named position.
    fn opening(&self) -> PyResult<Option<crate::eco::Opening>> {
        Ok(tabia::opening(self.tree()?).map(crate::eco::Opening::from))
    }

    /// The game in PGN export format, with the tags of `headers` as they are now (a tag set
    /// or deleted there is written so, as python-chess does).
    fn pgn(&self, py: Python<'_>) -> PyResult<String> {
        let tree = self.tree()?;
        let Some(dict) = self.headers.get() else {
            return Ok(tree.to_string());
        };
        let mut tags = Vec::new();
        for (name, value) in dict.bind(py).iter() {
            tags.push((name.str()?.to_string(), value.str()?.to_string()));
        }
        // The dict as it was made: the first tag of each name, in input order.
        let read: Vec<(&str, &str)> = self.read.tags.iter().collect();
        let firsts: Vec<(&str, &str)> = read
            .iter()
            .enumerate()
            .filter(|(i, (name, _))| !read[..*i].iter().any(|(n, _)| n == name))
            .map(|(_, &pair)| pair)
            .collect();
        let unchanged = firsts.len() == tags.len()
            && firsts
                .iter()
                .zip(&tags)
                .all(|(&(n, v), (name, value))| n == name && v == value);
        if unchanged {
            return Ok(tree.to_string());
        }
        let mut game = tree.clone();
        game.tags = tags;
        Ok(game.to_string())
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.pgn(py)
    }

    fn __repr__(&self) -> String {
        let tag = |name| {
            self.read
                .tags
                .iter()
                .find(|&(n, _)| n == name)
                .map_or("?", |(_, v)| v)
        };
        format!(
            "<tabia.Game {} vs {} {} ({} plies, {}:{})>",
            tag("White"),
            tag("Black"),
            self.read.result.as_str(),
            self.read.moves.len(),
            self.read.input,
            self.read.number
        )
    }
}
