//! The output forms (`--notation`, `--strip`, `--add`, …) of the commands that write games,
//! on `fixtures/forms/`: each `NAME.args` (one argument per line) run by `tabia pgn` over
//! `input.pgn` must give `NAME.out` exactly.

use super::{support::fixture, tabia};

#[test]
fn every_form_fixture_gives_its_expected_output() {
    let dir = fixture("forms");
    let input = dir.join("input.pgn");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "args"))
        .collect();
    entries.sort();
    for args_path in entries {
        let args = std::fs::read_to_string(&args_path).unwrap();
        let expected = std::fs::read_to_string(args_path.with_extension("out")).unwrap();
        let out = tabia()
            .arg("pgn")
            .arg("-q")
            .args(args.lines())
            .arg(&input)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", args_path.display());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{}",
            args_path.display()
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} fixtures");
}

#[test]
fn san_forms_read_back_to_the_same_tree() {
    let input = fixture("forms/input.pgn");
    let export = tabia()
        .args(["pgn", "-q"])
        .arg(&input)
        .output()
        .unwrap()
        .stdout;
    for args in [
        &["--line-length=0"][..],
        &["--line-length=30"],
        &["--no-move-numbers"],
        &["--line-length=0", "--no-move-numbers"],
    ] {
        let out = tabia()
            .args(["pgn", "-q"])
            .args(args)
            .arg(&input)
            .output()
            .unwrap();
        assert!(out.status.success());
        let again = tabia()
            .args(["pgn", "-q"])
            .write_stdin(out.stdout)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(again.stdout).unwrap(),
            String::from_utf8(export.clone()).unwrap(),
            "{args:?}"
        );
    }
}

#[test]
fn bad_form_options_are_usage_errors() {
    tabia()
        .args(["pgn", "--lang", "xx"])
        .write_stdin("*")
        .assert()
        .code(2)
        .stderr(
            "tabia: --lang xx: not a known language nor six letters for pawn, knight, bishop, \
             rook, queen, king (such as BSLTDK)\n",
        );
    tabia()
        .args(["pgn", "--strip", "bogus"])
        .write_stdin("*")
        .assert()
        .code(2);
}
