//! The ordered parallel pipeline of the subcommands: [`tabia_stream::Pipeline`] does the
//! work (`jobs` workers that take turns reading the input, results in input order, memory bounded by
//! `2 × jobs + 2` batches); here each batch's results are a [`Sink`] — the output bytes and the
//! diagnostics of its items — written to standard output and the reporter in input order.
//!
//! An error reading the input ends the stream: the batches before it are still processed and
//! written, and the error is returned in the [`Outcome`]. An error writing the output (such as
//! a closed pipe) stops every thread and is returned as the error of `run`.

use std::{
    io::Write,
    marker::PhantomData,
    mem,
    num::NonZeroUsize,
    ops::Range,
    sync::{Mutex, PoisonError},
};

use tabia_position::{Level, ReplayWarning};
use tabia_stream::Pipeline;
pub(crate) use tabia_stream::Weigh;

use crate::{
    output,
    report::{Diagnostic, Reporter},
};

/// How the pipeline runs: `jobs` workers, or one per core when not given; batches (and the
/// pieces of an input that the workers split into games) of [`tabia_stream::BATCH_BYTES`], or
/// of `TABIA_BATCH_BYTES` bytes when that is set (for tests that make many pieces of a small
/// input, and for tuning).
pub(crate) fn config(jobs: Option<NonZeroUsize>) -> Pipeline {
    let pipeline = Pipeline::new().with_jobs(jobs.map_or(0, NonZeroUsize::get));
    match batch_bytes_asked() {
        Some(bytes) => pipeline.with_batch_bytes(bytes),
        None => pipeline,
    }
}

/// The batch size `TABIA_BATCH_BYTES` asks for, if it is set to a number.
pub(crate) fn batch_bytes_asked() -> Option<usize> {
    std::env::var("TABIA_BATCH_BYTES").ok()?.parse().ok()
}

/// A named summary counter of a subcommand (`matched`, `kept`, `duplicates`, …), declared on
/// the session ([`Session::counter`](crate::session::Session::counter)) and bumped by the
/// workers ([`Sink::bump`]); its total is printed in the summary after the item count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
pub(crate) struct Counter(pub(crate) usize);

/// Where a worker puts what it makes of one item: output bytes, diagnostics and counts.
#[derive(Debug)]
pub(crate) struct Sink {
    /// The output (standard output), in input order.
    pub(crate) out: Vec<u8>,
    diagnostics: Vec<u8>,
    /// Where the warnings' and notes' lines are in `diagnostics` (the reporter lists them or
    /// not, `--warnings`).
    warning_lines: Vec<(Range<usize>, Level)>,
    this_bad: bool,
    bad: u64,
    warnings: u64,
    notes: u64,
    counts: Vec<u64>,
}

/// The output buffers of batches already written, for the next batches to fill again: a
/// batch's output grows to megabytes (the EPD of every ply), and a fresh buffer for each
/// batch, freed by the consumer, meant regrowing it page by page on the worker and freeing it
/// into the worker's malloc arena from the consumer's thread, which contends with the worker
/// for the arena's lock.
static SPARE_OUT: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// How many buffers [`SPARE_OUT`] keeps (as many as batches can be in flight on most
/// machines; more are freed).
const SPARE_KEPT: usize = 32;

impl Default for Sink {
    fn default() -> Sink {
        let out = SPARE_OUT
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        Sink {
            out,
            diagnostics: Vec::new(),
            warning_lines: Vec::new(),
            this_bad: false,
            bad: 0,
            warnings: 0,
            notes: 0,
            counts: Vec::new(),
        }
    }
}

impl Sink {
    /// Gives the output buffer back for another batch, once written.
    fn recycle(self) {
        let mut out = self.out;
        if out.capacity() == 0 {
            return;
        }
        out.clear();
        let mut spare = SPARE_OUT.lock().unwrap_or_else(PoisonError::into_inner);
        if spare.len() < SPARE_KEPT {
            spare.push(out);
        }
    }

