//! Splitting one PGN input on every worker: the reader thread only cuts the input into chunks
//! before a line that starts with `[` (no parsing), each worker finds the games of its chunk,
//! and neighbouring chunks agree on the game that a cut went through.
//!
//! A cut before `[` at the start of a line is where the whole-input reader ends a game, unless
//! that game is in its tag section or in a `{` comment there ([`Reader::cut`] tells which). A
//! worker splits its chunk as if the cut were good, then waits for the chunk before it: that
//! one says how many games and lines came before, and hands over the game its cut went
//! through, if any; the worker then finds where that game ends ([`Reader::skip_rest`]) and
//! splits the rest of its chunk again. Chunks are split in parallel and only the counts pass
//! from one to the next, so a game is read by one worker whatever the chunk size, and every
//! chunk is scanned at most twice.

use std::{
    collections::BTreeMap,
    io::Read,
    mem,
    ops::Range,
    sync::{Condvar, Mutex, PoisonError},
};

use tabia_notation::pgn::{Cut, Origin, RawGame, Reader};

use crate::error::Error;

/// A piece of the input that ends before a line starting with `[`, or at the end of the input.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The bytes.
    pub(crate) bytes: Vec<u8>,
    /// The offset of the first byte in the (decompressed) input.
    pub(crate) offset: u64,
    /// Whether the input ends with this chunk.
    pub(crate) last: bool,
}

/// Cuts a reader into [`Chunk`]s of about `size` bytes (longer when no line in them starts
/// with `[`). A read error comes after the chunk of the games read completely before it, and
/// ends the chunks.
pub(crate) struct Chunks<R> {
    reader: R,
    size: usize,
    /// Read and not yet handed out.
    pending: Vec<u8>,
    /// The offset of `pending[0]`.
    offset: u64,
    /// How much of `pending` was searched for a cut, in vain.
    searched: usize,
    error: Option<Error>,
    ended: bool,
}

impl<R: Read> Chunks<R> {
    pub(crate) fn new(reader: R, size: usize) -> Chunks<R> {
        Chunks {
            reader,
            size: size.max(1),
            pending: Vec::new(),
            offset: 0,
            searched: 0,
            error: None,
            ended: false,
        }
    }

