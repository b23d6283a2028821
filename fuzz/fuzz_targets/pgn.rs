//! One PGN game as a grammar: no panic on any bytes; a game that parses is exported, the
//! export parses back to the same game tree (its Seven Tag Roster completed), and exporting it
//! again gives the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::pgn::Game;

fuzz_target!(|data: &[u8]| {
    match Game::from_ascii(data) {
        Ok(game) => round_trip(&game),
        Err(err) => {
            let _ = err.to_string();
        }
    }
    if let Ok((game, used)) = Game::prefix(data) {
        assert!(used <= data.len(), "{used} > {}", data.len());
        round_trip(&game);
    }
});

fn round_trip(game: &Game) {
    let text = game.to_string();
    let mut again = Game::from_ascii(text.as_bytes())
        .unwrap_or_else(|e| panic!("the export does not parse: {e}\n{text}"));
    let again_text = again.to_string();
    // Line ends in comments are spaces to the export (which breaks long ones at spaces).
    let unwrap = |comments: &mut Vec<String>| {
        comments.iter_mut().for_each(|c| *c = c.replace(['\n', '\r'], " "));
    };
    let mut game = game.clone();
    game.edit_comments(unwrap);
    again.edit_comments(unwrap);
    // The same tree and result; the same tags once the Seven Tag Roster is completed (the
    // export adds missing roster tags, puts the roster first, and keeps every tag given).
    assert_eq!(again.mainline, game.mainline, "{text}");
    assert_eq!(again.result, game.result, "{text}");
    assert_eq!(again, game.clone().with_roster(), "{text}");
    for tag in &game.tags {
        assert!(again.tags.contains(tag), "{tag:?} lost\n{text}");
    }
    assert_eq!(again_text, text, "export is not idempotent");
}
