//! tabia-collect: the per-game work of `tabia dedup` and `tabia split` against that of
//! `tabia pgn`, on the same bytes in the same group (the targets: `dedup` at least 0.9× the
//! speed of `pgn`, `split` 0.8×).
//!
//! `collect/<input>`, each what the command's worker does, so that a command that changes its
//! way of reading changes its line here:
//!
//! - `pgn`: read with the `Exporter` (checked and written in export format as read, no
//!   tree; a game whose export needs its tree parsed and written from it): `tabia pgn`;
//! - `dedup`: read with the `DigestExporter` (checked, digested and written as read; the same
//!   fallback), the digest looked up: `tabia dedup`'s worker and ordered
//!   stage;
//! - `dedup-tree`: parse, check and digest in one replay, write with the tag marks, look the
//!   digest up: `tabia dedup` in the other output forms;
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
use tabia_collect::{DedupBy, DigestExporter, Digested, Digester, Form, Place, Seen, SplitBy};
use tabia_notation::pgn::{PgnReader, RawGame};
use tabia_position::{Exporter, Notation, check_game, repair_game};

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

/// `tabia pgn`: each game checked and written as it is read, its text handed on from the
/// worker and copied into the batch's output.
fn pgn(bytes: &[u8]) -> usize {
    let mut reader = PgnReader::new(bytes);
    let mut exporter = Exporter::new();
    let mut out = Vec::new();
    let mut written = 0;
    loop {
        let Ok(Some(raw)) = reader.read_raw_game() else {
            return written;
        };
        if let Ok(Ok(_)) = raw.visit(&mut exporter) {
            match exporter.bytes().map(<[u8]>::to_vec) {
                Some(text) => {
                    out.clear();
                    out.extend_from_slice(&text);
                    out.extend_from_slice(b"\n\n");
                    written += black_box(&out).len();
                }
                None => written += from_tree(&raw),
            }
        }
    }
}

/// A game whose export needs its tree: parsed, repaired, written.
fn from_tree(raw: &RawGame) -> usize {
    let Ok(mut game) = raw.parse() else { return 0 };
    if repair_game(&mut game).is_err() {
        return 0;
    }
    game.to_string().len()
}

/// `tabia dedup` in export format: each game checked, digested and written as it is read.
fn dedup(bytes: &[u8], form: &Form) -> usize {
    let mut reader = PgnReader::new(bytes);
    let mut exporter = DigestExporter::new(DedupBy::Moves);
    let mut seen = Seen::default();
    let mut number = 0;
    loop {
        let Ok(Some(raw)) = reader.read_raw_game() else {
            return seen.len();
        };
        number += 1;
        let at = Place {
            input: 0,
            game: number,
        };
        match raw.visit(&mut exporter) {
            Ok(Ok(Digested {
                digest,
                text: Some(mut text),
                tags_len,
                ..
            })) => {
                text.extend_from_slice(b"\n\n");
                black_box((tags_len, &text));
                black_box(seen.first(digest, at));
            }
            Ok(Ok(_)) => tree_game(&raw, form, &mut seen, at),
            _ => {}
        }
    }
}

/// `tabia dedup` in another form (and for a game whose export needs its tree).
fn dedup_tree(games: &[RawGame], form: &Form) -> usize {
    let mut seen = Seen::default();
    for (i, raw) in games.iter().enumerate() {
        let at = Place {
            input: 0,
            game: i as u64 + 1,
        };
        tree_game(raw, form, &mut seen, at);
    }
    seen.len()
}

fn tree_game(raw: &RawGame, form: &Form, seen: &mut Seen, at: Place) {
    let Ok(game) = raw.parse() else { return };
    let Ok((digest, _)) = Digester::check(&game, DedupBy::Moves) else {
        return;
    };
    let (mut body, mut marks) = (Vec::new(), Vec::new());
    let _ = form.write_marked(game, &mut body, &mut marks);
    black_box(seen.first(digest, at));
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
        assert!(pgn(&bytes) > 0);
        assert_eq!(dedup(&bytes, &export), dedup_tree(&games, &export));
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut group = c.benchmark_group(format!("collect/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function("pgn", |b| b.iter(|| pgn(black_box(&bytes))));
        group.bench_function("dedup", |b| b.iter(|| dedup(black_box(&bytes), &export)));
        group.bench_function("dedup-tree", |b| {
            b.iter(|| dedup_tree(black_box(&games), &export));
        });
        group.bench_function("split", |b| b.iter(|| split(black_box(&games), &export)));
        group.bench_function("uci", |b| b.iter(|| split(black_box(&games), &uci)));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
