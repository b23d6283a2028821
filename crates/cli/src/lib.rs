//! The `tabia` command-line tool, as a library so that its clap definition can be reused (shell
//! completions and the man page are generated from [`command`] by `cargo xtask dist`).
//!
//! The binary is [`run`] over the process arguments. The tool is thin: each subcommand in `cmd`
//! parses its arguments and calls the libraries (`tabia-notation`, `tabia-position`,
//! `tabia-eco`, and `tabia-stream` for reading inputs on all cores); what is shared by the
//! subcommands is here:
//!
//! - `input`: the inputs of a run (`tabia-stream`: files or standard input, decompressed by
//!   magic bytes, split into games or lines);
//! - `parallel`: the `Sink` each worker writes a batch's output and diagnostics into, over
//!   `tabia-stream`'s ordered parallel pipeline;
//! - `session`: one run over several inputs — output, diagnostics, summary, exit status;
//! - `form`: the output-form options shared by the subcommands that write games;
//! - `criteria`: the selection criteria as options (`CriteriaArgs`, flattened by `filter`),
//!   made into a `tabia_select::Selection`;
//! - `output`: `-o FILE` (never one of the inputs), standard output, NDJSON and TSV helpers;
//! - `progress`, `report`: the progress meter and diagnostics;
//! - `ops`: the commands' work that is the command line's own (as cargo's `ops`), one module
//!   per command that has some: `ops::pgn`, `ops::epd`, `ops::table` (each one's work on the
//!   pipeline, what it writes into a batch's `Sink`, its diagnostics, over
//!   `tabia_position::Exporting`, `tabia_position::EpdLines`, `tabia_table::PieceEncoding`),
//!   `ops::eco` (the TSV and JSON lines, `--tag`'s counters, `--position`'s lines),
//!   `ops::dedup` (the workers' entries, the ordered stage writing to the output and
//!   `--duplicates`, `--keep most-annotated`'s first pass), `ops::book` (books read from and
//!   written to files, `dump`'s lines, `probe`'s output), `ops::filter` (matching on the
//!   reading thread, writing or reporting each selected game), `ops::show` (where a rendering
//!   goes, `--last-move`), `ops::split` (each game made into an entry for the ordered stage,
//!   which hands it to `tabia_collect::Splitter`);
//! - `cli`: the clap definition and the argument blocks the commands flatten (`InputFiles`,
//!   `RunArgs`).

#![deny(missing_docs)]

mod check;
mod cli;
mod cmd;
mod criteria;
mod form;
mod grow;
mod input;
mod ops;
mod output;
mod parallel;
mod progress;
mod record;
mod report;
mod session;

use std::{ffi::OsString, process::ExitCode};

use clap::{CommandFactory, Parser};

/// The clap definition of `tabia`, with every subcommand and option.
///
/// ```
/// let cmd = tabia_cli::command();
/// assert_eq!(cmd.get_name(), "tabia");
/// assert!(cmd.get_subcommands().any(|sub| sub.get_name() == "pgn"));
/// ```
pub fn command() -> clap::Command {
    cli::Cli::command()
}

/// Runs `tabia` with `args` (the first one is the program name) and gives its exit code:
/// 0 all input good, 1 some games or positions bad, 2 usage or I/O error. A closed standard
/// output ends the run quietly with 0.
///
/// ```
/// use std::process::ExitCode;
///
/// assert_eq!(tabia_cli::run(["tabia", "--no-such-option"]), ExitCode::from(2));
/// ```
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to standard output with status 0, usage errors to standard
            // error with status 2; a closed pipe while printing them is not worth a word.
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match cmd::run(cli) {
        Ok(status) => status.into(),
        Err(err) if cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tabia: {err:#}");
            cli::Status::Failure.into()
        }
    }
}
