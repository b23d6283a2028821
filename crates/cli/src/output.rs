//! Output helpers: the one rule for what a command writes (files and folders), a buffered
//! standard output, NDJSON lines and TSV fields.
//!
//! The rule, for every command that writes a file or a folder (`-o`, `split`, `table`, `book`,
//! `tree --html`, `show -o`): an output that exists already and is not empty is refused unless
//! `--force` (replace it) or, where adding to it makes sense, `--append`; missing parent
//! folders are created; an output is never one of the inputs; and all of this is settled
//! before the first byte of input is read ([`claim_file`], [`claim_folder`]), so that a run of
//! an hour does not end by finding that it cannot write.
//!
//! Every `--json` output is NDJSON: one JSON object per line, one line per game or position,
//! in input order (the fields of each subcommand are in `docs/schema.md`). Every TSV output
//! escapes the four bytes that would break a row: `\` as `\\`, tab as `\t`, line feed as `\n`,
//! carriage return as `\r`.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, BufWriter, StdoutLock, Write},
    path::{Path, PathBuf},
};

use anyhow::Context as _;
use serde::Serialize;
pub(crate) use tabia_collect::Existing;

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

/// `--force`, for a command whose output can only be replaced (a Parquet table, a book, a
/// picture).
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub(crate) struct ForceArg {
    /// Replace the output when it exists already (it is refused otherwise, before any input
    /// is read).
    #[arg(long)]
    pub(crate) force: bool,
}

impl ForceArg {
    /// The rule these arguments ask for.
    pub(crate) fn policy(self) -> Policy {
        Policy {
            existing: if self.force {
                Existing::Overwrite
            } else {
                Existing::Refuse
            },
            can_append: false,
        }
    }
}

/// `--force` and `--append`, for a command whose output can be added to.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub(crate) struct ExistingArgs {
    /// Replace the output when it exists already (it is refused otherwise, before any input
    /// is read).
    #[arg(long)]
    pub(crate) force: bool,
    /// Add to the output when it exists already.
    #[arg(long, conflicts_with = "force")]
    pub(crate) append: bool,
}

impl ExistingArgs {
    /// The rule these arguments ask for.
    pub(crate) fn policy(self) -> Policy {
        Policy {
            existing: if self.append {
                Existing::Append
            } else if self.force {
                Existing::Overwrite
            } else {
                Existing::Refuse
            },
            can_append: true,
        }
    }
}

/// What a command does with an output that exists already, and whether it could add to it
/// (for the message that refuses it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Refuse, replace or add to.
    pub(crate) existing: Existing,
    /// `--append` is an option of the command.
    pub(crate) can_append: bool,
}

impl Policy {
    /// The error for `path`, which exists already and is not empty.
    fn refuse(self, path: &Path) -> anyhow::Error {
        let append = if self.can_append {
            ", --append adds to it"
        } else {
            ""
        };
        anyhow::anyhow!(
            "{} exists already: --force replaces it{append}",
            path.display()
        )
    }
}

/// `-o FILE` of a command that writes text to standard output, with `--force` and `--append`.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct OutputArg {
    /// Write to FILE instead of standard output (`-`: standard output). FILE may not be one of
    /// the inputs, which would be emptied before it is read, and is refused when it exists
    /// already unless --force or --append.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) existing: ExistingArgs,
}

impl OutputArg {
    /// Standard output, or the file asked for, claimed under the rule ([`claim_file`]) and
    /// buffered.
    ///
    /// # Errors
    ///
    /// As [`claim_file`].
    pub(crate) fn open(&self, inputs: &[PathBuf]) -> anyhow::Result<Box<dyn Write>> {
        Ok(match self.path() {
            Some(path) => Box::new(BufWriter::with_capacity(
                1 << 16,
                claim_file(path, self.existing.policy(), inputs)?,
            )),
            None => Box::new(stdout()),
        })
    }

    /// The file asked for, unless it is standard output.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.output
            .as_deref()
            .filter(|path| path.as_os_str() != "-")
    }
}

/// Claims the file `path` for writing under `policy`, before any input is read: refused when
/// it is one of `inputs` or a folder, or exists already and is not empty (unless the policy
/// replaces it or adds to it); its missing parent folders are created; it is then opened,
/// emptied unless the policy adds to it. A command that writes at its end keeps the file
/// open until then.
///
/// # Errors
///
/// As said, and when the file or its folder cannot be created.
pub(crate) fn claim_file(path: &Path, policy: Policy, inputs: &[PathBuf]) -> anyhow::Result<File> {
    refuse_input(path, inputs)?;
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("{} is a folder: the output is a file", path.display())
        }
        Ok(meta) if meta.len() > 0 && policy.existing == Existing::Refuse => {
            return Err(policy.refuse(path));
        }
        _ => {}
    }
    create_parent(path)?;
    let file = if policy.existing == Existing::Append {
        OpenOptions::new().append(true).create(true).open(path)
    } else {
        File::create(path)
    };
    file.with_context(|| format!("cannot create {}", path.display()))
}

/// Claims the folder `dir` for a command that writes files into it, before any input is read:
/// refused when it is a file, holds one of `inputs` (they could be written before they are
/// read), or exists already and is not empty (unless the policy replaces what the command
/// writes or adds to it); created when missing, with its parents.
///
/// # Errors
///
/// As said, and when the folder cannot be created.
pub(crate) fn claim_folder(dir: &Path, policy: Policy, inputs: &[PathBuf]) -> anyhow::Result<()> {
    match fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => {
            anyhow::bail!(
                "{} is a file: -o names the folder to write into",
                dir.display()
            )
        }
        Ok(_) => {
            refuse_inputs_inside(dir, inputs)?;
            let empty = fs::read_dir(dir)
                .with_context(|| format!("cannot read the folder {}", dir.display()))?
                .next()
                .is_none();
            if !empty && policy.existing == Existing::Refuse {
                return Err(policy.refuse(dir));
            }
        }
        Err(_) => {}
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))
}

/// Creates the missing folders above `path`.
fn create_parent(path: &Path) -> anyhow::Result<()> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() && !parent.is_dir() => {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create the folder {}", parent.display()))
        }
        _ => Ok(()),
    }
}

/// An error when `dir` holds one of `inputs`: the files written into it could be inputs of
/// the same run (read while they are appended to, or emptied before they are read).
fn refuse_inputs_inside(dir: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let Ok(canonical) = dir.canonicalize() else {
        // A folder that does not exist yet holds no input.
        return Ok(());
    };
    for input in inputs.iter().filter(|input| input.as_os_str() != "-") {
        if input
            .canonicalize()
            .is_ok_and(|input| input.starts_with(&canonical))
        {
            anyhow::bail!(
                "will not write into {}: it holds the input {}, which could be written to \
                 before it is read",
                dir.display(),
                input.display()
            );
        }
    }
    Ok(())
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
