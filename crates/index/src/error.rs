//! [`IndexError`]: what can go wrong with an index as a whole (not with one game: that is a
//! [`PrepareError`](crate::PrepareError)).

use std::{fmt, path::PathBuf};

/// An index that cannot be created, opened, read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum IndexError {
    /// `build` or `merge` into a folder that holds an index already.
    Exists(PathBuf),
    /// The folder holds no index.
    Missing(PathBuf),
    /// Another process is writing the index (`index add` or `build`).
    Busy(PathBuf),
    /// The index was written by another format of tabia.
    Version {
        /// The index's folder.
        path: PathBuf,
        /// Its format.
        found: u32,
        /// The format this tabia reads.
        expected: u32,
    },
    /// Indexes built with different options cannot be merged.
    Options(String),
    /// A value the index holds cannot be read: the file is damaged.
    Corrupt(String),
    /// An error of the file system.
    Io(PathBuf, std::io::Error),
    /// An error of the storage engine.
    Storage(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Exists(path) => write!(
                f,
                "{} holds an index already: use `tabia index add` to add games to it, or remove it",
                path.display()
            ),
            IndexError::Missing(path) => write!(
                f,
                "{} is not a tabia index (no {}): build one with `tabia index build FILES -o {}`",
                path.display(),
                crate::store::FILE,
                path.display()
            ),
            IndexError::Busy(path) => write!(
                f,
                "{} is being written by another process (tabia index add or build): wait for it to finish",
                path.display()
            ),
            IndexError::Version {
                path,
                found,
                expected,
            } => write!(
                f,
                "{} is an index of format {found}, this tabia reads format {expected}: build it again with this tabia",
                path.display()
            ),
            IndexError::Options(why) => write!(f, "cannot merge: {why}"),
            IndexError::Corrupt(what) => write!(f, "the index is damaged: {what}"),
            IndexError::Io(path, err) => write!(f, "{}: {err}", path.display()),
            IndexError::Storage(err) => write!(f, "storage: {err}"),
        }
    }
}

impl std::error::Error for IndexError {}

macro_rules! from_redb {
    ($($t:ty),*) => {$(
        impl From<$t> for IndexError {
            fn from(err: $t) -> IndexError {
                IndexError::Storage(err.to_string())
            }
        }
    )*};
}

from_redb!(
    redb::Error,
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::CompactionError,
    redb::SetDurabilityError
);
