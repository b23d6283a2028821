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
    let neo_indian = "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq -";
    let (code, out, err) = eco(&["--position", neo_indian, "--position", "startpos"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "E00\tE00a\tQueen's Pawn: Neo-Indian\t1. d4 Nf6 2. c4 e6\n-\t-\tno named position\t-\n"
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
        "{\"position\":\"junk\",\"error\":{\"message\":\"invalid piece placement \
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
