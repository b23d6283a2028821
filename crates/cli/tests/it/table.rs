//! `tabia table`: every game read gets its row, in input order whatever `-j`, bad games
//! reported and counted; CSV and Parquet outputs.

use crate::support::{Codec, compress, numbered_games, tabia};

#[test]
fn rows_in_input_order_with_bad_games_reported() {
    let dir = tempfile::tempdir().unwrap();
    let input = compress(Codec::Zstd, numbered_games(300).as_bytes());
    let mut previous: Option<String> = None;
    for jobs in ["1", "2", "3"] {
        let out = dir.path().join(format!("games-{jobs}.csv"));
        let assert = tabia()
            .args(["table", "--moves", "-j", jobs, "-o"])
            .arg(&out)
            .write_stdin(input.clone())
            .assert()
            .code(1);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains("<stdin>:39:"),
            "the bad game 10 reported with its place: {stderr}"
        );
        assert!(
            stderr.ends_with("games 300, errors 30, warnings 0\n"),
            "{stderr}"
        );
        let csv = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 301, "a header and one row per game read");
        assert!(lines[0].starts_with("Event,Site,White,Black,Result,"));
        for (i, line) in lines[1..].iter().enumerate() {
            assert!(
                line.starts_with(&format!("{},", i + 1)),
                "input order: {line}"
            );
            let bad = (i + 1) % 10 == 0;
            assert_eq!(line.contains("invalid SAN move"), bad, "{line}");
        }
        let moves =
            std::fs::read_to_string(dir.path().join(format!("games-{jobs}.moves.csv"))).unwrap();
        if let Some(previous) = &previous {
            assert_eq!(
                &(csv.clone() + &moves),
                previous,
                "-j {jobs} changes nothing"
            );
        }
        previous = Some(csv + &moves);
    }
}

#[test]
fn parquet_by_default_and_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.parquet");
    tabia()
        .args(["table", "-q", "-o"])
        .arg(&out)
        .write_stdin("[Event \"a\"]\n\n1. e4 e5 1-0\n")
        .assert()
        .success()
        .stderr("");
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    tabia()
        .args(["table", "--nested", "--format", "csv", "-o"])
        .arg(dir.path().join("x.csv"))
        .write_stdin("1. e4 *")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "nested moves are a Parquet feature",
        ));
}
