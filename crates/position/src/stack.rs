//! [`MoveStack`]: a position with the moves that led to it, for `pop`, repetitions and the
//! draws that may be claimed (python-chess's `Board` with its move stack).

use shakmaty::{Castles, Move, Position as _};

use crate::{
    key::PositionKey,
    outcome::Termination,
    position::{Position, with_pos},
};

/// A start position and the moves played from it: the position they reach, the way back
/// ([`MoveStack::pop`]), and what the game's past decides, repetitions and the draws that may
/// be claimed, by python-chess's rules for its `Board` (so that a program moving from
/// python-chess gets the same answers).
///
/// Each entry keeps the position before its move, so `pop` is a copy and not a replay.
///
/// ```
/// use tabia_position::{MoveStack, Position, Termination};
///
/// let mut stack = MoveStack::new(Position::new());
/// for _ in 0..2 {
///     for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
///         let m = stack.position().parse_move(san)?;
///         stack.push(m);
///     }
/// }
/// assert!(stack.is_repetition(3));
/// assert_eq!(stack.outcome(false), None);
/// assert_eq!(stack.outcome(true), Some(Termination::ThreefoldRepetition));
/// stack.pop();
/// assert!(!stack.is_repetition(3) && stack.can_claim_threefold_repetition());
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveStack {
    /// The position before each move, and the move (`None`: a null move).
    played: Vec<(Position, Option<Move>)>,
    /// The position after the last move.
    position: Position,
}

impl From<Position> for MoveStack {
    fn from(start: Position) -> MoveStack {
        MoveStack::new(start)
    }
}

impl MoveStack {
    /// No move played yet from `start`.
    pub fn new(start: Position) -> MoveStack {
        MoveStack {
            played: Vec::new(),
            position: start,
        }
    }

    /// The position the moves reach.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position before the first move (python-chess's `board.root()`).
    pub fn root(&self) -> &Position {
        self.played.first().map_or(&self.position, |(pos, _)| pos)
    }

