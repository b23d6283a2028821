//! Games into a `tabia-book` tree on all cores ([`Trees`]: read on the workers, added in input
//! order, so every `-j` gives the tree of `-j 1`), for `tabia tree` and `tabia book build`,
//! bad games reported on the session; or a position index's figures into one
//! ([`index_tree`], their `--index`).

use std::{collections::HashSet, path::PathBuf};

use tabia_book::{AddGameError, END, Tally, Tree, TreeBatch, TreeOptions, Trees, encode_move};
use tabia_index::{Filter, Index, MoveFigures};
use tabia_notation::pgn::RawGame;
use tabia_position::{Position, PositionKey};

use crate::{
    cli::RunArgs,
    input::Source,
    parallel::{Sink, fold},
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
    let trees = Trees::new(options);
    for source in Source::from_args(files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = fold(
            |sink: &mut Sink, batch: &mut TreeBatch, number, raw: &RawGame| {
                if let Err(err) = trees.add_pgn_game(batch, &raw.bytes, raw.start) {
                    report(sink, &name, number, &err);
                }
            },
        );
        session.games(input, &work, |batch| {
            trees.add_batch(batch);
            Ok(())
        })?;
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

/// The tree of the positions `depth` plies or fewer from `roots` (their moves and the games
/// that ended in them), grown from a position index rather than from games: each position
/// is asked of the index once ([`Index::moves`]), level by level, so that a position two
/// move orders reach is counted once and at its shallowest depth, as a game's first visit
/// counts. The figures are the index's: its games are deduplicated, and a move's rating is
/// the mean of its games' ratings (the index keeps no mover's rating).
pub(crate) fn index_tree(
    index: &Index,
    roots: &[Position],
    depth: u32,
    options: TreeOptions,
) -> anyhow::Result<Tree> {
    let mut tree = Tree::new(options);
    let filter = Filter::default();
    let mut seen: HashSet<PositionKey> = HashSet::new();
    let mut level: Vec<Position> = roots
        .iter()
        .filter(|pos| seen.insert(pos.key()))
        .cloned()
        .collect();
    for _ in 0..depth {
        let mut next = Vec::new();
        for pos in &level {
            let key = pos.key();
            for figures in index.moves(pos, &filter)? {
                let code = figures.mv.map_or(END, encode_move);
                tree.add_counts(key, code, &tally(&figures));
                if let Some(m) = figures.mv {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    if seen.insert(after.key()) {
                        next.push(after);
                    }
                }
            }
        }
        level = next;
    }
    tree.add_games(index.info()?.games);
    Ok(tree)
}

/// An index's figures as a tree's.
fn tally(figures: &MoveFigures) -> Tally {
    let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let (first_year, last_year) = figures
        .months
        .map_or((0, 0), |(first, last)| (first.year(), last.year()));
    Tally {
        games: count(figures.games()),
        white: count(figures.white),
        draws: count(figures.draws),
        black: count(figures.black),
        rating_sum: figures.rating_sum,
        rated: count(figures.rated),
        first_year,
        last_year,
    }
}

/// The positions an index's games start from: the standard start, then each other start
/// (a `FEN` tag) once, in the order of the games. Every game's info is read.
pub(crate) fn index_starts(index: &Index) -> anyhow::Result<Vec<Position>> {
    let mut starts = vec![Position::new()];
    let mut fens = HashSet::new();
    for id in index.ids()? {
        if let Some(info) = index.game_info(id)?
            && !info.fen.is_empty()
            && fens.insert(info.fen.clone())
            && let Ok(start) = info.start()
        {
            starts.push(start);
        }
    }
    Ok(starts)
}
