//! `tabia book`: build, probe, dump, merge; malformed books are errors naming the byte.

use predicates::prelude::PredicateBooleanExt as _;

use crate::support::{dedup_and_index, fixture, index_inputs, tabia};

fn stdout(args: &[&str]) -> String {
    let out = tabia().args(args).output().expect("runs");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn build_probe_dump_merge() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.bin").display().to_string();
    let games = fixture("book/games.pgn").display().to_string();
    for jobs in ["1", "2"] {
        tabia()
            .args([
                "book",
                "build",
                "-j",
                jobs,
                "--min-games",
                "1",
                "--force",
                &games,
                "-o",
                &book,
            ])
            .assert()
            .code(1)
            .stderr(
                predicates::str::contains("tabia: ")
                    .and(predicates::str::contains(": 89 entries\n")),
            );
    }
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 89 * 16);
    assert_eq!(
        stdout(&["book", "probe", &book, "startpos", "e4"]),
        "position  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nkey       823c9b50fd114196\n\n\
         move  uci    weight   share  learn\n\
         c5    c7c5        2   50.0%      0\n\
         e5    e7e5        2   50.0%      0\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["book", "probe", "--json", &book, "startpos"])).unwrap();
    assert_eq!(json["key"], "463b96181691fc9c");
    assert_eq!(json["moves"][0]["san"], "e4");
    assert_eq!(json["moves"][0]["weight"], 4);
    assert_eq!(json["moves"][0]["percent"], 50.0);
    let dump = stdout(&["book", "dump", &book]);
    assert_eq!(dump.lines().count(), 89);
    assert!(
        dump.starts_with("01bf79b5cdcb06c6  d8h4       1  0\n0844931a6ef4b9a0  g1f3       2  0\n"),
        "{dump}"
    );
    let ndjson = stdout(&["book", "dump", "--json", &book]);
    assert!(ndjson.starts_with("{\"offset\":0,\"key\":\"01bf79b5cdcb06c6\",\"move\":\"d8h4\",\"code\":3807,\"weight\":1,\"learn\":0}\n"));
    let merged = dir.path().join("merged.bin").display().to_string();
    tabia()
        .args(["book", "merge", &book, &book, "-o", &merged])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["book", "probe", "--json", &merged, "startpos"])).unwrap();
    assert_eq!(json["moves"][0]["weight"], 8, "weights add up");
}

#[test]
fn a_malformed_book_is_an_error_naming_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, [0u8; 21]).unwrap();
    let bad = bad.display().to_string();
    let out = dir.path().join("x").display().to_string();
    for args in [
        &["book", "dump", &bad][..],
        &["book", "probe", &bad, "startpos"],
        &["book", "merge", &bad, &bad, "-o", &out],
    ] {
        tabia()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "tabia: {bad}: bad move 0x0000 (a1a1) in the entry at byte 0\n"
            ));
    }
    std::fs::write(dir.path().join("short.bin"), [1u8; 21]).unwrap();
    let short = dir.path().join("short.bin").display().to_string();
    tabia()
        .args(["book", "dump", &short])
        .assert()
        .code(2)
        .stderr(format!(
            "tabia: {short}: truncated book: the entry at byte 16 has 5 of its 16 bytes\n"
        ));
}

#[test]
fn a_pgn_file_is_not_a_book() {
    let games = fixture("book/games.pgn").display().to_string();
    tabia()
        .args(["book", "probe", &games, "startpos"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "tabia: {games}: not a Polyglot book: it starts with text (a book is 16-byte \
             binary entries)\n"
        ));
}

#[test]
fn a_book_from_an_index_is_the_book_of_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let (index, dedup) = dedup_and_index(dir.path(), &index_inputs());
    for options in [
        &["--min-games", "1"][..],
        &["--min-games", "2", "--weight", "score", "--max-ply", "6"],
        &["--min-games", "1", "--only", "black", "--weight", "wins"],
    ] {
        let from_games = dir.path().join("games.bin").display().to_string();
        let from_index = dir.path().join("index.bin").display().to_string();
        let mut args = vec!["book", "build", "--force", "-o", &from_games, &dedup];
        args.extend_from_slice(options);
        tabia().args(&args).assert().success();
        let mut args = vec![
            "book",
            "build",
            "--force",
            "-o",
            &from_index,
            "--index",
            &index,
        ];
        args.extend_from_slice(options);
        tabia().args(&args).assert().success();
        let dump = stdout(&["book", "dump", &from_games]);
        assert!(dump.lines().count() > 3, "{options:?}: {dump}");
        assert_eq!(dump, stdout(&["book", "dump", &from_index]), "{options:?}");
        for moves in [
            &["startpos"][..],
            &["startpos", "e4"],
            &["startpos", "e4", "e5"],
        ] {
            let probe = |book: &str| {
                let mut args = vec!["book", "probe", book];
                args.extend_from_slice(moves);
                stdout(&args)
            };
            assert_eq!(
                probe(&from_games),
                probe(&from_index),
                "{options:?} {moves:?}"
            );
        }
    }
    tabia()
        .args(["book", "build", "-o", "x.bin", "--index", &index, &dedup])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with"));
}
