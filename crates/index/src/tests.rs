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
        history: false,
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

/// Games with every speed, band and month in turn, and a few players.
fn varied_games(n: usize) -> String {
    let openings = ["e4 e5", "e4 c5", "d4 d5", "d4 Nf6", "c4 e5"];
    let controls = ["15+0", "60+0", "180+2", "600+5", "1800+0", "-"];
    let trips = [" Na3 Na6 Nb1 Nb8", " Nc3 Nc6 Nb1 Nb8"];
    let mut out = String::new();
    for i in 0..n {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
        out.push_str(&format!(
            "[White \"P{}\"]\n[Black \"P{}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[Date \"{}.{:02}.03\"]\n[TimeControl \"{}\"]\n[Result \"{result}\"]\n\n{}",
            i % 7,
            (i + 3) % 7,
            800 + (i * 97) % 2000,
            900 + (i * 53) % 1900,
            2023 + i % 3,
            1 + i % 12,
            controls[i % controls.len()],
            openings[i % openings.len()]
        ));
        let mut k = i;
        loop {
            out.push_str(trips[k % 2]);
            k /= 2;
            if k == 0 {
                break;
            }
        }
        out.push_str(&format!(" {result}\n\n"));
    }
    out
}

/// The first ply at which a game stands on the position of `key`.
fn first_ply(info: &crate::GameInfo, key: &crate::PosKey) -> Option<usize> {
    (0..=info.moves.len()).find(|&p| info.reaches_at(p as u32, key))
}

#[test]
fn filters_and_the_player_view_count_as_a_scan() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, varied_games(600)).expect("write");
    let index_dir = dir.path().join("idx");
    let options = IndexOptions {
        batch_games: 97,
        ..IndexOptions::default()
    };
    let summary = Index::build(&index_dir, std::slice::from_ref(&pgn), options, 2).expect("build");
    assert_eq!((summary.read, summary.indexed, summary.bad), (600, 600, 0));
    let index = Index::open(&index_dir).expect("open");
    // Every game, as the index keeps it.
    let games: Vec<crate::GameInfo> = (1..=600)
        .map(|id| index.game_info(id).expect("read").expect("a game"))
        .collect();
    let filters = [
        Filter::default(),
        Filter::parse(Some("blitz,rapid"), None, None, None).expect("filter"),
        Filter::parse(None, Some("1000,1600,2200"), None, None).expect("filter"),
        Filter::parse(None, None, Some("2024-03"), Some("2025-02")).expect("filter"),
        Filter::parse(Some("bullet"), Some("1400"), Some("2023"), None).expect("filter"),
    ];
    let all = Limits {
        moves: usize::MAX,
        top_games: 100,
        recent_games: 100,
        history: true,
    };
    for play in ["", "e4", "e4,e5", "d4", "d4,d5,b1c3"] {
        let request = Request::parse(None, Some(play), None).expect("request");
        let key = crate::PosKey::of(&request.position);
        let reached: Vec<Option<usize>> = games.iter().map(|i| first_ply(i, &key)).collect();
        for filter in &filters {
            let admitted: Vec<(u32, &crate::GameInfo, usize)> = games
                .iter()
                .zip(1..)
                .zip(&reached)
                .filter(|((info, _), _)| filter.admits(info.speed, info.band(), info.month()))
                .filter_map(|((info, id), ply)| ply.map(|p| (id, info, p)))
                .collect();
            let answer = index.explore(&request, filter, all).expect("explore");
            assert_eq!(answer.games, admitted.len() as u64, "{play} {filter}");
            let white = admitted
                .iter()
                .filter(|(_, i, _)| i.outcome == crate::Outcome::WhiteWins)
                .count() as u64;
            assert_eq!(answer.white, white, "{play} {filter}");
            // The history: the results of the admitted games, month by month.
            let mut months: std::collections::BTreeMap<String, [u64; 3]> = Default::default();
            for (_, info, _) in &admitted {
                if let Some(month) = info.month() {
                    let counts = months.entry(month.to_string()).or_default();
                    match info.outcome {
                        crate::Outcome::WhiteWins => counts[0] += 1,
                        crate::Outcome::Draw => counts[1] += 1,
                        crate::Outcome::BlackWins => counts[2] += 1,
                        crate::Outcome::Unknown => {}
                    }
                }
            }
            let history: Vec<(String, [u64; 3])> = answer
                .history
                .as_ref()
                .expect("history asked")
                .iter()
                .map(|m| (m.month.clone(), [m.white, m.draws, m.black]))
                .collect();
            assert_eq!(
                history,
                months.into_iter().collect::<Vec<_>>(),
                "{play} {filter}"
            );
            // The best rated game shown is the best rated of those admitted that played on.
            let best = admitted
                .iter()
                .filter(|(_, i, p)| i.moves.len() > *p)
                .map(|(_, i, _)| i.rating().unwrap_or(0))
                .max();
            let shown = answer.top_games.first().map(|g| {
                let info = &games[g.id.parse::<usize>().expect("id") - 1];
                info.rating().unwrap_or(0)
            });
            assert_eq!(shown, best, "{play} {filter}");
            let page = index.games(&request.position, filter, 3, 5).expect("games");
            assert_eq!(page.total, admitted.len(), "{play} {filter}");
            let expected: Vec<u32> = admitted
                .iter()
                .skip(3)
                .take(5)
                .map(|(id, ..)| *id)
                .collect();
            let listed: Vec<u32> = page.games.iter().map(|(id, _)| *id).collect();
            assert_eq!(listed, expected, "{play} {filter}");
        }
        // P3 as White: the games where P3 had White and reached the position.
        let view = index
            .player(
                "p3",
                tabia_position::shakmaty::Color::White,
                &request,
                &Filter::default(),
                all,
            )
            .expect("player");
        let theirs: Vec<&crate::GameInfo> = games
            .iter()
            .zip(&reached)
            .filter(|(i, p)| i.white == "P3" && p.is_some_and(|p| i.moves.len() > p))
            .map(|(i, _)| i)
            .collect();
        let decided = theirs
            .iter()
            .filter(|i| i.outcome != crate::Outcome::Unknown)
            .count() as u64;
        assert_eq!(view.white + view.draws + view.black, decided, "{play}");
    }
}

#[test]
fn an_index_of_another_format_is_refused_with_a_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    Index::build(
        dir.path(),
        &[fixture("pgn/ok/sample.pgn")],
        IndexOptions::default(),
        1,
    )
    .expect("build");
    {
        let db = crate::store::builder()
            .open(crate::store::file(dir.path()))
            .expect("open to write");
        let txn = db.begin_write().expect("write");
        {
            let mut meta = txn.open_table(crate::store::META).expect("meta");
            meta.insert("format", &99u64.to_le_bytes()[..])
                .expect("insert");
        }
        txn.commit().expect("commit");
    }
    let err = Index::open(dir.path()).expect_err("another format");
    assert_eq!(
        err.to_string()
            .replace(&dir.path().display().to_string(), "DIR"),
        "DIR is an index of format 99, this tabia reads format 1: build it again with this tabia"
    );
    let err = crate::IndexWriter::open(dir.path(), 10).expect_err("another format");
    assert!(err.to_string().contains("format 99"), "{err}");
}
