//! `tabia pgn`.

use predicates::str::contains;

use super::{tabia, unknown_roster};

fn fixture(path: &str) -> String {
    format!("{}/../../fixtures/pgn/{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn re_emits_the_sample_in_export_format() {
    let expected = std::fs::read_to_string(fixture("ok/sample.out")).unwrap();
    tabia()
        .args(["pgn", "-q", &fixture("ok/sample.pgn")])
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn reads_standard_input() {
    tabia()
        .args(["pgn", "-q"])
        .write_stdin("1.e4 e5 2.Nf3 1-0")
        .assert()
        .success()
        .stdout(unknown_roster("1-0") + "1. e4 e5 2. Nf3 1-0\n\n");
    tabia()
        .args(["pgn", "-q", "-"])
        .write_stdin("[White \"x\"] 1. d4 *")
        .assert()
        .success()
        .stdout(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"x\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. d4 *\n\n",
        );
}

#[test]
fn check_reports_each_bad_game_and_the_summary() {
    let input = "1. e4 e5 1-0\n\n1. e4 Zz9 2. Nf3 0-1\n\n[Event \"x\"]\n1. d4 ) *\n\n1. c4 *\n";
    tabia()
        .args(["pgn", "--check"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "<stdin>:3:7: game 2: invalid SAN move `Zz9`\n\
             <stdin>:6:7: game 3: `)` closes no variation\n\
             games 4, errors 2, warnings 0\n",
        );
}

#[test]
fn without_check_good_games_are_still_written() {
    let out = tabia()
        .args(["pgn", "-j", "2"])
        .write_stdin("1. e4 $999 *\n1. d4 *\n")
        .assert()
        .code(1)
        .stderr(contains("<stdin>:1:7: game 1: invalid NAG"))
        .stderr(contains("games 2, errors 1, warnings 0"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        unknown_roster("*") + "1. d4 *\n\n"
    );
}

#[test]
fn all_good_exits_zero_with_summary() {
    tabia()
        .args(["pgn", "--check", &fixture("ok/sample.pgn")])
        .assert()
        .success()
        .stdout("")
        .stderr("games 1, errors 0, warnings 0\n");
}

#[test]
fn missing_file_is_a_failure() {
    tabia()
        .args(["pgn", "--check", "/nonexistent/x.pgn"])
        .assert()
        .code(2)
        .stderr(contains("cannot open /nonexistent/x.pgn"));
}

#[test]
fn illegal_moves_are_errors_and_wrong_results_warnings() {
    let input = "1. e4 e5 2. Ke3 *\n\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n1. d4 (1. d5) *\n\n1. c4 *\n";
    let mated = unknown_roster("1-0") + "1. f3 e5 2. g4 Qh4# 1-0\n\n";
    tabia()
        .args(["pgn"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(mated + &unknown_roster("*") + "1. c4 *\n\n")
        .stderr(
            "<stdin>:1:13: game 1: illegal move 2. Ke3 (ply 3): no white king can go to e3\n\
             <stdin>:5:16: game 2: warning: result 1-0 but the game ends in black mates (0-1)\n\
             <stdin>:7:11: game 3: illegal move 1. d5 (ply 1, in a variation): it is white's move, and this is a move for black\n\
             games 4, errors 2, warnings 1\n",
        );
}

#[test]
fn warnings_alone_exit_zero_and_strict_makes_them_errors() {
    let input = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n1. c4 *\n";
    let warning =
        "<stdin>:3:16: game 1: warning: result 1-0 but the game ends in black mates (0-1)\n";
    tabia()
        .args(["pgn", "--check"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout("")
        .stderr(format!("{warning}games 2, errors 0, warnings 1\n"));
    tabia()
        .args(["pgn", "--strict"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(unknown_roster("*") + "1. c4 *\n\n")
        .stderr(
            "<stdin>:3:16: game 1: result 1-0 but the game ends in black mates (0-1)\n\
             games 2, errors 1, warnings 0\n",
        );
}

#[test]
fn json_carries_the_warnings() {
    let input = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4 1-0\n\n1. c4 *\n";
    let out = tabia()
        .args(["pgn", "--json", "-q"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0]["warnings"],
        serde_json::json!([{
            "file": "<stdin>",
            "line": 3,
            "column": 16,
            "game": 1,
            "message": "move 2... Qh4 mates, read as Qh4#",
            "level": "note"
        }, {
            "file": "<stdin>",
            "line": 3,
            "column": 16,
            "game": 1,
            "message": "result 1-0 but the game ends in black mates (0-1)",
            "level": "warning"
        }])
    );
    assert!(
        lines[1].get("warnings").is_none(),
        "left out when there is none"
    );
}

/// The standard error of `tabia pgn ARGS FILE`.
fn stderr_of(args: &[&str], file: &str) -> String {
    let out = tabia()
        .args(["pgn"])
        .args(args)
        .arg(file)
        .output()
        .expect("run tabia");
    String::from_utf8(out.stderr).expect("UTF-8")
}

#[test]
fn check_streams_and_says_what_the_game_tree_says() {
    // `--check` replays while reading (on the reader thread with one job, on the workers with
    // more); writing the games builds and checks the tree. Same diagnostics, same summary, on
    // every PGN fixture and on messy input cut at every line.
    let mut files = Vec::new();
    for dir in ["pgn/ok", "pgn/err", "position/ok", "position/err", "eco"] {
        let dir = format!("{}/../../fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "pgn") {
                files.push(path.display().to_string());
            }
        }
    }
    assert!(files.len() > 15, "{files:?}");
    let messy = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n1. e4 e5 (1... c5 2. Nf3 \
                 (2. Nc3 Nc6 3. Ke3) d6) 2. Nf3 *\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n\
                 1. e4 *\n\n1. e4 f5 2. Qh5+ -- *\n\n1. d4 ( 1. e4 { open\n e5 *\n\n1. c4 $1 !? \
                 e5 2. Nc3 Nf6 3. -- Bb4 1/2-1/2\n";
    let dir = tempfile::tempdir().expect("temporary folder");
    let lines: Vec<&str> = messy.split_inclusive('\n').collect();
    for n in 1..=lines.len() {
        let path = dir.path().join(format!("messy{n}.pgn"));
        std::fs::write(&path, lines[..n].concat()).expect("write");
        files.push(path.display().to_string());
    }
    let mut warned = 0;
    for file in &files {
        let tree = stderr_of(&["-j", "1"], file);
        warned += usize::from(tree.contains("warning:"));
        for jobs in ["1", "2"] {
            assert_eq!(
                stderr_of(&["--check", "-j", jobs], file),
                tree,
                "{file} -j {jobs}"
            );
            let strict_tree = stderr_of(&["--strict", "-j", jobs], file);
            assert_eq!(
                stderr_of(&["--check", "--strict", "-j", jobs], file),
                strict_tree,
                "{file} --strict -j {jobs}"
            );
        }
    }
    assert!(warned > 3, "{warned}");
}

#[test]
fn annotations_out_of_the_export_order_are_written_in_it() {
    // Games are written as they are read, except those whose NAGs and comments the export puts
    // elsewhere than the text does (before the variations, NAGs before comments): those are
    // written from their tree. Both kinds, mixed, on one job and two, from pgn and filter.
    let games = "1. e4 (1. d4) $1 {c} e5 2. Nf3 *\n\n\
                 1. e4 $1 {c} (1. d4) e5 2. Nf3 *\n\n\
                 1. e4 {c} $1 (1. d4) e5 2. Nf3 *\n\n\
                 1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";
    let same = format!(
        "{}1. e4 $1 {{c}} (1. d4) 1... e5 2. Nf3 *\n\n",
        unknown_roster("*")
    );
    let last = format!("{}1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n", unknown_roster("*"));
    let expected = format!("{same}{same}{same}{last}");
    for args in [
        &["pgn", "-j", "1"][..],
        &["pgn", "-j", "2"],
        &["filter", "-j", "1", "--plies", "3.."],
        &["filter", "-j", "2", "--plies", "3.."],
    ] {
        tabia()
            .args(args)
            .arg("-q")
            .write_stdin(games)
            .assert()
            .success()
            .stdout(expected.clone());
    }
}
