//! One run of a subcommand over its inputs: standard output, the reporter on standard error,
//! the pipeline configuration and the running tally.
//!
//! A streaming subcommand reads like this:
//!
//! ```text
//! let mut session = Session::new(&args.run, "games");
//! let matched = session.counter("matched"); // optional: a count of its own in the summary
//! for source in Source::from_args(&args.files) {
//!     let Some(input) = session.open(&source) else { continue };
//!     let name = input.name.clone();
//!     let work = each(|sink: &mut Sink, number, game: &RawGame| {
//!         // parse `game`, write to `sink.out`, report with `sink.error(...)` or
//!         // `sink.warning(...)`, count with `sink.bump(matched)`
//!     });
//!     session.games(input, &work, |()| Ok(()))?;
//! }
//! session.finish()
//! ```
//!
//! An input that cannot be opened or read to the end is reported (`tabia: cannot open …`) and
//! the run goes on with the next one; it makes the exit status 2. An error writing standard
//! output is returned at once (a closed pipe then ends the run quietly in `main`).

use std::{
    io::{self, BufRead, IsTerminal, Write},
    path::PathBuf,
};

use tabia_notation::pgn::Visitor;
use tabia_stream::{Bytes, OnRawGames, Pipeline, RawGame, Visited};

use crate::{
    cli::{RunArgs, Status},
    input::{Input, Source, raw_games},
    output::{self, OutputArg},
    parallel::{self, Counted, Counter, Sink, Weigh, Work},
    progress::{Progress, ProgressExtra},
    report::{Diagnostic, Reporter, Tally},
};

/// One run of a subcommand. See the module docs.
pub(crate) struct Session<'a> {
    out: Box<dyn Write + 'a>,
    reporter: Reporter<'a>,
    config: Pipeline,
    progress: bool,
    /// What the progress line adds after the items (`tabia analyse`'s positions).
    extra: Option<ProgressExtra>,
    tally: Tally,
}

impl Session<'static> {
    /// A session on standard output and standard error; the progress meter is shown when
    /// standard error is a terminal and `--quiet` was not given.
    pub(crate) fn new(args: &RunArgs, noun: &'static str) -> Session<'static> {
        Session::with_output(output::stdout(), args, noun)
    }

    /// A session writing to `-o FILE` when it was given (refused when it is one of `inputs`),
    /// else to standard output.
    ///
    /// # Errors
    ///
    /// As [`OutputArg::open`].
    pub(crate) fn to_output(
        args: &RunArgs,
        out: &OutputArg,
        inputs: &[PathBuf],
        noun: &'static str,
    ) -> anyhow::Result<Session<'static>> {
        Ok(Session::with_output(out.open(inputs)?, args, noun))
    }
}

impl<'a> Session<'a> {
    /// A session writing to `out` instead of standard output (a command's own files, or
    /// nowhere when an ordered stage writes what the workers made), standard error as usual.
    pub(crate) fn with_output(
        out: impl Write + 'a,
        args: &RunArgs,
        noun: &'static str,
    ) -> Session<'a> {
        let progress = !args.quiet && io::stderr().is_terminal();
        Session::with_writers(out, io::stderr(), args, noun, progress)
    }
}

