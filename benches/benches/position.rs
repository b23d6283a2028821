//! Position benches, tabia against its peer (pgn-reader + shakmaty) on the same bytes:
//!
//! - `replay`: legal replay of every mainline: tabia's reader with its streaming replayer
//!   against a pgn-reader visitor that parses each SAN with shakmaty and plays it.
//! - `epd`: the EPD of every ply: tabia's writer (bytes straight from the board into a reused
//!   buffer) against formatting shakmaty's `Epd` with `Display` (into a reused `String`).
//!
//! Input: `TABIA_BENCH_PGN` if set, else `../shared/corpus/*.pgn` when present, else the PGN
//! fixtures of the repository.

use std::{fmt::Write as _, hint::black_box, path::PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{Chess, EnPassantMode};
use tabia_benches::peer;
use tabia_notation::pgn::PgnReader;
use tabia_position::{EpRule, MainlineReplayer, Position};

/// The bench inputs: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<PathBuf> = Vec::new();
    if let Ok(path) = std::env::var("TABIA_BENCH_PGN") {
        paths.push(PathBuf::from(path));
    } else {
        let corpus = root.join("../shared/corpus");
        let fixtures = root.join("fixtures/pgn/ok");
        for dir in [corpus, fixtures] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect();
            found.sort();
            if !found.is_empty() {
                paths = found;
                break;
            }
        }
    }
    paths
        .into_iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            std::fs::read(&p).ok().map(|bytes| (name, bytes))
        })
        .collect()
}

/// tabia: its reader and the streaming mainline replayer. Returns (games, plies, bad games).
fn tabia_replay(bytes: &[u8]) -> (u64, u64, u64) {
    let mut plies = 0u64;
    let mut replayer = MainlineReplayer::new(|_: &Position, _, _| plies += 1);
    let mut reader = PgnReader::new(bytes);
    let (mut games, mut bad) = (0, 0);
    loop {
        match reader.read_game(&mut replayer) {
            Ok(Some(Ok(_))) => games += 1,
            Ok(Some(Err(_))) | Err(_) => bad += 1,
            Ok(None) => break,
        }
    }
    drop(replayer);
    (games, plies, bad)
}

/// Every position of every mainline (standard start positions only), for the EPD bench.
fn positions(bytes: &[u8], limit: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut replayer = MainlineReplayer::new(|pos: &Position, _, _| {
        if out.len() < limit {
            out.push(pos.clone());
        }
    });
    let mut reader = PgnReader::new(bytes);
    while let Ok(Some(_)) = reader.read_game(&mut replayer) {}
    drop(replayer);
    out
}

fn bench_replay(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        let ours = tabia_replay(&bytes);
        let theirs = peer::replay(&bytes);
        eprintln!(
            "replay {name}: tabia {} games, {} plies, {} bad; peer {} games, {} plies, {} bad",
            ours.0, ours.1, ours.2, theirs.0, theirs.1, theirs.2
        );
        let mut group = c.benchmark_group(format!("position/replay/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| b.iter(|| tabia_replay(black_box(&bytes))));
        group.bench_function("pgn-reader+shakmaty", |b| {
            b.iter(|| peer::replay(black_box(&bytes)))
        });
        group.finish();
    }
}

fn bench_epd(c: &mut Criterion) {
    let all: Vec<u8> = inputs().into_iter().flat_map(|(_, b)| b).collect();
    let positions = positions(&all, 200_000);
    let chess: Vec<Chess> = positions.iter().map(|p| p.chess().clone()).collect();
    // Sanity: both writers agree.
    for (ours, theirs) in positions.iter().zip(&chess).take(10_000) {
        let epd = shakmaty::fen::Epd::from_position(theirs, EnPassantMode::Always).to_string();
        assert_eq!(ours.epd(EpRule::Always), epd);
    }
    eprintln!("epd: {} positions", positions.len());
    let mut group = c.benchmark_group("position/epd");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("tabia", |b| {
        let mut buf = Vec::with_capacity(96);
        b.iter(|| {
            let mut total = 0;
            for pos in &positions {
                buf.clear();
                pos.write_epd(&mut buf, EpRule::Always);
                total += buf.len();
            }
            black_box(total)
        })
    });
    group.bench_function("shakmaty-display", |b| {
        let mut buf = String::with_capacity(96);
        b.iter(|| {
            let mut total = 0;
            for pos in &chess {
                buf.clear();
                let _ = write!(
                    buf,
                    "{}",
                    shakmaty::fen::Epd::from_position(pos, EnPassantMode::Always)
                );
                total += buf.len();
            }
            black_box(total)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_replay, bench_epd
}
criterion_main!(benches);
