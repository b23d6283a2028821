//! Nothing lost (issue 6): every game given to `tabia pgn` is either in its output or in an
//! error report, and the counts add up; a game with a warning is written (issue 10), and the
//! warnings add up too: on a generated messy file (where each game says its
//! number in its `Event` tag), on the fixtures, and on `../shared/corpus` when present.

use std::{collections::BTreeSet, path::Path};

use tabia_notation::pgn::PgnReader;

use super::support::{fixture, tabia};

/// What `tabia pgn` made of an input.
#[derive(Debug)]
struct Run {
    /// The `Event` tag of each game written, in order.
    written: Vec<String>,
    /// The game numbers of the error reports (`FILE:LINE:COL: game N: …`).
    reported: BTreeSet<u64>,
    /// The game number of each warning (`FILE:LINE:COL: game N: warning: …`).
    warned: Vec<u64>,
    /// The summary line's counts: games, errors, warnings.
    summary: (u64, u64, u64),
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = tabia();
    // Every warning and note listed, so that each can be matched with its game.
    cmd.args(["pgn", "--warnings", "each"]).args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes.to_vec());
    }
    let out = cmd.output().expect("tabia runs");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    let games: Vec<_> = PgnReader::new(&out.stdout[..])
        .games()
        .map(|g| g.expect("tabia's output parses"))
        .collect();
    let written = games
        .iter()
        .map(|g| g.tag("Event").unwrap_or("").to_owned())
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut reported = BTreeSet::new();
    let mut warned = Vec::new();
    let mut summary = None;
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("games ") {
            let (games, rest) = rest.split_once(", errors ").expect("summary");
            let (errors, warnings) = rest.split_once(", warnings ").expect("summary");
            let (warnings, notes) = warnings.split_once(", notes ").unwrap_or((warnings, "0"));
            summary = Some((
                games.parse().expect("a count"),
                errors.parse().expect("a count"),
                warnings.parse::<u64>().expect("a count") + notes.parse::<u64>().expect("a count"),
            ));
        } else if let Some((_, rest)) = line.split_once(": game ") {
            let (number, message) = rest.split_once(": ").expect("a message");
            let number = number.parse().expect("a game number");
            if message.starts_with("warning: ") || message.starts_with("note: ") {
                warned.push(number);
            } else {
                reported.insert(number);
            }
        }
    }
    Run {
        written,
        reported,
        warned,
        summary: summary.unwrap_or_else(|| panic!("no summary in {stderr}")),
    }
}

/// A file of `n` games, each numbered in its `Event` tag, in every messy way the issue lists
/// (and a few more): bad moves, no result (a warning: written), unbalanced braces and parentheses, `%` lines, NUL
/// bytes, Latin-1, no blank lines, CRLF, comments after the result, a result that the board
/// contradicts (a warning: written), a cut in a tag value and a comment cut at the end.
fn messy(n: usize) -> (Vec<u8>, BTreeSet<usize>) {
    let mut pgn = Vec::new();
    let mut bad = BTreeSet::new();
    for i in 1..=n {
        let head = format!("[Event \"{i}\"]\n");
        pgn.extend_from_slice(head.as_bytes());
        let (body, is_bad): (&[u8], bool) = match i % 14 {
            0 => (b"\n1. e4 Zz9 *\n\n", true),
            1 => (b"\n1. e4 e5 2. Nf3\n\n", false),
            2 => (b"[Site \"unterminated\n\n1. e4 e5 1-0\n\n", true),
            3 => (b"\n1. e4 } e5 1-0\n\n", true),
            4 => (b"\n1. e4 (1. d4 e5 1-0\n\n", true),
            5 => (b"\n1. e4 ) e5 1-0\n\n", true),
            6 => (b"\n1. e4\n% escape ) { line\ne5 1-0\n\n", false),
            7 => (b"\n1. e4 \0 e5 1-0\n\n", true),
            8 => (b"[White \"J\xf6rg\"]\n1. e4 {caf\xe9} e5 1-0\n", false),
            9 => (
                b"\r\n1. d4 d5 2. c4 (2. Nf3) 2... e6 1/2-1/2\r\n\r\n",
                false,
            ),
            10 => (b"\n1. e4 e5 0-1 ; {Game Nr. 1}\n; {more}\n\n", false),
            11 => (b"\n1. e4 e5 2. Ke2 Ke7 3. Ke1 *", false),
            13 => (b"\n1. f3 e5 2. g4 Qh4# 1-0\n\n", false),
            _ => (b"\n*\n\n", false),
        };
        pgn.extend_from_slice(body);
        if i % 14 == 11 {
            pgn.push(b'\n');
        }
        if is_bad {
            bad.insert(i);
        }
    }
    // A last game cut in a comment: an unbalanced `{` swallows what follows, so only at the end.
    pgn.extend_from_slice(format!("[Event \"{}\"]\n\n1. e4 {{ cut", n + 1).as_bytes());
    bad.insert(n + 1);
    (pgn, bad)
}

