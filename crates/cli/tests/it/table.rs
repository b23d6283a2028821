//! `tabia table`: every game read gets its row, in input order whatever `-j`, bad games
//! reported and counted; CSV and Parquet outputs.

use crate::support::{Codec, compress, fixture, numbered_games, tabia};

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
    // Batches of a few games, each read and encoded in pieces of half a batch: the same rows.
    for bytes in ["1", "300", "3000"] {
        let out = dir.path().join(format!("games-b{bytes}.csv"));
        tabia()
            .args(["table", "--moves", "-j", "3", "-o"])
            .arg(&out)
            .env("TABIA_BATCH_BYTES", bytes)
            .write_stdin(input.clone())
            .assert()
            .code(1);
        let csv = std::fs::read_to_string(&out).unwrap();
        let moves =
            std::fs::read_to_string(dir.path().join(format!("games-b{bytes}.moves.csv"))).unwrap();
        assert_eq!(
            Some(csv + &moves),
            previous,
            "batches of {bytes} bytes change nothing"
        );
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
    for (args, message) in [
        (
            &["--part-games", "5"][..],
            "the following required arguments were not provided:\n  --partition <KEYS>",
        ),
        (
            &["--partition", "year", "--part-games", "0"][..],
            "invalid value '0' for '--part-games <N>': 0 is not in 1..",
        ),
    ] {
        tabia()
            .args(["table", "-o"])
            .arg(dir.path().join("y"))
            .args(args)
            .write_stdin("1. e4 *")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
}

/// `--part-games N` cuts a partition into part files of N games, the moves' with the games'.
#[test]
fn part_files_of_part_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    tabia()
        .args([
            "table",
            "-q",
            "--moves",
            "--format",
            "csv",
            "--partition",
            "year",
        ])
        .args(["--part-games", "40", "-j", "2", "-o"])
        .arg(&out)
        .env("TABIA_BATCH_BYTES", "500")
        .write_stdin(numbered_games(100))
        .assert()
        .code(1);
    let folder = std::fs::read_dir(&out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut rows = 0;
    for n in 0.. {
        let part = folder.join(format!("part-{n}.csv"));
        if !part.exists() {
            break;
        }
        let games = std::fs::read_to_string(&part).unwrap().lines().count() - 1;
        assert!((40..50).contains(&games) || !folder.join(format!("part-{}.csv", n + 1)).exists());
        rows += games;
        let moves = dir
            .path()
            .join("games.moves")
            .join(folder.file_name().unwrap())
            .join(format!("part-{n}.csv"));
        assert!(moves.exists(), "{}", moves.display());
    }
    assert_eq!(rows, 100, "every game in a part");
}

/// `tabia table` reports every game's problems exactly as `tabia pgn --check` does: the
/// variations are checked too (an illegal move or a syntax error in a variation is the game's
/// error), and so are the repaired moves and results against the board (warnings). The errors
/// are the games' rows' `errors`, the warnings their `warnings`.
#[test]
fn problems_as_pgn_check_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "table/variations.pgn",
        "position/err/illegal.pgn",
        "position/err/lenient.pgn",
        "pgn/ok/nested.pgn",
        "pgn/ok/annotations.pgn",
        "pgn/err/unclosed-variation.pgn",
    ] {
        let path = fixture(name);
        let check = tabia()
            .current_dir(path.parent().unwrap())
            .args(["pgn", "--check"])
            .arg(path.file_name().unwrap())
            .output()
            .unwrap();
        let out = dir.path().join("games.csv");
        let table = tabia()
            .current_dir(path.parent().unwrap())
            .args(["table", "--moves", "--force", "-o"])
            .arg(&out)
            .arg(path.file_name().unwrap())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&table.stderr),
            String::from_utf8_lossy(&check.stderr),
            "{name}: the same problems as pgn --check"
        );
        assert_eq!(table.status.code(), check.status.code(), "{name}");
    }
    let out = dir.path().join("variations.csv");
    tabia()
        .args(["table", "-q", "--moves", "-o"])
        .arg(&out)
        .arg(fixture("table/variations.pgn"))
        .assert()
        .code(1);
    let csv = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = csv
        .split("\r\n")
        .skip(1)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 4, "every game has its row");
    assert!(
        rows[0].contains(r#"[""4:45: move 3. Bb5 gives check, read as Bb5+"",""4:56: move 4. Bxd7 gives check, read as Bxd7+""]"#),
        "the variations' warnings on the game's row: {}",
        rows[0]
    );
    assert!(
        rows[1].contains(r#"[""9:51: illegal move 4. Bxe7 (ply 7, in a variation): no white bishop can go to e7""]"#),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].contains("14:20: invalid SAN move `Zz9`"),
        "{}",
        rows[2]
    );
    let moves = std::fs::read_to_string(dir.path().join("variations.moves.csv")).unwrap();
    assert_eq!(
        moves.split("\r\n").filter(|l| !l.is_empty()).count(),
        1 + 3 + 3 + 1 + 7,
        "the mainline moves of the games that read (1 and 4); of the bad ones, the plies \
         replayed before the error: the whole mainline of 2 (its illegal move is in a \
         variation), 1. e4 of 3 (its syntax error comes before 1... e5)"
    );
}

#[test]
fn a_cut_input_keeps_its_whole_games_in_the_table_and_the_stats() {
    use std::io::Read;

    // A download cut in the middle: several zstd blocks (of 128 KiB), half of them whole.
    let mut bytes = compress(Codec::Zstd, numbered_games(20_000).as_bytes());
    bytes.truncate(bytes.len() / 2);
    // The games before the last game start of what can be decompressed are whole.
    let mut text = Vec::new();
    let decoded = zstd::stream::read::Decoder::new(&bytes[..])
        .unwrap()
        .read_to_end(&mut text);
    assert!(decoded.is_err(), "the input is cut");
    let whole = text.windows(7).filter(|w| w == b"[Event ").count() - 1;
    assert!(whole > 1000, "{whole}");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.pgn.zst");
    std::fs::write(&input, &bytes).unwrap();
    // One thread (a PGN reader over the input) and the workers (chunks of it) alike.
    for (jobs, batch) in [("1", None), ("2", Some("4096")), ("2", None)] {
        let out = dir.path().join(format!("games-{jobs}-{batch:?}.csv"));
        let mut table = tabia();
        if let Some(batch) = batch {
            table.env("TABIA_BATCH_BYTES", batch);
        }
        let assert = table
            .args(["table", "-j", jobs, "-o"])
            .arg(&out)
            .arg(&input)
            .assert()
            .code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains("cut.pgn.zst: read error: incomplete frame"),
            "{stderr}"
        );
        assert!(
            stderr.ends_with(&format!(
                "games {whole}, errors {}, warnings 0, unreadable inputs 1\n",
                whole / 10
            )),
            "jobs {jobs}, batch {batch:?}: {stderr}"
        );
        let csv = std::fs::read_to_string(&out).unwrap();
        let rows = csv.split("\r\n").filter(|l| !l.is_empty()).count() - 1;
        assert_eq!(
            rows, whole,
            "jobs {jobs}, batch {batch:?}: a row per whole game"
        );
        let mut stats = tabia();
        if let Some(batch) = batch {
            stats.env("TABIA_BATCH_BYTES", batch);
        }
        let assert = stats
            .args(["stats", "--json", "-j", jobs])
            .arg(&input)
            .assert()
            .code(2);
        let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        assert_eq!(
            json["games"].as_u64(),
            Some(whole as u64),
            "jobs {jobs}, batch {batch:?}"
        );
    }
}
