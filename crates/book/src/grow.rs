//! [`Trees`]: one tree grown on several threads at once.

use std::sync::{Mutex, PoisonError};

use tabia_notation::pgn::Origin;

use crate::{AddGameError, Tree, TreeOptions};

/// A tree grown on several threads at once: each game is added to a tree of the thread's own
/// (taken from a pool and put back, so there are as many trees as threads adding at the same
/// time, not one per game or batch), and the trees are [merged](Tree::merge) at the end. A
/// [`TreeOptions::max_nodes`] budget is shared out between the `threads` trees and applies
/// again to the merged one, so the figures stay exact whatever the threads.
///
/// ```
/// use tabia_book::{Trees, TreeOptions};
/// use tabia_notation::pgn::Origin;
///
/// let trees = Trees::new(TreeOptions::default(), 2);
/// std::thread::scope(|scope| {
///     for pgn in ["1. e4 e5 1-0", "1. e4 c5 0-1", "1. d4 d5 1/2-1/2"] {
///         let trees = &trees;
///         scope.spawn(move || trees.add_pgn_game(pgn.as_bytes(), Origin::default()));
///     }
/// });
/// let tree = trees.finish();
/// assert_eq!(tree.games(), 3);
/// assert_eq!(tree.node(&tabia_book::position::Position::new()).moves.len(), 2);
/// ```
#[derive(Debug)]
pub struct Trees {
    options: TreeOptions,
    /// The options of each thread's tree: its share of the node budget.
    part: TreeOptions,
    /// The trees not in use by a thread.
    pool: Mutex<Vec<Tree>>,
}

impl Trees {
    /// Trees for about `threads` threads (at least one).
    pub fn new(options: TreeOptions, threads: usize) -> Trees {
        let threads = threads.max(1);
        Trees {
            options,
            part: TreeOptions {
                max_nodes: options.max_nodes.map(|n| (n / threads).max(1)),
                ..options
            },
            pool: Mutex::new(Vec::new()),
        }
    }

    /// Adds one game's PGN to a tree of this thread's (see [`Tree::add_pgn_game`]).
    ///
    /// # Errors
    ///
    /// As [`Tree::add_pgn_game`]: nothing is added then.
    pub fn add_pgn_game(&self, pgn: &[u8], origin: Origin) -> Result<bool, AddGameError> {
        let taken = self.lock().pop();
        let mut tree = taken.unwrap_or_else(|| Tree::new(self.part));
        let added = tree.add_pgn_game(pgn, origin);
        self.lock().push(tree);
        added
    }

    /// The trees merged into one, with the options given to [`Trees::new`].
    pub fn finish(self) -> Tree {
        let mut tree = Tree::new(self.options);
        for part in self
            .pool
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            tree.merge(part);
        }
        tree
    }

    /// The pool; a thread that panicked while holding it left a tree or none, both fine.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Tree>> {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
