//! Writers of the FEN and EPD fields straight from a board into a byte buffer: no formatting
//! machinery, no allocation when the buffer has room.

use shakmaty::{Bitboard, Board, Color, Piece, Rank, Role};

/// Appends the piece placement field (`rnbqkbnr/pppppppp/8/...`).
pub(crate) fn push_placement(buf: &mut Vec<u8>, board: &Board) {
    let mut cells = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece { color, role };
            let ch = piece.char() as u8;
            for sq in board.by_piece(piece) {
                cells[sq.to_usize()] = ch;
            }
        }
    }
    for rank in (0..8).rev() {
        let row = &cells[rank * 8..rank * 8 + 8];
        let mut empty = 0u8;
        for &c in row {
            if c == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    buf.push(b'0' + empty);
                    empty = 0;
                }
                buf.push(c);
            }
        }
        if empty > 0 {
            buf.push(b'0' + empty);
        }
        if rank > 0 {
            buf.push(b'/');
        }
    }
}

/// Appends the castling field for the castling rights given as rook squares: `KQkq` for the
/// outermost rooks (standard chess and X-FEN), the rook's file letter otherwise, `-` for none.
pub(crate) fn push_castling(buf: &mut Vec<u8>, board: &Board, rights: Bitboard) {
    let start = buf.len();
    for color in Color::ALL {
        let back = color.fold_wb(Rank::First, Rank::Eighth);
        let ours = rights & Bitboard::from_rank(back);
        if ours.is_empty() {
            continue;
        }
        let rooks = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(back);
        let king = board.king_of(color).filter(|k| k.rank() == back);
        // King side first (files descending), then queen side (files descending).
        for sq in ours.into_iter().rev() {
            let letter = match king {
                Some(k) if sq.file() > k.file() => {
                    let outermost = rooks.into_iter().next_back() == Some(sq);
                    if outermost {
                        b'k'
                    } else {
                        sq.file().char() as u8
                    }
                }
                Some(k) if sq.file() < k.file() => {
                    let outermost = rooks.into_iter().next() == Some(sq);
                    if outermost {
                        b'q'
                    } else {
                        sq.file().char() as u8
                    }
                }
                _ => sq.file().char() as u8,
            };
            buf.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if buf.len() == start {
        buf.push(b'-');
    }
}

/// Appends a decimal number.
pub(crate) fn push_u32(buf: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let mut buf = Vec::new();
        for n in [0, 7, 10, 4_294_967_295] {
            push_u32(&mut buf, n);
            buf.push(b' ');
        }
        assert_eq!(buf, b"0 7 10 4294967295 ");
    }

    #[test]
    fn placement_of_start() {
        let mut buf = Vec::new();
        push_placement(&mut buf, &Board::new());
        assert_eq!(buf, b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        buf.clear();
        push_castling(&mut buf, &Board::new(), Bitboard::CORNERS);
        assert_eq!(buf, b"KQkq");
    }

    #[test]
    fn castling_of_chess960_inner_rook() {
        // Rooks on b1 and g1, king on e1; only the b1 rook has its right.
        let board: Board = "4k3/8/8/8/8/8/8/1R2K1R1".parse().expect("board");
        let mut buf = Vec::new();
        push_castling(
            &mut buf,
            &board,
            Bitboard::from_square(shakmaty::Square::B1),
        );
        assert_eq!(buf, b"Q");
        buf.clear();
        let board: Board = "4k3/8/8/8/8/8/8/RR2K1R1".parse().expect("board");
        push_castling(
            &mut buf,
            &board,
            Bitboard::from_square(shakmaty::Square::B1),
        );
        assert_eq!(buf, b"B");
    }
}
