//! tabia-eco: loading the embedded table, and classifying every game of a corpus.
//!
//! `eco-classify/<input>` classifies each game (last named position of the mainline's first
//! 40 plies, early exit, rest of the movetext skipped) three ways on the same bytes:
//!
//! - `tabia`: tabia's PGN reader with [`GameVisitor`] and the embedded table;
//! - `tabia-eco.pgn`: the same with pgn-extract's `eco.pgn` (when `../shared/eco` is there),
//!   the configuration `pgn-extract -e` is compared with;
//! - `pgn-reader`: the peer, pgn-reader and shakmaty resolving the moves, feeding the same
//!   [`Classifier`] (so the difference is the reader and the move resolution).
//!
//! Inputs: `TABIA_BENCH_PGN=path` if set, else the `.pgn` files of `../shared/corpus/`, else
//! `fixtures/eco/ok/`.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabia_eco::{GameVisitor, Table, TableFormat};
use tabia_notation::pgn::PgnReader;

/// What a classification run found: games, named games, sum of the matched plies.
type Summary = (usize, usize, usize);

fn tabia_classify(table: &Table, bytes: &[u8]) -> Summary {
    let mut reader = PgnReader::new(bytes);
    let mut visitor = GameVisitor::new(table);
    let (mut games, mut named, mut plies) = (0, 0, 0);
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(result)) => {
                games += 1;
                if let Some(m) = result.ok().and_then(|c| c.matched()) {
                    named += 1;
                    plies += m.ply;
                }
            }
            Ok(None) => break,
            Err(_) => games += 1,
        }
    }
    (games, named, plies)
}

mod peer {
    use std::ops::ControlFlow;

    use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
    use tabia_eco::{Classifier, Table};

    use super::Summary;

    /// Classifies each game; the output is the matched ply of a named game.
    pub(crate) struct Classify<'t> {
        pub(crate) table: &'t Table,
    }

    impl<'t> Visitor for Classify<'t> {
        type Tags = bool;
        type Movetext = Classifier<'t>;
        type Output = Option<usize>;

        fn begin_tags(&mut self) -> ControlFlow<Option<usize>, bool> {
            ControlFlow::Continue(true)
        }

        fn tag(
            &mut self,
            standard: &mut bool,
            name: &[u8],
            _value: RawTag<'_>,
        ) -> ControlFlow<Option<usize>> {
            if name == b"FEN" || name == b"Variant" {
                *standard = false;
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, standard: bool) -> ControlFlow<Option<usize>, Classifier<'t>> {
            if standard {
                ControlFlow::Continue(self.table.classifier())
            } else {
                ControlFlow::Break(None)
            }
        }

        /// Stops reading the game (pgn-reader then skips the rest) once the classifier stops.
        fn san(&mut self, c: &mut Classifier<'t>, san: SanPlus) -> ControlFlow<Option<usize>> {
            match san.san.to_move(c.position().chess()) {
                Ok(m) if c.play(m) => ControlFlow::Continue(()),
                _ => ControlFlow::Break(c.found().map(|m| m.ply)),
            }
        }

        fn begin_variation(&mut self, _: &mut Classifier<'t>) -> ControlFlow<Option<usize>, Skip> {
            ControlFlow::Continue(Skip(true))
        }

        fn end_game(&mut self, c: Classifier<'t>) -> Option<usize> {
            c.found().map(|m| m.ply)
        }
    }

    pub(crate) fn classify(table: &Table, bytes: &[u8]) -> Summary {
        let mut reader = Reader::new(bytes);
        let mut visitor = Classify { table };
        let mut summary = (0, 0, 0);
        while let Ok(Some(ply)) = reader.read_game(&mut visitor) {
            summary.0 += 1;
            if let Some(ply) = ply {
                summary.1 += 1;
                summary.2 += ply;
            }
        }
        summary
    }
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

/// The inputs: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    if let Some(path) = std::env::var_os("TABIA_BENCH_PGN") {
        let path = PathBuf::from(path);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return vec![(name_of(&path), bytes)];
    }
    for dir in [
        root().join("../shared/corpus"),
        root().join("fixtures/eco/ok"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        let found: Vec<_> = paths
            .iter()
            .filter(|p| name_of(p).ends_with(".pgn"))
            .filter_map(|p| std::fs::read(p).ok().map(|b| (name_of(p), b)))
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// pgn-extract's table, when the shared folder is there.
fn eco_pgn() -> Option<Table> {
    let bytes = std::fs::read(root().join("../shared/eco/eco.pgn")).ok()?;
    Table::from_bytes(&bytes, TableFormat::Pgn).ok()
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("eco-load");
    group.sample_size(20);
    group.bench_function("embedded", |b| {
        b.iter_with_large_drop(|| black_box(Table::load_embedded()));
    });
    if let Ok(bytes) = std::fs::read(root().join("../shared/eco/eco.pgn")) {
        group.bench_function("eco.pgn", |b| {
            b.iter_with_large_drop(|| Table::from_bytes(black_box(&bytes), TableFormat::Pgn));
        });
    }
    group.finish();
}

fn classify(c: &mut Criterion) {
    let embedded = Table::embedded();
    let extract = eco_pgn();
    for (name, bytes) in inputs() {
        // Sanity check: the peer finds the same openings (it only differs on bad games).
        let ours = tabia_classify(embedded, &bytes);
        let theirs = peer::classify(embedded, &bytes);
        eprintln!("{name}: tabia {ours:?}, pgn-reader {theirs:?} (games, named, plies)");
        assert!(ours.1.abs_diff(theirs.1) * 100 <= ours.0.max(1), "{name}");
        let mut group = c.benchmark_group(format!("eco-classify/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| b.iter(|| tabia_classify(embedded, &bytes)));
        if let Some(table) = &extract {
            group.bench_function("tabia-eco.pgn", |b| {
                b.iter(|| tabia_classify(table, &bytes))
            });
        }
        group.bench_function("pgn-reader", |b| {
            b.iter(|| peer::classify(embedded, &bytes));
        });
        group.finish();
    }
}

criterion_group!(benches, load, classify);
criterion_main!(benches);
