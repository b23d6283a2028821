//! The ordered parallel pipeline: items (games, lines) are read on one thread, grouped into
//! batches of about [`BATCH_BYTES`], processed by `jobs` workers, and their outputs written in
//! exactly the input order.
//!
//! ```text
//! reader ──queue──▶ worker 1..=jobs ──done──▶ writer (reorder buffer keyed by batch index)
//!    ▲                                             │
//!    └────────────── one slot per batch ◀──────────┘
//! ```
//!
//! **Memory bound.** The reader takes a slot before it starts filling a batch and the writer
//! frees the slot once that batch's output is written; there are `2 × jobs + 2` slots.
//! So at most `2 × jobs + 2` batches exist at any time — being filled, queued, processed, or
//! waiting in the reorder buffer — each holding about [`BATCH_BYTES`] of input (more only when
//! one item is larger) plus the output made from it. The bound does not depend on the size of
//! the input.
//!
//! With `jobs == 1` the same batches are processed inline on the calling thread, without
//! threads, giving the same output.
//!
//! An error reading the input ends the stream: the batches before it are still processed and
//! written, and the error is returned in the [`Outcome`]. An error writing the output (such as
//! a closed pipe) stops every thread and is returned as the error of [`run`].

use std::{
    collections::{BTreeMap, VecDeque},
    io::Write,
    mem,
    num::NonZeroUsize,
    sync::{Condvar, Mutex, MutexGuard, PoisonError},
    thread,
};

use tabia_notation::pgn::RawGame;

use crate::{
    input::Line,
    output,
    report::{Diagnostic, Reporter},
};

/// How many bytes of input a batch holds before it is handed to a worker.
pub(crate) const BATCH_BYTES: usize = 256 << 10;

/// Something the pipeline can carry: it knows roughly how many bytes it holds.
pub(crate) trait Weigh: Send {
    /// The approximate memory held, in bytes.
    fn weight(&self) -> usize;
}

impl Weigh for Line {
    fn weight(&self) -> usize {
        self.bytes.len() + mem::size_of::<Line>()
    }
}

impl Weigh for RawGame {
    fn weight(&self) -> usize {
        self.bytes.len() + mem::size_of::<RawGame>()
    }
}

impl Weigh for Vec<u8> {
    fn weight(&self) -> usize {
        self.len() + mem::size_of::<Vec<u8>>()
    }
}

/// How the pipeline runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Config {
    /// Worker threads; 1 runs inline.
    pub(crate) jobs: usize,
    /// Bytes of input per batch.
    pub(crate) batch_bytes: usize,
}

impl Config {
    /// `jobs` workers, or as many as there are cores when not given.
    pub(crate) fn new(jobs: Option<NonZeroUsize>) -> Config {
        let jobs = jobs
            .or_else(|| thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get);
        Config {
            jobs,
            batch_bytes: BATCH_BYTES,
        }
    }

    /// The most batches that exist at once.
    pub(crate) fn slots(&self) -> usize {
        2 * self.jobs + 2
    }
}

/// A named summary counter of a subcommand (`matched`, `kept`, `duplicates`, …), declared on
/// the session ([`Session::counter`](crate::session::Session::counter)) and bumped by the
/// workers ([`Sink::bump`]); its total is printed in the summary after the item count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)] // the surface of the commands that count (filter, dedup, split)
pub(crate) struct Counter(pub(crate) usize);

/// Where a worker puts what it makes of one item: output bytes, diagnostics and counts.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    /// The output (standard output), in input order.
    pub(crate) out: Vec<u8>,
    diagnostics: Vec<u8>,
    this_bad: bool,
    bad: u64,
    warnings: u64,
    counts: Vec<u64>,
}

impl Sink {
    /// Reports an error of the current item: it is written to standard error in input order,
    /// and the item counts as bad (once, however many errors it has).
    pub(crate) fn error(&mut self, diagnostic: &Diagnostic) {
        self.this_bad = true;
        // Writing to a Vec cannot fail.
        let _ = writeln!(self.diagnostics, "{diagnostic}");
    }

