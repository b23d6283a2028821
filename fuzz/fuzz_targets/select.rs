//! Selection on any PGN: every game of the input decided by queries of every kind (tags,
//! players, ratings, dates, openings, positions, patterns, material, moves, features), with
//! and without variations. No panic, no hang; and the fast paths agree with the slow ones:
//! a query of several kinds matches a game exactly when each of its criteria alone does
//! (different kinds combine with AND, however early each is decided: tags before the
//! movetext, which is then skipped unread, positions while replaying, with an early stop),
//! and two criteria of one kind match when either does (OR). And a game decided on the
//! reader of the whole input (what one job does) is decided as on its raw bytes (what the
//! workers do).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::pgn::{RawGame, PgnReader};
use tabia_select::{Criterion, Feature, Matcher, Options, Query, Side};

/// Criteria of every kind, each a group of its own (tags of different names, players of
/// different sides), so that any of them together must all hold; each is also tried alone.
fn criteria() -> Vec<Criterion> {
    vec![
        Criterion::Tag("Date>=2000".parse().unwrap()),
        Criterion::Tag("Event~[a-z]".parse().unwrap()),
        Criterion::Player(Side::Either, "a".parse().unwrap()),
        Criterion::Player(Side::White, "~^[A-Z]".parse().unwrap()),
        Criterion::Result("decisive".parse().unwrap()),
        Criterion::Elo("1500".parse().unwrap()),
        Criterion::Date("1990..2030".parse().unwrap()),
        Criterion::Plies("2..200".parse().unwrap()),
        Criterion::Variant("standard".parse().unwrap()),
        Criterion::Eco("A00-C99".parse().unwrap()),
        Criterion::Position(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
                .parse()
                .unwrap(),
        ),
        Criterion::Moves("1. e4".parse().unwrap()),
        Criterion::FenPattern("*/*/*/*/???P????/*/*/*".parse().unwrap()),
        Criterion::Material("R R".parse().unwrap()),
        Criterion::PieceCount("3..31".parse().unwrap()),
        Criterion::Feature(Feature::Checkmate),
        Criterion::Feature(Feature::Repetition),
        Criterion::Feature(Feature::Commented),
        Criterion::Feature(Feature::HigherRatedWon),
    ]
}

/// The verdict of `query` on `raw`: `Some(matched)`, or `None` when the game did not read or
/// replay.
fn decide(query: &Query, raw: &RawGame) -> Option<bool> {
    let mut matcher = Matcher::new(query);
    match raw.visit(&mut matcher) {
        Ok(Ok(verdict)) => Some(verdict.matched),
        Ok(Err(err)) => {
            let _ = err.to_string();
            None
        }
        Err(err) => {
            let _ = err.to_string();
            None
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let all = criteria();
    let all_raws: Vec<_> = PgnReader::new(data).raw_games().take(16).collect();
    // The games up to the first that does not split (the streamed comparison stops there).
    let in_step = all_raws.iter().take_while(|r| r.is_ok()).count();
    let raws: Vec<RawGame> = all_raws.into_iter().flatten().collect();
    for options in [
        Options::default(),
        Options {
            variations: true,
            eco_by_position: true,
            ..Options::default()
        },
    ] {
        let alone: Vec<Vec<Option<bool>>> = all
            .iter()
            .map(|c| {
                let query = Query::new(vec![c.clone()], options);
                raws.iter().map(|raw| decide(&query, raw)).collect()
            })
            .collect();
        // Three kinds at a time, so that tags, movetext and positions decide in turn.
        for (i, window) in all.windows(3).enumerate() {
            let combined = Query::new(window.to_vec(), options);
            for (g, raw) in raws.iter().enumerate() {
                let each: Vec<Option<bool>> = (i..i + 3).map(|k| alone[k][g]).collect();
                let together = decide(&combined, raw);
                if let (Some(together), Some(each)) = (
                    together,
                    each.iter().copied().collect::<Option<Vec<bool>>>(),
                ) {
                    assert_eq!(
                        together,
                        each.iter().all(|m| *m),
                        "{window:?} together against each alone {each:?}"
                    );
                }
                if together == Some(true) {
                    assert!(
                        each.iter().all(|v| *v == Some(true)),
                        "{window:?} matched together, not each alone: {each:?}"
                    );
                }
            }
        }
        // The whole input on one reader, as one job reads it, against the raw games.
        for window in all.chunks(4) {
            let query = Query::new(window.to_vec(), options);
            let mut reader = PgnReader::new(data);
            let mut matcher = Matcher::new(&query);
            for raw in &raws[..in_step] {
                let streamed = match reader.read_game(&mut matcher) {
                    Ok(Some(Ok(verdict))) => Some(verdict.matched),
                    Ok(Some(Err(_)) | None) | Err(_) => None,
                };
                assert_eq!(streamed, decide(&query, raw), "{window:?}");
            }
        }
        // Two results: either.
        let either = Query::new(
            vec![
                Criterion::Result("1-0".parse().unwrap()),
                Criterion::Result("0-1".parse().unwrap()),
            ],
            options,
        );
        let decisive = Query::new(
            vec![Criterion::Result("decisive".parse().unwrap())],
            options,
        );
        for raw in &raws {
            assert_eq!(decide(&either, raw), decide(&decisive, raw));
        }
    }
});
