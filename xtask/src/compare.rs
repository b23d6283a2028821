//! The `compare` task: tabia and its peers on the same file, whole processes, as a ratio table
//! anyone can rerun.
//!
//! `cargo xtask compare [FILE] [--runs N] [--no-build] [--skip-memory]`
//!
//! 1. Builds the binaries it runs in the `profiling` profile (release code, full debug info) (`tabia`, and the pgn-reader peers
//!    `benches/examples/peer_check.rs` and `peer_stats.rs`), unless `--no-build`.
//! 2. FILE, or by default `target/compare/corpus-100mb-mixed.pgn`: 100 MB of the games of
//!    `../shared/corpus` (decompressed), each of its files an equal share, repeated as needed.
//!    A 10 MB file made the same way (for memory) and a 1 MB sample (one game in 100 of FILE,
//!    for python-chess) sit beside it.
//! 3. Times each pair on the same file, N runs each (5 by default) under `/usr/bin/time`, and
//!    prints the medians of the wall time and of the CPU time (user + system: the machine may be
//!    loaded, CPU time is the steadier figure), and the ratio peer / tabia of both:
//!    `tabia pgn --check -j 1` against pgn-reader + shakmaty (`peer_check`) and against
//!    python-chess (`chess.pgn.read_game`, which replays every move, on the 1 MB sample, per
//!    MB); `tabia stats -j 1` against pgn-reader (`peer_stats`, the same figures);
//!    `tabia epd -j 1` against `pgn-extract -Wepd`; `tabia eco -j 1` against `pgn-extract -e`
//!    with its own `eco.pgn`; `tabia filter` against `pgn-extract` for tags (`--tag
//!    Result=1-0` / `-Tr1-0`, written in export form and as read; `--white zzzzz` / `-Twzzzzz`,
//!    which matches nothing) and for a position reached by any move order (`--position` /
//!    `-x` with a line that reaches it). Each tabia command is also timed on all cores,
//!    with its ratio to the peer's one-core time.
//! 4. Peak memory (maximum resident set size) of each tabia subcommand on the 10 MB and the
//!    100 MB file (default jobs): it stays flat as the input grows.
//!
//! A peer that is not installed (pgn-extract in `/usr/games` or on `PATH`, python3 with
//! `chess`) is skipped with a message. The output is Markdown, with the machine (`lscpu`,
//! `nproc`, load average) and the command, ready for `docs/performance.md`.

use std::{
    fs::{self, File},
    io::{BufWriter, Write},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Instant,
};

use anyhow::{Context, bail};
use tabia_stream::{Input, Source};

const MB: u64 = 1_000_000;

/// One command line to time.
#[derive(Debug, Clone)]
struct Cmd {
    label: String,
    program: PathBuf,
    args: Vec<String>,
}

impl Cmd {
    fn new(label: &str, program: impl Into<PathBuf>, args: &[&str]) -> Cmd {
        Cmd {
            label: label.to_owned(),
            program: program.into(),
            args: args.iter().map(|&a| a.to_owned()).collect(),
        }
    }

    fn shown(&self) -> String {
        let name = self
            .program
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut out = name;
        for arg in &self.args {
            out.push(' ');
            out.push_str(arg);
        }
        out
    }
}

/// Medians over the runs of one command.
#[derive(Debug, Clone, Copy)]
struct Timing {
    wall: f64,
    cpu: f64,
    max_rss_kib: u64,
}

