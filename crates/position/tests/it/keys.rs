//! Position keys and Zobrist hashes.

use std::collections::HashSet;

use tabia_position::{EpRule, Position, PositionKey};

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
