//! The cache of analyses ([`Cache`]): one redb file, each position's analysis under the
//! settings it was made with, so that a second run, a run with more games or a run resumed
//! after a crash analyses only what is new.

use std::{fmt, path::Path, path::PathBuf};

use redb::{
    Builder, ConcurrencyMode, Database, DatabaseError, ReadableDatabase, ReadableTable,
    ReadableTableMetadata, TableDefinition,
};

use crate::Analysis;

/// The cache's format version, in its `meta` table: a cache of another version is refused
/// with [`CacheError::Format`].
pub const CACHE_FORMAT: u32 = 1;

/// `format` (the version) and the settings' ids.
const META: TableDefinition<'_, &str, u64> = TableDefinition::new("meta");
/// Settings' fingerprints to their ids (4 bytes at the head of every key).
const SETTINGS: TableDefinition<'_, &str, u32> = TableDefinition::new("settings");
/// The analyses: settings id (big-endian) then the position's EPD, to the analysis as JSON.
const ANALYSES: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new("analyses");

/// Why the cache could not be opened, read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum CacheError {
    /// Another process has the cache open (a second `tabia analyse` on the same cache).
    Busy(PathBuf),
    /// The file is a cache of another format version.
    Format {
        /// The cache file.
        path: PathBuf,
        /// Its version.
        found: u64,
    },
    /// The file is not a cache, or the storage engine failed.
    Storage(PathBuf, String),
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Busy(path) => write!(
                f,
                "{}: the cache is in use by another process (one run at a time per cache; \
                 give another with --cache)",
                path.display()
            ),
            CacheError::Format { path, found } => write!(
                f,
                "{}: a cache of format {found}, this tabia reads format {CACHE_FORMAT}: \
                 remove it or give another with --cache",
                path.display()
            ),
            CacheError::Storage(path, cause) => write!(f, "{}: {cause}", path.display()),
        }
    }
}

impl std::error::Error for CacheError {}

/// A persistent cache of analyses: position (its EPD) and settings (their
/// [`fingerprint`](crate::Settings::fingerprint)) to [`Analysis`]. Each [`Cache::put`] is one
/// atomic commit, so a killed process leaves the cache as it was after its last commit.
///
/// ```
/// use tabia_analyse::{Analysis, Cache, EngineScore, Line};
///
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("cache.redb");
/// let analysis = Analysis {
///     depth: 12,
///     seldepth: None,
///     nodes: 9000,
///     lines: vec![Line { score: EngineScore::Cp(31), pv: vec!["e2e4".into()] }],
///     best: Some("e2e4".into()),
/// };
/// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
/// {
///     let cache = Cache::open(&file, "Stockfish | go depth 12")?;
///     cache.put(&[(start.to_owned(), analysis.clone())])?;
/// }
/// let cache = Cache::open(&file, "Stockfish | go depth 12")?;
/// assert_eq!(cache.get(start)?, Some(analysis));
/// // Other settings, other analyses.
/// drop(cache);
/// assert_eq!(Cache::open(&file, "Stockfish | go depth 20")?.get(start)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Cache {
    db: Database,
    path: PathBuf,
    /// The settings' id: the first 4 bytes of every key of this run.
    prefix: [u8; 4],
}

impl fmt::Debug for Cache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Cache {
    /// Opens the cache at `path` (made if missing) for analyses made with the settings whose
    /// fingerprint is `settings`.
    ///
    /// # Errors
    ///
    /// [`CacheError::Busy`] when another process has it open, [`CacheError::Format`] for a
    /// cache of another version, [`CacheError::Storage`] when it is not a cache.
    pub fn open(path: &Path, settings: &str) -> Result<Cache, CacheError> {
        let storage =
            |err: &dyn fmt::Display| CacheError::Storage(path.to_owned(), err.to_string());
        let mut builder = Builder::new();
        builder.set_concurrency_mode(ConcurrencyMode::SingleWriter);
        let db = builder.create(path).map_err(|err| match err {
            DatabaseError::DatabaseAlreadyOpen => CacheError::Busy(path.to_owned()),
            other => storage(&other),
        })?;
        let txn = db.begin_write().map_err(|e| storage(&e))?;
        let id = {
            let mut meta = txn.open_table(META).map_err(|e| storage(&e))?;
            let format = meta
                .get("format")
                .map_err(|e| storage(&e))?
                .map(|v| v.value());
            match format {
                Some(found) if found != u64::from(CACHE_FORMAT) => {
                    return Err(CacheError::Format {
                        path: path.to_owned(),
                        found,
                    });
                }
                Some(_) => {}
                None => {
                    meta.insert("format", u64::from(CACHE_FORMAT))
                        .map_err(|e| storage(&e))?;
                }
            }
            let mut ids = txn.open_table(SETTINGS).map_err(|e| storage(&e))?;
            let known = ids
                .get(settings)
                .map_err(|e| storage(&e))?
                .map(|v| v.value());
            match known {
                Some(id) => id,
                None => {
                    let id = u32::try_from(ids.len().map_err(|e| storage(&e))?)
                        .map_err(|e| storage(&e))?;
                    ids.insert(settings, id).map_err(|e| storage(&e))?;
                    id
                }
            }
        };
        txn.open_table(ANALYSES).map_err(|e| storage(&e))?;
        txn.commit().map_err(|e| storage(&e))?;
        Ok(Cache {
            db,
            path: path.to_owned(),
            prefix: id.to_be_bytes(),
        })
    }

