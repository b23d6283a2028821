//! Hostile games (issue 6) through replay: deep variations replay without recursion, and the
//! work grows linearly with the number of plies (the work at N and 8N plies is timed in the
//! same test; the ratio is bounded, never an absolute time). The times are only asserted under
//! `cargo xtask timed`, in release.

use tabia_notation::pgn::Game;
use tabia_position::{check_game, replay};
use tabia_testkit::assert_linear;

/// `1. e4 (1. d4 (1. d4 …)) *`: variations nested `depth` deep, each a legal first move.
fn nested(depth: usize) -> Game {
    let text = format!("1. e4 {}{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
    text.parse().expect("a well-formed game")
}

/// A legal game of `plies` plies: knights out and back (replay goes on through the repetitions;
/// only `check_game` would object to the result `*` after a fivefold repetition).
fn shuffle(plies: usize) -> Game {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut text = String::new();
    for ply in 0..plies {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(cycle[ply % 4]);
        text.push(' ');
    }
    text.push('*');
    text.parse().expect("a well-formed game")
}

#[test]
fn ten_thousand_nested_variations_replay_without_recursion() {
    let _alone = crate::timing();
    let game = nested(10_000);
    let mut deepest = 0;
    let done = replay(&game, |ply| deepest = deepest.max(ply.depth)).expect("legal");
    assert_eq!((done.plies, deepest), (1, 10_000));
    assert!(check_game(&game).is_ok());
    let games = [nested(2_000), nested(16_000)];
    assert_linear(
        "nested variations",
        |depth| {
            let game = &games[usize::from(depth > 2_000)];
            replay(game, |_| ()).map(|done| done.plies)
        },
        2_000,
    );
}

#[test]
fn long_games_replay_in_linear_time() {
    let _alone = crate::timing();
    let game = shuffle(20_000);
    let done = replay(&game, |_| ()).expect("legal");
    assert_eq!(done.plies, 20_000);
    let games = [shuffle(4_000), shuffle(32_000)];
    assert_linear(
        "long game",
        |plies| {
            let game = &games[usize::from(plies > 4_000)];
            let done = replay(game, |_| ()).map(|done| done.plies as usize);
            assert_eq!(done.ok(), Some(plies));
        },
        4_000,
    );
}
