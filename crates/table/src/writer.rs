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

use crate::{
    ReadOptions,
    rows::{PartitionKey, Tables},
    schema::{Columns, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TABLE_KEY, games_schema, moves_schema},
};

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

    /// What [`GameRecord::read`](crate::GameRecord::read) must read for these tables.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            moves: self.moves || self.columns.nested,
            fen: self.columns.fen,
            boards: self.columns.boards,
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

/// Turns [`Tables`] into [`Encoded`] row groups, on any thread: get it from
/// [`TableWriter::encoder`], share it (it is `Sync`), and hand what it makes to
/// [`TableWriter::write_encoded`] in order.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_table::{GameRecord, Rows, TableOptions, TableWriter};
///
/// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n";
/// let dir = tempfile::tempdir()?;
/// let options = TableOptions { moves: true, ..TableOptions::default() };
/// let mut writer = TableWriter::create(&dir.path().join("g.parquet"), options)?;
/// let encoded = std::thread::scope(|scope| {
///     let encoder = writer.encoder();
///     scope.spawn(move || {
///         let mut rows = Rows::default();
///         for (i, raw) in PgnReader::new(&pgn[..]).raw_games().enumerate() {
///             rows.push("g.pgn", &GameRecord::read(&raw.unwrap(), i as u64 + 1, options.read_options()));
///         }
///         encoder.encode(&rows.finish(options.columns, options.moves).unwrap())
///     })
///     .join()
///     .unwrap()
/// })?;
/// writer.write_encoded(encoded)?;
/// assert_eq!(writer.finish()?.moves, 4);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Encoder {
    games: TableEncoder,
    moves: Option<TableEncoder>,
    options: TableOptions,
}

/// A batch of rows encoded by an [`Encoder`], ready to be appended to the files.
#[derive(Debug)]
pub struct Encoded {
    games: Vec<Part>,
    moves: Vec<Part>,
    games_rows: u64,
    moves_rows: u64,
}

/// The rows of one partition, encoded.
#[derive(Debug)]
struct Part {
    key: PartitionKey,
    /// The games (or moves) it holds.
    rows: u64,
    data: PartData,
}

#[derive(Debug)]
enum PartData {
    /// Row groups, each a column chunk per leaf column.
    Parquet(Vec<Vec<ArrowColumnChunk>>),
    /// CSV lines.
    Csv(Vec<u8>),
}

impl Encoder {
    /// Encodes `tables`: per table and partition, its rows as Parquet row groups (of at most
    /// [`TableOptions::row_group_rows`] rows) or as CSV lines.
    ///
    /// # Errors
    ///
    /// Columns that do not agree with the schema (a bug), or a Parquet encoding error.
    pub fn encode(&self, tables: &Tables) -> Result<Encoded, TableError> {
        let mut encoding = self.start();
        encoding.push(tables)?;
        encoding.finish()
    }

    /// Starts row groups that several [`Tables`] in a row go into ([`Encoding::push`]), each
    /// encoded as it comes: a batch's rows can be turned into Arrow columns and encoded a
    /// piece at a time, while the batch still makes one row group per table and partition.
    pub fn start(&self) -> Encoding {
        Encoding {
            games: PartsInProgress::new(self.games.clone()),
            moves: self.moves.clone().map(PartsInProgress::new),
            games_rows: 0,
            moves_rows: 0,
        }
    }

    /// The options the tables are written with.
    pub fn options(&self) -> &TableOptions {
        &self.options
    }
}

/// Row groups being encoded from several [`Tables`] in a row, made by [`Encoder::start`]: the
/// rows pushed go into the open row group of their table and partition (a new one is started
/// when [`TableOptions::row_group_rows`] is reached), and [`Encoding::finish`] closes them.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_table::{GameRecord, Rows, TableOptions, TableWriter};
///
/// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n1. c4 1/2-1/2\n";
/// let dir = tempfile::tempdir()?;
/// let options = TableOptions { moves: true, ..TableOptions::default() };
/// let mut writer = TableWriter::create(&dir.path().join("g.parquet"), options)?;
/// let mut encoding = writer.encoder().start();
/// for (i, raw) in PgnReader::new(&pgn[..]).raw_games().enumerate() {
///     // One game at a time here; `tabia table` pushes some 2 MiB of PGN at a time.
///     let mut rows = Rows::default();
///     rows.push("g.pgn", &GameRecord::read(&raw?, i as u64 + 1, options.read_options()));
///     encoding.push(&rows.finish(options.columns, options.moves)?)?;
/// }
/// writer.write_encoded(encoding.finish()?)?;
/// let written = writer.finish()?;
/// assert_eq!((written.games, written.moves), (3, 5));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Encoding {
    games: PartsInProgress,
    moves: Option<PartsInProgress>,
    games_rows: u64,
    moves_rows: u64,
}

