//! The `table-bench` task: `tabia table` against the python-chess + pyarrow route.
//!
//! `cargo xtask table-bench [PGN] [--runs N]` (PGN: default the first `.pgn` of
//! `../shared/corpus`) needs python3 with `chess` and `pyarrow`. It times, as whole processes
//! (median of N runs, 3 by default; two commands compared are run in turns):
//!
//! 1. on a 1 MB slice of PGN (the games that start in its first megabyte): python-chess
//!    reading every game, replaying it and making the same games and moves tables (tags, SAN,
//!    UCI, Polyglot hash, clock, evaluation, comment) written by pyarrow to Parquet (zstd),
//!    against `tabia table --moves -j 1` (one core each);
//! 2. per MB at scale, each without its start: python's cost per MB from the 1 MB and a 3 MB
//!    input, tabia's (one job) from a 25 MB and a 50 MB input (a PGN smaller than a size is
//!    repeated, whole games, up to it), and their ratio; then `tabia table --moves -j 1`
//!    against `tabia epd -j 1` on the 25 MB input;
//! 3. on the 25 MB input, all cores: `tabia table` (games), `tabia table --moves` and
//!    `tabia epd` (its output to `/dev/null`, and to a file as the tables are), in rows per
//!    second and MB per second.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};

/// The python-chess + pyarrow conversion: `argv[1]` PGN in, `argv[2]` Parquet out (games),
/// `argv[3]` Parquet out (moves).
const PYTHON: &str = r#"
import sys, chess, chess.pgn, chess.polyglot, pyarrow as pa, pyarrow.parquet as pq
path, games_out, moves_out = sys.argv[1], sys.argv[2], sys.argv[3]
LICHESS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "WhiteElo",
           "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "UTCDate", "UTCTime", "ECO",
           "Opening", "Termination", "TimeControl"]
games = {k: [] for k in LICHESS + ["game", "ply_count", "final_zobrist"]}
moves = {k: [] for k in ["game", "ply", "san", "uci", "zobrist", "clock_ms", "eval_cp", "eval_mate", "comment"]}
def num(v):
    try: return int(v)
    except (TypeError, ValueError): return None
with open(path, encoding="utf-8", errors="replace") as f:
    n = 0
    while True:
        game = chess.pgn.read_game(f)
        if game is None: break
        n += 1
        h = game.headers
        for k in LICHESS:
            v = h.get(k)
            games[k].append(num(v) if k.endswith("Elo") or k.endswith("Diff") else v)
        board = game.board()
        ply = 0
        for node in game.mainline():
            san = board.san(node.move)
            board.push(node.move)
            ply += 1
            ev = node.eval()
            clk = node.clock()
            moves["game"].append(n); moves["ply"].append(ply); moves["san"].append(san)
            moves["uci"].append(node.move.uci())
            moves["zobrist"].append(chess.polyglot.zobrist_hash(board))
            moves["clock_ms"].append(None if clk is None else int(clk * 1000))
            moves["eval_cp"].append(None if ev is None or ev.is_mate() else ev.white().score())
            moves["eval_mate"].append(ev.white().mate() if ev is not None and ev.is_mate() else None)
            moves["comment"].append(node.comment or None)
        games["game"].append(n); games["ply_count"].append(ply)
        games["final_zobrist"].append(chess.polyglot.zobrist_hash(board))
games["final_zobrist"] = pa.array(games["final_zobrist"], type=pa.uint64())
pq.write_table(pa.Table.from_pydict(games), games_out, compression="zstd")
pq.write_table(pa.Table.from_pydict(moves, schema=pa.schema([
    ("game", pa.int64()), ("ply", pa.int32()), ("san", pa.string()), ("uci", pa.string()),
    ("zobrist", pa.uint64()), ("clock_ms", pa.int64()), ("eval_cp", pa.int32()),
    ("eval_mate", pa.int32()), ("comment", pa.string())])), moves_out, compression="zstd")
