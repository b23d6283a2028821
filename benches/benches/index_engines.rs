//! Storage engines for the position index, measured on one modelled workload (the figures and
//! the choice are in `docs/index.md`, section "Storage engine"):
//!
//! - `redb` 4.6 (pure Rust B-tree, copy on write), opened in `ConcurrencyMode::SingleWriter`
//!   so that other processes may open the file read-only while one writes;
//! - `lmdb`: LMDB through `heed` 0.23 (C B-tree in a memory map, copy on write);
//! - `fjall` 3 (pure Rust LSM-tree).
//!
//! The workload (deterministic, seeded, no data files): a `positions` table of 12-byte random
//! keys (a 96-bit position hash) whose values are 6–40 bytes, but the 64 most common positions
//! grow to up to 100 KB; a `games` table of big-endian `u32` ids to 4–32 KB incompressible blobs.
//! It is written in batches of 200,000 keys, sorted, one write transaction each; from the second
//! batch on, 30% of a batch's keys are already present and are read, merged and written back
//! (the common positions in every batch, the others drawn towards the early, common ones).
//! Every commit is durable (redb and LMDB sync on commit; fjall is asked to, `SyncAll`).
//!
//! Each engine is measured in processes of its own, as `tabia index add` and `tabia serve`
//! would use it: one process builds the index (and, in the middle of a write transaction,
//! starts a reader process on the same files: can it open them, does it see what is committed
//! and not what is not, does it see the next commit); `du` measures the files; a fresh process
//! opens them and looks up 100,000 random present keys and 10,000 absent ones, twice (cold
//! process, then warm), each lookup in a read transaction of its own, then once more in one read
//! transaction. Not criterion: each figure is one run of a whole build, not a loop to sample.
//!
//! `cargo bench -p tabia-benches --bench index_engines`; `TABIA_INDEX_ENGINES=redb,lmdb`
//! chooses engines, `TABIA_INDEX_POSITIONS=500000` shrinks the run, `TABIA_INDEX_DIR` is where
//! the files go (default `target/index-engines`), `TABIA_INDEX_KEEP=1` keeps them.

use std::{
    collections::BTreeMap,
    error::Error,
    fmt::Write as _,
    io::{BufRead, BufReader, Write as _},
    ops::Range,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

type Result<T, E = Box<dyn Error + Send + Sync>> = std::result::Result<T, E>;

const SEED: u64 = 0x7AB1_A1DE_C0DE_5EED;
/// Keys a batch (one write transaction).
const BATCH: u64 = 200_000;
/// Share of a later batch's keys that are already present, in percent.
const UPDATES_PERCENT: u64 = 30;
/// The most common positions (the start, the main openings): in every batch, values growing
/// to `100_000 / (rank + 1)` bytes.
const HOT: u64 = 64;
/// Games over the whole run (about 50 new positions a game).
const GAMES_PER_POSITION: f64 = 100_000.0 / 5_000_000.0;
const LOOKUPS: usize = 100_000;
const ABSENT: usize = LOOKUPS / 10;
/// Keys the reader started during a write transaction checks in each group.
const READER_KEYS: u64 = 1_000;

const ENGINES: [&str; 3] = ["redb", "lmdb", "fjall"];

fn main() -> Result<()> {
    // `cargo bench` passes `--bench`; the children are called `child <role> <engine> <dir> ...`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.first().map(String::as_str) == Some("child") {
        return child(&args[1..]);
    }
    parent()
}

// ---------------------------------------------------------------------------------------------
// The workload.

