//! [`PosKey`]: the 96-bit key a position is stored under, and the 16-bit code of a move.

use std::hash::Hasher as _;

use siphasher::sip128::{Hasher128 as _, SipHasher13};
use tabia_position::{
    Position,
    shakmaty::{CastlingMode, Move, uci::UciMove},
};

/// The key of a position in the index: 96 bits of SipHash-1-3 over tabia's
/// [`PositionKey`](tabia_position::PositionKey) (placement, side to move, castling rights,
/// the en-passant square when a capture is legal, the variant, pockets and checks) and
/// whether Chess960 castling rules, so that move orders meet and variants and Chess960 are
/// keyed apart. Two positions share a key with a probability of about n²/2⁹⁷: one in a
/// hundred billion at a billion positions.
///
/// ```
/// use tabia_index::PosKey;
/// use tabia_position::Position;
///
/// let a = Position::new().after("d4")?.after("f5")?.after("g3")?;
/// let b = Position::new().after("g3")?.after("f5")?.after("d4")?;
/// assert_eq!(PosKey::of(&a), PosKey::of(&b));
/// assert_ne!(PosKey::of(&a), PosKey::of(&Position::new()));
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PosKey(pub [u8; 12]);

impl PosKey {
    /// The key of a position.
    pub fn of(pos: &Position) -> PosKey {
        let mut hasher = SipHasher13::new_with_keys(0x7461_6269_6120_6b65, 0x7920_7631_2070_6f73);
        hasher.write(&pos.key().to_bytes());
        hasher.write_u8(u8::from(pos.castling_mode() == CastlingMode::Chess960));
        let hash = hasher.finish128().as_u128().to_be_bytes();
        let mut key = [0; 12];
        key.copy_from_slice(&hash[..12]);
        PosKey(key)
    }
}

/// The code of "no move": the position ended the game, or the indexed plies.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// A move in 16 bits: from (6 bits), to (6), promotion (3); a drop sets bit 15 with its role.
/// Castling is coded king to rook, as in Chess960.
pub(crate) fn encode_move(m: Move) -> u16 {
    match m.to_uci(CastlingMode::Chess960) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from as u16) | ((to as u16) << 6) | (promotion.map_or(0, |r| r as u16) << 12),
        UciMove::Put { role, to } => 0x8000 | (to as u16) | ((role as u16) << 12),
        UciMove::Null => NO_MOVE,
    }
}

/// The legal move of `pos` whose code is `code`.
pub(crate) fn decode_move(pos: &Position, code: u16) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    pos.legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == code)
}

/// The move in UCI as lichess writes it: `e1g1` for castling in standard chess, king to rook
/// in Chess960.
pub(crate) fn uci(pos: &Position, m: Move) -> String {
    m.to_uci(pos.castling_mode()).to_string()
}

/// Whether a role code fits (for decoding a drop's role).
#[cfg(test)]
pub(crate) fn role_code(role: tabia_position::shakmaty::Role) -> u16 {
    role as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_round_trips() {
        let positions = [
            Position::new(),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                .parse::<Position>()
                .expect("kiwipete"),
            "8/P7/8/8/8/8/k6K/8 w - - 0 1".parse().expect("promotion"),
        ];
        for pos in positions {
            let moves = pos.legal_moves();
            assert!(!moves.is_empty());
            for &m in &moves {
                let code = encode_move(m);
                assert_ne!(code, NO_MOVE);
                assert_eq!(decode_move(&pos, code), Some(m), "{m:?}");
            }
        }
        assert!(role_code(tabia_position::shakmaty::Role::King) < 8);
    }

    #[test]
    fn castling_is_written_as_lichess_writes_it() {
        let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().expect("fen");
        let castle = pos.parse_move("O-O").expect("legal");
        assert_eq!(uci(&pos, castle), "e1g1");
        assert_eq!(decode_move(&pos, encode_move(castle)), Some(castle));
    }
}
