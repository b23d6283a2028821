//! The encoding of batches into Parquet row groups (zstd) or CSV text, on any thread: [`Encoder`], [`Encoded`], [`Encoding`].

use super::*;

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
    pub(super) games: TableEncoder,
    pub(super) moves: Option<TableEncoder>,
    pub(super) options: TableOptions,
}

/// A batch of rows encoded by an [`Encoder`], ready to be appended to the files.
#[derive(Debug)]
pub struct Encoded {
    pub(super) games: Vec<Part>,
    pub(super) moves: Vec<Part>,
    pub(super) games_rows: u64,
    pub(super) moves_rows: u64,
}

/// The rows of one partition, encoded.
#[derive(Debug)]
pub(super) struct Part {
    pub(super) key: PartitionKey,
    /// The games (or moves) it holds.
    pub(super) rows: u64,
    pub(super) data: PartData,
}

#[derive(Debug)]
pub(super) enum PartData {
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
    pub(super) games: PartsInProgress,
    pub(super) moves: Option<PartsInProgress>,
    pub(super) games_rows: u64,
    pub(super) moves_rows: u64,
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
pub(super) const MAX_OPEN_GROUPS: usize = 2;

/// One table's parts being encoded, in the order their partitions first came.
#[derive(Debug)]
pub(super) struct PartsInProgress {
    pub(super) table: TableEncoder,
    /// Each partition's rows so far, and their encoding.
    pub(super) parts: Vec<(PartitionKey, u64, PartInProgress)>,
}

#[derive(Debug)]
pub(super) enum PartInProgress {
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
    pub(super) fn is_open(&self) -> bool {
        matches!(self, PartInProgress::Parquet { open: Some(_), .. })
    }
}

impl PartsInProgress {
    pub(super) fn new(table: TableEncoder) -> PartsInProgress {
        PartsInProgress {
            table,
            parts: Vec::new(),
        }
    }

    /// Adds `batch`, whose rows belong to the games of `partitions` (one row per game, or with
    /// `offsets` the rows `offsets[i]..offsets[i + 1]` for game `i`).
    pub(super) fn push(
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
    pub(super) fn open_groups(&self) -> usize {
        self.parts.iter().filter(|(_, _, p)| p.is_open()).count()
    }

    /// Closes the open row groups of other partitions than the `i`-th past [`MAX_OPEN_GROUPS`]
    /// (those of the partitions that came first in the batch): each open row group holds a
    /// column writer a leaf column, each with its zstd contexts, and a batch of games of many
    /// dates cut into months or years has many partitions.
    pub(super) fn bound_open(&mut self, i: usize) -> Result<(), TableError> {
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
    pub(super) fn finish(self) -> Result<Vec<Part>, TableError> {
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
pub(super) struct TableEncoder {
    pub(super) table: &'static str,
    /// The schema of the batches given.
    pub(super) schema: SchemaRef,
    /// The schema of the Parquet files (`UTCTime` in milliseconds, as Parquet has no seconds).
    pub(super) parquet_schema: SchemaRef,
    pub(super) options: TableOptions,
    /// Makes the column writers of a row group (Parquet only).
    pub(super) factory: Option<Arc<ArrowRowGroupWriterFactory>>,
    /// The properties of the Parquet files.
    pub(super) properties: Option<WriterProperties>,
}

impl TableEncoder {
    pub(super) fn new(
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
    pub(super) fn parquet_properties(&self) -> Result<WriterProperties, TableError> {
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
    pub(super) fn encode_parquet(
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
    pub(super) fn close_group(
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
    pub(super) fn split(
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
    pub(super) fn key(&self, key: PartitionKey) -> PartitionKey {
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
pub(super) const PLAIN_COLUMNS: &[&str] = &["game", "offset", "line", "final_zobrist", "zobrist"];

/// Free text: no dictionary, no min/max statistics.
pub(super) const TEXT_COLUMNS: &[&str] = &["movetext", "comment", "fen"];

/// Moves, whose minimum and maximum say nothing: no statistics (a dictionary, as they repeat).
pub(super) const MOVE_COLUMNS: &[&str] = &["san", "uci"];

/// An Arrow writer for a Parquet file of `schema` (it embeds the Arrow schema in the file).
pub(super) fn parquet_writer<W: Write + Send>(
    out: W,
    schema: &SchemaRef,
    properties: &WriterProperties,
) -> Result<ArrowWriter<W>, ParquetError> {
    ArrowWriter::try_new(out, schema.clone(), Some(properties.clone()))
}
