//! Checking every game, tabia against its peer on the same bytes (issue 9, part 2: `tabia pgn
//! --check`):
//!
//! - `tabia`: [`check_reader`], what `tabia pgn --check -j 1` runs: tabia's reader with the
//!   [`Checker`](tabia_position::Checker) visitor, every move of the mainline *and of every
//!   variation* replayed and checked, check marks and the result against the board included;
//! - `tabia-export`: the [`Exporter`] (issue 11's `tabia filter` and `tabia pgn`): the same
//!   checks, and each game written in PGN export format as it is read;
//! - `tabia-tree-export`: what `tabia pgn` ran before it: each game parsed into its tree,
//!   checked and repaired ([`repair_game`]), then written (`Display`);
//! - `pgn-reader+shakmaty`: [`peer::Replay`], a pgn-reader 0.29 visitor that replays every
//!   mainline move with shakmaty's `San::to_move` (from the `FEN` tag when there is one;
//!   variations skipped), as `benches/examples/peer_check.rs` does.
//!
//! Input: `TABIA_BENCH_PGN` if set (a file, or a folder: its files), else every file of
//! `../shared/corpus` (`.pgn`, and `.zst` decompressed in memory), else the PGN fixtures of the
//! repository. One group per input.

use std::{hint::black_box, io::Read as _, path::PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::Reader as PeerReader;
use shakmaty::Chess;
use tabia_benches::peer;
use tabia_notation::pgn::PgnReader;
use tabia_position::{Exporter, check_reader, repair_game};

/// The bench inputs: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<PathBuf> = Vec::new();
    let given = std::env::var_os("TABIA_BENCH_PGN").map(PathBuf::from);
    if let Some(path) = given.as_ref().filter(|p| p.is_file()) {
        paths.push(path.clone());
    } else {
        let dirs = match given {
            Some(dir) => vec![dir],
            None => vec![root.join("../shared/corpus"), root.join("fixtures/pgn/ok")],
        };
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().contains(".pgn"))
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
        .filter_map(|path| {
            let name = path.file_name()?.to_string_lossy();
            let name = name.split(".pgn").next().unwrap_or_default().to_owned();
            let raw = std::fs::read(&path).ok()?;
            let bytes = if path.extension().is_some_and(|x| x == "zst") {
                let mut out = Vec::new();
                zstd::Decoder::new(&raw[..])
                    .ok()?
                    .read_to_end(&mut out)
                    .ok()?;
                out
            } else {
                raw
            };
            Some((name, bytes))
        })
        .collect()
}

/// What a run found: (games, bad games, plies replayed).
type Summary = (u64, u64, u64);

/// tabia: [`check_reader`] over the bytes.
fn tabia_check(bytes: &[u8]) -> Summary {
    let (mut games, mut bad, mut plies) = (0, 0, 0);
    for game in check_reader(bytes) {
        games += 1;
        match game {
            Ok(Ok(checked)) => plies += u64::from(checked.plies + checked.variation_plies),
            Ok(Err(_)) => bad += 1,
            Err(_) => {
                bad += 1;
                break;
            }
        }
    }
    (games, bad, plies)
}

/// tabia: the [`Exporter`] over the bytes; (games, bad games, bytes written).
fn tabia_export(bytes: &[u8]) -> Summary {
    let mut reader = PgnReader::new(bytes);
    let mut exporter = Exporter::new();
    let mut out = Vec::new();
    let (mut games, mut bad) = (0, 0);
    while let Ok(Some(game)) = reader.read_game(&mut exporter) {
        games += 1;
        match (game, exporter.bytes()) {
            (Ok(_), Some(text)) => {
                out.extend_from_slice(text);
                out.extend_from_slice(b"\n\n");
            }
            // Left to the tree (not in these inputs' games, or seldom).
            (Ok(_), None) => {}
            (Err(_), _) => bad += 1,
        }
    }
    (games, bad, out.len() as u64)
}

/// tabia before the exporter: tree, repair, `Display`; (games, bad games, bytes written).
fn tabia_tree_export(bytes: &[u8]) -> Summary {
    let mut out = String::new();
    let (mut games, mut bad) = (0, 0);
    for game in PgnReader::new(bytes).games() {
        games += 1;
        let Ok(mut game) = game else {
            bad += 1;
            continue;
        };
        if repair_game(&mut game).is_ok() {
            out.push_str(&game.to_string());
            out.push_str("\n\n");
        } else {
            bad += 1;
        }
    }
    (games, bad, out.len() as u64)
}

/// The peer: [`peer::Replay`], every mainline move replayed with shakmaty (a closure that looks
/// at no position, inlined).
fn peer_check(bytes: &[u8]) -> Summary {
    let mut visitor = peer::Replay::new(|_: &Chess| {});
    let mut reader = PeerReader::new(bytes);
    let (mut games, mut bad) = (0, 0);
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(good)) => {
                games += 1;
                bad += u64::from(!good);
            }
            Ok(None) => break,
            Err(_) => {
                games += 1;
                bad += 1;
                break;
            }
        }
    }
    (games, bad, visitor.plies)
}

fn bench_check(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        let ours = tabia_check(&bytes);
        let theirs = peer_check(&bytes);
        eprintln!(
            "check {name}: tabia {} games, {} bad, {} plies (variations included); \
             peer {} games, {} bad, {} mainline plies",
            ours.0, ours.1, ours.2, theirs.0, theirs.1, theirs.2
        );
        let (fast, slow) = (tabia_export(&bytes), tabia_tree_export(&bytes));
        eprintln!(
            "export {name}: exporter {} games, {} bad, {} bytes; tree {} games, {} bad, {} bytes",
            fast.0, fast.1, fast.2, slow.0, slow.1, slow.2
        );
        let mut group = c.benchmark_group(format!("check/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| b.iter(|| tabia_check(black_box(&bytes))));
        group.bench_function("tabia-export", |b| {
            b.iter(|| tabia_export(black_box(&bytes)))
        });
        group.bench_function("tabia-tree-export", |b| {
            b.iter(|| tabia_tree_export(black_box(&bytes)))
        });
        group.bench_function("pgn-reader+shakmaty", |b| {
            b.iter(|| peer_check(black_box(&bytes)))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_check
}
criterion_main!(benches);
