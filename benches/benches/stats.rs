//! `tabia stats` speed: tabia-stats on one core against pgn-reader's syntax-only visitors, on
//! the same bytes, in the same group (`stats/<input>`):
//!
//! - `tabia`: `Stats::from_reader` — tabia-notation's reader over `io::Read` into the
//!   `GameFacts` visitor, the figures added to a `Stats` (the bytes copied into the reader's
//!   buffer, as pgn-reader copies them into its own: what `tabia stats -j 1` does on a file);
//! - `tabia/in-place`: `Stats::from_bytes` — the same, reading bytes it owns in place (what
//!   each worker of `tabia stats` does with its piece of the input; the copy of the bytes for
//!   each run is made outside the timing);
//! - `pgn-reader/facts`: pgn-reader 0.29 feeding the same `GameFacts` and `Stats` (the same
//!   figures: the readers are what differs);
//! - `pgn-reader/count`: pgn-reader's visitor that only counts events (the least a pgn-reader
//!   user can do; it skips nothing).
//!
//! Inputs: `TABIA_BENCH_PGN=path` if set, else the `.pgn` files of `../shared/corpus/` (and
//! its `.pgn.zst` files, decompressed, with `TABIA_BENCH_ZST=1`), else `fixtures/pgn/ok/`.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
};

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use tabia_benches::peer;
use tabia_stats::Stats;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The inputs: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    if let Some(path) = std::env::var_os("TABIA_BENCH_PGN") {
        let path = PathBuf::from(path);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return vec![(name_of(&path), bytes)];
    }
    let zst = std::env::var_os("TABIA_BENCH_ZST").is_some_and(|v| v == "1");
    let mut found = Vec::new();
    for dir in [
        root().join("../shared/corpus"),
        root().join("fixtures/pgn/ok"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = name_of(&path);
            if name.ends_with(".pgn") {
                if let Ok(bytes) = std::fs::read(&path) {
                    found.push((name, bytes));
                }
            } else if zst && name.ends_with(".pgn.zst") {
                let bytes = std::fs::read(&path)
                    .ok()
                    .and_then(|b| zstd::decode_all(&b[..]).ok());
                if let Some(bytes) = bytes {
                    found.push((name, bytes));
                }
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    found
}

fn tabia(bytes: &[u8]) -> Stats {
    Stats::from_reader(bytes).expect("in memory")
}

/// What a worker of `tabia stats` does with the piece of input it holds: read it in place.
fn tabia_in_place(bytes: Vec<u8>) -> (Stats, Vec<u8>) {
    Stats::from_bytes(bytes)
}

/// Times tabia and the two peers in alternation (so that a busy machine slows them alike) and
/// prints the best and median times and the ratios: on a loaded machine, a check on
/// criterion's numbers, which time one function after the other.
fn interleaved(name: &str, bytes: &[u8]) {
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e3
    };
    let (mut ours, mut facts, mut count) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_place = Vec::new();
    let rounds: usize = std::env::var("TABIA_BENCH_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    for _ in 0..rounds {
        ours.push(time(&|| drop(black_box(tabia(bytes)))));
        let owned = bytes.to_vec();
        let start = std::time::Instant::now();
        let (stats, owned) = tabia_in_place(black_box(owned));
        in_place.push(start.elapsed().as_secs_f64() * 1e3);
        drop((black_box(stats), owned));
        facts.push(time(&|| drop(black_box(peer::stats(bytes)))));
        count.push(time(&|| {
            black_box(peer::count(bytes));
        }));
    }
    for v in [&mut ours, &mut in_place, &mut facts, &mut count] {
        v.sort_by(f64::total_cmp);
    }
    let (best, median) = (|v: &[f64]| v[0], |v: &[f64]| v[v.len() / 2]);
    eprintln!(
        "{name}: interleaved best: tabia {:.3} ms, pgn-reader/facts {:.3} ms ({:.2}x), \
         pgn-reader/count {:.3} ms ({:.2}x); median: tabia {:.3} ms, facts {:.3} ms ({:.2}x), \
         count {:.3} ms ({:.2}x)",
        best(&ours),
        best(&facts),
        best(&facts) / best(&ours),
        best(&count),
        best(&count) / best(&ours),
        median(&ours),
        median(&facts),
        median(&facts) / median(&ours),
        median(&count),
        median(&count) / median(&ours),
    );
    eprintln!(
        "{name}: interleaved, in place: best {:.3} ms ({:.2}x facts, {:.2}x count); median \
         {:.3} ms ({:.2}x facts, {:.2}x count)",
        best(&in_place),
        best(&facts) / best(&in_place),
        best(&count) / best(&in_place),
        median(&in_place),
        median(&facts) / median(&in_place),
        median(&count) / median(&in_place),
    );
}

fn bench_stats(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        // Sanity check: both readers give the same figures (bytes aside: pgn-reader does not
        // say where a game ends; warnings aside: pgn-reader gives none).
        let ours = tabia(&bytes).report(None);
        let theirs = peer::stats(&bytes).report(None);
        assert_eq!(
            (
                ours.games,
                ours.plies,
                ours.results,
                ours.players,
                &ours.events
            ),
            (
                theirs.games,
                theirs.plies,
                theirs.results,
                theirs.players,
                &theirs.events
            ),
            "{name}"
        );
        assert_eq!(
            (
                ours.annotations,
                ours.time_controls,
                ours.ratings,
                &ours.eco
            ),
            (
                theirs.annotations,
                theirs.time_controls,
                theirs.ratings,
                &theirs.eco
            ),
            "{name}"
        );
        eprintln!(
            "{name}: {} games, median {:?} plies, {} players",
            ours.games, ours.plies.median, ours.players
        );

        interleaved(&name, &bytes);

        let mut group = c.benchmark_group(format!("stats/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| b.iter(|| tabia(black_box(&bytes))));
        group.bench_function("tabia/in-place", |b| {
            b.iter_batched(
                || bytes.clone(),
                |owned| tabia_in_place(black_box(owned)),
                BatchSize::LargeInput,
            )
        });
        group.bench_function("pgn-reader/facts", |b| {
            b.iter(|| peer::stats(black_box(&bytes)))
        });
        group.bench_function("pgn-reader/count", |b| {
            b.iter(|| peer::count(black_box(&bytes)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_stats);
criterion_main!(benches);
