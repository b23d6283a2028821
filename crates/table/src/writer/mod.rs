//! Writing the tables: Parquet (zstd) or CSV, one file or a hive-partitioned folder.

use std::{
    fmt,
    fs::{self, File},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    str::FromStr,
    sync::Arc,
};

use arrow_array::{
    Array, ArrayRef, BooleanArray, RecordBatch, Time32MillisecondArray, cast::AsArray,
    types::Time32SecondType,
};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use arrow_select::filter::filter_record_batch;
use parquet::{
    arrow::{
        ArrowWriter,
        arrow_writer::{
            ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
        },
    },
    basic::{Compression, ZstdLevel},
    errors::ParquetError,
    file::{
        metadata::KeyValue,
        properties::{EnabledStatistics, WriterProperties},
        writer::SerializedFileWriter,
    },
    schema::types::ColumnPath,
};

use tabia_notation::UnknownValue;
use tabia_position::EpRule;

use crate::{
    ReadOptions,
    rows::{PartitionKey, Tables},
    schema::{Columns, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TABLE_KEY, games_schema, moves_schema},
};

mod encode;
mod options;
mod output;
mod pieces;

use encode::*;
pub use encode::{Encoded, Encoder, Encoding};
pub use options::{FileFormat, Partition, TableError, TableOptions, Written};
pub use output::moves_path;
use output::*;
pub use pieces::PieceEncoding;

/// The most files of one table open at once when partitioning; the least recently used is
/// closed when another is needed (its partition then gets a new part file if more games come).
const MAX_OPEN: usize = 8;

/// Writes the games table (and the moves table) batch after batch, in the order given.
///
/// The encoding (Parquet pages, zstd; or CSV text) is the costly part and can run on any
/// thread: [`TableWriter::encoder`] gives an [`Encoder`] that worker threads share, each
/// turning its batch of [`Tables`] into [`Encoded`] row groups; the writer then only appends
/// them to the files ([`TableWriter::write_encoded`]), in order. [`TableWriter::write`] does
/// both on the calling thread.
pub struct TableWriter {
    games: Output,
    moves: Option<Output>,
    encoder: Encoder,
    written: Written,
}

impl TableWriter {
    /// Prepares the output `out`: a file (no partitioning) or a folder. The moves table goes
    /// next to it: `games.parquet` → `games.moves.parquet`, `games/` → `games.moves/`.
    ///
    /// # Errors
    ///
    /// Options that do not go together, or a folder that cannot be created.
    pub fn create(out: &Path, options: TableOptions) -> Result<TableWriter, TableError> {
        if options.format == FileFormat::Csv && options.columns.nested {
            return Err(TableError::Usage(
                "nested moves are a Parquet feature: CSV has no list columns (write --moves instead)"
                    .into(),
            ));
        }
        let games_table = TableEncoder::new("games", games_schema(options.columns), options)?;
        let moves_table = (options.moves && !options.columns.nested)
            .then(|| TableEncoder::new("moves", moves_schema(options.columns), options))
            .transpose()?;
        let moves = moves_table
            .as_ref()
            .map(|table| Output::new(moves_path(out), table.clone(), options));
        let games = Output::new(out.to_path_buf(), games_table.clone(), options);
        for output in std::iter::once(&games).chain(&moves) {
            let dir = if options.partition == Partition::None {
                output.root.parent().map(Path::to_path_buf)
            } else {
                Some(output.root.clone())
            };
            if let Some(dir) = dir.filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(&dir).map_err(|source| TableError::Io { path: dir, source })?;
            }
        }
        Ok(TableWriter {
            games,
            moves,
            encoder: Encoder {
                games: games_table,
                moves: moves_table,
                options,
            },
            written: Written::default(),
        })
    }

    /// The encoder of these tables, to share with the threads that make the batches.
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// Writes the rows of `tables` (encoded on this thread), as one row group per table and
    /// partition.
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn write(&mut self, tables: Tables) -> Result<(), TableError> {
        let encoded = self.encoder.encode(&tables)?;
        self.write_encoded(encoded)
    }

    /// Appends a batch encoded by [`Encoder::encode`] to the files.
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn write_encoded(&mut self, encoded: Encoded) -> Result<(), TableError> {
        self.written.games += encoded.games_rows;
        self.written.moves += encoded.moves_rows;
        // Partition by partition, the games' part then its moves', so that the files the
        // games close (the least recently used, to bound the files open) close in the moves
        // too, before the moves open theirs: a partition's part files have the same number in
        // both tables, and the moves never have more files open than the games.
        let mut moves = encoded.moves;
        for part in encoded.games {
            let key = part.key;
            self.games
                .write(part, &mut self.written, self.moves.as_ref())?;
            if let Some(output) = &mut self.moves {
                for closed in self.games.closed.drain(..) {
                    output.close_key(closed)?;
                }
                if let Some(i) = moves.iter().position(|m| m.key == key) {
                    let part = moves.remove(i);
                    output.write(part, &mut self.written, Some(&self.games))?;
                }
            }
        }
        if let Some(output) = &mut self.moves {
            for part in moves {
                output.write(part, &mut self.written, Some(&self.games))?;
            }
        }
        self.games.closed.clear();
        if self.encoder.options.partition != Partition::None {
            // A full part file closes, with its moves: the partition's next games start the
            // next part in both tables.
            for key in self.games.full(self.encoder.options.part_games.max(1)) {
                self.games.close_key(key)?;
                if let Some(output) = &mut self.moves {
                    output.close_key(key)?;
                }
            }
        }
        Ok(())
    }

    /// Closes every file (writing the Parquet footers) and says what was written.
    ///
    /// # Errors
    ///
    /// A file that cannot be written.
    pub fn finish(mut self) -> Result<Written, TableError> {
        // A run without games still leaves a (valid, empty) file when not partitioning.
        for output in std::iter::once(&mut self.games).chain(self.moves.as_mut()) {
            if output.options.partition == Partition::None && output.open.is_empty() {
                output.open_file(PartitionKey::default(), &mut self.written, None)?;
            }
            output.close_all()?;
        }
        Ok(self.written)
    }
}

#[cfg(test)]
mod tests;
