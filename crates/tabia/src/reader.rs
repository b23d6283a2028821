//! [`Reader`]: the games of files on all cores, in input order.

use std::{
    ops::{ControlFlow, Range},
    path::PathBuf,
    sync::{Arc, mpsc},
    thread,
};

use tabia_notation::pgn::{Game, RawGame};
use tabia_stream::{
    Bytes, Input, InputErrorKind, OnRawGames, Pipeline, Source, Span, expand_folders, fold,
};

use crate::{GameError, GameErrorKind};

/// Every game of `paths` (files, compressed or not, zip archives, folders of them; no path at
/// all is standard input), parsed on all cores and given in input order. A game that cannot be
/// read, or an input that cannot be opened or read to its end, is an `Err` item, and reading
/// goes on with the next game or input. Dropping the iterator stops the reading.
///
/// `tabia::read(paths)` is `Reader::new(paths).games()`; [`Reader`] sets the number of
/// workers and gives the other ways to read.
///
/// ```
/// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
/// let games = tabia::read([file]).collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(games[0].tag("White"), Some("Fischer, Robert J."));
/// # Ok::<(), tabia::GameError>(())
/// ```
pub fn read<I, P>(paths: I) -> Mapped<Game>
where
    I: IntoIterator<Item = P>,
    P: Into<PathBuf>,
{
    Reader::new(paths).games()
}

/// Reads the games of files on all cores, in input order: where the work of
/// [`Reader::games`], [`Reader::map`], [`Reader::select`], [`Reader::stats`],
/// [`Reader::tree`] and [`Reader::table`] runs. Inputs are read one after the other, each
/// split into games by the workers themselves ([`tabia_stream::Pipeline`]), so memory stays
/// bounded however large the files.
#[derive(Debug, Clone)]
pub struct Reader {
    inputs: Vec<InputArg>,
    jobs: usize,
    /// Only the games that start in these bytes of the one file (see [`Reader::range`]).
    range: Option<Range<u64>>,
    /// The bytes of PGN a batch holds, when not the pipeline's default.
    batch_bytes: Option<usize>,
}

/// One input of a [`Reader`]: a path (a file, compressed or not, a zip archive, a folder of
/// them) or bytes in memory (PGN, compressed or not) with the name they go by.
///
/// ```
/// use tabia::{InputArg, Reader};
///
/// let text = b"[White \"A\"]\n\n1. e4 e5 1-0\n".as_slice();
/// let games = Reader::of([InputArg::memory("<string>", text)])
///     .games()
///     .collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(games[0].tag("White"), Some("A"));
/// # Ok::<(), tabia::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputArg {
    /// A file, an archive or a folder (`-`: standard input).
    Path(PathBuf),
    /// Bytes in memory and their name in the games and errors.
    Memory {
        /// The name (`<string>`, a file object's name).
        name: String,
        /// The bytes.
        bytes: Arc<[u8]>,
    },
}

impl InputArg {
    /// The input of `bytes`, named `name`.
    pub fn memory(name: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> InputArg {
        InputArg::Memory {
            name: name.into(),
            bytes: bytes.into(),
        }
    }
}

impl From<PathBuf> for InputArg {
    fn from(path: PathBuf) -> InputArg {
        InputArg::Path(path)
    }
}

impl From<&std::path::Path> for InputArg {
    fn from(path: &std::path::Path) -> InputArg {
        InputArg::Path(path.to_path_buf())
    }
}

/// A game before it is parsed, as the workers of a [`Reader`] hand it to a
/// [`Reader::map`] closure: its input, its number there and its bytes.
#[derive(Debug)]
pub struct Item<'a> {
    input: &'a Arc<str>,
    number: u64,
    raw: &'a RawGame,
}

