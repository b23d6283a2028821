//! tabia-book: building the opening tree of a corpus, against the work of `tabia epd` and
//! against `polyglot make-book`, on the same bytes in the same run.
//!
//! `tree/<input>`:
//! - `tabia-tree`: every game into a [`Tree`] (30 plies, as `tabia tree` does per worker);
//! - `tabia-epd`: the work of `tabia epd` on one core: each game replayed as it is read
//!   ([`MainlineReplayer`]) and the EPD of every ply written;
//! - `polyglot-make-book`: the `polyglot make-book -max-ply 30` process on the same games
//!   (when `/usr/games/polyglot` is there; process start and file writing included).
//!
//! Inputs: `TABIA_BENCH_PGN=path` if set, else the `.pgn` files of `../shared/corpus/`, else
//! `fixtures/book/`.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
    process::Command,
};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabia_book::{Tree, TreeOptions};
use tabia_notation::pgn::PgnReader;
use tabia_position::{EpRule, MainlineReplayer, Position};

fn tree(bytes: &[u8]) -> (u64, usize) {
    let mut tree = Tree::new(TreeOptions::default());
    let errors = tree.add_pgn(bytes).map_or(0, |e| e.len());
    black_box(errors);
    (tree.games(), tree.len())
}

/// `tabia epd`'s plain path on one thread: replay while reading, write every EPD.
fn epd(bytes: &[u8]) -> usize {
    let mut out = Vec::with_capacity(1 << 16);
    let mut written = 0;
    for raw in PgnReader::new(bytes).raw_games() {
        let Ok(raw) = raw else { continue };
        let mut plies = Vec::new();
        let mut replayer = MainlineReplayer::new(|pos: &Position, _, _| {
            pos.write_epd(&mut plies, EpRule::Always);
            plies.push(b'\n');
        });
        let capacity = raw.bytes.len().saturating_add(4096);
        let mut reader = PgnReader::with_capacity(capacity, &raw.bytes[..]).with_origin(raw.start);
        let replayed = reader.read_game(&mut replayer);
        drop(replayer);
        if let Ok(Some(Ok(_))) = replayed {
            out.extend_from_slice(&plies);
            out.push(b'\n');
        }
        written += out.len();
        out.clear();
    }
    written
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The inputs: (name, path, bytes).
fn inputs() -> Vec<(String, PathBuf, Vec<u8>)> {
    if let Some(path) = std::env::var_os("TABIA_BENCH_PGN") {
        let path = PathBuf::from(path);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return vec![(name_of(&path), path, bytes)];
    }
    for dir in [
        root().join("../shared/corpus"),
        root().join("fixtures/book"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        let found: Vec<_> = paths
            .into_iter()
            .filter(|p| name_of(p).ends_with(".pgn"))
            .filter_map(|p| std::fs::read(&p).ok().map(|b| (name_of(&p), p, b)))
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

fn build(c: &mut Criterion) {
    let polyglot = Path::new("/usr/games/polyglot");
    let out = std::env::temp_dir().join(format!("tabia-bench-{}.bin", std::process::id()));
    for (name, path, bytes) in inputs() {
        // Sanity check: the tree has the games; epd writes something.
        let (games, edges) = tree(&bytes);
        eprintln!(
            "{name}: {games} games, {edges} edges in the tree; epd {} bytes",
            epd(&bytes)
        );
        assert!(games > 0, "{name}");
        let mut group = c.benchmark_group(format!("tree/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function("tabia-tree", |b| b.iter(|| tree(&bytes)));
        group.bench_function("tabia-epd", |b| b.iter(|| epd(&bytes)));
        if polyglot.exists() {
            group.bench_function("polyglot-make-book", |b| {
                b.iter(|| {
                    Command::new(polyglot)
                        .args(["make-book", "-max-ply", "30", "-pgn"])
                        .arg(&path)
                        .arg("-bin")
                        .arg(&out)
                        .output()
                        .map(|o| o.status.success())
                })
            });
        }
        group.finish();
    }
    let _ = std::fs::remove_file(out);
}

criterion_group!(benches, build);
criterion_main!(benches);