    /// The cache's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn key(&self, epd: &str) -> Vec<u8> {
        let mut key = Vec::with_capacity(4 + epd.len());
        key.extend_from_slice(&self.prefix);
        key.extend_from_slice(epd.as_bytes());
        key
    }

    fn storage(&self, err: &dyn fmt::Display) -> CacheError {
        CacheError::Storage(self.path.clone(), err.to_string())
    }

    /// The analysis of the position `epd` under this run's settings, if the cache has it (an
    /// entry that no longer reads as an analysis counts as missing).
    ///
    /// # Errors
    ///
    /// [`CacheError::Storage`] when the storage engine fails.
    pub fn get(&self, epd: &str) -> Result<Option<Analysis>, CacheError> {
        let txn = self.db.begin_read().map_err(|e| self.storage(&e))?;
        let table = txn.open_table(ANALYSES).map_err(|e| self.storage(&e))?;
        let value = table
            .get(self.key(epd).as_slice())
            .map_err(|e| self.storage(&e))?;
        Ok(value.and_then(|v| serde_json::from_slice(v.value()).ok()))
    }

    /// Stores analyses (position's EPD, analysis) in one commit.
    ///
    /// # Errors
    ///
    /// [`CacheError::Storage`] when the storage engine fails; nothing of this call is then
    /// stored.
    pub fn put(&self, analyses: &[(String, Analysis)]) -> Result<(), CacheError> {
        if analyses.is_empty() {
            return Ok(());
        }
        let txn = self.db.begin_write().map_err(|e| self.storage(&e))?;
        {
            let mut table = txn.open_table(ANALYSES).map_err(|e| self.storage(&e))?;
            for (epd, analysis) in analyses {
                let value = serde_json::to_vec(analysis).map_err(|e| self.storage(&e))?;
                table
                    .insert(self.key(epd).as_slice(), value.as_slice())
                    .map_err(|e| self.storage(&e))?;
            }
        }
        txn.commit().map_err(|e| self.storage(&e))
    }

    /// How many analyses the cache holds, under any settings.
    ///
    /// # Errors
    ///
    /// [`CacheError::Storage`] when the storage engine fails.
    pub fn len(&self) -> Result<u64, CacheError> {
        let txn = self.db.begin_read().map_err(|e| self.storage(&e))?;
        let table = txn.open_table(ANALYSES).map_err(|e| self.storage(&e))?;
        table.len().map_err(|e| self.storage(&e))
    }

    /// Whether the cache holds no analysis.
    ///
    /// # Errors
    ///
    /// [`CacheError::Storage`] when the storage engine fails.
    pub fn is_empty(&self) -> Result<bool, CacheError> {
        Ok(self.len()? == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineScore, Line};

    fn analysis(cp: i32) -> Analysis {
        Analysis {
            depth: 8,
            seldepth: Some(9),
            nodes: 1234,
            lines: vec![Line {
                score: EngineScore::Cp(cp),
                pv: vec!["e2e4".into(), "e7e5".into()],
            }],
            best: Some("e2e4".into()),
        }
    }

    #[test]
    fn analyses_persist_per_settings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("c.redb");
        let epds: Vec<String> = (0..50)
            .map(|i| format!("8/8/8/8/8/8/8/K{i} w - -"))
            .collect();
        {
            let cache = Cache::open(&file, "a").expect("open");
            let items: Vec<_> = epds
                .iter()
                .zip(0..)
                .map(|(e, i)| (e.clone(), analysis(i)))
                .collect();
            cache.put(&items).expect("put");
            assert_eq!(cache.len().expect("len"), 50);
        }
        {
            let cache = Cache::open(&file, "b").expect("open");
            assert_eq!(cache.get(&epds[3]).expect("get"), None);
            cache.put(&[(epds[3].clone(), analysis(-7))]).expect("put");
        }
        let cache = Cache::open(&file, "a").expect("open");
        for (i, epd) in epds.iter().enumerate() {
            assert_eq!(cache.get(epd).expect("get"), Some(analysis(i as i32)));
        }
        assert_eq!(cache.len().expect("len"), 51);
    }

    #[test]
    fn a_second_opener_and_another_format_are_refused_with_messages() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("c.redb");
        let cache = Cache::open(&file, "a").expect("open");
        let err = Cache::open(&file, "a").expect_err("busy");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: the cache is in use by another process (one run at a time per cache; give \
                 another with --cache)",
                file.display()
            )
        );
        drop(cache);
        {
            let db = Database::create(&file).expect("db");
            let txn = db.begin_write().expect("txn");
            txn.open_table(META)
                .expect("meta")
                .insert("format", 99)
                .expect("insert");
            txn.commit().expect("commit");
        }
        let err = Cache::open(&file, "a").expect_err("format");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: a cache of format 99, this tabia reads format 1: remove it or give another \
                 with --cache",
                file.display()
            )
        );
        let text = dir.path().join("not-a-cache");
        std::fs::write(&text, "[Event \"?\"]\n").expect("write");
        assert!(matches!(
            Cache::open(&text, "a"),
            Err(CacheError::Storage(..))
        ));
    }
}
