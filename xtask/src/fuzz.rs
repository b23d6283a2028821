//! The `fuzz` task: runs the cargo-fuzz targets of `fuzz/` for a bounded time each.
//!
//! `cargo xtask fuzz [TARGET…] [--seconds N] [--sanitizer none|address]`
//!
//! - installs `cargo-fuzz` (`cargo install cargo-fuzz --locked`) when it is missing;
//! - sets `RUSTC_BOOTSTRAP=1`, since only a stable toolchain is at hand and cargo-fuzz passes
//!   nightly-only flags (`-Z sanitizer`, `-Z …`);
//! - seeds `fuzz/corpus/<target>/` (gitignored) from `fixtures/`: one file per line of the FEN
//!   and EPD fixtures, per token of the SAN fixtures and of the `filter` cases (`criteria`),
//!   per PGN file for the PGN targets (`select` and `table` also take the PGN of their
//!   command's fixture folder);
//! - runs each target (all of them without TARGET) for N seconds (default 60) with
//!   `-max_total_time=N`, a 10 s per-input timeout (a hang) and a 2 GB memory limit
//!   (AddressSanitizer's quarantine counts in it);
//! - builds with AddressSanitizer, and falls back to `--sanitizer none` if that build fails on
//!   this toolchain (it says so);
//! - prints, per target, the executions run, the corpus size and the findings (new files in
//!   `fuzz/artifacts/<target>/`), and fails if anything was found.

use std::{
    collections::BTreeSet,
    fs,
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::Context;

/// Which fixtures seed which target, and how a fixture file is cut into seeds.
const SEEDS: &[(&str, &str, &str, Cut)] = &[
    ("fen", "fen", "fen", Cut::Lines),
    ("fen", "epd", "epd", Cut::Lines),
    ("epd", "epd", "epd", Cut::Lines),
    ("epd", "fen", "fen", Cut::Lines),
    ("san", "san", "san", Cut::Tokens),
    ("pgn", "pgn", "pgn", Cut::Whole),
    ("reader", "pgn", "pgn", Cut::Whole),
    ("replay", "pgn", "pgn", Cut::Whole),
    ("criteria", "select", "tsv", Cut::Tokens),
    ("select", "select", "pgn", Cut::Whole),
    ("select", "pgn", "pgn", Cut::Whole),
    ("table", "table", "pgn", Cut::Whole),
    ("table", "pgn", "pgn", Cut::Whole),
    ("comment", "pgn", "pgn", Cut::Whole),
    ("export", "pgn", "pgn", Cut::Whole),
    ("export", "select", "pgn", Cut::Whole),
];

/// How a fixture file becomes seed inputs.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// One seed per non-empty line.
    Lines,
    /// One seed per white-space separated token.
    Tokens,
    /// The whole file is one seed.
    Whole,
}

/// The options of the task.
#[derive(Debug)]
struct Options {
    targets: Vec<String>,
    seconds: u64,
    sanitizer: Option<String>,
}

/// What one run of a target gave.
#[derive(Debug)]
struct Outcome {
    target: String,
    executions: Option<u64>,
    corpus: usize,
    findings: Vec<PathBuf>,
    exit_ok: bool,
}

fn usage() -> &'static str {
    "usage: cargo xtask fuzz [TARGET…] [--seconds N] [--sanitizer none|address]"
}

