//! Writers of the FEN and EPD fields straight from a board into a byte buffer: no formatting
//! machinery, no allocation when the buffer has room.

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Rank, Role, Square};

/// FEN letters by piece code: bit 3 white, bits 0–2 the role planes of [`codes`].
const LETTERS: &[u8; 16] = b".pnbrqk..PNBRQK.";

/// The piece code planes of a board: pawn|bishop|queen, knight|bishop|king, rook|queen|king,
/// white. A square's code is one bit of each (see [`LETTERS`]).
fn codes(board: &Board) -> [u64; 4] {
    let (p, n, b) = (board.pawns().0, board.knights().0, board.bishops().0);
    let (r, q, k) = (board.rooks().0, board.queens().0, board.kings().0);
    [p | b | q, n | b | k, r | q | k, board.white().0]
}

/// `SPREAD[x]` has bit `f` of `x` as the low bit of its byte `f`.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut f = 0;
        while f < 8 {
            table[x] |= (((x >> f) & 1) as u64) << (8 * f);
            f += 1;
        }
        x += 1;
    }
    table
};

/// The shape of a rank's text by its occupancy: the text with digits for the empty runs and
/// 0 where pieces go, its length, and where each piece (in file order) goes.
#[derive(Clone, Copy)]
struct Shape {
    text: [u8; 8],
    len: u8,
    slots: [u8; 8],
}

const SHAPES: [Shape; 256] = {
    let mut table = [Shape {
        text: [0; 8],
        len: 0,
        slots: [0; 8],
    }; 256];
    let mut occ = 0;
    while occ < 256 {
        let mut shape = Shape {
            text: [0; 8],
            len: 0,
            slots: [0; 8],
        };
        let (mut n, mut pieces, mut empty, mut f) = (0, 0, 0u8, 0);
        while f < 8 {
            if (occ >> f) & 1 == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    shape.text[n] = b'0' + empty;
                    n += 1;
                    empty = 0;
                }
                shape.slots[pieces] = n as u8;
                pieces += 1;
                n += 1;
            }
            f += 1;
        }
        if empty > 0 {
            shape.text[n] = b'0' + empty;
            n += 1;
        }
        shape.len = n as u8;
        table[occ] = shape;
        occ += 1;
    }
    table
};

/// Appends the piece placement field (`rnbqkbnr/pppppppp/8/...`).
pub(crate) fn push_placement(buf: &mut Vec<u8>, board: &Board) {
    let [b0, b1, b2, w] = codes(board);
    let occupied = board.occupied().0;
    // At most 8 bytes and a slash per rank; a rank's 8-byte shape is copied whole.
    let mut out = [0u8; 72];
    let mut n = 0;
    for rank in (0..8u32).rev() {
        let shift = rank * 8;
        let byte = |plane: u64| ((plane >> shift) & 0xff) as usize;
        let occ = byte(occupied);
        let codes = (SPREAD[byte(b0)]
            | (SPREAD[byte(b1)] << 1)
            | (SPREAD[byte(b2)] << 2)
            | (SPREAD[byte(w)] << 3))
            .to_le_bytes();
        let shape = &SHAPES[occ];
        out[n..n + 8].copy_from_slice(&shape.text);
        let mut bits = occ;
        let mut piece = 0;
        while bits != 0 {
            let file = bits.trailing_zeros() as usize;
            out[n + usize::from(shape.slots[piece])] = LETTERS[usize::from(codes[file] & 0xf)];
            piece += 1;
            bits &= bits - 1;
        }
        n += usize::from(shape.len);
        out[n] = b'/';
        n += 1;
    }
    buf.extend_from_slice(&out[..n - 1]);
}

/// Appends the placement with a `~` after each promoted piece (Crazyhouse).
pub(crate) fn push_placement_promoted(buf: &mut Vec<u8>, board: &Board, promoted: Bitboard) {
    for rank in (0..8u32).rev() {
        let mut empty = 0u8;
        for file in 0..8u32 {
            let sq = Square::new(rank * 8 + file);
            match board.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        buf.push(b'0' + empty);
                        empty = 0;
                    }
                    buf.push(piece.char() as u8);
                    if promoted.contains(sq) {
                        buf.push(b'~');
                    }
                }
                None => empty += 1,
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

/// Appends the Crazyhouse pockets, `[QPpp]`: white's pieces then black's, kings first and
/// pawns last (as python-chess and shakmaty write them).
pub(crate) fn push_pockets(buf: &mut Vec<u8>, pockets: &ByColor<ByRole<u8>>) {
    buf.push(b'[');
    for color in Color::ALL {
        for role in Role::ALL.into_iter().rev() {
            let letter = role.of(color).char() as u8;
            for _ in 0..*pockets.get(color).get(role) {
                buf.push(letter);
            }
        }
    }
    buf.push(b']');
}

/// Appends the castling field of standard chess (rooks in the corners): `KQkq`, a subset, or
/// `-`.
pub(crate) fn push_standard_castling(buf: &mut Vec<u8>, rights: Bitboard) {
    let start = buf.len();
    for (sq, letter) in [
        (shakmaty::Square::H1, b'K'),
        (shakmaty::Square::A1, b'Q'),
        (shakmaty::Square::H8, b'k'),
        (shakmaty::Square::A8, b'q'),
    ] {
        if rights.contains(sq) {
            buf.push(letter);
        }
    }
    if buf.len() == start {
        buf.push(b'-');
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
pub(crate) fn push_u32(buf: &mut Vec<u8>, n: u32) {
    let mut digits = [0; 39];
    buf.extend_from_slice(tabia_notation::decimal_digits(n.into(), &mut digits).as_bytes());
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
