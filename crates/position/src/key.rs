//! [`PositionKey`]: chess-fen's `fenstr2key` as a compact binary value.

use std::fmt;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Chess, Color, File, Position as _, Rank, Role, Square,
    variant::{Variant, VariantPosition},
};

use crate::write;

/// The key of a position: piece placement, side to move, castling rights, and the en-passant
/// square only when an en-passant capture is legal. Move counters are left out, so a position
/// has one key however it was reached (1.d4 f5 2.g3 and 1.g3 f5 2.d4 meet).
///
/// It is 48 bytes, `Copy`, and hashes and compares fast: use it as a `HashMap` key. Its
/// `Display` is the string form of chess-fen's `fenstr2key`: the EPD's four fields
/// (`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -`).
///
/// ```
/// use std::collections::HashMap;
/// use tabia_position::{Position, PositionKey};
///
/// let mut table: HashMap<PositionKey, &str> = HashMap::new();
/// table.insert(Position::new().key(), "start");
/// let after_e4 = Position::new().after("e4")?;
/// assert_eq!(after_e4.key().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
/// assert_eq!(table.get(&Position::new().key()), Some(&"start"));
/// assert_eq!(PositionKey::from_bytes(&after_e4.key().to_bytes()), Some(after_e4.key()));
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionKey {
    /// White pieces, then three bit planes of the role (1 = pawn … 6 = king).
    planes: [u64; 4],
    /// Bit 0: black to move; bits 1–4: en-passant file + 1 (0 for none); bits 8–15: castling
    /// rook files on rank 1; bits 16–23: castling rook files on rank 8.
    meta: u32,
    /// 0 for standard chess. Variants: bits 0–2 the variant ([`VARIANTS`]), bits 3–6 the
    /// remaining checks (white, black; 2 bits each), bits 7–56 the pocket counts (white then
    /// black, pawn to queen, 5 bits each, at most 31).
    extra: u64,
}

/// Length of [`PositionKey::to_bytes`].
const KEY_BYTES: usize = 44;

/// The variants by their code in [`PositionKey`] (0 is standard chess).
const VARIANTS: [Variant; 8] = [
    Variant::Chess,
    Variant::Atomic,
    Variant::Antichess,
    Variant::KingOfTheHill,
    Variant::ThreeCheck,
    Variant::Crazyhouse,
    Variant::RacingKings,
    Variant::Horde,
];

/// The roles a pocket can hold, in key order.
const POCKET_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

impl PositionKey {
    /// The key of a shakmaty position (same as [`crate::Position::key`]).
    pub fn from_chess(pos: &Chess) -> PositionKey {
        PositionKey::of(pos, 0)
    }

    /// The key of a position of any variant: the fields of [`PositionKey::from_chess`], the
    /// variant, the remaining checks and the pockets (not which pieces are promoted).
    pub fn from_variant(pos: &VariantPosition) -> PositionKey {
        let code = VARIANTS
            .iter()
            .position(|v| *v == pos.variant())
            .unwrap_or(0) as u64;
        let mut extra = code;
        if let Some(checks) = pos.remaining_checks() {
            extra |= u64::from(u32::from(checks.white).min(3)) << 3;
            extra |= u64::from(u32::from(checks.black).min(3)) << 5;
        }
        if let Some(pockets) = pos.pockets() {
            let mut shift = 7;
            for color in Color::ALL {
                for role in POCKET_ROLES {
                    extra |= u64::from((*pockets.get(color).get(role)).min(31)) << shift;
                    shift += 5;
                }
            }
        }
        PositionKey::of(pos, extra)
    }

    #[inline]
    fn of<P: shakmaty::Position>(pos: &P, extra: u64) -> PositionKey {
        let board = pos.board();
        let pawn = board.pawns().0;
        let knight = board.knights().0;
        let bishop = board.bishops().0;
        let rook = board.rooks().0;
        let queen = board.queens().0;
        let king = board.kings().0;
        let planes = [
            board.white().0,
            pawn | bishop | queen,
            knight | bishop | king,
            rook | queen | king,
        ];
        let rights = pos.castles().castling_rights().0;
        let ep = pos.legal_ep_square().map_or(0, |sq| sq.file().to_u32() + 1);
        let meta = u32::from(pos.turn().is_black())
            | (ep << 1)
            | (((rights & 0xff) as u32) << 8)
            | (((rights >> 56) as u32) << 16);
        PositionKey {
            planes,
            meta,
            extra,
        }
    }

    /// The variant whose rules the key's position follows.
    pub fn variant(&self) -> Variant {
        VARIANTS[(self.extra & 7) as usize]
    }

    /// Three-check: the checks each side still has to give (white, black).
    pub fn remaining_checks(&self) -> Option<(u8, u8)> {
        (self.variant() == Variant::ThreeCheck)
            .then_some((((self.extra >> 3) & 3) as u8, ((self.extra >> 5) & 3) as u8))
    }

    /// Crazyhouse: the pieces in hand of each side.
    pub fn pockets(&self) -> Option<ByColor<ByRole<u8>>> {
        (self.variant() == Variant::Crazyhouse).then(|| {
            let mut pockets = ByColor::<ByRole<u8>>::default();
            let mut shift = 7;
            for color in Color::ALL {
                for role in POCKET_ROLES {
                    *pockets.get_mut(color).get_mut(role) = ((self.extra >> shift) & 31) as u8;
                    shift += 5;
                }
            }
            pockets
        })
    }

