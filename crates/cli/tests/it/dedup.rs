//! `tabia dedup`, on `fixtures/dedup/`: `a.pgn` (a bad game, a copy of its first game with
//! more annotations, a transposition) and `b.pgn.gz` (a copy of a game of `a.pgn`).

use std::path::Path;

use super::{support::fixture, tabia};

fn inputs() -> [String; 2] {
    let path = |p: &str| fixture(p).to_string_lossy().into_owned();
    [path("dedup/a.pgn"), path("dedup/b.pgn.gz")]
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("a file the test wrote")
}

const ONE_LINE: [&str; 3] = ["--no-tags", "--line-length", "0"];

#[test]
fn by_moves_keeps_the_first_copy_across_compressed_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.pgn");
    let [a, b] = inputs();
    tabia()
        .args(["dedup", &a, &b, "--duplicates"])
        .arg(&dups)
        .args(ONE_LINE)
        .assert()
        .code(1)
        .stdout(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n1. d4 d5 2. c4 *\n\
             1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n1. c4 e5 *\n",
        )
        .stderr(format!(
            "{a}:14:13: game 3: illegal move 2. Ke3 (ply 3): no white king can go to e3\n\
             games 7, kept 4, duplicates 2, errors 1, warnings 0\n"
        ));
    assert_eq!(
        read(&dups),
        format!(
            "[DuplicateOf \"{a}#1\"] 1. e4 $1 {{best}} 1... e5 2. Nf3 Nc6 3. Bb5 $1 1-0\n\
             [DuplicateOf \"{a}#2\"] 1. d4 d5 2. c4 1/2-1/2\n"
        )
    );
}

#[test]
fn duplicates_get_the_tag_after_their_own_tags() {
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.pgn");
    let out = dir.path().join("out.pgn");
    let [a, b] = inputs();
    tabia()
        .args(["dedup", "-q", &a, &b, "--strip", "tags", "-o"])
        .arg(&out)
        .arg("--duplicates")
        .arg(&dups)
        .assert()
        .code(1)
        .stdout("");
    assert_eq!(read(&out).matches("[Event ").count(), 4);
    let dups = read(&dups);
    assert_eq!(dups.matches("[DuplicateOf ").count(), 2, "{dups}");
    assert!(
        dups.ends_with(&format!(
            "[Event \"Two, elsewhere\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n[DuplicateOf \"{a}#2\"]\n\n\
             1. d4 d5 2. c4 1/2-1/2\n\n"
        )),
        "{dups}"
    );
}

#[test]
fn by_position_and_fuzzy_depth() {
    let [a, b] = inputs();
    tabia()
        .args(["dedup", "-q", "--by", "position", &a, &b])
        .args(ONE_LINE)
        .assert()
        .code(1)
        .stdout("1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n1. d4 d5 2. c4 *\n1. c4 e5 *\n");
    tabia()
        .args(["dedup", "--fuzzy-depth", "1", &a, &b])
        .args(ONE_LINE)
        .assert()
        .code(1)
        .stdout(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n1. d4 d5 2. c4 *\n\
             1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n1. c4 e5 *\n",
        )
        .stderr(predicates::str::ends_with(
            "games 7, kept 4, duplicates 2, errors 1, warnings 0\n",
        ));
}

#[test]
fn most_annotated_copy_is_kept_at_the_first_place() {
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.pgn");
    let [a, b] = inputs();
    tabia()
        .args(["dedup", "--keep", "most-annotated", &a, &b, "--duplicates"])
        .arg(&dups)
        .args(ONE_LINE)
        .assert()
        .code(1)
        .stdout(
            "1. e4 $1 {best} 1... e5 2. Nf3 Nc6 3. Bb5 $1 1-0\n1. d4 d5 2. c4 *\n\
             1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n1. c4 e5 *\n",
        )
        .stderr(predicates::str::ends_with(
            "games 7, kept 4, duplicates 2, errors 1, warnings 0\n",
        ));
    assert_eq!(
        read(&dups),
        format!(
            "[DuplicateOf \"{a}#4\"] 1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\
             [DuplicateOf \"{a}#2\"] 1. d4 d5 2. c4 1/2-1/2\n"
        )
    );
    tabia()
        .args(["dedup", "--keep", "most-annotated"])
        .write_stdin("1. e4 *")
        .assert()
        .code(2)
        .stderr(
            "tabia: --keep most-annotated reads its inputs twice: name files, not standard \
             input\n",
        );
}

#[test]
fn a_collection_twice_dedups_to_itself() {
    let input = fixture("forms/input.pgn");
    let once = tabia().args(["dedup", "-q"]).arg(&input).output().unwrap();
    let twice = tabia()
        .args(["dedup", "-j", "2"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert!(!once.stdout.is_empty());
    assert_eq!(once.stdout, twice.stdout);
    assert_eq!(
        String::from_utf8(twice.stderr).unwrap(),
        "games 8, kept 4, duplicates 4, errors 0, warnings 0\n"
    );
}
