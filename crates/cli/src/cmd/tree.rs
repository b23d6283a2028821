//! `tabia tree`: the opening tree of a collection — every move played from a position, how
//! often and how it scored — as text, JSON or a self-contained HTML page.
//!
//! The games grow one tree through `tabia-book`'s `Trees` (`grow::read_tree`): each worker
//! adds its games to a tree of its own, merged at the end, or with a `--max-nodes` budget reads
//! them for the one tree to take in input order, so the output is the same for any `-j`.

use std::{io::Write as _, num::NonZeroU32, path::PathBuf};

use tabia_book::{TreeOptions, TreeReport, TreeReportOptions};
use tabia_eco::{Openings, Table};
use tabia_index::Index;
use tabia_position::PositionArg;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    grow::{index_tree, read_tree},
    output::{self, ForceArg, OutputArg},
    session::Session,
};

/// Arguments of `tabia tree` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// Grow the tree from a position index (`tabia index build`) instead of reading games:
    /// its figures, to --depth plies from --position (a move's rating is then the mean of
    /// its games' players' ratings).
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    index: Option<PathBuf>,
    /// The opening table that names the positions: `lichess` (lichess's names) or `scid`.
    #[arg(long, value_name = "TABLE", default_value = "lichess")]
    openings: Openings,
    /// The position to show: a FEN, a partial FEN, an EPD or `startpos`; a bare placement
    /// shows every position with it that games reached (either side to move, any castling),
    /// most played first, as `filter --position` matches it.
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
    /// pruned (docs/commands/tree.md, "Memory") [default: no limit].
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// One JSON object: the position, its figures and its moves (nested with --depth).
    #[arg(long, conflicts_with = "html")]
    json: bool,
    /// Write a self-contained HTML page (board, move table, clickable moves) to FILE (refused
    /// when it exists already, unless --force).
    #[arg(long, value_name = "FILE", conflicts_with = "append")]
    html: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    out: OutputArg,
}

/// Runs `tabia tree`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let positions = match PositionArg::parse(&args.position) {
        Ok(arg) => arg.positions(),
        Err(err) => anyhow::bail!("bad --position: {err}"),
    };
    if positions.is_empty() {
        anyhow::bail!("bad --position: no legal position has this placement");
    }
    let options = TreeOptions {
        max_ply: args.max_ply,
        max_nodes: args.max_nodes,
    };
    // The page is claimed before the games are read, as -o is.
    let page = args
        .html
        .as_deref()
        .map(|path| {
            let policy = ForceArg {
                force: args.out.existing.force,
            };
            output::claim_file(path, policy.policy(), &args.input.files)
        })
        .transpose()?;
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    let depth = args
        .depth
        .map_or(if args.html.is_some() { 8 } else { 1 }, NonZeroU32::get);
    let tree = match &args.index {
        Some(dir) => index_tree(&Index::open(dir)?, &positions, depth, options)?,
        None => read_tree(&mut session, &args.input.files, &args.run, options)?,
    };
    let table = Table::builtin(args.openings);
    let report_options = TreeReportOptions {
        depth,
        min_games: args.min_games,
    };
    let positions = tree.reached(positions);
    if let (Some(path), Some(mut file)) = (&args.html, page) {
        let page = tabia_book::html_page(&tree, &positions[0], report_options, table);
        if let Err(err) = file.write_all(page.as_bytes()).and_then(|()| file.flush()) {
            anyhow::bail!("cannot write {}: {err}", path.display());
        }
    } else {
        let out = session.out();
        for (i, position) in positions.iter().enumerate() {
            let report = TreeReport::new(&tree, position, report_options, table);
            if args.json {
                serde_json::to_writer(&mut *out, &report)?;
                out.write_all(b"\n")?;
            } else {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(report.to_text().as_bytes())?;
            }
        }
    }
    if args.index.is_some() {
        // No games were read: no summary of them.
        return Ok(session.finish_without_summary()?);
    }
    Ok(session.finish()?)
}
