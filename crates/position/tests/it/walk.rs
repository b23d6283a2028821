//! The [`Replay`] iterator against the callback replays it shares its loop with, on every
//! game of the PGN fixtures: the same plies, positions, moves and errors, in the same order.

use std::path::PathBuf;

use tabia_notation::pgn::{Game, PgnReader};
use tabia_position::{EpRule, Replay, replay, replay_mainline};

/// Every game the fixtures under `fixtures/pgn/ok` and `fixtures/variants` hold.
fn games() -> Vec<Game> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut games = Vec::new();
    for dir in ["pgn/ok", "pgn/err", "variants"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        {
            let bytes = std::fs::read(path).expect("a readable fixture");
            games.extend(PgnReader::new(&bytes[..]).games().map_while(Result::ok));
        }
    }
    assert!(games.len() > 50, "only {} fixture games", games.len());
    games
}

type Seen = (u32, usize, String, String);

fn seen(ply: u32, depth: usize, san: String, position: &tabia_position::Position) -> Seen {
    (ply, depth, san, position.epd(EpRule::Legal))
}

#[test]
fn replay_iterator_gives_what_the_callbacks_give() {
    let mut errors = 0;
    for game in games() {
        for variations in [false, true] {
            let mut expected = Vec::new();
            let record = |p: &tabia_position::Ply<'_>| {
                expected.push(seen(p.ply, p.depth, p.node.san.to_string(), p.position));
            };
            let done = if variations {
                replay(&game, record)
            } else {
                replay_mainline(&game, None, record)
            };
            let mut iter = Replay::new(&game).variations(variations);
            let mut actual = Vec::new();
            let mut error = None;
            for ply in iter.by_ref() {
                match ply {
                    Ok(p) => actual.push(seen(p.ply, p.depth, p.node.san.to_string(), &p.position)),
                    Err(e) => error = Some(e),
                }
            }
            assert_eq!(actual, expected, "{game}");
            match done {
                Ok(done) => {
                    assert_eq!(error, None);
                    let finished = iter.finish().expect("replayed once already");
                    assert_eq!(finished.plies, done.plies);
                    assert_eq!(finished.end.epd(EpRule::Legal), done.end.epd(EpRule::Legal));
                    assert_eq!(finished.termination, done.termination);
                    assert_eq!(finished.warnings, done.warnings);
                }
                Err(done) => {
                    errors += 1;
                    assert_eq!(error.as_ref(), Some(&done));
                    assert_eq!(iter.finish().err(), Some(done));
                }
            }
        }
    }
    assert!(errors > 0, "no fixture game with an illegal move");
}

#[test]
fn stopping_early_plays_no_further() {
    // The third move is illegal: taking two plies never meets it.
    let game: Game = "1. e4 e5 2. Ke3 Nc6 *".parse().expect("a game");
    let two: Vec<_> = Replay::new(&game).take(2).collect();
    assert!(two.iter().all(Result::is_ok));
    let uci: Vec<String> = two.into_iter().flatten().map(|p| p.uci()).collect();
    assert_eq!(uci, ["e2e4", "e7e5"]);
    let all: Vec<_> = Replay::new(&game).collect();
    assert_eq!(all.len(), 3, "two plies, then the error, then nothing");
    assert_eq!(
        all[2].as_ref().map(|_| ()).unwrap_err().to_string(),
        "illegal move 2. Ke3 (ply 3): no white king can go to e3"
    );
}
