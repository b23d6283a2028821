//! Perft through our own position wiring proves that positions reach shakmaty's move generator
//! intact (standard and Chess960 castling, en passant, promotions).

use tabia_position::{Position, shakmaty::perft};

fn count(fen: &str, depth: u32) -> u64 {
    let pos: Position = fen.parse().expect("legal position");
    perft(pos.chess(), depth)
}

#[test]
fn startpos() {
    assert_eq!(count("startpos", 4), 197_281);
}

#[test]
fn kiwipete() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(count(fen, 3), 97_862);
}

#[test]
fn chess960_detected_from_castling_letters() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let pos: Position = fen.parse().expect("legal position");
    assert_eq!(
        pos.castling_mode(),
        tabia_position::shakmaty::CastlingMode::Chess960
    );
    assert_eq!(count(fen, 3), 12_189);
}

#[test]
fn en_passant_and_promotions() {
    // Position 3 of the chessprogramming wiki perft results.
    assert_eq!(
        count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        43_238
    );
}