impl Encoding {
    /// Encodes `tables` into the open row groups.
    ///
    /// # Errors
    ///
    /// Columns that do not agree with the schema (a bug), or a Parquet encoding error.
    pub fn push(&mut self, tables: &Tables) -> Result<(), TableError> {
        let moves_rows = tables.move_offsets.last().copied().unwrap_or(0);
        self.games.push(&tables.games, &tables.partitions, None)?;
        if let (Some(parts), Some(batch)) = (&mut self.moves, &tables.moves) {
            parts.push(batch, &tables.partitions, Some(&tables.move_offsets))?;
        }
        self.games_rows += tables.games.num_rows() as u64;
        self.moves_rows += u64::try_from(moves_rows).unwrap_or(0);
        Ok(())
    }

    /// Closes the open row groups: what was pushed, ready for [`TableWriter::write_encoded`].
    ///
    /// # Errors
    ///
    /// A Parquet encoding error.
    pub fn finish(self) -> Result<Encoded, TableError> {
        Ok(Encoded {
            games: self.games.finish()?,
            moves: self
                .moves
                .map(PartsInProgress::finish)
                .transpose()?
                .unwrap_or_default(),
            games_rows: self.games_rows,
            moves_rows: self.moves_rows,
        })
    }
}

/// The most row groups an [`Encoding`] keeps open a table (partitions of one batch).
const MAX_OPEN_GROUPS: usize = 2;

/// One table's parts being encoded, in the order their partitions first came.
#[derive(Debug)]
struct PartsInProgress {
    table: TableEncoder,
    /// Each partition's rows so far, and their encoding.
    parts: Vec<(PartitionKey, u64, PartInProgress)>,
}

#[derive(Debug)]
enum PartInProgress {
    /// The closed row groups, and the open one (its column writers and rows) if any.
    Parquet {
        closed: Vec<Vec<ArrowColumnChunk>>,
        open: Option<(Vec<ArrowColumnWriter>, usize)>,
    },
    /// CSV lines.
    Csv(Vec<u8>),
}

impl PartInProgress {
    /// Whether it has a row group open.
    fn is_open(&self) -> bool {
        matches!(self, PartInProgress::Parquet { open: Some(_), .. })
    }
}

impl PartsInProgress {
    fn new(table: TableEncoder) -> PartsInProgress {
        PartsInProgress {
            table,
            parts: Vec::new(),
        }
    }

    /// Adds `batch`, whose rows belong to the games of `partitions` (one row per game, or with
    /// `offsets` the rows `offsets[i]..offsets[i + 1]` for game `i`).
    fn push(
        &mut self,
        batch: &RecordBatch,
        partitions: &[PartitionKey],
        offsets: Option<&[i32]>,
    ) -> Result<(), TableError> {
        for (key, batch) in self.table.split(batch, partitions, offsets)? {
            if batch.num_rows() == 0 {
                continue;
            }
            let i = match self.parts.iter().position(|(k, _, _)| *k == key) {
                Some(i) => i,
                None => {
                    let part = match self.table.factory {
                        Some(_) => PartInProgress::Parquet {
                            closed: Vec::new(),
                            open: None,
                        },
                        None => PartInProgress::Csv(Vec::new()),
                    };
                    self.parts.push((key, 0, part));
                    self.parts.len() - 1
                }
            };
            self.parts[i].1 += batch.num_rows() as u64;
            match &mut self.parts[i].2 {
                PartInProgress::Parquet { closed, open } => {
                    self.table.encode_parquet(&batch, closed, open)?;
                    self.bound_open(i)?;
                }
                PartInProgress::Csv(out) => {
                    crate::csv::rows(&batch, out).map_err(|source| TableError::Io {
                        path: PathBuf::from(self.table.table),
                        source,
                    })?;
                }
            }
        }
        Ok(())
    }

