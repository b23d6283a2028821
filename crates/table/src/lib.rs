//! Chess games as tables: Arrow record batches written to Parquet (zstd) or CSV, which DuckDB,
//! Polars, pandas and Spark read.
//!
//! - [`GameRecord::read`]: one game (raw bytes from the PGN splitter) read for the tables: its
//!   tags, its movetext, its mainline replayed (ply count, final Polyglot hash, the opening
//!   named by position, and per ply: SAN, UCI, hash, clock, evaluation, NAGs, comment), or why
//!   it could not be read. A bad game still gives a record, so every game read has its row.
//! - [`Rows`]: records accumulated into Arrow builders (on worker threads), finished into
//!   [`Tables`]: the games table and the moves table (or the moves nested in the games).
//! - [`PieceEncoding`] ([`Encoder::start_pieces`]): a batch of games read into columns and
//!   encoded into its row groups a piece at a time on a worker thread, as `tabia table` does.
//! - [`TableWriter`]: writes the tables to Parquet (zstd, row groups flushed as they fill) or
//!   CSV (RFC 4180), one file or a hive-partitioned folder (`year=YYYY/month=MM/part-N`).
//! - The schema ([`games_schema`], [`moves_schema`]) is documented and versioned in one place:
//!   see the [`schema`](crate::games_schema) docs and [`SCHEMA_VERSION`].
//!
//! ```
//! use tabia_notation::pgn::PgnReader;
//! use tabia_table::{Columns, FileFormat, GameRecord, Partition, ReadOptions, Rows, TableOptions, TableWriter};
//!
//! let pgn = b"[UTCDate \"2024.01.15\"]\n[WhiteElo \"1850\"]\n\n1. e4 { [%clk 0:03:00] } e5 1-0\n";
//! let dir = tempfile::tempdir()?;
//! let out = dir.path().join("games.parquet");
//! let options = TableOptions { moves: true, ..TableOptions::default() };
//! let mut writer = TableWriter::create(&out, options)?;
//! let mut rows = Rows::default();
//! for (i, raw) in PgnReader::new(&pgn[..]).raw_games().enumerate() {
//!     let record = GameRecord::read(&raw?, i as u64 + 1, options.read_options());
//!     rows.push("games.pgn", &record);
//! }
//! writer.write(rows.finish(options.columns, options.moves)?)?;
//! let written = writer.finish()?;
//! assert_eq!((written.games, written.moves), (1, 2));
//! assert!(dir.path().join("games.moves.parquet").exists());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod board;
mod csv;
mod parts;
mod read;
mod record;
mod rows;
mod schema;
mod writer;

pub use arrow_array;
pub use arrow_schema;
pub use board::BoardRecord;
pub use parts::remove_parts;
pub use record::{GameRecord, MoveRecord, ReadOptions, RowProblem};
pub use rows::{PartitionKey, Rows, Tables};
pub use schema::{
    Columns, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TABLE_KEY, games_schema, moves_schema,
};
pub use writer::{
    Encoded, Encoder, Encoding, FileFormat, Partition, PieceEncoding, TableError, TableOptions,
    TableWriter, Written, moves_path,
};