/// Runs `cmd` on `file` `runs` times; medians of wall time, user + system time, max RSS.
fn time(cmd: &Cmd, file: &Path, runs: usize) -> anyhow::Result<Timing> {
    let report = std::env::temp_dir().join(format!("tabia-compare-{}.time", std::process::id()));
    let (mut walls, mut cpus, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let started = Instant::now();
        let status = Command::new("/usr/bin/time")
            .arg("-f")
            .arg("%e %U %S %M")
            .arg("-o")
            .arg(&report)
            .arg(&cmd.program)
            .args(&cmd.args)
            .arg(file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .with_context(|| format!("cannot run /usr/bin/time {}", cmd.shown()))?;
        let wall = started.elapsed().as_secs_f64();
        // tabia exits with 1 when some games are bad (the corpus has a few): still a run.
        if !matches!(status.code(), Some(0 | 1)) {
            bail!("{} {} failed: {status}", cmd.shown(), file.display());
        }
        let text = fs::read_to_string(&report)?;
        let fields: Vec<f64> = text
            .lines()
            .last()
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        let [_, user, system, kib] = fields[..] else {
            bail!("unexpected /usr/bin/time output: {text}");
        };
        walls.push(wall);
        cpus.push(user + system);
        rss.push(kib as u64);
    }
    let _ = fs::remove_file(&report);
    Ok(Timing {
        wall: median_f(&mut walls),
        cpu: median_f(&mut cpus),
        max_rss_kib: {
            rss.sort_unstable();
            rss[rss.len() / 2]
        },
    })
}

fn median_f(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// `../shared/corpus` beside the workspace (or beside the main checkout of a git worktree).
fn corpus_dir() -> Option<PathBuf> {
    let mut candidates = vec![root().join("../shared/corpus")];
    if let Ok(out) = Command::new("git")
        .args(["rev-parse", "--path-format=absolute", "--git-common-dir"])
        .current_dir(root())
        .output()
    {
        let common = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if let Some(main) = Path::new(&common).parent() {
            candidates.push(main.join("../shared/corpus"));
        }
    }
    candidates.into_iter().find(|p| p.is_dir())
}

/// Writes the games of the corpus to `out` until it holds about `size` bytes, each corpus file
/// an equal share (its games repeated as often as needed, cut at a game end), so that no one
/// kind of file (engine games with long comments, lichess games with clocks, master games)
/// makes the figures.
fn build_input(out: &Path, size: u64) -> anyhow::Result<()> {
    let dir = corpus_dir().context("no ../shared/corpus: give a FILE")?;
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".pgn"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no PGN files in {}", dir.display());
    }
    let share = size / files.len() as u64;
    let mut writer = BufWriter::new(File::create(out)?);
    for path in &files {
        let mut written = 0u64;
        'file: loop {
            let before = written;
            let input = Source::from(path.as_path()).open()?;
            for game in input.games() {
                let game = game?;
                writer.write_all(&game.bytes)?;
                writer.write_all(b"\n\n")?;
                written += game.bytes.len() as u64 + 2;
                if written >= share {
                    break 'file;
                }
            }
            if written == before {
                break; // no games in this file
            }
        }
    }
    writer.flush()?;
    Ok(())
}

/// Every `every`-th game of `file` into `out`.
fn sample(file: &Path, out: &Path, every: usize) -> anyhow::Result<u64> {
    let mut writer = BufWriter::new(File::create(out)?);
    let mut written = 0u64;
    for (i, game) in Input::open(file)?.games().enumerate() {
        let game = game?;
        if i % every == 0 {
            writer.write_all(&game.bytes)?;
            writer.write_all(b"\n\n")?;
            written += game.bytes.len() as u64 + 2;
        }
    }
    writer.flush()?;
    Ok(written)
}

fn which(program: &str) -> Option<PathBuf> {
    let candidates = [PathBuf::from("/usr/games").join(program)];
    if let Some(found) = candidates.into_iter().find(|p| p.is_file()) {
        return Some(found);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    })
}

fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// python-chess reading (and replaying) every game of `argv[1]`.
const PYTHON: &str = "import sys, chess.pgn\n\
f = open(sys.argv[1], encoding='utf-8', errors='replace')\n\
n = 0\n\
while chess.pgn.read_game(f) is not None:\n    n += 1\n\
print(n)\n";

fn machine() -> String {
    let lscpu = Command::new("lscpu").output().ok();
    let model = lscpu
        .as_ref()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("Model name:"))
                .map(|l| l.trim_start_matches("Model name:").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    format!("{model}, {cores} cores, load average {load}")
}

