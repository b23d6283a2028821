//! `cargo xtask index-diff [--tabia PATH] [--positions N] [--seed S] [FILE...]`: the position
//! index against the commands that read the games again, over the corpus (`../shared/corpus`
//! unless files are given; not in `cargo test`: it needs the corpus and takes minutes).
//!
//! Two indexes of the files are built in `target/index-diff`: one as lichess's explorer keeps
//! games (the default 50 plies) and one of every ply (`--all-plies`). The index keeps one copy
//! of games with the same moves (`tabia dedup`'s digest), the commands read every copy: they
//! read the first copy of each standard game (`tabia filter --variant standard FILES | tabia
//! dedup`; the corpus's master games hold 7,019 copies; the index keys the positions of
//! Chess960 games apart, which tree and filter do not). N positions are drawn
//! (seeded) from the positions the games reach in their first 50 plies (`tabia epd --ep legal
//! --json --start`, standard positions only), and for each:
//!
//! - `tabia index query --fen EPD --json --moves 1000` gives the games `tabia tree --json
//!   --max-ply 51 --position EPD FILES` counts, and each move's white/draws/black as `tabia
//!   tree --max-ply 50` counts them. The index keeps the positions at plies 0 to 50 and the
//!   moves played from those at plies 0 to 49; `tree --max-ply M` keeps the moves played at
//!   plies below M and the positions they are played from (and the final position of a game
//!   that ended before M), so the index's positions are tree's with M = 51 and its moves
//!   tree's with M = 50.
//! - `tabia index games --fen EPD` (of the `--all-plies` index: filter matches a position at
//!   any ply) lists the games `tabia filter --position EPD` lists, byte for byte.
//!
//! Prints how many positions were compared and agree, and the first disagreement in full;
//! fails when any disagrees.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::{Context as _, bail};
use serde_json::Value;

use crate::{Rng, project_root, tabia_binary};

/// The index's plies (lichess's explorer, and `tabia index build`'s default).
const PLIES: u32 = 50;

/// `cargo xtask index-diff`.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut tabia = None;
    let mut positions = 300;
    let mut seed = 1;
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| rest.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--tabia" => tabia = Some(PathBuf::from(value("--tabia")?)),
            "--positions" => positions = value("--positions")?.parse()?,
            "--seed" => seed = value("--seed")?.parse()?,
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let tabia = tabia_binary(tabia)?;
    if files.is_empty() {
        files = corpus_files()?;
    }
    let work = project_root().join("target/index-diff");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work)?;
    let plies = work.join("plies");
    let all = work.join("all");
    build(&tabia, &plies, &files, &[])?;
    build(&tabia, &all, &files, &["--all-plies"])?;
    // The commands read the standard games (the index keys Chess960's positions apart, as
    // lichess's explorer does), each once.
    let standard = work.join("standard.pgn");
    let distinct = work.join("distinct.pgn");
    output(
        &tabia,
        &[
            "filter",
            "-q",
            "--variant",
            "standard",
            "-o",
            &path(&standard)?,
        ],
        &files,
    )?;
    output(
        &tabia,
        &["dedup", "-q", "-o", &path(&distinct)?],
        std::slice::from_ref(&standard),
    )?;
    let read = [distinct];

    let drawn = draw_positions(&tabia, &read, positions, seed)?;
    println!(
        "index-diff: {} positions drawn (seed {seed}) from {} files",
        drawn.len(),
        files.len()
    );
    let (mut agreeing, mut first) = (0, None);
    for (i, epd) in drawn.iter().enumerate() {
        match compare(&tabia, &plies, &all, &read, epd)? {
            None => agreeing += 1,
            Some(why) => {
                eprintln!("disagreement at {epd}");
                first.get_or_insert(why);
            }
        }
        if (i + 1) % 25 == 0 {
            eprintln!("  {} / {} compared", i + 1, drawn.len());
        }
    }
    println!(
        "index-diff: positions compared {}, agreeing {agreeing}, disagreeing {}",
        drawn.len(),
        drawn.len() - agreeing
    );
    if let Some(why) = first {
        println!("first disagreement:\n{why}");
        bail!("{} positions disagree", drawn.len() - agreeing);
    }
    let _ = fs::remove_dir_all(&work);
    Ok(())
}

/// Every PGN file of `../shared/corpus`.
fn corpus_files() -> anyhow::Result<Vec<PathBuf>> {
    let corpus = project_root().join("../shared/corpus");
    let mut found: Vec<PathBuf> = fs::read_dir(&corpus)
        .with_context(|| format!("no corpus at {}", corpus.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".pgn"))
        .collect();
    found.sort();
    Ok(found)
}

