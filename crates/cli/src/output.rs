//! Output helpers: `-o FILE` (refused when it is one of the inputs), a buffered standard
//! output, NDJSON lines and TSV fields.
//!
//! Every `--json` output is NDJSON: one JSON object per line, one line per game or position,
//! in input order (the fields of each subcommand are in `docs/schema.md`). Every TSV output
//! escapes the four bytes that would break a row: `\` as `\\`, tab as `\t`, line feed as `\n`,
//! carriage return as `\r`.

use std::{
    fs::File,
    io::{self, BufWriter, StdoutLock, Write},
    path::{Path, PathBuf},
};

use anyhow::Context as _;

use serde::Serialize;

use crate::report::Diagnostic;

/// The NDJSON line of a game or position that could not be processed.
#[derive(Debug, Serialize)]
pub(crate) struct ErrorRecord<'a> {
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<u64>,
    error: &'a Diagnostic,
}

impl<'a> ErrorRecord<'a> {
    /// The line of the item `diagnostic` is about.
    pub(crate) fn new(diagnostic: &'a Diagnostic) -> ErrorRecord<'a> {
        ErrorRecord {
            file: &diagnostic.file,
            game: diagnostic.game,
            error: diagnostic,
        }
    }
}

/// An engine evaluation in JSON: `{"cp":35}` or `{"mate":-3}`, with `"depth"` when given.
#[derive(Debug, Serialize)]
pub(crate) struct JsonEval {
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
}

impl From<tabia_notation::pgn::Eval> for JsonEval {
    fn from(eval: tabia_notation::pgn::Eval) -> JsonEval {
        use tabia_notation::pgn::Score;
        let (cp, mate) = match eval.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        JsonEval {
            cp,
            mate,
            depth: eval.depth,
        }
    }
}

/// Standard output, locked once and buffered; write with `?` so that a closed pipe ends the run
/// quietly (see `cli::is_broken_pipe`).
pub(crate) fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// `-o FILE` of a command that writes text to standard output.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct OutputArg {
    /// Write to FILE instead of standard output (`-`: standard output). FILE may not be one of
    /// the inputs, which would be emptied before it is read.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

impl OutputArg {
    /// Standard output, or the file asked for, created (or emptied) and buffered.
    ///
    /// # Errors
    ///
    /// As [`open`].
    pub(crate) fn open(&self, inputs: &[PathBuf]) -> anyhow::Result<Box<dyn Write>> {
        open(self.output.as_deref(), inputs)
    }
}

/// Where a command writes: the file `path` (created, or emptied, and buffered) unless it is
/// `None` or `-`, standard output.
///
/// # Errors
///
/// The file is one of `inputs`, or cannot be created.
pub(crate) fn open(path: Option<&Path>, inputs: &[PathBuf]) -> anyhow::Result<Box<dyn Write>> {
    Ok(match path.filter(|path| path.as_os_str() != "-") {
        Some(path) => Box::new(create(path, inputs)?),
        None => Box::new(stdout()),
    })
}

/// Creates (or empties) `path` for writing, buffered, unless it is one of `inputs`.
///
/// # Errors
///
/// `path` names one of `inputs` (the same file, whatever the name: a link, `./`), or cannot be
/// created.
pub(crate) fn create(path: &Path, inputs: &[PathBuf]) -> anyhow::Result<BufWriter<File>> {
    refuse_input(path, inputs)?;
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    Ok(BufWriter::with_capacity(1 << 16, file))
}

/// An error when `path` is the same file as one of `inputs` (`-`, standard input, is none):
/// creating it would empty an input before it is read.
///
/// # Errors
///
/// As said.
pub(crate) fn refuse_input(path: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    // A file that does not exist yet, or cannot be opened, is no input that could be lost.
    let Ok(out) = same_file::Handle::from_path(path) else {
        return Ok(());
    };
    for input in inputs.iter().filter(|input| input.as_os_str() != "-") {
        if same_file::Handle::from_path(input).is_ok_and(|input| input == out) {
            anyhow::bail!(
                "will not write to {}: it is the input {}, which would be emptied before it is read",
                path.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Appends `value` as one line of JSON.
pub(crate) fn json_line<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let start = out.len();
    if let Err(err) = serde_json::to_writer(&mut *out, value) {
        // Our types always serialise; should one not, say so in the stream rather than panic.
        out.truncate(start);
        let _ = serde_json::to_writer(
            &mut *out,
            &serde_json::json!({ "internal_error": err.to_string() }),
        );
    }
    out.push(b'\n');
}

/// Appends one TSV field, escaped.
pub(crate) fn tsv_field(out: &mut Vec<u8>, field: &str) {
    let bytes = field.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escaped: &[u8] = match b {
            b'\\' => b"\\\\",
            b'\t' => b"\\t",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escaped);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Appends one TSV row: the fields, escaped, separated by tabs, ended by a line feed.
pub(crate) fn tsv_row<S: AsRef<str>>(out: &mut Vec<u8>, fields: &[S]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b'\t');
        }
        tsv_field(out, field.as_ref());
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_are_one_object_per_line() {
        #[derive(Serialize)]
        struct Game<'a> {
            game: u64,
            white: &'a str,
        }
        let mut out = Vec::new();
        json_line(
            &mut out,
            &Game {
                game: 1,
                white: "Fischer, \"Bobby\"\n",
            },
        );
        json_line(
            &mut out,
            &Game {
                game: 2,
                white: "J\u{f6}rg",
            },
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"game\":1,\"white\":\"Fischer, \\\"Bobby\\\"\\n\"}\n{\"game\":2,\"white\":\"J\u{f6}rg\"}\n"
        );
    }

    #[test]
    fn json_line_never_panics_on_unserialisable_values() {
        use std::collections::BTreeMap;
        // Maps with non-string keys cannot be JSON.
        let map: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        let mut out = b"x".to_vec();
        json_line(&mut out, &map);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("x{\"internal_error\":"), "{text}");
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn tsv_escapes_what_would_break_a_row() {
        let mut out = Vec::new();
        tsv_row(
            &mut out,
            &["1", "B90", "Sicilian\tDefense\\Najdorf\r\n", ""],
        );
        assert_eq!(out, b"1\tB90\tSicilian\\tDefense\\\\Najdorf\\r\\n\t\n");
    }
}
