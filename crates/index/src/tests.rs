//! The index against a scan: every position of the fixtures' games, its moves and results
//! counted by replaying the games, and what the index answers. In these tests positions keep
//! 8 bits of key (`bucket`), so hundreds share them and each answer rests on verification;
//! buckets of two positions split many times.

use std::collections::HashMap;

use tabia_notation::pgn::RawGame;
use tabia_position::{Position, PositionKey};

use crate::{Filter, Index, IndexOptions, Limits, Request, prepare};

fn fixture(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(path)
}

/// Per position: per move (UCI, or "" for a game that ended there), white, draws, black, games.
type Scan = HashMap<PositionKey, (Position, HashMap<String, [u64; 4]>)>;

fn scan(files: &[std::path::PathBuf]) -> Scan {
    let mut scan = Scan::new();
    let mut seen = std::collections::HashSet::new();
    for file in files {
        let bytes = std::fs::read(file).expect("fixture");
        for raw in tabia_notation::pgn::PgnReader::new(&bytes[..]).raw_games() {
            let raw: RawGame = raw.expect("splits");
            let Ok(Some(game)) = prepare(&raw, None) else {
                continue;
            };
            if !seen.insert(game.digest) {
                continue;
            }
            let info = game.info();
            let column = match info.outcome {
                crate::Outcome::WhiteWins => 0,
                crate::Outcome::Draw => 1,
                crate::Outcome::BlackWins => 2,
                crate::Outcome::Unknown => 3,
            };
            let mut pos = info.start().expect("start");
            let mut here = std::collections::HashSet::new();
            for i in 0..=info.moves.len() {
                let next = info
                    .moves
                    .get(i)
                    .and_then(|&c| crate::key::decode_move(&pos, c));
                if here.insert(pos.key()) {
                    let uci = next.map_or(String::new(), |m| crate::key::uci(&pos, m));
                    let entry = scan
                        .entry(pos.key())
                        .or_insert_with(|| (pos.clone(), HashMap::new()));
                    entry.1.entry(uci).or_default()[column] += 1;
                }
                let Some(m) = next else { break };
                pos.play_unchecked(m);
            }
        }
    }
    scan
}

#[test]
fn every_position_answers_as_the_scan_counts() {
    let files = vec![
        fixture("select/games.pgn"),
        fixture("variants/games.pgn"),
        fixture("pgn/ok/sample.pgn"),
        fixture("pgn/ok/nested.pgn"),
        fixture("pgn/ok/fen-start.pgn"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    // Small batches and buckets: many commits, many splits.
    let options = IndexOptions {
        max_ply: None,
        batch_games: 7,
        bucket_slots: 2,
    };
    let summary = Index::build(dir.path(), &files, options, 1).expect("build");
    assert!(summary.indexed > 40, "{summary:?}");
    let index = Index::open(dir.path()).expect("open");
    let info = index.info().expect("info");
    assert_eq!(info.positions, scan(&files).len() as u64);
    let scan = scan(&files);
    assert!(scan.len() > 1000, "{}", scan.len());
    let limits = Limits {
        moves: usize::MAX,
        top_games: 0,
        recent_games: 0,
    };
    for (position, moves) in scan.values() {
        let request = Request {
            start: position.clone(),
            from_start: false,
            moves: Vec::new(),
            position: position.clone(),
        };
        let answer = index
            .explore(&request, &Filter::default(), limits)
            .expect("explore");
        let games: u64 = moves.values().map(|c| c.iter().sum::<u64>()).sum();
        assert_eq!(
            answer.games,
            games,
            "{} {moves:?} {answer:?}",
            position.epd(Default::default())
        );
        for m in &answer.moves {
            let counts = moves.get(&m.uci).copied().unwrap_or_default();
            assert_eq!(
                [m.white, m.draws, m.black],
                [counts[0], counts[1], counts[2]],
                "{}",
                m.uci
            );
        }
        let played = moves.keys().filter(|k| !k.is_empty()).count();
        assert_eq!(answer.moves.len(), played);
        let page = index
            .games(position, &Filter::default(), 0, usize::MAX)
            .expect("games");
        assert_eq!(page.total as u64, games);
    }
}