print(n, len(moves["ply"]))
"#;

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut pgn: Option<PathBuf> = None;
    let mut runs = 3usize;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--runs" => runs = rest.next().context("--runs N")?.parse()?,
            other if !other.starts_with('-') => pgn = Some(other.into()),
            other => {
                bail!("unknown option {other}\nusage: cargo xtask table-bench [PGN] [--runs N]")
            }
        }
    }
    let pgn = match pgn {
        Some(pgn) => pgn,
        None => first_pgn(&root.join("../shared/corpus"))
            .context("no PGN given and none in ../shared/corpus")?,
    };
    let status = Command::new("cargo")
        .args(["build", "--release", "-q", "-p", "tabia-cli"])
        .current_dir(&root)
        .status()?;
    if !status.success() {
        bail!("cargo build failed");
    }
    let tabia = root.join("target/release/tabia");
    let dir = root.join("target/table-bench");
    fs::create_dir_all(&dir)?;
    let bytes = fs::read(&pgn).with_context(|| pgn.display().to_string())?;
    let slice = dir.join("slice.pgn");
    fs::write(&slice, slice_of(&bytes, 1 << 20))?;
    let slice_mb = fs::metadata(&slice)?.len() as f64 / 1e6;

    println!(
        "1 MB slice of {} ({slice_mb:.2} MB), one core each:",
        pgn.display()
    );
    // The python-chess + pyarrow conversion of `pgn`.
    let python_on = |pgn: &Path| {
        let mut cmd = Command::new("python3");
        cmd.arg("-c")
            .arg(PYTHON)
            .arg(pgn)
            .arg(dir.join("py-games.parquet"))
            .arg(dir.join("py-moves.parquet"));
        cmd
    };
    let (python, out) = time(runs, || python_on(&slice))?;
    let counts: Vec<u64> = out
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    let (games, plies) = (
        counts.first().copied().unwrap_or(0),
        counts.get(1).copied().unwrap_or(0),
    );
    // `tabia table --moves -j 1` of `pgn`, into `out`.
    let tabia_on = |out: &str, pgn: &Path| {
        let mut cmd = Command::new(&tabia);
        cmd.args(["table", "-q", "--moves", "-j", "1", "-o"])
            .arg(dir.join(out))
            .arg(pgn);
        cmd
    };
    let (tabia_one, _) = time(runs, || tabia_on("slice.parquet", &slice))?;
    println!(
        "  python-chess + pyarrow  {:>9.3} s  {games} games, {plies} moves",
        python.as_secs_f64()
    );
    println!(
        "  tabia table --moves -j 1 {:>8.3} s",
        tabia_one.as_secs_f64()
    );
    println!(
        "  ratio per core: {:.0}x",
        python.as_secs_f64() / tabia_one.as_secs_f64()
    );

    // Per MB at scale, both without their start (python's interpreter and imports, tabia's
    // opening table and Parquet writers): the difference of two sizes, run in turns so that
    // the machine's drift hits both alike. Inputs smaller than a size are repeated game by
    // game (the cost of a game does not depend on whether it was seen before).
    let slice3 = dir.join("slice3.pgn");
    fs::write(&slice3, sized(&bytes, 3 << 20))?;
    let slice3_mb = fs::metadata(&slice3)?.len() as f64 / 1e6;
    let (python1, python3) = time_pair(runs, || python_on(&slice), || python_on(&slice3))?;
    let python_mb =
        (python3.as_secs_f64() - python1.as_secs_f64()) / (slice3_mb - slice_mb).max(1e-9);
    println!(
        "  python-chess + pyarrow, {slice_mb:.2} MB / {slice3_mb:.2} MB: {:.3} s / {:.3} s; \
         per MB once started: {:.3} s",
        python1.as_secs_f64(),
        python3.as_secs_f64(),
        python_mb
    );
    let scale1 = dir.join("scale1.pgn");
    let scale2 = dir.join("scale2.pgn");
    fs::write(&scale1, sized(&bytes, 25 << 20))?;
    fs::write(&scale2, sized(&bytes, 50 << 20))?;
    let scale1_mb = fs::metadata(&scale1)?.len() as f64 / 1e6;
    let scale2_mb = fs::metadata(&scale2)?.len() as f64 / 1e6;
    let (tabia1, tabia2) = time_pair(
        runs,
        || tabia_on("scale1.parquet", &scale1),
        || tabia_on("scale2.parquet", &scale2),
    )?;
    let tabia_mb = (tabia2.as_secs_f64() - tabia1.as_secs_f64()) / (scale2_mb - scale1_mb);
    println!(
        "  tabia table --moves -j 1, {scale1_mb:.1} MB / {scale2_mb:.1} MB: {:.3} s / {:.3} s; \
         per MB once started: {:.1} ms",
        tabia1.as_secs_f64(),
        tabia2.as_secs_f64(),
        tabia_mb * 1e3
    );
    println!("  ratio per core at scale: {:.0}x", python_mb / tabia_mb);
    // `tabia epd` of `pgn` to /dev/null (through a shell, for the redirection), with `-j 1`
    // when `one_job`.
    let epd_to_null = |pgn: &Path, one_job: bool| {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!(
            "{} epd -q{} {} > /dev/null",
            tabia.display(),
            if one_job { " -j 1" } else { "" },
            pgn.display()
        ));
        cmd
    };
    // The moves table against the EPD of every ply, one job each, on the same bytes.
    let (table_one, epd_one) = time_pair(
        runs,
        || tabia_on("scale1.parquet", &scale1),
        || epd_to_null(&scale1, true),
    )?;
    println!(
        "  one job, {scale1_mb:.1} MB: tabia table --moves {:.3} s, tabia epd > /dev/null {:.3} \
         s: {:.2}x the time",
        table_one.as_secs_f64(),
        epd_one.as_secs_f64(),
        table_one.as_secs_f64() / epd_one.as_secs_f64()
    );

    // All cores, on the larger input (on a 1 MB file the start would be most of the time).
    let pgn = scale1;
    let mb = scale1_mb;
    println!("\n{} ({mb:.1} MB), all cores:", pgn.display());
    let all_games = count_games(&tabia, &pgn)?;
    let mut rows = Vec::new();
    for (name, args) in [
        ("tabia table", vec!["table", "-q", "-o"]),
        ("tabia table --moves", vec!["table", "-q", "--moves", "-o"]),
    ] {
        let (t, _) = time(runs, || {
            let mut cmd = Command::new(&tabia);
            cmd.args(&args).arg(dir.join("corpus.parquet")).arg(&pgn);
            cmd
        })?;
        rows.push((name, t));
    }
    let (epd, _) = time(runs, || epd_to_null(&pgn, false))?;
    rows.push(("tabia epd > /dev/null", epd));
    // The tables are written to files: so is the EPD here, on the same disk.
    let epd_out = dir.join("corpus.epd");
    let (epd_file, _) = time(runs, || {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!(
            "{} epd -q {} > {}",
            tabia.display(),
            pgn.display(),
            epd_out.display()
        ));
        cmd
    })?;
    let _ = fs::remove_file(&epd_out);
    rows.push(("tabia epd > file", epd_file));
    for (name, t) in &rows {
        let s = t.as_secs_f64();
        println!(
            "  {name:<24} {s:>7.3} s  {:>9.0} games/s  {:>6.1} MB/s",
            all_games as f64 / s,
            mb / s
        );
    }
    println!(
        "  moves table / epd: {:.2}x the time (EPD to /dev/null), {:.2}x (EPD to a file)",
        rows[1].1.as_secs_f64() / epd.as_secs_f64(),
        rows[1].1.as_secs_f64() / epd_file.as_secs_f64()
    );
    Ok(())
}

