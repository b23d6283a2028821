//! The accumulator: counts over games, mergeable, with exact figures in bounded memory.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    io::Read,
};

use tabia_notation::pgn::{Outcome, PgnReader, RawGame, ReadError, Warning, variant_name};
use tabia_stream::{Pipeline, SplitGames, Visited, fold};

use crate::{
    accuracy::AccuracySums,
    facts::GameFacts,
    hash::{FxBuild, IdentityBuild},
    tags::Speed,
};

/// Plies counted one by one in a histogram below this; longer games (rare) in a sorted map.
const DENSE_PLIES: usize = 1024;

/// What a collection of games holds: counts that add up, merged from any number of parts.
///
/// Feed it games one by one ([`Stats::add_raw`], [`Stats::read_game`], or [`Stats::add`] with
/// the [`GameFacts`] of another reader), then [`Stats::report`]. Parts counted on several
/// threads are combined with [`Stats::merge`]; every figure is exact and the same whatever
/// the order of merging, so a parallel run gives the figures of a sequential one.
///
/// **Memory.** Ply counts are a histogram (exact median, memory bounded by the number of
/// distinct game lengths); players are a set of 64-bit hashes of their names (8–16 bytes per
/// distinct player: exact up to tens of millions of players, hash collisions about n²/2⁶⁵);
/// events, variants and ECO codes are counted exactly in maps (memory grows with the number of
/// distinct values, a few MB for a month of lichess tournaments); everything else is a fixed
/// set of counters, integers all (a game accuracy is summed in thousandths of a percent), so
/// that sums do not depend on the order of merging.
///
/// ```
/// use tabia_stats::Stats;
///
/// let pgn = b"[Event \"Club\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
///             [Event \"Club\"]\n[White \"B\"]\n[Black \"C\"]\n\n1. d4 1/2-1/2\n";
/// let stats = Stats::from_reader(&pgn[..])?;
/// let report = stats.report(None);
/// assert_eq!(report.games, 2);
/// assert_eq!(report.players, 3);
/// assert_eq!((report.plies.min, report.plies.median, report.plies.max), (Some(1), Some(1), Some(3)));
/// assert_eq!(report.events[0].name, "Club");
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub(crate) games: u64,
    pub(crate) errors: u64,
    pub(crate) warnings: u64,
    pub(crate) bytes: u64,
    /// `plies_dense[n]`: games of `n` plies, for `n < DENSE_PLIES`.
    pub(crate) plies_dense: Vec<u64>,
    pub(crate) plies_long: BTreeMap<u32, u64>,
    pub(crate) plies_total: u64,
    /// By [`Outcome`]: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub(crate) results: [u64; 4],
    pub(crate) dated: u64,
    pub(crate) first_date: Option<[u8; 10]>,
    pub(crate) last_date: Option<[u8; 10]>,
    pub(crate) variants: HashMap<Vec<u8>, u64, FxBuild>,
    pub(crate) speeds: [u64; 7],
    pub(crate) ratings: u64,
    pub(crate) rating_sum: u64,
    pub(crate) rating_min: Option<u32>,
    pub(crate) rating_max: Option<u32>,
    pub(crate) players: HashSet<u64, IdentityBuild>,
    pub(crate) events: HashMap<Vec<u8>, u64, FxBuild>,
    pub(crate) ecos: HashMap<Vec<u8>, u64, FxBuild>,
    pub(crate) with_comments: u64,
    pub(crate) with_variations: u64,
    pub(crate) with_clocks: u64,
    pub(crate) with_evals: u64,
    /// lichess's figures of the games whose moves carry evaluations, by rating band.
    pub(crate) accuracy: AccuracySums,
    /// The facts of the game being read (buffers reused from game to game).
    scratch: GameFacts,
    /// The bytes of the game being read ([`RawGame::visit_in`]), kept from game to game.
    game_bytes: Vec<u8>,
}

/// The figures a pipeline counted, or the read error that ended its input.
fn counted(
    outcome: Result<tabia_stream::Processed<tabia_stream::InputError>, std::convert::Infallible>,
    stats: Stats,
) -> Result<Stats, tabia_stream::InputError> {
    match outcome {
        Ok(outcome) => match outcome.input_error {
            Some(err) => Err(err),
            None => Ok(stats),
        },
        Err(never) => match never {},
    }
}

fn outcome_index(outcome: Outcome) -> usize {
    match outcome {
        Outcome::WhiteWins => 0,
        Outcome::BlackWins => 1,
        Outcome::Draw => 2,
        Outcome::Unknown => 3,
    }
}

fn bump(map: &mut HashMap<Vec<u8>, u64, FxBuild>, key: &[u8]) {
    match map.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            map.insert(key.to_vec(), 1);
        }
    }
}

