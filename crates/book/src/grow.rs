//! [`Trees`]: one tree grown on several threads at once, the same whatever the threads.

use std::sync::{Mutex, MutexGuard, PoisonError};

use tabia_notation::pgn::Origin;
use tabia_position::PositionKey;

use crate::{AddGameError, GameInfo, Tree, TreeOptions, game::read_line};

/// A tree grown on several threads at once, equal to the tree that one thread adding the
/// games in input order grows, whatever the threads. It takes the input in batches, as
/// `tabia-stream`'s pipeline hands it out: the games of a batch are read on a worker into the
/// batch's [`TreeBatch`] ([`Trees::add_pgn_game`]), then each batch is handed back in input
/// order on one thread ([`Trees::add_batch`]).
///
/// Without a [`TreeOptions::max_nodes`] budget, a tree does not depend on the order of its
/// games: a worker adds them to a tree of its thread's own (taken from a pool and put back,
/// so there are as many trees as threads adding at the same time), the batches stay empty
/// and the trees are [merged](Tree::merge) at the end. With a budget, which rare moves a
/// prune closes depends on the games seen before it, so a worker only reads and replays its
/// games (the costly part) into the batch, and [`Trees::add_batch`] adds them one by one to
/// the one tree, pruning as [`Tree`] does: the output is that of one thread, and the memory
/// that of the tree and the batches in flight.
///
/// ```
/// use tabia_book::{TreeBatch, TreeOptions, Trees};
/// use tabia_notation::pgn::Origin;
///
/// let options = TreeOptions { max_nodes: Some(4), ..TreeOptions::default() };
/// let trees = Trees::new(options);
/// let inputs = [["1. e4 e5 1-0", "1. e4 c5 0-1"], ["1. d4 d5 1/2-1/2", "1. e4 e6 *"]];
/// // Each batch read on a thread of its own...
/// let batches: Vec<TreeBatch> = std::thread::scope(|scope| {
///     let handles: Vec<_> = inputs
///         .iter()
///         .map(|games| {
///             let trees = &trees;
///             scope.spawn(move || {
///                 let mut batch = TreeBatch::default();
///                 for pgn in games {
///                     trees.add_pgn_game(&mut batch, pgn.as_bytes(), Origin::default())?;
///                 }
///                 Ok::<_, tabia_book::AddGameError>(batch)
///             })
///         })
///         .collect();
///     handles.into_iter().map(|h| h.join().unwrap()).collect::<Result<_, _>>()
/// })?;
/// // ...and added in input order.
/// for batch in batches {
///     trees.add_batch(batch);
/// }
/// let tree = trees.finish();
/// assert_eq!(tree.games(), 4);
/// assert!(tree.len() <= 4);
/// # Ok::<_, tabia_book::AddGameError>(())
/// ```
#[derive(Debug)]
pub struct Trees {
    options: TreeOptions,
    /// Without a budget: the trees not in use by a thread.
    pool: Mutex<Vec<Tree>>,
    /// With a budget: the one tree, grown in input order.
    ordered: Mutex<Tree>,
}

/// The games of one batch of the input, read and replayed on a worker for
/// [`Trees::add_batch`] to add in input order (empty when the [`Trees`] have no budget: the
/// worker added its games itself). What a game adds to a tree: its start, at most `max_ply`
/// plies (a move's code and the key of the position after it, about 42 bytes a ply), whether
/// it ended there, its figures.
///
/// ```
/// use tabia_book::{TreeBatch, TreeOptions, Trees};
/// use tabia_notation::pgn::Origin;
///
/// let trees = Trees::new(TreeOptions { max_nodes: Some(1000), ..TreeOptions::default() });
/// let mut batch = TreeBatch::default();
/// assert!(trees.add_pgn_game(&mut batch, b"1. e4 e5 2. Nf3 *", Origin::default())?);
/// assert!(trees.add_pgn_game(&mut batch, b"1. e4 Ke7 *", Origin::default()).is_err());
/// assert_eq!(batch.games(), 1); // the bad game left nothing behind
/// trees.add_batch(batch);
/// assert_eq!(trees.finish().len(), 4); // e4, e5, Nf3 and the end
/// # Ok::<_, tabia_book::AddGameError>(())
/// ```
#[derive(Debug, Default)]
pub struct TreeBatch {
    /// The plies of every game, one after the other.
    plies: Vec<(u16, PositionKey)>,
    /// Each game: where its plies end in `plies`, its start, whether it ended, its figures.
    games: Vec<(usize, PositionKey, bool, GameInfo)>,
}

impl TreeBatch {
    /// How many games the batch holds.
    pub fn games(&self) -> usize {
        self.games.len()
    }
}

