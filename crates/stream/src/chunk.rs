//! Splitting one PGN input on every worker: the worker whose turn it is to read only cuts the input into chunks
//! before a line that starts with `[` (and counts their lines), each worker reads the games of
//! its chunk, and neighbouring chunks agree on the game that a cut went through.
//!
//! A cut before `[` at the start of a line is where the whole-input reader ends a game, unless
//! that game is in its tag section or in a `{` comment there ([`PgnReader::cut`] tells which). A
//! worker reads its chunk as if the cut before it were good, then waits for the chunk before:
//! that one says how many games came before and hands over the game its cut went through, if
//! any; the worker then finds where that game ends ([`PgnReader::skip_rest`]) and reads the rest
//! of its chunk again. Chunks are read in parallel and only a count (and the rare game cut in
//! two) passes from one to the next, so every chunk is read at most twice whatever its size.

use std::{
    io::{self, Read},
    mem,
    ops::Range,
    sync::{Condvar, Mutex, PoisonError},
    thread::{self, ThreadId},
};

use tabia_notation::pgn::{Cut, Origin, PgnReader, RawGame, ReadError, Visitor};

use crate::error::InputError;

/// A piece of the input that ends before a line starting with `[`, or at the end of the input.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The bytes.
    pub(crate) bytes: Vec<u8>,
    /// The offset of the first byte in the (decompressed) input.
    pub(crate) offset: u64,
    /// The line of the first byte.
    pub(crate) line: u64,
    /// The column of the first byte (1 but for the first chunk of a piece of an input that
    /// starts in the middle of a line).
    pub(crate) column: u64,
    /// Whether the input ends with this chunk.
    pub(crate) last: bool,
}

/// Buffers of chunks that were read, for the next read to fill again (fresh memory costs
/// a page fault a page, and zeroing it), each with the thread that processed it last: the
/// worker whose turn it is to read fills one of its own, still in its core's cache, rather
/// than one the other core has just read (writing into it would take its lines over first).
pub(crate) type Pool = Mutex<Vec<(Option<ThreadId>, Vec<u8>)>>;

/// Gives a processed chunk's buffer back to `pool` (keeping at most `keep` there).
pub(crate) fn recycle(pool: &Pool, bytes: Vec<u8>, keep: usize) {
    let mut pool = pool.lock().unwrap_or_else(PoisonError::into_inner);
    if pool.len() < keep {
        pool.push((Some(thread::current().id()), bytes));
    }
}

/// Cuts a reader into [`Chunk`]s of about `size` bytes (longer when no line in them starts
/// with `[`). A read error comes after the chunk of the games read completely before it, and
/// ends the chunks.
pub(crate) struct Chunks<'p, R> {
    reader: R,
    size: usize,
    /// Read and not yet handed out: `pending[..filled]` (what lies after is stale).
    pending: Vec<u8>,
    filled: usize,
    /// The offset of `pending[0]`.
    offset: u64,
    /// The line of `pending[0]`.
    line: u64,
    /// The column of `pending[0]`.
    column: u64,
    /// How much of `pending` was searched for a cut, in vain.
    searched: usize,
    error: Option<InputError>,
    ended: bool,
    pool: &'p Pool,
}

