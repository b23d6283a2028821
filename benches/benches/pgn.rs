//! PGN scanning throughput: the tabia visitor against pgn-reader's, on the same bytes, in the
//! same group (`pgn-scan/<input>`). Both visit every tag, move, NAG, comment and variation and
//! count them. A second group (`pgn-paths/<input>`) times tabia's splitter (raw games) and its
//! owned game trees on the same bytes.
//!
//! Inputs: `TABIA_BENCH_PGN=path` if set, else the `.pgn` files of `../shared/corpus/`
//! (relative to the workspace root; `.zst` files are decompressed when
//! `TABIA_BENCH_ZST=1`), else `fixtures/pgn/ok/`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabia_benches::peer::{self, Counts};
use tabia_notation::pgn::PgnReader;

mod tabia {
    use tabia_notation::pgn::{Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Visitor};

    use tabia_benches::peer::Counts;

    pub(crate) struct Count(pub(crate) Counts);

    impl Visitor for Count {
        type Output = ();

        fn tag(&mut self, _name: &[u8], _value: RawTag<'_>) {
            self.0.tags += 1;
        }

        fn san(&mut self, san: SanPlus, _at: Origin) {
            std::hint::black_box(san);
            self.0.sans += 1;
        }

        fn nag(&mut self, _nag: Nag) {
            self.0.nags += 1;
        }

        fn comment(&mut self, _comment: RawComment<'_>) {
            self.0.comments += 1;
        }

        fn end_variation(&mut self) {
            self.0.variations += 1;
        }

        fn outcome(&mut self, _outcome: Outcome) {
            self.0.outcomes += 1;
        }

        fn end_game(&mut self) {
            self.0.games += 1;
        }
    }

    pub(crate) fn count(bytes: &[u8]) -> Counts {
        let mut reader = tabia_notation::pgn::PgnReader::new(bytes);
        let mut visitor = Count(Counts::default());
        loop {
            match reader.read_game(&mut visitor) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(_) => visitor.0.games += 1,
            }
        }
        visitor.0
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
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

fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Times both readers in alternation (so that a busy machine slows both alike) and prints the
/// best and median times and their ratio: a check on criterion's numbers, which time one reader
/// after the other.
fn interleaved(name: &str, bytes: &[u8]) {
    let time = |f: &dyn Fn() -> Counts| {
        let start = std::time::Instant::now();
        std::hint::black_box(f());
        start.elapsed().as_secs_f64() * 1e3
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        ours.push(time(&|| tabia::count(bytes)));
        theirs.push(time(&|| peer::count(bytes)));
    }
    ours.sort_by(f64::total_cmp);
    theirs.sort_by(f64::total_cmp);
    let (best, median) = (|v: &[f64]| v[0], |v: &[f64]| v[v.len() / 2]);
    eprintln!(
        "{name}: interleaved best {:.3} ms vs {:.3} ms (ratio {:.2}), median {:.3} ms vs {:.3} ms \
         (ratio {:.2}) [tabia vs pgn-reader]",
        best(&ours),
        best(&theirs),
        best(&theirs) / best(&ours),
        median(&ours),
        median(&theirs),
        median(&theirs) / median(&ours),
    );
}

fn bench_scan(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        // Sanity check: both see the same games and moves.
        let ours = tabia::count(&bytes);
        let theirs = peer::count(&bytes);
        // (`;` comments are not given to pgn-reader's visitor: comments are not compared.)
        assert_eq!(
            (ours.games, ours.tags, ours.sans, ours.nags, ours.outcomes),
            (
                theirs.games,
                theirs.tags,
                theirs.sans,
                theirs.nags,
                theirs.outcomes
            ),
            "{name}: tabia {ours:?} vs pgn-reader {theirs:?}"
        );
        eprintln!("{name}: {ours:?}");
        interleaved(&name, &bytes);

        let mut group = c.benchmark_group(format!("pgn-scan/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| b.iter(|| tabia::count(&bytes)));
        group.bench_function("pgn-reader", |b| b.iter(|| peer::count(&bytes)));
        group.finish();

        // tabia's other two ways through the same bytes: the splitter of the parallel CLI
        // pipeline (raw games), and owned game trees.
        let mut group = c.benchmark_group(format!("pgn-paths/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("split", |b| {
            b.iter(|| {
                PgnReader::new(&bytes[..])
                    .raw_games()
                    .filter(Result::is_ok)
                    .count()
            });
        });
        group.bench_function("tree", |b| {
            b.iter(|| {
                PgnReader::new(&bytes[..])
                    .games()
                    .filter(Result::is_ok)
                    .count()
            });
        });
        group.finish();
    }
}

criterion_group!(benches, bench_scan);
criterion_main!(benches);
