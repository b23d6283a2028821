//! One rule for what every command writes (issue 32, §2): an output that exists and is not
//! empty is refused unless --force (or --append where adding makes sense), missing parent
//! folders are created, and all of it is settled before the first byte of input is read.

use std::{fs, path::Path};

use crate::support::tabia;

const GAME: &str = "[Event \"e\"]\n[Date \"2024.05.01\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";

/// The commands that write one file, each with `{OUT}` where the file goes; `true` when the
/// command can add to it (`--append`).
fn file_commands() -> Vec<(Vec<&'static str>, bool)> {
    vec![
        (vec!["pgn", "-o", "{OUT}"], true),
        (vec!["filter", "--tag", "Event=e", "-o", "{OUT}"], true),
        (vec!["epd", "-o", "{OUT}"], true),
        (vec!["eco", "-o", "{OUT}"], true),
        (vec!["stats", "-o", "{OUT}"], true),
        (vec!["tree", "-o", "{OUT}"], true),
        (vec!["tree", "--html", "{OUT}"], false),
        (vec!["dedup", "-o", "{OUT}"], true),
        (vec!["dedup", "--duplicates", "{OUT}"], true),
        (vec!["table", "-o", "{OUT}"], false),
        (
            vec!["book", "build", "--min-games", "1", "-o", "{OUT}"],
            false,
        ),
    ]
}

fn with_out(args: &[&str], out: &Path) -> Vec<String> {
    args.iter()
        .map(|arg| arg.replace("{OUT}", &out.display().to_string()))
        .collect()
}

#[test]
fn an_existing_output_is_refused_before_any_input_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // Never opened: the refusal comes first (else `cannot open … missing.pgn` would show).
    let missing = dir.path().join("missing.pgn");
    for (args, can_append) in file_commands() {
        let out = dir.path().join("out.txt");
        fs::write(&out, "mine\n").unwrap();
        let append = if can_append {
            ", --append adds to it"
        } else {
            ""
        };
        tabia()
            .args(with_out(&args, &out))
            .arg(&missing)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "tabia: {} exists already: --force replaces it{append}\n",
                out.display()
            ));
        assert_eq!(fs::read_to_string(&out).unwrap(), "mine\n", "{args:?}");
    }
    // The same for the commands that read no games.
    let out = dir.path().join("board.svg");
    fs::write(&out, "mine").unwrap();
    tabia()
        .args(["show", "startpos", "-f", "svg", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(format!(
            "tabia: {} exists already: --force replaces it\n",
            out.display()
        ));
    tabia()
        .args(["show", "startpos", "-f", "svg", "--force", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert!(fs::read_to_string(&out).unwrap().starts_with("<svg"));
}

#[test]
fn force_replaces_append_adds_and_parents_are_created() {
    let dir = tempfile::tempdir().unwrap();
    // Two copies of a game: `dedup --duplicates` has one to write.
    for (args, can_append) in file_commands() {
        let out = dir.path().join(format!("new/{}/out", args.join("-")));
        // Missing folders are made, before the games are read.
        tabia()
            .args(with_out(&args, &out))
            .arg("-q")
            .write_stdin(GAME.repeat(2))
            .assert()
            .success();
        let first = fs::read(&out).unwrap();
        assert!(!first.is_empty(), "{args:?}");
        tabia()
            .args(with_out(&args, &out))
            .args(["-q", "--force"])
            .write_stdin(GAME.repeat(2))
            .assert()
            .success();
        // (A Parquet file's metadata and stats's last line hold times.)
        let timed = matches!(args[0], "table" | "stats");
        let second = fs::read(&out).unwrap();
        if timed {
            assert!(second.len().abs_diff(first.len()) < 8, "{args:?}");
        } else {
            assert_eq!(second, first, "{args:?}");
        }
        if can_append {
            tabia()
                .args(with_out(&args, &out))
                .args(["-q", "--append"])
                .write_stdin(GAME.repeat(2))
                .assert()
                .success();
            let appended = fs::read(&out).unwrap();
            if timed {
                assert!(appended.starts_with(&second), "{args:?}");
                assert!(appended.len() > second.len() + 100, "{args:?}");
            } else {
                assert_eq!(appended, [&first[..], &first[..]].concat(), "{args:?}");
            }
        }
    }
}

#[test]
fn an_empty_file_is_no_output_to_keep() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pgn");
    fs::write(&out, "").unwrap();
    tabia()
        .args(["pgn", "-q", "-o"])
        .arg(&out)
        .write_stdin(GAME)
        .assert()
        .success();
    assert!(fs::read_to_string(&out).unwrap().contains("1. e4 e5"));
}

#[test]
fn a_folder_that_is_not_empty_is_refused_and_force_replaces_a_partitioned_table() {
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts");
    fs::create_dir_all(&parts).unwrap();
    fs::write(parts.join("notes.txt"), "mine").unwrap();
    tabia()
        .args(["split", "--games", "1", "-o"])
        .arg(&parts)
        .arg(dir.path().join("missing.pgn"))
        .assert()
        .code(2)
        .stderr(format!(
            "tabia: {} exists already: --force replaces it, --append adds to it\n",
            parts.display()
        ));

    let table = dir.path().join("games");
    let run = |extra: &[&str]| {
        tabia()
            .args([
                "table",
                "-q",
                "--partition",
                "year",
                "--format",
                "csv",
                "-o",
            ])
            .arg(&table)
            .args(extra)
            .write_stdin(GAME)
            .assert()
    };
    run(&[]).success();
    // A second run no longer adds a second part file, whose rows would count twice.
    run(&[]).code(2).stderr(format!(
        "tabia: {} exists already: --force replaces it, --append adds to it\n",
        table.display()
    ));
    let parts = |table: &Path| {
        let mut names: Vec<_> = fs::read_dir(table.join("year=2024"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    assert_eq!(parts(&table), ["part-0.csv"]);
    run(&["--force"]).success();
    assert_eq!(parts(&table), ["part-0.csv"]);
    run(&["--append"]).success();
    assert_eq!(parts(&table), ["part-0.csv", "part-1.csv"]);
    // A table file cannot be added to.
    tabia()
        .args(["table", "--append", "-o"])
        .arg(dir.path().join("t.parquet"))
        .write_stdin(GAME)
        .assert()
        .code(2)
        .stderr(
            "tabia: --append adds part files to a partitioned table (--partition): a table \
             file can only be replaced (--force)\n",
        );
}
