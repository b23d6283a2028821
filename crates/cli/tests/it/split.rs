//! `tabia split`.

use std::path::Path;

use super::{support::fixture, tabia};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("a file the test wrote")
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the split folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn by_key_with_safe_names_unknown_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = "[White \"Carlsen, Magnus\"]\n1. e4 *\n\
                 [White \"../../etc/passwd\"]\n1. d4 *\n\
                 [White \"Carlsen, Magnus\"]\n1. c4 *\n\
                 1. Nf3 *\n\
                 [White \"errors\"]\n1. e4 e5 2. Ke3 *\n\
                 [White \"errors\"]\n1. b3 *\n";
    tabia()
        .args(["split", "--by", "white", "-o"])
        .arg(&out)
        .args(["--no-tags", "--line-length", "0"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "<stdin>:9:13: game 5: illegal move 2. Ke3 (ply 3): no white king can go to e3\n\
             games 6, written 5, files 5, errors 1, warnings 0\n",
        );
    assert_eq!(
        names(&out),
        [
            "Carlsen_2C+Magnus.pgn",
            "_2E_2E_2F_2E_2E_2Fetc_2Fpasswd.pgn",
            "_65rrors.pgn",
            "_unknown.pgn",
            "errors.pgn"
        ]
    );
    assert_eq!(
        read(&out.join("Carlsen_2C+Magnus.pgn")),
        "1. e4 *\n1. c4 *\n"
    );
    assert_eq!(read(&out.join("_unknown.pgn")), "1. Nf3 *\n");
    assert_eq!(read(&out.join("_65rrors.pgn")), "1. b3 *\n");
    assert_eq!(
        read(&out.join("errors.pgn")),
        "[White \"errors\"]\n1. e4 e5 2. Ke3 *\n\n"
    );
    // A second run refuses to touch the files; --append adds, --force overwrites.
    tabia()
        .args(["split", "--by", "white", "-o"])
        .arg(&out)
        .write_stdin("1. e4 *")
        .assert()
        .code(2)
        .stderr(format!(
            "tabia: {} exists already: --force replaces it, --append adds to it\n",
            out.display()
        ));
    tabia()
        .args([
            "split",
            "-q",
            "--by",
            "white",
            "--append",
            "--no-tags",
            "-o",
        ])
        .arg(&out)
        .write_stdin("1. g3 *")
        .assert()
        .success();
    assert_eq!(read(&out.join("_unknown.pgn")), "1. Nf3 *\n1. g3 *\n\n");
    tabia()
        .args([
            "split",
            "-q",
            "--by",
            "white",
            "--force",
            "--drop-errors",
            "-o",
        ])
        .arg(&out)
        .args(["--no-tags", "--line-length", "0"])
        .write_stdin("1. a3 *\n1. e4 Ke7 *")
        .assert()
        .code(1);
    assert_eq!(read(&out.join("_unknown.pgn")), "1. a3 *\n");
    assert_eq!(
        read(&out.join("errors.pgn")),
        "[White \"errors\"]\n1. e4 e5 2. Ke3 *\n\n"
    );
}

#[test]
fn by_count_then_concatenated_gives_the_input_games() {
    let input = fixture("forms/input.pgn");
    let whole = tabia().args(["pgn", "-q"]).arg(&input).output().unwrap();
    for (n, files) in [(1, 4), (3, 2), (10, 1)] {
        for jobs in ["1", "2"] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("parts");
            tabia()
                .args(["split", "-q", "-j", jobs, "--games", &n.to_string(), "-o"])
                .arg(&out)
                .arg(&input)
                .assert()
                .success();
            let parts = names(&out);
            assert_eq!(parts.len(), files, "{parts:?}");
            assert_eq!(parts[0], "part-00001.pgn");
            let joined: String = parts.iter().map(|p| read(&out.join(p))).collect();
            assert_eq!(joined, String::from_utf8(whole.stdout.clone()).unwrap());
        }
    }
}

#[test]
fn by_count_over_two_inputs_numbers_the_parts_across_them() {
    // Two inputs of 4 games: N games a part counts the games of both, so no part holds more
    // than N (the parts once restarted from the first with each input).
    let input = fixture("forms/input.pgn");
    let whole = tabia().args(["pgn", "-q"]).arg(&input).output().unwrap();
    let twice = String::from_utf8(whole.stdout).unwrap().repeat(2);
    for (n, files) in [(1, 8), (3, 3), (10, 1)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("parts");
        tabia()
            .args(["split", "-q", "--games", &n.to_string(), "-o"])
            .arg(&out)
            .args([&input, &input])
            .assert()
            .success();
        let parts = names(&out);
        assert_eq!(parts.len(), files, "{parts:?}");
        let joined: String = parts.iter().map(|p| read(&out.join(p))).collect();
        assert_eq!(joined, twice);
    }
}

#[test]
fn by_eco_year_month_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let input = "[Date \"1959.04.01\"]\n[ECO \"C20\"]\n1. e4 c5 *\n\
                 [Date \"1960.??.??\"]\n1. d4 *\n";
    let run = |by: &str, extra: &[&str]| {
        let out = dir.path().join(by.replace(':', "-"));
        tabia()
            .args(["split", "-q", "--by", by, "--no-tags", "-o"])
            .arg(&out)
            .args(extra)
            .write_stdin(input)
            .assert()
            .success();
        names(&out)
    };
    assert_eq!(run("eco", &[]), ["C20.pgn", "_unknown.pgn"]);
    assert_eq!(
        run("eco", &["--eco-by-position", "--force"]),
        ["A40.pgn", "B20.pgn", "C20.pgn", "_unknown.pgn"]
    );
    assert_eq!(run("year", &[]), ["1959.pgn", "1960.pgn"]);
    assert_eq!(run("month", &[]), ["1959-04.pgn", "_unknown.pgn"]);
    assert_eq!(
        run("tag:Date", &["--compress", "zst"]),
        ["1959_2E04_2E01.pgn.zst", "1960_2E_3F_3F_2E_3F_3F.pgn.zst"]
    );
    let bytes = std::fs::read(dir.path().join("tag-Date/1959_2E04_2E01.pgn.zst")).unwrap();
    assert_eq!(zstd::decode_all(&bytes[..]).unwrap(), b"1. e4 c5 *\n\n");
}

#[test]
fn a_mode_is_required() {
    tabia()
        .args(["split", "-o", "x"])
        .write_stdin("*")
        .assert()
        .code(2);
}

#[test]
fn an_output_that_is_a_file_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.pgn");
    std::fs::write(&file, "").unwrap();
    tabia()
        .args(["split", "--games", "1", "-o"])
        .arg(&file)
        .arg("-")
        .write_stdin("1. e4 *\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "tabia: {} is a file: -o names the folder to write into\n",
            file.display()
        ));
}
