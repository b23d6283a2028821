//! `tabia serve`: lichess's opening explorer API over an index, and an explorer page
//! (`tabia-serve`; docs/commands/serve.md).

use std::{
    net::{IpAddr, SocketAddr},
    path::PathBuf,
};

use tabia_serve::{DEFAULT_PORT, ServeOptions};

use crate::cli::Status;

/// The examples of `tabia serve --help`.
pub(crate) const EXAMPLES: &str = "\
Examples:
  tabia serve games.idx                    the page on http://127.0.0.1:9002/
  tabia serve --port 8080 --threads 4 games.idx
  curl 'http://127.0.0.1:9002/lichess?play=e2e4,c7c5&speeds=blitz'
  curl 'http://127.0.0.1:9002/masters/pgn/1'";

/// Arguments of `tabia serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The index's folder (`tabia index build`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The port to listen on (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on: loopback unless told (`0.0.0.0` is every interface).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Worker threads answering requests [default: as many as cores, at least 2].
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    threads: usize,
}

/// Runs `tabia serve` until the process is killed.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let options = ServeOptions {
        addr: SocketAddr::new(args.bind, args.port),
        threads: args.threads,
    };
    let index = std::sync::Arc::new(
        tabia_index::Index::open(&args.dir)
            .map_err(|err| anyhow::anyhow!("{}: {err}", args.dir.display()))?,
    );
    let games = index.info().map(|info| info.games).unwrap_or(0);
    let handle = tabia_serve::serve_index(index, options)?;
    eprintln!(
        "tabia: serving {} ({games} games) on http://{}",
        args.dir.display(),
        handle.addr()
    );
    handle.wait();
    Ok(Status::Success)
}
