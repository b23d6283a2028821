//! Builds an index of PGN files, for trying `tabia serve` and for `xtask/serve-load.sh` until
//! the CLI's `tabia index build` is at hand: `cargo run -p tabia-serve --example build_index --
//! DIR FILE...`.

use std::path::PathBuf;

use tabia_index::{Index, IndexOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let dir = args.next().ok_or("usage: build_index DIR FILE...")?;
    let files: Vec<PathBuf> = args.collect();
    let summary = Index::build(&dir, &files, IndexOptions::default(), 0)?;
    eprintln!(
        "{}: {} games read, {} indexed",
        dir.display(),
        summary.read,
        summary.indexed
    );
    Ok(())
}