    /// The moves played, first to last (`None`: a null move).
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Option<Move>> + '_ {
        self.played.iter().map(|&(_, m)| m)
    }

    /// The position before each move and the move, first to last.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (&Position, Option<Move>)> + '_ {
        self.played.iter().map(|(pos, m)| (pos, *m))
    }

    /// How many moves were played.
    pub fn len(&self) -> usize {
        self.played.len()
    }

    /// Whether no move was played.
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// The last move (`Some(None)`: a null move), or `None` when no move was played.
    pub fn last(&self) -> Option<Option<Move>> {
        self.played.last().map(|&(_, m)| m)
    }

    /// Plays a move known to be legal (from [`Position::parse_move`] or the legal moves).
    pub fn push(&mut self, m: Move) {
        let before = self.position.clone();
        self.position.play_unchecked(m);
        self.played.push((before, Some(m)));
    }

    /// Plays `m` if it is legal; otherwise changes nothing and returns `false`.
    pub fn play(&mut self, m: Move) -> bool {
        if !self.position.is_legal(m) {
            return false;
        }
        self.push(m);
        true
    }

    /// Plays a null move ([`Position::play_null`]); `false`, and nothing changes, when the
    /// side to move is in check.
    pub fn push_null(&mut self) -> bool {
        let before = self.position.clone();
        if !self.position.play_null() {
            return false;
        }
        self.played.push((before, None));
        true
    }

    /// Takes back the last move and returns it (`Some(None)`: a null move); `None` when no
    /// move was played.
    pub fn pop(&mut self) -> Option<Option<Move>> {
        let (before, m) = self.played.pop()?;
        self.position = before;
        Some(m)
    }

    /// Forgets all but the last `n` moves: the position before them becomes the root.
    pub fn keep_last(&mut self, n: usize) {
        let drop = self.played.len().saturating_sub(n);
        self.played.drain(..drop);
    }

    /// How many times the current position occurred, itself included, counting back to the
    /// last irreversible move (a capture, a pawn move, a drop, a move that loses castling
    /// rights, one that leaves an en-passant capture unplayed): positions are the same when
    /// their [`PositionKey`]s are (placement, side to move, castling rights, an en-passant
    /// capture that is legal).
    pub fn repetitions(&self) -> usize {
        let key = self.position.key();
        1 + self
            .reversible()
            .filter(|pos| pos.turn() == self.position.turn() && pos.key() == key)
            .count()
    }

    /// Whether the current position occurred at least `count` times (python-chess's
    /// `is_repetition(count)`; 3 is the threefold repetition that may be claimed).
    pub fn is_repetition(&self, count: usize) -> bool {
        self.repetitions() >= count
    }

    /// The positions before the moves back to the last irreversible one, last first: those the
    /// current position may repeat.
    fn reversible(&self) -> impl Iterator<Item = &Position> + '_ {
        self.played
            .iter()
            .rev()
            .take_while(|(pos, m)| !is_irreversible(pos, *m))
            .map(|(pos, _)| pos)
    }

    /// Whether the side to move may claim a draw by threefold repetition: the current position
    /// occurred three times, or one of its legal moves leads to a position that occurred twice
    /// (the claim is made before that move, as FIDE's rule 9.2 allows).
    pub fn can_claim_threefold_repetition(&self) -> bool {
        let mut seen: Vec<PositionKey> = self.reversible().map(Position::key).collect();
        let key = self.position.key();
        if 1 + seen.iter().filter(|&&k| k == key).count() >= 3 {
            return true;
        }
        seen.push(key);
        self.position.legal_moves().iter().any(|&m| {
            let mut after = self.position.clone();
            after.play_unchecked(m);
            let key = after.key();
            seen.iter().filter(|&&k| k == key).count() >= 2
        })
    }

    /// Whether 100 plies were played without a capture or pawn move and the side to move has
    /// a move (python-chess's `is_fifty_moves`).
    pub fn is_fifty_moves(&self) -> bool {
        self.position.halfmoves() >= 100 && !self.position.legal_moves().is_empty()
    }

    /// Whether 150 plies were played without a capture or pawn move and the side to move has
    /// a move: drawn without a claim.
    pub fn is_seventyfive_moves(&self) -> bool {
        self.position.halfmoves() >= 150 && !self.position.legal_moves().is_empty()
    }

    /// Whether the side to move may claim a draw by the fifty-move rule: 100 plies are
    /// reached, or the next move reaches them without a capture or pawn move.
    pub fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        self.position.halfmoves() >= 99
            && self.position.legal_moves().iter().any(|&m| {
                if m.is_zeroing() {
                    return false;
                }
                let mut after = self.position.clone();
                after.play_unchecked(m);
                MoveStack::new(after).is_fifty_moves()
            })
    }

    /// Whether the side to move may claim a draw (fifty moves or threefold repetition).
    pub fn can_claim_draw(&self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }

    /// How the game ends here, checked in python-chess's order for `board.outcome()`: a
    /// variant's own end, checkmate, insufficient material, stalemate, the 75-move rule,
    /// fivefold repetition, then, when `claim_draw`, the draws the side to move may claim
    /// (the fifty-move rule, threefold repetition). [`Position::termination`] is the
    /// order of tabia's checks of a game's result.
    pub fn outcome(&self, claim_draw: bool) -> Option<Termination> {
        let pos = &self.position;
        let decided = pos.decided();
        if let Some(end @ (Termination::VariantEnd { .. } | Termination::Checkmate { .. })) =
            decided
        {
            return Some(end);
        }
        if pos.is_insufficient_material() {
            return Some(Termination::InsufficientMaterial);
        }
        if decided.is_some() {
            return decided;
        }
        if pos.halfmoves() >= 150 {
            return Some(Termination::SeventyFiveMoveRule);
        }
        if self.is_repetition(5) {
            return Some(Termination::FivefoldRepetition);
        }
        if claim_draw {
            if self.can_claim_fifty_moves() {
                return Some(Termination::FiftyMoveRule);
            }
            if self.can_claim_threefold_repetition() {
                return Some(Termination::ThreefoldRepetition);
            }
        }
        None
    }
}

/// Whether `m` played from `pos` makes every earlier position unreachable (shakmaty's
/// `is_irreversible`, as python-chess's; a null move only when it leaves an en-passant
/// capture unplayed).
fn is_irreversible(pos: &Position, m: Option<Move>) -> bool {
    match m {
        Some(m) => with_pos!(pos, |p| p.is_irreversible(m)),
        None => with_pos!(pos, |p| p.legal_ep_square().is_some()),
    }
}

