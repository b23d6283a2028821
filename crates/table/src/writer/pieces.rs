//! A batch read into Arrow columns and encoded a piece at a time: [`PieceEncoding`].

use tabia_notation::pgn::RawGame;

use super::{Encoded, Encoder, Encoding, TableError, TableOptions};
use crate::{GameRecord, Rows};

/// One batch's row groups, made from its games a piece at a time, as `tabia table`'s workers
/// make them: the games are read straight into Arrow columns ([`Rows::read`]) until a piece
/// of [`TableOptions::piece_bytes`] bytes of PGN is read, and the piece is then encoded into
/// the batch's row groups ([`Encoding::push`]) while its columns are still in the processor's
/// caches. The memory of the columns is bounded by the piece, and the batch still makes one
/// row group per table and partition. Made by [`Encoder::start_pieces`].
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_table::{TableOptions, TableWriter};
///
/// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n1. c4 1/2-1/2\n";
/// let dir = tempfile::tempdir()?;
/// let options = TableOptions { moves: true, ..TableOptions::default() };
/// let mut writer = TableWriter::create(&dir.path().join("g.parquet"), options)?;
/// // Pieces of 16 bytes of PGN (some 2 MiB in `tabia table`), in a batch of about 40.
/// let mut pieces = writer.encoder().start_pieces(16, 40);
/// for (i, raw) in PgnReader::new(&pgn[..]).raw_games().enumerate() {
///     let record = pieces.read("g.pgn", &raw?, i as u64 + 1);
///     assert!(record.errors.is_empty());
/// }
/// writer.write_encoded(pieces.finish()?)?;
/// let written = writer.finish()?;
/// assert_eq!((written.games, written.moves), (3, 5));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct PieceEncoding {
    encoding: Encoding,
    options: TableOptions,
    /// The games read since the last piece (made when the first comes: the room a piece
    /// takes is not taken while the last piece is encoded, nor for a batch's last few games).
    rows: Option<Rows>,
    /// The bytes of PGN read into `rows`.
    bytes: usize,
    /// How many bytes of PGN make a piece.
    piece: usize,
    /// The bytes of PGN the columns of a piece have room for from the start.
    room: usize,
    /// The first error of encoding a piece (the rest of the batch is then not encoded).
    error: Option<TableError>,
}

impl std::fmt::Debug for PieceEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceEncoding")
            .field("encoding", &self.encoding)
            .field("games", &self.rows.as_ref().map_or(0, Rows::len))
            .field("bytes", &self.bytes)
            .field("piece", &self.piece)
            .field("room", &self.room)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl Encoder {
    /// Starts a batch of about `batch_bytes` of PGN whose games are encoded every
    /// `piece_bytes` of PGN ([`PieceEncoding`]; see [`TableOptions::piece_bytes_for`]). The
    /// columns of a piece get room from the start for the smaller of the two: no copies as
    /// they grow.
    pub fn start_pieces(&self, piece_bytes: usize, batch_bytes: usize) -> PieceEncoding {
        PieceEncoding {
            encoding: self.start(),
            options: self.options,
            rows: None,
            bytes: 0,
            piece: piece_bytes,
            room: piece_bytes.min(batch_bytes),
            error: None,
        }
    }
}

impl PieceEncoding {
    /// Reads game `number` of input `file` into the columns (see [`Rows::read`]), first
    /// encoding the piece read so far when it is full. Gives the game's record, without its
    /// moves and movetext (for its errors and warnings): a bad game still has its row.
    pub fn read(&mut self, file: &str, raw: &RawGame, number: u64) -> &GameRecord {
        if self.bytes >= self.piece {
            self.encode_piece();
        }
        self.bytes += raw.bytes.len();
        let room = self.room;
        let rows = self
            .rows
            .get_or_insert_with(|| Rows::with_capacity(room >> 10, room >> 3));
        rows.read(file, raw, number, self.options.read_options())
    }

    /// Encodes the rest of the games and closes the row groups: the batch, ready for
    /// [`TableWriter::write_encoded`](crate::TableWriter::write_encoded).
    ///
    /// # Errors
    ///
    /// The first error of encoding a piece: columns that do not agree with the schema (a bug),
    /// or a Parquet encoding error.
    pub fn finish(mut self) -> Result<Encoded, TableError> {
        self.encode_piece();
        match self.error {
            Some(err) => Err(err),
            None => self.encoding.finish(),
        }
    }

    /// Encodes the games read since the last piece into the batch's row groups.
    fn encode_piece(&mut self) {
        let Some(rows) = self.rows.take() else {
            return;
        };
        self.bytes = 0;
        if self.error.is_some() || rows.is_empty() {
            return;
        }
        let pushed = rows
            .finish(self.options.columns, self.options.moves)
            .map_err(TableError::from)
            .and_then(|tables| self.encoding.push(&tables));
        if let Err(err) = pushed {
            self.error = Some(err);
        }
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::PgnReader;

    use super::*;
    use crate::TableWriter;

    /// The games of `pgn` written through pieces of `piece` bytes, as CSV.
    fn csv(pgn: &[u8], piece: usize) -> (String, String) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("g.csv");
        let options = TableOptions {
            format: crate::FileFormat::Csv,
            moves: true,
            ..TableOptions::default()
        };
        let mut writer = TableWriter::create(&out, options).unwrap();
        let mut pieces = writer.encoder().start_pieces(piece, 1 << 20);
        for (i, raw) in PgnReader::new(pgn).raw_games().enumerate() {
            pieces.read("g.pgn", &raw.unwrap(), i as u64 + 1);
        }
        writer.write_encoded(pieces.finish().unwrap()).unwrap();
        writer.finish().unwrap();
        let read = |path| std::fs::read_to_string(path).unwrap();
        (read(out.clone()), read(crate::moves_path(&out)))
    }

    #[test]
    fn pieces_make_the_tables_of_one_piece() {
        let pgn =
            b"[Date \"2001.01.01\"]\n\n1. e4 e5 1-0\n\n1. d4 d5 2. c4 0-1\n\n1. Kf3 *\n\n1. c4 *\n";
        let whole = csv(pgn, usize::MAX);
        assert_eq!(csv(pgn, 1), whole);
        assert_eq!(csv(pgn, 30), whole);
        assert!(whole.0.lines().count() == 5, "{}", whole.0);
    }

    #[test]
    fn a_bad_game_still_gets_its_row() {
        let dir = tempfile::tempdir().unwrap();
        let options = TableOptions::default();
        let writer = TableWriter::create(&dir.path().join("g.parquet"), options).unwrap();
        let mut pieces = writer.encoder().start_pieces(1, 1);
        let reader = PgnReader::new(&b"1. e4 e5 2. Ke3 *\n"[..]);
        let raw = reader.raw_games().next().unwrap().unwrap();
        let record = pieces.read("g.pgn", &raw, 1);
        assert_eq!(record.errors.len(), 1);
        assert_eq!(pieces.finish().unwrap().games_rows, 1);
    }
}
