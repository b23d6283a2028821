//! Selection benches, tabia against its peer (pgn-reader + shakmaty) on the same bytes:
//!
//! - `select/position`: find the games that reach a position (the Nimzo-Indian, by any move
//!   order): tabia's `Matcher` (incremental Polyglot
//!   hashes, early stop once the position cannot be reached) against a pgn-reader visitor that
//!   replays every mainline with shakmaty and compares each position, as one would by hand.
//! - `select/tags`: find the decisive games between 2500+ players: tabia's `Matcher` (tags
//!   decided before the movetext, which is skipped) against a pgn-reader visitor that reads the
//!   tags and skips the movetext.
//! - `select/material` (`R R`) and `select/fen-pattern` (`*/*/*/*/???PP???/*/*/*`): tabia's
//!   `Matcher` against the same replay, each position tested with the same `Material` or
//!   `FenPattern` (these queries look at whole games: they cost what a replay costs).
//!
//! Input: `TABIA_BENCH_PGN` if set, else the `*.pgn` and `*.pgn.zst` files of
//! `../shared/corpus` up to 16 MB each when present, else the PGN fixtures of the repository.

use std::{cell::Cell, hint::black_box, path::PathBuf, time::Duration};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::Reader as PeerReader;
use shakmaty::{Chess, Position as _, fen::Fen};
use tabia_benches::peer;
use tabia_notation::pgn::PgnReader;
use tabia_select::{Criterion as Select, FenPattern, Matcher, Material, Options, Query};

const NIMZO: &str = "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4";

/// The bench inputs: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<PathBuf> = Vec::new();
    if let Ok(path) = std::env::var("TABIA_BENCH_PGN") {
        paths.push(PathBuf::from(path));
    } else {
        for dir in [root.join("../shared/corpus"), root.join("fixtures/pgn/ok")] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let name = p.to_string_lossy();
                    name.ends_with(".pgn") || name.ends_with(".pgn.zst")
                })
                .collect();
            found.sort();
            if !found.is_empty() {
                paths = found;
                break;
            }
        }
    }
    let chosen = std::env::var_os("TABIA_BENCH_PGN").is_some();
    paths
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            let name = name
                .trim_end_matches(".zst")
                .trim_end_matches(".pgn")
                .to_owned();
            let bytes = std::fs::read(&p).ok()?;
            let bytes = if p.extension().is_some_and(|x| x == "zst") {
                zstd::decode_all(&bytes[..]).ok()?
            } else {
                bytes
            };
            // A bench of the larger corpus files would take minutes; name one to run it.
            (chosen || bytes.len() <= 16 << 20).then_some((name, bytes))
        })
        .collect()
}

/// tabia: the games of `bytes` that match `query`.
fn tabia_select(query: &Query, bytes: &[u8]) -> (u64, u64) {
    let mut matcher = Matcher::new(query);
    let mut reader = PgnReader::new(bytes);
    let (mut games, mut matched) = (0, 0);
    loop {
        match reader.read_game(&mut matcher) {
            Ok(Some(Ok(v))) => {
                games += 1;
                matched += u64::from(v.matched);
            }
            Ok(Some(Err(_))) | Err(_) => games += 1,
            Ok(None) => break,
        }
    }
    (games, matched)
}

/// The peer for positions: replay every mainline with shakmaty, compare every position.
fn same(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
}

fn peer_position(target: &Chess, bytes: &[u8]) -> (u64, u64) {
    let found = Cell::new(false);
    let mut visitor = peer::Replay::new(|pos: &Chess| {
        if !found.get() && same(pos, target) {
            found.set(true);
        }
    });
    let mut reader = PeerReader::new(bytes);
    let (mut games, mut matched) = (0, 0);
    while let Ok(Some(good)) = reader.read_game(&mut visitor) {
        games += 1;
        matched += u64::from(found.replace(false) && good);
    }
    (games, matched)
}