    /// Empties the sink for the next item, keeping its buffers (what [`write_done`] wrote).
    pub(crate) fn clear(&mut self) {
        self.out.clear();
        self.diagnostics.clear();
        self.warning_lines.clear();
        self.this_bad = false;
        self.bad = 0;
        self.warnings = 0;
        self.notes = 0;
        self.counts.clear();
    }

    /// Reports an error of the current item: it is written to standard error in input order,
    /// and the item counts as bad (once, however many errors it has).
    pub(crate) fn error(&mut self, diagnostic: &Diagnostic) {
        self.this_bad = true;
        // Writing to a Vec cannot fail.
        let _ = writeln!(self.diagnostics, "{diagnostic}");
    }

    /// Reports each warning of a replayed game (game `number` of `file`, as
    /// [`Sink::warning`] does) and gives their diagnostics, for an output that lists them.
    pub(crate) fn replay_warnings(
        &mut self,
        file: &str,
        number: u64,
        warnings: &[ReplayWarning],
    ) -> Vec<Diagnostic> {
        let diagnostics: Vec<Diagnostic> = warnings
            .iter()
            .map(|warning| Diagnostic::from_warning(file, number, warning))
            .collect();
        for diagnostic in &diagnostics {
            self.warning(diagnostic);
        }
        diagnostics
    }

    /// Reports a warning or a note about the current item (`FILE:LINE:COL: game N: warning:
    /// …`): it is written to standard error in input order (as `--warnings` says) and counted
    /// in the summary, and does not make the item bad.
    pub(crate) fn warning(&mut self, diagnostic: &Diagnostic) {
        let level = diagnostic.warning_level();
        match level {
            Level::Note => self.notes += 1,
            Level::Warning => self.warnings += 1,
        }
        let start = self.diagnostics.len();
        let _ = writeln!(self.diagnostics, "{}", diagnostic.as_warning());
        self.warning_lines
            .push((start..self.diagnostics.len(), level));
    }

    /// Adds one to a summary counter.
    #[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
    pub(crate) fn bump(&mut self, counter: Counter) {
        self.add(counter, 1);
    }

    /// Adds `n` to a summary counter.
    #[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
    pub(crate) fn add(&mut self, counter: Counter, n: u64) {
        if self.counts.len() <= counter.0 {
            self.counts.resize(counter.0 + 1, 0);
        }
        self.counts[counter.0] += n;
    }

    /// Reports an error of the current item like [`Sink::error`] and, with `json`, also writes
    /// the item's NDJSON line: `{"file":…,"game":…,"error":{…}}` (`docs/schema.md`).
    pub(crate) fn reject(&mut self, diagnostic: &Diagnostic, json: bool) {
        self.error(diagnostic);
        if json {
            output::json_line(&mut self.out, &output::ErrorRecord::new(diagnostic));
        }
    }

    /// Counts the current item as bad without a diagnostic on standard error: for subcommands
    /// whose findings are their output (`validate`).
    pub(crate) fn mark_bad(&mut self) {
        self.this_bad = true;
    }

    pub(crate) fn end_item(&mut self) {
        if mem::take(&mut self.this_bad) {
            self.bad += 1;
        }
    }
}

/// What a run of the pipeline over one input gave.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Items processed.
    pub(crate) items: u64,
    /// Items with an error.
    pub(crate) bad: u64,
    /// Warnings given.
    pub(crate) warnings: u64,
    /// Notes given.
    pub(crate) notes: u64,
    /// The totals of the summary counters, indexed by [`Counter`] (shorter when the last
    /// counters were never bumped).
    pub(crate) counts: Vec<u64>,
    /// The error that ended reading the input early, if any.
    pub(crate) input_error: Option<anyhow::Error>,
}