fn parse_args(args: &[String]) -> anyhow::Result<Options> {
    let mut options = Options {
        targets: Vec::new(),
        seconds: 60,
        sanitizer: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let value = args.next().context(usage())?;
                options.seconds = value
                    .parse()
                    .with_context(|| format!("--seconds {value}: not a number\n{}", usage()))?;
            }
            "--sanitizer" => options.sanitizer = Some(args.next().context(usage())?.clone()),
            "-h" | "--help" => anyhow::bail!("{}", usage()),
            flag if flag.starts_with('-') => anyhow::bail!("unknown option `{flag}`\n{}", usage()),
            target => options.targets.push(target.to_owned()),
        }
    }
    Ok(options)
}

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let options = parse_args(args)?;
    let root = crate::project_root();
    let fuzz_dir = root.join("fuzz");
    ensure_cargo_fuzz()?;
    let all = list_targets(&fuzz_dir)?;
    let targets = if options.targets.is_empty() {
        all
    } else {
        for target in &options.targets {
            anyhow::ensure!(
                all.contains(target),
                "no fuzz target `{target}` (targets: {})",
                all.join(", ")
            );
        }
        options.targets.clone()
    };
    let sanitizer = match &options.sanitizer {
        Some(s) => s.clone(),
        None => choose_sanitizer(&fuzz_dir, &targets)?,
    };
    let mut outcomes = Vec::new();
    for target in &targets {
        let seeded = seed_corpus(&root, target)?;
        println!(
            "== fuzz {target}: {} s, sanitizer {sanitizer}, {seeded} seed(s) from fixtures/",
            options.seconds
        );
        outcomes.push(run_target(&fuzz_dir, target, options.seconds, &sanitizer)?);
    }
    println!(
        "\n{:<10} {:>14} {:>8} {:>9}",
        "target", "executions", "corpus", "findings"
    );
    for o in &outcomes {
        let execs = o
            .executions
            .map_or_else(|| "?".to_owned(), |n| n.to_string());
        println!(
            "{:<10} {:>14} {:>8} {:>9}",
            o.target,
            execs,
            o.corpus,
            o.findings.len()
        );
        for path in &o.findings {
            println!("  finding: {}", path.display());
        }
    }
    let bad: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.findings.is_empty() || !o.exit_ok)
        .map(|o| o.target.as_str())
        .collect();
    anyhow::ensure!(
        bad.is_empty(),
        "findings in {}: reproduce with `RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET ARTIFACT` in fuzz/, \
         then turn each into a regression test",
        bad.join(", ")
    );
    Ok(())
}

/// A `cargo` command with the nightly flags allowed on a stable toolchain.
fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.env("RUSTC_BOOTSTRAP", "1");
    cmd
}

/// Installs cargo-fuzz unless `cargo fuzz` already runs.
fn ensure_cargo_fuzz() -> anyhow::Result<()> {
    let present = cargo()
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if present {
        return Ok(());
    }
    println!("== cargo-fuzz is missing: cargo install cargo-fuzz --locked");
    let status = cargo()
        .args(["install", "cargo-fuzz", "--locked"])
        .status()
        .context("running cargo install")?;
    anyhow::ensure!(status.success(), "cargo install cargo-fuzz failed");
    Ok(())
}