impl<'p, R: Read> Chunks<'p, R> {
    /// The chunks of `reader`, whose first byte is at `start` of the input.
    pub(crate) fn new(reader: R, start: Origin, size: usize, pool: &'p Pool) -> Chunks<'p, R> {
        Chunks {
            reader,
            size: size.max(1),
            pending: Vec::new(),
            filled: 0,
            offset: start.offset,
            line: start.line,
            column: start.column,
            searched: 0,
            error: None,
            ended: false,
            pool,
        }
    }

    /// Reads up to `n` more bytes into `pending`; gives how many came (fewer at the end of the
    /// input). The buffer is zeroed only where it grows, and read into in as many reads as it
    /// takes (`read_to_end` through `take` would zero what is left of it before every read).
    fn fill(&mut self, n: usize) -> io::Result<usize> {
        let from = self.filled;
        if self.pending.len() < from + n {
            self.pending.resize(from + n, 0);
        }
        loop {
            if self.filled == from + n {
                return Ok(n);
            }
            match self.reader.read(&mut self.pending[self.filled..from + n]) {
                Ok(0) => return Ok(self.filled - from),
                Ok(k) => self.filled += k,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    }

    /// Moves what is pending into a buffer this thread processed last, if the pool has one
    /// (a small copy: the start of a game cut by the last chunk).
    fn adopt(&mut self) {
        let me = thread::current().id();
        let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(k) = pool.iter().position(|(owner, _)| *owner == Some(me)) else {
            return;
        };
        let mut mine = pool.swap_remove(k).1;
        if mine.len() < self.filled {
            mine.resize(self.filled, 0);
        }
        mine[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        let theirs = mem::replace(&mut self.pending, mine);
        if !theirs.is_empty() {
            pool.push((None, theirs));
        }
    }

    /// Hands out `pending[..cut]`, keeping the rest.
    fn cut_at(&mut self, cut: usize, last: bool) -> Chunk {
        let tail = self.filled - cut;
        let mut rest = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .map(|(_, bytes)| bytes)
            .unwrap_or_default();
        if rest.len() < tail {
            rest.resize(tail, 0);
        }
        rest[..tail].copy_from_slice(&self.pending[cut..self.filled]);
        let mut bytes = mem::replace(&mut self.pending, rest);
        bytes.truncate(cut);
        self.filled = tail;
        let chunk = Chunk {
            bytes,
            offset: self.offset,
            line: self.line,
            column: self.column,
            last,
        };
        self.offset += cut as u64;
        self.line += line_ends(&chunk.bytes);
        // A cut is before a `[` that starts a line.
        self.column = 1;
        self.searched = 0;
        chunk
    }
}

impl<R: Read> Iterator for Chunks<'_, R> {
    type Item = Result<Chunk, InputError>;

    fn next(&mut self) -> Option<Result<Chunk, InputError>> {
        if let Some(err) = self.error.take() {
            self.ended = true;
            return Some(Err(err));
        }
        if self.ended {
            return None;
        }
        self.adopt();
        loop {
            let missing = self.filled.max(self.searched) + self.size - self.filled;
            match self.fill(missing) {
                Ok(n) if n < missing => {
                    self.ended = true;
                    if self.filled == 0 {
                        return None;
                    }
                    return Some(Ok(self.cut_at(self.filled, true)));
                }
                Ok(_) => {}
                Err(err) => {
                    // The games before the last cut were read whole; the one after it was not.
                    let err = InputError::read(err);
                    match find_cut(&self.pending[..self.filled], 0) {
                        Some(cut) => {
                            self.error = Some(err);
                            return Some(Ok(self.cut_at(cut, false)));
                        }
                        None => {
                            self.ended = true;
                            return Some(Err(err));
                        }
                    }
                }
            }
            match find_cut(&self.pending[..self.filled], self.searched) {
                Some(cut) => return Some(Ok(self.cut_at(cut, false))),
                None => self.searched = self.filled,
            }
        }
    }
}

/// Where to cut `bytes`: before the last `[` that starts a line, at `from` or after it (and not
/// at 0), preferring one that starts a game's tags (`[Event `, or after a blank line).
fn find_cut(bytes: &[u8], from: usize) -> Option<usize> {
    let from = from.max(1);
    let mut any = None;
    for i in memchr::memrchr_iter(b'[', bytes.get(from..)?).map(|i| i + from) {
        if !matches!(bytes[i - 1], b'\n' | b'\r') {
            continue;
        }
        let blank_before = i >= 2 && matches!(&bytes[i - 2..i], b"\n\n" | b"\r\r")
            || i >= 3 && &bytes[i - 3..i] == b"\n\r\n";
        if blank_before || bytes[i + 1..].starts_with(b"Event ") {
            return Some(i);
        }
        any.get_or_insert(i);
    }
    any
}

/// How many lines `bytes` ends (`\n`, `\r\n` and a lone `\r` each end one, as the reader
/// counts them); a `\r` at the end is taken as lone (a chunk never ends between `\r` and
/// `\n`).
fn line_ends(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = if memchr::memchr(b'\r', bytes).is_none() {
        0
    } else {
        memchr::memchr_iter(b'\r', bytes)
            .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
            .count()
    };
    (lf + lone_cr) as u64
}

/// A game that a cut went through, handed from a chunk to the next.
struct Open {
    start: Origin,
    bytes: Vec<u8>,
    cut: Cut,
}

/// What a chunk hands to the next once split.
#[derive(Default)]
struct Seam {
    /// SplitGames that ended in this chunk or before.
    games: u64,
    open: Option<Open>,
    /// The worker splitting the chunk panicked.
    poisoned: bool,
}

/// The seams between the chunks of one run.
#[derive(Default)]
pub(crate) struct Seams {
    /// The seams published and not yet taken, by chunk (a list that keeps its room: entries
    /// of a map, allocated by one worker and freed by another, would move memory between
    /// their malloc arenas).
    after: Mutex<Vec<(u64, Seam)>>,
    published: Condvar,
}

impl Seams {
    /// Waits for the seam after chunk `index` and takes it.
    fn take(&self, index: u64) -> Seam {
        let mut after = self.after.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(k) = after.iter().position(|(i, _)| *i == index) {
                let (_, seam) = after.swap_remove(k);
                if seam.poisoned {
                    panic!("the worker splitting the chunk before panicked");
                }
                return seam;
            }
            after = self
                .published
                .wait(after)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn publish(&self, index: u64, seam: Seam) {
        self.after
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((index, seam));
        self.published.notify_all();
    }
}

/// Publishes a poisoned seam if the worker unwinds before publishing its own, so that the
/// worker of the next chunk does not wait for ever.
struct Publish<'a> {
    seams: &'a Seams,
    index: u64,
    done: bool,
}

impl Drop for Publish<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.seams.publish(
                self.index,
                Seam {
                    poisoned: true,
                    ..Seam::default()
                },
            );
        }
    }
}