/// `tabia index build -o dir files` (exit 1, bad games reported, is fine).
fn build(tabia: &Path, dir: &Path, files: &[PathBuf], extra: &[&str]) -> anyhow::Result<()> {
    let out = Command::new(tabia)
        .args(["index", "build", "-q", "-o"])
        .arg(dir)
        .args(extra)
        .args(files)
        .output()?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "tabia index build {extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// `n` distinct standard positions (EPDs), drawn from the positions the games reach in their
/// first `PLIES` plies, a position as often as the games reach it.
fn draw_positions(
    tabia: &Path,
    files: &[PathBuf],
    n: usize,
    seed: u64,
) -> anyhow::Result<Vec<String>> {
    let out = Command::new(tabia)
        .args(["epd", "-q", "--ep", "legal", "--json", "--start"])
        .args(files)
        .stderr(Stdio::inherit())
        .output()?;
    let mut reached = Vec::new();
    for line in out.stdout.split(|&b| b == b'\n') {
        if line.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_slice(line)?;
        let (Some(ply), Some(epd)) = (value["ply"].as_u64(), value["epd"].as_str()) else {
            continue;
        };
        if ply <= u64::from(PLIES) && epd.split(' ').count() == 4 && !epd.contains('[') {
            reached.push(epd.to_owned());
        }
    }
    if reached.is_empty() {
        bail!("the games reach no standard position");
    }
    let mut rng = Rng::new(seed);
    let mut drawn = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Distinct positions; a few draws more than asked for, as popular ones come back.
    for _ in 0..n.saturating_mul(20) {
        if drawn.len() == n {
            break;
        }
        let epd = &reached[rng.below(reached.len())];
        if seen.insert(epd.clone()) {
            drawn.push(epd.clone());
        }
    }
    Ok(drawn)
}

fn path(p: &Path) -> anyhow::Result<String> {
    p.to_str().map(str::to_owned).context("a UTF-8 path")
}

/// Runs tabia, gives its standard output (failing on an exit code above 1).
fn output(tabia: &Path, args: &[&str], files: &[PathBuf]) -> anyhow::Result<Vec<u8>> {
    let out = Command::new(tabia)
        .args(args)
        .args(files)
        .stdin(Stdio::null())
        .output()?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "tabia {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(out.stdout)
}

/// The first JSON line of `bytes` (`null` when none).
fn first_json(bytes: &[u8]) -> anyhow::Result<Value> {
    match bytes.split(|&b| b == b'\n').find(|l| !l.is_empty()) {
        Some(line) => Ok(serde_json::from_slice(line)?),
        None => Ok(Value::Null),
    }
}

/// Each move's (white, draws, black), by UCI.
fn move_counts(answer: &Value) -> BTreeMap<String, [u64; 3]> {
    answer["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            let n = |k: &str| m[k].as_u64().unwrap_or(0);
            (
                m["uci"].as_str().unwrap_or("").to_owned(),
                [n("white"), n("draws"), n("black")],
            )
        })
        .collect()
}

/// Compares one position; gives what differs, in full, or `None`.
fn compare(
    tabia: &Path,
    plies: &Path,
    all: &Path,
    files: &[PathBuf],
    epd: &str,
) -> anyhow::Result<Option<String>> {
    let (plies, all) = (path(plies)?, path(all)?);
    let query = [
        "index", "query", "--fen", epd, "--json", "--moves", "1000", &plies,
    ];
    let answer = first_json(&output(tabia, &query, &[])?)?;
    let tree = |max: u32| -> anyhow::Result<Value> {
        let max = max.to_string();
        let args = ["tree", "-q", "--json", "--max-ply", &max, "--position", epd];
        first_json(&output(tabia, &args, files)?)
    };
    let positions = tree(PLIES + 1)?;
    let moves = tree(PLIES)?;
    let mut why = String::new();
    if answer["games"] != positions["games"] {
        why += &format!(
            "  games: index {} , tree --max-ply {} {}\n",
            answer["games"],
            PLIES + 1,
            positions["games"]
        );
    }
    let (ours, theirs) = (move_counts(&answer), move_counts(&moves));
    if ours != theirs {
        why += &format!(
            "  moves [white, draws, black]:\n    index:              {ours:?}\n    tree --max-ply {PLIES}: {theirs:?}\n"
        );
    }
    let listed = output(
        tabia,
        &["index", "games", "--fen", epd, "--limit", "1000000", &all],
        &[],
    )?;
    let selected = output(tabia, &["filter", "-q", "--position", epd], files)?;
    if listed != selected {
        let count = |b: &[u8]| {
            b.split(|&c| c == b'\n')
                .filter(|l| l.starts_with(b"[Event "))
                .count()
        };
        why += &format!(
            "  games: index games (--all-plies) lists {} ({} bytes), filter --position {} ({} \
             bytes)\n",
            count(&listed),
            listed.len(),
            count(&selected),
            selected.len(),
        );
        if let Some(at) = listed.iter().zip(&selected).position(|(a, b)| a != b) {
            let show = |b: &[u8]| {
                let from = at.saturating_sub(300);
                String::from_utf8_lossy(&b[from..(at + 300).min(b.len())]).into_owned()
            };
            why += &format!(
                "  first byte that differs: {at}\n--- index games:\n{}\n--- filter:\n{}\n",
                show(&listed),
                show(&selected)
            );
        }
    }
    Ok((!why.is_empty()).then(|| format!("{epd}\n{why}")))
}
