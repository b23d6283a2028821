//! `tabia eco`: games and positions named with the embedded table and with tables loaded from
//! `fixtures/eco/tables` (small tables written for these tests), bad games and bad tables.

use std::{fs, path::PathBuf};

use super::tabia;

/// The `fixtures/eco` folder; commands run there so that diagnostics name relative paths.
fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/eco")
}

fn expected(name: &str) -> String {
    fs::read_to_string(dir().join(name)).expect("fixture")
}

/// Runs `tabia eco ARGS` in `fixtures/eco`: exit code, stdout, stderr.
fn eco(args: &[&str]) -> (i32, String, String) {
    let out = tabia()
        .current_dir(dir())
        .arg("eco")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

#[test]
fn games_with_the_embedded_table() {
    // Games 2 and 3 reach the same position by different move orders: one name.
    let (code, out, err) = eco(&["-q", "ok/games.pgn"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, expected("ok/games.out"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1].split_once('\t').map(|x| x.1),
        lines[2].split_once('\t').map(|x| x.1)
    );
    assert!(lines[3].contains("unclassified: Chess960"));
    assert!(lines[4].contains("unclassified: non-standard start"));
    // The same lines in the same order with two workers.
    let (code, parallel, _) = eco(&["-q", "-j", "2", "ok/games.pgn", "ok/games.pgn"]);
    assert_eq!((code, parallel), (0, out.repeat(2)));
}

#[test]
fn games_as_ndjson() {
    let (code, out, _) = eco(&["-q", "--json", "ok/games.pgn"]);
    assert_eq!(code, 0);
    assert_eq!(out, expected("ok/games.json"));
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert!(v["game"].is_u64() && v["status"].is_string(), "{line}");
    }
}

#[test]
fn games_re_emitted_with_tags() {
    let (code, out, _) = eco(&["-q", "--tag", "ok/games.pgn"]);
    assert_eq!(code, 0);
    assert_eq!(out, expected("ok/games.tagged.pgn"));
    // Tagged again, nothing changes: the summary says so.
    let (code, again, err) = eco(&["--tag", "ok/games.tagged.pgn"]);
    assert_eq!(code, 0);
    assert_eq!(again, out);
    assert_eq!(
        err,
        "games 7, tags added 0, changed 0, removed 0, errors 0, warnings 0\n"
    );
}

/// Lichess's own tags are kept where the table names the game as they do; a stale name is
/// changed, a pgn-extract `Variation` removed (the lichess name holds it); with Scid's table
/// the tags are written as pgn-extract writes them.
#[test]
fn tags_change_only_where_the_table_names_the_game_otherwise() {
    let games = "[ECO \"C70\"]\n[Opening \"Ruy Lopez: Morphy Defense\"]\n\n\
                 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. d3 *\n\n\
                 [ECO \"A45\"]\n[Opening \"Indian Defense\"]\n\n\
                 1. d4 Nf6 2. Nf3 c5 *\n\n\
                 [ECO \"C20\"]\n[Opening \"King's Pawn Game\"]\n[Variation \"x\"]\n\n1. e4 e5 *\n";
    let out = tabia()
        .args(["eco", "--tag", "-"])
        .write_stdin(games)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let tags: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("[ECO") || l.starts_with("[Opening") || l.starts_with("[Var"))
        .collect();
    assert_eq!(
        tags,
        [
            "[ECO \"C70\"]",
            "[Opening \"Ruy Lopez: Morphy Defense\"]",
            "[ECO \"A46\"]",
            "[Opening \"Indian Defense: Spielmann-Indian\"]",
            "[ECO \"C20\"]",
            "[Opening \"King's Pawn Game\"]",
        ]
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "games 3, tags added 0, changed 2, removed 1, errors 0, warnings 0\n"
    );
    let out = tabia()
        .args(["eco", "--tag", "--openings", "scid", "-q", "-"])
        .write_stdin(games)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("[Opening \"Spanish\"]\n[Variation \"3...a6\"]"),
        "{text}"
    );
}

#[test]
fn each_table_format() {
    for format in ["pgn", "eco", "tsv"] {
        let table = format!("tables/small.{format}");
        let (code, out, err) = eco(&["-q", "--table", &table, "ok/games.pgn"]);
        assert_eq!((code, err.as_str()), (0, ""), "{format}");
        assert_eq!(
            out,
            expected(&format!("ok/games.{format}-table.out")),
            "{format}"
        );
    }
}

#[test]
fn standard_input() {
    let out = tabia()
        .current_dir(dir())
        .args(["eco", "-q", "-"])
        .write_stdin(expected("ok/games.pgn"))
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        expected("ok/games.out")
    );
}