impl Item<'_> {
    /// The input's name (`ARCHIVE/ENTRY` for an entry of a zip archive).
    pub fn input(&self) -> &str {
        self.input
    }

    /// The game's number in its input, from 1.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The game's bytes and where they start.
    pub fn raw(&self) -> &RawGame {
        self.raw
    }

    /// The game tree.
    ///
    /// # Errors
    ///
    /// A syntax error, located in the input.
    pub fn parse(&self) -> Result<Game, GameError> {
        self.raw.parse().map_err(|error| self.error(error))
    }

    /// `error`, from reading this game's bytes (with a visitor of one's own,
    /// [`RawGame::visit`]), as this game's error.
    ///
    /// ```
    /// use tabia::notation::pgn::Visitor;
    ///
    /// struct Plies(usize);
    /// impl Visitor for Plies {
    ///     type Output = usize;
    ///     fn san(&mut self, _: tabia::notation::san::SanPlus, _: tabia::notation::pgn::Origin) {
    ///         self.0 += 1;
    ///     }
    ///     fn end_game(&mut self) -> usize {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// let plies = tabia::Reader::new([file])
    ///     .map(|item| item.raw().visit(&mut Plies(0)).map_err(|e| item.error(e)))
    ///     .collect::<Result<Vec<usize>, _>>()?;
    /// assert_eq!(plies, [85]);
    /// # Ok::<(), tabia::GameError>(())
    /// ```
    pub fn error(&self, error: tabia_notation::pgn::ReadError) -> GameError {
        let kind = match error {
            tabia_notation::pgn::ReadError::Syntax { error, .. } => GameErrorKind::Syntax(error),
            tabia_notation::pgn::ReadError::Io(error) => GameErrorKind::Io(error),
            // The reader's errors to come, said all the same rather than dropped.
            other => GameErrorKind::Io(std::io::Error::other(other.to_string())),
        };
        GameError::new(self.input.clone(), Some(self.number), kind)
    }
}

/// What an aggregate of a whole collection gave ([`Reader::tree`], [`Reader::stats`]), and
/// the games and inputs it could not take in, in input order.
#[derive(Debug)]
#[non_exhaustive]
pub struct Gathered<T> {
    /// The aggregate.
    pub value: T,
    /// What was left out, and why.
    pub errors: Vec<GameError>,
}