    /// Hands out `pending[..cut]`, keeping the rest.
    fn cut_at(&mut self, cut: usize, last: bool) -> Chunk {
        let mut rest = Vec::with_capacity(self.size.max(self.pending.len() - cut) + 4096);
        rest.extend_from_slice(&self.pending[cut..]);
        let mut bytes = mem::replace(&mut self.pending, rest);
        bytes.truncate(cut);
        let chunk = Chunk {
            bytes,
            offset: self.offset,
            last,
        };
        self.offset += cut as u64;
        self.searched = 0;
        chunk
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Result<Chunk, Error>;

    fn next(&mut self) -> Option<Result<Chunk, Error>> {
        if let Some(err) = self.error.take() {
            self.ended = true;
            return Some(Err(err));
        }
        if self.ended {
            return None;
        }
        loop {
            let want = self.pending.len().max(self.searched) + self.size;
            let missing = (want - self.pending.len()) as u64;
            match (&mut self.reader)
                .take(missing)
                .read_to_end(&mut self.pending)
            {
                Ok(n) if (n as u64) < missing => {
                    self.ended = true;
                    if self.pending.is_empty() {
                        return None;
                    }
                    return Some(Ok(self.cut_at(self.pending.len(), true)));
                }
                Ok(_) => {}
                Err(err) => {
                    // The games before the last cut were read whole; the one after it was not.
                    let err = Error::read(err);
                    match find_cut(&self.pending, 0) {
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
            match find_cut(&self.pending, self.searched) {
                Some(cut) => return Some(Ok(self.cut_at(cut, false))),
                None => self.searched = self.pending.len(),
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

/// A game that a cut went through, handed from a chunk to the next.
struct Open {
    start: Origin,
    bytes: Vec<u8>,
    cut: Cut,
}

/// What a chunk hands to the next once split.
#[derive(Default)]
struct Seam {
    /// Games that ended in this chunk or before.
    games: u64,
    /// Line ends in this chunk and before it.
    lines: u64,
    open: Option<Open>,
    /// The worker splitting the chunk panicked.
    poisoned: bool,
}

/// The seams between the chunks of one run.
#[derive(Default)]
pub(crate) struct Seams {
    after: Mutex<BTreeMap<u64, Seam>>,
    published: Condvar,
}

impl Seams {
    /// Waits for the seam after chunk `index` and takes it.
    fn take(&self, index: u64) -> Seam {
        let mut after = self.after.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(seam) = after.remove(&index) {
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
            .insert(index, seam);
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

/// The games found in a chunk.
struct Split {
    /// Where the game handed over from the chunk before stops in this chunk (the end of the
    /// chunk when it goes on), and whether it ends there.
    rest: Option<(usize, bool)>,
    /// The games that start in this chunk.
    games: Vec<(Origin, Range<usize>)>,
    /// The line of the end of the chunk.
    end_line: u64,
    /// How the last game (or the game handed over, when it goes on) was cut by the end.
    cut: Option<Cut>,
}

/// Finds the games of `bytes`, which start at `offset` and on `line`; with `cut`, first the
/// rest of a game the chunk before cut so.
fn split(bytes: &[u8], offset: u64, line: u64, cut: Option<Cut>) -> Split {
    let origin = Origin {
        offset,
        line,
        column: 1,
    };
    let mut reader = Reader::new(bytes).with_origin(origin);
    let local = |at: u64| usize::try_from(at - offset).unwrap_or(usize::MAX);
    let mut rest = None;
    let mut games = Vec::new();
    if let Some(cut) = cut {
        // Reading from memory does not fail.
        let _ = reader.skip_rest(cut);
        rest = Some((local(reader.offset()), reader.cut().is_none()));
    }
    if rest.is_none_or(|(_, ends)| ends) {
        while let Ok(Some(start)) = reader.skip_game() {
            games.push((start, local(start.offset)..local(reader.offset())));
        }
    }
    Split {
        rest,
        games,
        end_line: reader.position().line,
        cut: reader.cut(),
    }
}

/// Splits a chunk (the `index`th) and runs `work` on each of its games with its number: the
/// worker's part of [`Pipeline::fold_games`](crate::Pipeline::fold_games). Gives the game
/// numbers of the chunk's games.
pub(crate) fn work_chunk<A>(
    seams: &Seams,
    index: u64,
    chunk: &Chunk,
    acc: &mut A,
    work: &impl Fn(&mut A, u64, &RawGame),
) -> Range<u64> {
    let mut publish = Publish {
        seams,
        index,
        done: false,
    };
    // Split as if the cut before this chunk were good while the chunk before is split.
    let guess = split(&chunk.bytes, chunk.offset, 1, None);
    let before = match index.checked_sub(1) {
        Some(previous) => seams.take(previous),
        None => Seam::default(),
    };
    let (found, mut handed) = match before.open {
        None => {
            let mut found = guess;
            for (start, _) in &mut found.games {
                start.line += before.lines;
            }
            found.end_line += before.lines;
            (found, None)
        }
        Some(open) => {
            let found = split(&chunk.bytes, chunk.offset, before.lines + 1, Some(open.cut));
            (found, Some(open))
        }
    };
    let mut games = found.games;
    // The game that the cut after this chunk went through goes on in the next chunk.
    let mut open = None;
    if let (Some(cut), false) = (found.cut, chunk.last) {
        let goes_on = found.rest.is_some_and(|(_, ends)| !ends);
        if let Some(mut game) = handed.take_if(|_| goes_on) {
            game.bytes.extend_from_slice(&chunk.bytes);
            game.cut = cut;
            open = Some(game);
        } else if let Some((start, range)) = games.pop() {
            let bytes = chunk.bytes[range].to_vec();
            open = Some(Open { start, bytes, cut });
        }
    }
    let first = before.games + 1;
    let count = games.len() as u64 + u64::from(handed.is_some());
    seams.publish(
        index,
        Seam {
            games: before.games + count,
            lines: found.end_line - 1,
            open,
            poisoned: false,
        },
    );
    publish.done = true;
    let mut raw = RawGame {
        bytes: Vec::new(),
        start: Origin::default(),
    };
    let mut number = first;
    if let Some(handed) = handed {
        let end = found.rest.map_or(chunk.bytes.len(), |(end, _)| end);
        raw.bytes = handed.bytes;
        raw.bytes.extend_from_slice(&chunk.bytes[..end]);
        raw.start = handed.start;
        work(acc, number, &raw);
        number += 1;
    }
    for (start, range) in games {
        raw.bytes.clear();
        raw.bytes.extend_from_slice(&chunk.bytes[range]);
        raw.start = start;
        work(acc, number, &raw);
        number += 1;
    }
    first..number
}