/// A game of a chunk as a worker read it: its bytes, where it starts, and what the visitor
/// made of it (or the syntax error that stopped it), for [`Pipeline::run_games`].
///
/// [`Pipeline::run_games`]: crate::Pipeline::run_games
#[derive(Debug)]
#[non_exhaustive]
pub struct Visited<'a, T> {
    /// The bytes of the game, as [`RawGame::bytes`].
    pub bytes: &'a [u8],
    /// Where the game starts in the input.
    pub start: Origin,
    /// What the visitor's `end_game` gave.
    pub output: Result<T, ReadError>,
}

impl<T> Visited<'_, T> {
    /// The game as a [`RawGame`] of its own (a copy of its bytes).
    pub fn to_raw(&self) -> RawGame {
        RawGame {
            bytes: self.bytes.to_vec(),
            start: self.start,
        }
    }
}

/// The games read in a chunk, from `from` on: where each starts, its bytes and what the
/// visitor made of it.
type Found<T> = Vec<(Origin, Range<usize>, Result<T, ReadError>)>;

/// Reads the games `reader` has left with `visitor`; `offset` is that of the reader's input.
fn read_games<V: Visitor, R: Read>(
    reader: &mut PgnReader<R>,
    offset: u64,
    visitor: &mut V,
) -> Found<V::Output> {
    let local = |at: u64| usize::try_from(at - offset).unwrap_or(usize::MAX);
    let mut games = Vec::new();
    // Reading from memory does not fail.
    while let Ok(Some(start)) = reader.next_game() {
        let output = match reader.read_game(visitor) {
            Ok(Some(output)) => Ok(output),
            Ok(None) => break,
            Err(err) => Err(err),
        };
        games.push((start, local(start.offset)..local(reader.offset()), output));
    }
    games
}

