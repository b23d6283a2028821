//! Games into a `tabia-book` tree on all cores ([`Trees`]), for `tabia tree` and `tabia book
//! build`, bad games reported on the session.

use std::path::PathBuf;

use tabia_book::{AddGameError, Tree, TreeOptions, Trees};
use tabia_notation::pgn::RawGame;

use crate::{
    cli::RunArgs,
    input::Source,
    parallel::{Sink, config, each},
    report::Diagnostic,
    session::Session,
};

/// Reads every game of `files` into one tree; bad games are reported on the session. When
/// the `--max-nodes` budget pruned, a line on standard error says so (unless `--quiet`).
pub(crate) fn read_tree(
    session: &mut Session<'_>,
    files: &[PathBuf],
    run: &RunArgs,
    options: TreeOptions,
) -> anyhow::Result<Tree> {
    let trees = Trees::new(options, config(run.jobs).jobs());
    for source in Source::from_args(files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = each(|sink: &mut Sink, number, raw: &RawGame| {
            if let Err(err) = trees.add_pgn_game(&raw.bytes, raw.start) {
                report(sink, &name, number, &err);
            }
        });
        session.games(input, &work, |()| Ok(()))?;
    }
    let tree = trees.finish();
    if tree.threshold() > 0 && !run.quiet {
        eprintln!(
            "tabia: --max-nodes: {} moves played by at most {} games were pruned",
            tree.pruned(),
            tree.threshold()
        );
    }
    Ok(tree)
}

/// `FILE:LINE:COL: game N: message` for a game that could not be added.
fn report(sink: &mut Sink, name: &str, number: u64, err: &AddGameError) {
    sink.error(&Diagnostic::located(name, number, err));
}