    /// The board of the key.
    pub fn board(&self) -> Board {
        let [white, b0, b1, b2] = self.planes;
        let by_role = ByRole {
            pawn: Bitboard(b0 & !b1 & !b2),
            knight: Bitboard(!b0 & b1 & !b2),
            bishop: Bitboard(b0 & b1 & !b2),
            rook: Bitboard(!b0 & !b1 & b2),
            queen: Bitboard(b0 & !b1 & b2),
            king: Bitboard(!b0 & b1 & b2),
        };
        let occupied = b0 | b1 | b2;
        let by_color = ByColor {
            white: Bitboard(white & occupied),
            black: Bitboard(!white & occupied),
        };
        // The planes were built from a valid board, or checked by `from_bytes`.
        Board::try_from_bitboards(by_role, by_color).unwrap_or_else(|_| Board::empty())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        Color::from_white(self.meta & 1 == 0)
    }

    /// The en-passant square, present only when an en-passant capture is legal.
    pub fn ep_square(&self) -> Option<Square> {
        let file = (self.meta >> 1) & 0xf;
        (file != 0).then(|| {
            let rank = self.turn().fold_wb(Rank::Sixth, Rank::Third);
            Square::from_coords(File::new(file - 1), rank)
        })
    }

    /// The castling rights as the squares of the rooks that may castle.
    pub fn castling_rights(&self) -> Bitboard {
        let low = u64::from((self.meta >> 8) & 0xff);
        let high = u64::from((self.meta >> 16) & 0xff);
        Bitboard(low | (high << 56))
    }

    /// The key as 36 bytes (little-endian planes, then the metadata), e.g. to embed a table.
    pub fn to_bytes(&self) -> [u8; KEY_BYTES] {
        let mut out = [0u8; KEY_BYTES];
        for (chunk, plane) in out.chunks_exact_mut(8).zip(self.planes) {
            chunk.copy_from_slice(&plane.to_le_bytes());
        }
        out[32..36].copy_from_slice(&self.meta.to_le_bytes());
        out[36..].copy_from_slice(&self.extra.to_le_bytes());
        out
    }

    /// The key from [`PositionKey::to_bytes`]; `None` if the bytes are not a key's (a role
    /// code 7, a white square that is empty, or unknown metadata bits).
    pub fn from_bytes(bytes: &[u8]) -> Option<PositionKey> {
        if bytes.len() != KEY_BYTES {
            return None;
        }
        let mut planes = [0u64; 4];
        for (plane, chunk) in planes.iter_mut().zip(bytes.chunks_exact(8)) {
            *plane = u64::from_le_bytes(chunk.try_into().ok()?);
        }
        let meta = u32::from_le_bytes(bytes[32..36].try_into().ok()?);
        let extra = u64::from_le_bytes(bytes[36..].try_into().ok()?);
        let [white, b0, b1, b2] = planes;
        let occupied = b0 | b1 | b2;
        let valid = b0 & b1 & b2 == 0
            && white & !occupied == 0
            && meta & 0xff00_00e0 == 0
            && (meta >> 1) & 0xf <= 8
            && extra >> 57 == 0;
        valid.then_some(PositionKey {
            planes,
            meta,
            extra,
        })
    }
}

impl fmt::Display for PositionKey {
    /// `placement side castling ep`, the string form of chess-fen's `fenstr2key`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        let mut buf = Vec::with_capacity(80);
        write::push_placement(&mut buf, &board);
        if let Some(pockets) = self.pockets() {
            write::push_pockets(&mut buf, &pockets);
        }
        buf.push(b' ');
        buf.push(self.turn().fold_wb(b'w', b'b'));
        buf.push(b' ');
        write::push_castling(&mut buf, &board, self.castling_rights());
        buf.push(b' ');
        match self.ep_square() {
            Some(sq) => {
                buf.push(sq.file().char() as u8);
                buf.push(sq.rank().char() as u8);
            }
            None => buf.push(b'-'),
        }
        if let Some((white, black)) = self.remaining_checks() {
            buf.push(b' ');
            write::push_u32(&mut buf, u32::from(white));
            buf.push(b'+');
            write::push_u32(&mut buf, u32::from(black));
        }
        f.write_str(&String::from_utf8_lossy(&buf))
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Chess960)
            .expect("position")
    }

    #[test]
    fn clocks_and_useless_ep_do_not_count() {
        let a = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        let b = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 30");
        assert_eq!(PositionKey::from_chess(&a), PositionKey::from_chess(&b));
    }

    #[test]
    fn legal_ep_counts_and_prints() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        let key = PositionKey::from_chess(&chess(fen));
        assert_eq!(
            key.to_string(),
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6"
        );
        assert_eq!(key.ep_square(), Some(Square::F6));
        let other = chess("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        assert_ne!(key, PositionKey::from_chess(&other));
    }

    #[test]
    fn chess960_castling_and_bytes_round_trip() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let key = PositionKey::from_chess(&chess(fen));
        assert_eq!(
            key.to_string(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq -"
        );
        assert_eq!(PositionKey::from_bytes(&key.to_bytes()), Some(key));
        assert_eq!(PositionKey::from_bytes(&[0xff; KEY_BYTES]), None);
        assert_eq!(PositionKey::from_bytes(&[0; 3]), None);
    }
}
