//! [`Tree`]: every move played from every position of a collection, keyed by position, with
//! its figures; merged across workers; pruned to a budget.

use std::collections::{HashMap, HashSet};

use tabia_position::{BuildKeyHasher, Position, PositionKey, hash_of, shakmaty::Move};

use crate::{
    encode::encode_move,
    stats::{GameInfo, Tally},
};

/// The pseudo-move of the games that ended in a position (before `--max-ply`): Polyglot code
/// 0 (`a1a1`), which no legal move has.
pub const END: u16 = 0;

/// Whether the position before ply `i` (0-based) of a game already came before it: the start,
/// or the position after an earlier ply with the same side to move.
fn seen_before(
    start: PositionKey,
    plies: &[(u16, PositionKey)],
    i: usize,
    key: &PositionKey,
) -> bool {
    if i == 0 {
        return false;
    }
    if i.is_multiple_of(2) && start == *key {
        return true;
    }
    // Positions after plies j + 1 ≡ i (mod 2), j + 1 < i.
    let mut j = i % 2;
    while j + 1 < i {
        if j >= 1 && plies[j - 1].1 == *key {
            return true;
        }
        j += 2;
    }
    false
}

/// One edge of the tree: a move (its Polyglot code) from a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Edge {
    key: PositionKey,
    code: u16,
}

/// How a [`Tree`] is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeOptions {
    /// How many plies of each game are indexed (moves 1 to `max_ply`).
    pub max_ply: u32,
    /// The most edges (moves from positions) held; `None` for no limit. See [`Tree`] for how
    /// rare moves are pruned when it is reached.
    pub max_nodes: Option<usize>,
}

impl Default for TreeOptions {
    /// Thirty plies, no budget.
    fn default() -> TreeOptions {
        TreeOptions {
            max_ply: 30,
            max_nodes: None,
        }
    }
}

/// An opening tree: for every position of the games added, every move played from it, with
/// its [`Tally`]. Keyed by [`PositionKey`], so transpositions merge: `1.d4 Nf6 2.c4 e6` and
/// `1.c4 e6 2.d4 Nf6` add to the same position. A game counts once per position (the move it
/// played on its first visit).
///
/// **Memory.** One entry per (position, move) edge: a 40-byte key, the 2-byte move and 32
/// bytes of [`Tally`] (80 bytes with padding) in a hash table that is between 44% and 88%
/// full, with one control byte per slot: 92–184 bytes per edge, about 120 on average. A game
/// adds at most `max_ply + 1` edges (most of them, deep in the tree, its own).
///
/// **Budget and pruning.** When [`TreeOptions::max_nodes`] is set and a game makes the tree
/// hold more edges, the tree removes every edge played by at most `T` games, `T` being the
/// smallest count that brings it down to half the budget; the 64-bit hash of each removed edge
/// goes into a *closed set* (16 bytes per pruned edge, on average) and a closed edge is never
/// counted again. So every figure the tree gives is exact: an edge is either counted from the
/// first game that played it, or not at all. Edges played by more than `T` games when a prune
/// happens are never touched; what is lost are moves that were rare when a prune happened
/// (they are missing from the positions' totals and their "others"). [`Tree::threshold`] is
/// the largest `T` used. Without pruning the tree does not depend on the order in which the
/// games were added; with pruning, which rare moves were closed does.
///
/// ```
/// use tabia_book::{GameInfo, GameResult, Tree, TreeOptions};
/// use tabia_position::Position;
///
/// let mut tree = Tree::new(TreeOptions::default());
/// let win = GameInfo { result: Some(GameResult::WhiteWins), ..GameInfo::default() };
/// tree.add_sans(&Position::new(), &["d4", "Nf6", "c4", "e6"], &win)?;
/// tree.add_sans(&Position::new(), &["c4", "e6", "d4", "Nf6", "Nc3"], &win)?;
/// let after = Position::new().after("d4")?.after("Nf6")?.after("c4")?.after("e6")?;
/// let node = tree.node(&after);
/// assert_eq!(node.games(), 2); // both orders reach it
/// assert_eq!(node.moves.len(), 1); // 3. Nc3 once; one game ended there
/// assert_eq!(node.ended.games, 1);
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Tree {
    edges: HashMap<Edge, Tally, BuildKeyHasher>,
    closed: HashSet<u64, BuildKeyHasher>,
    games: u64,
    threshold: u32,
    options: TreeOptions,
}

