//! `tabia filter`: the fixture cases of `fixtures/select/cases.tsv` (criteria and the games
//! they select from `fixtures/select/games.pgn`), `--invert` as the complement, the summary
//! adding up, `--limit`, `--mark`, `--json`, `-o`, and bad criteria as usage errors.

use std::{collections::BTreeSet, fs, path::PathBuf};

use super::tabia;

/// The `fixtures/select` folder; commands run there so that diagnostics name relative paths.
fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/select")
}

/// Runs `tabia filter ARGS` in `fixtures/select`: exit code, stdout, stderr.
fn filter(args: &[&str]) -> (i32, String, String) {
    let out = tabia()
        .current_dir(dir())
        .arg("filter")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// The game numbers of NDJSON output.
fn numbers(ndjson: &str) -> BTreeSet<u64> {
    ndjson
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("json");
            value["game"].as_u64().expect("game number")
        })
        .collect()
}

/// The counts of a summary line `games N, matched M, errors E, …`.
fn summary(stderr: &str) -> (u64, u64, u64) {
    let line = stderr.lines().last().expect("a summary");
    let count = |name: &str| {
        line.split(", ")
            .find_map(|part| part.strip_prefix(name)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `{name}` in {line:?}"))
    };
    (count("games "), count("matched "), count("errors "))
}

/// Every case: the games selected, the complement with `--invert`, and the counts adding up
/// (matched + unmatched + errors = games read).
#[test]
fn fixture_cases_select_the_expected_games() {
    let cases = fs::read_to_string(dir().join("cases.tsv")).expect("fixture");
    let all: BTreeSet<u64> = (1..=13).collect();
    let mut checked = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (args, expected) = line.split_once('\t').expect("two columns");
        let args: Vec<String> = args.split(' ').map(|a| a.replace('_', " ")).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let expected: BTreeSet<u64> = expected
            .split_whitespace()
            .map(|n| n.parse().expect("number"))
            .collect();
        for jobs in ["1", "2"] {
            let mut run = vec!["--json", "-j", jobs, "games.pgn"];
            run.extend(&args);
            let (code, out, err) = filter(&run);
            let selected = numbers(&out);
            // Bad games are reported (and get an error line) but are not selected.
            let errors: BTreeSet<u64> = out
                .lines()
                .filter(|l| l.contains("\"error\":"))
                .map(|l| numbers(l).into_iter().next().expect("a game"))
                .collect();
            let selected: BTreeSet<u64> = selected.difference(&errors).copied().collect();
            assert_eq!(selected, expected, "{line}\n{err}");
            let (games, matched, bad) = summary(&err);
            assert_eq!(
                (games, matched, bad),
                (13, expected.len() as u64, errors.len() as u64),
                "{line}\n{err}"
            );
            assert_eq!(code, if errors.is_empty() { 0 } else { 1 }, "{line}\n{err}");

            let mut inverted = run.clone();
            inverted.push("--invert");
            let (_, out, err) = filter(&inverted);
            let (games, matched, bad) = summary(&err);
            let inverted_errors: BTreeSet<u64> = out
                .lines()
                .filter(|l| l.contains("\"error\":"))
                .map(|l| numbers(l).into_iter().next().expect("a game"))
                .collect();
            let rest: BTreeSet<u64> = numbers(&out)
                .difference(&inverted_errors)
                .copied()
                .collect();
            assert!(rest.is_disjoint(&selected), "{line}: --invert overlaps");
            // Every game is selected one way or the other, or reported as bad.
            let union: BTreeSet<u64> = rest
                .union(&selected)
                .chain(&inverted_errors)
                .chain(&errors)
                .copied()
                .collect();
            assert_eq!(union, all, "{line}: --invert leaves games out");
            assert_eq!(
                (games, matched, bad),
                (13, rest.len() as u64, inverted_errors.len() as u64)
            );
        }
        checked += 1;
    }
    assert!(checked >= 60, "{checked} cases");
}

