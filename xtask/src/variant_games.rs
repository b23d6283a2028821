//! The `variant-games` and `variant-diff` tasks: random legal games of every lichess variant,
//! played by python-chess's `chess.variant` boards (`variant_games.py`, run with `python3`;
//! `pip install chess`).
//!
//! - `cargo xtask variant-games [--check]` writes `fixtures/variants/games.pgn` (four games per
//!   variant, fixed seed: `Variant` tags spelt as people write them, some games from a `FEN`
//!   tag with pockets or check counters) and `games.fen` (python-chess's final FEN of each);
//!   with `--check`, fails if the committed files differ from what python-chess writes now.
//! - `cargo xtask variant-diff [--games N] [--seed S] [--tabia PATH]` generates N games per
//!   variant (default 300), runs `tabia epd --fen --ep legal --start` on them (the release
//!   binary, built first, unless `--tabia` names one) and compares the final position of every
//!   game with python-chess's; prints the counts per variant and fails on any difference.

use std::{
    fs,
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

use anyhow::{Context, bail};

use crate::project_root;

/// The generator and differential script.
const SCRIPT: &str = include_str!("variant_games.py");

/// Games per variant in the fixture.
const FIXTURE_GAMES: u32 = 4;

/// The seed of the fixture.
const FIXTURE_SEED: u32 = 2024;

/// Runs the script with `args`, the script given on standard input.
fn python(args: &[String]) -> anyhow::Result<()> {
    let mut child = Command::new("python3")
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .spawn()
        .context("cannot run python3 (the task needs python3 with `pip install chess`)")?;
    child
        .stdin
        .take()
        .context("python3 standard input")?
        .write_all(SCRIPT.as_bytes())?;
    let status = child.wait()?;
    if !status.success() {
        bail!("python3 {} failed: {status}", args.join(" "));
    }
    Ok(())
}

/// `cargo xtask variant-games [--check]`.
pub(crate) fn run_games(args: &[String]) -> anyhow::Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask variant-games [--check]"),
    };
    let dir = project_root().join("fixtures/variants");
    let (pgn, fen) = if check {
        let tmp = std::env::temp_dir().join(format!("tabia-variant-games-{}", std::process::id()));
        fs::create_dir_all(&tmp)?;
        (tmp.join("games.pgn"), tmp.join("games.fen"))
    } else {
        fs::create_dir_all(&dir)?;
        (dir.join("games.pgn"), dir.join("games.fen"))
    };
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    python(&[
        "generate".to_owned(),
        FIXTURE_GAMES.to_string(),
        FIXTURE_SEED.to_string(),
        path(&pgn),
        path(&fen),
    ])?;
    if check {
        for (made, name) in [(&pgn, "games.pgn"), (&fen, "games.fen")] {
            let committed = fs::read_to_string(dir.join(name))
                .with_context(|| format!("fixtures/variants/{name}"))?;
            if fs::read_to_string(made)? != committed {
                bail!(
                    "fixtures/variants/{name} differs from what python-chess writes now: \
                     run `cargo xtask variant-games`"
                );
            }
        }
        if let Some(tmp) = pgn.parent() {
            fs::remove_dir_all(tmp)?;
        }
        println!("fixtures/variants is up to date");
    }
    Ok(())
}

/// `cargo xtask variant-diff [--games N] [--seed S] [--tabia PATH]`.
pub(crate) fn run_diff(args: &[String]) -> anyhow::Result<()> {
    let (mut games, mut seed, mut tabia) = (300u32, 1u32, None);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--games" => games = value()?.parse().context("--games")?,
            "--seed" => seed = value()?.parse().context("--seed")?,
            "--tabia" => tabia = Some(PathBuf::from(value()?)),
            other => bail!(
                "unknown argument `{other}`\n\
                 usage: cargo xtask variant-diff [--games N] [--seed S] [--tabia PATH]"
            ),
        }
    }
    let tabia = match tabia {
        Some(path) => path,
        None => {
            let status = Command::new(env!("CARGO"))
                .args(["build", "--release", "-p", "tabia-cli"])
                .current_dir(project_root())
                .status()?;
            if !status.success() {
                bail!("cargo build --release -p tabia-cli failed");
            }
            project_root().join("target/release/tabia")
        }
    };
    python(&[
        "diff".to_owned(),
        games.to_string(),
        seed.to_string(),
        tabia.to_string_lossy().into_owned(),
    ])
}
