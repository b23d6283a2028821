//! `cargo xtask chess-diff [--tabia PATH] [FILE...]`: tabia against python-chess on real games
//! (issue 10). For every file (default: every file of `../shared/corpus`, zstd files
//! decompressed), the final position of every game that `tabia epd --fen --ep legal --start`
//! writes must equal python-chess's (`chess_diff.py`, run with `python3`; `pip install
//! chess`), and no game that python-chess reads without an error may be an error in tabia.
//! Prints the counts per file; fails on any difference. Not part of `cargo test`: it needs
//! python-chess and the corpus.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail};

use crate::project_root;

const SCRIPT: &str = include_str!("chess_diff.py");

/// What one side made of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Read {
    /// The final FEN.
    Fen(String),
    /// The error message.
    Error(String),
}

/// `cargo xtask chess-diff`.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut tabia = None;
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--tabia" => tabia = Some(PathBuf::from(rest.next().context("--tabia needs a path")?)),
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let root = project_root();
    let tabia = match tabia {
        Some(path) => path,
        None => {
            let status = Command::new(env!("CARGO"))
                .args(["build", "--release", "-p", "tabia-cli"])
                .current_dir(&root)
                .status()?;
            if !status.success() {
                bail!("cargo build failed");
            }
            root.join("target/release/tabia")
        }
    };
    if files.is_empty() {
        let corpus = root.join("../shared/corpus");
        let mut found: Vec<PathBuf> = fs::read_dir(&corpus)
            .with_context(|| format!("no corpus at {}", corpus.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().contains(".pgn"))
            .collect();
        found.sort();
        files = found;
    }
    let work = tempfile_dir()?;
    let mut failures = 0;
    for file in &files {
        let plain = decompressed(file, &work)?;
        let theirs = python_chess(&plain)?;
        let ours = tabia_finals(&tabia, &plain)?;
        let name = file.display();
        if ours.len() != theirs.len() {
            bail!(
                "{name}: tabia read {} games, python-chess {}",
                ours.len(),
                theirs.len()
            );
        }
        let (mut same, mut both_bad, mut only_tabia_bad, mut only_chess_bad, mut differ) =
            (0, 0, 0, 0, 0);
        for (number, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
            let number = number + 1;
            match (ours, theirs) {
                (Read::Fen(a), Read::Fen(b)) if a == b => same += 1,
                (Read::Fen(a), Read::Fen(b)) => {
                    differ += 1;
                    eprintln!("{name}: game {number}: tabia {a}, python-chess {b}");
                }
                (Read::Error(_), Read::Error(_)) => both_bad += 1,
                (Read::Error(e), Read::Fen(_)) => {
                    only_tabia_bad += 1;
                    eprintln!("{name}: game {number}: tabia: {e}; python-chess reads it");
                }
                (Read::Fen(_), Read::Error(e)) => {
                    only_chess_bad += 1;
                    eprintln!("{name}: game {number}: python-chess: {e}; tabia reads it");
                }
            }
        }
        println!(
            "{name}: games {}, same final position {same}, different {differ}, \
             errors in both {both_bad}, only in tabia {only_tabia_bad}, \
             only in python-chess {only_chess_bad}",
            ours.len()
        );
        failures += differ + only_tabia_bad;
    }
    let _ = fs::remove_dir_all(&work);
    if failures > 0 {
        bail!("{failures} games differ from python-chess");
    }
    Ok(())
}

/// A scratch folder under `target`.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = project_root().join("target/chess-diff");
    fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// `file` itself, or its decompressed copy in `work` (zstd).
fn decompressed(file: &Path, work: &Path) -> anyhow::Result<PathBuf> {
    if file.extension().is_none_or(|x| x != "zst") {
        return Ok(file.to_path_buf());
    }
    let out = work.join(file.file_stem().context("a file name")?);
    let status = Command::new("zstd")
        .args(["-d", "-q", "-f", "-o"])
        .arg(&out)
        .arg(file)
        .status()
        .context("cannot run zstd")?;
    if !status.success() {
        bail!("zstd -d {} failed", file.display());
    }
    Ok(out)
}

/// python-chess's reading of every game of `file`.
fn python_chess(file: &Path) -> anyhow::Result<Vec<Read>> {
    let out = crate::python_output(SCRIPT, &[file.as_os_str()])?;
    if !out.status.success() {
        bail!("python-chess failed on {}", file.display());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .map(|line| match line.split_once('\t') {
            Some(("ok", fen)) => Read::Fen(fen.to_owned()),
            Some((_, message)) => Read::Error(message.to_owned()),
            None => Read::Error(line.to_owned()),
        })
        .collect())
}

/// tabia's reading of every game of `file`: the last FEN of each game's block in
/// `tabia epd --fen --ep legal --start`, or the error reported for it.
fn tabia_finals(tabia: &Path, file: &Path) -> anyhow::Result<Vec<Read>> {
    let out = Command::new(tabia)
        .args(["epd", "--fen", "--ep", "legal", "--start"])
        .arg(file)
        .output()
        .with_context(|| format!("cannot run {}", tabia.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut errors = BTreeMap::new();
    let mut games = 0;
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("games ") {
            games = rest
                .split(',')
                .next()
                .and_then(|n| n.trim().parse().ok())
                .context("the summary")?;
        } else if let Some((_, rest)) = line.split_once(": game ")
            && let Some((number, message)) = rest.split_once(": ")
            && !message.starts_with("warning: ")
        {
            errors.insert(number.parse::<usize>()?, message.to_owned());
        }
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut finals = stdout
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| block.lines().last().unwrap_or_default().to_owned());
    let mut read = Vec::with_capacity(games);
    for number in 1..=games {
        match errors.remove(&number) {
            Some(message) => read.push(Read::Error(message)),
            None => read.push(Read::Fen(
                finals
                    .next()
                    .with_context(|| format!("no positions for game {number}"))?,
            )),
        }
    }
    Ok(read)
}