impl<'a> Session<'a> {
    /// A session on the given writers (for tests).
    pub(crate) fn with_writers(
        out: impl Write + 'a,
        err: impl Write + 'a,
        args: &RunArgs,
        noun: &'static str,
        progress: bool,
    ) -> Session<'a> {
        Session {
            out: Box::new(out),
            reporter: Reporter::new(err, noun, args.quiet)
                .with_warnings(args.warnings)
                .with_whole(args.whole),
            config: parallel::config(args.jobs),
            progress,
            extra: None,
            tally: Tally::default(),
        }
    }

    /// Opens `source`; if it cannot be opened, reports why, counts it as failed and gives `None`.
    pub(crate) fn open(&mut self, source: &Source) -> Option<Input> {
        match source.open_with(self.config.jobs()) {
            Ok(input) => Some(input.into()),
            Err(err) => {
                self.fail(&anyhow::Error::new(err));
                None
            }
        }
    }

    /// Runs the pipeline over one input: `split` turns its decompressed bytes into items,
    /// `work` ([`parallel::Work`]: [`parallel::each`], [`parallel::fold`] or a type of its
    /// own) processes each item (it gets the item's 1-based number in this input) into its
    /// batch's sink, and `consume` gets the command's part of each finished batch on this
    /// thread, in input order (an error of `consume` ends the run). Outputs and diagnostics
    /// are written in input order.
    pub(crate) fn items<T, E, I, S, A, B, W, C>(
        &mut self,
        input: Input,
        split: S,
        work: &W,
        consume: C,
    ) -> io::Result<()>
    where
        T: Weigh,
        E: Into<anyhow::Error> + Send,
        I: Iterator<Item = Result<T, E>> + Send,
        S: FnOnce(Box<dyn BufRead + Send>) -> I,
        A: Default,
        B: Send,
        W: for<'i> Work<&'i T, Batch = (Sink, A), Done = (Sink, B)>,
        C: FnMut(B) -> anyhow::Result<()>,
    {
        let config = self.config_for(&input);
        self.start_input(&input);
        let items = split(input.stream.into_reader());
        let outcome = parallel::run(
            |consume| config.run(items, &Counted(work), consume),
            consume,
            &mut self.out,
            &mut self.reporter,
        )
        .map_err(into_io)?;
        self.end_input(&input.name, outcome)
    }

    /// [`Session::items`] over the games of one PGN input, as [`raw_games`] splits them: on
    /// the workers when there are several, each worker splitting its piece of the input
    /// ([`Pipeline::run_games`]).
    pub(crate) fn games<A, B, W, C>(&mut self, input: Input, work: &W, consume: C) -> io::Result<()>
    where
        A: Default,
        B: Send,
        W: for<'i> Work<&'i RawGame, Batch = (Sink, A), Done = (Sink, B)>,
        C: FnMut(B) -> anyhow::Result<()>,
    {
        let config = self.config_for(&input);
        if config.jobs() <= 1 {
            return self.items(input, raw_games, work, consume);
        }
        self.start_input(&input);
        let reader = input.stream.into_reader();
        let outcome = parallel::run(
            |consume| config.run_games(reader, Bytes::default, &OnRawGames(Counted(work)), consume),
            consume,
            &mut self.out,
            &mut self.reporter,
        )
        .map_err(into_io)?;
        self.end_input(&input.name, outcome)
    }

    /// [`Session::items`] over the games of one PGN input, each read by a visitor as a worker
    /// finds it in its piece of the input ([`Pipeline::run_games`]): `visitor` makes one
    /// visitor a piece, `work` gets each game's number, bytes and what the visitor made of it.
    pub(crate) fn visit<V, M, A, B, W, C>(
        &mut self,
        input: Input,
        visitor: M,
        work: &W,
        consume: C,
    ) -> io::Result<()>
    where
        V: Visitor,
        M: Fn() -> V + Sync,
        A: Default,
        B: Send,
        W: for<'i> Work<Visited<'i, V::Output>, Batch = (Sink, A), Done = (Sink, B)>,
        C: FnMut(B) -> anyhow::Result<()>,
    {
        let config = self.config_for(&input);
        self.start_input(&input);
        let reader = input.stream.into_reader();
        let outcome = parallel::run(
            |consume| config.run_games(reader, visitor, &Counted(work), consume),
            consume,
            &mut self.out,
            &mut self.reporter,
        )
        .map_err(into_io)?;
        self.end_input(&input.name, outcome)
    }

    /// Shows the progress of reading `input`.
    fn start_input(&mut self, input: &Input) {
        let read = input.stream.bytes_read();
        let progress = Progress::new(
            self.progress,
            &input.name,
            self.reporter.noun(),
            Box::new(move || read.get()),
            input.stream.size(),
        );
        self.reporter
            .set_progress(progress.with_extra(self.extra.clone()));
    }

    /// Adds `extra`'s text to the progress line, after the items and their rate.
    pub(crate) fn set_progress_extra(&mut self, extra: Box<dyn Fn() -> String + Send + Sync>) {
        self.extra = Some(std::sync::Arc::from(extra));
    }

    /// Adds what reading an input gave to the tally, and reports the error that ended it.
    fn end_input(&mut self, name: &str, outcome: parallel::Outcome) -> io::Result<()> {
        self.reporter.clear_progress();
        self.reporter.end_input(name);
        self.tally.items += outcome.items;
        self.tally.bad += outcome.bad;
        self.tally.warnings += outcome.warnings;
        self.tally.notes += outcome.notes;
        for (counter, n) in self.tally.counters.iter_mut().zip(&outcome.counts) {
            counter.1 += n;
        }
        if let Some(err) = outcome.input_error {
            self.out.flush()?;
            self.fail(&err.context(name.to_owned()));
        }
        Ok(())
    }

    /// Sets how many bytes of input make one batch of the pipeline (`tabia table`: one row
    /// group per batch).
    pub(crate) fn set_batch_bytes(&mut self, bytes: usize) {
        self.config = self.config.with_batch_bytes(bytes);
    }

    /// How many bytes of input make one batch of the pipeline.
    #[cfg(feature = "table")]
    pub(crate) fn batch_bytes(&self) -> usize {
        self.config.batch_bytes()
    }

    /// [`Session::set_batch_bytes`], unless `TABIA_BATCH_BYTES` asks for another size (the
    /// tests that cut a small input into many pieces).
    pub(crate) fn prefer_batch_bytes(&mut self, bytes: usize) {
        if parallel::batch_bytes_asked().is_none() {
            self.set_batch_bytes(bytes);
        }
    }

    /// Reads one input in one pass on this thread, for `-j 1` when a subcommand's work is a
    /// visitor that can run on the reader itself (no splitting into raw games first): `read`
    /// gets the decompressed input and a [`Pass`] to hand each game's [`Sink`] to (its output
    /// and diagnostics are written, it is counted, the progress meter moves). An I/O error of
    /// `read` is the input's read error (reported, the run goes on with the next input).
    pub(crate) fn one_pass<F>(&mut self, input: Input, read: F) -> io::Result<()>
    where
        F: FnOnce(Box<dyn BufRead + Send>, &mut Pass<'_, 'a>) -> io::Result<()>,
    {
        let bytes = input.stream.bytes_read();
        self.reporter.set_progress(Progress::new(
            self.progress,
            &input.name,
            self.reporter.noun(),
            Box::new(move || bytes.get()),
            input.stream.size(),
        ));
        let name = input.name;
        let mut pass = Pass {
            session: self,
            outcome: parallel::Outcome::default(),
            error: None,
        };
        let read = read(input.stream.into_reader(), &mut pass);
        let (outcome, error) = (pass.outcome, pass.error);
        if let Some(err) = error {
            return Err(err);
        }
        self.reporter.clear_progress();
        self.reporter.end_input(&name);
        self.tally.items += outcome.items;
        self.tally.bad += outcome.bad;
        self.tally.warnings += outcome.warnings;
        self.tally.notes += outcome.notes;
        for (counter, n) in self.tally.counters.iter_mut().zip(&outcome.counts) {
            counter.1 += n;
        }
        if let Err(err) = read {
            self.out.flush()?;
            // As the pipeline words it: `NAME: read error: cause`.
            self.fail(&anyhow::Error::new(err).context("read error").context(name));
        }
        Ok(())
    }

    /// How many workers the pipeline runs (1: everything on the calling thread).
    pub(crate) fn jobs(&self) -> usize {
        self.config.jobs()
    }

    /// The pipeline for `input`: on this thread when it holds no more than one batch of PGN
    /// (one batch gives the other workers nothing to do, and starting them costs more than
    /// reading it: a zip archive of 20,000 one-game entries took 1.8 s on two cores, 0.2 s on
    /// one). The output is the same whatever the jobs.
    fn config_for(&self, input: &Input) -> Pipeline {
        match input.text_size() {
            Some(size) if size <= self.config.batch_bytes() as u64 => self.config.with_jobs(1),
            _ => self.config,
        }
    }

    /// Standard output, for what a subcommand writes outside the pipeline.
    pub(crate) fn out(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Declares a summary counter, printed after the item count in the order declared
    /// (`games 10, matched 4, errors 0, warnings 0`); workers bump it with [`Sink::bump`].
    #[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
    pub(crate) fn counter(&mut self, name: &'static str) -> Counter {
        self.tally.counters.push((name, 0));
        Counter(self.tally.counters.len() - 1)
    }

    /// Adds `n` to a summary counter outside the pipeline.
    #[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
    pub(crate) fn add(&mut self, counter: Counter, n: u64) {
        if let Some(count) = self.tally.counters.get_mut(counter.0) {
            count.1 += n;
        }
    }

    /// Reports a warning outside the pipeline, and counts it.
    #[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
    pub(crate) fn warning(&mut self, diagnostic: &Diagnostic) -> io::Result<()> {
        self.tally.warnings += 1;
        if self.reporter.writes_warnings() {
            // Standard output first, so that the two stay in step on a terminal.
            self.out.flush()?;
            self.reporter
                .write_raw(format!("{}\n", diagnostic.as_warning()).as_bytes());
        }
        Ok(())
    }

    /// Counts items processed outside the pipeline.
    pub(crate) fn count(&mut self, items: u64, bad: u64) {
        self.tally.items += items;
        self.tally.bad += bad;
    }

    /// Reports a diagnostic outside the pipeline (standard output is flushed first, so that the
    /// two stay in step on a terminal).
    pub(crate) fn diagnostic(&mut self, diagnostic: &Diagnostic) -> io::Result<()> {
        self.out.flush()?;
        self.reporter.diagnostic(diagnostic);
        Ok(())
    }

    /// Reports an input that could not be opened or read; the exit status becomes 2.
    pub(crate) fn fail(&mut self, err: &anyhow::Error) {
        self.tally.failed_inputs += 1;
        self.reporter.error(err);
    }

    /// Ends the run: flushes standard output, writes the summary (unless `--quiet`), gives the
    /// exit status.
    pub(crate) fn finish(mut self) -> io::Result<Status> {
        self.out.flush()?;
        Ok(self.reporter.finish(&self.tally))
    }

    /// Ends the run like [`Session::finish`], without a summary line: for subcommands that
    /// handle a few positions given as arguments.
    pub(crate) fn finish_without_summary(mut self) -> io::Result<Status> {
        self.out.flush()?;
        self.reporter.clear_progress();
        Ok(self.tally.status())
    }
}