impl Reader {
    /// A reader of `paths` (no path: standard input) with one worker per core.
    pub fn new<I, P>(paths: I) -> Reader
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        Reader::of(paths.into_iter().map(|p| InputArg::Path(p.into())))
    }

    /// A reader of `inputs`, paths and bytes in memory, in that order (none: standard
    /// input), with one worker per core.
    pub fn of(inputs: impl IntoIterator<Item = InputArg>) -> Reader {
        Reader {
            inputs: inputs.into_iter().collect(),
            jobs: 0,
            range: None,
            batch_bytes: None,
        }
    }

    /// A reader of the games that start in `bytes` of the file at `path`, with one worker per
    /// core: a part of one large file for a machine of a cluster, planned with
    /// [`stream::ranges`](tabia_stream::ranges). However a file is cut into ranges, each of
    /// its games is read by exactly one, with its number, line and column in the file (in the
    /// games, the table rows and the errors), as [`Reader::new`] of the whole file gives them.
    /// Finding where the range's games start splits the bytes before its end (without
    /// parsing them: see [`Span`]).
    ///
    /// A compressed file cannot be entered in the middle: a range that covers all of it
    /// (`0..len`, as `ranges` plans it) reads it whole, any other is an `Err` item.
    ///
    /// ```
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/annotations.pgn");
    /// let all: Vec<_> = tabia::read([file]).collect::<Result<_, _>>()?;
    /// // Three machines, a range each:
    /// let mut parts = Vec::new();
    /// for range in tabia::stream::ranges(file, 150)? {
    ///     for game in tabia::Reader::range(file, range).games() {
    ///         parts.push(game?);
    ///     }
    /// }
    /// assert_eq!(parts, all);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn range(path: impl Into<PathBuf>, bytes: Range<u64>) -> Reader {
        Reader {
            inputs: vec![InputArg::Path(path.into())],
            jobs: 0,
            range: Some(bytes),
            batch_bytes: None,
        }
    }

    /// Sets the number of workers: 0 (the default) is one per core, 1 reads on one thread.
    #[must_use]
    pub fn jobs(mut self, jobs: usize) -> Reader {
        self.jobs = jobs;
        self
    }

    /// Every game, parsed on the workers (see [`read`]).
    pub fn games(&self) -> Mapped<Game> {
        self.map(|item| item.parse())
    }

    /// `f` of every game, run on the workers; the results in input order. An input that
    /// cannot be opened or read to its end is an `Err` item of its own.
    ///
    /// ```
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// // The EPD after every ply of every game, the replay on all cores.
    /// let epds: Vec<Vec<String>> = tabia::Reader::new([file])
    ///     .map(|item| {
    ///         let game = item.parse()?;
    ///         tabia::Replay::new(&game)
    ///             .map(|ply| ply.map(|p| p.epd()))
    ///             .collect::<Result<_, _>>()
    ///             .map_err(|e| tabia::GameError::replay(item.input(), item.number(), e))
    ///     })
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(epds[0].last().map(String::as_str),
    ///            Some("8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - -"));
    /// # Ok::<(), tabia::GameError>(())
    /// ```
    pub fn map<T, F>(&self, f: F) -> Mapped<T>
    where
        T: Send + 'static,
        F: Fn(&Item<'_>) -> Result<T, GameError> + Send + Sync + 'static,
    {
        self.spawn(
            move |out: &mut Vec<Result<T, GameError>>, item| out.push(f(item)),
            |out| out,
        )
    }

    /// The games that match `query` (criteria on tags, players, openings, positions reached,
    /// patterns, material, moves), each decided while it is read; games that cannot be read
    /// are `Err` items, as in [`read`].
    ///
    /// ```
    /// use tabia::select::{Criterion, Options, Query};
    ///
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// // Games that reach the Ruy Lopez, by any move order.
    /// let target = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    /// let query = Query::new(vec![Criterion::Position(target.parse()?)], Options::default());
    /// let games = tabia::Reader::new([file]).select(query).collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(games.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn select(&self, query: tabia_select::Query) -> Mapped<Game> {
        self.select_map(query, |item| item.parse())
    }

    /// `f` of every game that matches `query`, run on the workers (as [`Reader::map`] for
    /// the games [`Reader::select`] selects): where a program needs more of a selected game
    /// than its tree, its input and number for one.
    ///
    /// ```
    /// use tabia::select::{Criterion, Options, Query};
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok");
    /// let query = Query::new(vec![Criterion::from_option("white", Some("Fischer"))?], Options::default());
    /// let found: Vec<(String, u64)> = tabia::Reader::new([dir])
    ///     .select_map(query, |item| Ok((item.input().to_owned(), item.number())))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(found.len(), 1);
    /// assert!(found[0].0.ends_with("sample.pgn"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn select_map<T, F>(&self, query: tabia_select::Query, f: F) -> Mapped<T>
    where
        T: Send + 'static,
        F: Fn(&Item<'_>) -> Result<T, GameError> + Send + Sync + 'static,
    {
        let query = Arc::new(query);
        self.spawn(
            move |out: &mut Vec<Result<T, GameError>>, item: &Item<'_>| {
                let mut matcher = tabia_select::Matcher::new(&query);
                match item.raw.visit(&mut matcher) {
                    Ok(Ok(verdict)) if verdict.matched => out.push(f(item)),
                    Ok(Ok(_)) => {}
                    // A game that cannot be replayed cannot be decided: said, not dropped.
                    Ok(Err(error)) => {
                        out.push(Err(GameError::replay(item.input, item.number, error)))
                    }
                    Err(error) => out.push(Err(item.error(error))),
                }
            },
            |out| out,
        )
    }

    /// Every game analysed by the engines of `analyser`, the moves `selection` judges, as
    /// `tabia analyse` analyses them: each game read and repaired on the workers (as
    /// [`repair_game`](tabia_position::repair_game) repairs it), the positions of a batch of
    /// games asked at once ([`Analyser::request_game`](tabia_analyse::Analyser::request_game): each position once, from the cache
    /// when it has it) so that no engine idles at the end of a game, then each game waited
    /// for on its worker and given with its analysis ([`Analysed`]), in input order. A game
    /// that cannot be read or replayed is an `Err` item.
    ///
    /// [`Analyser::stop`](tabia_analyse::Analyser::stop) (a Ctrl-C) makes every analysis still to come end at once,
    /// [`GameAnalysis::stopped`](tabia_analyse::GameAnalysis::stopped) (the reading goes on: drop the iterator to end it). When the
    /// iterator is done (or dropped, and its thread done), `analyser` is the caller's alone
    /// again: [`Arc::try_unwrap`] then [`Analyser::finish`](tabia_analyse::Analyser::finish) quits the engines and commits the
    /// cache.
    ///
    /// ```no_run
    /// use std::{sync::Arc, time::Duration};
    ///
    /// use tabia::analyse::{Analyser, AnnotateOptions, Limit, Pool, PoolSpec, Selection};
    ///
    /// let spec = PoolSpec {
    ///     command: "stockfish".parse()?,
    ///     options: PoolSpec::options_with_defaults(Vec::new()),
    ///     limit: Limit { depth: Some(12), ..Limit::default() },
    ///     multipv: 1,
    ///     timeout: Duration::from_secs(60),
    ///     retries: 2,
    /// };
    /// let analyser = Arc::new(Analyser::new(Pool::start(spec, 2)?, None));
    /// let options = AnnotateOptions {
    ///     annotator: Some(analyser.pool().settings().annotator()),
    ///     ..AnnotateOptions::default()
    /// };
    /// let games = tabia::Reader::new(["games.pgn"]).jobs(2);
    /// for analysed in games.analyse(Arc::clone(&analyser), Selection::default()) {
    ///     println!("{}\n", analysed?.annotated(&options));
    /// }
    /// let report = Arc::try_unwrap(analyser).expect("the reader is done").finish()?;
    /// eprintln!("{} positions analysed, {} from the cache", report.analysed, report.cached);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyse(
        &self,
        analyser: Arc<tabia_analyse::Analyser>,
        selection: tabia_analyse::Selection,
    ) -> Mapped<Analysed> {
        self.analyse_map(analyser, selection, |_, analysed| Ok(analysed))
    }

    /// `f` of every game of [`Reader::analyse`] and its analysis, run on the workers (where
    /// a program writes the analysis into the game, or reads its evaluations, in parallel);
    /// the results in input order.
    pub fn analyse_map<T, F>(
        &self,
        analyser: Arc<tabia_analyse::Analyser>,
        selection: tabia_analyse::Selection,
        f: F,
    ) -> Mapped<T>
    where
        T: Send + 'static,
        F: Fn(&Item<'_>, Analysed) -> Result<T, GameError> + Send + Sync + 'static,
    {
        // Small batches, as `tabia analyse`'s: a few hundred positions for the engines each,
        // the first games given back soon.
        let reader = Reader {
            batch_bytes: Some(ANALYSE_BATCH_BYTES),
            ..self.clone()
        };
        reader.spawn(
            move |batch: &mut Vec<Result<Requested, GameError>>, item: &Item<'_>| {
                batch.push(Requested::new(&analyser, &selection, item));
            },
            move |batch| {
                batch
                    .into_iter()
                    .map(|requested| requested.and_then(|r| r.wait(&f)))
                    .collect()
            },
        )
    }

    /// The statistics of the collection (games, plies, results, dates, time controls,
    /// ratings, players, events, ECO codes, annotations): what `tabia stats` prints.
    ///
    /// ```
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// let stats = tabia::Reader::new([file]).stats();
    /// assert!(stats.errors.is_empty());
    /// assert_eq!(stats.value.report(None).games, 1);
    /// ```
    pub fn stats(&self) -> Gathered<tabia_stats::Stats> {
        let pipeline = self.pipeline();
        let mut gathered = Gathered {
            value: tabia_stats::Stats::new(),
            errors: Vec::new(),
        };
        for source in self.sources() {
            let name: Arc<str> = source.name().into();
            match self.open(&source, &pipeline) {
                Ok((input, _)) => {
                    // The games before a read error count (a file cut in the middle).
                    let (stats, error) = tabia_stats::Stats::read_input(input, &pipeline);
                    gathered.value.merge(stats);
                    if let Some(error) = error {
                        gathered.errors.push(input_error(name, None, error));
                    }
                }
                Err(error) => gathered.errors.push(input_error(name, None, error)),
            }
        }
        gathered
    }

    /// The opening tree of the collection: every move played from each position, how often
    /// and how it scored (read on the workers, grown as [`tabia_book::Trees`] grows it: the
    /// same tree whatever the jobs, even with a node budget); with
    /// [`book::Book::from_tree`](tabia_book::Book::from_tree), a Polyglot book.
    ///
    /// ```
    /// use tabia::book::{Book, BookOptions, TreeOptions};
    ///
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// let tree = tabia::Reader::new([file]).tree(TreeOptions::default());
    /// assert!(tree.errors.is_empty());
    /// assert_eq!(tree.value.games(), 1);
    /// let book = Book::from_tree(&tree.value, BookOptions { min_games: 1, ..BookOptions::default() });
    /// let start = tabia::Position::new();
    /// assert_eq!(book.probe(&start)[0].uci, "e2e4");
    /// ```
    pub fn tree(&self, options: tabia_book::TreeOptions) -> Gathered<tabia_book::Tree> {
        let trees = tabia_book::Trees::new(options);
        let mut errors = Vec::new();
        self.fold(
            |(errors, batch): &mut (Vec<GameError>, tabia_book::TreeBatch), item| {
                if let Err(error) = trees.add_pgn_game(batch, &item.raw.bytes, item.raw.start) {
                    errors.push(add_error(item, error));
                }
            },
            |done| done,
            |done| {
                match done {
                    Ok((batch_errors, batch)) => {
                        errors.extend(batch_errors);
                        trees.add_batch(batch);
                    }
                    Err(error) => errors.push(error),
                }
                ControlFlow::Continue(())
            },
        );
        Gathered {
            value: trees.finish(),
            errors,
        }
    }

    /// The games (and, with `options.moves`, their moves) as Arrow record batches, one
    /// [`Tables`](tabia_table::Tables) per batch of the workers, in input order, with the
    /// schema of `tabia table` ([`tabia_table::games_schema`]). A game that cannot be read is
    /// a row all the same, with its error.
    ///
    /// ```
    /// use tabia::table::{Columns, ReadOptions};
    ///
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// let options = ReadOptions { moves: true, ..ReadOptions::default() };
    /// let mut rows = (0, 0);
    /// for tables in tabia::Reader::new([file]).table(options, Columns::default()) {
    ///     let tables = tables?;
    ///     rows.0 += tables.games.num_rows();
    ///     rows.1 += tables.moves.map_or(0, |moves| moves.num_rows());
    /// }
    /// assert_eq!(rows, (1, 85));
    /// # Ok::<(), tabia::GameError>(())
    /// ```
    #[cfg(feature = "table")]
    pub fn table(
        &self,
        options: tabia_table::ReadOptions,
        columns: tabia_table::Columns,
    ) -> Mapped<tabia_table::Tables> {
        let files: Arc<str> = Arc::from("");
        self.spawn(
            move |acc: &mut (tabia_table::Rows, Option<Arc<str>>), item: &Item<'_>| {
                acc.0.read(item.input, item.raw, item.number, options);
                acc.1.get_or_insert_with(|| item.input.clone());
            },
            move |(rows, input)| {
                let tables = rows.finish(columns, options.moves).map_err(|error| {
                    let input = input.unwrap_or_else(|| files.clone());
                    GameError::new(input, None, GameErrorKind::Table(error))
                });
                vec![tables]
            },
        )
    }

    fn pipeline(&self) -> Pipeline {
        let pipeline = Pipeline::new().with_jobs(self.jobs);
        match self.batch_bytes {
            Some(bytes) => pipeline.with_batch_bytes(bytes),
            None => pipeline,
        }
    }

    fn sources(&self) -> Vec<Source> {
        if self.range.is_some() {
            // One file, not a folder or an archive.
            return self
                .inputs
                .iter()
                .map(|input| match input {
                    InputArg::Path(file) => Source::File(file.clone()),
                    InputArg::Memory { name, bytes } => Source::Memory {
                        name: name.clone(),
                        bytes: bytes.clone(),
                    },
                })
                .collect();
        }
        if self.inputs.is_empty() {
            return vec![Source::Stdin];
        }
        let mut sources = Vec::new();
        let mut paths = Vec::new();
        for input in &self.inputs {
            match input {
                InputArg::Path(path) => paths.push(path.clone()),
                InputArg::Memory { name, bytes } => {
                    if !paths.is_empty() {
                        sources.extend(Source::from_args(&expand_folders(&paths)));
                        paths.clear();
                    }
                    sources.push(Source::Memory {
                        name: name.clone(),
                        bytes: bytes.clone(),
                    });
                }
            }
        }
        if !paths.is_empty() {
            sources.extend(Source::from_args(&expand_folders(&paths)));
        }
        sources
    }

    /// Opens `source`, or the span of it that the reader's range holds.
    fn open(
        &self,
        source: &Source,
        pipeline: &Pipeline,
    ) -> Result<(Input, Option<Span>), tabia_stream::InputError> {
        let (Some(range), Source::File(path)) = (&self.range, source) else {
            return source.open().map(|input| (input, None));
        };
        match Span::locate(path, range.clone(), pipeline) {
            Ok(span) => Ok((span.open(path)?, Some(span))),
            // A compressed file is read whole, by the range that covers it.
            Err(error)
                if error.kind() == InputErrorKind::Range
                    && range.start == 0
                    && std::fs::metadata(path).is_ok_and(|meta| range.end >= meta.len()) =>
            {
                source.open().map(|input| (input, None))
            }
            Err(error) => Err(error),
        }
    }

    /// Runs `work` on every game on the workers, an `A` per batch turned into a `B` by
    /// `finish` there, and `consume` on each `B` (or input error) in input order on this
    /// thread, until it breaks.
    fn fold<A, B, W, F, C>(&self, work: W, finish: F, mut consume: C)
    where
        A: Default,
        B: Send,
        W: Fn(&mut A, &Item<'_>) + Sync,
        F: Fn(A) -> B + Sync,
        C: FnMut(Result<B, GameError>) -> ControlFlow<()>,
    {
        let pipeline = self.pipeline();
        for source in self.sources() {
            let name: Arc<str> = source.name().into();
            let (input, span) = match self.open(&source, &pipeline) {
                Ok(opened) => opened,
                Err(error) => match consume(Err(input_error(name, None, error))) {
                    ControlFlow::Continue(()) => continue,
                    ControlFlow::Break(()) => return,
                },
            };
            let each = |acc: &mut A, number, raw: &RawGame| {
                let item = Item {
                    input: &name,
                    number,
                    raw,
                };
                work(acc, &item);
            };
            let work = OnRawGames(fold(each).finish(&finish));
            let batch = |b, _numbers| match consume(Ok(b)) {
                ControlFlow::Continue(()) => Ok(()),
                ControlFlow::Break(()) => Err(()),
            };
            let outcome = match &span {
                Some(span) => pipeline.run_games_from(input, span, Bytes::default, &work, batch),
                None => pipeline.run_games(input, Bytes::default, &work, batch),
            };
            match outcome {
                Err(()) => return,
                Ok(outcome) => {
                    if let Some(error) = outcome.input_error {
                        let before = span.as_ref().map_or(0, |span| span.games_before);
                        let next = Some(before + outcome.items + 1);
                        if consume(Err(input_error(name, next, error))).is_break() {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// [`Reader::fold`] on a thread of its own, the results of each batch handed over as an
    /// iterator.
    fn spawn<T, A, W, F>(&self, work: W, finish: F) -> Mapped<T>
    where
        T: Send + 'static,
        A: Default,
        W: Fn(&mut A, &Item<'_>) + Send + Sync + 'static,
        F: Fn(A) -> Vec<Result<T, GameError>> + Send + Sync + 'static,
    {
        // Batches in flight are bounded by the pipeline; two more wait here.
        let (sender, receiver) = mpsc::sync_channel(2);
        let reader = self.clone();
        let thread = thread::spawn(move || {
            reader.fold(work, finish, |batch| {
                let batch = batch.unwrap_or_else(|error| vec![Err(error)]);
                match sender.send(batch) {
                    Ok(()) => ControlFlow::Continue(()),
                    // The iterator was dropped: stop reading.
                    Err(_) => ControlFlow::Break(()),
                }
            });
        });
        Mapped {
            receiver,
            batch: Vec::new().into_iter(),
            thread: Some(thread),
        }
    }
}

/// The results of a [`Reader`]'s work, in input order, as they come from the workers
/// ([`read`], [`Reader::map`], [`Reader::select`], [`Reader::table`]).
#[derive(Debug)]
pub struct Mapped<T> {
    receiver: mpsc::Receiver<Vec<Result<T, GameError>>>,
    batch: std::vec::IntoIter<Result<T, GameError>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl<T> Iterator for Mapped<T> {
    type Item = Result<T, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.batch.next() {
                return Some(item);
            }
            match self.receiver.recv() {
                Ok(batch) => self.batch = batch.into_iter(),
                Err(_) => {
                    // The reading thread is done; a panic there (in the caller's closure)
                    // is the caller's to see.
                    if let Some(thread) = self.thread.take()
                        && let Err(panic) = thread.join()
                    {
                        std::panic::resume_unwind(panic);
                    }
                    return None;
                }
            }
        }
    }
}

/// The bytes of PGN in a batch of [`Reader::analyse`] (`tabia analyse`'s): about a hundred
/// games, some thousands of positions.
const ANALYSE_BATCH_BYTES: usize = 1 << 14;

/// A game of [`Reader::analyse`]: read, repaired and analysed.
#[derive(Debug)]
#[non_exhaustive]
pub struct Analysed {
    /// The game, repaired as [`repair_game`](tabia_position::repair_game) repairs it (the
    /// moves in SAN, the `FEN` and `Result` tags).
    pub game: Game,
    /// What the repair found, in the order of the text.
    pub warnings: Vec<tabia_position::ReplayWarning>,
    /// The analysis of its positions; for a variant no UCI engine plays, the
    /// [`PlanError::Variant`](tabia_analyse::PlanError::Variant) that says so (the game is
    /// not analysed).
    pub analysis: Result<tabia_analyse::GameAnalysis, tabia_analyse::PlanError>,
}

impl Analysed {
    /// The game with its analysis written in as `tabia analyse` writes it
    /// ([`GameAnalysis::annotate`](tabia_analyse::GameAnalysis::annotate): `[%eval]`s,
    /// advice, the accuracy tags); as it was read for a variant, or when the analysis was
    /// stopped.
    pub fn annotated(mut self, options: &tabia_analyse::AnnotateOptions) -> Game {
        if let Ok(analysis) = &self.analysis
            && !analysis.stopped()
        {
            analysis.annotate(&mut self.game, options);
        }
        self.game
    }
}

/// A game of [`Reader::analyse`] whose positions were asked, on its worker.
struct Requested {
    input: Arc<str>,
    number: u64,
    raw: RawGame,
    game: Game,
    warnings: Vec<tabia_position::ReplayWarning>,
    request: Result<tabia_analyse::GameRequest, tabia_analyse::PlanError>,
}

impl Requested {
    /// Reads, repairs and plans the game of `item`, and asks for its positions.
    fn new(
        analyser: &tabia_analyse::Analyser,
        selection: &tabia_analyse::Selection,
        item: &Item<'_>,
    ) -> Result<Requested, GameError> {
        let replay_error = |error| GameError::replay(item.input, item.number, error);
        let mut game = item.parse()?;
        let warnings = tabia_position::repair_game(&mut game)
            .map_err(replay_error)?
            .warnings;
        let request = match analyser.request_game(&game, selection) {
            Err(tabia_analyse::PlanError::Replay(error)) => return Err(replay_error(error)),
            request => request,
        };
        Ok(Requested {
            input: item.input.clone(),
            number: item.number,
            raw: item.raw.clone(),
            game,
            warnings,
            request,
        })
    }

    /// Waits for the analyses, then gives `f` the game and them.
    fn wait<T>(
        self,
        f: &impl Fn(&Item<'_>, Analysed) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let item = Item {
            input: &self.input,
            number: self.number,
            raw: &self.raw,
        };
        let analysed = Analysed {
            game: self.game,
            warnings: self.warnings,
            analysis: self.request.map(tabia_analyse::GameRequest::wait),
        };
        f(&item, analysed)
    }
}

fn input_error(name: Arc<str>, number: Option<u64>, error: tabia_stream::InputError) -> GameError {
    GameError::new(name, number, GameErrorKind::Input(error))
}

fn add_error(item: &Item<'_>, error: tabia_book::AddGameError) -> GameError {
    match error {
        tabia_book::AddGameError::Syntax(error) => item.error(error),
        tabia_book::AddGameError::Replay(error) => GameError::new(
            item.input.clone(),
            Some(item.number),
            GameErrorKind::Replay(error),
        ),
        other => GameError::new(
            item.input.clone(),
            Some(item.number),
            GameErrorKind::Io(std::io::Error::other(other.to_string())),
        ),
    }
}
