//! The board seen by content: for each kind of square content (empty, or one of the twelve
//! pieces), the squares that hold it. Patterns and material descriptions both read boards
//! this way.

use tabia_position::shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

/// The kinds of square content, as indices into [`contents`]: 0 is an empty square, 1–6 the
/// white pawn, knight, bishop, rook, queen and king, 7–12 the black ones.
pub(crate) const KINDS: usize = 13;

/// The index in [`contents`] of `piece`.
pub(crate) fn kind(piece: Piece) -> usize {
    let role = piece.role as usize; // Pawn = 1 … King = 6
    match piece.color {
        Color::White => role,
        Color::Black => role + 6,
    }
}

/// The index in [`contents`] of the pieces of `role` and `color`.
pub(crate) fn kind_of(color: Color, role: Role) -> usize {
    kind(Piece { color, role })
}

/// For each kind of content, the squares of `board` that hold it.
pub(crate) fn contents(board: &Board) -> [Bitboard; KINDS] {
    let mut out = [Bitboard::EMPTY; KINDS];
    out[0] = !board.occupied();
    for color in Color::ALL {
        let ours = board.by_color(color);
        for role in Role::ALL {
            out[kind_of(color, role)] = ours & board.by_role(role);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use tabia_position::{Position, shakmaty::Square};

    use super::*;

    #[test]
    fn every_square_is_of_one_kind() {
        let pos = Position::from_arg(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let board = pos.board();
        let c = contents(board);
        for square in Square::ALL {
            let kinds: Vec<usize> = (0..KINDS).filter(|&k| c[k].contains(square)).collect();
            let want = board.piece_at(square).map_or(0, kind);
            assert_eq!(kinds, [want], "{square}");
        }
    }
}

/// Squares a position must get pawns onto, each with the squares a pawn must stand on now to
/// get there ([`pawn_cone`]): what a game that has lost those pawns can no longer reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PawnCones {
    /// For each square (white's, then black's), its cone.
    cones: [Vec<Bitboard>; 2],
    /// All of a colour's cones together.
    union: [Bitboard; 2],
}

impl PawnCones {
    /// The cones of every pawn on `board`.
    pub(crate) fn of(board: &Board) -> PawnCones {
        let mut cones = PawnCones::default();
        for color in Color::ALL {
            for square in board.by_color(color) & board.pawns() {
                cones.push(color, square);
            }
        }
        cones
    }

    /// Adds `square`, to get a pawn of `color` onto.
    pub(crate) fn push(&mut self, color: Color, square: Square) {
        let cone = pawn_cone(color, square);
        self.cones[color as usize].push(cone);
        self.union[color as usize] |= cone;
    }

    /// Whether the pawns of `board` may still get onto the squares: each square needs a pawn
    /// in its cone, and a colour's squares together as many pawns in their cones (a necessary
    /// condition for each to get a pawn of its own).
    pub(crate) fn allow(&self, board: &Board) -> bool {
        Color::ALL.into_iter().all(|color| {
            let c = color as usize;
            let pawns = board.by_color(color) & board.pawns();
            (pawns & self.union[c]).count() >= self.cones[c].len()
                && self.cones[c].iter().all(|cone| (pawns & *cone).any())
        })
    }
}

/// The squares from which a pawn of `color` can still get to `target`: on its rank or behind
/// it, at most as many files aside as ranks behind (a pawn moves a rank forward, a file aside
/// when it captures). Empty where such a pawn can never stand (the first and last ranks).
pub(crate) fn pawn_cone(color: Color, target: Square) -> Bitboard {
    // Ranks counted from the colour's own side: a white pawn stands on ranks 2–7.
    let rank_from_home = |square: Square| match color {
        Color::White => square.rank() as u32,
        Color::Black => 7 - square.rank() as u32,
    };
    let to = rank_from_home(target);
    if !(1..=6).contains(&to) {
        return Bitboard::EMPTY;
    }
    Square::ALL
        .into_iter()
        .filter(|&from| {
            let rank = rank_from_home(from);
            (1..=to).contains(&rank) && target.file().distance(from.file()) <= to - rank
        })
        .collect()
}