#[test]
fn moves_read_leniently_are_classified_as_the_checker_reads_them() {
    // A wrong capture mark and a bishop's lowercase `b`: no error, the same opening as the
    // game written right; with --check, the warnings of `tabia pgn --check`.
    let run = |args: &[&str], pgn: &str| {
        let out = tabia()
            .args(["eco"])
            .args(args)
            .arg("-")
            .write_stdin(pgn.to_owned())
            .output()
            .expect("runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let right = run(&[], "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 *\n");
    let slips = run(&[], "1. e4 e5 2. Nxf3 Nc6 3. Bb5 a6 4. bxc6 *\n");
    assert_eq!(slips, right);
    assert!(
        right.1.ends_with("games 1, errors 0, warnings 0\n"),
        "{}",
        right.1
    );
    // The capture mark is a note (listed with --warnings each), the bishop's `b` a guess.
    let (_, checked) = run(&["--check"], "1. e4 e5 2. Nxf3 Nc6 3. Bb5 a6 4. bxc6 *\n");
    assert_eq!(
        checked,
        "<stdin>:1:35: game 1: warning: move 4. bxc6 is no pawn's move but a bishop's with a \
         lowercase `b`, read as Bxc6\n\
         games 1, errors 0, warnings 1, notes 1\n"
    );
    let (_, each) = run(
        &["--check", "--warnings", "each"],
        "1. e4 e5 2. Nxf3 Nc6 3. Bb5 a6 4. bxc6 *\n",
    );
    assert_eq!(
        each,
        "<stdin>:1:13: game 1: note: move 2. Nxf3 is written as a capture but takes \
         nothing, read as Nf3\n\
         <stdin>:1:35: game 1: warning: move 4. bxc6 is no pawn's move but a bishop's with a \
         lowercase `b`, read as Bxc6\n\
         games 1, errors 0, warnings 1, notes 1\n"
    );
}

#[test]
fn bad_games_are_reported_and_the_rest_classified() {
    let (code, out, err) = eco(&["-q", "err/illegal.pgn"]);
    assert_eq!(code, 1);
    assert_eq!(out, expected("err/illegal.out"));
    assert_eq!(err, expected("err/illegal.err"));
    // With --json a bad game also gets its line, with the error instead of the opening.
    let (code, out, err) = eco(&["-q", "--json", "err/illegal.pgn"]);
    assert_eq!(code, 1);
    assert_eq!(out, expected("err/illegal.json"));
    assert_eq!(err, expected("err/illegal.err"));
}

#[test]
fn bad_tables_stop_the_run() {
    for table in ["err/unclosed-name.eco", "err/illegal-move.tsv"] {
        let (code, out, err) = eco(&["--table", table, "ok/games.pgn"]);
        assert_eq!((code, out.as_str()), (2, ""), "{table}");
        let stem = table.trim_end_matches(".eco").trim_end_matches(".tsv");
        assert_eq!(err, expected(&format!("{stem}.err")), "{table}");
    }
}

#[test]
fn positions() {
    let nimzo = "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq -";
    let (code, out, err) = eco(&["--position", nimzo, "--position", "startpos"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "E20\t-\tNimzo-Indian Defense\t1. d4 Nf6 2. c4 e6 3. Nc3 Bb4\n-\t-\tno named position\t-\n"
    );
    // Scid's table names it too, and the starting position.
    let (code, out, _) = eco(&[
        "--openings",
        "scid",
        "--position",
        nimzo,
        "--position",
        "startpos",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "E20\t-\tNimzo-Indian Defence\t1. d4 Nf6 2. c4 e6 3. Nc3 Bb4\nA00\tA00a\tStart position\t\n"
    );
    let (code, out, _) = eco(&[
        "--json",
        "--table",
        "tables/small.eco",
        "--position",
        "startpos",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"position\":\"startpos\",\"status\":\"named\",\"eco\":\"A00\",\"extended\":\"A00a\",\
         \"name\":\"Start position\",\"ply\":0,\"moves\":\"\"}\n"
    );
    let (code, out, _) = eco(&["--json", "--position", "junk"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "{\"position\":\"junk\",\"error\":{\"message\":\"invalid piece placement `j` \
         (expected a piece letter, a digit 1 to 8 or `/`)\"}}\n"
    );
    let (code, out, err) = eco(&["--position", "junk"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "position 1: invalid piece placement (expected a piece letter, a digit 1 to 8 or `/`) \
         at line 1, column 1\n  | junk\n  | ^\n"
    );
}

/// `tabia eco --check` reports what it read leniently as `tabia pgn` does: each warning on standard
/// error (`FILE:LINE:COL: game N: warning: …`), counted in the summary, in the `--json`
/// line's `warnings`; the games are classified all the same.
#[test]
fn lenient_reading_warnings_are_reported_as_pgn_reports_them() {
    let games = "1. e2e4 e5 2. Ng1-f3 Nc6 3. Bb5+ a6 *\n\n\
                 [Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
                 1. e4 e5\n";
    let warnings = "<stdin>:1:4: game 1: note: move 1. e2e4 is in UCI notation, read as e4\n\
         <stdin>:1:15: game 1: note: move 2. Ng1-f3 is in long algebraic notation, read as Nf3\n\
         <stdin>:1:29: game 1: note: move 3. Bb5+ gives no check, read as Bb5\n\
         <stdin>:5:16: game 2: warning: result 1-0 but the game ends in black mates (0-1)\n\
         <stdin>:7:9: game 3: warning: game has no result, read as `*`\n";
    let pgn = tabia()
        .args(["pgn", "--check", "--warnings", "each"])
        .write_stdin(games)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(pgn.stderr).unwrap(),
        format!("{warnings}games 3, errors 0, warnings 2, notes 3\n")
    );
    let classified = "1\tC70\t-\tRuy Lopez: Morphy Defense\t6\n\
                      2\tA00\tA00b\tBarnes Opening: Fool's Mate\t4\n\
                      3\tC20\t-\tKing's Pawn Game\t2\n";
    tabia()
        .args(["eco", "--check", "--warnings", "each"])
        .write_stdin(games)
        .assert()
        .success()
        .stdout(classified)
        .stderr(format!(
            "{warnings}games 3, errors 0, warnings 2, notes 3\n"
        ));
    // Without --check only the opening is read (the rest skipped unchecked): the same names,
    // no warnings.
    tabia()
        .arg("eco")
        .write_stdin(games)
        .assert()
        .success()
        .stdout(classified)
        .stderr("games 3, errors 0, warnings 0\n");
    let json = tabia()
        .args(["eco", "--check", "--json", "-q"])
        .write_stdin(games)
        .output()
        .unwrap();
    let json = String::from_utf8(json.stdout).unwrap();
    let lines: Vec<&str> = json.lines().collect();
    assert!(lines[0].ends_with(
        "\"warnings\":[{\"file\":\"<stdin>\",\"line\":1,\"column\":4,\"game\":1,\"message\":\"move 1. e2e4 is in UCI notation, read as e4\",\"level\":\"note\"},\
         {\"file\":\"<stdin>\",\"line\":1,\"column\":15,\"game\":1,\"message\":\"move 2. Ng1-f3 is in long algebraic notation, read as Nf3\",\"level\":\"note\"},\
         {\"file\":\"<stdin>\",\"line\":1,\"column\":29,\"game\":1,\"message\":\"move 3. Bb5+ gives no check, read as Bb5\",\"level\":\"note\"}]}"
    ), "{}", lines[0]);
    assert!(lines[2].contains("\"message\":\"game has no result, read as `*`\""));
    // --tag repairs the games as `tabia pgn` does, with the same warnings; the summary counts
    // the tags it added (ECO and Opening for each game).
    tabia()
        .args(["eco", "--tag", "--warnings", "each"])
        .write_stdin(games)
        .assert()
        .success()
        .stderr(format!(
            "{warnings}games 3, tags added 6, changed 0, removed 0, errors 0, warnings 2, \
             notes 3\n"
        ));
}

/// `-j 1` reads in one pass on the reader thread, other `-j` through the pipeline: the same
/// lines, diagnostics and summary either way, with and without `--check`, bad games included
/// (a syntax error, illegal moves in the opening's 40 plies, warnings that only `--check`
/// reports, and an illegal move after them, which neither reports: the opening is named all
/// the same).
#[test]
fn one_pass_and_pipeline_agree() {
    let mut shuffle = String::from("1. a3 h6 2. a4 h5");
    for n in 3..=20 {
        let m = if n % 2 == 1 { "Ra2 Rh7" } else { "Ra1 Rh8" };
        shuffle.push_str(&format!(" {n}. {m}"));
    }
    let games = format!(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
         1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 O-O 5. a3 Bxc3+ 6. Qxc3 b6 7. Ke8 *\n\n\
         1. e4 Zz9 *\n\n\
         [Event \"next\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n\n\
         1. e2e4 c5 2. g1f3 *\n\n\
         {shuffle} 21. Ke8 *\n"
    );
    for check in [false, true] {
        let run = |jobs: &str| {
            let mut args = vec!["eco", "-j", jobs];
            if check {
                args.push("--check");
            }
            let out = tabia()
                .args(&args)
                .write_stdin(games.clone())
                .output()
                .unwrap();
            (
                out.status.code(),
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap(),
            )
        };
        let one = run("1");
        assert_eq!(one, run("2"), "check: {check}");
        assert_eq!(one, run("3"), "check: {check}");
        assert_eq!(one.0, Some(1));
        let summary = one.2.lines().last().unwrap().to_owned();
        let expected = if check {
            "games 6, errors 3, warnings 0, notes 2"
        } else {
            "games 6, errors 3, warnings 0"
        };
        assert_eq!(summary, expected, "{}", one.2);
    }
}