fn bench_position(c: &mut Criterion) {
    let query = Query::new(
        vec![Select::Position(NIMZO.parse().expect("a FEN"))],
        Options::default(),
    );
    let target: Chess = NIMZO
        .parse::<Fen>()
        .expect("a FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    for (name, bytes) in inputs() {
        let ours = tabia_select(&query, &bytes);
        let theirs = peer_position(&target, &bytes);
        eprintln!("select/position {name}: tabia {ours:?}, peer {theirs:?} (games, matched)");
        let mut group = c.benchmark_group(format!("select/position/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| {
            b.iter(|| tabia_select(&query, black_box(&bytes)))
        });
        group.bench_function("pgn-reader+shakmaty", |b| {
            b.iter(|| peer_position(&target, black_box(&bytes)))
        });
        group.bench_function("pgn-reader+shakmaty replay only", |b| {
            b.iter(|| peer::replay(black_box(&bytes)))
        });
        group.finish();
    }
}

/// The peer for a test of each position's board: replay every mainline with shakmaty.
fn peer_boards(test: &dyn Fn(&shakmaty::Board) -> bool, bytes: &[u8]) -> (u64, u64) {
    let found = Cell::new(false);
    let mut visitor = peer::Replay::new(|pos: &Chess| {
        if !found.get() && test(pos.board()) {
            found.set(true);
        }
    });
    let mut reader = PeerReader::new(bytes);
    let (mut games, mut matched) = (0, 0);
    while let Ok(Some(good)) = reader.read_game(&mut visitor) {
        games += 1;
        matched += u64::from(found.replace(false) && good);
    }
    (games, matched)
}

/// A group of tabia's `Matcher` on `criterion` against [`peer_boards`] with `test`.
fn bench_boards(
    c: &mut Criterion,
    kind: &str,
    criterion: Select,
    test: &dyn Fn(&shakmaty::Board) -> bool,
) {
    let query = Query::new(vec![criterion], Options::default());
    for (name, bytes) in inputs() {
        let ours = tabia_select(&query, &bytes);
        let theirs = peer_boards(test, &bytes);
        eprintln!("select/{kind} {name}: tabia {ours:?}, peer {theirs:?} (games, matched)");
        let mut group = c.benchmark_group(format!("select/{kind}/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| {
            b.iter(|| tabia_select(&query, black_box(&bytes)))
        });
        group.bench_function("pgn-reader+shakmaty", |b| {
            b.iter(|| peer_boards(test, black_box(&bytes)))
        });
        group.finish();
    }
}

fn bench_material(c: &mut Criterion) {
    let material: Material = "R R".parse().expect("material");
    let test = |board: &shakmaty::Board| material.matches(board);
    bench_boards(c, "material", Select::Material(material.clone()), &test);
}

fn bench_pattern(c: &mut Criterion) {
    let pattern: FenPattern = "*/*/*/*/???PP???/*/*/*".parse().expect("a pattern");
    let test = |board: &shakmaty::Board| pattern.matches(board);
    bench_boards(c, "fen-pattern", Select::FenPattern(pattern.clone()), &test);
}

fn bench_tags(c: &mut Criterion) {
    let query = Query::new(
        vec![
            Select::Result("decisive".parse().expect("a result")),
            Select::Elo("2500".parse().expect("a range")),
        ],
        Options::default(),
    );
    for (name, bytes) in inputs() {
        let ours = tabia_select(&query, &bytes);
        let theirs = peer::decisive_between(2500, &bytes);
        eprintln!("select/tags {name}: tabia {ours:?}, peer {theirs:?} (games, matched)");
        let mut group = c.benchmark_group(format!("select/tags/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| {
            b.iter(|| tabia_select(&query, black_box(&bytes)))
        });
        group.bench_function("pgn-reader", |b| {
            b.iter(|| peer::decisive_between(2500, black_box(&bytes)))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_position, bench_tags, bench_material, bench_pattern
}
criterion_main!(benches);
