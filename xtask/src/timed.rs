//! `cargo xtask timed`: the hostile-input tests that assert linear time (the work at N and 8N
//! timed in one test, the ratio bounded), built in release and run one at a time with
//! `TABIA_TIMED` set. Under `cargo test` (debug, tests side by side) the same tests check what
//! the work gives and the memory it holds, but assert no time: a debug build on a busy machine
//! measures the machine, not the algorithm.

use std::process::Command;

use anyhow::{Context, bail};

/// The test binaries with timed tests, and the filter that picks those tests.
const SUITES: [(&str, &str); 2] = [("tabia-notation", "hostile"), ("tabia-position", "hostile")];

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    if let Some(extra) = args.first() {
        bail!("timed takes no arguments (got `{extra}`)");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    for (package, filter) in SUITES {
        println!("== {package}: {filter} tests, release, one at a time");
        let status = Command::new(&cargo)
            .args(["test", "--release", "-p", package, "--test", "it", filter])
            .args(["--", "--test-threads=1"])
            .env("TABIA_TIMED", "1")
            .current_dir(crate::project_root())
            .status()
            .with_context(|| format!("running cargo test -p {package}"))?;
        if !status.success() {
            bail!("timed tests of {package} failed");
        }
    }
    Ok(())
}
