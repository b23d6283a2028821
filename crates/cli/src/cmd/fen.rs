//! `tabia fen`.

use crate::cli::Status;

/// Arguments of `tabia fen`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia fen`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia fen` is not built yet")
}
