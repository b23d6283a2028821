//! `tabia show`.

use crate::cli::Status;

/// Arguments of `tabia show`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia show`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia show` is not built yet")
}