    /// Reports a warning about the current item (`FILE:LINE:COL: game N: warning: …`): it is
    /// written to standard error in input order and counted in the summary, and does not make
    /// the item bad.
    pub(crate) fn warning(&mut self, diagnostic: &Diagnostic) {
        self.warnings += 1;
        let _ = writeln!(self.diagnostics, "{}", diagnostic.as_warning());
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
    /// the item's NDJSON line: `{"file":…,"game":…,"error":{…}}` (README, "JSON output").
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

    fn end_item(&mut self) {
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
    /// The totals of the summary counters, indexed by [`Counter`] (shorter when the last
    /// counters were never bumped).
    pub(crate) counts: Vec<u64>,
    /// The error that ended reading the input early, if any.
    pub(crate) input_error: Option<anyhow::Error>,
}

/// A group of consecutive items.
struct Batch<T> {
    /// 0-based position of the batch in the input.
    index: u64,
    /// 1-based number of its first item in the input.
    first: u64,
    items: Vec<T>,
}

/// A processed batch.
struct Done {
    index: u64,
    items: u64,
    sink: Sink,
}

/// Groups items into batches; an input error comes after the batch of the items before it, and
/// ends the batches.
struct Batches<I> {
    items: I,
    batch_bytes: usize,
    index: u64,
    number: u64,
    error: Option<anyhow::Error>,
    ended: bool,
}

impl<T: Weigh, I: Iterator<Item = anyhow::Result<T>>> Iterator for Batches<I> {
    type Item = anyhow::Result<Batch<T>>;

    fn next(&mut self) -> Option<anyhow::Result<Batch<T>>> {
        if let Some(err) = self.error.take() {
            self.ended = true;
            return Some(Err(err));
        }
        if self.ended {
            return None;
        }
        let mut items = Vec::new();
        let mut bytes = 0;
        while bytes < self.batch_bytes {
            match self.items.next() {
                Some(Ok(item)) => {
                    bytes += item.weight();
                    items.push(item);
                }
                Some(Err(err)) => {
                    self.error = Some(err);
                    break;
                }
                None => break,
            }
        }
        if items.is_empty() {
            self.ended = true;
            return self.error.take().map(Err);
        }
        let batch = Batch {
            index: self.index,
            first: self.number,
            items,
        };
        self.index += 1;
        self.number += batch.items.len() as u64;
        Some(Ok(batch))
    }
}

/// Processes a batch; gives its output and its items, so that the thread that allocated them
/// can free them (a free in another thread's malloc arena contends for that arena's lock).
fn process<T, F: Fn(&mut Sink, u64, &T)>(work: &F, batch: Batch<T>) -> (Done, Vec<T>) {
    let mut sink = Sink::default();
    let items = batch.items.len() as u64;
    for (number, item) in (batch.first..).zip(&batch.items) {
        work(&mut sink, number, item);
        sink.end_item();
    }
    let done = Done {
        index: batch.index,
        items,
        sink,
    };
    (done, batch.items)
}

/// Runs `work` on every item of `items` (it gets the item's 1-based number), writing the outputs
/// to `out` and the diagnostics to `reporter` in input order. See the module docs.
pub(crate) fn run<T, I, F>(
    config: &Config,
    items: I,
    work: F,
    out: &mut dyn Write,
    reporter: &mut Reporter<'_>,
) -> anyhow::Result<Outcome>
where
    T: Weigh,
    I: Iterator<Item = anyhow::Result<T>> + Send,
    F: Fn(&mut Sink, u64, &T) + Sync,
{
    let batches = Batches {
        items,
        batch_bytes: config.batch_bytes.max(1),
        index: 0,
        number: 1,
        error: None,
        ended: false,
    };
    let mut outcome = Outcome::default();
    if config.jobs <= 1 {
        for batch in batches {
            match batch {
                Ok(batch) => write_done(process(&work, batch).0, out, reporter, &mut outcome)?,
                Err(err) => outcome.input_error = Some(err),
            }
        }
        return Ok(outcome);
    }
    let shared = Shared {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            done: BTreeMap::new(),
            used: Vec::new(),
            free_slots: config.slots(),
            reading: true,
            workers: config.jobs,
            stopped: false,
        }),
        for_reader: Condvar::new(),
        for_workers: Condvar::new(),
        for_writer: Condvar::new(),
    };
    thread::scope(|scope| {
        let shared = &shared;
        let reader = scope.spawn(move || read(batches, shared));
        for _ in 0..config.jobs {
            let work = &work;
            scope.spawn(move || process_batches(shared, work));
        }
        let written = write_in_order(shared, out, reporter, &mut outcome);
        if written.is_err() {
            // Stop the reader and the workers: nobody will write what they make.
            shared.lock().stopped = true;
            shared.for_reader.notify_all();
            shared.for_workers.notify_all();
        }
        // The reader does not panic; if it did, the scope passes the panic on.
        outcome.input_error = reader.join().ok().flatten();
        written.map(|()| outcome)
    })
}

