//! Position keys and Zobrist hashes.

use std::collections::HashSet;

use tabia_position::{EpRule, Position, PositionKey, ZobristTracker};

fn after(moves: &str) -> Position {
    moves
        .split_whitespace()
        .try_fold(Position::new(), Position::after)
        .expect("legal moves")
}

#[test]
fn transpositions_share_a_key() {
    let a = after("d4 f5 g3");
    let b = after("g3 f5 d4");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.zobrist(), b.zobrist());
    assert_ne!(a.fen(EpRule::Always), b.fen(EpRule::Always));
    assert_eq!(
        a.key().to_string(),
        "rnbqkbnr/ppppp1pp/8/5p2/3P4/6P1/PPP1PP1P/RNBQKBNR b KQkq -"
    );
}

#[test]
fn polyglot_reference_hashes() {
    // From the Polyglot book format specification.
    let cases = [
        ("", 0x463b_9618_1691_fc9c_u64),
        ("e4", 0x823c_9b50_fd11_4196),
        ("e4 d5", 0x0756_b944_61c5_0fb0),
        ("e4 d5 e5", 0x662f_afb9_65db_29d4),
        ("e4 d5 e5 f5", 0x22a4_8b5a_8e47_ff78),
        ("e4 d5 e5 f5 Ke2", 0x652a_607c_a3f2_42c1),
        ("e4 d5 e5 f5 Ke2 Kf7", 0x00fd_d303_c946_bdd9),
    ];
    for (moves, hash) in cases {
        let pos = after(moves);
        assert_eq!(pos.zobrist(), hash, "after {moves:?}");
    }
}

#[test]
fn incremental_zobrist_matches_scratch() {
    let mut pos = Position::new();
    let mut hash = pos.zobrist();
    for san in [
        "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "c6", "Nf3", "Bg4",
    ] {
        let m = pos.parse_move(san).expect("legal");
        hash = pos.play_zobrist(hash, m);
        assert_eq!(hash, pos.zobrist(), "after {san}");
    }
}

#[test]
fn keys_are_distinct_over_a_game() {
    let mut pos = Position::new();
    let mut seen = HashSet::new();
    seen.insert(pos.key());
    for san in [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ] {
        pos = pos.after(san).expect("legal");
        assert!(seen.insert(pos.key()), "key repeated after {san}");
        let key = pos.key();
        assert_eq!(PositionKey::from_bytes(&key.to_bytes()), Some(key));
        assert_eq!(key.to_string(), pos.epd(EpRule::Legal));
    }
}

/// Start positions for random games: the standard one, Chess960 ones (castling with the rook
/// on other files, the king between them) and one where both sides can soon take en passant.
const STARTS: &[&str] = &[
    "startpos",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1",
    "4k3/1p1p1p1p/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// The hash updated move by move (by the player, and by a tracker shown the positions) is
    /// the hash computed afresh, in random legal games that castle, take en passant, promote
    /// and lose castling rights (standard chess and Chess960).
    #[test]
    fn incremental_zobrist_matches_scratch_in_random_games(
        start in 0..STARTS.len(),
        picks in proptest::collection::vec(proptest::prelude::any::<u16>(), 1..300),
    ) {
        let mut pos = Position::from_arg(STARTS[start]).expect("a start position");
        let mut hash = pos.zobrist();
        // The same hashes from the positions alone, as a replay's callback sees them.
        let mut tracker = ZobristTracker::default();
        proptest::prop_assert_eq!(tracker.after(&pos, None), hash);
        for pick in picks {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[usize::from(pick) % moves.len()];
            hash = pos.play_zobrist(hash, m);
            proptest::prop_assert_eq!(hash, pos.zobrist(), "after {:?} in {}", m, pos.fen(EpRule::Always));
            proptest::prop_assert_eq!(tracker.after(&pos, Some(m)), hash, "tracker after {:?}", m);
        }
    }
}

#[test]
fn chess960_starts_are_read_as_chess960() {
    for fen in &STARTS[1..4] {
        let pos = Position::from_arg(fen).expect("a start position");
        assert_eq!(
            pos.castling_mode(),
            tabia_position::shakmaty::CastlingMode::Chess960,
            "{fen}"
        );
    }
}