/// Every game is written or reported, exactly once, and the summary counts them all; a game
/// with a warning is written.
fn assert_nothing_lost(name: &str, run: &Run, games: usize, bad: Option<&BTreeSet<usize>>) {
    let (total, errors, warnings) = run.summary;
    assert_eq!(
        warnings as usize,
        run.warned.len(),
        "{name}: summary warnings"
    );
    for number in &run.warned {
        assert!(
            !run.reported.contains(number),
            "{name}: game {number} has a warning and an error"
        );
    }
    assert_eq!(total as usize, games, "{name}: summary games");
    assert_eq!(
        errors as usize,
        run.reported.len(),
        "{name}: summary errors"
    );
    assert_eq!(
        run.written.len() + run.reported.len(),
        games,
        "{name}: written {} + reported {} != {games}",
        run.written.len(),
        run.reported.len()
    );
    if let Some(bad) = bad {
        let reported: BTreeSet<usize> = run.reported.iter().map(|&n| n as usize).collect();
        assert_eq!(&reported, bad, "{name}: the bad games reported");
        let written: BTreeSet<usize> = run
            .written
            .iter()
            .map(|e| e.parse().expect("an Event number"))
            .collect();
        assert_eq!(
            written.len(),
            run.written.len(),
            "{name}: a game written twice"
        );
        assert!(written.is_disjoint(&reported), "{name}");
        assert_eq!(written.len() + reported.len(), games, "{name}");
    }
}

#[test]
fn messy_generated_file_loses_no_game() {
    let (pgn, bad) = messy(260);
    for jobs in ["1", "2"] {
        let out = run(&["-j", jobs], Some(&pgn));
        assert_nothing_lost(&format!("messy, -j {jobs}"), &out, 261, Some(&bad));
        // Each game without a result, and each whose result the board contradicts, is
        // written, with its warning.
        let warned: Vec<u64> = (1..=260).filter(|i| matches!(i % 14, 1 | 13)).collect();
        assert_eq!(out.warned, warned, "-j {jobs}");
        for i in &warned {
            assert!(out.written.contains(&i.to_string()), "game {i} written");
        }
        // Written in input order.
        let numbers: Vec<usize> = out.written.iter().map(|e| e.parse().unwrap()).collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    }
}

#[test]
fn every_fixture_loses_no_game() {
    for kind in ["ok", "err"] {
        let dir = fixture(&format!("pgn/{kind}"));
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        paths.sort();
        assert!(!paths.is_empty());
        for path in paths {
            let name = path.display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            let mut skipper = PgnReader::new(&bytes[..]);
            let mut games = 0;
            while skipper.skip_game().unwrap().is_some() {
                games += 1;
            }
            let out = run(&[&name], None);
            assert_nothing_lost(&name, &out, games, None);
        }
    }
}

#[test]
fn corpus_loses_no_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !dir.is_dir() {
        eprintln!("skipped: no corpus at {}", dir.display());
        return;
    }
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.to_string_lossy().ends_with(".pgn") || p.to_string_lossy().ends_with(".pgn.zst")
        })
        .collect();
    paths.sort();
    for path in paths {
        let name = path.display().to_string();
        let bytes = if name.ends_with(".zst") {
            zstd::decode_all(std::fs::File::open(&path).unwrap()).unwrap()
        } else {
            std::fs::read(&path).unwrap()
        };
        // Counted independently of tabia: every corpus game has an Event tag.
        let events = bytes.windows(8).filter(|w| w == b"[Event \"").count();
        let out = run(&["-j", "2", &name], None);
        assert_nothing_lost(&name, &out, events, None);
    }
}
