//! What to write and how: the file format, the partitioning, the options, and what was written or went wrong.

use super::*;

/// The file format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FileFormat {
    /// Apache Parquet, zstd-compressed.
    #[default]
    Parquet,
    /// CSV, RFC 4180, with a header row.
    Csv,
}

impl FileFormat {
    /// The file extension: `parquet` or `csv`.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Parquet => "parquet",
            FileFormat::Csv => "csv",
        }
    }

    /// The format a path's extension names: CSV for `.csv`, else Parquet (the default).
    ///
    /// ```
    /// use std::path::Path;
    /// use tabia_table::FileFormat;
    ///
    /// assert_eq!(FileFormat::for_path(Path::new("games.csv")), FileFormat::Csv);
    /// assert_eq!(FileFormat::for_path(Path::new("games")), FileFormat::Parquet);
    /// ```
    pub fn for_path(path: &Path) -> FileFormat {
        if path.extension().is_some_and(|e| e == "csv") {
            FileFormat::Csv
        } else {
            FileFormat::Parquet
        }
    }
}

impl FromStr for FileFormat {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<FileFormat, UnknownValue> {
        match s {
            "parquet" => Ok(FileFormat::Parquet),
            "csv" => Ok(FileFormat::Csv),
            _ => Err(UnknownValue::new("format", s, "parquet or csv")),
        }
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// How the output is split into folders (hive layout).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Partition {
    /// One file.
    #[default]
    None,
    /// `OUT/year=YYYY/part-N.ext`.
    Year,
    /// `OUT/year=YYYY/month=MM/part-N.ext`.
    YearMonth,
}

impl FromStr for Partition {
    type Err = UnknownValue;

    /// `year`, `year,month` (or `none`).
    fn from_str(s: &str) -> Result<Partition, UnknownValue> {
        match s {
            "none" => Ok(Partition::None),
            "year" => Ok(Partition::Year),
            "year,month" => Ok(Partition::YearMonth),
            _ => Err(UnknownValue::new("partitioning", s, "year or year,month")),
        }
    }
}

/// What to write and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Parquet or CSV.
    pub format: FileFormat,
    /// One file, or a folder per year (and month).
    pub partition: Partition,
    /// Also write the moves table, next to the games (`X.moves.parquet`, or the folder
    /// `X.moves`).
    pub moves: bool,
    /// Optional columns: nested moves, FEN.
    pub columns: Columns,
    /// How many bytes of PGN make one batch of games, and so one Parquet row group per table
    /// and partition (each [`TableWriter::write`] or [`Encoder::encode`] call, or each
    /// [`Encoding`], writes its tables as one row group, split at
    /// [`TableOptions::row_group_rows`]), for an input of unknown size or a small one.
    /// `tabia table` reads its input in batches of [`TableOptions::batch_bytes_for`] its size,
    /// each on one worker.
    pub batch_bytes: usize,
    /// The largest batch for a large input: what bounds the row groups' size, and memory (some
    /// `2 × jobs + 2` batches of input at once).
    pub max_batch_bytes: usize,
    /// How many bytes of PGN a worker reads into Arrow columns before it encodes them into its
    /// batch's row groups ([`Encoding::push`]): what bounds the memory of the columns, and keeps
    /// them in the processor's caches until they are encoded.
    pub piece_bytes: usize,
    /// The most rows in a Parquet row group.
    pub row_group_rows: usize,
    /// With [`TableOptions::partition`], the games a part file takes before the next games of
    /// its partition go to a new one (`part-0`, `part-1`, …; the moves table's part files are
    /// cut with the games'): a month of lichess is some 90 files of about a million games,
    /// each a file a Spark task or a DuckDB thread reads on its own, with a footer of its own
    /// size. A part may go past it by the rest of the batch that reached it.
    pub part_games: u64,
    /// The zstd level (1 to 22).
    pub zstd_level: i32,
    /// Which en-passant square the moves' `fen` and `ep_square` give ([`ReadOptions::ep`]).
    pub ep: EpRule,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            format: FileFormat::Parquet,
            partition: Partition::None,
            moves: false,
            columns: Columns::default(),
            batch_bytes: 2 << 20,
            max_batch_bytes: 32 << 20,
            piece_bytes: 2 << 20,
            row_group_rows: 1 << 20,
            part_games: 1_000_000,
            zstd_level: 1,
            ep: EpRule::Legal,
        }
    }
}