/// A reader over `bytes` with a buffer that holds them all: one copy, no refills.
fn reader_over(bytes: &[u8]) -> PgnReader<&[u8]> {
    PgnReader::with_capacity(bytes.len().saturating_add(1024), bytes)
}

/// How the game at `start` in `bytes` (to their end) is cut by their end.
fn cut_of(bytes: &[u8], start: Origin) -> Option<Cut> {
    let mut reader = reader_over(bytes).with_origin(start);
    let _ = reader.skip_game();
    reader.cut()
}

/// Reads a chunk (the `index`th) with `visitor` and runs `work` on each of its games with its
/// number (after the `games_before` games that come before the first chunk): the worker's
/// part of [`Pipeline::run_games`](crate::Pipeline::run_games). Gives the numbers of the
/// chunk's games.
pub(crate) fn work_chunk<V: Visitor, A>(
    seams: &Seams,
    games_before: u64,
    index: u64,
    chunk: &mut Chunk,
    visitor: &mut V,
    acc: &mut A,
    work: &impl Fn(&mut A, u64, Visited<'_, V::Output>),
) -> Range<u64> {
    let mut publish = Publish {
        seams,
        index,
        done: false,
    };
    let origin = Origin {
        offset: chunk.offset,
        line: chunk.line,
        column: chunk.column,
    };
    // Read as if the cut before this chunk were good while the chunk before is read (the
    // reader takes the chunk's bytes as its buffer, and gives them back).
    let mut reader = PgnReader::from_bytes(mem::take(&mut chunk.bytes)).with_origin(origin);
    let guess = read_games(&mut reader, chunk.offset, visitor);
    chunk.bytes = reader.into_bytes();
    let bytes = &chunk.bytes[..];
    let before = match index.checked_sub(1) {
        Some(previous) => seams.take(previous),
        None => Seam {
            games: games_before,
            ..Seam::default()
        },
    };
    let joined;
    let (data, games) = match before.open {
        None => (bytes, guess),
        Some(mut open) => {
            // Where the game cut before this chunk ends.
            let mut reader = reader_over(bytes).with_origin(origin);
            let _ = reader.skip_rest(open.cut);
            if let (Some(cut), false) = (reader.cut(), chunk.last) {
                // It goes on past this chunk too.
                open.bytes.extend_from_slice(bytes);
                open.cut = cut;
                seams.publish(
                    index,
                    Seam {
                        games: before.games,
                        open: Some(open),
                        poisoned: false,
                    },
                );
                publish.done = true;
                return before.games + 1..before.games + 1;
            }
            // Read it whole, then the games after it, as one reader over the input would.
            let start = open.start;
            let mut reader =
                PgnReader::from_bytes([open.bytes, bytes.to_vec()].concat()).with_origin(start);
            let games = read_games(&mut reader, start.offset, visitor);
            joined = reader.into_bytes();
            (&joined[..], games)
        }
    };
    let mut games = games;
    // The game that the cut after this chunk went through goes on in the next chunk.
    let mut open = None;
    if !chunk.last
        && let Some((start, range, _)) = games.last()
        && let Some(cut) = cut_of(&data[range.start..], *start)
    {
        let start = *start;
        let bytes = data[range.clone()].to_vec();
        games.pop();
        open = Some(Open { start, bytes, cut });
    }
    let first = before.games + 1;
    seams.publish(
        index,
        Seam {
            games: before.games + games.len() as u64,
            open,
            poisoned: false,
        },
    );
    publish.done = true;
    let mut number = first;
    for (start, range, output) in games {
        let visited = Visited {
            bytes: &data[range],
            start,
            output,
        };
        work(acc, number, visited);
        number += 1;
    }
    first..number
}
