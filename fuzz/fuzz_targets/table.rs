//! Tables from any PGN: every game read for the tables (moves and FENs too), the records
//! gathered into Arrow columns. No panic; every game read has its record, a bad one with its
//! error; a game that replays has a move record a ply, numbered from 1, the last with the
//! final hash; and the columns have a row per game and a row per move.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::pgn::PgnReader;
use tabia_table::{Columns, GameRecord, ReadOptions, Rows};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        moves: true,
        fen: true,
    };
    let mut rows = Rows::default();
    let (mut games, mut moves) = (0, 0);
    for (i, raw) in PgnReader::new(data).raw_games().take(64).enumerate() {
        let Ok(raw) = raw else {
            continue;
        };
        let record = GameRecord::read(&raw, i as u64 + 1, options);
        assert!(record.errors.len() <= 1, "{:?}", record.errors);
        match record.plies {
            Some(plies) => {
                assert!(record.errors.is_empty(), "{:?}", record.errors);
                assert_eq!(record.moves.len(), plies as usize);
                for (k, m) in record.moves.iter().enumerate() {
                    assert_eq!(m.ply as usize, k + 1);
                    assert!(m.fen.is_some());
                }
                let last = record.moves.last().map(|m| m.zobrist);
                assert!(record.final_zobrist.is_some());
                if last.is_some() {
                    assert_eq!(last, record.final_zobrist);
                }
            }
            None => {
                assert!(record.moves.is_empty());
                assert!(
                    !record.errors.is_empty(),
                    "a game without plies and without error"
                );
            }
        }
        for problem in record.errors.iter().chain(&record.warnings) {
            let _ = problem.to_string();
        }
        games += 1;
        moves += record.moves.len();
        rows.push("fuzz.pgn", &record);
    }
    let tables = rows.finish(Columns::default(), true).expect("columns");
    assert_eq!(tables.games.num_rows(), games);
    assert_eq!(tables.moves.map(|m| m.num_rows()), Some(moves));
});
