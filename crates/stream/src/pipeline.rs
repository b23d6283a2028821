//! The ordered parallel pipeline: items (games, lines) are read by the workers in turns,
//! grouped into batches of about [`BATCH_BYTES`], processed by `jobs` workers, and their
//! results handed back in exactly the input order.
//!
//! ```text
//! input ──one worker reads at a time──▶ worker 1..=jobs ──done──▶ caller (reorder buffer)
//!    ▲                                                               │
//!    └──────────────────────── one slot per batch ◀──────────────────┘
//! ```
//!
//! **Memory bound.** A worker takes a slot before it reads a batch and the caller's thread
//! frees the slot once that batch's results are consumed; there are `2 × jobs + 2` slots. So
//! at most `2 × jobs + 2` batches exist at any time — being read, processed, or waiting in the
//! reorder buffer — each holding about [`BATCH_BYTES`] of input (more only when one item is
//! larger) plus the results made from it. The bound does not depend on the size of the input.

use std::{
    mem,
    ops::Range,
    sync::{Condvar, Mutex, MutexGuard, PoisonError},
    thread,
};

use std::io::Read;

use tabia_notation::pgn::{Origin, RawGame, Visitor};

use crate::{
    chunk::{Chunk, Chunks, Pool, Seams, Visited, recycle, work_chunk},
    error::InputError,
    range::Span,
    split::TextLine,
    work::{Work, fold},
};

/// How many bytes of input a batch holds, by default, before it is handed to a worker.
pub const BATCH_BYTES: usize = 256 << 10;

/// Something the pipeline can carry: it knows roughly how many bytes it holds, so that batches
/// are of a similar size whatever the items are.
pub trait Weigh: Send {
    /// The approximate memory held, in bytes.
    fn weight(&self) -> usize;
}

impl Weigh for RawGame {
    fn weight(&self) -> usize {
        self.bytes.len() + mem::size_of::<RawGame>()
    }
}

impl Weigh for TextLine {
    fn weight(&self) -> usize {
        self.bytes.len() + mem::size_of::<TextLine>()
    }
}

impl Weigh for Vec<u8> {
    fn weight(&self) -> usize {
        self.len() + mem::size_of::<Vec<u8>>()
    }
}

impl Weigh for String {
    fn weight(&self) -> usize {
        self.len() + mem::size_of::<String>()
    }
}

/// An ordered parallel pipeline: how many workers, how large the batches.
///
/// [`Pipeline::run`] runs a [`Work`] on every item: each worker fills an accumulator from the
/// items of a batch (an output buffer, a tally) and finishes it, and the batches come back in
/// input order; [`Pipeline::run_games`] does the same over the games of a PGN input that the
/// workers split and read in place; [`Pipeline::map`] is [`Pipeline::run`] with one result per
/// item. The workers take turns reading the items, and the results are consumed on the calling
/// thread. With one job everything runs on the calling thread, in the same order.
///
/// An error from the items (a read error) ends the stream: the items before it are still
/// processed and consumed, and the error is given back in the [`Processed`]. An error from the
/// consumer (such as writing to a closed pipe) stops every thread and is returned at once.
///
/// Counting the games of each result, on all cores:
///
/// ```
/// use std::collections::BTreeMap;
///
/// use tabia_stream::{Input, Pipeline};
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
///     // Any file: plain, or compressed with zstd, gzip, bzip2 or xz.
///     let input = Input::open(path)?;
///     let mut results = BTreeMap::new();
///     let outcome = Pipeline::new().map(
///         input.games(),
///         // On the workers: parse each game (syntax only), keep its result.
///         |_number, game| game.parse().map(|game| game.result.as_str()),
///         // On this thread, in input order.
///         |_number, result| {
///             *results.entry(result.unwrap_or("unreadable")).or_insert(0) += 1;
///             Ok::<_, std::convert::Infallible>(())
///         },
///     )?;
///     if let Some(err) = outcome.input_error {
///         return Err(err.into()); // the file could not be read to the end
///     }
///     for (result, games) in &results {
///         println!("{result}\t{games}");
///     }
///     assert_eq!(results.values().sum::<u64>(), outcome.items);
///     Ok(())
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipeline {
    jobs: usize,
    batch_bytes: usize,
}

impl Default for Pipeline {
    fn default() -> Pipeline {
        Pipeline::new()
    }
}

