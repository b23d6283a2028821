//! The `extract-diff` task: differential checks of `tabia dedup`, `tabia pgn --notation` and
//! `tabia split` against pgn-extract, on the benchmark corpus and on the corpus followed by
//! a shuffled copy of itself (every game of the copy a duplicate).
//!
//! `cargo xtask extract-diff [--corpus DIR] [--pgn-extract PATH] [--keep DIR]`
//!
//! 1. Builds `tabia` (release) and writes `all.pgn`: every file of the corpus (default
//!    `../shared/corpus`, compressed or not) through `tabia pgn -q`, so both tools read the
//!    same well-formed games; and `twice.pgn`: `all.pgn` then its games shuffled (fixed
//!    seed).
//! 2. On each: `pgn-extract -D` against `tabia dedup --by position`: the kept games must be
//!    the same, in the same order (compared by their UCI mainlines and tags).
//! 3. `pgn-extract -Wuci` against `tabia pgn --notation uci`, and `-Wlalg` against
//!    `--notation lan` (each LAN move replayed to UCI), game by game, move by move.
//!    pgn-extract writes promotions in upper case (`a7a8Q`), lalg with check marks: both are
//!    normalised (UCI is lower case, RFC-less but universal).
//! 4. `pgn-extract -#N` against `tabia split --games N`: the same files, each with the same
//!    games.
//!
//! Prints one line per check (`ok` or the first differences) and fails if any differs.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::{Context, bail};
use tabia_position::{Position, shakmaty::CastlingMode};

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut corpus = root.join("../shared/corpus");
    let mut extract = PathBuf::from("/usr/games/pgn-extract");
    let mut keep = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--corpus" => corpus = it.next().context("--corpus DIR")?.into(),
            "--pgn-extract" => extract = it.next().context("--pgn-extract PATH")?.into(),
            "--keep" => keep = Some(PathBuf::from(it.next().context("--keep DIR")?)),
            other => bail!("unknown argument `{other}`"),
        }
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "tabia-cli"])
        .current_dir(&root)
        .status()?;
    if !status.success() {
        bail!("cargo build failed");
    }
    let tabia = root.join("target/release/tabia");
    let tmp = std::env::temp_dir().join(format!("tabia-extract-diff-{}", std::process::id()));
    let dir = keep.unwrap_or(tmp);
    fs::create_dir_all(&dir)?;
    let all = dir.join("all.pgn");
    let mut text = Vec::new();
    let mut files: Vec<PathBuf> = fs::read_dir(&corpus)
        .with_context(|| format!("cannot read {}", corpus.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    for file in &files {
        let out = Command::new(&tabia)
            .args(["pgn", "-q"])
            .arg(file)
            .output()?;
        text.extend_from_slice(&out.stdout);
    }
    fs::write(&all, &text)?;
    let twice = dir.join("twice.pgn");
    fs::write(&twice, twice_shuffled(&text))?;
    let mut failed = 0;
    for input in [&all, &twice] {
        let label = input.file_name().map(|n| n.to_string_lossy().into_owned());
        let label = label.unwrap_or_default();
        for (name, result) in [
            (
                "dedup --by position vs -D",
                dedup(&tabia, &extract, input, &dir),
            ),
            ("--notation uci vs -Wuci", uci(&tabia, &extract, input)),
            ("--notation lan vs -Wlalg", lan(&tabia, &extract, input)),
            (
                "split --games 500 vs -#500",
                split(&tabia, &extract, input, &dir),
            ),
        ] {
            match result {
                Ok(summary) => println!("{label}: {name}: ok ({summary})"),
                Err(err) => {
                    failed += 1;
                    println!("{label}: {name}: DIFFERS: {err:#}");
                }
            }
        }
    }
    if failed > 0 {
        bail!("{failed} checks differ");
    }
    Ok(())
}

/// The games of an export-format text: each from its first tag to the next game's first tag.
fn games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut in_tags = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let is_tag = line.starts_with('[');
        if is_tag && !in_tags {
            starts.push(at);
        }
        in_tags = is_tag;
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// `text` followed by its games in a shuffled order (a fixed linear congruential sequence).
fn twice_shuffled(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    let mut list: Vec<&str> = games(&text);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..list.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = (state >> 33) as usize % (i + 1);
        list.swap(i, j);
    }
    let mut out = text.as_bytes().to_vec();
    for game in list {
        out.extend_from_slice(game.as_bytes());
        if !game.ends_with("\n\n") {
            out.extend_from_slice(b"\n\n");
        }
    }
    out
}

fn run_out(cmd: &mut Command) -> anyhow::Result<String> {
    let out = cmd.stderr(Stdio::null()).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// One line per game: the UCI mainline after the tags that identify it.
fn identities(tabia: &Path, pgn: &Path) -> anyhow::Result<Vec<String>> {
    let out = run_out(
        Command::new(tabia)
            .args(["pgn", "-q", "--notation", "uci"])
            .args([
                "--strip",
                "comments,nags,variations",
                "--no-move-numbers",
                "--line-length",
                "0",
            ])
            .arg(pgn),
    )?;
    Ok(out.lines().map(str::to_owned).collect())
}

fn first_difference(a: &[String], b: &[String]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!(
            "{} against {} games; first difference at game {}:\n  tabia:       {}\n  pgn-extract: {}",
            a.len(),
            b.len(),
            i + 1,
            a[i],
            b[i]
        ),
        None => format!(
            "{} against {} games, the shorter list a prefix",
            a.len(),
            b.len()
        ),
    }
}