    /// How many partitions have a row group open.
    fn open_groups(&self) -> usize {
        self.parts.iter().filter(|(_, _, p)| p.is_open()).count()
    }

    /// Closes the open row groups of other partitions than the `i`-th past [`MAX_OPEN_GROUPS`]
    /// (those of the partitions that came first in the batch): each open row group holds a
    /// column writer a leaf column, each with its zstd contexts, and a batch of games of many
    /// dates cut into months or years has many partitions.
    fn bound_open(&mut self, i: usize) -> Result<(), TableError> {
        while self.open_groups() > MAX_OPEN_GROUPS {
            let Some((_, _, PartInProgress::Parquet { closed, open })) = self
                .parts
                .iter_mut()
                .enumerate()
                .find(|(j, (_, _, p))| *j != i && p.is_open())
                .map(|(_, part)| part)
            else {
                break;
            };
            if let Some((writers, _)) = open.take() {
                closed.push(self.table.close_group(writers)?);
            }
        }
        Ok(())
    }

    /// The parts, their open row groups closed.
    fn finish(self) -> Result<Vec<Part>, TableError> {
        let table = self.table;
        self.parts
            .into_iter()
            .map(|(key, rows, part)| {
                let data = match part {
                    PartInProgress::Parquet { mut closed, open } => {
                        if let Some((writers, _)) = open {
                            closed.push(table.close_group(writers)?);
                        }
                        PartData::Parquet(closed)
                    }
                    PartInProgress::Csv(out) => PartData::Csv(out),
                };
                Ok(Part { key, rows, data })
            })
            .collect()
    }
}

/// How one table is encoded.
#[derive(Debug, Clone)]
struct TableEncoder {
    table: &'static str,
    /// The schema of the batches given.
    schema: SchemaRef,
    /// The schema of the Parquet files (`UTCTime` in milliseconds, as Parquet has no seconds).
    parquet_schema: SchemaRef,
    options: TableOptions,
    /// Makes the column writers of a row group (Parquet only).
    factory: Option<Arc<ArrowRowGroupWriterFactory>>,
    /// The properties of the Parquet files.
    properties: Option<WriterProperties>,
}

impl TableEncoder {
    fn new(
        table: &'static str,
        schema: SchemaRef,
        options: TableOptions,
    ) -> Result<TableEncoder, TableError> {
        let parquet_schema = Arc::new(Schema::new_with_metadata(
            schema
                .fields()
                .iter()
                .map(|f| match f.data_type() {
                    DataType::Time32(TimeUnit::Second) => Arc::new(Field::new(
                        f.name(),
                        DataType::Time32(TimeUnit::Millisecond),
                        f.is_nullable(),
                    )),
                    _ => f.clone(),
                })
                .collect::<Vec<_>>(),
            schema.metadata().clone(),
        ));
        let mut encoder = TableEncoder {
            table,
            schema,
            parquet_schema,
            options,
            factory: None,
            properties: None,
        };
        if options.format == FileFormat::Parquet {
            let properties = encoder.parquet_properties()?;
            // The column writers depend only on the schema and the properties, which every
            // file of the table shares: make them from a writer that goes nowhere.
            let (_, factory) = parquet_writer(io::sink(), &encoder.parquet_schema, &properties)
                .and_then(ArrowWriter::into_serialized_writer)
                .map_err(|source| TableError::Parquet {
                    path: PathBuf::from(table),
                    source,
                })?;
            encoder.factory = Some(Arc::new(factory));
            encoder.properties = Some(properties);
        }
        Ok(encoder)
    }