/// What a run of the pipeline over one stream of items gave.
#[derive(Debug)]
#[non_exhaustive]
pub struct Processed<E> {
    /// Items processed (and their results consumed).
    pub items: u64,
    /// The error that ended the items early, if any.
    pub input_error: Option<E>,
}

impl Pipeline {
    /// A pipeline with one worker per core and batches of [`BATCH_BYTES`].
    pub fn new() -> Pipeline {
        Pipeline {
            jobs: 0,
            batch_bytes: BATCH_BYTES,
        }
        .with_jobs(0)
    }

    /// Sets the number of workers; 0 is one per core. With 1, items are processed on the
    /// calling thread, without threads.
    ///
    /// ```
    /// let pipeline = tabia_stream::Pipeline::new().with_jobs(3);
    /// assert_eq!((pipeline.jobs(), pipeline.slots()), (3, 8));
    /// assert!(tabia_stream::Pipeline::new().with_jobs(0).jobs() >= 1);
    /// ```
    #[must_use]
    pub fn with_jobs(mut self, jobs: usize) -> Pipeline {
        self.jobs = match jobs {
            0 => thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        self
    }

    /// Sets how many bytes of items (by their [`Weigh::weight`]) a batch holds before it is
    /// handed to a worker (at least one item).
    #[must_use]
    pub fn with_batch_bytes(mut self, bytes: usize) -> Pipeline {
        self.batch_bytes = bytes.max(1);
        self
    }

    /// The number of workers.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// The bytes of items per batch.
    pub fn batch_bytes(&self) -> usize {
        self.batch_bytes
    }

    /// The most batches that exist at once: `2 × jobs + 2` (see the memory bound in the crate
    /// docs).
    pub fn slots(&self) -> usize {
        2 * self.jobs + 2
    }

    /// Runs `work` on every item (it gets the item's 1-based number and the item) on the
    /// workers, and `consume` on each result, in input order, on the calling thread: [`run`]
    /// with one result per item.
    ///
    /// [`run`]: Pipeline::run
    ///
    /// ```
    /// let items = (1..=1000u64).map(|i| Ok::<_, ()>(i.to_string()));
    /// let mut squares = Vec::new();
    /// let outcome = tabia_stream::Pipeline::new().with_jobs(4).with_batch_bytes(64).map(
    ///     items,
    ///     |number, item| {
    ///         assert_eq!(item.parse::<u64>(), Ok(number));
    ///         number * number
    ///     },
    ///     |_, square| {
    ///         squares.push(square);
    ///         Ok::<_, ()>(())
    ///     },
    /// )?;
    /// assert_eq!(outcome.items, 1000);
    /// assert!(squares.iter().zip(1u64..).all(|(&s, i)| s == i * i));
    /// # Ok::<(), ()>(())
    /// ```
    pub fn map<T, R, E, X, I, W, C>(
        &self,
        items: I,
        work: W,
        mut consume: C,
    ) -> Result<Processed<E>, X>
    where
        T: Weigh,
        R: Send,
        E: Send,
        I: IntoIterator<Item = Result<T, E>>,
        I::IntoIter: Send,
        W: Fn(u64, &T) -> R + Sync,
        C: FnMut(u64, R) -> Result<(), X>,
    {
        self.run(
            items,
            &fold(|results: &mut Vec<R>, number, item: &T| results.push(work(number, item))),
            |results, numbers| {
                for (number, result) in numbers.zip(results) {
                    consume(number, result)?;
                }
                Ok(())
            },
        )
    }

    /// Runs `work` ([`Work`]) on every item on the workers, a batch of items at a time, and
    /// `consume` on each finished batch with the numbers of its items, in input order, on the
    /// calling thread.
    ///
    /// ```
    /// use tabia_stream::{SplitGames, Pipeline, RawGame, fold};
    ///
    /// let pgn = b"1. e4 e5 1-0\n\n1. d4 0-1\n\n1. c4 1-0\n".repeat(100);
    /// let mut out = Vec::new();
    /// let outcome = Pipeline::new().with_batch_bytes(100).run(
    ///     SplitGames::new(&pgn[..]),
    ///     // One line per game, into the batch's buffer.
    ///     &fold(|buffer: &mut Vec<u8>, number, game: &RawGame| {
    ///         buffer.extend(format!("{number}: line {}\n", game.start.line).bytes());
    ///     }),
    ///     |buffer, numbers| {
    ///         assert!(numbers.start >= 1 && numbers.end <= 301);
    ///         out.extend(buffer);
    ///         Ok::<_, ()>(())
    ///     },
    /// )
    /// .unwrap();
    /// assert_eq!(outcome.items, 300);
    /// assert!(String::from_utf8(out).unwrap().starts_with("1: line 1\n2: line 3\n3: line 5\n"));
    /// ```
    pub fn run<T, B, D, E, X, I, W, C>(
        &self,
        items: I,
        work: &W,
        mut consume: C,
    ) -> Result<Processed<E>, X>
    where
        T: Weigh,
        B: Default,
        D: Send,
        E: Send,
        I: IntoIterator<Item = Result<T, E>>,
        I::IntoIter: Send,
        W: for<'a> Work<&'a T, Batch = B, Done = D>,
        C: FnMut(D, Range<u64>) -> Result<(), X>,
    {
        let batches = Batches {
            items: items.into_iter(),
            batch_bytes: self.batch_bytes,
            index: 0,
            number: 1,
            error: None,
            ended: false,
        };
        self.run_batches(batches, |batch| process(work, batch), &mut consume)
    }

    /// Runs `work` on every game of a PGN input on the workers, each game read by a visitor
    /// as the worker finds it in its piece of the input: the worker whose turn it is to read
    /// only cuts the input into pieces of about [`Pipeline::batch_bytes`] where a line starts
    /// with `[`, so that splitting (most of the work of a tag filter or a count) is not held to
    /// one core, and reading the game is one pass over its bytes (a filter that looks at the
    /// tags and skips the movetext of the games it does not want never copies them).
    /// `visitor` makes a visitor for each piece, which reads its games one after the other (so
    /// it starts each game afresh in `begin_game`: a game with a syntax error gets no
    /// `end_game`); `work` gets each game's number and a [`Visited`]: its bytes, start and
    /// what the visitor made of it. With the [`Bytes`](crate::Bytes) visitor and
    /// [`OnRawGames`](crate::OnRawGames), the work gets each game as a [`RawGame`], numbered and
    /// located as [`SplitGames`](crate::SplitGames) would. A read error ends the games after those read
    /// completely before it.
    ///
    /// ```
    /// use tabia_notation::pgn::{RawTag, Skip, Visitor};
    /// use tabia_stream::{Pipeline, Visited, fold};
    ///
    /// /// Whether a game has a `White` tag, from its tags alone.
    /// #[derive(Default)]
    /// struct HasWhite(bool);
    /// impl Visitor for HasWhite {
    ///     type Output = bool;
    ///     fn tag(&mut self, name: &[u8], _: RawTag<'_>) {
    ///         self.0 |= name == b"White";
    ///     }
    ///     fn begin_movetext(&mut self) -> Skip {
    ///         Skip(true)
    ///     }
    ///     fn end_game(&mut self) -> bool {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let pgn = b"[White \"a\"]\n\n1. e4 *\n\n[Black \"b\"]\n\n1. d4 *\n\n".repeat(100);
    /// let mut numbers = Vec::new();
    /// let outcome = Pipeline::new().with_jobs(2).with_batch_bytes(500).run_games(
    ///     &pgn[..],
    ///     HasWhite::default,
    ///     &fold(|kept: &mut Vec<u64>, number, game: Visited<'_, bool>| {
    ///         if game.output.is_ok_and(|white| white) {
    ///             assert!(game.bytes.starts_with(b"[White"));
    ///             kept.push(number);
    ///         }
    ///     }),
    ///     |kept, _| {
    ///         numbers.extend(kept);
    ///         Ok::<_, ()>(())
    ///     },
    /// )
    /// .unwrap();
    /// assert_eq!(outcome.items, 200);
    /// assert!(numbers.iter().zip(0..).all(|(&n, k)| n == 1 + 2 * k));
    /// ```
    pub fn run_games<V, B, D, X, R, M, W, C>(
        &self,
        input: R,
        visitor: M,
        work: &W,
        consume: C,
    ) -> Result<Processed<InputError>, X>
    where
        V: Visitor,
        R: Read + Send,
        B: Default,
        D: Send,
        M: Fn() -> V + Sync,
        W: for<'a> Work<Visited<'a, V::Output>, Batch = B, Done = D>,
        C: FnMut(D, Range<u64>) -> Result<(), X>,
    {
        let start = Origin {
            offset: 0,
            line: 1,
            column: 1,
        };
        self.run_games_at(input, (start, 0), visitor, work, consume)
    }

    /// [`Pipeline::run_games`] over the games of a byte range of a file, as [`Span::open`]
    /// gives them: each game has its number, offset, line and column in the whole file, as
    /// reading the file from its start gives them.
    ///
    /// ```
    /// use tabia_stream::{Bytes, OnRawGames, Pipeline, RawGame, Span, fold};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("games.pgn");
    /// std::fs::write(&path, b"[Event \"a\"]\n\n1. e4 *\n\n".repeat(100))?;
    /// let pipeline = Pipeline::new().with_jobs(2);
    /// // The games that start in the second half of the file.
    /// let len = std::fs::metadata(&path)?.len();
    /// let span = Span::locate(&path, len / 2..len, &pipeline)?;
    /// let mut numbers = Vec::new();
    /// pipeline
    ///     .run_games_from(
    ///         span.open(&path)?,
    ///         &span,
    ///         Bytes::default,
    ///         &OnRawGames(fold(|acc: &mut Vec<(u64, u64)>, number, game: &RawGame| {
    ///             acc.push((number, game.start.line))
    ///         })),
    ///         |acc, _| {
    ///             numbers.extend(acc);
    ///             Ok::<_, ()>(())
    ///         },
    ///     )
    ///     .unwrap();
    /// assert_eq!(numbers.first(), Some(&(51, 201)));
    /// assert_eq!(numbers.len(), 50);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_games_from<V, B, D, X, R, M, W, C>(
        &self,
        input: R,
        span: &Span,
        visitor: M,
        work: &W,
        consume: C,
    ) -> Result<Processed<InputError>, X>
    where
        V: Visitor,
        R: Read + Send,
        B: Default,
        D: Send,
        M: Fn() -> V + Sync,
        W: for<'a> Work<Visited<'a, V::Output>, Batch = B, Done = D>,
        C: FnMut(D, Range<u64>) -> Result<(), X>,
    {
        self.run_games_at(
            input,
            (span.start, span.games_before),
            visitor,
            work,
            consume,
        )
    }

