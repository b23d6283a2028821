//! `tabia pgn`.

use crate::cli::Status;

/// Arguments of `tabia pgn`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia pgn`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia pgn` is not built yet")
}
