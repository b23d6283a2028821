//! Command-line arguments and exit statuses.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cmd;

/// tabia: chess notation at speed — PGN, FEN, EPD, ECO.
#[derive(Debug, Parser)]
#[command(name = "tabia", version, about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands, one module of `cmd` each.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Re-emit games in PGN export format, or check them.
    Pgn(cmd::pgn::Args),
    /// Apply moves to a position and print its FEN, EPD or key.
    Fen(cmd::fen::Args),
    /// Print the EPD (or FEN) after every ply of every game.
    Epd(cmd::epd::Args),
    /// Name the opening (ECO code) of games or positions.
    Eco(cmd::eco::Args),
    /// Explain every problem of positions.
    Validate(cmd::validate::Args),
    /// Render a position: ASCII, Unicode, SVG, PNG, LaTeX, HTML.
    Show(cmd::show::Args),
}

/// How a run ended, as documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// 0: all input was good.
    Success,
    /// 1: some games or positions were bad (each reported on stderr).
    SomeBad,
    /// 2: usage or I/O error.
    Failure,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::SomeBad => ExitCode::from(1),
            Status::Failure => ExitCode::from(2),
        }
    }
}

/// Whether an error is (caused by) a closed stdout, which ends a run quietly (`tabia … | head`).
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
