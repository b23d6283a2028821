//! `analyse`: every game of files analysed by UCI engines as `tabia analyse` analyses them
//! (`tabia::Reader::analyse_map`: each position once, from the cache or the engines), given
//! back as games (`tabia.Game`, the analysis written in: the text `tabia analyse` writes) or
//! as a table of evaluations (`tabia analyse --json`'s records as Arrow columns). The engines
//! run with the GIL released; Ctrl-C stops them.

use std::{
    path::PathBuf,
    sync::{Arc, Mutex, mpsc},
    thread,
    time::{Duration, Instant},
};

use arrow_array::{
    ArrayRef, RecordBatch,
    builder::{Int32Builder, Int64Builder, ListBuilder, StringBuilder, StructBuilder},
};
use pyo3::{
    exceptions::{
        PyChildProcessError, PyFileNotFoundError, PyOSError, PyTimeoutError, PyValueError,
    },
    prelude::*,
    types::{PyDict, PyList, PyString},
};
use tabia::{
    analyse::{
        Analyser, AnalyserReport, AnnotateOptions, Cache, CacheError, EngineCommand, Evaluation,
        Limit, Pool, PoolSpec, Selection, UciError, UciErrorKind, parse_plies,
    },
    notation::pgn::Origin,
    position::shakmaty::Color,
    table::arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef},
};

use crate::{
    error::game_error,
    games::{Game, located},
    table::TableStream,
};

/// How often the wait for the engines looks for a Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

/// How long a Ctrl-C waits for the reader to let go of the analyser (to quit the engines and
/// commit the cache), at most.
const LET_GO: Duration = Duration::from_secs(10);

/// `err` as the exception a Python user expects, with the library's message: a missing
/// engine is `FileNotFoundError` (as `subprocess` says it), an option it does not have
/// `ValueError`, no answer in time `TimeoutError`, an engine that exits `ChildProcessError`,
/// the rest `OSError`.
fn engine_error(err: &UciError) -> PyErr {
    let message = err.to_string();
    match err.kind() {
        UciErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        UciErrorKind::UnknownOption { .. } | UciErrorKind::Position(_) => {
            PyValueError::new_err(message)
        }
        UciErrorKind::Timeout { .. } => PyTimeoutError::new_err(message),
        UciErrorKind::Crashed(_) => PyChildProcessError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// A cache of another format is `ValueError`; one in use by another process, or that cannot
/// be read or written, `OSError`.
fn cache_error(err: &CacheError) -> PyErr {
    let message = err.to_string();
    match err {
        CacheError::Format { .. } => PyValueError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// The engine: a command line (`"stockfish"`, `"lc0 --weights=t1.pb.gz"`: split on white
/// space) or a list of the program and its arguments.
fn engine_command(engine: &Bound<'_, PyAny>) -> PyResult<EngineCommand> {
    if let Ok(line) = engine.cast::<PyString>() {
        return line
            .to_str()?
            .parse()
            .map_err(|e| PyValueError::new_err(format!("engine={line}: {e}")));
    }
    let words: Vec<String> = engine.extract()?;
    let mut words = words.into_iter();
    let program = words
        .next()
        .ok_or_else(|| PyValueError::new_err("engine=[]: an engine command needs a program"))?;
    Ok(words.fold(EngineCommand::new(program), EngineCommand::arg))
}

/// The moves judged, from the keyword arguments.
fn selection(
    plies: Option<&str>,
    side: Option<&str>,
    player: Option<String>,
    overwrite: bool,
) -> PyResult<Selection> {
    let plies = plies
        .map(parse_plies)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("plies {e}")))?;
    let side = match side.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("white" | "w") => Some(Color::White),
        Some("black" | "b") => Some(Color::Black),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "side={other:?}: expected \"white\" or \"black\""
            )));
        }
    };
    Ok(Selection {
        plies,
        side,
        player,
        overwrite,
    })
}

/// What a worker gives back of one game.
struct Done {
    /// The input's name and the game's number there.
    file: String,
    number: u64,
    /// The game with its analysis, or its evaluations.
    value: Value,
    /// What was not analysed and why, for the report (`FILE:LINE:COL: game N: message`).
    notes: Vec<String>,
}

enum Value {
    Game(Box<Game>),
    Rows(Vec<Evaluation>),
}

/// A note for the report, placed as the command line places its warnings.
fn note(item: &tabia::Item<'_>, at: Option<Origin>, message: impl std::fmt::Display) -> String {
    let place = match at.filter(|at| at.line > 0) {
        Some(at) => format!("{}:{}:{}", item.input(), at.line, at.column),
        None => item.input().to_owned(),
    };
    format!("{place}: game {}: {message}", item.number())
}