/// What the threads share. Waiting threads park on a condition variable at once (channels
/// that spin before they park cost a third more CPU on two cores).
struct Shared<T> {
    state: Mutex<State<T>>,
    /// Signalled when a slot is freed (or the run stops).
    for_reader: Condvar,
    /// Signalled when a batch is queued (or reading ends, or the run stops).
    for_workers: Condvar,
    /// Signalled when a batch is done (or a worker ends).
    for_writer: Condvar,
}

struct State<T> {
    /// Batches read, waiting for a worker.
    queue: VecDeque<Batch<T>>,
    /// Batches processed, waiting for their turn to be written (the reorder buffer).
    done: BTreeMap<u64, Done>,
    /// Items processed, for the reader to free (their memory is from its malloc arena).
    used: Vec<Vec<T>>,
    /// How many more batches may be started: the memory bound.
    free_slots: usize,
    /// Whether the reader may still queue batches.
    reading: bool,
    /// Workers still running.
    workers: usize,
    /// The writer failed: everybody stops.
    stopped: bool,
}

impl<T> Shared<T> {
    /// The state; a thread that panicked while holding it left it consistent enough to stop.
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Ends reading (also when the reader panics): the workers drain the queue and stop.
struct EndReading<'a, T>(&'a Shared<T>);

impl<T> Drop for EndReading<'_, T> {
    fn drop(&mut self) {
        self.0.lock().reading = false;
        self.0.for_workers.notify_all();
    }
}

/// Counts a worker out (also when it panics), so that the writer does not wait for it.
struct EndWorker<'a, T>(&'a Shared<T>);

impl<T> Drop for EndWorker<'_, T> {
    fn drop(&mut self) {
        self.0.lock().workers -= 1;
        self.0.for_writer.notify_one();
    }
}

