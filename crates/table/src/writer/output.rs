//! The files of one table: one file, or a hive-partitioned folder with a bounded number open.

use super::*;

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
pub(super) struct Output {
    pub(super) root: PathBuf,
    pub(super) encoder: TableEncoder,
    pub(super) options: TableOptions,
    pub(super) open: Vec<Open>,
    pub(super) clock: u64,
    /// The partitions whose file was closed to bound the files open, since the last look.
    pub(super) closed: Vec<PartitionKey>,
}

pub(super) struct Open {
    pub(super) key: PartitionKey,
    pub(super) path: PathBuf,
    pub(super) file: FileWriter,
    pub(super) used: u64,
    /// The rows written to the file.
    pub(super) rows: u64,
    /// Its part number (partitioned tables).
    pub(super) number: Option<u32>,
}

pub(super) enum FileWriter {
    Parquet(Box<SerializedFileWriter<BufWriter<File>>>),
    Csv(BufWriter<File>),
}

impl Output {
    pub(super) fn new(root: PathBuf, encoder: TableEncoder, options: TableOptions) -> Output {
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
    pub(super) fn write(
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
    pub(super) fn part_dir(&self, key: PartitionKey) -> PathBuf {
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
    pub(super) fn part_path(&self, key: PartitionKey, n: u32) -> PathBuf {
        self.part_dir(key)
            .join(format!("part-{n}.{}", self.options.format.extension()))
    }

    /// The number of the part file open for partition `key`, if one is.
    pub(super) fn open_number(&self, key: PartitionKey) -> Option<u32> {
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
    pub(super) fn open_file(
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
    pub(super) fn full(&self, limit: u64) -> Vec<PartitionKey> {
        self.open
            .iter()
            .filter(|o| o.rows >= limit)
            .map(|o| o.key)
            .collect()
    }

    /// Closes the open file of partition `key`, if any: its next rows go to a new part file.
    pub(super) fn close_key(&mut self, key: PartitionKey) -> Result<(), TableError> {
        match self.open.iter().position(|o| o.key == key) {
            Some(i) => close(self.open.swap_remove(i)),
            None => Ok(()),
        }
    }

    pub(super) fn close_all(&mut self) -> Result<(), TableError> {
        for open in self.open.drain(..) {
            close(open)?;
        }
        Ok(())
    }
}

/// `__HIVE_DEFAULT_PARTITION__` (the hive name of a null) for an unknown year or month.
pub(super) fn part_value(year: Option<i32>) -> String {
    year.map_or_else(
        || "__HIVE_DEFAULT_PARTITION__".to_owned(),
        |y| format!("{y:04}"),
    )
}

pub(super) fn close(open: Open) -> Result<(), TableError> {
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
pub(super) fn to_parquet_batch(
    batch: &RecordBatch,
    schema: &SchemaRef,
) -> Result<RecordBatch, ArrowError> {
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
