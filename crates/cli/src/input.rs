//! Opening inputs, for the subcommands: [`tabia_stream`] does the work (files or standard
//! input, decompression by magic bytes, splitting into games or lines); this module names
//! what the subcommands use.

use std::io::BufRead;

use tabia_stream::{Games, Input as Stream};
pub(crate) use tabia_stream::{Line, Lines, Source};

/// An opened input, as [`crate::session::Session::open`] gives it.
#[derive(Debug)]
pub(crate) struct Input {
    /// The name used in diagnostics (`<stdin>` for standard input).
    pub(crate) name: String,
    /// The decompressed bytes, and what the progress meter needs.
    pub(crate) stream: Stream,
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
pub(crate) fn raw_games(reader: Box<dyn BufRead + Send>) -> Games<Box<dyn BufRead + Send>> {
    Games::new(reader)
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