impl Trees {
    /// Trees with these options, for any number of threads.
    pub fn new(options: TreeOptions) -> Trees {
        Trees {
            options,
            pool: Mutex::new(Vec::new()),
            ordered: Mutex::new(Tree::new(options)),
        }
    }

    /// Reads one game's PGN on a worker (see [`Tree::add_pgn_game`]) for the batch it belongs
    /// to: into `batch` when there is a budget, else into a tree of this thread's. Gives
    /// `false` when `pgn` holds no game.
    ///
    /// # Errors
    ///
    /// As [`Tree::add_pgn_game`]: nothing is added then.
    pub fn add_pgn_game(
        &self,
        batch: &mut TreeBatch,
        pgn: &[u8],
        origin: Origin,
    ) -> Result<bool, AddGameError> {
        if self.options.max_nodes.is_none() {
            let taken = lock(&self.pool).pop();
            let mut tree = taken.unwrap_or_else(|| Tree::new(self.options));
            let added = tree.add_pgn_game(pgn, origin);
            lock(&self.pool).push(tree);
            return added;
        }
        let from = batch.plies.len();
        match read_line(pgn, origin, self.options.max_ply, &mut batch.plies) {
            Ok(Some(line)) => {
                let end = batch.plies.len();
                batch.games.push((end, line.start, line.ended, line.info));
                Ok(true)
            }
            Ok(None) => {
                batch.plies.truncate(from);
                Ok(false)
            }
            Err(err) => {
                batch.plies.truncate(from);
                Err(err)
            }
        }
    }

    /// Adds the games of a batch read by [`Trees::add_pgn_game`]: call it with every batch,
    /// in input order, on one thread at a time.
    pub fn add_batch(&self, batch: TreeBatch) {
        if batch.games.is_empty() {
            return;
        }
        let mut tree = lock(&self.ordered);
        let mut from = 0;
        for (end, start, ended, info) in &batch.games {
            tree.add_line(*start, &batch.plies[from..*end], *ended, info);
            from = *end;
        }
    }

    /// The tree of every game added.
    pub fn finish(self) -> Tree {
        let mut tree = self
            .ordered
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        for part in self
            .pool
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            tree.merge(part);
        }
        tree
    }
}

/// A lock of the trees; a thread that panicked while holding it left a tree or none, both
/// fine.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games that share openings and leave them, so that a small budget prunes often.
    fn games() -> Vec<String> {
        let firsts = ["e4", "d4", "c4", "Nf3"];
        let seconds = ["e5", "c5", "d5", "Nf6", "e6", "g6"];
        let thirds = ["Nc3", "g3", "b3", "a3", "h3"];
        (0..120)
            .map(|i| {
                let (a, b, c) = (firsts[i % 4], seconds[i % 6], thirds[i % 5]);
                format!("[Result \"1-0\"]\n\n1. {a} {b} 2. {c} a6 1-0\n")
            })
            .collect()
    }

    fn figures(tree: &Tree) -> Vec<(PositionKey, u16, crate::Tally)> {
        let mut edges: Vec<_> = tree.edges().map(|(k, c, t)| (k, c, *t)).collect();
        edges.sort_by_key(|e| (e.0, e.1));
        edges
    }

    #[test]
    fn a_budgeted_tree_in_any_batches_on_any_threads_is_the_tree_of_one_thread() {
        let options = TreeOptions {
            max_nodes: Some(24),
            ..TreeOptions::default()
        };
        let games = games();
        let mut one = Tree::new(options);
        for pgn in &games {
            one.add_pgn_game(pgn.as_bytes(), Origin::default()).unwrap();
        }
        assert!(one.pruned() > 0, "the budget prunes");
        for size in [1, 7, 50] {
            let trees = Trees::new(options);
            let batches: Vec<TreeBatch> = std::thread::scope(|scope| {
                let handles: Vec<_> = games
                    .chunks(size)
                    .map(|chunk| {
                        let trees = &trees;
                        scope.spawn(move || {
                            let mut batch = TreeBatch::default();
                            for pgn in chunk {
                                let origin = Origin::default();
                                trees
                                    .add_pgn_game(&mut batch, pgn.as_bytes(), origin)
                                    .unwrap();
                            }
                            batch
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for batch in batches {
                trees.add_batch(batch);
            }
            let tree = trees.finish();
            assert_eq!(figures(&tree), figures(&one), "batches of {size}");
            assert_eq!(
                (tree.games(), tree.pruned(), tree.threshold()),
                (one.games(), one.pruned(), one.threshold())
            );
        }
    }
}