impl Stats {
    /// No games yet.
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Counts a game read whole, whose facts are `facts` and which took `bytes` bytes of input.
    pub fn add(&mut self, facts: &GameFacts, bytes: u64) {
        self.games += 1;
        self.bytes += bytes;
        self.warnings += facts.warnings.len() as u64;
        self.add_plies(facts.plies, 1);
        self.results[outcome_index(facts.outcome)] += 1;
        let date = match facts.date {
            Some(date) => Some(date),
            None => facts.utc_date,
        };
        if let Some(date) = date {
            self.add_dates(1, date, date);
        }
        // Counted by canonical name, as `filter --variant` selects them.
        let variant = match facts.has_variant {
            true => variant_name(Some(&tabia_notation::decode(&facts.variant))),
            false => variant_name(None),
        };
        bump(&mut self.variants, variant.as_bytes());
        self.speeds[facts.speed.index()] += 1;
        for elo in [facts.white_elo, facts.black_elo].into_iter().flatten() {
            self.add_ratings(1, u64::from(elo), elo, elo);
        }
        for player in [facts.white, facts.black].into_iter().flatten() {
            self.players.insert(player);
        }
        if facts.has_event {
            bump(&mut self.events, &facts.event);
        }
        if facts.has_eco {
            bump(&mut self.ecos, &facts.eco);
        }
        self.with_comments += u64::from(facts.comments);
        self.with_variations += u64::from(facts.variations);
        self.with_clocks += u64::from(facts.clocks);
        self.with_evals += u64::from(facts.evals);
        self.accuracy.add(facts);
    }

    /// Counts a game that could not be read (a syntax error): it counts in the games and the
    /// errors, and in nothing else.
    pub fn add_error(&mut self, bytes: u64) {
        self.games += 1;
        self.errors += 1;
        self.bytes += bytes;
    }

    /// Reads a raw game (as [`tabia_stream::SplitGames`] splits them) and counts it; gives the
    /// warnings of a game that was read, or its syntax error (counted as an error).
    pub fn add_raw(&mut self, game: &RawGame) -> Result<&[Warning], ReadError> {
        let bytes = game.bytes.len() as u64;
        match game.visit_in(&mut self.scratch, &mut self.game_bytes) {
            Ok(()) => {
                let facts = std::mem::take(&mut self.scratch);
                self.add(&facts, bytes);
                self.scratch = facts;
                Ok(&self.scratch.warnings)
            }
            Err(err) => {
                self.add_error(bytes);
                Err(err)
            }
        }
    }

