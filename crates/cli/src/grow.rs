//! Games into a `tabia-book` tree on all cores, for `tabia tree` and `tabia book build`: each
//! worker adds the games it gets to a tree of its own, and the trees are merged at the end.

use std::{path::PathBuf, sync::Mutex};

use tabia_book::{AddGameError, Tree, TreeOptions};
use tabia_notation::pgn::RawGame;

use crate::{
    cli::RunArgs,
    input::Source,
    parallel::{Sink, config, each},
    report::Diagnostic,
    session::Session,
};

/// Reads every game of `files` into one tree; bad games are reported on the session. A
/// `--max-nodes` budget is shared out between the workers and applies again to the merged
/// tree; when it pruned, a line on standard error says so (unless `--quiet`).
pub(crate) fn read_tree(
    session: &mut Session<'_>,
    files: &[PathBuf],
    run: &RunArgs,
    options: TreeOptions,
) -> anyhow::Result<Tree> {
    let jobs = config(run.jobs).jobs();
    let worker_options = TreeOptions {
        max_nodes: options.max_nodes.map(|n| (n / jobs).max(1)),
        ..options
    };
    // Trees not in use by a worker; a worker takes one for each game and puts it back.
    let pool: Mutex<Vec<Tree>> = Mutex::new(Vec::new());
    for source in Source::from_args(files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = each(|sink: &mut Sink, number, raw: &RawGame| {
            let taken = pool.lock().map(|mut trees| trees.pop()).ok().flatten();
            let mut tree = taken.unwrap_or_else(|| Tree::new(worker_options));
            if let Err(err) = tree.add_pgn_game(&raw.bytes, raw.start) {
                report(sink, &name, number, &err);
            }
            if let Ok(mut trees) = pool.lock() {
                trees.push(tree);
            }
        });
        session.games(input, &work, |()| Ok(()))?;
    }
    let mut tree = Tree::new(options);
    for part in pool.into_inner().unwrap_or_default() {
        tree.merge(part);
    }
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
    let diagnostic = match err {
        AddGameError::Syntax(err) => Diagnostic::from_game_error(name, number, err),
        AddGameError::Replay(err) => {
            let diagnostic = Diagnostic::new(name, err.to_string()).game(number);
            match err.origin() {
                Some(at) if at.line > 0 => diagnostic.at(at.line, at.column),
                _ => diagnostic,
            }
        }
        other => Diagnostic::new(name, other.to_string()).game(number),
    };
    sink.error(&diagnostic);
}
