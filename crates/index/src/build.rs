//! Building, adding to and merging indexes from files, on all cores ([`Index::build`],
//! [`Index::add`], [`Index::merge`]).

use std::path::{Path, PathBuf};

use tabia_notation::{Located, pgn::RawGame};
use tabia_stream::{Bytes, OnRawGames, Pipeline, Source, fold};

use crate::{Index, IndexError, IndexOptions, IndexWriter, PrepareError, Pushed, prepare};

/// What a build, an add or a merge did: every game read is indexed, a duplicate or bad
/// (`read == indexed + duplicates + bad`), and each bad game and unreadable input is said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub read: u64,
    /// Games indexed.
    pub indexed: u64,
    /// Games already in the index (or earlier in the input).
    pub duplicates: u64,
    /// Games that could not be read (their errors are in `errors`).
    pub bad: u64,
    /// `INPUT:LINE:COL: game N: message` for each bad game, `INPUT: message` for an input
    /// that could not be opened or read to its end.
    pub errors: Vec<String>,
}

impl IndexWriter {
    /// Adds every game of `files` (PGN, compressed or not, zip archives, folders; `-` is
    /// standard input), read on `jobs` workers (0: one per core), committing every
    /// [`IndexOptions::batch_games`] games, and [`finish`](IndexWriter::finish)es.
    ///
    /// # Errors
    ///
    /// An error of the storage; the games committed before it stay in the index.
    pub fn add_files(&mut self, files: &[PathBuf], jobs: usize) -> Result<Summary, IndexError> {
        let mut summary = Summary::default();
        let pipeline = if jobs == 0 {
            Pipeline::new()
        } else {
            Pipeline::new().with_jobs(jobs)
        };
        let max_ply = self.options().max_ply;
        for source in Source::from_args(&tabia_stream::expand_folders(files)) {
            let name = source.name();
            let input = match source.open() {
                Ok(input) => input,
                Err(err) => {
                    summary.errors.push(format!("{name}: {err}"));
                    continue;
                }
            };
            type Made = Vec<(u64, Result<Option<crate::Prepared>, PrepareError>)>;
            let work = OnRawGames(fold(|made: &mut Made, number, raw: &RawGame| {
                made.push((number, prepare(raw, max_ply)));
            }));
            let outcome = pipeline.run_games(input, Bytes::default, &work, |made: Made, _| {
                for (number, game) in made {
                    match game {
                        Ok(None) => {}
                        Ok(Some(game)) => {
                            summary.read += 1;
                            match self.push(game)? {
                                Pushed::Indexed(_) => summary.indexed += 1,
                                Pushed::Duplicate(_) => summary.duplicates += 1,
                            }
                            if self.is_full() {
                                self.commit()?;
                            }
                        }
                        Err(err) => {
                            summary.read += 1;
                            summary.bad += 1;
                            summary.errors.push(located(&name, number, &err));
                        }
                    }
                }
                Ok::<(), IndexError>(())
            })?;
            if let Some(err) = outcome.input_error {
                summary.errors.push(format!("{name}: {err}"));
            }
        }
        self.finish()?;
        Ok(summary)
    }
}

/// `INPUT:LINE:COL: game N: message`.
pub(crate) fn located(name: &str, number: u64, err: &impl Located) -> String {
    match err.origin() {
        Some(at) => format!(
            "{name}:{}:{}: game {number}: {}",
            at.line,
            at.column,
            err.message()
        ),
        None => format!("{name}: game {number}: {}", err.message()),
    }
}

impl Index {
    /// Builds an index of `files` in `dir` (see [`IndexWriter::add_files`]).
    ///
    /// # Errors
    ///
    /// [`IndexError::Exists`] when `dir` holds an index; an error of the storage.
    pub fn build(
        dir: &Path,
        files: &[PathBuf],
        options: IndexOptions,
        jobs: usize,
    ) -> Result<Summary, IndexError> {
        IndexWriter::create(dir, options)?.add_files(files, jobs)
    }

    /// Adds the games of `files` to the index in `dir`; games it holds already are counted as
    /// duplicates.
    ///
    /// # Errors
    ///
    /// [`IndexError::Missing`], [`IndexError::Busy`]; an error of the storage.
    pub fn add(dir: &Path, files: &[PathBuf], jobs: usize) -> Result<Summary, IndexError> {
        IndexWriter::open(dir, IndexOptions::default().batch_games)?.add_files(files, jobs)
    }

    /// Joins indexes built apart into a new one in `out`: every game of each, in order, a
    /// game in two of them once. They must index the same plies.
    ///
    /// # Errors
    ///
    /// [`IndexError::Options`] for indexes of different plies; [`IndexError::Exists`]; an
    /// error of the storage.
    pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Summary, IndexError> {
        let indexes = inputs
            .iter()
            .map(|dir| Index::open(dir))
            .collect::<Result<Vec<_>, _>>()?;
        let max_ply = indexes.first().and_then(Index::max_ply);
        if let Some(other) = indexes.iter().find(|i| i.max_ply() != max_ply) {
            let plies = |p: Option<u32>| p.map_or("all".to_owned(), |n| n.to_string());
            return Err(IndexError::Options(format!(
                "{} indexes {} plies, {} indexes {}",
                inputs[0].display(),
                plies(max_ply),
                other.path_name(),
                plies(other.max_ply())
            )));
        }
        let options = IndexOptions {
            max_ply,
            ..IndexOptions::default()
        };
        let mut writer = IndexWriter::create(out, options)?;
        let mut summary = Summary::default();
        for index in &indexes {
            for id in index.ids()? {
                let Some(text) = index.pgn(id)? else {
                    continue;
                };
                summary.read += 1;
                let raw = RawGame {
                    bytes: text.into_bytes(),
                    start: Default::default(),
                };
                match prepare(&raw, max_ply) {
                    Ok(Some(game)) => match writer.push(game)? {
                        Pushed::Indexed(_) => summary.indexed += 1,
                        Pushed::Duplicate(_) => summary.duplicates += 1,
                    },
                    Ok(None) => summary.bad += 1,
                    Err(err) => {
                        summary.bad += 1;
                        summary
                            .errors
                            .push(located(&index.path_name(), u64::from(id), &err));
                    }
                }
                if writer.is_full() {
                    writer.commit()?;
                }
            }
        }
        writer.finish()?;
        Ok(summary)
    }

    fn path_name(&self) -> String {
        self.info()
            .map(|i| i.path.display().to_string())
            .unwrap_or_default()
    }
}
