//! `tabia analyse` with Debian's Stockfish (skipped, with a note, where there is none): each
//! position once (a second run analyses nothing; `-j 1` and `-j 2` give the same bytes), the
//! NDJSON records, the evals that `tabia table` reads back, an engine that crashes, and Ctrl-C
//! followed by the same command.

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

use crate::support::{fixture, run};

/// Stockfish, if this machine has it.
fn stockfish() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|p| {
        std::env::split_paths(&p)
            .map(|dir| dir.join("stockfish"))
            .collect::<Vec<_>>()
    });
    let found = on_path
        .chain([PathBuf::from("/usr/games/stockfish")])
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("note: no stockfish on this machine: the test is skipped");
    }
    found
}

/// The number after `name ` in the summary line.
fn count(stderr: &str, name: &str) -> u64 {
    let summary = stderr.lines().last().unwrap_or_default();
    let at = summary
        .find(&format!("{name} "))
        .unwrap_or_else(|| panic!("no `{name}` in {summary:?}"));
    summary[at + name.len() + 1..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count after `{name}` in {summary:?}"))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

#[test]
fn each_position_once_and_the_same_bytes_on_any_jobs() {
    let Some(engine) = stockfish() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let games = fixture("analyse/games.pgn");
    let cache = dir.path().join("c.redb");
    let analyse = |jobs: &str, out: &str, cache_args: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec![
            "analyse",
            path(&games),
            "--engine",
            path(&engine),
            "--nodes",
            "3000",
            "-j",
            jobs,
            "-o",
            path(&out),
        ];
        args.extend(cache_args);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        (std::fs::read_to_string(&out).expect("output"), err)
    };
    let (first, err) = analyse("2", "a.pgn", &["--cache", path(&cache)]);
    let analysed = count(&err, "positions analysed");
    assert!(analysed > 200, "{err}");
    assert_eq!(count(&err, "failed"), 0);
    assert_eq!(count(&err, "games"), 6);
    // Transpositions and shared openings are asked once: fewer analyses than positions.
    let positions: usize = first.matches("[%eval ").count();
    assert!(
        (analysed as usize) < positions + 6,
        "{analysed} of {positions}"
    );
    let (second, err) = analyse("2", "b.pgn", &["--cache", path(&cache)]);
    assert_eq!(count(&err, "positions analysed"), 0, "{err}");
    assert_eq!(second, first);
    let (alone, err) = analyse("1", "c.pgn", &["--no-cache"]);
    assert_eq!(count(&err, "positions analysed"), analysed, "{err}");
    assert_eq!(alone, first);
    // Every game has its figures.
    assert_eq!(first.matches("[WhiteAccuracy \"").count(), 6);
    assert_eq!(first.matches("[BlackACPL \"").count(), 6);
    assert!(first.contains("[Annotator \"tabia analyse: Stockfish"));
}

#[test]
fn json_is_one_record_per_position_and_table_reads_the_evals() {
    let Some(engine) = stockfish() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let games = fixture("analyse/games.pgn");
    let (code, out, err) = run(&[
        "analyse",
        path(&games),
        "--engine",
        path(&engine),
        "--depth",
        "5",
        "--no-cache",
        "--json",
        "--multipv",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert!(records.len() > 100);
    for record in &records {
        assert_eq!(record["depth"], 5, "{record}");
        assert!(record["cp"].is_i64() || record["mate"].is_i64(), "{record}");
        assert!(
            record["fen"]
                .as_str()
                .is_some_and(|f| f.split(' ').count() == 6)
        );
        let lines = record["lines"].as_array();
        // Two lines, best first, where the position has two moves.
        if let Some(lines) = lines {
            assert_eq!(lines.len(), 2, "{record}");
            assert_eq!(lines[0]["pv"][0], record["best"]);
        }
    }
    let games_seen: std::collections::BTreeSet<u64> = records
        .iter()
        .map(|r| r["game"].as_u64().expect("game"))
        .collect();
    assert_eq!(games_seen.len(), 6);

    // `tabia table --moves` reads the evals the games were given.
    let analysed = dir.path().join("a.pgn");
    let (code, _, err) = run(&[
        "analyse",
        path(&games),
        "--engine",
        path(&engine),
        "--depth",
        "5",
        "--no-cache",
        "-o",
        path(&analysed),
    ]);
    assert_eq!(code, 0, "{err}");
    let csv = dir.path().join("moves.csv");
    let (code, _, err) = run(&[
        "table",
        "--moves",
        "--format",
        "csv",
        "-o",
        path(&csv),
        path(&analysed),
    ]);
    assert_eq!(code, 0, "{err}");
    let table = std::fs::read_to_string(dir.path().join("moves.moves.csv")).expect("csv");
    let mut rows = tabia_testkit::csv_records(&table).into_iter();
    let header = rows.next().expect("header");
    let cp = header.iter().position(|h| h == "eval_cp").expect("eval_cp");
    let mate = header
        .iter()
        .position(|h| h == "eval_mate")
        .expect("eval_mate");
    let rows: Vec<Vec<String>> = rows.collect();
    let with_eval = rows
        .iter()
        .filter(|r| !r[cp].is_empty() || !r[mate].is_empty())
        .count();
    // Every move but a mating one (no position left to score) has its eval.
    assert!(
        with_eval + 6 >= rows.len() && with_eval > 100,
        "{with_eval} of {}",
        rows.len()
    );
}

#[test]
fn a_crashing_engine_is_reported_and_the_games_are_written() {
    let fake = Path::new(env!("CARGO_BIN_EXE_tabia")).with_file_name("tabia-fake-uci");
    if !fake.is_file() {
        eprintln!("note: tabia-fake-uci is not built (cargo test --workspace builds it): skipped");
        return;
    }
    let engine = format!("{} --crash-after 0", fake.display());
    let (code, out, err) = run(&[
        "analyse",
        path(&fixture("pgn/ok/sample.pgn")),
        "--engine",
        &engine,
        "--no-cache",
        "--retries",
        "1",
        "-j",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    // The game is written whole, without evals.
    assert!(out.starts_with("[Event "), "{out}");
    assert!(!out.contains("[%eval"), "{out}");
    let first = err.lines().next().expect("a warning");
    assert!(
        first.contains("game 1: warning: the start position is not analysed: engine `")
            && first.contains("--crash-after 0`: exited (exit status: 3) while analysing rnbqkbnr")
            && first.ends_with("(tried 2 times)"),
        "{first}"
    );
    assert!(count(&err, "failed") > 0, "{err}");
    assert_eq!(count(&err, "positions analysed"), 0, "{err}");
}

#[test]
fn an_engine_that_is_not_there_is_named() {
    let (code, _, err) = run(&[
        "analyse",
        path(&fixture("pgn/ok/sample.pgn")),
        "--engine",
        "no-such-engine-here",
        "--no-cache",
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "tabia: engine `no-such-engine-here`: not found on PATH or in /usr/games"
    );
}

/// Ctrl-C mid-run: the output is whole games only, the cache keeps what was analysed, and
/// the same command then ends the job with the bytes of a run never interrupted.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_whole_games_and_the_next_run_goes_on() {
    let Some(engine) = stockfish() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("in.pgn");
    let mut text = std::fs::read_to_string(fixture("analyse/games.pgn")).expect("fixture");
    text += "\n";
    text += &std::fs::read_to_string(fixture("analyse/games.pgn")).expect("fixture");
    std::fs::write(&input, text).expect("input");
    let cache = dir.path().join("c.redb");
    let args = |out: &Path, cache_args: &[&str]| {
        let mut args: Vec<String> = ["analyse", path(&input), "--engine", path(&engine)]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        args.extend(["--nodes", "40000", "-j", "2", "-o", path(out), "--force"].map(str::to_owned));
        args.extend(cache_args.iter().map(|s| (*s).to_owned()));
        args
    };
    let cut = dir.path().join("cut.pgn");
    let child = Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args(args(&cut, &["--cache", path(&cache)]))
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabia starts");
    std::thread::sleep(Duration::from_millis(1500));
    // SIGINT, as a terminal's Ctrl-C sends it.
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let start = Instant::now();
    let out = child.wait_with_output().expect("tabia ends");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "Ctrl-C took {:?}",
        start.elapsed()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        eprintln!("note: the run ended before Ctrl-C: nothing to check");
        return;
    }
    assert!(
        err.contains("interrupted: the output ends with the last game analysed in full"),
        "{err}"
    );
    // The output so far is whole games: `tabia pgn --check` reads it without an error.
    let written = std::fs::read_to_string(&cut).expect("output");
    let (code, _, check) = run(&["pgn", "--check", path(&cut)]);
    assert_eq!(code, 0, "{check}\n{written}");
    let whole = written.matches("[Event ").count();
    assert!(whole < 12, "{whole} games written before Ctrl-C");

    let resumed = dir.path().join("resumed.pgn");
    let (code, _, err) = run(&args(&resumed, &["--cache", path(&cache)])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let fresh = dir.path().join("fresh.pgn");
    let (code, _, full) = run(&args(&fresh, &["--no-cache"])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(code, 0, "{full}");
    // The resumed run analysed only what the first had not.
    assert!(
        count(&err, "positions analysed") < count(&full, "positions analysed"),
        "{err}"
    );
    let resumed = std::fs::read_to_string(&resumed).expect("resumed");
    assert_eq!(resumed, std::fs::read_to_string(&fresh).expect("fresh"));
    assert!(resumed.starts_with(&written));
}
