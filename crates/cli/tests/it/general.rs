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