    /// [`Pipeline::run_games`] over an input whose first byte is at `start.0` of a larger
    /// one, after `start.1` games.
    fn run_games_at<V, B, D, X, R, M, W, C>(
        &self,
        input: R,
        (origin, games_before): (Origin, u64),
        visitor: M,
        work: &W,
        mut consume: C,
    ) -> Result<Processed<InputError>, X>
    where
        V: Visitor,
        R: Read + Send,
        B: Default,
        D: Send,
        M: Fn() -> V + Sync,
        W: for<'a> Work<Visited<'a, V::Output>, Batch = B, Done = D>,
        C: FnMut(D, Range<u64>) -> Result<(), X>,
    {
        let seams = Seams::default();
        let pool = Pool::default();
        let batches = Chunks::new(input, origin, self.batch_bytes, &pool)
            .zip(0..)
            .map(|(chunk, index)| {
                chunk.map(|chunk| Batch {
                    index,
                    first: 0,
                    items: vec![chunk],
                })
            });
        self.run_batches(
            batches,
            |mut batch: Batch<Chunk>| {
                let mut acc = B::default();
                let mut numbers = 0..0;
                let mut visitor = visitor();
                for chunk in &mut batch.items {
                    numbers = work_chunk(
                        &seams,
                        games_before,
                        batch.index,
                        chunk,
                        &mut visitor,
                        &mut acc,
                        &|acc: &mut B, number, game| work.item(acc, number, game),
                    );
                    recycle(&pool, mem::take(&mut chunk.bytes), self.slots());
                }
                let done = Done {
                    index: batch.index,
                    numbers,
                    acc: work.finish(acc),
                };
                (done, batch.items)
            },
            &mut consume,
        )
    }

