//! Opening inputs: files or standard input (`-`).

use std::{
    fs::File,
    io::{self, BufReader, Read},
    path::{Path, PathBuf},
};

use anyhow::Context;

/// One input of a run: a file, or standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// Standard input (no file, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Source {
    /// The sources named on the command line: none or `-` is standard input.
    #[allow(dead_code)]
    pub(crate) fn from_args(files: &[PathBuf]) -> Vec<Source> {
        if files.is_empty() {
            return vec![Source::Stdin];
        }
        files
            .iter()
            .map(|f| {
                if f.as_os_str() == "-" {
                    Source::Stdin
                } else {
                    Source::File(f.clone())
                }
            })
            .collect()
    }

    /// The name used in diagnostics (`<stdin>` for standard input).
    #[allow(dead_code)]
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(path) => path.display().to_string(),
        }
    }

    /// Opens the source for reading.
    #[allow(dead_code)]
    pub(crate) fn open(&self) -> anyhow::Result<Box<dyn Read + Send>> {
        match self {
            Source::Stdin => Ok(Box::new(io::stdin())),
            Source::File(path) => open_file(path),
        }
    }
}

fn open_file(path: &Path) -> anyhow::Result<Box<dyn Read + Send>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}