/// The reader thread: takes a slot, fills a batch, queues it; gives the input error, if any.
fn read<T, I>(mut batches: Batches<I>, shared: &Shared<T>) -> Option<anyhow::Error>
where
    T: Weigh,
    I: Iterator<Item = anyhow::Result<T>>,
{
    let _end = EndReading(shared);
    loop {
        let used = {
            let mut state = shared.lock();
            while state.free_slots == 0 && !state.stopped {
                state = shared
                    .for_reader
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if state.stopped {
                return None;
            }
            state.free_slots -= 1;
            mem::take(&mut state.used)
        };
        drop(used);
        match batches.next()? {
            Ok(batch) => {
                shared.lock().queue.push_back(batch);
                shared.for_workers.notify_one();
            }
            Err(err) => return Some(err),
        }
    }
}

/// A worker thread: processes queued batches until reading has ended and the queue is empty.
fn process_batches<T, F: Fn(&mut Sink, u64, &T)>(shared: &Shared<T>, work: &F) {
    let _end = EndWorker(shared);
    loop {
        let batch = {
            let mut state = shared.lock();
            loop {
                if state.stopped {
                    return;
                }
                if let Some(batch) = state.queue.pop_front() {
                    break batch;
                }
                if !state.reading {
                    return;
                }
                state = shared
                    .for_workers
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        let (done, items) = process(work, batch);
        {
            let mut state = shared.lock();
            state.done.insert(done.index, done);
            state.used.push(items);
        }
        shared.for_writer.notify_one();
    }
}

/// The writer (the calling thread): writes the batches in order as they are done, and frees
/// their slots.
fn write_in_order<T>(
    shared: &Shared<T>,
    out: &mut dyn Write,
    reporter: &mut Reporter<'_>,
    outcome: &mut Outcome,
) -> anyhow::Result<()> {
    let mut next = 0;
    loop {
        let batch = {
            let mut state = shared.lock();
            loop {
                if let Some(batch) = state.done.remove(&next) {
                    break batch;
                }
                if state.workers == 0 {
                    return Ok(());
                }
                state = shared
                    .for_writer
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        write_done(batch, out, reporter, outcome)?;
        next += 1;
        shared.lock().free_slots += 1;
        shared.for_reader.notify_one();
    }
}

fn write_done(
    done: Done,
    out: &mut dyn Write,
    reporter: &mut Reporter<'_>,
    outcome: &mut Outcome,
) -> anyhow::Result<()> {
    out.write_all(&done.sink.out)?;
    if !done.sink.diagnostics.is_empty() {
        // Keep standard output and standard error in step when both go to a terminal.
        out.flush()?;
        reporter.write_raw(&done.sink.diagnostics);
    }
    outcome.items += done.items;
    outcome.bad += done.sink.bad;
    outcome.warnings += done.sink.warnings;
    if outcome.counts.len() < done.sink.counts.len() {
        outcome.counts.resize(done.sink.counts.len(), 0);
    }
    for (total, n) in outcome.counts.iter_mut().zip(&done.sink.counts) {
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
        let config = Config { jobs, batch_bytes };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = {
            let mut reporter = Reporter::new(&mut err, "items", true);
            run(&config, numbers(n), work, &mut out, &mut reporter).unwrap()
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
            let config = Config {
                jobs,
                batch_bytes: 8,
            };
            let mut err = Vec::new();
            let outcome = {
                let mut reporter = Reporter::new(&mut err, "items", true);
                run(&config, numbers(100), work, &mut Vec::new(), &mut reporter).unwrap()
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
            let config = Config {
                jobs,
                batch_bytes: 16,
            };
            let mut out = Vec::new();
            let mut err = Vec::new();
            let mut reporter = Reporter::new(&mut err, "items", true);
            let outcome = run(&config, items, work, &mut out, &mut reporter).unwrap();
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
            let config = Config {
                jobs,
                batch_bytes: 64,
            };
            // An endless input: the run must stop because of the pipe, not the input.
            let endless = (1..).map(|i: u64| Ok(i.to_string().into_bytes()));
            let mut err = Vec::new();
            let mut reporter = Reporter::new(&mut err, "items", true);
            let mut pipe = ClosedPipe { room: 1000 };
            let result = run(&config, endless, work, &mut pipe, &mut reporter);
            let err = result.unwrap_err();
            assert!(crate::cli::is_broken_pipe(&err), "jobs {jobs}: {err}");
        }
    }

    #[test]
    fn batches_exist_at_most_slots_at_a_time() {
        use std::sync::atomic::{AtomicUsize, Ordering};

        static ALIVE: AtomicUsize = AtomicUsize::new(0);
        static PEAK: AtomicUsize = AtomicUsize::new(0);

        /// An item that counts how many of its kind are alive.
        struct Tracked;
        impl Tracked {
            fn new() -> Tracked {
                let alive = ALIVE.fetch_add(1, Ordering::SeqCst) + 1;
                PEAK.fetch_max(alive, Ordering::SeqCst);
                Tracked
            }
        }
        impl Drop for Tracked {
            fn drop(&mut self) {
                ALIVE.fetch_sub(1, Ordering::SeqCst);
            }
        }
        impl Weigh for Tracked {
            fn weight(&self) -> usize {
                1
            }
        }

        let config = Config {
            jobs: 2,
            batch_bytes: 1,
        };
        let items = (0..500).map(|_| Ok(Tracked::new()));
        // Slow workers, so that the reader is always ahead.
        let slow = |sink: &mut Sink, _: u64, _: &Tracked| {
            std::thread::sleep(std::time::Duration::from_micros(200));
            sink.out.push(b'.');
        };
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut reporter = Reporter::new(&mut err, "items", true);
        let outcome = run(&config, items, slow, &mut out, &mut reporter).unwrap();
        assert_eq!((outcome.items, out.len()), (500, 500));
        // Items are freed once their batch is processed (by the reader, when it takes its next
        // slot), so the slots bound the items alive, give or take the batches waiting to be
        // freed.
        assert!(PEAK.load(Ordering::SeqCst) <= 2 * config.slots());
    }

    #[test]
    fn default_jobs_is_at_least_one() {
        assert!(Config::new(None).jobs >= 1);
        assert_eq!(Config::new(NonZeroUsize::new(3)).slots(), 8);
    }
}
