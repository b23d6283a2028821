//! The Polyglot move encoding, shared by the tree (its edges) and the `.bin` books.
//!
//! A move is 16 bits: `to` file (bits 0–2), `to` rank (3–5), `from` file (6–8), `from` rank
//! (9–11), promotion piece (12–14: none 0, knight 1, bishop 2, rook 3, queen 4). Castling is
//! written as the king taking its own rook (`e1h1`, `e1a1`), in standard chess as in Chess960.

use tabia_position::{
    Position,
    shakmaty::{File, Move, Rank, Role, Square, uci::UciMove},
};

/// The Polyglot code of a move. A drop (Crazyhouse), which Polyglot has no code for, gets one
/// with bit 15 set (`0x8000 | role << 6 | to`), which no Polyglot move has, so that a tree of
/// Crazyhouse games still tells drops apart.
///
/// ```
/// use tabia_book::encode_move;
/// use tabia_position::Position;
///
/// let pos = Position::new();
/// let e4 = pos.parse_move("e4")?;
/// assert_eq!(encode_move(e4), 0x031c); // e2e4: from e2 (rank 1, file 4), to e4 (rank 3, file 4)
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
pub fn encode_move(m: Move) -> u16 {
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => code(from, to, promotion),
        Move::EnPassant { from, to } => code(from, to, None),
        Move::Castle { king, rook } => code(king, rook, None),
        Move::Put { role, to } => 0x8000 | ((role as u16) << 6) | (to as u16),
    }
}

fn code(from: Square, to: Square, promotion: Option<Role>) -> u16 {
    let promotion = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (to.file() as u16)
        | ((to.rank() as u16) << 3)
        | ((from.file() as u16) << 6)
        | ((from.rank() as u16) << 9)
        | (promotion << 12)
}

/// The legal move of `pos` whose Polyglot code is `code`, if there is one.
///
/// ```
/// use tabia_book::{decode_move, encode_move};
/// use tabia_position::Position;
///
/// let pos = Position::from_arg("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -")?;
/// let castle = decode_move(&pos, 0x0107).expect("e1h1 is O-O");
/// assert_eq!(pos.san(castle).to_string(), "O-O");
/// assert_eq!(encode_move(castle), 0x0107);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn decode_move(pos: &Position, code: u16) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == code)
}

/// The squares and promotion of a code, as text in the UCI form the code spells (`e1h1`
/// for castling, `a7a8q`): for a code that no position explains.
///
/// ```
/// assert_eq!(tabia_book::code_text(0x031c), "e2e4");
/// assert_eq!(tabia_book::code_text(0x4c38), "a7a8q");
/// ```
pub fn code_text(code: u16) -> String {
    let square = |bits: u16| {
        let file = File::new(u32::from(bits & 7));
        let rank = Rank::new(u32::from((bits >> 3) & 7));
        Square::from_coords(file, rank)
    };
    let from = square(code >> 6);
    let to = square(code);
    let promotion = match (code >> 12) & 7 {
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        5 => "?5",
        6 => "?6",
        7 => "?7",
        _ => "",
    };
    format!("{from}{to}{promotion}")
}

/// The UCI text of a legal move: castling as the king's two-square move in standard chess
/// (`e1g1`), as king-takes-rook in Chess960 (`UciMove` in the position's castling mode).
pub(crate) fn uci(pos: &Position, m: Move) -> String {
    UciMove::from_move(m, pos.castling_mode()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_round_trips() {
        let fens = [
            "startpos",
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        for fen in fens {
            let pos = Position::from_arg(fen).expect("position");
            for m in pos.legal_moves() {
                let code = encode_move(m);
                assert_eq!(decode_move(&pos, code), Some(m), "{fen}: {m:?}");
                assert_ne!(code, 0);
            }
        }
    }

    #[test]
    fn promotions_and_castling_codes() {
        let pos =
            Position::from_arg("r3k2r/pPpp1ppp/8/8/8/8/P1PP1PPP/R3K2R w KQkq -").expect("position");
        let codes: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| code_text(encode_move(m)))
            .collect();
        for expected in ["b7a8q", "b7a8n", "b7b8r", "b7b8b", "e1h1", "e1a1"] {
            assert!(
                codes.iter().any(|c| c == expected),
                "{expected} in {codes:?}"
            );
        }
    }
}