#[test]
fn plain_output_is_the_pgn_export_of_the_games() {
    let (code, out, err) = filter(&["-q", "games.pgn", "--player", "ljubojevic"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "[Event \"Fool\"]\n[Site \"Riga\"]\n[Date \"1960.??.??\"]\n[Round \"1\"]\n\
         [White \"Tal, Mikhail\"]\n[Black \"Ljubojević, Ljubomir\"]\n[Result \"0-1\"]\n\
         [WhiteElo \"2600\"]\n[BlackElo \"2620\"]\n[ECO \"A00\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    );
}

#[test]
fn mark_adds_a_comment_and_a_tag() {
    let nimzo = "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq -";
    let (code, out, _) = filter(&["-q", "--mark", "games.pgn", "--position", nimzo]);
    // Game 9 has an illegal move at ply 3, but after 1. e4 it can no longer reach the target
    // (the e2 pawn has moved): it is decided before the bad move, so no error.
    assert_eq!(code, 0);
    let out = out.replace('\n', " ");
    assert!(out.contains("[MatchPly \"6\"]"), "{out}");
    assert!(
        out.contains(&format!("3. d4 Bb4 {{match: --position {nimzo}}} 1/2-1/2")),
        "{out}"
    );
    // In a variation, the comment goes after the variation's move.
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    let (_, out, _) = filter(&[
        "-q",
        "--mark",
        "--variations",
        "games.pgn",
        "--position",
        sicilian,
    ]);
    let out = out.replace('\n', " ");
    assert!(
        out.contains(&format!(
            "(1... c5 {{match: --position {sicilian}}} 2. Nf3)"
        )),
        "{out}"
    );
    assert!(out.contains("[MatchPly \"2\"]"), "{out}");
}

#[test]
fn json_has_a_match_object() {
    let (code, out, _) = filter(&["-q", "--json", "games.pgn", "--moves", "1. d4 Nf6"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(out.trim()).expect("one line");
    assert_eq!(out.lines().count(), 1);
    assert_eq!(value["game"], 4);
    assert_eq!(value["match"]["criterion"], "--moves 1. d4 Nf6");
    assert_eq!(value["match"]["ply"], 2);
    assert_eq!(
        value["match"]["fen"],
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2"
    );
    assert_eq!(value["moves"][7], "O-O");
}

#[test]
fn limit_stops_after_n_matches() {
    let (code, out, err) = filter(&[
        "--json",
        "--limit",
        "2",
        "games.pgn",
        "games.pgn",
        "--result",
        "decisive",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(numbers(&out), BTreeSet::from([1, 2]));
    // Reading stopped at the second match: two games read.
    assert_eq!(summary(&err), (2, 2, 0));
}

#[test]
fn output_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("out.pgn");
    let (code, out, _) = filter(&[
        "-q",
        "-o",
        path.to_str().expect("utf-8"),
        "games.pgn",
        "--stalemate",
    ]);
    assert_eq!((code, out.as_str()), (1, ""));
    let written = fs::read_to_string(&path).expect("written");
    assert!(
        written.contains("[Event \"Stalemate\"]") && written.ends_with("1. Qf7 1/2-1/2\n\n"),
        "{written}"
    );
}

#[test]
fn bad_criteria_are_usage_errors_naming_the_bad_part() {
    let cases: [&[&str]; 6] = [
        &["--tag", "White Kasparov"],
        &["--tag", "Event~(x"],
        &["--elo", "2500..abc"],
        &["--moves", "1. e4 e5 2. Ke3"],
        &["--fen-pattern", "*/*/*/*/x*/*/*/*"],
        &["--material", "RX NB"],
    ];
    let mut all = String::new();
    for args in cases {
        let (code, out, err) = filter(&[&["games.pgn"], args].concat());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        all.push_str(err.lines().take(4).collect::<Vec<_>>().join("\n").as_str());
        all.push('\n');
    }
    tabia_testkit::expect_file(&dir().join("errors.txt"), &all);
}

/// `--raw` writes each selected game byte for byte as it stands in the input (from its first
/// byte to its result), whichever way the games are matched.
#[test]
fn raw_writes_the_selected_games_as_they_were_read() {
    let input = fs::read(dir().join("games.pgn")).expect("fixture");
    let games: Vec<Vec<u8>> = tabia_notation::pgn::PgnReader::new(&input[..])
        .raw_games()
        .map(|raw| raw.expect("readable").bytes)
        .collect();
    assert_eq!(games.len(), 13);
    let raw = |n: usize| format!("{}\n\n", String::from_utf8_lossy(&games[n - 1]));
    // Game 9 has an illegal second move: a replay that reaches it reports the game; with
    // `--raw`, a match decided before it (`--moves 1. e4`) writes the game unchecked, where the
    // export would check it and report it.
    for (args, selected, code) in [
        (&["--result", "decisive"][..], &[1, 2, 10, 11][..], 0),
        (&["--material", "R R"][..], &[10][..], 1),
        (
            &["--player", "carlsen", "--moves", "1. e4"][..],
            &[1, 9][..],
            0,
        ),
    ] {
        for jobs in ["1", "2"] {
            let mut run = vec!["-q", "--raw", "-j", jobs, "games.pgn"];
            run.extend(args);
            let (status, out, err) = filter(&run);
            assert_eq!(status, code, "{args:?}: {err}");
            assert_eq!(err.contains("game 9: illegal move"), code == 1, "{err}");
            let want: String = selected.iter().map(|&n| raw(n)).collect();
            assert_eq!(out, want, "{args:?} -j {jobs}");
        }
    }
    let (status, out, err) =
        filter(&["-q", "games.pgn", "--player", "carlsen", "--moves", "1. e4"]);
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("game 9: illegal move"), "{err}");
    assert_eq!(out.matches("[Event ").count(), 1);
    let (status, _, err) = filter(&["--raw", "--notation", "uci", "games.pgn", "--result", "1-0"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--raw"), "{err}");
}

/// Position criteria on games of every lichess variant are decided, never a panic.
#[test]
fn position_criteria_on_variant_games() {
    for args in [
        &["--material", "R*P* R*P*"][..],
        &["--fen-pattern", "*/*/*/*/*/*/*/*"],
        &["--piece-count", "2..40"],
        &["--position", "startpos"],
        &["--checkmate"],
        &["--stalemate"],
        &["--insufficient"],
        &["--repetition"],
        &["--fifty"],
    ] {
        let mut run = vec!["-q", "--json", "../variants/games.pgn"];
        run.extend(args);
        let (code, out, err) = filter(&run);
        assert!(code == 0 || code == 1, "{args:?}: {code} {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args[0] == "--fen-pattern" {
            // Every position matches `*` on every rank: every game is selected.
            assert_eq!(out.lines().count(), 28, "{args:?}");
        }
    }
}

/// A `{` never closed takes every later game into its comment: whether the query rules the
/// game out by its tags (its movetext skipped unread), selects it, or replays it, the game is
/// reported, and the summary counts the same games and errors (nothing lost in silence), at
/// any number of jobs and wherever the input is cut between them.
#[test]
fn a_comment_never_closed_is_an_error_whatever_the_query() {
    let mut pgn = String::new();
    for i in 0..40 {
        pgn.push_str(&format!(
            "[Event \"e{i}\"]\n[White \"w{i}\"]\n[Result \"1-0\"]\n\n1. e4 {{c}} e5 2. Nf3 1-0\n\n"
        ));
    }
    pgn.push_str("[Event \"bad\"]\n[White \"zz\"]\n\n1. d4 {never closed\n\n");
    pgn.push_str("[Event \"swallowed\"]\n[White \"w99\"]\n\n1. c4 *\n");
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("open.pgn");
    fs::write(&path, &pgn).expect("write");
    let queries: [&[&str]; 4] = [
        &["--white", "w1"],
        &["--white", "zz"],
        &["--white", "zz", "--invert"],
        &["--moves", "1. e4"],
    ];
    for query in queries {
        for (jobs, batch) in [("1", "100000"), ("2", "300"), ("3", "97")] {
            let out = tabia()
                .env("TABIA_BATCH_BYTES", batch)
                .arg("filter")
                .arg(&path)
                .args(query)
                .args(["-j", jobs])
                .output()
                .expect("runs");
            let err = String::from_utf8(out.stderr).expect("utf-8");
            assert_eq!(out.status.code(), Some(1), "{query:?} -j {jobs}: {err}");
            assert!(
                err.contains(":244:7: game 41: comment not closed by `}`"),
                "{query:?} -j {jobs}: {err}"
            );
            let summary = err.lines().last().unwrap_or_default();
            assert!(
                summary.starts_with("games 41, matched ") && summary.contains(", errors 1,"),
                "{query:?} -j {jobs}: {summary}"
            );
        }
    }
}

/// The `Event` tags of the games written, in order.
fn events(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Event \"")
                .map(|e| e.trim_end_matches("\"]").to_owned())
        })
        .collect()
}

#[test]
fn games_by_number() {
    let pgn: String = (1..=25)
        .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
        .collect();
    for jobs in ["1", "2"] {
        let out = tabia()
            .args(["filter", "-q", "-j", jobs, "--game", "5,17-20", "-"])
            .write_stdin(pgn.clone())
            .output()
            .unwrap();
        let events = events(&out.stdout);
        assert_eq!(events, ["5", "17", "18", "19", "20"], "-j {jobs}");
    }
    tabia()
        .args(["filter", "--game", "5,20-17", "-"])
        .write_stdin(pgn)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "invalid game criterion: the minimum is above the maximum at column 3\n  | 5,20-17\n  |   ^^^^^",
        ));
}

#[test]
fn games_by_number_inverted_are_the_same_on_one_job_and_two() {
    // Odd games 1. e4, even ones 1. d4: `--invert --game 2-9 --moves "1. e4"` keeps every game
    // but the odd ones from 3 to 9 (matched, with a number asked for).
    let pgn: String = (1..=12)
        .map(|i| {
            let first = if i % 2 == 1 { "e4" } else { "d4" };
            format!("[Event \"{i}\"]\n\n1. {first} *\n\n")
        })
        .collect();
    for jobs in ["1", "2"] {
        let out = tabia()
            .args(["filter", "-q", "-j", jobs, "--invert", "--game", "2-9"])
            .args(["--moves", "1. e4", "-"])
            .write_stdin(pgn.clone())
            .output()
            .unwrap();
        let events = events(&out.stdout);
        assert_eq!(
            events,
            ["1", "2", "4", "6", "8", "10", "11", "12"],
            "-j {jobs}"
        );
    }
}

/// A `--tag` criterion naming a tag no game has is said so before the summary, with the
/// close name: a misspelt tag otherwise looks like a selection that found nothing.
#[test]
fn a_tag_no_game_has_is_named_with_the_close_one() {
    let games = "[Event \"a\"]\n[WhiteElo \"2700\"]\n[MyClub \"x\"]\n\n1. e4 *\n\n\
                 [Event \"b\"]\n\n1. d4 *\n";
    for jobs in ["1", "2"] {
        tabia()
            .args([
                "filter",
                "-j",
                jobs,
                "--tag",
                "Whiteelo>2000",
                "--tag",
                "Flavour=x",
            ])
            .args(["--tag", "Event~."])
            .write_stdin(games)
            .assert()
            .success()
            .stdout("")
            .stderr(
                "tabia: no game has a tag Whiteelo (did you mean WhiteElo?)\n\
                 tabia: no game has a tag Flavour\n\
                 games 2, matched 0, errors 0, warnings 0\n",
            );
    }
    // Quiet: nothing; a tag some game has: nothing.
    tabia()
        .args(["filter", "-q", "--tag", "Whiteelo>2000"])
        .write_stdin(games)
        .assert()
        .success()
        .stderr("");
    tabia()
        .args(["filter", "--tag", "WhiteElo>2000"])
        .write_stdin(games)
        .assert()
        .success()
        .stderr("games 2, matched 1, errors 0, warnings 0\n");
}

/// `--criteria-file`: one criterion a line, as on the command line (pgn-extract's -t); the
/// same criterion on several lines holds when any does.
#[test]
fn criteria_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let games = "[White \"Carlsen, Magnus\"]\n[Black \"Nakamura, Hikaru\"]\n[WhiteElo \"2850\"]\n\n1. e4 *\n\n\
                 [White \"Firouzja, Alireza\"]\n[Black \"Caruana, Fabiano\"]\n[WhiteElo \"2790\"]\n\n1. d4 *\n\n\
                 [White \"Doe, John\"]\n[Black \"Roe, Richard\"]\n[WhiteElo \"1500\"]\n\n1. c4 *\n";
    let players = dir.path().join("players.txt");
    fs::write(
        &players,
        "# the top players\nplayer Carlsen\n\n--player Caruana\nwhite Doe\ntag WhiteElo>2000\n",
    )
    .unwrap();
    let out = tabia()
        .args(["filter", "--no-tags", "--criteria-file"])
        .arg(&players)
        .write_stdin(games)
        .assert()
        .success()
        .get_output()
        .clone();
    // (Carlsen or Caruana) and White is Doe and WhiteElo > 2000: none; without the white line
    // the first two.
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    fs::write(
        &players,
        "player Carlsen\nplayer Caruana\ntag WhiteElo>2000\n",
    )
    .unwrap();
    tabia()
        .args(["filter", "-q", "--no-tags", "--criteria-file"])
        .arg(&players)
        .write_stdin(games)
        .assert()
        .success()
        .stdout("1. e4 *\n\n1. d4 *\n\n");
    // With command-line criteria: all hold.
    tabia()
        .args([
            "filter",
            "-q",
            "--no-tags",
            "--result",
            "1-0",
            "--criteria-file",
        ])
        .arg(&players)
        .write_stdin(games)
        .assert()
        .success()
        .stdout("");
    // A line that is not a criterion, or a bad value, is named with its line.
    let unknown = "invalid filter criterion: not a criterion: expected one of tag, player, white, \
                   black, result, elo, date,";
    for (line, message) in [
        ("json", unknown),
        (
            "elo high",
            "invalid elo criterion: expected a number at column 1\n  | high\n  | ^^^^\n",
        ),
        ("flavour sweet", unknown),
    ] {
        fs::write(&players, format!("player Carlsen\n{line}\n")).unwrap();
        let out = tabia()
            .args(["filter", "--criteria-file"])
            .arg(&players)
            .write_stdin(games)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let expected = format!("tabia: {}:2: {message}", players.display());
        assert!(stderr.starts_with(&expected), "{stderr}");
    }
}