fn secs(s: f64) -> String {
    format!("{s:.3} s")
}

/// `peer / ours` as `1.23×`, or `-` when a time is below what `/usr/bin/time` measures.
fn ratio(peer: f64, ours: f64) -> String {
    if ours > 0.0 && peer > 0.0 {
        format!("{:.2}×", peer / ours)
    } else {
        "-".to_owned()
    }
}

/// Options of the task.
struct Options {
    file: Option<PathBuf>,
    runs: usize,
    build: bool,
    memory: bool,
}

fn options(args: &[String]) -> anyhow::Result<Options> {
    let mut options = Options {
        file: None,
        runs: 5,
        build: true,
        memory: true,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                options.runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .context("--runs N (N > 0)")?;
            }
            "--no-build" => options.build = false,
            "--skip-memory" => options.memory = false,
            other if other.starts_with('-') => bail!("unknown option {other}"),
            other => options.file = Some(PathBuf::from(other)),
        }
    }
    Ok(options)
}

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let options = options(args)?;
    let root = root();
    if !Path::new("/usr/bin/time").is_file() {
        bail!("/usr/bin/time is needed (Debian package `time`)");
    }
    if options.build {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
            .args([
                "build",
                "--profile",
                "profiling",
                "-p",
                "tabia-cli",
                "--bin",
                "tabia",
            ])
            .current_dir(&root)
            .status()?;
        let peers = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
            .args([
                "build",
                "--profile",
                "profiling",
                "-p",
                "tabia-benches",
                "--example",
                "peer_check",
            ])
            .args(["--example", "peer_stats"])
            .current_dir(&root)
            .status()?;
        if !status.success() || !peers.success() {
            bail!("cargo build --profile profiling failed");
        }
    }
    // The release code with full debug info, so that a slow row can be profiled as measured.
    let release = root.join("target/profiling");
    let tabia = release.join("tabia");
    let work = root.join("target/compare");
    fs::create_dir_all(&work)?;
    let file = match &options.file {
        Some(file) => file.clone(),
        None => {
            let file = work.join("corpus-100mb-mixed.pgn");
            if !file.is_file() {
                eprintln!("compare: writing {} from the corpus", file.display());
                build_input(&file, 100 * MB)?;
            }
            file
        }
    };
    let size = fs::metadata(&file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let slice = work.join("sample-1mb.pgn");
    let every = usize::try_from((size / MB).max(1)).unwrap_or(100);
    let slice_size = sample(&file, &slice, every)?;
    let mb = size as f64 / MB as f64;
    let slice_mb = slice_size as f64 / MB as f64;

    let tabia_cmd = |label: &str, args: &[&str]| Cmd::new(label, &tabia, args);
    let mut pairs: Vec<(Cmd, Option<Cmd>, &str)> = Vec::new();
    let peer_check = release.join("examples/peer_check");
    let peer_stats = release.join("examples/peer_stats");
    pairs.push((
        tabia_cmd(
            "tabia pgn --check -j 1",
            &["pgn", "--check", "-q", "-j", "1"],
        ),
        peer_check
            .is_file()
            .then(|| Cmd::new("pgn-reader + shakmaty (peer_check)", &peer_check, &[])),
        "legal replay of every mainline",
    ));
    pairs.push((
        tabia_cmd("tabia stats -j 1", &["stats", "-q", "-j", "1"]),
        peer_stats
            .is_file()
            .then(|| Cmd::new("pgn-reader (peer_stats)", &peer_stats, &[])),
        "the figures of `tabia stats`, syntax only",
    ));
    let extract = which("pgn-extract");
    if extract.is_none() {
        eprintln!("compare: pgn-extract not found (/usr/games or PATH): its rows are skipped");
    }
    let eco_pgn = [
        "/usr/share/pgn-extract/eco.pgn",
        "/usr/share/games/pgn-extract/eco.pgn",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.is_file());
    let ex = |label: &str, args: &[&str]| {
        extract.as_ref().map(|p| {
            let mut all = vec!["-s", "-o", "/dev/null"];
            all.extend_from_slice(args);
            Cmd::new(label, p, &all)
        })
    };
    pairs.push((
        tabia_cmd("tabia epd -j 1", &["epd", "-q", "-j", "1"]),
        ex("pgn-extract -Wepd", &["-Wepd"]),
        "EPD of every ply",
    ));
    let eco_arg = eco_pgn.as_ref().map(|p| format!("-e{}", p.display()));
    pairs.push((
        tabia_cmd("tabia eco -j 1", &["eco", "-q", "-j", "1"]),
        match &eco_arg {
            Some(arg) => ex("pgn-extract -e (its eco.pgn)", &[arg.as_str()]),
            None => {
                eprintln!("compare: pgn-extract's eco.pgn not found: the eco row has no peer");
                None
            }
        },
        "ECO classification",
    ));
    pairs.push((
        tabia_cmd(
            "tabia filter --tag Result=1-0 -j 1",
            &["filter", "-q", "-j", "1", "--tag", "Result=1-0"],
        ),
        ex("pgn-extract -Tr1-0", &["-Tr1-0"]),
        "tag filter, matches written",
    ));
    pairs.push((
        tabia_cmd(
            "tabia filter --tag Result=1-0 --raw -j 1",
            &["filter", "-q", "-j", "1", "--tag", "Result=1-0", "--raw"],
        ),
        ex("pgn-extract -Tr1-0", &["-Tr1-0"]),
        "tag filter, matches written as read",
    ));
    pairs.push((
        tabia_cmd(
            "tabia filter --white zzzzz -j 1",
            &["filter", "-q", "-j", "1", "--white", "zzzzz"],
        ),
        ex("pgn-extract -Twzzzzz", &["-Twzzzzz"]),
        "tag filter, nothing matches",
    ));
    // The Nimzo-Indian by any move order; pgn-extract's -x takes the line in a file.
    let line = work.join("nimzo.txt");
    fs::write(&line, "d4 Nf6 c4 e6 Nc3 Bb4\n")?;
    let x_arg = format!("-x{}", line.display());
    pairs.push((
        tabia_cmd(
            "tabia filter --position NIMZO --raw -j 1",
            &[
                "filter",
                "-q",
                "-j",
                "1",
                "--raw",
                "--position",
                "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq -",
            ],
        ),
        ex("pgn-extract -x (d4 Nf6 c4 e6 Nc3 Bb4)", &[x_arg.as_str()]),
        "position search (the Nimzo-Indian), matches written as read",
    ));

    let runs = options.runs;
    println!("## tabia against its peers\n");
    println!(
        "`cargo xtask compare{}`: {} ({:.1} MB), medians of {runs} runs, one core each unless \
         said; CPU = user + system. Machine: {}.\n",
        options
            .file
            .as_ref()
            .map_or_else(String::new, |f| format!(" {}", f.display())),
        file.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        mb,
        machine()
    );
    println!("| what | tabia | wall | CPU | peer | wall | CPU | ratio wall | ratio CPU |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut check = None;
    let mut peers = Vec::new();
    for (ours, theirs, what) in &pairs {
        eprintln!("compare: {}", ours.label);
        let t = time(ours, &file, runs)?;
        if ours.label.starts_with("tabia pgn --check") {
            check = Some(t);
        }
        peers.push(None);
        match theirs {
            Some(peer) => {
                eprintln!("compare: {}", peer.label);
                let p = time(peer, &file, runs)?;
                *peers.last_mut().expect("pushed") = Some((peer.label.clone(), p));
                println!(
                    "| {what} | `{}` | {} | {} | `{}` | {} | {} | {} | {} |",
                    ours.label,
                    secs(t.wall),
                    secs(t.cpu),
                    peer.label,
                    secs(p.wall),
                    secs(p.cpu),
                    ratio(p.wall, t.wall),
                    ratio(p.cpu, t.cpu)
                );
            }
            None => println!(
                "| {what} | `{}` | {} | {} | (no peer) | | | | |",
                ours.label,
                secs(t.wall),
                secs(t.cpu)
            ),
        }
    }
    // python-chess on the sample, per MB, against tabia pgn --check per MB.
    if python_chess() {
        let script = work.join("read_games.py");
        fs::write(&script, PYTHON)?;
        eprintln!("compare: python-chess on {}", slice.display());
        let py = Cmd::new("python-chess", "python3", &[&script.display().to_string()]);
        let p = time(&py, &slice, runs.min(3))?;
        let per_mb = |x: f64| x / slice_mb;
        // tabia per MB from the whole file (the sample is too small for /usr/bin/time).
        if let Some(t) = check {
            let ours = |x: f64| x / mb;
            println!(
                "| legal replay, per MB (python-chess on a {slice_mb:.2} MB sample, 1 game in \
                 {every}; tabia on the whole file) | `tabia pgn --check -j 1` | {} | {} | \
                 `python-chess read_game` | {} | {} | {} | {} |",
                secs(ours(t.wall)),
                secs(ours(t.cpu)),
                secs(per_mb(p.wall)),
                secs(per_mb(p.cpu)),
                ratio(per_mb(p.wall), ours(t.wall)),
                ratio(per_mb(p.cpu), ours(t.cpu))
            );
            println!(
                "\npython-chess extrapolated to the whole file: {:.1} s CPU, {:.1} s wall.",
                per_mb(p.cpu) * mb,
                per_mb(p.wall) * mb,
            );
        }
    } else {
        eprintln!("compare: python3 with `chess` not found: the python-chess row is skipped");
    }

    // All cores.
    println!(
        "\nAll cores (`-j` left to its default), against the same peer on its one core (the \
         peer times are those above):\n"
    );
    println!("| tabia | wall | CPU | peer | ratio wall |");
    println!("|---|---|---|---|---|");
    for ((ours, _, _), peer) in pairs.iter().zip(&peers) {
        let mut all = ours.clone();
        if let Some(j) = all.args.iter().position(|a| a == "-j") {
            all.args.drain(j..j + 2);
        }
        all.label = all.label.replace(" -j 1", "");
        let t = time(&all, &file, runs)?;
        let (label, versus) = match peer {
            Some((label, p)) => (format!("`{label}`"), ratio(p.wall, t.wall)),
            None => (String::new(), String::new()),
        };
        println!(
            "| `{}` | {} | {} | {label} | {versus} |",
            all.label,
            secs(t.wall),
            secs(t.cpu)
        );
    }

    if options.memory {
        let small = work.join("corpus-10mb-mixed.pgn");
        if !small.is_file() {
            build_input(&small, 10 * MB)?;
        }
        let small_mb = fs::metadata(&small)?.len() as f64 / MB as f64;
        println!(
            "\nPeak memory (maximum resident set size, `/usr/bin/time`; default jobs), \
             {small_mb:.0} MB against {mb:.0} MB of input:\n"
        );
        println!("| subcommand | {small_mb:.0} MB | {mb:.0} MB |");
        println!("|---|---|---|");
        for args in [
            &["pgn", "-q"][..],
            &["pgn", "--check", "-q"],
            &["epd", "-q"],
            &["eco", "-q"],
            &["filter", "-q", "--tag", "Result=1-0"],
            &["stats", "-q"],
            &["table", "-q", "-o", "/dev/null", "--format", "csv"],
        ] {
            let cmd = Cmd::new("", &tabia, args);
            let a = time(&cmd, &small, 1)?;
            let b = time(&cmd, &file, 1)?;
            println!(
                "| `tabia {}` | {:.1} MiB | {:.1} MiB |",
                args.join(" "),
                a.max_rss_kib as f64 / 1024.0,
                b.max_rss_kib as f64 / 1024.0
            );
        }
    }
    Ok(())
}
