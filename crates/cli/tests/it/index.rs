//! `tabia index`: the index against the commands that scan the games (`tree`, `filter
//! --position`), adding without counting twice, a killed writer, readers during a write, and
//! the messages.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

use crate::support::{fixture, run};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn build(dir: &Path, files: &[&Path], extra: &[&str]) -> String {
    let mut args = vec!["index", "build", "-q", "-o", dir.to_str().expect("utf-8")];
    args.extend(extra);
    args.extend(files.iter().map(|f| f.to_str().expect("utf-8")));
    let (code, _, err) = run(&args);
    assert!(code == 0 || code == 1, "{err}");
    err
}

/// For every position the games of the fixture reach (every fourth, to keep it quick), the
/// index counts what `tabia tree` counts by reading the games, and lists exactly the games
/// `tabia filter --position` selects, byte for byte.
#[test]
fn the_index_agrees_with_tree_and_filter() {
    let files: Vec<PathBuf> = [
        "select/games.pgn",
        "pgn/ok/sample.pgn",
        "pgn/ok/nested.pgn",
        "variants/games.pgn",
    ]
    .iter()
    .map(|f| fixture(f))
    .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let index = dir.path().join("idx");
    build(
        &index,
        &files.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        &["--all-plies"],
    );
    let index = index.to_str().expect("utf-8");
    let names: Vec<&str> = files.iter().map(|f| f.to_str().expect("utf-8")).collect();
    let (_, epds, _) = run(&[&["epd", "-q", "--ep", "legal"], &names[..]].concat());
    // Standard positions: `filter --position` does not match the variants' (checks, pockets).
    let positions: BTreeSet<&str> = epds
        .lines()
        .filter(|l| l.split(' ').count() == 4 && !l.contains('['))
        .collect();
    assert!(positions.len() > 200, "{}", positions.len());
    let mut compared = 0;
    for (i, epd) in positions.iter().enumerate() {
        if i % 5 != 0 {
            continue;
        }
        let (_, tree, err) = run(&[
            &[
                "tree",
                "-q",
                "--json",
                "--max-ply",
                "10000",
                "--position",
                epd,
            ][..],
            &names[..],
        ]
        .concat());
        // tree and filter take standard positions only (a fixture holds a Horde game).
        let Some(tree) = tree.lines().next() else {
            assert!(err.contains("illegal position"), "{err}");
            continue;
        };
        let tree = json(tree);
        let (code, answer, err) = run(&[
            "index", "query", index, "--fen", epd, "--json", "--moves", "1000",
        ]);
        assert_eq!(code, 0, "{err}");
        let answer = json(&answer);
        assert_eq!(answer["games"], tree["games"], "{epd}");
        let counts = |moves: &Value| -> BTreeMap<String, [u64; 3]> {
            moves
                .as_array()
                .into_iter()
                .flatten()
                .map(|m| {
                    let n = |k: &str| m[k].as_u64().unwrap_or(0);
                    (
                        m["uci"].as_str().unwrap_or("").to_owned(),
                        [n("white"), n("draws"), n("black")],
                    )
                })
                .collect()
        };
        assert_eq!(counts(&answer["moves"]), counts(&tree["moves"]), "{epd}");
        let (_, selected, _) =
            run(&[&["filter", "-q", "--position", epd][..], &names[..]].concat());
        let (_, listed, _) = run(&["index", "games", index, "--fen", epd, "--limit", "100000"]);
        assert_eq!(listed, selected, "{epd}");
        compared += 1;
    }
    assert!(compared > 40, "{compared}");
}

#[test]
fn adding_the_same_games_counts_them_as_duplicates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let index = dir.path().join("idx");
    let a = fixture("dedup/a.pgn");
    let b = fixture("dedup/b.pgn");
    let err = build(&index, &[&a], &[]);
    assert!(err.contains("game 3: illegal move"), "{err}");
    let idx = index.to_str().expect("utf-8");
    let (_, before, _) = run(&["index", "info", idx, "--json"]);
    let before = json(&before);
    let (code, _, err) = run(&[
        "index",
        "add",
        idx,
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
    ]);
    // The bad game of a.pgn is reported again: status 1.
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("duplicates"), "{err}");
    let (_, after, _) = run(&["index", "info", idx, "--json"]);
    let after = json(&after);
    let (_, dedup, _) = run(&[
        "dedup",
        "-q",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
    ]);
    let unique = dedup.matches("[Event ").count() as u64;
    assert_eq!(after["games"].as_u64(), Some(unique));
    assert!(before["games"].as_u64() <= Some(unique));
    // The summary's counts add up: games read = indexed + duplicates + errors.
    let (_, _, summary) = run(&["index", "add", idx, a.to_str().expect("utf-8")]);
    let nums: Vec<u64> = summary
        .lines()
        .last()
        .unwrap_or_default()
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(nums[0], nums[1] + nums[2] + nums[3], "{summary}");
}

