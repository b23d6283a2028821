//! Lenient reading (issue 10): every game that can be read is written, repaired where its
//! warnings say; the warnings are reported like errors but keep the game; `--strict` makes
//! them errors. And the export reads back: `tabia pgn FILE | tabia pgn` keeps every game and
//! gives the same text.

use std::path::Path;

use super::{support::fixture, tabia};

/// Runs `tabia pgn ARGS` on `stdin` or the files named: (stdout, stderr, exit code).
fn pgn(args: &[&str], stdin: Option<&[u8]>) -> (String, String, i32) {
    let mut cmd = tabia();
    cmd.arg("pgn").args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes.to_vec());
    }
    let out = cmd.output().expect("tabia runs");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
        out.status.code().expect("an exit code"),
    )
}

/// The expected text of `name` next to the lenient fixture (`TABIA_BLESS=1` rewrites it).
fn expect(name: &str, actual: &str) {
    tabia_testkit::expect_file(&fixture("position/err").join(name), actual);
}

#[test]
fn each_lenient_case_is_read_repaired_and_warned_about() {
    let input = fixture("position/err/lenient.pgn");
    let name = input.display().to_string();
    let (out, err, code) = pgn(&["--warnings", "each", &name], None);
    assert_eq!(code, 1, "the three bad games make the status 1");
    let err = err.replace(&format!("{name}:"), "lenient.pgn:");
    expect("lenient.stderr", &err);
    expect("lenient.export", &out);
    assert!(
        err.ends_with("games 27, errors 3, warnings 14, notes 34\n"),
        "{err}"
    );
    // By default the notes (what changes nothing of a game: check marks, lowercase letters,
    // castling with zeros) are only counted, and the first ten warnings of an input listed.
    let (_, default, _) = pgn(&[&name], None);
    let default = default.replace(&format!("{name}:"), "lenient.pgn:");
    assert_eq!(default.matches(": note: ").count(), 0, "{default}");
    assert_eq!(default.matches(": warning: ").count(), 10, "{default}");
    assert!(
        default.ends_with(
            "lenient.pgn: and 4 more warnings (--warnings each lists them)\n\
             games 27, errors 3, warnings 14, notes 34\n"
        ),
        "{default}"
    );
    // -q: the errors only.
    let (_, quiet, _) = pgn(&["-q", &name], None);
    assert_eq!(quiet.lines().count(), 3, "{quiet}");
    // Warnings alone: status 0; the same diagnostics with --check.
    let (check_out, check_err, _) = pgn(&["--check", "--warnings", "each", &name], None);
    assert_eq!(check_out, "");
    assert_eq!(check_err.replace(&format!("{name}:"), "lenient.pgn:"), err);
    let (_, _, code) = pgn(&[], Some(b"1. e2e4 e5 *\n"));
    assert_eq!(code, 0);
}

#[test]
fn the_repaired_export_reads_back_without_warnings() {
    let input = fixture("position/err/lenient.pgn");
    let (first, _, _) = pgn(&["-q", &input.display().to_string()], None);
    let (second, err, code) = pgn(&[], Some(first.as_bytes()));
    assert_eq!(second, first);
    // What is kept as given is still warned about: the unreachable position, the result
    // against the board.
    assert_eq!(
        (err.as_str(), code),
        (
            "<stdin>:56:1: game 6: warning: FEN tag gives a position no game can reach (the \
             king is in a check that no legal move could give), read as given\n\
             <stdin>:177:16: game 17: warning: result 1-0 but the game ends in black mates \
             (0-1)\ngames 24, errors 0, warnings 2\n",
            0
        )
    );
}

#[test]
fn strict_makes_warnings_errors_and_drops_those_games() {
    let input = fixture("position/err/lenient.pgn");
    let name = input.display().to_string();
    let clean = [
        "[Event \"castling with zeros and promotions spelt four ways\"]",
        "[Event \"redundant disambiguation\"]",
        "[Event \"no disambiguation where the other knight is pinned\"]",
    ];
    // --strict: the games with a warning are dropped; those with notes only are written.
    let (out, err, code) = pgn(&["--strict", &name], None);
    assert_eq!(code, 1);
    let events: Vec<&str> = out.lines().filter(|l| l.starts_with("[Event ")).collect();
    let noted = [
        "[Event \"long algebraic and UCI moves\"]",
        "[Event \"long algebraic pawn capture\"]",
        "[Event \"UCI promotion\"]",
        "[Event \"wrong check marks\"]",
        "[Event \"wrong capture marks\"]",
        "[Event \"an en-passant mark\"]",
        "[Event \"figurines\"]",
        "[Event \"evaluation symbols written as text, and a pawn's P\"]",
    ];
    assert_eq!(events, [&clean[..], &noted[..]].concat());
    assert!(
        err.ends_with("games 27, errors 16, warnings 0, notes 27\n"),
        "{err}"
    );
    // --strict-notes: only the three games read without a warning or a note are written.
    let (out, err, code) = pgn(&["--strict-notes", &name], None);
    assert_eq!(code, 1);
    let events: Vec<&str> = out.lines().filter(|l| l.starts_with("[Event ")).collect();
    assert_eq!(events, clean);
    assert!(err.ends_with("games 27, errors 24, warnings 0\n"), "{err}");
    assert!(
        err.contains(": game 27: game has no result, read as `*`\n"),
        "a warning reported as an error, without `warning:`: {err}"
    );
}