/// One input read in one pass ([`Session::one_pass`]): where each game's [`Sink`] goes.
pub(crate) struct Pass<'s, 'a> {
    session: &'s mut Session<'a>,
    outcome: parallel::Outcome,
    /// An error writing standard output: the run ends.
    error: Option<io::Error>,
}

impl Pass<'_, '_> {
    /// One game is done: writes its output and diagnostics, counts it, clears `sink`. Gives
    /// an error when standard output cannot be written (then stop reading).
    pub(crate) fn done(&mut self, sink: &mut Sink) -> io::Result<()> {
        sink.end_item();
        self.outcome.items += 1;
        let session = &mut *self.session;
        let written = parallel::write_done(
            sink,
            &mut session.out,
            &mut session.reporter,
            &mut self.outcome,
        );
        sink.clear();
        written.map_err(|err| {
            let err = into_io(err);
            let kept = io::Error::new(err.kind(), err.to_string());
            self.error = Some(err);
            kept
        })
    }
}

/// Keeps an `io::Error` as it is (so that a closed pipe is recognised), wraps anything else.
fn into_io(err: anyhow::Error) -> io::Error {
    match err.downcast::<io::Error>() {
        Ok(io) => io,
        Err(other) => io::Error::other(format!("{other:#}")),
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;
    use crate::input::TextLine;

    fn args(jobs: usize, quiet: bool) -> RunArgs {
        RunArgs {
            jobs: NonZeroUsize::new(jobs),
            quiet,
            ..RunArgs::default()
        }
    }

    /// Upper-cases lines; a line `bad` is an error, a line `three` a warning; lines longer
    /// than three bytes are counted.
    fn shout(name: &str, long: Counter, sink: &mut Sink, number: u64, line: &TextLine) {
        if line.bytes.len() > 3 {
            sink.bump(long);
        }
        if line.bytes == b"three" {
            sink.warning(
                &Diagnostic::new(name, "odd line")
                    .at(line.number, 1)
                    .game(number),
            );
        }
        if line.bytes == b"bad" {
            sink.error(
                &Diagnostic::new(name, "bad line")
                    .at(line.number, 1)
                    .game(number),
            );
            return;
        }
        sink.out.extend(line.bytes.to_ascii_uppercase());
        sink.out.push(b'\n');
    }

    fn run(files: &[std::path::PathBuf], jobs: usize, quiet: bool) -> (String, String, Status) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = {
            let mut session =
                Session::with_writers(&mut out, &mut err, &args(jobs, quiet), "lines", false);
            let long = session.counter("long");
            for source in Source::from_args(files) {
                let Some(input) = session.open(&source) else {
                    continue;
                };
                let name = input.name.clone();
                let work = parallel::each(|sink: &mut Sink, n, line: &TextLine| {
                    shout(&name, long, sink, n, line);
                });
                session
                    .items(input, tabia_stream::TextLines::new, &work, |()| Ok(()))
                    .unwrap();
            }
            session.finish().unwrap()
        };
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            status,
        )
    }

    #[test]
    fn files_in_order_with_diagnostics_summary_and_status() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        let b = dir.path().join("b.txt.gz");
        std::fs::write(&a, "one\nbad\nthree\n").unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"four\r\nfive\n").unwrap();
        std::fs::write(&b, gz.finish().unwrap()).unwrap();
        for jobs in [1, 2] {
            let (out, err, status) = run(&[a.clone(), b.clone()], jobs, false);
            assert_eq!(out, "ONE\nTHREE\nFOUR\nFIVE\n");
            assert_eq!(
                err,
                format!(
                    "{}:2:1: game 2: bad line\n{}:3:1: game 3: warning: odd line\n\
                     lines 5, long 3, errors 1, warnings 1\n",
                    a.display(),
                    a.display()
                )
            );
            assert_eq!(status, Status::SomeBad);
        }
    }

    #[test]
    fn missing_input_is_reported_and_the_run_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "ok\n").unwrap();
        let missing = dir.path().join("missing.txt");
        let (out, err, status) = run(&[missing.clone(), a], 1, true);
        assert_eq!(out, "OK\n");
        assert!(
            err.starts_with(&format!("tabia: cannot open {}: ", missing.display())),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "quiet: no summary");
        assert_eq!(status, Status::Failure);
    }

    #[test]
    fn corrupt_compressed_input_keeps_what_was_read_and_fails() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.zst");
        let mut bytes = zstd::encode_all(&b"first\nsecond\n"[..], 1).unwrap();
        bytes.truncate(bytes.len() - 3);
        std::fs::write(&a, bytes).unwrap();
        let (_, err, status) = run(std::slice::from_ref(&a), 2, false);
        assert!(
            err.starts_with(&format!("tabia: {}: read error", a.display())),
            "{err}"
        );
        assert_eq!(status, Status::Failure);
    }
}