    /// Processes `batches` with `process` on the workers (on this thread with one job) and
    /// consumes the results in order.
    fn run_batches<T, B, E, X, I, P, C>(
        &self,
        batches: I,
        process: P,
        consume: &mut C,
    ) -> Result<Processed<E>, X>
    where
        T: Send,
        B: Send,
        E: Send,
        I: Iterator<Item = Result<Batch<T>, E>> + Send,
        P: Fn(Batch<T>) -> (Done<B>, Vec<T>) + Sync,
        C: FnMut(B, Range<u64>) -> Result<(), X>,
    {
        let mut outcome = Processed {
            items: 0,
            input_error: None,
        };
        if self.jobs <= 1 {
            for batch in batches {
                match batch {
                    Ok(batch) => {
                        let (done, _) = process(batch);
                        outcome.items += done.numbers.end - done.numbers.start;
                        consume(done.acc, done.numbers)?;
                    }
                    Err(err) => outcome.input_error = Some(err),
                }
            }
            return Ok(outcome);
        }
        let shared = Shared {
            state: Mutex::new(State {
                done: Vec::with_capacity(self.slots()),
                free_slots: self.slots(),
                reading: true,
                pulling: false,
                workers: self.jobs,
                stopped: false,
            }),
            for_workers: Condvar::new(),
            for_consumer: Condvar::new(),
        };
        let source = Source {
            batches: Mutex::new(batches),
            error: Mutex::new(None),
        };
        thread::scope(|scope| {
            let (shared, source) = (&shared, &source);
            for _ in 0..self.jobs {
                let process = &process;
                scope.spawn(move || process_batches(shared, source, process));
            }
            let consumed = consume_in_order(shared, consume, &mut outcome);
            if consumed.is_err() {
                // Stop the workers: nobody will consume what they make.
                shared.lock().stopped = true;
                shared.for_workers.notify_all();
            }
            consumed
        })?;
        // The scope has joined the workers (a worker's panic is passed on by it).
        outcome.input_error = source
            .error
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        Ok(outcome)
    }
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
struct Done<A> {
    index: u64,
    numbers: Range<u64>,
    acc: A,
}

/// Groups items into batches; an input error comes after the batch of the items before it, and
/// ends the batches.
struct Batches<I, E> {
    items: I,
    batch_bytes: usize,
    index: u64,
    number: u64,
    error: Option<E>,
    ended: bool,
}

impl<T: Weigh, E, I: Iterator<Item = Result<T, E>>> Iterator for Batches<I, E> {
    type Item = Result<Batch<T>, E>;