/// The work of a command on the workers: a [`Work`] whose batches carry the [`Sink`] of
/// their items beside the command's own accumulator, `(Sink, A)` while the batch is worked and
/// `(Sink, B)` once it is finished. [`each`] and [`fold`] make one of a closure; a command
/// with a last step per batch implements it (`tabia table`).
pub(crate) use tabia_stream::Work;

/// The work of a closure that writes what it makes of each item into the batch's [`Sink`]
/// (`|sink: &mut Sink, number, game: &RawGame| …`: the parameters that borrow name their
/// types, as [`tabia_stream::fold`] explains).
pub(crate) fn each<F>(f: F) -> Each<F> {
    Each(f)
}

/// See [`each`].
pub(crate) struct Each<F>(F);

impl<Item, F: Fn(&mut Sink, u64, Item) + Sync> Work<Item> for Each<F> {
    type Batch = (Sink, ());
    type Done = (Sink, ());

    fn item(&self, batch: &mut (Sink, ()), number: u64, item: Item) {
        (self.0)(&mut batch.0, number, item);
    }

    fn finish(&self, batch: (Sink, ())) -> (Sink, ()) {
        batch
    }
}

/// [`each`] with an accumulator of the command's own per batch (an `A`, made with
/// `A::default()`), handed to the session's `consume` in input order.
pub(crate) fn fold<A, F>(f: F) -> Fold<A, F> {
    Fold(f, PhantomData)
}

/// See [`fold`].
pub(crate) struct Fold<A, F>(F, PhantomData<fn() -> A>);

impl<A, Item, F> Work<Item> for Fold<A, F>
where
    A: Default + Send,
    F: Fn(&mut Sink, &mut A, u64, Item) + Sync,
{
    type Batch = (Sink, A);
    type Done = (Sink, A);

    fn item(&self, (sink, acc): &mut (Sink, A), number: u64, item: Item) {
        (self.0)(sink, acc, number, item);
    }

    fn finish(&self, batch: (Sink, A)) -> (Sink, A) {
        batch
    }
}

/// A command's work with the end of each item marked in its sink (an item with errors is
/// counted bad once): what the session runs.
pub(crate) struct Counted<'w, W>(pub(crate) &'w W);

impl<Item, A, B, W> Work<Item> for Counted<'_, W>
where
    W: Work<Item, Batch = (Sink, A), Done = (Sink, B)>,
    A: Default,
    B: Send,
{
    type Batch = (Sink, A);
    type Done = (Sink, B);

    fn item(&self, batch: &mut (Sink, A), number: u64, item: Item) {
        self.0.item(batch, number, item);
        batch.0.end_item();
    }

    fn finish(&self, batch: (Sink, A)) -> (Sink, B) {
        self.0.finish(batch)
    }
}

/// Runs a pipeline with the consumer of a command's batches: `run` starts it (over items,
/// or games read on the workers) with the consumer it is given, which calls `consume` on the
/// command's part of each batch, in input order, then writes the batch's output to `out` and
/// its diagnostics to `reporter`, and counts. See the module docs.
pub(crate) fn run<B, E, R>(
    run: R,
    mut consume: impl FnMut(B) -> anyhow::Result<()>,
    out: &mut dyn Write,
    reporter: &mut Reporter<'_>,
) -> anyhow::Result<Outcome>
where
    E: Into<anyhow::Error>,
    R: FnOnce(
        &mut dyn FnMut((Sink, B), Range<u64>) -> anyhow::Result<()>,
    ) -> anyhow::Result<tabia_stream::Processed<E>>,
{
    let mut outcome = Outcome::default();
    let run = run(&mut |(sink, done), numbers| {
        outcome.items += numbers.end - numbers.start;
        consume(done)?;
        write_done(&sink, out, reporter, &mut outcome)?;
        sink.recycle();
        Ok(())
    })?;
    outcome.input_error = run.input_error.map(Into::into);
    Ok(outcome)
}

