//! FEN → position → FEN round-trips and SAN round-trips over random legal games.

use proptest::prelude::*;
use tabia_position::{EpRule, Position};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fen_and_san_round_trip(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut pos = Position::new();
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[usize::from(choice) % moves.len()];
            // Canonical SAN parses back to the same move.
            let san = pos.san(m).to_string();
            prop_assert_eq!(pos.parse_move(&san).ok(), Some(m), "{} in {}", san, pos);
            pos.play_unchecked(m);
            for ep in [EpRule::Always, EpRule::Legal, EpRule::PseudoLegal] {
                let fen = pos.fen(ep);
                let back: Position = fen.parse().map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
                prop_assert_eq!(back.fen(ep), fen.clone());
                prop_assert_eq!(back.key(), pos.key());
                prop_assert_eq!(back.zobrist(), pos.zobrist());
                prop_assert_eq!(pos.to_fen(ep).to_string(), fen);
            }
            prop_assert_eq!(pos.key().to_string(), pos.epd(EpRule::Legal));
        }
    }
}