    /// Counts a game that a [`FactsVisitor`](crate::FactsVisitor) read where a worker found it
    /// ([`Pipeline::run_games`]): gives its warnings if it was read, or its syntax error
    /// (counted as an error).
    pub fn add_visited<'g>(
        &mut self,
        game: &'g Visited<'_, GameFacts>,
    ) -> Result<&'g [Warning], &'g ReadError> {
        let bytes = game.bytes.len() as u64;
        match &game.output {
            Ok(facts) => {
                self.add(facts, bytes);
                Ok(&facts.warnings)
            }
            Err(err) => {
                if err.syntax().is_some() {
                    self.add_error(bytes);
                }
                Err(err)
            }
        }
    }

    /// Reads the next game of `reader` and counts it: `Ok(None)` at the end of the input, the
    /// game's warnings if it was read, its syntax error (counted as an error; the reader goes
    /// on with the next game) or an I/O error (not counted: the reader stops).
    pub fn read_game<R: Read>(
        &mut self,
        reader: &mut PgnReader<R>,
    ) -> Result<Option<&[Warning]>, ReadError> {
        let read = reader.read_game(&mut self.scratch);
        // The game's bytes, from its first byte (not the blank lines before it) to its end, as
        // the splitter gives them.
        let start = match &read {
            Err(ReadError::Syntax { start, .. }) => start.offset,
            _ => self.scratch.start,
        };
        let bytes = reader.offset().saturating_sub(start);
        match read {
            Ok(Some(())) => {
                let facts = std::mem::take(&mut self.scratch);
                self.add(&facts, bytes);
                self.scratch = facts;
                Ok(Some(&self.scratch.warnings))
            }
            Ok(None) => Ok(None),
            Err(err) => {
                if err.syntax().is_some() {
                    self.add_error(bytes);
                }
                Err(err)
            }
        }
    }

    /// The statistics of a whole input, read on this thread (bad games counted as errors).
    pub fn from_reader<R: Read>(input: R) -> std::io::Result<Stats> {
        let mut stats = Stats::new();
        let mut reader = PgnReader::new(input);
        loop {
            match stats.read_game(&mut reader) {
                Ok(Some(_)) => {}
                Ok(None) => return Ok(stats),
                Err(ReadError::Io(err)) => return Err(err),
                Err(_) => {}
            }
        }
    }

    /// The statistics of PGN already in memory, read in place: the bytes are the reader's
    /// buffer (no copy into another one, as a reader over `io::Read` makes), as each worker of
    /// `tabia stats` reads its piece of the input. The bytes are given back with the figures.
    ///
    /// ```
    /// use tabia_stats::Stats;
    ///
    /// let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n".repeat(3);
    /// let (stats, bytes) = Stats::from_bytes(pgn.clone());
    /// assert_eq!(bytes, pgn);
    /// assert_eq!(stats.report(None), Stats::from_reader(&pgn[..])?.report(None));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn from_bytes(bytes: Vec<u8>) -> (Stats, Vec<u8>) {
        let mut stats = Stats::new();
        let mut reader = PgnReader::from_bytes(bytes);
        // Reading from memory does not fail: a syntax error is counted, and reading goes on.
        while !matches!(
            stats.read_game(&mut reader),
            Ok(None) | Err(ReadError::Io(_))
        ) {}
        (stats, reader.into_bytes())
    }

    /// The statistics of a whole input on all the workers of `pipeline`, each reading the games
    /// of its piece of the input in place ([`Pipeline::run_games`] with a
    /// [`FactsVisitor`](crate::FactsVisitor)), the parts merged: what `tabia stats` does.
    ///
    /// ```
    /// use tabia_stats::Stats;
    /// use tabia_stream::Pipeline;
    ///
    /// let pgn = b"[Result \"1-0\"]\n\n1. e4 {a} e5 1-0\n\n".repeat(1000);
    /// let pipeline = Pipeline::new().with_jobs(2).with_batch_bytes(4096);
    /// let parallel = Stats::from_input(&pgn[..], &pipeline)?;
    /// assert_eq!(parallel.report(None), Stats::from_reader(&pgn[..])?.report(None));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A read error of `input` (the figures of the games before it are lost with it: see
    /// [`Stats::read_input`] to keep them).
    pub fn from_input<R: Read + Send>(
        input: R,
        pipeline: &Pipeline,
    ) -> Result<Stats, tabia_stream::InputError> {
        match Stats::read_input(input, pipeline) {
            (stats, None) => Ok(stats),
            (_, Some(error)) => Err(error),
        }
    }

    /// [`Stats::from_input`] that keeps what it read: the figures of the games read before a
    /// read error that ended the input (a file cut in the middle) and the error, so that a
    /// truncated download still counts its games.
    ///
    /// ```
    /// use tabia_stats::Stats;
    /// use tabia_stream::Pipeline;
    ///
    /// /// The first bytes of a download, then the error that cut it.
    /// struct Cut<'a>(&'a [u8]);
    ///
    /// impl std::io::Read for Cut<'_> {
    ///     fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
    ///         if self.0.is_empty() {
    ///             return Err(std::io::Error::other("connection reset"));
    ///         }
    ///         let n = buf.len().min(self.0.len());
    ///         buf[..n].copy_from_slice(&self.0[..n]);
    ///         self.0 = &self.0[n..];
    ///         Ok(n)
    ///     }
    /// }
    ///
    /// // The input is cut into pieces where a line starts with `[`: games with tags.
    /// let pgn = b"[Event \"x\"]\n\n1. e4 e5 1-0\n\n".repeat(20_000);
    /// let pipeline = Pipeline::new().with_batch_bytes(1 << 12);
    /// let (stats, error) = Stats::read_input(Cut(&pgn[..pgn.len() / 2]), &pipeline);
    /// assert!(error.is_some());
    /// assert!((1..20_000).contains(&stats.report(None).games));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_input<R: Read + Send>(
        input: R,
        pipeline: &Pipeline,
    ) -> (Stats, Option<tabia_stream::InputError>) {
        let mut stats = Stats::new();
        let outcome = pipeline.run_games(
            input,
            crate::FactsVisitor::default,
            &fold(|part: &mut Stats, _number, game: Visited<'_, _>| {
                let _ = part.add_visited(&game);
            }),
            |part, _numbers| {
                stats.merge(part);
                Ok::<(), std::convert::Infallible>(())
            },
        );
        match outcome {
            Ok(outcome) => (stats, outcome.input_error),
            Err(never) => match never {},
        }
    }

    /// The statistics of the games a [`SplitGames`] splits an input into, on all the workers of
    /// `pipeline`: the input is split into games on one thread, each worker counts its batches
    /// (each game read again from a copy of its bytes), the parts are merged.
    /// [`Stats::from_input`] reads the games where the workers find them instead.
    ///
    /// ```
    /// use tabia_stats::Stats;
    /// use tabia_stream::{SplitGames, Pipeline};
    ///
    /// let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n".repeat(1000);
    /// let parallel = Stats::from_games(SplitGames::new(&pgn[..]), &Pipeline::new().with_jobs(2))?;
    /// let sequential = Stats::from_reader(&pgn[..])?;
    /// assert_eq!(parallel.report(None), sequential.report(None));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_games<R: Read + Send>(
        games: SplitGames<R>,
        pipeline: &Pipeline,
    ) -> Result<Stats, tabia_stream::InputError> {
        let mut stats = Stats::new();
        let outcome = pipeline.run(
            games,
            &fold(|part: &mut Stats, _number, game: &RawGame| {
                let _ = part.add_raw(game);
            }),
            |part, _numbers| {
                stats.merge(part);
                Ok::<(), std::convert::Infallible>(())
            },
        );
        counted(outcome, stats)
    }

    /// Adds the counts of `other` (counted on another thread, or another input).
    pub fn merge(&mut self, other: Stats) {
        self.games += other.games;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.bytes += other.bytes;
        for (plies, &n) in other.plies_dense.iter().enumerate() {
            if n > 0 {
                self.add_plies(plies as u32, n);
            }
        }
        for (&plies, &n) in &other.plies_long {
            self.add_plies(plies, n);
        }
        for (mine, theirs) in self.results.iter_mut().zip(other.results) {
            *mine += theirs;
        }
        if let (Some(first), Some(last)) = (other.first_date, other.last_date) {
            self.add_dates(other.dated, first, last);
        }
        merge_counts(&mut self.variants, other.variants);
        for (mine, theirs) in self.speeds.iter_mut().zip(other.speeds) {
            *mine += theirs;
        }
        if let (Some(min), Some(max)) = (other.rating_min, other.rating_max) {
            self.add_ratings(other.ratings, other.rating_sum, min, max);
        }
        if self.players.len() < other.players.len() {
            let mine = std::mem::replace(&mut self.players, other.players);
            self.players.extend(mine);
        } else {
            self.players.extend(other.players);
        }
        merge_counts(&mut self.events, other.events);
        merge_counts(&mut self.ecos, other.ecos);
        self.with_comments += other.with_comments;
        self.with_variations += other.with_variations;
        self.with_clocks += other.with_clocks;
        self.with_evals += other.with_evals;
        self.accuracy.merge(&other.accuracy);
    }

    /// SplitGames counted (read, and bad).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// SplitGames with a syntax error.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// Warnings of the games read.
    pub fn warnings(&self) -> u64 {
        self.warnings
    }

    /// Bytes of the games counted.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// SplitGames of `plies` mainline plies, among the games read.
    pub fn games_of_plies(&self, plies: u32) -> u64 {
        match self.plies_dense.get(plies as usize) {
            Some(&n) => n,
            None => self.plies_long.get(&plies).copied().unwrap_or(0),
        }
    }

    /// SplitGames with this speed.
    pub fn games_of_speed(&self, speed: Speed) -> u64 {
        self.speeds[speed.index()]
    }

    fn add_plies(&mut self, plies: u32, n: u64) {
        let index = plies as usize;
        if index < DENSE_PLIES {
            if self.plies_dense.len() <= index {
                self.plies_dense.resize(index + 1, 0);
            }
            self.plies_dense[index] += n;
        } else {
            *self.plies_long.entry(plies).or_default() += n;
        }
        self.plies_total += u64::from(plies) * n;
    }

    fn add_dates(&mut self, n: u64, first: [u8; 10], last: [u8; 10]) {
        self.dated += n;
        self.first_date = Some(self.first_date.map_or(first, |d| d.min(first)));
        self.last_date = Some(self.last_date.map_or(last, |d| d.max(last)));
    }

    fn add_ratings(&mut self, n: u64, sum: u64, min: u32, max: u32) {
        self.ratings += n;
        self.rating_sum += sum;
        self.rating_min = Some(self.rating_min.map_or(min, |r| r.min(min)));
        self.rating_max = Some(self.rating_max.map_or(max, |r| r.max(max)));
    }

    /// SplitGames read (without an error), by ply count, in increasing ply count.
    pub(crate) fn plies_histogram(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.plies_dense
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(plies, &n)| (plies as u32, n))
            .chain(self.plies_long.iter().map(|(&p, &n)| (p, n)))
    }
}

fn merge_counts(mine: &mut HashMap<Vec<u8>, u64, FxBuild>, theirs: HashMap<Vec<u8>, u64, FxBuild>) {
    for (key, n) in theirs {
        *mine.entry(key).or_default() += n;
    }
}