pub(crate) fn write_done(
    sink: &Sink,
    out: &mut dyn Write,
    reporter: &mut Reporter<'_>,
    outcome: &mut Outcome,
) -> anyhow::Result<()> {
    out.write_all(&sink.out)?;
    if !sink.diagnostics.is_empty() {
        // Keep standard output and standard error in step when both go to a terminal.
        out.flush()?;
        reporter.write_diagnostics(&sink.diagnostics, &sink.warning_lines);
    }
    outcome.bad += sink.bad;
    outcome.warnings += sink.warnings;
    outcome.notes += sink.notes;
    if outcome.counts.len() < sink.counts.len() {
        outcome.counts.resize(sink.counts.len(), 0);
    }
    for (total, n) in outcome.counts.iter_mut().zip(&sink.counts) {
        *total += n;
    }
    reporter.tick(outcome.items);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;

    fn numbers(n: u64) -> impl Iterator<Item = anyhow::Result<Vec<u8>>> + Send {
        (1..=n).map(|i| Ok(i.to_string().into_bytes()))
    }

    /// [`run`] over `items` with `work` writing to each item's sink, as the session runs it.
    fn run_items(
        pipeline: &Pipeline,
        items: impl Iterator<Item = anyhow::Result<Vec<u8>>> + Send,
        work: impl Fn(&mut Sink, u64, &Vec<u8>) + Sync,
        out: &mut dyn Write,
        reporter: &mut Reporter<'_>,
    ) -> anyhow::Result<Outcome> {
        let work = each(|sink: &mut Sink, number, item: &Vec<u8>| work(sink, number, item));
        run(
            |consume| pipeline.run(items, &Counted(&work), consume),
            |()| Ok(()),
            out,
            reporter,
        )
    }

    /// Doubles each number; numbers divisible by 7 are "bad"; odd ones take a little longer
    /// so that batches finish out of order.
    #[allow(clippy::ptr_arg)] // the pipeline hands out `&T`, here `T = Vec<u8>`
    fn work(sink: &mut Sink, number: u64, item: &Vec<u8>) {
        let value: u64 = std::str::from_utf8(item).unwrap().parse().unwrap();
        assert_eq!(value, number, "numbers are 1-based input positions");
        if value % 2 == 1 {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
        if value.is_multiple_of(7) {
            sink.error(&Diagnostic::new("n", "divisible by 7").game(number));
        } else {
            writeln!(sink.out, "{}", value * 2).unwrap();
        }
    }

    fn run_with(jobs: usize, batch_bytes: usize, n: u64) -> (String, String, Outcome) {
        let config = Pipeline::new()
            .with_jobs(jobs)
            .with_batch_bytes(batch_bytes);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = {
            let mut reporter = Reporter::new(&mut err, "items", true);
            run_items(&config, numbers(n), work, &mut out, &mut reporter).unwrap()
        };
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            outcome,
        )
    }

    #[test]
    fn output_and_diagnostics_keep_input_order_whatever_the_jobs() {
        let expected = run_with(1, 64, 2000);
        assert_eq!(expected.2.items, 2000);
        assert_eq!(expected.2.bad, 2000 / 7);
        assert!(expected.0.starts_with("2\n4\n6\n8\n10\n12\n16\n"));
        assert!(
            expected
                .1
                .starts_with("n: game 7: divisible by 7\nn: game 14: divisible by 7\n")
        );
        for jobs in [2, 3, 8] {
            for batch_bytes in [1, 64, 4096] {
                let got = run_with(jobs, batch_bytes, 2000);
                assert_eq!(got.0, expected.0, "jobs {jobs}, batch {batch_bytes}");
                assert_eq!(got.1, expected.1, "jobs {jobs}, batch {batch_bytes}");
                assert_eq!((got.2.items, got.2.bad), (2000, 2000 / 7));
            }
        }
    }

    #[test]
    fn rejected_items_get_their_json_line() {
        let mut sink = Sink::default();
        let d = Diagnostic::new("g.pgn", "bad").at(3, 4).game(2);
        sink.reject(&d, true);
        sink.end_item();
        sink.reject(&d, false);
        sink.end_item();
        assert_eq!(sink.bad, 2);
        assert_eq!(
            String::from_utf8(sink.out).unwrap(),
            "{\"file\":\"g.pgn\",\"game\":2,\"error\":{\"file\":\"g.pgn\",\"line\":3,\"column\":4,\"game\":2,\"message\":\"bad\"}}\n"
        );
        assert_eq!(
            String::from_utf8(sink.diagnostics).unwrap(),
            "g.pgn:3:4: game 2: bad\ng.pgn:3:4: game 2: bad\n"
        );
    }

    #[test]
    fn warnings_and_counters_add_up_in_input_order() {
        let even = Counter(1);
        let work = |sink: &mut Sink, number: u64, _: &Vec<u8>| {
            if number.is_multiple_of(3) {
                sink.warning(&Diagnostic::new("n", "divisible by 3").game(number));
            }
            if number.is_multiple_of(2) {
                sink.bump(even);
            }
        };
        for jobs in [1, 3] {
            let config = Pipeline::new().with_jobs(jobs).with_batch_bytes(8);
            let mut err = Vec::new();
            let outcome = {
                let mut reporter = Reporter::new(&mut err, "items", true)
                    .with_warnings(Some(crate::report::Warnings::Each));
                run_items(&config, numbers(100), work, &mut Vec::new(), &mut reporter).unwrap()
            };
            assert_eq!((outcome.items, outcome.bad, outcome.warnings), (100, 0, 33));
            assert_eq!(outcome.counts, [0, 50]);
            let err = String::from_utf8(err).unwrap();
            assert_eq!(err.lines().count(), 33);
            assert!(err.starts_with("n: game 3: warning: divisible by 3\nn: game 6: warning: "));
        }
    }

    #[test]
    fn empty_input() {
        for jobs in [1, 4] {
            let (out, err, outcome) = run_with(jobs, 64, 0);
            assert_eq!((out.as_str(), err.as_str(), outcome.items), ("", "", 0));
        }
    }

    #[test]
    fn input_error_comes_after_the_items_before_it() {
        for jobs in [1, 2] {
            let items = numbers(10).chain(std::iter::once(Err(anyhow::anyhow!("broken"))));
            let items = items.chain(numbers(3));
            let config = Pipeline::new().with_jobs(jobs).with_batch_bytes(16);
            let mut out = Vec::new();
            let mut err = Vec::new();
            let mut reporter = Reporter::new(&mut err, "items", true);
            let outcome = run_items(&config, items, work, &mut out, &mut reporter).unwrap();
            assert_eq!(outcome.items, 10, "jobs {jobs}");
            assert_eq!(outcome.input_error.unwrap().to_string(), "broken");
            assert_eq!(out.len(), "2\n4\n6\n8\n10\n12\n16\n18\n20\n".len());
        }
    }

    /// A writer that fails like a closed pipe after `room` bytes.
    struct ClosedPipe {
        room: usize,
    }

    impl Write for ClosedPipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_error_stops_every_thread_and_is_returned() {
        for jobs in [1, 2, 4] {
            let config = Pipeline::new().with_jobs(jobs).with_batch_bytes(64);
            // An endless input: the run must stop because of the pipe, not the input.
            let endless = (1..).map(|i: u64| anyhow::Ok(i.to_string().into_bytes()));
            let mut err = Vec::new();
            let mut reporter = Reporter::new(&mut err, "items", true);
            let mut pipe = ClosedPipe { room: 1000 };
            let result = run_items(&config, endless, work, &mut pipe, &mut reporter);
            let err = result.unwrap_err();
            assert!(crate::cli::is_broken_pipe(&err), "jobs {jobs}: {err}");
        }
    }

    #[test]
    fn default_jobs_is_at_least_one() {
        assert!(config(None).jobs() >= 1);
        assert_eq!(config(NonZeroUsize::new(3)).jobs(), 3);
    }
}