    /// The Parquet writer properties: zstd at the level asked; dictionaries only where values
    /// repeat (names, tags, moves), not for hashes, numbers that count up or free text;
    /// min/max statistics per column chunk (what query engines prune row groups with), none
    /// for free text.
    fn parquet_properties(&self) -> Result<WriterProperties, TableError> {
        let level = ZstdLevel::try_new(self.options.zstd_level).map_err(|err| {
            TableError::Usage(format!("bad zstd level {}: {err}", self.options.zstd_level))
        })?;
        let mut builder = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_max_row_group_row_count(Some(self.options.row_group_rows.max(1)))
            .set_created_by(format!("tabia {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![
                KeyValue::new(SCHEMA_VERSION_KEY.to_owned(), SCHEMA_VERSION.to_owned()),
                KeyValue::new(TABLE_KEY.to_owned(), self.table.to_owned()),
            ]));
        for name in PLAIN_COLUMNS {
            if self.schema.field_with_name(name).is_ok() {
                builder = builder.set_column_dictionary_enabled(ColumnPath::from(*name), false);
            }
        }
        for name in MOVE_COLUMNS {
            if self.schema.field_with_name(name).is_ok() {
                builder = builder.set_column_statistics_enabled(
                    ColumnPath::from(*name),
                    EnabledStatistics::None,
                );
            }
        }
        for name in TEXT_COLUMNS {
            if self.schema.field_with_name(name).is_ok() {
                builder = builder
                    .set_column_dictionary_enabled(ColumnPath::from(*name), false)
                    .set_column_statistics_enabled(
                        ColumnPath::from(*name),
                        EnabledStatistics::None,
                    );
            }
        }
        Ok(builder.build())
    }

    /// Encodes `batch` into the open row group (`open`: its column writers and rows so far),
    /// starting one when there is none and moving it to `closed` when it has
    /// [`TableOptions::row_group_rows`] rows.
    fn encode_parquet(
        &self,
        batch: &RecordBatch,
        closed: &mut Vec<Vec<ArrowColumnChunk>>,
        open: &mut Option<(Vec<ArrowColumnWriter>, usize)>,
    ) -> Result<(), TableError> {
        let batch = to_parquet_batch(batch, &self.parquet_schema)?;
        let parquet = |source| TableError::Parquet {
            path: PathBuf::from(self.table),
            source,
        };
        let limit = self.options.row_group_rows.max(1);
        let mut start = 0;
        while start < batch.num_rows() {
            let (writers, rows) = match open {
                Some(open) => open,
                None => {
                    let factory = self.factory.as_ref().ok_or_else(|| {
                        TableError::Usage("a Parquet row group for a CSV table".into())
                    })?;
                    open.insert((factory.create_column_writers(0).map_err(parquet)?, 0))
                }
            };
            let len = (limit - *rows).min(batch.num_rows() - start);
            let slice = batch.slice(start, len);
            let mut next = writers.iter_mut();
            for (field, column) in self.parquet_schema.fields().iter().zip(slice.columns()) {
                for leaf in compute_leaves(field, column).map_err(parquet)? {
                    let writer = next.next().ok_or_else(|| {
                        TableError::Arrow(ArrowError::SchemaError(format!(
                            "more leaf columns than the {} schema has",
                            self.table
                        )))
                    })?;
                    writer.write(&leaf).map_err(parquet)?;
                }
            }
            *rows += len;
            start += len;
            if *rows >= limit
                && let Some((writers, _)) = open.take()
            {
                closed.push(self.close_group(writers)?);
            }
        }
        Ok(())
    }

    /// The column chunks of a row group.
    fn close_group(
        &self,
        writers: Vec<ArrowColumnWriter>,
    ) -> Result<Vec<ArrowColumnChunk>, TableError> {
        writers
            .into_iter()
            .map(ArrowColumnWriter::close)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| TableError::Parquet {
                path: PathBuf::from(self.table),
                source,
            })
    }

    /// `batch` split by partition (as far as the partitioning goes), in the order the
    /// partitions first appear.
    fn split(
        &self,
        batch: &RecordBatch,
        partitions: &[PartitionKey],
        offsets: Option<&[i32]>,
    ) -> Result<Vec<(PartitionKey, RecordBatch)>, TableError> {
        if self.options.partition == Partition::None {
            return Ok(vec![(PartitionKey::default(), batch.clone())]);
        }
        let keys: Vec<PartitionKey> = partitions.iter().map(|k| self.key(*k)).collect();
        let mut distinct: Vec<PartitionKey> = Vec::new();
        for key in &keys {
            if !distinct.contains(key) {
                distinct.push(*key);
            }
        }
        if distinct.len() == 1 {
            return Ok(vec![(distinct[0], batch.clone())]);
        }
        let mut parts = Vec::with_capacity(distinct.len());
        for key in distinct {
            let mask: BooleanArray = match offsets {
                None => keys.iter().map(|k| Some(*k == key)).collect(),
                Some(offsets) => keys
                    .iter()
                    .zip(offsets.windows(2))
                    .flat_map(|(k, w)| {
                        std::iter::repeat_n(Some(*k == key), (w[1] - w[0]).max(0) as usize)
                    })
                    .collect(),
            };
            parts.push((key, filter_record_batch(batch, &mask)?));
        }
        Ok(parts)
    }

    /// The key as far as the partitioning goes.
    fn key(&self, key: PartitionKey) -> PartitionKey {
        match self.options.partition {
            Partition::None => PartitionKey::default(),
            Partition::Year => PartitionKey {
                year: key.year,
                month: None,
            },
            Partition::YearMonth => key,
        }
    }
}

