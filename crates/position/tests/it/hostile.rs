//! Hostile games (issue 6) through replay: deep variations replay without recursion, and the
//! work grows linearly with the number of plies (the work at N and 8N plies is timed in the
//! same test; the ratio is bounded, never an absolute time). The times are only asserted under
//! `cargo xtask timed`, in release.

use std::time::{Duration, Instant};

use tabia_notation::pgn::Game;
use tabia_position::{check_game, replay};

/// The CPU time of this thread so far, where Linux tells it (`/proc/thread-self/schedstat`,
/// in nanoseconds): unlike the wall clock, it does not grow while a busy machine runs other
/// work, which would make a long run look slower per item than a short one.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// CPU readings shorter than this are not trusted (see [`time`]).
const MIN_CPU: Duration = Duration::from_millis(1);

/// The least time of three runs of `work`: CPU time where known, else wall time.
fn time<T>(mut work: impl FnMut() -> T) -> Duration {
    (0..3)
        .map(|_| {
            let (cpu, start) = (thread_cpu(), Instant::now());
            let out = work();
            let wall = start.elapsed();
            // schedstat is only brought up to date at scheduler events, so a short run can read
            // as no CPU at all: below a millisecond, the wall clock is the better measure.
            let time = match (cpu, thread_cpu()) {
                (Some(before), Some(after)) if after.saturating_sub(before) >= MIN_CPU => {
                    after.saturating_sub(before)
                }
                _ => wall,
            };
            drop(out);
            time
        })
        .min()
        .unwrap_or_default()
}

/// Asserts that the work at 8× the size took less than 24× as long (quadratic would be 64×),
/// measuring again (twice at most) when a busy machine made one measurement slow. Only under
/// `cargo xtask timed` (release, one test at a time, `TABIA_TIMED` set): under `cargo test`
/// the work runs at both sizes and what it asserts is checked, but no time is.
fn assert_linear<T>(what: &str, mut work: impl FnMut(usize) -> T, n: usize) {
    if std::env::var_os("TABIA_TIMED").is_none() {
        drop((work(n), work(8 * n)));
        return;
    }
    // Both sizes as many times as brings the small one to 10 ms (release is fast: a run of
    // a fraction of a millisecond measures the timer).
    let once = time(|| work(n)).as_secs_f64().max(1e-6);
    let reps = ((0.01 / once).ceil() as usize).clamp(1, 10_000);
    let mut repeated = |size: usize| {
        let mut out = None;
        for _ in 0..reps {
            out = Some(work(size));
        }
        out
    };
    for attempt in 1..=3 {
        let small = time(|| repeated(n));
        let large = time(|| repeated(8 * n));
        let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
        if ratio < 24.0 {
            return;
        }
        assert!(
            attempt < 3,
            "{what}: {small:?} at {n}, {large:?} at {} ({ratio:.1}×)",
            8 * n
        );
    }
}

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