/// The run's size: positions (distinct keys) in all.
fn positions() -> u64 {
    std::env::var("TABIA_INDEX_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
}

/// SplitMix64's finaliser: a good 64-bit mix.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The position hash of the `i`th distinct position.
fn key(i: u64) -> [u8; 12] {
    let a = mix(SEED ^ i);
    let b = mix(a);
    let mut k = [0; 12];
    k[..8].copy_from_slice(&a.to_be_bytes());
    k[8..].copy_from_slice(&b.to_be_bytes()[..4]);
    k
}

/// Appends `len` pseudo-random bytes drawn from `seed`.
fn fill(out: &mut Vec<u8>, len: usize, seed: u64) {
    let end = out.len() + len;
    let mut s = seed;
    while out.len() < end {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        out.extend_from_slice(&mix(s).to_le_bytes());
    }
    out.truncate(end);
}

/// The value of position `i` the first time a batch holds it: 8–20 bytes for most (a position
/// reached by one game), 6–40 for the rest.
fn first_value(i: u64) -> Vec<u8> {
    let h = mix(i ^ 0x0123_4567_89AB_CDEF);
    let len = if i < HOT {
        40
    } else if h % 10 < 8 {
        8 + (h >> 8) % 13
    } else {
        6 + (h >> 8) % 35
    };
    let mut v = Vec::with_capacity(len as usize);
    fill(&mut v, len as usize, h);
    v
}

/// Position `i`'s value after batch `batch` merged its games into `old`: a count changed and a
/// few bytes more, up to 40 bytes, or up to `100_000 / (i + 1)` for the most common positions.
fn merged(i: u64, old: &[u8], batch: u64) -> Vec<u8> {
    let (cap, grow) = if i < HOT {
        let cap = (100_000 / (i + 1)).max(40);
        (cap, cap.div_ceil(30))
    } else {
        (40, 2)
    };
    let add = grow.min(cap.saturating_sub(old.len() as u64)) as usize;
    let mut v = Vec::with_capacity(old.len() + add);
    v.extend_from_slice(old);
    if let Some(first) = v.first_mut() {
        *first = first.wrapping_add(1);
    }
    fill(&mut v, add, mix(i ^ batch.rotate_left(40)));
    v
}

/// The value to write for position `i` in `batch`, given what the table held.
fn value(i: u64, old: Option<&[u8]>, batch: u64) -> Vec<u8> {
    match old {
        Some(old) => merged(i, old, batch),
        None => first_value(i),
    }
}

/// Writes game `id`'s blob (4–32 KB, incompressible: it stands for compressed movetext) into
/// `buf`.
fn blob(id: u32, buf: &mut Vec<u8>) -> &[u8] {
    let h = mix(u64::from(id) ^ 0x0B10_B000);
    buf.clear();
    fill(buf, 4096 + (h % (32768 - 4096 + 1)) as usize, h);
    buf
}

/// The batches of a run of `n` positions.
struct Plan {
    n: u64,
}

impl Plan {
    fn new_per_batch(&self) -> u64 {
        BATCH - BATCH * UPDATES_PERCENT / 100
    }

    fn batches(&self) -> u64 {
        if self.n <= BATCH {
            1
        } else {
            1 + (self.n - BATCH).div_ceil(self.new_per_batch())
        }
    }

    /// The first new position of batch `b` (the positions before it are present).
    fn new_start(&self, b: u64) -> u64 {
        if b == 0 {
            0
        } else {
            (BATCH + (b - 1) * self.new_per_batch()).min(self.n)
        }
    }

    fn new_positions(&self, b: u64) -> Range<u64> {
        self.new_start(b)..self.new_start(b + 1)
    }

    fn games(&self, b: u64) -> Range<u32> {
        let games = |p: u64| (p as f64 * GAMES_PER_POSITION) as u32;
        games(self.new_start(b))..games(self.new_start(b + 1))
    }

    /// Batch `b`'s keys, sorted: (hash, position number).
    fn keys(&self, b: u64) -> Vec<([u8; 12], u64)> {
        let fresh = self.new_positions(b);
        let present = fresh.start;
        let mut old = Vec::new();
        if present > 0 {
            old.extend(0..HOT.min(present));
            let mut s = mix(SEED ^ b.rotate_left(20));
            for _ in HOT..BATCH * UPDATES_PERCENT / 100 {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let u = (mix(s) >> 11) as f64 / (1u64 << 53) as f64;
                // Towards the early positions: those reached early are the common ones.
                old.push((present as f64 * u * u * u) as u64);
            }
            old.sort_unstable();
            old.dedup();
        }
        let mut keys: Vec<_> = old.into_iter().chain(fresh).map(|i| (key(i), i)).collect();
        keys.sort_unstable();
        keys
    }
}

// ---------------------------------------------------------------------------------------------
// The parent: runs each engine's processes and prints the tables.

/// What a child reported: `RESULT name value` lines.
type Report = BTreeMap<String, String>;

fn run_child(args: &[&str]) -> Result<Report> {
    let out = Command::new(std::env::current_exe()?)
        .arg("child")
        .args(args)
        .stderr(Stdio::inherit())
        .output()?;
    if !out.status.success() {
        return Err(format!("child {args:?} failed: {}", out.status).into());
    }
    Ok(parse_report(&String::from_utf8_lossy(&out.stdout)))
}

fn parse_report(text: &str) -> Report {
    text.lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn result(name: &str, value: impl std::fmt::Display) {
    println!("RESULT {name} {value}");
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// `du -sk` of `dir`, in bytes, and the files' apparent size.
fn disk_usage(dir: &Path) -> Result<(u64, u64)> {
    let out = Command::new("du").arg("-sk").arg(dir).output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let kib: u64 = text
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .ok_or("du printed no size")?;
    let mut apparent = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                apparent += meta.len();
            }
        }
    }
    Ok((kib * 1024, apparent))
}