fn dedup(tabia: &Path, extract: &Path, input: &Path, dir: &Path) -> anyhow::Result<String> {
    let ours = dir.join("dedup-tabia.pgn");
    let theirs = dir.join("dedup-extract.pgn");
    Command::new(tabia)
        .args(["dedup", "-q", "--by", "position", "-o"])
        .arg(&ours)
        .arg(input)
        .status()?;
    Command::new(extract)
        .args(["-s", "-D", "-o"])
        .arg(&theirs)
        .arg(input)
        .stderr(Stdio::null())
        .status()?;
    let a = identities(tabia, &ours)?;
    let b = identities(tabia, &theirs)?;
    if a != b {
        bail!("{}", first_difference(&a, &b));
    }
    Ok(format!("{} games kept by both", a.len()))
}

/// pgn-extract's move tokens of one game, normalised: no move numbers, results or check
/// marks, promotions in lower case.
fn extract_moves(line: &str) -> Vec<String> {
    line.split_whitespace()
        .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(|t| t.trim_end_matches(['+', '#']).to_ascii_lowercase())
        .collect()
}

/// pgn-extract's games written with `format`, one token list per game.
fn extract_games(extract: &Path, input: &Path, format: &str) -> anyhow::Result<Vec<Vec<String>>> {
    let out = run_out(
        Command::new(extract)
            .args([
                "-s",
                "--notags",
                "-C",
                "-N",
                "-V",
                "--noresults",
                "-w",
                "100000",
            ])
            .arg(format!("-W{format}"))
            .arg(input),
    )?;
    Ok(out
        .split("\n\n")
        .map(extract_moves)
        .filter(|moves| !moves.is_empty())
        .collect())
}

fn compare_moves(ours: &[Vec<String>], theirs: &[Vec<String>]) -> anyhow::Result<String> {
    if ours.len() != theirs.len() {
        bail!("{} games against {}", ours.len(), theirs.len());
    }
    let mut moves = 0;
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a != b {
            let at = a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            bail!(
                "game {}: move {}: tabia {:?}, pgn-extract {:?}",
                i + 1,
                at + 1,
                a.get(at),
                b.get(at)
            );
        }
        moves += a.len();
    }
    Ok(format!("{} games, {moves} moves", ours.len()))
}

fn uci(tabia: &Path, extract: &Path, input: &Path) -> anyhow::Result<String> {
    let out = run_out(
        Command::new(tabia)
            .args(["pgn", "-q", "--notation", "uci"])
            .args([
                "--strip",
                "comments,nags,variations",
                "--no-tags",
                "--no-move-numbers",
                "--no-results",
                "--line-length",
                "0",
            ])
            .arg(input),
    )?;
    let ours: Vec<Vec<String>> = out
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect();
    compare_moves(&ours, &extract_games(extract, input, "uci")?)
}

fn lan(tabia: &Path, extract: &Path, input: &Path) -> anyhow::Result<String> {
    let out = run_out(
        Command::new(tabia)
            .args(["pgn", "-q", "--notation", "lan"])
            .args([
                "--strip",
                "comments,nags,variations",
                "--no-move-numbers",
                "--no-results",
                "--line-length",
                "0",
            ])
            .arg(input),
    )?;
    let mut ours = Vec::new();
    for line in out.lines() {
        let (tags, moves) = line.rsplit_once(']').unwrap_or(("", line));
        let fen = tags
            .split("[FEN \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next());
        let mut pos = match fen {
            Some(fen) => Position::from_arg(fen).map_err(|e| anyhow::anyhow!("{e}"))?,
            None => Position::new(),
        };
        let mut game = Vec::new();
        for token in moves.split_whitespace() {
            let m = pos
                .parse_move(token)
                .map_err(|e| anyhow::anyhow!("tabia's LAN `{token}` does not read back: {e}"))?;
            let mode = pos.castling_mode();
            game.push(
                m.to_uci(if mode == CastlingMode::Chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                })
                .to_string(),
            );
            pos.play_unchecked(m);
        }
        ours.push(game);
    }
    compare_moves(&ours, &extract_games(extract, input, "lalg")?)
}

fn split(tabia: &Path, extract: &Path, input: &Path, dir: &Path) -> anyhow::Result<String> {
    let ours = dir.join("split-tabia");
    let theirs = dir.join("split-extract");
    let _ = fs::remove_dir_all(&ours);
    let _ = fs::remove_dir_all(&theirs);
    fs::create_dir_all(&theirs)?;
    Command::new(tabia)
        .args(["split", "-q", "--games", "500", "-o"])
        .arg(&ours)
        .arg(input)
        .status()?;
    Command::new(extract)
        .args(["-s", "-#500"])
        .arg(fs::canonicalize(input)?)
        .current_dir(&theirs)
        .stderr(Stdio::null())
        .status()?;
    let mut n = 1;
    let mut games = 0;
    loop {
        let a = ours.join(format!("part-{n:05}.pgn"));
        let b = theirs.join(format!("{n}.pgn"));
        match (a.exists(), b.exists()) {
            (false, false) => break,
            (true, true) => {}
            (x, y) => bail!("file {n}: tabia has it: {x}, pgn-extract has it: {y}"),
        }
        let (ia, ib) = (identities(tabia, &a)?, identities(tabia, &b)?);
        if ia != ib {
            bail!("file {n}: {}", first_difference(&ia, &ib));
        }
        games += ia.len();
        n += 1;
    }
    Ok(format!("{} files, {games} games", n - 1))
}
