//! Writing the tables: Parquet (zstd) or CSV, one file or a hive-partitioned folder.

use std::{
    fmt,
    fs::{self, File},
    io::{self, BufWriter},
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
    arrow::ArrowWriter,
    basic::{Compression, ZstdLevel},
    errors::ParquetError,
    file::{metadata::KeyValue, properties::WriterProperties},
};

use crate::{
    ReadOptions,
    csv::CsvWriter,
    rows::{PartitionKey, Tables},
    schema::{Columns, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TABLE_KEY, games_schema, moves_schema},
};

/// The file format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Format {
    /// Apache Parquet, zstd-compressed.
    #[default]
    Parquet,
    /// CSV, RFC 4180, with a header row.
    Csv,
}

impl Format {
    /// The file extension: `parquet` or `csv`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Csv => "csv",
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "parquet" => Ok(Format::Parquet),
            "csv" => Ok(Format::Csv),
            _ => Err(format!("unknown format `{s}` (expected parquet or csv)")),
        }
    }
}

impl fmt::Display for Format {
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
    type Err = String;

    /// `year`, `year,month` (or `none`).
    fn from_str(s: &str) -> Result<Partition, String> {
        match s {
            "none" => Ok(Partition::None),
            "year" => Ok(Partition::Year),
            "year,month" => Ok(Partition::YearMonth),
            _ => Err(format!(
                "unknown partitioning `{s}` (expected year or year,month)"
            )),
        }
    }
}

/// What to write and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Parquet or CSV.
    pub format: Format,
    /// One file, or a folder per year (and month).
    pub partition: Partition,
    /// Also write the moves table, next to the games (`X.moves.parquet`, or the folder
    /// `X.moves`).
    pub moves: bool,
    /// Optional columns: nested moves, FEN.
    pub columns: Columns,
    /// A Parquet row group is written out once its encoded size reaches this many bytes (or
    /// [`TableOptions::row_group_rows`] rows): what bounds memory.
    pub row_group_bytes: usize,
    /// The most rows in a Parquet row group.
    pub row_group_rows: usize,
    /// The zstd level (1 to 22).
    pub zstd_level: i32,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            format: Format::Parquet,
            partition: Partition::None,
            moves: false,
            columns: Columns::default(),
            row_group_bytes: 64 << 20,
            row_group_rows: 1 << 20,
            zstd_level: 3,
        }
    }
}

impl TableOptions {
    /// What [`GameRecord::read`](crate::GameRecord::read) must read for these tables.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            moves: self.moves || self.columns.nested,
            fen: self.columns.fen,
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

/// Writes the games table (and the moves table) batch after batch.
pub struct TableWriter {
    games: Output,
    moves: Option<Output>,
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
        if options.format == Format::Csv && options.columns.nested {
            return Err(TableError::Usage(
                "nested moves are a Parquet feature: CSV has no list columns (write --moves instead)"
                    .into(),
            ));
        }
        let moves = (options.moves && !options.columns.nested).then(|| {
            Output::new(
                moves_path(out),
                "moves",
                moves_schema(options.columns),
                options,
            )
        });
        let games = Output::new(
            out.to_path_buf(),
            "games",
            games_schema(options.columns),
            options,
        );
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
            written: Written::default(),
        })
    }

    /// Writes the rows of `tables`.
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn write(&mut self, tables: Tables) -> Result<(), TableError> {
        self.written.games += tables.games.num_rows() as u64;
        let moves = tables.move_offsets.last().copied().unwrap_or(0);
        self.written.moves += u64::try_from(moves).unwrap_or(0);
        self.games
            .write(&tables.games, &tables.partitions, None, &mut self.written)?;
        if let (Some(output), Some(batch)) = (&mut self.moves, &tables.moves) {
            output.write(
                batch,
                &tables.partitions,
                Some(&tables.move_offsets),
                &mut self.written,
            )?;
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
                output.open_file(PartitionKey::default(), &mut self.written)?;
            }
            output.close_all()?;
        }
        Ok(self.written)
    }
}

/// The moves table's path: `games.parquet` → `games.moves.parquet`, `games` → `games.moves`.
fn moves_path(out: &Path) -> PathBuf {
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
    table: &'static str,
    /// The schema of the batches given.
    schema: SchemaRef,
    /// The schema of the Parquet files (`UTCTime` in milliseconds, as Parquet has no seconds).
    parquet_schema: SchemaRef,
    options: TableOptions,
    open: Vec<Open>,
    clock: u64,
}

struct Open {
    key: PartitionKey,
    path: PathBuf,
    file: FileWriter,
    used: u64,
}

enum FileWriter {
    Parquet(Box<ArrowWriter<BufWriter<File>>>),
    Csv(CsvWriter<BufWriter<File>>),
}

impl Output {
    fn new(root: PathBuf, table: &'static str, schema: SchemaRef, options: TableOptions) -> Output {
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
        Output {
            root,
            table,
            schema,
            parquet_schema,
            options,
            open: Vec::new(),
            clock: 0,
        }
    }