/// The analysis of one game, on its worker: the warnings of its reading and of its analysis,
/// and the game with the analysis written in (or its evaluations, for the table).
fn finish(
    item: &tabia::Item<'_>,
    analysed: tabia::Analysed,
    annotate: &AnnotateOptions,
    as_table: bool,
) -> Result<Done, tabia::GameError> {
    let mut warnings: Vec<String> = analysed
        .warnings
        .iter()
        .map(|w| located(w.origin(), w))
        .collect();
    let mut notes = Vec::new();
    match &analysed.analysis {
        // Stopped by a Ctrl-C, which ends the call: its positions are no warnings.
        Ok(analysis) if analysis.stopped() => {}
        Ok(analysis) => {
            for unanalysed in analysis.unanalysed(&analysed.game) {
                let at = unanalysed.after.map(|mv| mv.at);
                warnings.push(located(at, unanalysed));
                notes.push(note(item, at, unanalysed));
            }
        }
        Err(err) => {
            warnings.push(err.to_string());
            notes.push(note(item, None, err));
        }
    }
    let value = if as_table {
        Value::Rows(
            analysed
                .analysis
                .as_ref()
                .map(tabia::analyse::GameAnalysis::evaluations)
                .unwrap_or_default(),
        )
    } else {
        let tree = analysed.annotated(annotate);
        Value::Game(Box::new(Game::of_tree(item, tree, warnings)?))
    };
    Ok(Done {
        file: item.input().to_owned(),
        number: item.number(),
        value,
        notes,
    })
}

/// One row of the table: a position's evaluation, or a game that could not be read.
struct Row {
    file: String,
    game: i64,
    value: Result<Evaluation, String>,
}

/// What the caller gets, gathered as the workers give it.
#[derive(Default)]
struct Gathered {
    games: Vec<Py<Game>>,
    rows: Vec<Row>,
    errors: Vec<Py<PyAny>>,
    notes: Vec<String>,
    analysed_games: u64,
}

impl Gathered {
    fn push(&mut self, py: Python<'_>, item: Result<Done, tabia::GameError>) -> PyResult<()> {
        match item {
            Ok(Done {
                file,
                number,
                value,
                notes,
            }) => {
                self.analysed_games += 1;
                self.notes.extend(notes);
                match value {
                    Value::Game(game) => self.games.push(Py::new(py, *game)?),
                    Value::Rows(rows) => {
                        self.rows.extend(rows.into_iter().map(|evaluation| Row {
                            file: file.clone(),
                            game: int64(number),
                            value: Ok(evaluation),
                        }));
                    }
                }
            }
            Err(error) => {
                self.rows.push(Row {
                    file: error.input().to_owned(),
                    game: error.number().map_or(0, int64),
                    value: Err(error.to_string()),
                });
                self.errors
                    .push(game_error(py, &error).into_value(py).into_any());
            }
        }
        Ok(())
    }
}

/// The columns of the table, `tabia analyse --json`'s fields (White's scores).
fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game", DataType::Int64, false),
        Field::new("ply", DataType::Int32, true),
        Field::new("fen", DataType::Utf8, true),
        Field::new("depth", DataType::Int32, true),
        Field::new("seldepth", DataType::Int32, true),
        Field::new("nodes", DataType::Int64, true),
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
        Field::new("best", DataType::Utf8, true),
        Field::new("pv", DataType::Utf8, true),
        Field::new("lines", DataType::List(Arc::new(line_field())), true),
        Field::new("error", DataType::Utf8, true),
    ]))
}

/// One line of a position with `multipv` above 1.
fn line_fields() -> Fields {
    Fields::from(vec![
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
        Field::new("pv", DataType::Utf8, true),
    ])
}

fn line_field() -> Field {
    Field::new("item", DataType::Struct(line_fields()), true)
}

fn int64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn int32(n: Option<u32>) -> Option<i32> {
    n.map(|n| i32::try_from(n).unwrap_or(i32::MAX))
}

