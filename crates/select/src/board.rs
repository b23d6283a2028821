//! The board seen by content: for each kind of square content (empty, or one of the twelve
//! pieces), the squares that hold it. Patterns and material descriptions both read boards
//! this way.

use tabia_position::shakmaty::{Bitboard, Board, Color, Piece, Role};

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