    fn next(&mut self) -> Option<Result<Batch<T>, E>> {
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

/// Processes a batch; gives its result and its items, so that the thread that allocated them
/// can free them (a free in another thread's malloc arena contends for that arena's lock).
fn process<T, B: Default, D, W: for<'a> Work<&'a T, Batch = B, Done = D>>(
    work: &W,
    batch: Batch<T>,
) -> (Done<D>, Vec<T>) {
    let mut acc = B::default();
    let numbers = batch.first..batch.first + batch.items.len() as u64;
    for (number, item) in numbers.clone().zip(&batch.items) {
        work.item(&mut acc, number, item);
    }
    let done = Done {
        index: batch.index,
        numbers,
        acc: work.finish(acc),
    };
    (done, batch.items)
}

/// What the threads share. Waiting threads park on a condition variable at once (channels
/// that spin before they park cost a third more CPU on two cores).
struct Shared<A> {
    state: Mutex<State<A>>,
    /// Signalled when a slot is freed or a worker is done reading (or reading ends, or the
    /// run stops).
    for_workers: Condvar,
    /// Signalled when a batch is done (or a worker ends).
    for_consumer: Condvar,
}

struct State<A> {
    /// Batches processed, waiting for their turn to be consumed (the reorder buffer).
    /// (A list, not a map: at most `slots` long, and it never frees what it holds on the
    /// consumer's thread, which would hand the workers' memory to the consumer's malloc.)
    done: Vec<Done<A>>,
    /// How many more batches may be started: the memory bound.
    free_slots: usize,
    /// Whether there may be more batches to read.
    reading: bool,
    /// Whether a worker is reading a batch (one at a time: the input is one stream).
    pulling: bool,
    /// Workers still running.
    workers: usize,
    /// The consumer failed: everybody stops.
    stopped: bool,
}

/// The batches, read by the workers in turn (no thread of its own: on a machine with as many
/// cores as workers, a reader thread would take turns with them and wake up for every batch),
/// and the input error that ended them, if any.
struct Source<I, E> {
    batches: Mutex<I>,
    error: Mutex<Option<E>>,
}

impl<A> Shared<A> {
    /// The state; a thread that panicked while holding it left it consistent enough to stop.
    fn lock(&self) -> MutexGuard<'_, State<A>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Ends a worker's turn at reading (also when reading panics: then reading ends, so that the
/// other workers do not wait for a batch that will not come).
struct EndPulling<'a, A> {
    shared: &'a Shared<A>,
    done: bool,
}

impl<A> Drop for EndPulling<'_, A> {
    fn drop(&mut self) {
        if !self.done {
            let mut state = self.shared.lock();
            state.pulling = false;
            state.reading = false;
            drop(state);
            self.shared.for_workers.notify_all();
        }
    }
}

/// Counts a worker out (also when it panics), so that the consumer does not wait for it.
struct EndWorker<'a, A>(&'a Shared<A>);

impl<A> Drop for EndWorker<'_, A> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.workers -= 1;
        if thread::panicking() {
            // The batch it was processing will never be done: stop everybody, so that the
            // scope ends and passes the panic on instead of the others waiting for ever.
            state.stopped = true;
            drop(state);
            self.0.for_workers.notify_all();
        } else {
            drop(state);
        }
        self.0.for_consumer.notify_one();
    }
}