/// The rows as one record batch.
fn batch(rows: &[Row]) -> Result<RecordBatch, ArrowError> {
    let n = rows.len();
    let mut file = StringBuilder::with_capacity(n, n * 16);
    let mut game = Int64Builder::with_capacity(n);
    let mut ply = Int32Builder::with_capacity(n);
    let mut fen = StringBuilder::with_capacity(n, n * 60);
    let mut depth = Int32Builder::with_capacity(n);
    let mut seldepth = Int32Builder::with_capacity(n);
    let mut nodes = Int64Builder::with_capacity(n);
    let mut cp = Int32Builder::with_capacity(n);
    let mut mate = Int32Builder::with_capacity(n);
    let mut best = StringBuilder::with_capacity(n, n * 5);
    let mut pv = StringBuilder::with_capacity(n, n * 40);
    let mut lines = ListBuilder::new(StructBuilder::from_fields(line_fields(), 0))
        .with_field(Arc::new(line_field()));
    let mut error = StringBuilder::new();
    for row in rows {
        file.append_value(&row.file);
        game.append_value(row.game);
        match &row.value {
            Ok(e) => {
                ply.append_value(i32::try_from(e.ply).unwrap_or(i32::MAX));
                fen.append_value(&e.fen);
                depth.append_option(int32(e.depth));
                seldepth.append_option(int32(e.seldepth));
                nodes.append_option(e.nodes.map(int64));
                cp.append_option(e.cp);
                mate.append_option(e.mate);
                best.append_option(e.best.as_deref());
                pv.append_option(e.pv.as_ref().map(|pv| pv.join(" ")));
                if e.lines.is_empty() {
                    lines.append_null();
                } else {
                    let values = lines.values();
                    for line in &e.lines {
                        append_line(values, line)?;
                    }
                    lines.append(true);
                }
                error.append_option(e.error.as_deref());
            }
            Err(message) => {
                ply.append_null();
                fen.append_null();
                depth.append_null();
                seldepth.append_null();
                nodes.append_null();
                cp.append_null();
                mate.append_null();
                best.append_null();
                pv.append_null();
                lines.append_null();
                error.append_value(message);
            }
        }
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(file.finish()),
        Arc::new(game.finish()),
        Arc::new(ply.finish()),
        Arc::new(fen.finish()),
        Arc::new(depth.finish()),
        Arc::new(seldepth.finish()),
        Arc::new(nodes.finish()),
        Arc::new(cp.finish()),
        Arc::new(mate.finish()),
        Arc::new(best.finish()),
        Arc::new(pv.finish()),
        Arc::new(lines.finish()),
        Arc::new(error.finish()),
    ];
    RecordBatch::try_new(schema(), columns)
}

fn append_line(
    values: &mut StructBuilder,
    line: &tabia::analyse::EvaluationLine,
) -> Result<(), ArrowError> {
    let missing = || ArrowError::SchemaError("the columns of a line".to_owned());
    values
        .field_builder::<Int32Builder>(0)
        .ok_or_else(missing)?
        .append_option(line.cp);
    values
        .field_builder::<Int32Builder>(1)
        .ok_or_else(missing)?
        .append_option(line.mate);
    values
        .field_builder::<StringBuilder>(2)
        .ok_or_else(missing)?
        .append_value(line.pv.join(" "));
    values.append(true);
    Ok(())
}

/// The report as a dict: what the engines did and what went wrong.
fn report(
    py: Python<'_>,
    gathered: &Gathered,
    done: &AnalyserReport,
    engines: usize,
    settings: &str,
) -> PyResult<Py<PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("games", gathered.analysed_games)?;
    dict.set_item("bad", gathered.errors.len())?;
    dict.set_item("analysed", done.analysed)?;
    dict.set_item("cached", done.cached)?;
    dict.set_item("repeated", done.repeated)?;
    dict.set_item("failed", done.failed)?;
    dict.set_item("restarts", done.pool.restarts)?;
    dict.set_item("engines", engines)?;
    dict.set_item("settings", settings)?;
    dict.set_item("warnings", PyList::new(py, &gathered.notes)?)?;
    Ok(dict.unbind())
}

/// Takes the analyser back once the reader lets go of it (at once when the reading is done)
/// and finishes it: the engines quit, the cache committed. `None` when the reader still holds
/// it after `wait` (its last holder then drops it: the engines are killed, and the cache keeps
/// what its committer had).
fn take_back(
    mut analyser: Arc<Analyser>,
    wait: Duration,
) -> Option<Result<AnalyserReport, CacheError>> {
    let deadline = Instant::now() + wait;
    loop {
        match Arc::try_unwrap(analyser) {
            Ok(analyser) => return Some(analyser.finish()),
            Err(shared) if Instant::now() < deadline => {
                analyser = shared;
                thread::sleep(Duration::from_millis(20));
            }
            Err(_) => return None,
        }
    }
}

/// The schema of `analyse`'s table, as a stream of no batches (a Dask `meta`, a Spark
/// schema, before any engine runs).
#[pyfunction]
pub(crate) fn analysis_schema() -> TableStream {
    TableStream::new(schema(), Box::new(std::iter::empty()))
}

/// What `analyse` gives the Python wrapper: the games (a list) or the table's stream, the
/// report (a dict), the `GameError` of each game left out.
type Analysed = (Py<PyAny>, Py<PyDict>, Vec<Py<PyAny>>);

