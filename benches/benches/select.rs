//! Selection benches, tabia against its peer (pgn-reader + shakmaty) on the same bytes:
//!
//! - `select/position`: find the games that reach a position (the Nimzo-Indian, by any move
//!   order): tabia's `Matcher` (incremental Polyglot
//!   hashes, early stop once the position cannot be reached) against a pgn-reader visitor that
//!   replays every mainline with shakmaty and compares each position, as one would by hand.
//! - `select/tags`: find the decisive games between 2500+ players: tabia's `Matcher` (tags
//!   decided before the movetext, which is skipped) against a pgn-reader visitor that reads the
//!   tags and skips the movetext.
//!
//! Input: `TABIA_BENCH_PGN` if set, else `../shared/corpus/*.pgn` when present, else the PGN
//! fixtures of the repository.

use std::{hint::black_box, ops::ControlFlow, path::PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::{RawTag, Reader as PeerReader, SanPlus as PeerSan, Skip, Visitor as PeerVisitor};
use shakmaty::{Chess, Color, Position as _, fen::Fen};
use tabia_notation::pgn::Reader;
use tabia_select::{Criterion as Select, Matcher, Options, Query};

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

/// tabia: the games of `bytes` that match `query`.
fn tabia_select(query: &Query, bytes: &[u8]) -> (u64, u64) {
    let mut matcher = Matcher::new(query);
    let mut reader = Reader::new(bytes);
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
struct PeerPosition {
    target: Chess,
}

fn same(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
}

impl PeerVisitor for PeerPosition {
    type Tags = Option<Chess>;
    type Movetext = (Option<Chess>, bool);
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<bool> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Chess960).ok());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, (Option<Chess>, bool)> {
        let pos = tags.unwrap_or_default();
        let found = same(&pos, &self.target);
        ControlFlow::Continue((Some(pos), found))
    }

    fn san(&mut self, state: &mut (Option<Chess>, bool), san: PeerSan) -> ControlFlow<bool> {
        let Some(chess) = state.0.as_mut() else {
            return ControlFlow::Break(false);
        };
        match san.san.to_move(chess) {
            Ok(m) => {
                chess.play_unchecked(m);
                if !state.1 && same(chess, &self.target) {
                    state.1 = true;
                }
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, _state: &mut (Option<Chess>, bool)) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, state: (Option<Chess>, bool)) -> bool {
        state.1
    }
}

fn peer_position(target: &Chess, bytes: &[u8]) -> (u64, u64) {
    let mut visitor = PeerPosition {
        target: target.clone(),
    };
    let mut reader = PeerReader::new(bytes);
    let (mut games, mut matched) = (0, 0);
    while let Ok(Some(found)) = reader.read_game(&mut visitor) {
        games += 1;
        matched += u64::from(found);
    }
    (games, matched)
}

/// The peer for tags: read the tags, skip the movetext.
#[derive(Default)]
struct PeerTags;

#[derive(Default)]
struct Seen {
    result: Option<Color>,
    white: u32,
    black: u32,
}

impl PeerVisitor for PeerTags {
    type Tags = Seen;
    type Movetext = ();
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Seen> {
        ControlFlow::Continue(Seen::default())
    }

    fn tag(&mut self, seen: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        let number = || {
            std::str::from_utf8(value.as_bytes())
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        match name {
            b"Result" => {
                seen.result = match value.as_bytes() {
                    b"1-0" => Some(Color::White),
                    b"0-1" => Some(Color::Black),
                    _ => None,
                }
            }
            b"WhiteElo" => seen.white = number(),
            b"BlackElo" => seen.black = number(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, seen: Seen) -> ControlFlow<bool, ()> {
        ControlFlow::Break(seen.result.is_some() && seen.white >= 2500 && seen.black >= 2500)
    }

    fn end_game(&mut self, _movetext: ()) -> bool {
        false
    }
}

fn peer_tags(bytes: &[u8]) -> (u64, u64) {
    let mut reader = PeerReader::new(bytes);
    let (mut games, mut matched) = (0, 0);
    while let Ok(Some(found)) = reader.read_game(&mut PeerTags) {
        games += 1;
        matched += u64::from(found);
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
        group.finish();
    }
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
        let theirs = peer_tags(&bytes);
        eprintln!("select/tags {name}: tabia {ours:?}, peer {theirs:?} (games, matched)");
        let mut group = c.benchmark_group(format!("select/tags/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("tabia", |b| {
            b.iter(|| tabia_select(&query, black_box(&bytes)))
        });
        group.bench_function("pgn-reader", |b| b.iter(|| peer_tags(black_box(&bytes))));
        group.finish();
    }
}

criterion_group!(benches, bench_position, bench_tags);
criterion_main!(benches);
