//! Export: every game read by the streaming `Exporter` gets the verdict of its tree (the same
//! error, or the same warnings), and where the exporter writes the game, the very text that
//! `repair_game` then `Display` write from the tree (what `tabia pgn` and `tabia filter` write
//! with no tree, held to what they wrote with one).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::pgn::PgnReader;
use tabia_position::{Exporter, repair_game, unsupported_variant};

fuzz_target!(|data: &[u8]| {
    let mut exporter = Exporter::new();
    for raw in PgnReader::new(data).raw_games().take(64) {
        let Ok(raw) = raw else {
            break;
        };
        let fast = raw.visit(&mut exporter);
        let Ok(mut game) = raw.parse() else {
            // The exporter does not read the moves of a variant tabia does not play: it says
            // so, where the tree found a syntax error in them.
            assert!(
                fast.is_err() || unsupported_variant(&raw).is_some(),
                "the tree saw a syntax error, the exporter none"
            );
            assert_eq!(exporter.text(), None);
            continue;
        };
        let fast = fast.expect("the exporter saw a syntax error, the tree none");
        match (repair_game(&mut game), fast) {
            (Ok(slow), Ok(fast)) => {
                let slow: Vec<String> = slow.warnings.iter().map(ToString::to_string).collect();
                let fast: Vec<String> = fast.warnings.iter().map(ToString::to_string).collect();
                assert_eq!(fast, slow, "warnings");
                if let Some(text) = exporter.text() {
                    assert_eq!(text, game.to_string(), "export");
                }
            }
            (Err(slow), Err(fast)) => {
                assert_eq!(fast.to_string(), slow.to_string(), "error");
                assert_eq!(exporter.text(), None);
            }
            (slow, fast) => panic!("tree {slow:?}, exporter {fast:?}"),
        }
    }
});