/// Every game of `paths` analysed by `jobs` engines (see `tabia.analyse` in
/// `python/tabia/__init__.py`): the games (or the table's stream), the report, the errors.
#[pyfunction]
#[pyo3(signature = (paths, engine, depth = None, nodes = None, movetime = None, multipv = 1, options = Vec::new(), jobs = None, cache = None, plies = None, side = None, player = None, overwrite = false, variations = false, as_table = false, timeout = 120.0, retries = 2))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
pub(crate) fn analyse(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    engine: &Bound<'_, PyAny>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    multipv: u32,
    options: Vec<(String, String)>,
    jobs: Option<usize>,
    cache: Option<PathBuf>,
    plies: Option<&str>,
    side: Option<&str>,
    player: Option<String>,
    overwrite: bool,
    variations: bool,
    as_table: bool,
    timeout: f64,
    retries: u32,
) -> PyResult<Analysed> {
    let command = engine_command(engine)?;
    let selection = selection(plies, side, player, overwrite)?;
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(PyValueError::new_err(format!(
            "timeout={timeout}: give the seconds an engine has for one position"
        )));
    }
    let engines = match jobs {
        None | Some(0) => thread::available_parallelism().map_or(1, usize::from),
        Some(n) => n,
    };
    let spec = PoolSpec {
        command,
        options: PoolSpec::options_with_defaults(options),
        limit: Limit {
            depth,
            nodes,
            movetime,
        },
        multipv: multipv.max(1),
        timeout: Duration::from_secs_f64(timeout),
        retries,
    };
    let (analyser, settings) = py.detach(|| -> PyResult<_> {
        let pool = Pool::start(spec, engines).map_err(|e| engine_error(&e))?;
        let settings = pool.settings();
        let cache = cache
            .map(|path| Cache::open(&path, &settings.fingerprint()))
            .transpose()
            .map_err(|e| cache_error(&e))?;
        Ok((Arc::new(Analyser::new(pool, cache)), settings))
    })?;
    let annotate = AnnotateOptions {
        variations,
        annotator: Some(settings.annotator()),
    };
    let games = tabia::Reader::new(paths).jobs(engines).analyse_map(
        Arc::clone(&analyser),
        selection,
        move |item, analysed| finish(item, analysed, &annotate, as_table),
    );
    // The games come through a thread of their own, so that this one waits with a timeout
    // and sees a Ctrl-C.
    let (sender, receiver) = mpsc::channel();
    // A mutex only to be `Sync`, as what the GIL-free wait borrows must be.
    let receiver = Mutex::new(receiver);
    let forwarder = thread::Builder::new()
        .name("tabia-analyse".to_owned())
        .spawn(move || {
            for item in games {
                if sender.send(item).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| PyOSError::new_err(format!("no thread for the analysis: {e}")))?;
    let mut gathered = Gathered::default();
    loop {
        let next = py.detach(|| match receiver.lock() {
            Ok(receiver) => receiver.recv_timeout(POLL),
            Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
        });
        let step = match next {
            Ok(item) => gathered.push(py, item),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(()),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        // A Ctrl-C seen here, or raised by Python code while a game was gathered (Python
        // checks signals as it runs), or any other error: every analysis still to come ends
        // at once, the engines quit and the cache keeps what was analysed.
        if let Err(err) = step.and_then(|()| py.check_signals()) {
            analyser.stop();
            drop(receiver);
            py.detach(|| {
                // Bounded: a Ctrl-C is never answered by a wait without end (a reader stuck
                // behind the engines is left to end on its own).
                let deadline = Instant::now() + LET_GO;
                while !forwarder.is_finished() && Instant::now() < deadline {
                    thread::sleep(Duration::from_millis(20));
                }
                if forwarder.is_finished() {
                    let _ = forwarder.join();
                }
                let _ = take_back(analyser, LET_GO);
            });
            return Err(err);
        }
    }
    let done = py.detach(|| {
        let _ = forwarder.join();
        take_back(analyser, LET_GO)
    });
    let done = match done {
        Some(done) => done.map_err(|e| cache_error(&e))?,
        None => {
            return Err(PyOSError::new_err(
                "the reader did not let go of the engines: the analysis is not complete",
            ));
        }
    };
    let report = report(py, &gathered, &done, engines, &settings.fingerprint())?;
    let value = if as_table {
        let batch = batch(&gathered.rows).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let stream = TableStream::new(schema(), Box::new(std::iter::once(Ok(batch))));
        Py::new(py, stream)?.into_any()
    } else {
        PyList::new(py, &gathered.games)?.into_any().unbind()
    };
    Ok((value, report, gathered.errors))
}
