//! tabia-collect: the per-game work of `tabia dedup` and `tabia split` against that of
//! `tabia pgn`, on the same bytes in the same group (the target: at least 0.8× its speed).
//!
//! `collect/<input>`:
//!
//! - `pgn`: parse, check (`check_game`), write in export format: `tabia pgn`'s worker;
//! - `dedup`: parse, check and digest in one replay, write with the tag marks, look the
//!   digest up: `tabia dedup`'s worker and ordered stage;
//! - `split`: parse, check, key (`--by eco` by the tag), write: `tabia split`'s worker;
//! - `uci`: parse, check, write in UCI (`--notation uci`).
//!
//! Inputs: `TABIA_BENCH_PGN=path` if set, else the `.pgn` files of `../shared/corpus/`, else
//! `fixtures/forms/input.pgn`.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabia_collect::{DedupBy, Digester, Form, Place, Seen, SplitBy};
use tabia_notation::pgn::{PgnReader, RawGame};
use tabia_position::{Notation, check_game};

fn inputs() -> Vec<PathBuf> {
    if let Ok(path) = std::env::var("TABIA_BENCH_PGN") {
        return vec![PathBuf::from(path)];
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = root.join("../shared/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        files.push(root.join("fixtures/forms/input.pgn"));
    }
    files
}

fn raw_games(bytes: &[u8]) -> Vec<RawGame> {
    let mut reader = PgnReader::new(bytes);
    let mut games = Vec::new();
    while let Ok(Some(raw)) = reader.read_raw_game() {
        games.push(raw);
    }
    games
}

fn pgn(games: &[RawGame]) -> usize {
    let mut out = 0;
    for raw in games {
        if let Ok(game) = raw.parse()
            && check_game(&game).is_ok()
        {
            out += game.to_string().len();
        }
    }
    out
}

fn dedup(games: &[RawGame], form: &Form) -> usize {
    let mut seen = Seen::default();
    let (mut body, mut marks) = (Vec::new(), Vec::new());
    for (i, raw) in games.iter().enumerate() {
        let Ok(game) = raw.parse() else { continue };
        let Ok((digest, _)) = Digester::check(&game, DedupBy::Moves) else {
            continue;
        };
        body.clear();
        marks.clear();
        let _ = form.write_marked(game, &mut body, &mut marks);
        let at = Place {
            input: 0,
            game: i as u64 + 1,
        };
        black_box(seen.first(digest, at));
    }
    seen.len()
}

fn split(games: &[RawGame], form: &Form) -> usize {
    let mut out = Vec::new();
    let mut keys = 0;
    for raw in games {
        let Ok(game) = raw.parse() else { continue };
        if check_game(&game).is_err() {
            continue;
        }
        keys += SplitBy::Eco.key(&game, None).map_or(0, |k| k.len());
        out.clear();
        let _ = form.write(game, &mut out);
    }
    keys
}

fn bench(c: &mut Criterion) {
    let export = Form::default();
    let uci = Form {
        notation: Notation::Uci,
        ..Form::default()
    };
    for path in inputs() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let games = raw_games(&bytes);
        // Sanity check before timing: every workload sees the same games.
        assert!(pgn(&games) > 0 && dedup(&games, &export) > 0);
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut group = c.benchmark_group(format!("collect/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function("pgn", |b| b.iter(|| pgn(black_box(&games))));
        group.bench_function("dedup", |b| b.iter(|| dedup(black_box(&games), &export)));
        group.bench_function("split", |b| b.iter(|| split(black_box(&games), &export)));
        group.bench_function("uci", |b| b.iter(|| split(black_box(&games), &uci)));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