fn parent() -> Result<()> {
    let chosen = std::env::var("TABIA_INDEX_ENGINES").unwrap_or_else(|_| ENGINES.join(","));
    let engines: Vec<&str> = chosen.split(',').filter(|e| !e.is_empty()).collect();
    let base = std::env::var_os("TABIA_INDEX_DIR").map_or_else(
        || workspace_root().join("target/index-engines"),
        PathBuf::from,
    );
    let keep = std::env::var_os("TABIA_INDEX_KEEP").is_some_and(|v| v == "1");
    let plan = Plan { n: positions() };
    eprintln!(
        "index_engines: {} positions in {} batches of {BATCH} keys, {} games, engines {engines:?}, in {}",
        plan.n,
        plan.batches(),
        plan.games(plan.batches() - 1).end,
        base.display()
    );
    let mut reports = Vec::new();
    for &engine in &engines {
        if !ENGINES.contains(&engine) {
            return Err(format!("unknown engine {engine:?} (known: {ENGINES:?})").into());
        }
        let dir = base.join(engine);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
        let dir_str = dir.to_str().ok_or("the directory's name is not UTF-8")?;
        eprintln!("{engine}: build");
        let mut report = run_child(&["build", engine, dir_str])?;
        let (du, apparent) = disk_usage(&dir)?;
        report.insert("du_bytes".into(), du.to_string());
        report.insert("apparent_bytes".into(), apparent.to_string());
        eprintln!("{engine}: lookups");
        report.extend(run_child(&["lookups", engine, dir_str])?);
        if !keep {
            std::fs::remove_dir_all(&dir)?;
        }
        reports.push((engine, report));
    }
    print!("{}", tables(&reports));
    Ok(())
}