/// Columns whose values hardly repeat: no dictionary (it would only be given up).
const PLAIN_COLUMNS: &[&str] = &["game", "offset", "line", "final_zobrist", "zobrist"];

/// Free text: no dictionary, no min/max statistics.
const TEXT_COLUMNS: &[&str] = &["movetext", "comment", "fen"];

/// Moves, whose minimum and maximum say nothing: no statistics (a dictionary, as they repeat).
const MOVE_COLUMNS: &[&str] = &["san", "uci"];

/// An Arrow writer for a Parquet file of `schema` (it embeds the Arrow schema in the file).
fn parquet_writer<W: Write + Send>(
    out: W,
    schema: &SchemaRef,
    properties: &WriterProperties,
) -> Result<ArrowWriter<W>, ParquetError> {
    ArrowWriter::try_new(out, schema.clone(), Some(properties.clone()))
}

/// The moves table's path next to the games table's `out` (a file, or with partitions a
/// folder), as [`TableWriter::create`] makes it.
///
/// ```
/// use std::path::Path;
/// use tabia_table::moves_path;
///
/// assert_eq!(moves_path(Path::new("out/games.parquet")), Path::new("out/games.moves.parquet"));
/// assert_eq!(moves_path(Path::new("games")), Path::new("games.moves"));
/// ```
pub fn moves_path(out: &Path) -> PathBuf {
    match (out.file_stem(), out.extension()) {
        (Some(stem), Some(ext)) => {
            let mut name = stem.to_os_string();
            name.push(".moves.");
            name.push(ext);
            out.with_file_name(name)
        }
        _ => {
            let mut name = out.as_os_str().to_os_string();
            name.push(".moves");
            PathBuf::from(name)
        }
    }
}

/// One table's files.
struct Output {
    root: PathBuf,
    encoder: TableEncoder,
    options: TableOptions,
    open: Vec<Open>,
    clock: u64,
    /// The partitions whose file was closed to bound the files open, since the last look.
    closed: Vec<PartitionKey>,
}

struct Open {
    key: PartitionKey,
    path: PathBuf,
    file: FileWriter,
    used: u64,
    /// The rows written to the file.
    rows: u64,
    /// Its part number (partitioned tables).
    number: Option<u32>,
}

enum FileWriter {
    Parquet(Box<SerializedFileWriter<BufWriter<File>>>),
    Csv(BufWriter<File>),
}

impl Output {
    fn new(root: PathBuf, encoder: TableEncoder, options: TableOptions) -> Output {
        Output {
            root,
            encoder,
            options,
            open: Vec::new(),
            clock: 0,
            closed: Vec::new(),
        }
    }

    /// Appends the encoded part to the file of its partition (opened if none is).
    fn write(
        &mut self,
        part: Part,
        written: &mut Written,
        sibling: Option<&Output>,
    ) -> Result<(), TableError> {
        self.clock += 1;
        let index = match self.open.iter().position(|o| o.key == part.key) {
            Some(i) => i,
            None => self.open_file(part.key, written, sibling)?,
        };
        let open = &mut self.open[index];
        open.used = self.clock;
        open.rows += part.rows;
        let path = &open.path;
        match (&mut open.file, part.data) {
            (FileWriter::Parquet(writer), PartData::Parquet(groups)) => {
                let parquet = |source| TableError::Parquet {
                    path: path.clone(),
                    source,
                };
                for chunks in groups {
                    let mut group = writer.next_row_group().map_err(parquet)?;
                    for chunk in chunks {
                        chunk.append_to_row_group(&mut group).map_err(parquet)?;
                    }
                    group.close().map_err(parquet)?;
                }
            }
            (FileWriter::Csv(writer), PartData::Csv(bytes)) => {
                writer.write_all(&bytes).map_err(|source| TableError::Io {
                    path: path.clone(),
                    source,
                })?;
            }
            _ => {
                return Err(TableError::Usage(
                    "a batch encoded for another format".into(),
                ));
            }
        }
        Ok(())
    }

