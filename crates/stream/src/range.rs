//! Reading one uncompressed PGN file in byte ranges, each on a machine of its own: a range
//! owns the games that start inside it, so that every game is read exactly once however the
//! file is cut.
//!
//! Where a game starts is what reading the file from its start says (the splitter of
//! `tabia-notation`, as for every other reading: a `[` inside a `{` comment or a blank line
//! inside a tag section start no game), so a range cannot tell its first game by looking at
//! its own bytes alone. [`Span::locate`] splits the bytes before the range's end on the
//! pipeline's workers (splitting only, at `memchr` speed: no tag or move is parsed), which
//! gives the first game that starts in the range with its number, line and column in the file;
//! then it reads on from the last game that starts in the range to the start of the next one.
//! The games of the range are then read from those bytes alone ([`Span::open`]), as in the
//! whole file, with the same numbers and places.
//!
//! The cost is the splitting of what comes before the range: a range near the end of a large
//! file splits most of it again (only splits: no tag or move is parsed, far less work than
//! parsing the range's own games into a table, but it reads those bytes). Compressed files
//! have no ranges: each is read whole ([`ranges`] plans one range for them, [`Span::locate`]
//! refuses a part of one).

use std::{
    fs::File,
    io::{self, BufReader, Read, Seek, SeekFrom},
    ops::Range,
    path::Path,
};

use tabia_notation::pgn::{Origin, PgnReader};

use crate::{
    chunk::Visited,
    compression::Compression,
    error::{InputError, InputErrorKind},
    input::Input,
    pipeline::Pipeline,
    split::SplitGames,
    work::{Bytes, fold},
};

/// Plans the byte ranges of the file at `path` for reading it in parallel pieces of about
/// `target_bytes` each: `0..len` cut into even ranges that cover it (one range for an empty
/// file). A compressed file (zstd, gzip, bzip2, xz, zip: by its first bytes) cannot be entered
/// in the middle and is one range, the whole file.
///
/// Only the file's size and first bytes are read: where the games lie is each range's to find
/// ([`Span::locate`]).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("games.pgn");
/// std::fs::write(&path, "1. e4 *\n\n".repeat(100))?; // 900 bytes
/// assert_eq!(tabia_stream::ranges(&path, 400)?, [0..300, 300..600, 600..900]);
///
/// let zst = dir.path().join("games.pgn.zst");
/// std::fs::write(&zst, zstd::encode_all(&std::fs::read(&path)?[..], 3)?)?;
/// let len = std::fs::metadata(&zst)?.len();
/// assert_eq!(tabia_stream::ranges(&zst, 10)?, [0..len]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ranges(path: impl AsRef<Path>, target_bytes: u64) -> Result<Vec<Range<u64>>, InputError> {
    let path = path.as_ref();
    let (_, len, compression, _) = open(path)?;
    if compression != Compression::None {
        return Ok(std::iter::once(0..len).collect());
    }
    let n = len.div_ceil(target_bytes.max(1)).max(1);
    let cut =
        |k: u64| u64::try_from(u128::from(len) * u128::from(k) / u128::from(n)).unwrap_or(len);
    Ok((0..n).map(|k| cut(k)..cut(k + 1)).collect())
}

/// Where the games of a byte range of an uncompressed PGN file lie: the bytes from the start
/// of the first game that starts in the range to the start of the first game after those (or
/// the end of the file), where that first game starts in the file, and how many games of the
/// file come before it. Found by [`Span::locate`]; read with [`Span::open`] and
/// [`Pipeline::run_games_from`], or [`Span::games`].
///
/// ```
/// use tabia_stream::{Pipeline, Span};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("games.pgn");
/// // A comment with a line that looks like a tag: it starts no game.
/// std::fs::write(&path, "[Event \"a\"]\n\n1. e4 {see\n\n[Event \"x\"]} *\n\n[Event \"b\"]\n\n1. d4 *\n")?;
/// let pipeline = Pipeline::new();
/// // Cut inside the comment: the first game is the first range's, whole.
/// let (first, second) = (Span::locate(&path, 0..22, &pipeline)?, Span::locate(&path, 22..80, &pipeline)?);
/// assert_eq!((first.bytes, second.bytes.clone()), (0..41, 41..62));
/// assert_eq!((second.games_before, second.start.line), (1, 7));
/// let games: Vec<_> = second.games(&path)?.collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 1);
/// assert!(games[0].bytes.starts_with(b"[Event \"b\"]"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Span {
    /// The bytes of the file that hold the range's games, from the start of the first to the
    /// start of the game after the last (or the end of the file); empty when no game starts
    /// in the range.
    pub bytes: Range<u64>,
    /// Where the first game starts in the file (offset, line and column); the start of the
    /// range when no game starts in it.
    pub start: Origin,
    /// How many games of the file start before the range.
    pub games_before: u64,
}

/// What the workers find in a batch of the bytes before a range's end.
#[derive(Default)]
struct Starts {
    /// Games that start before the range.
    before: u64,
    /// The first game that starts in the range.
    first: Option<Origin>,
    /// The last game that starts in the batch.
    last: Option<Origin>,
}

