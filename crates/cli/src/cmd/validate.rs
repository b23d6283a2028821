//! `tabia validate`.

use crate::cli::Status;

/// Arguments of `tabia validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia validate`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia validate` is not built yet")
}
