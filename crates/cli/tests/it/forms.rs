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

/// Every `.pgn` under `dir`, recursively, sorted.
fn pgn_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable fixture folder") {
        let path = entry.expect("a readable fixture").path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
    out.sort();
}

/// The round-trip guarantee of the UCI and long algebraic forms, on every PGN fixture (variant
/// games, Chess960, set-ups, null moves, variations and comments included): written in UCI or
/// LAN and read back by `tabia pgn`, every game has the same moves: its UCI form (mainline,
/// variations, comments) is the UCI form of the original, game for game.
#[test]
fn uci_and_lan_forms_read_back_to_the_same_moves() {
    let mut files = Vec::new();
    pgn_files(&fixture(""), &mut files);
    assert!(files.len() >= 30, "only {} fixtures", files.len());
    let uci = |bytes: Vec<u8>| {
        tabia()
            .args(["pgn", "-q", "--notation", "uci"])
            .write_stdin(bytes)
            .output()
            .unwrap()
            .stdout
    };
    let mut games = 0;
    for file in &files {
        let original = tabia()
            .args(["pgn", "-q", "--notation", "uci"])
            .arg(file)
            .output()
            .unwrap()
            .stdout;
        games += String::from_utf8_lossy(&original)
            .matches("\n[Event ")
            .count();
        for notation in ["uci", "lan"] {
            let written = tabia()
                .args(["pgn", "-q", "--notation", notation])
                .arg(file)
                .output()
                .unwrap()
                .stdout;
            assert_eq!(
                String::from_utf8_lossy(&uci(written)),
                String::from_utf8_lossy(&original),
                "{notation}: {}",
                file.display()
            );
        }
    }
    assert!(games >= 100, "only {games} games");
}

/// `--json` of every command that writes games carries what the output form says: moves in
/// its notation, stripped parts absent, added tags present, the `pgn` text in the form.
#[test]
fn json_lines_carry_the_output_form() {
    let input = fixture("forms/input.pgn");
    let form = [
        "--json",
        "--notation=uci",
        "--strip=comments,tags",
        "--add=plycount",
        "--no-results",
    ];
    let check = |command: &str, line: &str| {
        assert!(
            line.starts_with(&format!(
                "{{\"file\":\"{}\",\"game\":1,\"line\":1,\"tags\":[[\"Event\",\"Casual\"]",
                input.display()
            )),
            "{command}: {line}"
        );
        for present in [
            "\"moves\":[\"e2e4\",\"e7e5\",\"g1f3\",\"b8c6\",\"f1b5\",",
            "[\"PlyCount\",\"85\"]",
            "\"pgn\":\"[Event \\\"Casual\\\"]\\n",
            "\\n\\n1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. b5a4 (4. b5c6 d7c6 5. e1g1",
        ] {
            assert!(line.contains(present), "{command}: {present} in {line}");
        }
        for absent in [
            "Annotator",
            "TimeControl",
            "A sharp game",
            "Morphy",
            "\"clocks\"",
            "\"emts\"",
            "\"evals\"",
            "\"result\"",
            " 1-0\"",
        ] {
            assert!(!line.contains(absent), "{command}: {absent} in {line}");
        }
    };
    for command in [&["pgn"][..], &["filter", "--player", "Tal"], &["dedup"]] {
        let out = tabia()
            .args(command)
            .arg("-q")
            .args(form)
            .arg(&input)
            .output()
            .unwrap();
        assert!(out.status.success(), "{command:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        check(command[0], text.lines().next().unwrap());
    }
    let dir = tempfile::tempdir().unwrap();
    tabia()
        .args(["split", "-q", "--games", "100", "-o"])
        .arg(dir.path())
        .args(form)
        .arg(&input)
        .assert()
        .success();
    let part = std::fs::read_to_string(dir.path().join("part-00001.ndjson")).unwrap();
    check("split", part.lines().next().unwrap());
    assert!(!dir.path().join("part-00001.pgn").exists());

    // The duplicates of `dedup --json` name the kept game in `duplicate_of`.
    let dups = dir.path().join("dups.ndjson");
    let out = tabia()
        .args(["dedup", "-q", "--json", "--notation=lan", "--duplicates"])
        .arg(&dups)
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let kept = String::from_utf8(out.stdout).unwrap();
    let dups = std::fs::read_to_string(dups).unwrap();
    assert_eq!(kept.lines().count(), dups.lines().count());
    let first = dups.lines().next().unwrap();
    assert!(
        first.contains("\"moves\":[\"e2-e4\",\"e7-e5\",\"Ng1-f3\""),
        "{first}"
    );
    assert!(
        first.ends_with(&format!(",\"duplicate_of\":\"{}#1\"}}", input.display())),
        "{first}"
    );
}

/// `dedup`, `split` and `filter` write a game read leniently repaired, as `tabia pgn` does,
/// and report the same warnings.
#[test]
fn commands_that_write_games_repair_them_as_pgn_does() {
    let input = "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0\"]\n\n\
                 1. e2e4 e5 2. Ng1-f3+ *\n";
    let pgn = tabia()
        .args(["pgn", "--warnings", "each"])
        .write_stdin(input)
        .output()
        .unwrap();
    let expected = String::from_utf8(pgn.stdout).unwrap();
    assert!(
        expected.contains("KQkq - 0 1\"]\n\n1. e4 e5 2. Nf3 *"),
        "{expected}"
    );
    let warnings = String::from_utf8(pgn.stderr).unwrap();
    let warnings = warnings.matches("warning:").count() + warnings.matches("note:").count();
    assert!(warnings >= 3, "{warnings}");
    for command in [&["dedup"][..], &["filter", "--plies", "0..10"]] {
        let out = tabia()
            .args(command)
            .args(["--warnings", "each"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{command:?}"
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            stderr.matches("warning:").count() + stderr.matches("note:").count(),
            warnings,
            "{command:?}: {stderr}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    tabia()
        .args(["split", "-q", "--games", "5", "-o"])
        .arg(dir.path())
        .write_stdin(input)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("part-00001.pgn")).unwrap(),
        expected
    );
}