impl Span {
    /// Finds the games of `range` in the file at `path`, which must not be compressed: those
    /// that start at `range.start` or after it and before `range.end` (both are clamped to the
    /// file), where a game starts as reading the whole file says. Splits the bytes before
    /// `range.end` on `pipeline`'s workers, then reads on to the start of the next game.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or read, or it is compressed ([`InputErrorKind::Range`]).
    pub fn locate(
        path: impl AsRef<Path>,
        range: Range<u64>,
        pipeline: &Pipeline,
    ) -> Result<Span, InputError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let (file, len, compression, bom) = open(path)?;
        if compression != Compression::None {
            let why = format!(
                "it is compressed ({}): a compressed file is read whole",
                format!("{compression:?}").to_lowercase()
            );
            return Err(
                InputError::new(InputErrorKind::Range, Some(io::Error::other(why)))
                    .named(Some(&name)),
            );
        }
        // A bound inside a byte order mark is after it: the first game starts there.
        let past_bom = |at: u64| if bom && (1..3).contains(&at) { 3 } else { at };
        let end = past_bom(range.end).min(len);
        let start = past_bom(range.start).min(end);
        let read_error = |io: io::Error| InputError::read(io).named(Some(&name));
        // The starts of the games in `..end` are those of the whole file: a game is cut by
        // `end` only at its end.
        let mut found = Starts::default();
        let outcome = pipeline.run_games(
            file.take(end),
            Bytes::default,
            &fold(|acc: &mut Starts, _, game: Visited<'_, ()>| {
                if game.start.offset < start {
                    acc.before += 1;
                } else {
                    acc.first.get_or_insert(game.start);
                }
                acc.last = Some(game.start);
            }),
            |acc, _| {
                found.before += acc.before;
                found.first = found.first.or(acc.first);
                found.last = acc.last.or(found.last);
                Ok::<_, InputError>(())
            },
        )?;
        if let Some(err) = outcome.input_error {
            return Err(err.named(Some(&name)));
        }
        let (Some(first), Some(last)) = (found.first, found.last) else {
            return Ok(Span {
                bytes: start..start,
                start: Origin {
                    offset: start,
                    line: 0,
                    column: 0,
                },
                games_before: found.before,
            });
        };
        // The last game of the range ends where the next game starts.
        let mut file = File::open(path).map_err(read_error)?;
        file.seek(SeekFrom::Start(last.offset))
            .map_err(read_error)?;
        let mut reader = PgnReader::new(file).with_origin(last);
        let next = reader
            .skip_game()
            .and_then(|_| reader.next_game())
            .map_err(|err| read_error(io::Error::other(err.to_string())))?;
        Ok(Span {
            bytes: first.offset..next.map_or(len, |next| next.offset),
            start: first,
            games_before: found.before,
        })
    }

    /// The span's bytes of the file at `path`, as an [`Input`] named by the path: for
    /// [`Pipeline::run_games_from`] with this span, which gives its games their places in
    /// the file.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or its start found.
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Input, InputError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let mut file = File::open(path)
            .map_err(|io| InputError::new(InputErrorKind::Open, Some(io)).named(Some(&name)))?;
        file.seek(SeekFrom::Start(self.bytes.start))
            .map_err(|io| InputError::read(io).named(Some(&name)))?;
        let len = self.bytes.end - self.bytes.start;
        Ok(Input::plain(name, file.take(len), len))
    }

    /// The games of the span, one after the other on this thread, as raw bytes with their
    /// places in the file (see [`SplitGames`]).
    ///
    /// # Errors
    ///
    /// The file cannot be opened or its start found.
    pub fn games(&self, path: impl AsRef<Path>) -> Result<SplitGames<Input>, InputError> {
        let input = self.open(path)?;
        let name = input.name().to_owned();
        Ok(SplitGames::at(input, self.start).named(name))
    }
}

/// Opens the file at `path`: the file, its length, how it is compressed (by its first
/// bytes) and whether it starts with a UTF-8 byte order mark.
fn open(path: &Path) -> Result<(File, u64, Compression, bool), InputError> {
    let name = path.display().to_string();
    let named = |kind, io| InputError::new(kind, Some(io)).named(Some(&name));
    let mut file = File::open(path).map_err(|io| named(InputErrorKind::Open, io))?;
    let meta = file
        .metadata()
        .map_err(|io| named(InputErrorKind::Open, io))?;
    if meta.is_dir() {
        return Err(InputError::new(InputErrorKind::IsADirectory, None).named(Some(&name)));
    }
    let mut head = Vec::with_capacity(8);
    (&mut file)
        .take(8)
        .read_to_end(&mut head)
        .map_err(|io| named(InputErrorKind::Read, io))?;
    file.seek(SeekFrom::Start(0))
        .map_err(|io| named(InputErrorKind::Read, io))?;
    let bom = head.starts_with(b"\xef\xbb\xbf");
    Ok((file, meta.len(), Compression::sniff(&head), bom))
}

impl Input {
    /// An uncompressed input of `size` bytes read from `reader` (not sniffed: a span starts
    /// with a game, whatever its first bytes look like).
    pub(crate) fn plain(name: String, reader: impl Read + Send + 'static, size: u64) -> Input {
        Input::from_parts(
            name,
            Box::new(BufReader::with_capacity(1 << 16, reader)),
            Some(size),
        )
    }
}