    /// The folder of partition `key`'s part files.
    fn part_dir(&self, key: PartitionKey) -> PathBuf {
        let mut dir = self.root.join(format!("year={}", part_value(key.year)));
        if self.options.partition == Partition::YearMonth {
            dir = dir.join(format!(
                "month={}",
                key.month
                    .map_or_else(|| part_value(None), |m| format!("{m:02}"))
            ));
        }
        dir
    }

    /// Part file `n` of partition `key`.
    fn part_path(&self, key: PartitionKey, n: u32) -> PathBuf {
        self.part_dir(key)
            .join(format!("part-{n}.{}", self.options.format.extension()))
    }

    /// The number of the part file open for partition `key`, if one is.
    fn open_number(&self, key: PartitionKey) -> Option<u32> {
        self.open
            .iter()
            .find(|o| o.key == key)
            .and_then(|o| o.number)
    }

    /// Opens the file of partition `key` (closing the least recently used one if too many are
    /// open); returns its index in `open`. A part file takes the number of the one `sibling`
    /// (the other table) has open for the partition, so that `part-N` of the moves holds the
    /// moves of `part-N` of the games; else the first number neither table has a file of.
    /// Never overwrites a file (an earlier run's, or one closed to bound the number open).
    fn open_file(
        &mut self,
        key: PartitionKey,
        written: &mut Written,
        sibling: Option<&Output>,
    ) -> Result<usize, TableError> {
        if self.open.len() >= MAX_OPEN
            && let Some((i, _)) = self.open.iter().enumerate().min_by_key(|(_, o)| o.used)
        {
            let lru = self.open.swap_remove(i);
            self.closed.push(lru.key);
            close(lru)?;
        }
        let (path, number) = match self.options.partition {
            Partition::None => (self.root.clone(), None),
            _ => {
                let dir = self.part_dir(key);
                fs::create_dir_all(&dir).map_err(|source| TableError::Io {
                    path: dir.clone(),
                    source,
                })?;
                let free = |n: u32| {
                    !self.part_path(key, n).exists()
                        && sibling.is_none_or(|s| !s.part_path(key, n).exists())
                };
                let n = sibling
                    .and_then(|s| s.open_number(key))
                    .filter(|&n| !self.part_path(key, n).exists())
                    .or_else(|| (0..u32::MAX).find(|&n| free(n)))
                    .unwrap_or(u32::MAX);
                (self.part_path(key, n), Some(n))
            }
        };
        let file = File::create(&path).map_err(|source| TableError::Io {
            path: path.clone(),
            source,
        })?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let writer = match &self.encoder.properties {
            Some(properties) => {
                let (writer, _) = parquet_writer(out, &self.encoder.parquet_schema, properties)
                    .and_then(ArrowWriter::into_serialized_writer)
                    .map_err(|source| TableError::Parquet {
                        path: path.clone(),
                        source,
                    })?;
                FileWriter::Parquet(Box::new(writer))
            }
            None => {
                let mut header = Vec::new();
                crate::csv::header(&self.encoder.schema, &mut header);
                out.write_all(&header).map_err(|source| TableError::Io {
                    path: path.clone(),
                    source,
                })?;
                FileWriter::Csv(out)
            }
        };
        written.files.push(path.clone());
        self.open.push(Open {
            key,
            path,
            file: writer,
            used: self.clock,
            rows: 0,
            number,
        });
        Ok(self.open.len() - 1)
    }

    /// The partitions whose open file holds `limit` rows or more.
    fn full(&self, limit: u64) -> Vec<PartitionKey> {
        self.open
            .iter()
            .filter(|o| o.rows >= limit)
            .map(|o| o.key)
            .collect()
    }

    /// Closes the open file of partition `key`, if any: its next rows go to a new part file.
    fn close_key(&mut self, key: PartitionKey) -> Result<(), TableError> {
        match self.open.iter().position(|o| o.key == key) {
            Some(i) => close(self.open.swap_remove(i)),
            None => Ok(()),
        }
    }

    fn close_all(&mut self) -> Result<(), TableError> {
        for open in self.open.drain(..) {
            close(open)?;
        }
        Ok(())
    }
}

