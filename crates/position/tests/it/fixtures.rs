//! The fixtures under `fixtures/position/`: every input next to its expected output.
//!
//! - `err/*.fen`: one position per line; `.err` lists every problem as `LINE: message`.
//! - `ok/*.pgn`: games; `.out` is the EPD after every mainline ply, a blank line after each
//!   game, then the final FEN of each game.
//! - `err/*.pgn`: games, some bad; `.err` has `LINE:COL: game N: message` for each bad game,
//!   `game N: ok, P plies` for each good one, then its warnings as
//!   `LINE:COL: game N: warning: message`.
//!
//! `TABIA_BLESS=1 cargo test -p tabia-position --test it fixtures` rewrites the expected files
//! (review the diff before committing it).

use std::path::{Path, PathBuf};

use tabia_notation::pgn::{PgnReader, ReadError};
use tabia_position::{Editor, EpRule, check_game, replay_mainline};

fn dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/position")
        .join(kind)
}

fn files(kind: &str, ext: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir(kind))
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no {kind}/*.{ext} fixtures");
    found
}

fn compare(input: &Path, ext: &str, actual: &str) {
    tabia_testkit::expect_file(&input.with_extension(ext), actual);
}

#[test]
fn validation_problems() {
    for input in files("err", "fen") {
        let text = std::fs::read_to_string(&input).expect("read");
        let mut actual = String::new();
        for (n, line) in text.lines().enumerate() {
            match Editor::from_arg(line) {
                Ok(editor) => {
                    for problem in editor.problems() {
                        actual.push_str(&format!("{}: {problem}\n", n + 1));
                    }
                }
                Err(err) => actual.push_str(&format!("{}: {err}\n", n + 1)),
            }
        }
        compare(&input, "err", &actual);
    }
}

#[test]
fn games_replay_to_their_positions() {
    for input in files("ok", "pgn") {
        let bytes = std::fs::read(&input).expect("read");
        let mut epds = String::new();
        let mut finals = String::new();
        for game in PgnReader::new(&bytes[..]).games() {
            let game = game.expect("well-formed game");
            let done = replay_mainline(&game, None, |ply| {
                epds.push_str(&ply.position.epd(EpRule::Always));
                epds.push('\n');
            })
            .expect("legal game");
            check_game(&game).expect("legal game, result agrees");
            epds.push('\n');
            finals.push_str(&done.end.fen(EpRule::Always));
            finals.push('\n');
        }
        compare(&input, "out", &(epds + &finals));
    }
}

#[test]
fn bad_games_are_reported_and_the_rest_goes_on() {
    for input in files("err", "pgn") {
        let bytes = std::fs::read(&input).expect("read");
        let mut actual = String::new();
        for (n, game) in PgnReader::new(&bytes[..]).games().enumerate() {
            let number = n + 1;
            match game {
                Ok(game) => match check_game(&game) {
                    Ok(done) => {
                        actual.push_str(&format!("game {number}: ok, {} plies\n", done.plies));
                        for warning in &done.warnings {
                            let at = warning
                                .origin()
                                .map_or(String::new(), |o| format!("{}:{}: ", o.line, o.column));
                            actual.push_str(&format!("{at}game {number}: warning: {warning}\n"));
                        }
                    }
                    Err(err) => {
                        let at = err
                            .origin()
                            .map_or(String::new(), |o| format!("{}:{}: ", o.line, o.column));
                        actual.push_str(&format!("{at}game {number}: {err}\n"));
                    }
                },
                Err(ReadError::Syntax { error, .. }) => {
                    actual.push_str(&format!("game {number}: syntax: {}\n", error.message()));
                }
                Err(err) => panic!("{err}"),
            }
        }
        compare(&input, "err", &actual);
    }
}

#[test]
fn fischer_spassky_ends_where_the_books_say() {
    let bytes = std::fs::read(dir("ok").join("fischer-spassky.pgn")).expect("read");
    let game = PgnReader::new(&bytes[..])
        .games()
        .next()
        .expect("a game")
        .expect("well-formed");
    let done = check_game(&game).expect("legal");
    assert_eq!(done.plies, 85);
    // The final position after 43. Re6, as published with the game.
    assert_eq!(
        done.end.fen(EpRule::Always),
        "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43"
    );
    assert_eq!(done.termination, None);
}
