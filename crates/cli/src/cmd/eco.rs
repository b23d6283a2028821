//! `tabia eco`.

use crate::cli::Status;

/// Arguments of `tabia eco`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia eco`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia eco` is not built yet")
}
