//! The `analyse-bench` task: `tabia analyse` against the python-chess script a careful user
//! writes (`analyse_peer.py`: one Stockfish per core, every position of every game), on the
//! same games, engine and settings, whole processes.
//!
//! `cargo xtask analyse-bench [--tabia PATH] [--engine PATH] [--depth N | --nodes N] [--games N]
//! [FILE...]` (default: the first 60 games of each 1 MB file of `../shared/corpus`, depth 10)
//! prints, per file:
//!
//! - one engine's rate (`-j 1`) and N engines' (`-j N`, N = the cores): the target is
//!   N engines ≥ 0.95 × N × one engine's positions per second;
//! - the share of distinct positions, and tabia's wall time on N engines against the script's
//!   on N processes: the target is ≤ 1.05 × share × the script's time;
//! - a second run over the same games with the cache: the target is ≤ 5% of the first.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use anyhow::{Context, bail};

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let (mut tabia, mut engine) = (None, "/usr/games/stockfish".to_owned());
    let (mut limit, mut games, mut files) = (("--depth", "10".to_owned()), 60usize, Vec::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--tabia" => tabia = Some(PathBuf::from(args.next().context("--tabia PATH")?)),
            "--engine" => engine = args.next().context("--engine PATH")?.clone(),
            "--depth" => limit = ("--depth", args.next().context("--depth N")?.clone()),
            "--nodes" => limit = ("--nodes", args.next().context("--nodes N")?.clone()),
            "--games" => games = args.next().context("--games N")?.parse()?,
            file => files.push(PathBuf::from(file)),
        }
    }
    if files.is_empty() {
        let corpus = root.join("../shared/corpus");
        files = ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"]
            .iter()
            .map(|f| corpus.join(f))
            .collect();
    }
    let tabia = crate::tabia_binary(tabia)?;
    let jobs = std::thread::available_parallelism().map_or(2, usize::from);
    let dir = root.join("target/analyse-bench");
    fs::create_dir_all(&dir)?;
    println!(
        "| file | games | positions | distinct | 1 engine (pos/s) | {jobs} engines (pos/s) | scaling | script (s) | tabia (s) | target (s) | again (s) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for file in &files {
        let slice = dir.join(format!(
            "{}.pgn",
            file.file_stem().and_then(|s| s.to_str()).unwrap_or("games")
        ));
        fs::write(&slice, first_games(&fs::read_to_string(file)?, games))?;
        let how = if limit.0 == "--nodes" {
            format!("nodes:{}", limit.1)
        } else {
            limit.1.clone()
        };
        let peer = Command::new("python3")
            .arg(root.join("xtask/src/analyse_peer.py"))
            .args([&engine, &how, &jobs.to_string()])
            .arg(&slice)
            .output()
            .context("python3 analyse_peer.py (pip install chess)")?;
        if !peer.status.success() {
            bail!("analyse_peer.py: {}", String::from_utf8_lossy(&peer.stderr));
        }
        let peer: serde_json::Value = serde_json::from_slice(&peer.stdout)?;
        let analyse =
            |jobs, cache| run_tabia(&tabia, &engine, (limit.0, &limit.1), &slice, jobs, cache);
        let one = analyse(1, None)?;
        let cache = dir.join("bench.redb");
        let _ = fs::remove_file(&cache);
        let many = analyse(jobs, Some(&cache))?;
        let again = analyse(jobs, Some(&cache))?;
        let positions = peer["positions"].as_f64().unwrap_or(0.0);
        let distinct = peer["distinct"].as_f64().unwrap_or(0.0);
        let script = peer["seconds"].as_f64().unwrap_or(0.0);
        let share = if positions > 0.0 {
            distinct / positions
        } else {
            1.0
        };
        let (rate1, rate_n) = (one.0 as f64 / one.1, many.0 as f64 / many.1);
        println!(
            "| {} | {} | {} | {} ({:.0}%) | {:.1} | {:.1} | {:.2} | {:.1} | {:.1} | {:.1} | {:.2} ({:.1}%) |",
            file.file_name().and_then(|s| s.to_str()).unwrap_or("?"),
            peer["games"],
            positions,
            distinct,
            share * 100.0,
            rate1,
            rate_n,
            rate_n / (jobs as f64 * rate1),
            script,
            many.1,
            1.05 * share * script,
            again.1,
            again.1 / many.1 * 100.0,
        );
    }
    Ok(())
}

/// The first `n` games of a PGN text (cut before the `n + 1`-th `[Event `).
fn first_games(text: &str, n: usize) -> String {
    let mut starts = text.match_indices("[Event ").map(|(i, _)| i);
    match starts.nth(n) {
        Some(end) => text[..end].to_owned(),
        None => text.to_owned(),
    }
}

/// One `tabia analyse` run: (positions analysed, seconds).
fn run_tabia(
    tabia: &Path,
    engine: &str,
    limit: (&str, &str),
    file: &Path,
    jobs: usize,
    cache: Option<&Path>,
) -> anyhow::Result<(u64, f64)> {
    let mut command = Command::new(tabia);
    command
        .args(["analyse", "--engine", engine, limit.0, limit.1, "-j"])
        .arg(jobs.to_string())
        .arg(file)
        .args(["-o", "/dev/null"]);
    match cache {
        Some(cache) => command.arg("--cache").arg(cache),
        None => command.arg("--no-cache"),
    };
    let start = Instant::now();
    let out = command.output()?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("tabia analyse: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The summary, the last line of standard error: `games 60, positions analysed 4410, …`.
    let err = String::from_utf8_lossy(&out.stderr);
    let summary = err.lines().last().unwrap_or_default();
    let analysed = summary
        .split(", ")
        .find_map(|part| part.strip_prefix("positions analysed "))
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("no count of positions in `{summary}`"))?;
    Ok((analysed, seconds))
}