impl Position {
    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        with_pos!(self, |p| p.is_legal(m))
    }

    /// Whether the legal move `m` puts the other side in check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.is_check()
    }

    /// Whether neither side has the material to mate, by the variant's rules (standard
    /// chess: python-chess's rule, e.g. a lone knight cannot mate a king with a queen).
    pub fn is_insufficient_material(&self) -> bool {
        with_pos!(self, |p| p.is_insufficient_material())
    }

    /// Whether the side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        with_pos!(self, |p| p.is_stalemate())
    }

    /// The castling rights: which rooks may still castle (python-chess's
    /// `board.castling_rights` is [`Castles::castling_rights`]).
    pub fn castles(&self) -> &Castles {
        with_pos!(self, |p| p.castles())
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;

    fn stack(fen: &str, moves: &str) -> MoveStack {
        let mut stack = MoveStack::new(fen.parse().expect("legal"));
        for text in moves.split_whitespace() {
            if text == "--" {
                assert!(stack.push_null());
                continue;
            }
            let m = stack.position().parse_move(text).expect("legal");
            stack.push(m);
        }
        stack
    }

    const START: &str = "startpos";

    #[test]
    fn push_and_pop_come_back() {
        let mut s = stack(START, "e4 e5 Nf3 --");
        assert_eq!(s.len(), 4);
        assert_eq!(s.last(), Some(None));
        assert_eq!(s.pop(), Some(None));
        let nf3 = s.pop().flatten().expect("a move");
        assert_eq!(nf3.to().to_string(), "f3");
        assert_eq!(s.position(), &stack(START, "e4 e5").position);
        assert_eq!(s.root(), &Position::new());
        s.keep_last(1);
        assert_eq!(s.len(), 1);
        assert_eq!(s.root(), stack(START, "e4").position());
        assert!(stack(START, "").pop().is_none());
    }

    #[test]
    fn repetitions_stop_at_irreversible_moves() {
        let shuffle = "Nf3 Nf6 Ng1 Ng8";
        assert_eq!(stack(START, shuffle).repetitions(), 2);
        assert_eq!(stack(START, &[shuffle; 2].join(" ")).repetitions(), 3);
        // A pawn move in between: the positions before it are out of reach.
        let s = stack(START, &format!("{shuffle} e4 e5 {shuffle} {shuffle}"));
        assert_eq!(s.repetitions(), 3);
        // Castling rights lost by a king's walk make the start unreachable.
        let s = stack(START, "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
        assert_eq!(s.repetitions(), 2);
        assert_eq!(s.outcome(true), None);
    }

    #[test]
    fn threefold_may_be_claimed_a_move_early() {
        let s = stack(START, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(!s.is_repetition(3));
        assert!(s.can_claim_threefold_repetition());
        assert!(s.can_claim_draw());
        assert_eq!(s.outcome(false), None);
        assert_eq!(s.outcome(true), Some(Termination::ThreefoldRepetition));
        let s = stack(START, &["Nf3 Nf6 Ng1 Ng8"; 4].join(" "));
        assert_eq!(s.outcome(false), Some(Termination::FivefoldRepetition));
    }

    #[test]
    fn python_chess_order_of_endings() {
        // Stalemated with a lone bishop: python-chess names the material first.
        let s = stack("7k/5K2/6B1/8/8/8/8/8 b - - 0 1", "");
        assert!(s.position().is_stalemate());
        assert_eq!(s.outcome(false), Some(Termination::InsufficientMaterial));
        let s = stack("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "");
        assert_eq!(s.outcome(false), Some(Termination::Stalemate));
        let s = stack("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "");
        assert_eq!(
            s.outcome(false),
            Some(Termination::Checkmate {
                winner: Color::White
            })
        );
        let s = stack("8/8/4k3/8/8/3RK3/8/8 w - - 99 80", "");
        assert!(!s.is_fifty_moves() && s.can_claim_fifty_moves());
        assert_eq!(s.outcome(false), None);
        assert_eq!(s.outcome(true), Some(Termination::FiftyMoveRule));
        let s = stack("8/8/4k3/8/8/3RK3/8/8 w - - 150 80", "");
        assert!(s.is_seventyfive_moves());
        assert_eq!(s.outcome(false), Some(Termination::SeventyFiveMoveRule));
    }

    #[test]
    fn moves_asked_before_they_are_played() {
        let pos = Position::new();
        let e4 = pos.parse_move("e4").expect("legal");
        assert!(pos.is_legal(e4) && !pos.gives_check(e4));
        let mate = stack(START, "f3 e5 g4");
        let qh4 = mate.position().parse_move("Qh4").expect("legal");
        assert!(mate.position().gives_check(qh4));
        assert!(!pos.is_legal(qh4));
        let mut s = MoveStack::new(Position::new());
        assert!(!s.play(qh4) && s.is_empty());
        assert!(
            Position::from_arg("8/8/4k3/8/8/3NK3/8/8 w - - 0 1")
                .expect("legal")
                .is_insufficient_material()
        );
    }
}