/// The targets of the fuzz project, from `cargo fuzz list`.
fn list_targets(fuzz_dir: &Path) -> anyhow::Result<Vec<String>> {
    let out = cargo()
        .args(["fuzz", "list"])
        .current_dir(fuzz_dir)
        .output()
        .context("running cargo fuzz list")?;
    anyhow::ensure!(
        out.status.success(),
        "cargo fuzz list failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// AddressSanitizer if a build with it succeeds on this toolchain, else `none`.
fn choose_sanitizer(fuzz_dir: &Path, targets: &[String]) -> anyhow::Result<String> {
    for sanitizer in ["address", "none"] {
        println!("== building fuzz targets with sanitizer {sanitizer}");
        let mut cmd = cargo();
        cmd.args(["fuzz", "build", "--sanitizer", sanitizer]);
        if let [one] = targets {
            cmd.arg(one);
        }
        let status = cmd
            .current_dir(fuzz_dir)
            .status()
            .context("running cargo fuzz build")?;
        if status.success() {
            return Ok(sanitizer.to_owned());
        }
        println!("== the build with sanitizer {sanitizer} failed on this toolchain");
    }
    anyhow::bail!("the fuzz targets do not build, not even with --sanitizer none")
}

/// Copies the fixtures that seed `target` into `fuzz/corpus/<target>/`; gives how many seeds.
fn seed_corpus(root: &Path, target: &str) -> anyhow::Result<usize> {
    let corpus = root.join("fuzz").join("corpus").join(target);
    fs::create_dir_all(&corpus).with_context(|| corpus.display().to_string())?;
    let mut count = 0;
    for &(_, format, ext, cut) in SEEDS.iter().filter(|(t, ..)| *t == target) {
        // The fixtures that read (`ok/`), those that do not (`err/`), and those of a
        // command's own folder (`select/games.pgn`).
        for kind in ["ok", "err", ""] {
            let dir = root.join("fixtures").join(format).join(kind);
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries {
                let path = entry?.path();
                if path.extension().is_none_or(|x| x != ext) {
                    continue;
                }
                let bytes = fs::read(&path).with_context(|| path.display().to_string())?;
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let place = match kind {
                    "" => format.to_owned(),
                    kind => format!("{format}-{kind}"),
                };
                for (n, seed) in cut_seeds(&bytes, cut).into_iter().enumerate() {
                    let name = format!("seed-{place}-{stem}-{n}");
                    fs::write(corpus.join(name), seed)?;
                    count += 1;
                }
            }
        }
    }
    Ok(count)
}

fn cut_seeds(bytes: &[u8], cut: Cut) -> Vec<&[u8]> {
    match cut {
        Cut::Whole => vec![bytes],
        Cut::Lines => bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.trim_ascii().is_empty())
            .collect(),
        Cut::Tokens => bytes
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
            .collect(),
    }
}

/// The files in `dir`, if any.
fn files_in(dir: &Path) -> BTreeSet<PathBuf> {
    fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// Runs one target for `seconds`, echoing libFuzzer's messages (not its per-input lines).
fn run_target(
    fuzz_dir: &Path,
    target: &str,
    seconds: u64,
    sanitizer: &str,
) -> anyhow::Result<Outcome> {
    let artifacts = fuzz_dir.join("artifacts").join(target);
    let before = files_in(&artifacts);
    let mut child = cargo()
        .args(["fuzz", "run", "--sanitizer", sanitizer, target, "--"])
        .arg(format!("-max_total_time={seconds}"))
        .args(["-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"])
        .current_dir(fuzz_dir)
        .stderr(Stdio::piped())
        .spawn()
        .context("running cargo fuzz run")?;
    let mut executions = None;
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines() {
            let line = line?;
            if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
                executions = n.trim().parse().ok();
            }
            // Per-input progress lines (`#1234\tNEW …`, `pulse`, `REDUCE`) are not echoed.
            let per_input = line.starts_with("\tNEW_FUNC")
                || (line.starts_with('#') && !line.contains("INITED") && !line.contains("DONE"));
            if !per_input {
                eprintln!("{line}");
            }
        }
    }
    let status = child.wait()?;
    let findings = files_in(&artifacts)
        .difference(&before)
        .cloned()
        .collect::<Vec<_>>();
    Ok(Outcome {
        target: target.to_owned(),
        executions,
        corpus: files_in(&fuzz_dir.join("corpus").join(target)).len(),
        findings,
        exit_ok: status.success(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_cut_by_lines_and_tokens() {
        assert_eq!(
            cut_seeds(b"a b\n\n  \nc\n", Cut::Lines),
            [&b"a b"[..], b"c"]
        );
        assert_eq!(
            cut_seeds(b"e4 Nf3\n\tO-O", Cut::Tokens),
            [&b"e4"[..], b"Nf3", b"O-O"]
        );
        assert_eq!(cut_seeds(b"x\ny", Cut::Whole), [&b"x\ny"[..]]);
    }

    #[test]
    fn arguments() {
        let args: Vec<String> = ["pgn", "--seconds", "5", "fen"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let options = parse_args(&args).unwrap();
        assert_eq!(options.targets, ["pgn", "fen"]);
        assert_eq!(options.seconds, 5);
        assert!(parse_args(&["--seconds".to_owned(), "x".to_owned()]).is_err());
        assert!(parse_args(&["--bogus".to_owned()]).is_err());
    }
}