impl TableOptions {
    /// The batch for an input of about `size` bytes of PGN read by `jobs` workers: a 64th of
    /// each worker's share, within [`TableOptions::batch_bytes`] and
    /// [`TableOptions::max_batch_bytes`]. A large input gets large batches, and so fewer,
    /// larger row groups (a lichess month in 32 MiB batches makes some 6,000 row groups, not
    /// 100,000 of 2 MiB, and its Parquet footers shrink as much); a small one keeps batches
    /// small enough for every worker to have work to the end.
    ///
    /// ```
    /// use tabia_table::TableOptions;
    ///
    /// let options = TableOptions::default();
    /// assert_eq!(options.batch_bytes_for(None, 8), 2 << 20);
    /// assert_eq!(options.batch_bytes_for(Some(100 << 20), 1), 2 << 20);
    /// assert_eq!(options.batch_bytes_for(Some(1 << 30), 2), 8 << 20);
    /// assert_eq!(options.batch_bytes_for(Some(200 << 30), 16), 32 << 20);
    /// ```
    pub fn batch_bytes_for(&self, size: Option<u64>, jobs: usize) -> usize {
        let share = size.map_or(0, |size| {
            usize::try_from(size / (jobs.max(1) as u64 * 64)).unwrap_or(usize::MAX)
        });
        share.clamp(self.batch_bytes, self.max_batch_bytes.max(self.batch_bytes))
    }

    /// How many bytes of a batch of `batch` bytes are read before they are encoded
    /// ([`Encoder::start_pieces`]): [`TableOptions::piece_bytes`], or no limit when the batch
    /// is not larger (it is then encoded whole at its end, as one piece).
    ///
    /// ```
    /// use tabia_table::TableOptions;
    ///
    /// let options = TableOptions::default();
    /// assert_eq!(options.piece_bytes_for(32 << 20), 2 << 20);
    /// assert_eq!(options.piece_bytes_for(2 << 20), usize::MAX);
    /// ```
    pub fn piece_bytes_for(&self, batch: usize) -> usize {
        if batch <= self.piece_bytes {
            usize::MAX
        } else {
            self.piece_bytes
        }
    }

    /// What [`GameRecord::read`](crate::GameRecord::read) must read for these tables.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            moves: self.moves || self.columns.nested,
            fen: self.columns.fen,
            boards: self.columns.boards,
            ep: self.ep,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Rows of the games table.
    pub games: u64,
    /// Rows of the moves table (or nested moves).
    pub moves: u64,
    /// The files, in the order they were created.
    pub files: Vec<PathBuf>,
}

/// An error writing the tables.
#[derive(Debug)]
#[non_exhaustive]
pub enum TableError {
    /// The options do not go together (`--nested` with CSV).
    Usage(String),
    /// A file or folder could not be created or written.
    Io {
        /// Which.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The Parquet writer failed.
    Parquet {
        /// On which file.
        path: PathBuf,
        /// Why.
        source: ParquetError,
    },
    /// The Arrow columns did not agree (a bug).
    Arrow(ArrowError),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Usage(message) => f.write_str(message),
            TableError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            TableError::Parquet { path, source } => write!(f, "{}: {source}", path.display()),
            TableError::Arrow(err) => write!(f, "internal error: {err}"),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { source, .. } => Some(source),
            TableError::Parquet { source, .. } => Some(source),
            TableError::Arrow(err) => Some(err),
            TableError::Usage(_) => None,
        }
    }
}

impl From<ArrowError> for TableError {
    fn from(err: ArrowError) -> TableError {
        TableError::Arrow(err)
    }
}