#[test]
fn epd_reports_the_same_warnings_as_pgn() {
    let input = fixture("position/err/lenient.pgn");
    let name = input.display().to_string();
    let (_, pgn_err, _) = pgn(&["--check", &name], None);
    for args in [&["epd"][..], &["epd", "--json"], &["epd", "--start"]] {
        let out = tabia().args(args).arg(&name).output().expect("runs");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert_eq!(err, pgn_err, "{args:?}");
    }
}

/// `tabia pgn FILE | tabia pgn`: every game of the first export is in the second, and the
/// second export is the first, on every PGN fixture and, when present, the shared corpus.
#[test]
fn export_of_the_export_is_the_export() {
    let mut paths = Vec::new();
    for dir in [
        "pgn/ok",
        "pgn/err",
        "position/ok",
        "position/err",
        "variants",
    ] {
        let Ok(entries) = std::fs::read_dir(fixture(dir)) else {
            continue;
        };
        paths.extend(
            entries
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "pgn")),
        );
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if let Ok(entries) = std::fs::read_dir(&corpus) {
        paths.extend(entries.map(|e| e.expect("entry").path()).filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".pgn") || name.ends_with(".pgn.zst")
        }));
    }
    paths.sort();
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let name = path.display().to_string();
        let (first, err, _) = pgn(&["-j", "2", &name], None);
        let games = summary_games(&err) - summary_errors(&err);
        let (second, err2, code) = pgn(&["-j", "2"], Some(first.as_bytes()));
        assert_eq!(summary_games(&err2), games, "{name}: games kept");
        assert_eq!((summary_errors(&err2), code), (0, 0), "{name}: {err2}");
        assert!(second == first, "{name}: the second export differs");
    }
}

/// The `games N` of a summary line.
fn summary_games(stderr: &str) -> u64 {
    count(stderr, "games ")
}

/// The `errors N` of a summary line.
fn summary_errors(stderr: &str) -> u64 {
    count(stderr, ", errors ")
}

fn count(stderr: &str, label: &str) -> u64 {
    let summary = stderr.lines().last().expect("a summary");
    let at = summary.find(label).expect("the label") + label.len();
    let digits: String = summary[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a count")
}

/// `--warnings count`: the same output, exit status and summary, and standard error without
/// the warnings' lines (errors still each on theirs), on one job and two, for the commands
/// that read games.
#[test]
fn warnings_count_leaves_out_only_the_warning_lines() {
    let input = fixture("position/err/lenient.pgn");
    let name = input.display().to_string();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let table = dir.path().join("t.parquet").display().to_string();
    let commands: [&[&str]; 6] = [
        &["pgn"],
        &["epd", "--json"],
        &["pgn", "--check"],
        &["filter", "--result", "1-0"],
        &["stats"],
        &["table", "--force", "-o", &table],
    ];
    for command in commands {
        for jobs in ["1", "2"] {
            let run = |extra: &[&str]| {
                let out = tabia()
                    .args(command)
                    .args(["-j", jobs, &name])
                    .args(extra)
                    .output()
                    .expect("runs");
                // `stats` writes the time taken, which differs from run to run.
                let untimed = |bytes: Vec<u8>| -> String {
                    let text = String::from_utf8(bytes).expect("UTF-8");
                    text.lines()
                        .filter(|l| !l.starts_with("time "))
                        .map(|l| format!("{l}\n"))
                        .collect()
                };
                (untimed(out.stdout), untimed(out.stderr), out.status.code())
            };
            let each = run(&["--warnings", "each"]);
            let count = run(&["--warnings", "count"]);
            assert_eq!(count.0, each.0, "{command:?} -j {jobs}: output");
            assert_eq!(count.2, each.2, "{command:?} -j {jobs}: status");
            let (warned, kept): (Vec<&str>, Vec<&str>) = each
                .1
                .lines()
                .partition(|l| l.contains(": warning: ") || l.contains(": note: "));
            assert!(!warned.is_empty(), "{command:?}: lenient.pgn warns");
            if command == ["pgn"] {
                let errors = kept.iter().filter(|l| l.contains(": game ")).count();
                assert_eq!(errors, 3, "the three bad games are still reported");
            }
            let expected: String = kept.iter().map(|l| format!("{l}\n")).collect();
            assert_eq!(count.1, expected, "{command:?} -j {jobs}");
        }
    }
}

/// A NAG before the first move (`$10 1. e4`, a game's annotation in some databases) is read
/// as python-chess reads it, with a warning, instead of refusing the game.
#[test]
fn a_nag_before_the_first_move_is_dropped_with_a_warning() {
    let input = "[Event \"x\"]\n\n$10 1. e4 e5 *\n";
    for extra in [&[][..], &["--check"], &["-j", "1", "--line-length", "40"]] {
        let (out, err, code) = pgn(extra, Some(input.as_bytes()));
        assert_eq!(code, 0, "{extra:?}");
        assert_eq!(
            err,
            "<stdin>:3:1: game 1: warning: NAG $10 before the first move annotates no move, \
             dropped\ngames 1, errors 0, warnings 1\n",
            "{extra:?}"
        );
        if extra.is_empty() {
            assert!(out.ends_with("[Result \"*\"]\n\n1. e4 e5 *\n\n"), "{out}");
        }
    }
}