/// `__HIVE_DEFAULT_PARTITION__` (the hive name of a null) for an unknown year or month.
fn part_value(year: Option<i32>) -> String {
    year.map_or_else(
        || "__HIVE_DEFAULT_PARTITION__".to_owned(),
        |y| format!("{y:04}"),
    )
}

fn close(open: Open) -> Result<(), TableError> {
    match open.file {
        FileWriter::Parquet(writer) => {
            writer.close().map_err(|source| TableError::Parquet {
                path: open.path,
                source,
            })?;
        }
        FileWriter::Csv(mut writer) => {
            writer.flush().map_err(|source| TableError::Io {
                path: open.path,
                source,
            })?;
        }
    }
    Ok(())
}

/// `batch` with its `time32[s]` columns in milliseconds: Parquet's TIME has no seconds unit
/// (the lichess files store their `time32[s]` the same way, as TIME(MILLIS)).
fn to_parquet_batch(batch: &RecordBatch, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    if !batch
        .schema()
        .fields()
        .iter()
        .any(|f| f.data_type() == &DataType::Time32(TimeUnit::Second))
    {
        return Ok(batch.clone());
    }
    let columns: Vec<ArrayRef> = batch
        .columns()
        .iter()
        .map(|c| match c.data_type() {
            DataType::Time32(TimeUnit::Second) => {
                let seconds = c.as_primitive::<Time32SecondType>();
                let ms: Time32MillisecondArray = seconds.unary(|s| s.saturating_mul(1000));
                Arc::new(ms) as ArrayRef
            }
            _ => c.clone(),
        })
        .collect();
    RecordBatch::try_new(schema.clone(), columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_of_many_partitions_keeps_few_row_groups_open() {
        let pgn: String = (0..12)
            .map(|i| format!("[Date \"{}.01.01\"]\n\n1. e4 e5 *\n\n", 2000 + i % 6))
            .collect();
        let options = TableOptions {
            partition: Partition::Year,
            ..TableOptions::default()
        };
        let columns = options.columns;
        let table = |name, schema| TableEncoder::new(name, schema, options).unwrap();
        let encoder = Encoder {
            games: table("games", games_schema(columns)),
            moves: Some(table("moves", moves_schema(columns))),
            options,
        };
        let read = TableOptions {
            moves: true,
            ..options
        }
        .read_options();
        let mut rows = crate::Rows::default();
        let reader = tabia_notation::pgn::PgnReader::new(pgn.as_bytes());
        for (i, raw) in reader.raw_games().enumerate() {
            let record = crate::GameRecord::read(&raw.unwrap(), i as u64 + 1, read);
            rows.push("y.pgn", &record);
        }
        let tables = rows.finish(columns, true).unwrap();
        let mut encoding = encoder.start();
        encoding.push(&tables).unwrap();
        assert_eq!(encoding.games.open_groups(), MAX_OPEN_GROUPS);
        assert_eq!(
            encoding.moves.as_ref().unwrap().open_groups(),
            MAX_OPEN_GROUPS
        );
        let encoded = encoding.finish().unwrap();
        // Six years, each one row group of its two games.
        assert_eq!(encoded.games.len(), 6);
        for part in &encoded.games {
            assert_eq!(part.rows, 2);
            assert!(matches!(&part.data, PartData::Parquet(groups) if groups.len() == 1));
        }
    }

    #[test]
    fn moves_next_to_games() {
        assert_eq!(
            moves_path(Path::new("out/games.parquet")),
            Path::new("out/games.moves.parquet")
        );
        assert_eq!(moves_path(Path::new("games")), Path::new("games.moves"));
        assert_eq!(moves_path(Path::new("g.csv")), Path::new("g.moves.csv"));
    }

    #[test]
    fn names() {
        assert_eq!("year,month".parse(), Ok(Partition::YearMonth));
        assert_eq!("csv".parse(), Ok(FileFormat::Csv));
        assert_eq!(
            "month".parse::<Partition>().unwrap_err().to_string(),
            "unknown partitioning `month` (expected year or year,month)"
        );
        assert_eq!(
            "xls".parse::<FileFormat>().unwrap_err().to_string(),
            "unknown format `xls` (expected parquet or csv)"
        );
        for format in [FileFormat::Parquet, FileFormat::Csv] {
            assert_eq!(format.to_string().parse(), Ok(format));
        }
    }
}