fn tables(reports: &[(&str, Report)]) -> String {
    let get = |r: &Report, k: &str| r.get(k).cloned().unwrap_or_else(|| "?".into());
    let num = |r: &Report, k: &str| r.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n| engine | build (s) | keys written/s | first batch (s) | slowest batch (s) | close (s) | du (MB) | apparent (MB) |"
    );
    let _ = writeln!(s, "|---|--:|--:|--:|--:|--:|--:|--:|");
    for (engine, r) in reports {
        let _ = writeln!(
            s,
            "| {engine} | {:.1} | {:.0} | {:.2} | {:.2} (batch {}) | {:.2} | {:.0} | {:.0} |",
            num(r, "build_secs"),
            num(r, "writes") / num(r, "build_secs"),
            num(r, "first_batch_secs"),
            num(r, "slowest_batch_secs"),
            get(r, "slowest_batch"),
            num(r, "close_secs"),
            num(r, "du_bytes") / 1e6,
            num(r, "apparent_bytes") / 1e6,
        );
    }
    let _ = writeln!(
        s,
        "\n| engine | pass | open (ms) | first lookup (µs) | present p50 / p99 (µs) | absent p50 / p99 (µs) |"
    );
    let _ = writeln!(s, "|---|---|--:|--:|--:|--:|");
    for (engine, r) in reports {
        for pass in ["cold", "warm", "one-txn"] {
            let (open, first) = if pass == "cold" {
                (
                    format!("{:.1}", num(r, "open_ms")),
                    format!("{:.0}", num(r, "first_us")),
                )
            } else {
                (String::new(), String::new())
            };
            let _ = writeln!(
                s,
                "| {engine} | {pass} | {open} | {first} | {:.1} / {:.1} | {:.1} / {:.1} |",
                num(r, &format!("{pass}_present_p50_us")),
                num(r, &format!("{pass}_present_p99_us")),
                num(r, &format!("{pass}_absent_p50_us")),
                num(r, &format!("{pass}_absent_p99_us")),
            );
        }
    }
    let _ = writeln!(
        s,
        "\n| engine | reader opens while a write transaction is open | sees committed | sees uncommitted | sees the next commit |"
    );
    let _ = writeln!(s, "|---|---|--:|--:|--:|");
    for (engine, r) in reports {
        let _ = writeln!(
            s,
            "| {engine} | {} | {} | {} | {} |",
            get(r, "reader_open"),
            get(r, "reader_committed"),
            get(r, "reader_uncommitted"),
            get(r, "reader_after_commit"),
        );
    }
    let _ = writeln!(s, "\nchecks (the same on every engine):");
    for (engine, r) in reports {
        let _ = writeln!(
            s,
            "  {engine}: writes {} positions {} games {} found {} value bytes {}",
            get(r, "writes"),
            get(r, "positions"),
            get(r, "games"),
            get(r, "found"),
            get(r, "found_bytes"),
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// The children.

fn child(args: &[String]) -> Result<()> {
    let [role, engine, dir, rest @ ..] = args else {
        return Err(format!("child arguments: {args:?}").into());
    };
    let dir = Path::new(dir);
    match (role.as_str(), engine.as_str()) {
        ("build", "redb") => redb_engine::build(dir),
        ("build", "lmdb") => lmdb_engine::build(dir),
        ("build", "fjall") => fjall_engine::build(dir),
        ("lookups", "redb") => redb_engine::lookups(dir),
        ("lookups", "lmdb") => lmdb_engine::lookups(dir),
        ("lookups", "fjall") => fjall_engine::lookups(dir),
        ("reader", e) => {
            let start: u64 = rest
                .first()
                .and_then(|v| v.parse().ok())
                .ok_or("reader: no batch start")?;
            let probe = ReaderProbe { start };
            match e {
                "redb" => redb_engine::reader(dir, &probe),
                "lmdb" => lmdb_engine::reader(dir, &probe),
                "fjall" => fjall_engine::reader(dir, &probe),
                _ => Err(format!("unknown engine {e:?}").into()),
            }
        }
        _ => Err(format!("child arguments: {args:?}").into()),
    }
}

/// A lookup: the length of the key's value, if it is present.
type Get<'a> = dyn FnMut(&[u8]) -> Result<Option<usize>> + 'a;

/// A pass of lookups, given the lookup to time.
type Pass<'a> = dyn FnMut(&mut Get<'_>) -> Result<()> + 'a;

/// One batch as an engine writes it.
struct Batch {
    number: u64,
    keys: Vec<([u8; 12], u64)>,
    games: Range<u32>,
}

/// The build: every batch in one write transaction each (`write` writes and commits it,
/// calling `before_commit` when all is written), timed; in the middle batch a reader process is
/// started before the commit and told of it after. Returns when the build started, for
/// `closed`.
fn drive(
    engine: &str,
    dir: &Path,
    mut write: impl FnMut(&Batch, &mut dyn FnMut() -> Result<()>) -> Result<()>,
) -> Result<Instant> {
    let plan = Plan { n: positions() };
    let middle = plan.batches() / 2;
    let start = Instant::now();
    let (mut writes, mut first, mut slowest) = (0u64, Duration::ZERO, (0, Duration::ZERO));
    for b in 0..plan.batches() {
        let batch = Batch {
            number: b,
            keys: plan.keys(b),
            games: plan.games(b),
        };
        writes += batch.keys.len() as u64;
        let t = Instant::now();
        let mut reader = None;
        write(&batch, &mut || {
            if b == middle && b > 0 {
                reader = Some(start_reader(engine, dir, plan.new_start(b))?);
            }
            Ok(())
        })?;
        let took = t.elapsed();
        if let Some(reader) = reader.take() {
            finish_reader(reader)?;
        }
        if b == 0 {
            first = took;
        }
        if took > slowest.1 {
            slowest = (b, took);
        }
        eprintln!(
            "{engine}: batch {b}: {} keys, games {:?}, {:.2} s",
            batch.keys.len(),
            batch.games,
            took.as_secs_f64()
        );
    }
    result("first_batch_secs", first.as_secs_f64());
    result("slowest_batch", slowest.0);
    result("slowest_batch_secs", slowest.1.as_secs_f64());
    result("writes", writes);
    result("positions", plan.n);
    result("batches", plan.batches());
    result("games", plan.games(plan.batches() - 1).end);
    Ok(start)
}

/// Reports the build's time, closing included (`close` drops the engine's handles).
fn closed(start: Instant, close: impl FnOnce()) {
    let t = Instant::now();
    close();
    result("close_secs", t.elapsed().as_secs_f64());
    result("build_secs", start.elapsed().as_secs_f64());
}

struct RunningReader {
    child: std::process::Child,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

/// Starts a reader process while this one has a write transaction open, and waits until it has
/// read (or failed to open the files).
fn start_reader(engine: &str, dir: &Path, start: u64) -> Result<RunningReader> {
    let mut child = Command::new(std::env::current_exe()?)
        .arg("child")
        .arg("reader")
        .arg(engine)
        .arg(dir)
        .arg(start.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no reader stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    for line in lines.by_ref() {
        let line = line?;
        if line == "ready" {
            break;
        }
        println!("{line}");
    }
    Ok(RunningReader { child, lines })
}

/// Tells the reader the batch is committed and passes on what it found.
fn finish_reader(mut reader: RunningReader) -> Result<()> {
    if let Some(stdin) = reader.child.stdin.as_mut() {
        // The reader may have exited already (it could not open the files).
        let _ = stdin.write_all(b"committed\n");
    }
    drop(reader.child.stdin.take());
    for line in reader.lines {
        println!("{}", line?);
    }
    reader.child.wait()?;
    Ok(())
}

/// What the reader checks: keys of the first batch (committed), keys new in the batch being
/// written (not committed yet; committed once it is told so).
struct ReaderProbe {
    start: u64,
}

impl ReaderProbe {
    /// Counts the keys found among `keys`.
    fn count(keys: impl Iterator<Item = u64>, get: &mut Get<'_>) -> Result<String> {
        let (mut found, mut all) = (0, 0);
        for i in keys {
            all += 1;
            found += usize::from(get(&key(i))?.is_some());
        }
        Ok(format!("{found}/{all}"))
    }

    /// Runs the checks: `get` looks a key up in a fresh read transaction.
    fn run(&self, get: &mut Get<'_>) -> Result<()> {
        result("reader_open", "yes");
        let t = Instant::now();
        result("reader_committed", Self::count(0..READER_KEYS, get)?);
        result(
            "reader_lookup_us",
            t.elapsed().as_secs_f64() * 1e6 / READER_KEYS as f64,
        );
        let fresh = self.start..self.start + READER_KEYS;
        result("reader_uncommitted", Self::count(fresh.clone(), get)?);
        println!("ready");
        std::io::stdout().flush()?;
        let mut line = String::new();
        std::io::stdin().read_line(&mut line)?;
        result("reader_after_commit", Self::count(fresh, get)?);
        Ok(())
    }

    /// The reader could not open the files.
    fn refused(&self, e: &dyn std::fmt::Display) {
        result("reader_open", format!("no: {e}"));
        println!("ready");
    }
}

/// The lookups of a fresh process: 100,000 present and 10,000 absent keys in random order.
struct Lookups {
    keys: Vec<([u8; 12], bool)>,
}

impl Lookups {
    fn new() -> Self {
        let n = positions();
        let mut keys = Vec::with_capacity(LOOKUPS + ABSENT);
        let mut s = SEED ^ 0x0100_C0F5;
        for j in 0..LOOKUPS + ABSENT {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            if j % 11 == 10 {
                keys.push((key(n + j as u64), false));
            } else {
                keys.push((key(mix(s) % n), true));
            }
        }
        Lookups { keys }
    }

    /// One pass: each lookup timed; reports p50/p99 of present and absent keys.
    fn pass(&self, name: &str, get: &mut Get<'_>) -> Result<()> {
        let (mut present, mut absent) = (Vec::new(), Vec::new());
        let (mut found, mut bytes) = (0u64, 0u64);
        for (k, is_present) in &self.keys {
            let t = Instant::now();
            let got = get(k)?;
            let ns = t.elapsed().as_nanos() as u64;
            if let Some(len) = got {
                found += 1;
                bytes += len as u64;
            }
            if got.is_some() != *is_present {
                return Err(format!("{name}: key {k:02x?} present {}", got.is_some()).into());
            }
            if *is_present {
                present.push(ns);
            } else {
                absent.push(ns);
            }
        }
        for (what, mut v) in [("present", present), ("absent", absent)] {
            v.sort_unstable();
            let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize] as f64 / 1e3;
            result(&format!("{name}_{what}_p50_us"), at(0.5));
            result(&format!("{name}_{what}_p99_us"), at(0.99));
        }
        result("found", found);
        result("found_bytes", bytes);
        Ok(())
    }

    /// The passes of a fresh process that began opening the files at `start`: cold and warm
    /// with a read transaction a lookup (`get`), then warm in one transaction (`in_one_txn`
    /// opens it and runs the pass it is given in it).
    fn run(
        &self,
        start: Instant,
        get: &mut Get<'_>,
        in_one_txn: &mut dyn FnMut(&mut Pass<'_>) -> Result<()>,
    ) -> Result<()> {
        result("open_ms", start.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        get(&self.keys[0].0)?;
        result("first_us", t.elapsed().as_secs_f64() * 1e6);
        self.pass("cold", get)?;
        self.pass("warm", get)?;
        in_one_txn(&mut |get| self.pass("one-txn", get))
    }
}

mod redb_engine {
    //! redb 4.6, in `SingleWriter` mode: one process writes, others open the file read-only.

    use std::{path::Path, time::Instant};

    use redb::{
        Builder, ConcurrencyMode, Database, ReadableDatabase, ReadableTable, TableDefinition,
    };

    use super::{Lookups, ReaderProbe, Result, blob, closed, drive, value};

    const POSITIONS: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new("positions");
    const GAMES: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new("games");

    fn builder() -> Builder {
        let mut b = Builder::new();
        b.set_concurrency_mode(ConcurrencyMode::SingleWriter);
        b
    }

    fn file(dir: &Path) -> std::path::PathBuf {
        dir.join("index.redb")
    }

    pub(super) fn build(dir: &Path) -> Result<()> {
        let db: Database = builder().create(file(dir))?;
        let mut buf = Vec::new();
        let start = drive("redb", dir, |batch, before_commit| {
            let txn = db.begin_write()?;
            {
                let mut positions = txn.open_table(POSITIONS)?;
                for (k, i) in &batch.keys {
                    let old = positions.get(k.as_slice())?.map(|v| v.value().to_vec());
                    let new = value(*i, old.as_deref(), batch.number);
                    positions.insert(k.as_slice(), new.as_slice())?;
                }
                let mut games = txn.open_table(GAMES)?;
                for id in batch.games.clone() {
                    games.insert(id.to_be_bytes().as_slice(), blob(id, &mut buf))?;
                }
            }
            before_commit()?;
            txn.commit()?;
            Ok(())
        })?;
        closed(start, || drop(db));
        Ok(())
    }

    pub(super) fn lookups(dir: &Path) -> Result<()> {
        let lookups = Lookups::new();
        let start = Instant::now();
        let db = builder().open_read_only(file(dir))?;
        lookups.run(
            start,
            &mut |k| {
                let table = db.begin_read()?.open_table(POSITIONS)?;
                Ok(table.get(k)?.map(|v| v.value().len()))
            },
            &mut |pass| {
                let table = db.begin_read()?.open_table(POSITIONS)?;
                pass(&mut |k| Ok(table.get(k)?.map(|v| v.value().len())))
            },
        )
    }

    pub(super) fn reader(dir: &Path, probe: &ReaderProbe) -> Result<()> {
        match builder().open_read_only(file(dir)) {
            Ok(db) => probe.run(&mut |k| {
                let table = db.begin_read()?.open_table(POSITIONS)?;
                Ok(table.get(k)?.map(|v| v.value().len()))
            }),
            Err(e) => {
                probe.refused(&e);
                Ok(())
            }
        }
    }
}

mod lmdb_engine {
    //! LMDB through heed 0.23: one writer and any number of reader processes per environment.

    use std::{path::Path, time::Instant};

    use heed::{CommitOrAbort, Database, Env, EnvOpenOptions, types::Bytes};

    use super::{Lookups, ReaderProbe, Result, blob, closed, drive, value};

    /// The map's size: an upper bound on the file's, reserved as address space only.
    const MAP_SIZE: usize = 64 << 30;

    /// Opens the environment in `dir`.
    fn open(dir: &Path) -> heed::Result<Env> {
        let mut options = EnvOpenOptions::new();
        options.map_size(MAP_SIZE).max_dbs(2);
        // SAFETY: heed's conditions: the files are on a local file system and changed only
        // through LMDB (this bench's processes), and nothing touches LMDB's lock file.
        #[expect(unsafe_code, reason = "heed's EnvOpenOptions::open is unsafe")]
        unsafe {
            options.open(dir)
        }
    }

    type Table<'e> = Database<'e, Bytes, Bytes>;

    pub(super) fn build(dir: &Path) -> Result<()> {
        let env = open(dir)?;
        let (positions, games): (Table<'_>, Table<'_>) = env
            .create_databases_and_commit(env.write_txn()?, |dbo, wtxn| {
                let p = dbo.create_database(wtxn, Some("positions"))?;
                let g = dbo.create_database(wtxn, Some("games"))?;
                heed::Result::Ok(CommitOrAbort::<_, ()>::Commit((p, g)))
            })?
            .commit()
            .ok_or("creating the tables was aborted")?;
        let mut buf = Vec::new();
        let start = drive("lmdb", dir, |batch, before_commit| {
            let mut txn = env.write_txn()?;
            for (k, i) in &batch.keys {
                let old = positions.get(&txn, k.as_slice())?.map(<[u8]>::to_vec);
                let new = value(*i, old.as_deref(), batch.number);
                positions.put(&mut txn, k.as_slice(), new.as_slice())?;
            }
            for id in batch.games.clone() {
                games.put(&mut txn, id.to_be_bytes().as_slice(), blob(id, &mut buf))?;
            }
            before_commit()?;
            txn.commit()?;
            Ok(())
        })?;
        closed(start, || drop(env));
        Ok(())
    }

    fn open_positions(env: &Env) -> Result<Table<'_>> {
        env.open_databases_and_commit(env.read_txn()?, |dbo, rtxn| {
            let p = dbo.open_database(rtxn, Some("positions"))?;
            heed::Result::Ok(CommitOrAbort::<_, ()>::Commit(p))
        })?
        .commit()
        .flatten()
        .ok_or_else(|| "no positions table".into())
    }

    pub(super) fn lookups(dir: &Path) -> Result<()> {
        let lookups = Lookups::new();
        let start = Instant::now();
        let env = open(dir)?;
        let positions = open_positions(&env)?;
        lookups.run(
            start,
            &mut |k| {
                let txn = env.read_txn()?;
                Ok(positions.get(&txn, k)?.map(<[u8]>::len))
            },
            &mut |pass| {
                let txn = env.read_txn()?;
                pass(&mut |k| Ok(positions.get(&txn, k)?.map(<[u8]>::len)))
            },
        )
    }

    pub(super) fn reader(dir: &Path, probe: &ReaderProbe) -> Result<()> {
        let env = match open(dir) {
            Ok(env) => env,
            Err(e) => {
                probe.refused(&e);
                return Ok(());
            }
        };
        match open_positions(&env) {
            Ok(positions) => probe.run(&mut |k| {
                let txn = env.read_txn()?;
                Ok(positions.get(&txn, k)?.map(<[u8]>::len))
            }),
            Err(e) => {
                probe.refused(&e);
                Ok(())
            }
        }
    }
}

mod fjall_engine {
    //! fjall 3: an LSM-tree; one process per database (a lock file), no read-only opening.

    use std::{path::Path, time::Instant};

    use fjall::{Database, KeyspaceCreateOptions, KvSeparationOptions, PersistMode, Readable};

    use super::{Lookups, ReaderProbe, Result, blob, closed, drive, value};

    /// The block cache: redb's default (1 GiB), not fjall's (32 MiB), for like lookups.
    const CACHE: u64 = 1 << 30;

    fn open(dir: &Path) -> fjall::Result<Database> {
        Database::builder(dir).cache_size(CACHE).open()
    }

    pub(super) fn build(dir: &Path) -> Result<()> {
        let db = open(dir)?;
        let positions = db.keyspace("positions", KeyspaceCreateOptions::default)?;
        // The blobs apart from the keys (fjall's advice for large values).
        let games = db.keyspace("games", || {
            KeyspaceCreateOptions::default()
                .with_kv_separation(Some(KvSeparationOptions::default()))
        })?;
        let mut buf = Vec::new();
        let start = drive("fjall", dir, |batch, before_commit| {
            // A write batch commits atomically; it cannot read its own writes, but a batch
            // holds each key once, so the old value is the committed one.
            let mut wb = db.batch();
            for (k, i) in &batch.keys {
                let old = positions.get(k)?;
                let new = value(*i, old.as_deref(), batch.number);
                wb.insert(&positions, k.as_slice(), new);
            }
            for id in batch.games.clone() {
                wb.insert(&games, id.to_be_bytes(), blob(id, &mut buf));
            }
            before_commit()?;
            wb.commit()?;
            db.persist(PersistMode::SyncAll)?;
            Ok(())
        })?;
        closed(start, || drop((positions, games, db)));
        Ok(())
    }

    pub(super) fn lookups(dir: &Path) -> Result<()> {
        let lookups = Lookups::new();
        let start = Instant::now();
        let db = open(dir)?;
        let positions = db.keyspace("positions", KeyspaceCreateOptions::default)?;
        lookups.run(
            start,
            &mut |k| Ok(positions.get(k)?.map(|v| v.len())),
            &mut |pass| {
                let snapshot = db.snapshot();
                pass(&mut |k| Ok(snapshot.get(&positions, k)?.map(|v| v.len())))
            },
        )
    }

    pub(super) fn reader(dir: &Path, probe: &ReaderProbe) -> Result<()> {
        match open(dir) {
            Ok(db) => {
                let positions = db.keyspace("positions", KeyspaceCreateOptions::default)?;
                probe.run(&mut |k| Ok(positions.get(k)?.map(|v| v.len())))
            }
            Err(e) => {
                probe.refused(&e);
                Ok(())
            }
        }
    }
}
