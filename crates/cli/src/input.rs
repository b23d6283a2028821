//! Opening inputs, for the subcommands: [`tabia_stream`] does the work (files or standard
//! input, decompression by magic bytes, splitting into games or lines); this module names
//! what the subcommands use.

use std::{cell::RefCell, io::BufRead};

use tabia_notation::pgn::{Game, RawGame, ReadError, Visitor};
use tabia_position::Exporter;
use tabia_stream::{Compression, Input as Stream, SplitGames};
pub(crate) use tabia_stream::{Source, TextLine, TextLines};

thread_local! {
    /// A game written and no longer needed, whose memory the next game parsed on this thread
    /// takes ([`parse_game`], [`give_back`]).
    static SPARE: RefCell<Option<Game>> = const { RefCell::new(None) };
}

thread_local! {
    /// This thread's exporter ([`with_exporter`]): its memory is kept from game to game.
    static EXPORTER: RefCell<Exporter> = RefCell::new(Exporter::new());
}

/// Runs `f` with this thread's [`Exporter`], which checks a game and writes it in export
/// format as it reads it (what the game's tree, repaired, would write).
pub(crate) fn with_exporter<T>(f: impl FnOnce(&mut Exporter) -> T) -> T {
    EXPORTER.with(|exporter| f(&mut exporter.borrow_mut()))
}

thread_local! {
    /// This thread's buffer for the bytes of the game being visited ([`visit`]).
    static GAME_BYTES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// [`RawGame::visit`] in this thread's buffer, kept from game to game (a visit within a visit
/// gets a buffer of its own).
pub(crate) fn visit<V: Visitor>(raw: &RawGame, visitor: &mut V) -> Result<V::Output, ReadError> {
    GAME_BYTES.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut buffer) => raw.visit_in(visitor, &mut buffer),
        Err(_) => raw.visit(visitor),
    })
}

/// Parses a game, into the memory of the last game [given back](give_back) on this thread
/// when there is one ([`RawGame::parse_reusing`]): the same game, fewer allocations.
pub(crate) fn parse_game(raw: &RawGame) -> Result<Game, ReadError> {
    match SPARE.with(|spare| spare.borrow_mut().take()) {
        Some(spare) => raw.parse_reusing(spare),
        None => raw.parse(),
    }
}

/// Keeps a game that is no longer needed for the next [`parse_game`] on this thread.
pub(crate) fn give_back(game: Game) {
    SPARE.with(|spare| *spare.borrow_mut() = Some(game));
}

/// An opened input, as [`crate::session::Session::open`] gives it.
#[derive(Debug)]
pub(crate) struct Input {
    /// The name used in diagnostics (`<stdin>` for standard input).
    pub(crate) name: String,
    /// The decompressed bytes, and what the progress meter needs.
    pub(crate) stream: Stream,
}

impl Input {
    /// About how many bytes of PGN the input holds: its size, times 5 when it is compressed (a
    /// guess: zstd and xz make PGN some 5 to 8 times smaller; a zip entry's size is its text's);
    /// unknown for standard input and pipes.
    pub(crate) fn text_size(&self) -> Option<u64> {
        let size = self.stream.size()?;
        Some(match self.stream.compression() {
            Compression::None | Compression::Zip => size,
            _ => size.saturating_mul(5),
        })
    }
}

impl From<Stream> for Input {
    fn from(stream: Stream) -> Input {
        Input {
            name: stream.name().to_owned(),
            stream,
        }
    }
}

/// The games of a PGN input as raw bytes (split on one thread, for one job);
/// a read error ends them, displayed as `read error: <cause>`.
pub(crate) fn raw_games(reader: Box<dyn BufRead + Send>) -> SplitGames<Box<dyn BufRead + Send>> {
    SplitGames::new(reader)
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;

    #[test]
    fn raw_games_read_error_reads_well_with_the_input_name() {
        let bytes = zstd::encode_all(&b"1. e4 *\n\n1. d4 *\n"[..], 1).unwrap();
        let (_, reader) =
            tabia_stream::decompress(io::Cursor::new(bytes[..bytes.len() - 2].to_vec())).unwrap();
        let err = raw_games(reader).find_map(Result::err).unwrap();
        let text = format!("{:#}", anyhow::Error::new(err).context("g.zst"));
        assert!(text.starts_with("g.zst: read error: "), "{text}");
        assert_eq!(text.matches("read error").count(), 1, "{text}");
    }
}