#[test]
fn merged_indexes_answer_as_one_built_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b, all) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("all"),
    );
    let one = fixture("select/games.pgn");
    let two = fixture("pgn/ok/sample.pgn");
    build(&a, &[&one], &[]);
    build(&b, &[&two], &[]);
    build(&all, &[&one, &two], &[]);
    let merged = dir.path().join("merged");
    let (code, _, err) = run(&[
        "index",
        "merge",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
        "-o",
        merged.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    for moves in [&[][..], &["e4"], &["d4", "Nf6"]] {
        let query = |idx: &Path| {
            let mut args = vec!["index", "query", idx.to_str().expect("utf-8"), "--json"];
            args.extend(moves.iter().copied());
            json(&run(&args).1)
        };
        assert_eq!(query(&merged), query(&all), "{moves:?}");
    }
}

#[test]
fn bad_requests_say_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let index = dir.path().join("idx");
    build(&index, &[&fixture("pgn/ok/sample.pgn")], &[]);
    let idx = index.to_str().expect("utf-8");
    let cases: [&[&str]; 7] = [
        &["index", "query", idx, "--fen", "8/8/8 w - - 0 1"],
        &["index", "query", idx, "e4", "e4"],
        &["index", "query", idx, "--speeds", "blitz,fast"],
        &["index", "query", idx, "--ratings", "1500"],
        &["index", "query", idx, "--since", "2020-13"],
        &["index", "query", "no/such/index"],
        &["index", "build", "-q", "-o", idx, "x.pgn"],
    ];
    let mut messages = String::new();
    for args in cases {
        let (code, out, err) = run(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        messages.push_str(&err.replace(idx, "IDX"));
    }
    tabia_testkit::expect_file(&fixture("index/errors.txt"), &messages);
}

/// A writer killed in the middle of a batch leaves the index as its last commit left it,
/// readable; the next `add` completes it.
#[test]
fn a_killed_writer_loses_nothing_committed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let index = dir.path().join("idx");
    let idx = index.to_str().expect("utf-8");
    let pgn = dir.path().join("many.pgn");
    std::fs::write(&pgn, numbered_games(6000)).expect("write");
    let pgn = pgn.to_str().expect("utf-8");
    // Small batches: many commits, so that the kill lands between two of them or in one.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args([
            "index", "build", "-q", "-j", "1", "--batch", "100", "-o", idx, pgn,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    // Wait for a first commit, then kill.
    loop {
        let (code, out, _) = run(&["index", "info", idx, "--json"]);
        if code == 0 && json(&out)["games"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no commit in a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    let (code, out, err) = run(&["index", "info", idx, "--json"]);
    assert_eq!(code, 0, "{err}");
    let games = json(&out)["games"].as_u64().expect("games");
    assert!(
        (games > 0 && games.is_multiple_of(100)) || games == 6000,
        "{games}"
    );
    // What is there answers consistently: the start position counts every indexed game.
    let (_, answer, _) = run(&["index", "query", idx, "--json"]);
    assert_eq!(json(&answer)["games"].as_u64(), Some(games));
    let (code, _, err) = run(&["index", "add", "-q", idx, pgn]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = run(&["index", "info", idx, "--json"]);
    assert_eq!(json(&out)["games"].as_u64(), Some(6000));
}

/// Readers answer while a writer adds, and see its commits.
#[test]
fn readers_answer_while_a_writer_adds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (index, pgn) = sample_and_more(dir.path());
    let idx = index.to_str().expect("utf-8");
    let mut child = adding(idx, &pgn, "200");
    let mut seen = BTreeSet::new();
    let mut answers = 0;
    while child.try_wait().expect("wait").is_none() && answers < 500 {
        let (code, out, err) = run(&["index", "query", idx, "--json", "--moves", "1"]);
        assert_eq!(code, 0, "a reader failed during the write: {err}");
        seen.insert(json(&out)["games"].as_u64().expect("games"));
        answers += 1;
    }
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, out, _) = run(&["index", "query", idx, "--json", "--moves", "1"]);
    assert_eq!(json(&out)["games"].as_u64(), Some(4001));
    assert!(answers > 0);
    // A second writer is refused while one writes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args(["index", "add", "-q", "-j", "1", "--batch", "50", idx])
        .arg(&pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(100));
    let (code, _, err) = run(&["index", "add", "-q", idx, pgn.to_str().expect("utf-8")]);
    child.wait().expect("wait");
    if code != 0 {
        assert!(err.contains("is being written by another process"), "{err}");
    }
    let _ = seen;
}

/// `tabia serve` answers while `index add` writes, and what it answers follows the commits:
/// the server keeps the answers of much asked positions, never past a commit.
#[test]
fn the_server_follows_a_writer() {
    use std::io::{BufRead, BufReader, Read, Write};

    let dir = tempfile::tempdir().expect("tempdir");
    let (index, pgn) = sample_and_more(dir.path());
    let idx = index.to_str().expect("utf-8");
    let mut server = Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args(["serve", "--port", "0", idx])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut line = String::new();
    BufReader::new(server.stderr.as_mut().expect("stderr"))
        .read_line(&mut line)
        .expect("read");
    let addr = line
        .trim()
        .rsplit(' ')
        .next()
        .and_then(|url| url.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("tabia serve said {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    let games = || -> u64 {
        let mut stream = std::net::TcpStream::connect(&addr).expect("connect");
        write!(
            stream,
            "GET /lichess?moves=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("answer");
        let body = answer.split_once("\r\n\r\n").expect("a body").1;
        let total = |key: &str| json(body)[key].as_u64().expect("counts");
        total("white") + total("draws") + total("black")
    };
    let before = games();
    assert_eq!(games(), before);
    let mut writer = adding(idx, &pgn, "500");
    let mut seen = vec![before];
    while writer.try_wait().expect("wait").is_none() && seen.len() < 2000 {
        seen.push(games());
    }
    let out = writer.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    seen.push(games());
    let _ = server.kill();
    let _ = server.wait();
    // Never a step back, and every game once the writer is done.
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&(before + 4000)), "{seen:?}");
}

/// An index of the sample game in `dir`, and a file of 4,000 more games to add to it.
fn sample_and_more(dir: &Path) -> (PathBuf, PathBuf) {
    let index = dir.join("idx");
    build(&index, &[&fixture("pgn/ok/sample.pgn")], &[]);
    let pgn = dir.join("many.pgn");
    std::fs::write(&pgn, numbered_games(4000)).expect("write");
    (index, pgn)
}

/// `tabia index add` of `pgn` to `idx`, running, committing every `batch` games.
fn adding(idx: &str, pgn: &Path, batch: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args(["index", "add", "-q", "-j", "1", "--batch", batch, idx])
        .arg(pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// `n` distinct games: a first move, then a different sequence of queen's knight trips
/// (the number of the game in base 4), with results, ratings and dates.
fn numbered_games(n: usize) -> String {
    let firsts = ["e4", "d4", "c4", "g3", "b3", "f4", "h3", "a4"];
    let trips = [
        " Na3 Na6 Nb1 Nb8",
        " Nc3 Nc6 Nb1 Nb8",
        " Na3 Nc6 Nb1 Nb8",
        " Nc3 Na6 Nb1 Nb8",
    ];
    let mut out = String::new();
    for i in 0..n {
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        out.push_str(&format!(
            "[Event \"e{i}\"]\n[White \"w{}\"]\n[Black \"b{}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"2000\"]\n[Date \"2024.{:02}.01\"]\n[Result \"{result}\"]\n\n1. {} Nf6",
            i % 50,
            i % 70,
            1000 + i % 1500,
            1 + i % 12,
            firsts[i % firsts.len()]
        ));
        let mut k = i / firsts.len();
        loop {
            out.push_str(trips[k % 4]);
            k /= 4;
            if k == 0 {
                break;
            }
        }
        out.push_str(&format!(" {result}\n\n"));
    }
    out
}
