//! `tabia tree`: the opening tree of a collection — every move played from a position, how
//! often and how it scored — as text, JSON or a self-contained HTML page.
//!
//! Each worker adds the games it gets to a tree of its own (`tabia-book`'s `Tree`); the trees
//! are merged at the end, so the figures are the same for any `-j` (see `Tree` for the one
//! exception: which rare moves a `--max-nodes` budget prunes).

use std::{num::NonZeroU32, path::PathBuf, sync::Mutex};

use tabia_book::{AddGameError, Report, ReportOptions, Tree, TreeOptions};
use tabia_eco::Table;
use tabia_position::Position;

use crate::{
    cli::{RunArgs, Status},
    input::{Source, raw_games},
    parallel::{Sink, config},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia tree` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The position to show: a FEN, a partial FEN, an EPD or `startpos`.
    #[arg(long, value_name = "POS", default_value = "startpos")]
    position: String,
    /// Show the tree this many plies deep, indented [default: 1; 8 with --html].
    #[arg(long, value_name = "N")]
    depth: Option<NonZeroU32>,
    /// Fold moves played by fewer games into "others" (not expanded).
    #[arg(long, value_name = "N", default_value_t = 1)]
    min_games: u32,
    /// Index the first N plies of each game.
    #[arg(long, value_name = "N", default_value_t = 30)]
    max_ply: u32,
    /// Hold at most N moves-from-positions (about 120 bytes each); past it, rare moves are
    /// pruned (README: "Memory") [default: no limit].
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// One JSON object: the position, its figures and its moves (nested with --depth).
    #[arg(long, conflicts_with = "html")]
    json: bool,
    /// Write a self-contained HTML page (board, move table, clickable moves) to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `tabia tree`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let position = match Position::from_arg(&args.position) {
        Ok(pos) => pos,
        Err(err) => anyhow::bail!("bad --position: {err}"),
    };
    let jobs = config(args.run.jobs).jobs();
    let options = TreeOptions {
        max_ply: args.max_ply,
        max_nodes: args.max_nodes,
    };
    let worker_options = TreeOptions {
        max_nodes: args.max_nodes.map(|n| (n / jobs).max(1)),
        ..options
    };
    // Trees not in use by a worker; a worker takes one for each game and puts it back.
    let pool: Mutex<Vec<Tree>> = Mutex::new(Vec::new());
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.pipeline(input, raw_games, |sink, number, raw| {
            let taken = pool.lock().map(|mut trees| trees.pop()).ok().flatten();
            let mut tree = taken.unwrap_or_else(|| Tree::new(worker_options));
            if let Err(err) = tree.add_pgn_game(&raw.bytes, raw.start) {
                report(sink, &name, number, &err);
            }
            if let Ok(mut trees) = pool.lock() {
                trees.push(tree);
            }
        })?;
    }
    let mut tree = Tree::new(options);
    for part in pool.into_inner().unwrap_or_default() {
        tree.merge(part);
    }
    if tree.threshold() > 0 && !args.run.quiet {
        eprintln!(
            "tabia: --max-nodes: {} moves played by at most {} games were pruned",
            tree.pruned(),
            tree.threshold()
        );
    }
    let table = Table::embedded();
    let depth = args
        .depth
        .map_or(if args.html.is_some() { 8 } else { 1 }, NonZeroU32::get);
    let report_options = ReportOptions {
        depth,
        min_games: args.min_games,
    };
    if let Some(path) = &args.html {
        let page = tabia_book::html_page(&tree, &position, report_options, table);
        if let Err(err) = std::fs::write(path, page) {
            anyhow::bail!("cannot write {}: {err}", path.display());
        }
    } else {
        let report = Report::new(&tree, &position, report_options, table);
        let out = session.out();
        if args.json {
            serde_json::to_writer(&mut *out, &report)?;
            out.write_all(b"\n")?;
        } else {
            out.write_all(report.to_text().as_bytes())?;
        }
    }
    Ok(session.finish()?)
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