    /// Writes `batch`, whose rows belong to the games of `partitions` (one row per game, or
    /// with `offsets` the rows `offsets[i]..offsets[i + 1]` for game `i`).
    fn write(
        &mut self,
        batch: &RecordBatch,
        partitions: &[PartitionKey],
        offsets: Option<&[i32]>,
        written: &mut Written,
    ) -> Result<(), TableError> {
        if self.options.partition == Partition::None {
            return self.write_to(PartitionKey::default(), batch, written);
        }
        let keys: Vec<PartitionKey> = partitions.iter().map(|k| self.key(*k)).collect();
        let mut distinct: Vec<PartitionKey> = Vec::new();
        for key in &keys {
            if !distinct.contains(key) {
                distinct.push(*key);
            }
        }
        if distinct.len() == 1 {
            return self.write_to(distinct[0], batch, written);
        }
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
            let part = filter_record_batch(batch, &mask)?;
            self.write_to(key, &part, written)?;
        }
        Ok(())
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

    fn write_to(
        &mut self,
        key: PartitionKey,
        batch: &RecordBatch,
        written: &mut Written,
    ) -> Result<(), TableError> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        self.clock += 1;
        let index = match self.open.iter().position(|o| o.key == key) {
            Some(i) => i,
            None => self.open_file(key, written)?,
        };
        let open = &mut self.open[index];
        open.used = self.clock;
        match &mut open.file {
            FileWriter::Parquet(writer) => {
                let batch = to_parquet_batch(batch, &self.parquet_schema)?;
                writer.write(&batch).map_err(|source| TableError::Parquet {
                    path: open.path.clone(),
                    source,
                })?;
            }
            FileWriter::Csv(writer) => writer.write(batch).map_err(|source| TableError::Io {
                path: open.path.clone(),
                source,
            })?,
        }
        Ok(())
    }

    /// Opens the file of partition `key` (closing the least recently used one if too many are
    /// open); returns its index in `open`.
    fn open_file(&mut self, key: PartitionKey, written: &mut Written) -> Result<usize, TableError> {
        if self.open.len() >= MAX_OPEN
            && let Some((i, _)) = self.open.iter().enumerate().min_by_key(|(_, o)| o.used)
        {
            let lru = self.open.swap_remove(i);
            close(lru)?;
        }
        let path = match self.options.partition {
            Partition::None => self.root.clone(),
            _ => {
                let mut dir = self.root.join(format!("year={}", part_value(key.year)));
                if self.options.partition == Partition::YearMonth {
                    dir = dir.join(format!(
                        "month={}",
                        key.month
                            .map_or_else(|| part_value(None), |m| format!("{m:02}"))
                    ));
                }
                fs::create_dir_all(&dir).map_err(|source| TableError::Io {
                    path: dir.clone(),
                    source,
                })?;
                // Never overwrite: the first part number not taken (an earlier run, or a
                // file closed to bound the number open).
                (0..)
                    .map(|n| dir.join(format!("part-{n}.{}", self.options.format.extension())))
                    .find(|p| !p.exists())
                    .unwrap_or_else(|| dir.join("part.parquet"))
            }
        };
        let file = File::create(&path).map_err(|source| TableError::Io {
            path: path.clone(),
            source,
        })?;
        let out = BufWriter::with_capacity(1 << 20, file);
        let writer = match self.options.format {
            Format::Parquet => {
                let props = self.properties()?;
                FileWriter::Parquet(Box::new(
                    ArrowWriter::try_new(out, self.parquet_schema.clone(), Some(props)).map_err(
                        |source| TableError::Parquet {
                            path: path.clone(),
                            source,
                        },
                    )?,
                ))
            }
            Format::Csv => {
                FileWriter::Csv(CsvWriter::new(out, &self.schema).map_err(|source| {
                    TableError::Io {
                        path: path.clone(),
                        source,
                    }
                })?)
            }
        };
        written.files.push(path.clone());
        self.open.push(Open {
            key,
            path,
            file: writer,
            used: self.clock,
        });
        Ok(self.open.len() - 1)
    }

    fn properties(&self) -> Result<WriterProperties, TableError> {
        let level = ZstdLevel::try_new(self.options.zstd_level).map_err(|err| {
            TableError::Usage(format!("bad zstd level {}: {err}", self.options.zstd_level))
        })?;
        Ok(WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_max_row_group_bytes(Some(self.options.row_group_bytes.max(1)))
            .set_max_row_group_row_count(Some(self.options.row_group_rows.max(1)))
            .set_created_by(format!("tabia {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![
                KeyValue::new(SCHEMA_VERSION_KEY.to_owned(), SCHEMA_VERSION.to_owned()),
                KeyValue::new(TABLE_KEY.to_owned(), self.table.to_owned()),
            ]))
            .build())
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
        FileWriter::Csv(writer) => {
            writer.finish().map_err(|source| TableError::Io {
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
        assert_eq!("csv".parse(), Ok(Format::Csv));
        assert_eq!(
            "month".parse::<Partition>().unwrap_err(),
            "unknown partitioning `month` (expected year or year,month)"
        );
    }
}