/// The games that start in the first `size` bytes of `bytes` (cut before the next `[Event`).
fn slice_of(bytes: &[u8], size: usize) -> &[u8] {
    if bytes.len() <= size {
        return bytes;
    }
    let mut cut = size;
    while cut < bytes.len() && !bytes[cut..].starts_with(b"\n[Event ") {
        cut += 1;
    }
    &bytes[..cut.min(bytes.len())]
}

/// The games of `bytes` until `size` bytes: its first games when it is larger, else all of
/// them repeated (whole games) until the size is reached.
fn sized(bytes: &[u8], size: usize) -> Vec<u8> {
    if bytes.len() >= size {
        return slice_of(bytes, size).to_vec();
    }
    let mut one = bytes.to_vec();
    while one.last().is_some_and(|b| b.is_ascii_whitespace()) {
        one.pop();
    }
    one.extend_from_slice(b"\n\n");
    let mut out = Vec::with_capacity(size + one.len());
    while out.len() < size && !one.is_empty() {
        out.extend_from_slice(&one);
    }
    out
}

/// The median wall times of two commands run `runs` times in turns.
fn time_pair(
    runs: usize,
    a: impl Fn() -> Command,
    b: impl Fn() -> Command,
) -> anyhow::Result<(Duration, Duration)> {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        ta.push(time(1, &a)?.0);
        tb.push(time(1, &b)?.0);
    }
    ta.sort();
    tb.sort();
    Ok((ta[ta.len() / 2], tb[tb.len() / 2]))
}

/// The median wall time of `runs` runs of a command, and its standard output (last run).
fn time(runs: usize, command: impl Fn() -> Command) -> anyhow::Result<(Duration, String)> {
    let mut times = Vec::new();
    let mut out = String::new();
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let output = command().output()?;
        times.push(start.elapsed());
        if !output.status.success() && output.status.code() != Some(1) {
            bail!(
                "command failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        out = String::from_utf8_lossy(&output.stdout).into_owned();
    }
    times.sort();
    Ok((times[times.len() / 2], out))
}

/// The games of `pgn`, as `tabia` counts them.
fn count_games(tabia: &Path, pgn: &Path) -> anyhow::Result<u64> {
    let output = Command::new(tabia)
        .args(["pgn", "--check"])
        .arg(pgn)
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("games "))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .context("no summary from tabia pgn --check")
}

/// The first `.pgn` file of `dir`, by name.
fn first_pgn(dir: &Path) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files.into_iter().next()
}