/// A position of the tree: the moves played from it, most played first.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The position's key.
    pub key: PositionKey,
    /// Every move played from it (at least once), most played first; ties in UCI order.
    pub moves: Vec<MoveStats>,
    /// The games that ended in this position (before the indexed depth).
    pub ended: Tally,
}

impl Node {
    /// Games that reached the position (and played a move, or ended there).
    pub fn games(&self) -> u64 {
        self.moves
            .iter()
            .map(|m| u64::from(m.stats.games))
            .sum::<u64>()
            + u64::from(self.ended.games)
    }

    /// The figures of every game that reached the position (moves and ended games together).
    pub fn total(&self) -> Tally {
        let mut total = self.ended;
        for m in &self.moves {
            total.merge(&m.stats);
        }
        total
    }
}

/// One move of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub m: Move,
    /// Its Polyglot code.
    pub code: u16,
    /// Its figures.
    pub stats: Tally,
}

impl Tree {
    /// An empty tree.
    pub fn new(options: TreeOptions) -> Tree {
        Tree {
            edges: HashMap::default(),
            closed: HashSet::default(),
            games: 0,
            threshold: 0,
            options,
        }
    }

    /// How the tree is built.
    pub fn options(&self) -> TreeOptions {
        self.options
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Edges (moves from positions, and the ended-here entries) held.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Whether no edge is held.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// The largest pruning threshold used: edges with at most this many games may have been
    /// removed. 0 when nothing was ever pruned.
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    /// How many edges were pruned (closed for good).
    pub fn pruned(&self) -> usize {
        self.closed.len()
    }

    /// Adds one game: its start position's key, then for each ply the code of the move played
    /// and the key of the position it led to (at most `max_ply` of them are used); `ended`
    /// when the game ended after these plies rather than going on. A game counts once per
    /// position: when it comes back to a position (a repetition), the move it plays there
    /// again is not counted, so a position's games never exceed the games added.
    pub fn add_line(
        &mut self,
        start: PositionKey,
        plies: &[(u16, PositionKey)],
        ended: bool,
        info: &GameInfo,
    ) {
        let max = usize::try_from(self.options.max_ply).unwrap_or(usize::MAX);
        let plies = &plies[..plies.len().min(max)];
        let mut from = start;
        for (i, &(code, to)) in plies.iter().enumerate() {
            if !seen_before(start, plies, i, &from) {
                self.record(from, code, info);
            }
            from = to;
        }
        if ended && plies.len() < max && !seen_before(start, plies, plies.len(), &from) {
            self.record(from, END, info);
        }
        self.games += 1;
        if let Some(budget) = self.options.max_nodes
            && self.edges.len() > budget
        {
            self.prune(budget / 2);
        }
    }

    /// Adds a game given as moves from `start` (each legal in turn; the game ends after them).
    /// Like every way in, a game counts once per position: when it comes back to a position,
    /// only the move it played there the first time counts.
    pub fn add_moves(&mut self, start: &Position, moves: &[Move], info: &GameInfo) {
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(moves.len());
        for &m in moves {
            pos.play_unchecked(m);
            plies.push((encode_move(m), pos.key()));
        }
        self.add_line(start.key(), &plies, true, info);
    }

    /// Adds a game given as SAN moves from `start`.
    ///
    /// # Errors
    ///
    /// The first move that is not legal; nothing is added then.
    pub fn add_sans(
        &mut self,
        start: &Position,
        sans: &[&str],
        info: &GameInfo,
    ) -> Result<(), tabia_position::MoveError> {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(sans.len());
        for san in sans {
            let m = pos.parse_move(san)?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        self.add_moves(start, &moves, info);
        Ok(())
    }

    /// Adds the figures of one move counted elsewhere (a position index, another tree): the
    /// move's Polyglot code ([`END`] for the games that ended in the position) from the
    /// position with `key`. An edge that was pruned stays out. The games the figures come
    /// from are not counted among the tree's [`games`](Tree::games): [`Tree::add_games`]
    /// does that, once for all the edges of the same games.
    ///
    /// ```
    /// use tabia_book::{Tally, Tree, TreeOptions, encode_move};
    /// use tabia_position::Position;
    ///
    /// let start = Position::new();
    /// let e4 = start.parse_move("e4")?;
    /// let mut tree = Tree::new(TreeOptions::default());
    /// let tally = Tally { games: 3, white: 2, draws: 1, ..Tally::default() };
    /// tree.add_counts(start.key(), encode_move(e4), &tally);
    /// tree.add_games(3);
    /// let node = tree.node(&start);
    /// assert_eq!((node.games(), node.moves[0].stats.white), (3, 2));
    /// assert_eq!(tree.games(), 3);
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    pub fn add_counts(&mut self, key: PositionKey, code: u16, tally: &Tally) {
        let edge = Edge { key, code };
        if !self.closed.is_empty() && self.closed.contains(&hash_of(&edge)) {
            return;
        }
        self.edges.entry(edge).or_default().merge(tally);
        if let Some(budget) = self.options.max_nodes
            && self.edges.len() > budget
        {
            self.prune(budget / 2);
        }
    }

    /// Counts `games` among the tree's [`games`](Tree::games): the games whose figures
    /// [`Tree::add_counts`] added.
    pub fn add_games(&mut self, games: u64) {
        self.games += games;
    }

    #[inline]
    fn record(&mut self, key: PositionKey, code: u16, info: &GameInfo) {
        let edge = Edge { key, code };
        if !self.closed.is_empty() && self.closed.contains(&hash_of(&edge)) {
            return;
        }
        self.edges.entry(edge).or_default().add(info, key.turn());
    }

    /// Adds the games of another tree (built with the same options, e.g. by another worker).
    /// An edge closed in either tree is closed in the result (its count would be short).
    pub fn merge(&mut self, other: Tree) {
        self.games += other.games;
        self.threshold = self.threshold.max(other.threshold);
        if !other.closed.is_empty() {
            self.edges
                .retain(|edge, _| !other.closed.contains(&hash_of(edge)));
        }
        for (edge, stats) in other.edges {
            if !self.closed.is_empty() && self.closed.contains(&hash_of(&edge)) {
                continue;
            }
            self.edges.entry(edge).or_default().merge(&stats);
        }
        self.closed.extend(other.closed);
        if let Some(budget) = self.options.max_nodes
            && self.edges.len() > budget
        {
            self.prune(budget / 2);
        }
    }

    /// Removes every edge played by at most `T` games, `T` the smallest count that leaves at
    /// most `target` edges, and closes them.
    fn prune(&mut self, target: usize) {
        const CAP: usize = 1 << 16;
        let mut histogram = vec![0usize; CAP + 1];
        for stats in self.edges.values() {
            histogram[(stats.games as usize).min(CAP)] += 1;
        }
        let mut left = self.edges.len();
        let mut threshold = 0u32;
        for (count, &n) in histogram.iter().enumerate().skip(1) {
            if left <= target {
                break;
            }
            left -= n;
            threshold = u32::try_from(count).unwrap_or(u32::MAX);
        }
        let closed = &mut self.closed;
        self.edges.retain(|edge, stats| {
            let keep = stats.games > threshold;
            if !keep {
                closed.insert(hash_of(edge));
            }
            keep
        });
        self.threshold = self.threshold.max(threshold);
    }

    /// The figures of one move (its Polyglot code; [`END`] for the games that ended there).
    pub fn stats(&self, key: PositionKey, code: u16) -> Option<&Tally> {
        self.edges.get(&Edge { key, code })
    }

    /// The position `pos` in the tree: every legal move that was played from it, most played
    /// first (ties in UCI order), and the games that ended there.
    pub fn node(&self, pos: &Position) -> Node {
        let key = pos.key();
        let mut moves: Vec<MoveStats> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| {
                let code = encode_move(m);
                self.stats(key, code)
                    .map(|&stats| MoveStats { m, code, stats })
            })
            .collect();
        moves.sort_by_cached_key(|ms| {
            (
                std::cmp::Reverse(ms.stats.games),
                crate::encode::uci(pos, ms.m),
            )
        });
        let ended = self.stats(key, END).copied().unwrap_or_default();
        Node { key, moves, ended }
    }

    /// Of `positions` (those a [`tabia_position::PositionArg`] names), the ones some game
    /// reached, most games first; when none was reached, the first of them alone (its report
    /// then says 0 games).
    pub fn reached(&self, positions: Vec<Position>) -> Vec<Position> {
        let mut reached: Vec<(u64, Position)> = positions
            .iter()
            .map(|pos| (self.node(pos).games(), pos.clone()))
            .filter(|(games, _)| *games > 0)
            .collect();
        if reached.is_empty() {
            return positions.into_iter().take(1).collect();
        }
        reached.sort_by_key(|(games, _)| std::cmp::Reverse(*games));
        reached.into_iter().map(|(_, pos)| pos).collect()
    }

    /// Every edge: position key, move code ([`END`] for ended games), figures; in no
    /// particular order.
    pub fn edges(&self) -> impl Iterator<Item = (PositionKey, u16, &Tally)> + '_ {
        self.edges
            .iter()
            .map(|(edge, stats)| (edge.key, edge.code, stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameResult;

    fn info(result: GameResult) -> GameInfo {
        GameInfo {
            result: Some(result),
            ..GameInfo::default()
        }
    }

    #[test]
    fn pruning_keeps_frequent_edges_exact_and_closes_rare_ones() {
        let start = Position::new();
        let mut tree = Tree::new(TreeOptions {
            max_ply: 4,
            max_nodes: Some(8),
        });
        for _ in 0..5 {
            tree.add_sans(&start, &["e4", "e5"], &info(GameResult::Draw))
                .unwrap();
        }
        for tail in [
            ["Nf3", "Nc6"],
            ["Bc4", "Nf6"],
            ["d4", "exd4"],
            ["Nc3", "Nf6"],
        ] {
            let line = ["e4", "e5", tail[0], tail[1]];
            tree.add_sans(&start, &line, &info(GameResult::WhiteWins))
                .unwrap();
        }
        assert!(tree.threshold() >= 1, "a prune happened");
        assert!(tree.len() <= 8);
        let root = tree.node(&start);
        assert_eq!(root.moves.len(), 1);
        assert_eq!(root.moves[0].stats.games, 9, "above the threshold: exact");
        assert_eq!(root.moves[0].stats.white, 4);
        // A closed edge is never counted again.
        let after = start.clone().after("e4").unwrap().after("e5").unwrap();
        let nf3 = encode_move(after.parse_move("Nf3").unwrap());
        let closed = tree.stats(after.key(), nf3).is_none();
        tree.add_sans(&start, &["e4", "e5", "Nf3", "Nc6"], &info(GameResult::Draw))
            .unwrap();
        assert_eq!(tree.stats(after.key(), nf3).is_none(), closed);
        assert_eq!(tree.node(&start).moves[0].stats.games, 10);
    }

    #[test]
    fn merge_is_the_same_as_adding_everything_to_one_tree() {
        let start = Position::new();
        let lines: [&[&str]; 4] = [
            &["d4", "Nf6", "c4", "e6"],
            &["c4", "e6", "d4", "Nf6"],
            &["e4"],
            &["d4", "d5"],
        ];
        let mut one = Tree::new(TreeOptions::default());
        let mut a = Tree::new(TreeOptions::default());
        let mut b = Tree::new(TreeOptions::default());
        for (i, line) in lines.iter().enumerate() {
            one.add_sans(&start, line, &info(GameResult::Draw)).unwrap();
            let half = if i % 2 == 0 { &mut a } else { &mut b };
            half.add_sans(&start, line, &info(GameResult::Draw))
                .unwrap();
        }
        a.merge(b);
        let mut x: Vec<_> = one.edges().map(|(k, c, s)| (k, c, *s)).collect();
        let mut y: Vec<_> = a.edges().map(|(k, c, s)| (k, c, *s)).collect();
        x.sort_by_key(|e| (e.0, e.1));
        y.sort_by_key(|e| (e.0, e.1));
        assert_eq!(x, y);
        assert_eq!(a.games(), 4);
    }
}