/// A worker thread: reads the next batch when it is its turn and a slot is free, processes
/// it, and goes on until the batches end (or the run stops).
fn process_batches<T, B, E, I, P>(shared: &Shared<B>, source: &Source<I, E>, process: &P)
where
    I: Iterator<Item = Result<Batch<T>, E>>,
    P: Fn(Batch<T>) -> (Done<B>, Vec<T>),
{
    let _end = EndWorker(shared);
    loop {
        // Wait for a free slot and for the input (one worker reads at a time).
        {
            let mut state = shared.lock();
            loop {
                if state.stopped || !state.reading {
                    return;
                }
                if state.free_slots > 0 && !state.pulling {
                    break;
                }
                state = shared
                    .for_workers
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            state.free_slots -= 1;
            state.pulling = true;
        }
        let mut pulling = EndPulling {
            shared,
            done: false,
        };
        let next = source
            .batches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next();
        pulling.done = true;
        let batch = {
            let mut state = shared.lock();
            state.pulling = false;
            match next {
                Some(Ok(batch)) => Some(batch),
                Some(Err(err)) => {
                    *source.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(err);
                    state.reading = false;
                    state.free_slots += 1;
                    None
                }
                None => {
                    state.reading = false;
                    state.free_slots += 1;
                    None
                }
            }
        };
        // The next worker may read while this one processes (or stop, when reading ended).
        shared.for_workers.notify_all();
        let Some(batch) = batch else {
            return;
        };
        let (done, items) = process(batch);
        // This worker read the batch, so its items are in this thread's malloc arena: freed
        // here, not on another thread (a free into another thread's arena takes that arena's
        // lock, and a chunk freed there may come back to grow a buffer in the wrong arena).
        drop(items);
        shared.lock().done.push(done);
        shared.for_consumer.notify_one();
    }
}

/// The consumer (the calling thread): consumes the batches in order as they are done, and
/// frees their slots.
fn consume_in_order<A, E, X, C>(
    shared: &Shared<A>,
    consume: &mut C,
    outcome: &mut Processed<E>,
) -> Result<(), X>
where
    C: FnMut(A, Range<u64>) -> Result<(), X>,
{
    let mut next = 0;
    loop {
        let done = {
            let mut state = shared.lock();
            loop {
                if let Some(k) = state.done.iter().position(|done| done.index == next) {
                    break state.done.swap_remove(k);
                }
                if state.workers == 0 {
                    return Ok(());
                }
                state = shared
                    .for_consumer
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        outcome.items += done.numbers.end - done.numbers.start;
        consume(done.acc, done.numbers)?;
        next += 1;
        shared.lock().free_slots += 1;
        shared.for_workers.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: u64) -> impl Iterator<Item = Result<String, String>> + Send {
        (1..=n).map(|i| Ok(i.to_string()))
    }

    /// Doubles each number; odd ones take a little longer so that batches finish out of order.
    #[allow(clippy::ptr_arg)] // the pipeline hands out `&T`, here `T = String`
    fn double(number: u64, item: &String) -> u64 {
        let value: u64 = item.parse().unwrap();
        assert_eq!(value, number, "numbers are 1-based input positions");
        if value % 2 == 1 {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
        value * 2
    }

    fn run_with(jobs: usize, batch_bytes: usize, n: u64) -> (Vec<u64>, Processed<String>) {
        let pipeline = Pipeline::new()
            .with_jobs(jobs)
            .with_batch_bytes(batch_bytes);
        let mut got = Vec::new();
        let outcome = pipeline
            .map(numbers(n), double, |number, value| {
                assert_eq!(value, 2 * number);
                got.push(value);
                Ok::<_, ()>(())
            })
            .unwrap();
        (got, outcome)
    }

    #[test]
    fn results_keep_input_order_whatever_the_jobs() {
        let expected: Vec<u64> = (1..=2000).map(|i| 2 * i).collect();
        for jobs in [1, 2, 3, 8] {
            for batch_bytes in [1, 64, 4096] {
                let (got, outcome) = run_with(jobs, batch_bytes, 2000);
                assert_eq!(got, expected, "jobs {jobs}, batch {batch_bytes}");
                assert_eq!(outcome.items, 2000);
                assert!(outcome.input_error.is_none());
            }
        }
    }

    #[test]
    fn empty_input() {
        for jobs in [1, 4] {
            let (got, outcome) = run_with(jobs, 64, 0);
            assert_eq!((got.len(), outcome.items), (0, 0));
        }
    }

    #[test]
    fn input_error_comes_after_the_items_before_it() {
        for jobs in [1, 2] {
            let items = numbers(10)
                .chain(std::iter::once(Err("broken".to_owned())))
                .chain(numbers(3));
            let mut got = Vec::new();
            let outcome = Pipeline::new()
                .with_jobs(jobs)
                .with_batch_bytes(16)
                .map(items, double, |_, v| {
                    got.push(v);
                    Ok::<_, ()>(())
                })
                .unwrap();
            assert_eq!(outcome.items, 10, "jobs {jobs}");
            assert_eq!(outcome.input_error.as_deref(), Some("broken"));
            assert_eq!(got, (1..=10).map(|i| 2 * i).collect::<Vec<_>>());
        }
    }

    #[test]
    fn consumer_error_stops_every_thread_and_is_returned() {
        for jobs in [1, 2, 4] {
            // An endless input: the run must stop because of the consumer, not the input.
            let endless = (1..).map(|i: u64| Ok::<_, ()>(i.to_string()));
            let mut seen = 0;
            let result = Pipeline::new().with_jobs(jobs).with_batch_bytes(64).map(
                endless,
                double,
                |number, _| {
                    seen += 1;
                    if number == 500 { Err("closed") } else { Ok(()) }
                },
            );
            assert_eq!(result.unwrap_err(), "closed", "jobs {jobs}");
            assert_eq!(seen, 500);
        }
    }

    #[test]
    fn run_gives_each_batch_with_its_numbers() {
        let mut ranges = Vec::new();
        let outcome = Pipeline::new()
            .with_jobs(2)
            .with_batch_bytes(1)
            .run(
                numbers(5),
                &fold(|sum: &mut u64, _, item: &String| *sum += item.parse::<u64>().unwrap()),
                |sum, numbers| {
                    assert_eq!(sum, numbers.clone().sum::<u64>());
                    ranges.push(numbers);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        assert_eq!(outcome.items, 5);
        assert_eq!(ranges, [1..2, 2..3, 3..4, 4..5, 5..6]);
    }

    #[test]
    fn a_panicking_worker_is_passed_on_not_waited_for() {
        for jobs in [2, 3] {
            let pipeline = Pipeline::new().with_jobs(jobs).with_batch_bytes(4);
            let run = std::panic::catch_unwind(|| {
                pipeline.map(
                    numbers(2000),
                    |number, _| {
                        assert!(number != 700, "a bug in the work");
                        number
                    },
                    |_, _| Ok::<_, ()>(()),
                )
            });
            assert!(run.is_err(), "jobs {jobs}: the panic is passed on");
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

        let pipeline = Pipeline::new().with_jobs(2).with_batch_bytes(1);
        let items = (0..500).map(|_| Ok::<_, ()>(Tracked::new()));
        // A slow consumer, so that the workers, free to read on, would pile batches up in the
        // reorder buffer but for the slots.
        let mut seen = 0;
        let outcome = pipeline
            .map(
                items,
                |_, _| (),
                |_, ()| {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    seen += 1;
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        assert_eq!((outcome.items, seen), (500, 500));
        // Items are freed once their batch is processed (by the next worker that reads), so the
        // slots bound the items alive, give or take the batches waiting to be freed.
        assert!(PEAK.load(Ordering::SeqCst) <= 2 * pipeline.slots());
    }
}
