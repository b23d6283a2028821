//! `tabia epd`.

use crate::cli::Status;

/// Arguments of `tabia epd`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// Runs `tabia epd`.
pub(crate) fn run(_args: &Args) -> anyhow::Result<Status> {
    anyhow::bail!("`tabia epd` is not built yet")
}
