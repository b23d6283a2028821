//! Replay of the random variant games of `fixtures/variants/games.pgn` (played by python-chess's
//! `chess.variant` boards, written by `cargo xtask variant-games`): every game replays, ends in
//! python-chess's final position (`games.fen`), and every position on the way round-trips
//! through its FEN and EPD.

use std::path::Path;

use tabia_notation::pgn::PgnReader;
use tabia_position::{EpRule, Position, Variant, parse_variant, replay_mainline};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/variants")
        .join(name);
    std::fs::read(path).expect("fixtures/variants")
}

/// Whether two FENs are equal, but for the halfmove clock of a Crazyhouse game (shakmaty
/// restarts it on a pawn drop, python-chess 1.11 does not).
fn same_final(variant: Variant, ours: &str, theirs: &str) -> bool {
    if variant != Variant::Crazyhouse {
        return ours == theirs;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.split(' ').collect(), theirs.split(' ').collect());
    a.len() == 6 && b.len() == 6 && a[..4] == b[..4] && a[5] == b[5]
}

#[test]
fn random_games_replay_to_python_chess_final_positions() {
    let pgn = fixture("games.pgn");
    let fens = String::from_utf8(fixture("games.fen")).expect("utf-8");
    let expected: Vec<&str> = fens.lines().collect();
    let mut seen = Vec::new();
    let mut n = 0;
    for game in PgnReader::new(&pgn[..]).games() {
        let game = game.expect("a well-formed game");
        let variant = parse_variant(game.tag("Variant").expect("a Variant tag"))
            .expect("a variant tabia plays");
        let mut plies = 0;
        let done = replay_mainline(&game, None, |ply| {
            plies += 1;
            // Every position round-trips through its FEN and EPD under its variant's rules.
            let pos = ply.position;
            let fen = pos.fen(EpRule::Legal);
            let back = Position::from_arg_variant(&fen, Some(variant)).expect("own FEN");
            assert_eq!(&back, pos, "{fen}");
            assert_eq!(back.fen(EpRule::Legal), fen);
            assert_eq!(back.key(), pos.key(), "{fen}");
            assert_eq!(back.zobrist(), pos.zobrist(), "{fen}");
            let epd = pos.epd(EpRule::Always);
            let back = Position::from_arg_variant(&epd, Some(variant)).expect("own EPD");
            assert_eq!(back.epd(EpRule::Always), epd);
            // The key is the EPD, but for the promoted marks it leaves out.
            let unmarked = pos.epd(EpRule::Legal).replace('~', "");
            assert_eq!(pos.key().to_string(), unmarked, "{fen}");
        })
        .unwrap_or_else(|e| panic!("game {}: {e}", n + 1));
        assert_eq!(done.plies, plies);
        assert_eq!(done.end.variant(), variant.variant);
        let ours = done.end.fen(EpRule::Legal);
        assert!(
            same_final(variant.variant, &ours, expected[n]),
            "game {}: tabia {ours}, python-chess {}",
            n + 1,
            expected[n]
        );
        seen.push(variant.variant);
        n += 1;
    }
    assert_eq!(n, expected.len());
    seen.dedup();
    assert_eq!(seen.len(), 7, "every lichess variant: {seen:?}");
}
