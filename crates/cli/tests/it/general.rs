//! What every subcommand shares: help, usage errors, exit codes.

use predicates::prelude::*;

use crate::support::tabia;

#[test]
fn help_shows_examples_inputs_and_exit_codes() {
    tabia()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Examples:\n  tabia pgn --check games.pgn.zst",
        ))
        .stdout(predicate::str::contains(
            "Exit status:\n  0  all input good",
        ));
}

#[test]
fn every_subcommand_help_shows_examples() {
    for sub in ["pgn", "fen", "epd", "eco", "validate", "show"] {
        tabia()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "Examples:\n  tabia {sub}"
            )));
    }
}

#[test]
fn usage_error_is_status_2() {
    tabia()
        .arg("--no-such-option")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "unexpected argument '--no-such-option'",
        ));
    tabia().assert().code(2);
}

#[test]
fn version() {
    tabia()
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("tabia {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn zero_jobs_says_what_is_wrong() {
    tabia()
        .args(["pgn", "-j", "0", "-"])
        .write_stdin("1. e4 *\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "error: invalid value '0' for '--jobs <N>': at least one worker thread is needed \
             (leave -j out to use all cores)\n\nFor more information, try '--help'.\n",
        );
}

#[test]
fn help_headings_and_examples_are_laid_out() {
    // `filter -h`: the run options and the files are not criteria.
    let out = tabia().args(["filter", "-h"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let tags = help
        .split("Criteria on tags:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap();
    for option in ["--jobs", "--quiet", "--warnings", "[FILE]"] {
        assert!(!tags.contains(option), "{option} under criteria:\n{tags}");
    }
    // An example's description is three spaces or more after its command, or on a line of
    // its own: `tabia epd -j 4 the EPD of every ply` reads as one command.
    for sub in [
        "pgn", "epd", "eco", "validate", "show", "table", "book", "tree", "dedup", "split",
        "filter", "stats", "fen",
    ] {
        let out = tabia().args([sub, "--help"]).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        for line in help.lines().filter(|l| l.starts_with("  tabia ")) {
            let rest = &line[2..];
            if let Some(gap) = rest.find("  ") {
                let spaces = rest[gap..].len() - rest[gap..].trim_start().len();
                assert!(spaces >= 3, "{sub}: {line:?}");
            }
        }
    }
}
