//! Trees: figures against a naive count, properties of random games, merging.

use std::collections::BTreeMap;

use proptest::prelude::*;
use tabia_book::{GameInfo, GameResult, Tree, TreeOptions, TreeReport, TreeReportOptions};
use tabia_notation::pgn::PgnReader;
use tabia_position::{EpRule, Position, replay_mainline, shakmaty::uci::UciMove};

use crate::fixture;

/// Counts per (EPD, UCI move) and per EPD for ended games, by the slow obvious route: every
/// game parsed into a tree, replayed with FEN strings, tags looked up by name.
#[derive(Debug, Default, PartialEq)]
struct Naive {
    moves: BTreeMap<(String, String), [u64; 4]>,
    ratings: BTreeMap<(String, String), (u64, u64)>,
    years: BTreeMap<(String, String), (u16, u16)>,
    ended: BTreeMap<String, u64>,
    games: u64,
}

fn naive(pgn: &[u8], max_ply: usize) -> Naive {
    let mut naive = Naive::default();
    for raw in PgnReader::new(pgn).raw_games() {
        let Ok(game) = raw.expect("readable").parse() else {
            continue;
        };
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let mut epds = Vec::new();
        let mut ucis = Vec::new();
        let Ok(start) = tabia_position::start_position(&game) else {
            continue;
        };
        epds.push(start.epd(EpRule::Legal));
        let mut prev = start.clone();
        let replayed = replay_mainline(&game, None, |ply| {
            let m = prev.parse_move(&ply.node.san.to_string()).expect("legal");
            ucis.push(UciMove::from_move(m, prev.castling_mode()).to_string());
            epds.push(ply.position.epd(EpRule::Legal));
            prev = ply.position.clone();
        });
        // Moves past `max_ply` are not read: an error there does not keep the game out.
        if let Err(err) = replayed {
            match err.kind() {
                tabia_position::ReplayErrorKind::IllegalMove { ply, .. }
                    if *ply as usize > max_ply => {}
                _ => continue,
            }
        }
        naive.games += 1;
        let result = tag("Result").unwrap_or_default();
        let year: Option<u16> = tag("Date").and_then(|d| d.get(..4)?.parse().ok());
        for (i, uci) in ucis.iter().enumerate().take(max_ply) {
            if epds[..i].contains(&epds[i]) {
                continue; // a game counts once per position
            }
            let key = (epds[i].clone(), uci.clone());
            let counts = naive.moves.entry(key.clone()).or_default();
            counts[0] += 1;
            match result.as_str() {
                "1-0" => counts[1] += 1,
                "1/2-1/2" => counts[2] += 1,
                "0-1" => counts[3] += 1,
                _ => {}
            }
            let elo = tag(if i % 2 == 0 { "WhiteElo" } else { "BlackElo" })
                .and_then(|e| e.parse::<u64>().ok());
            if let Some(elo) = elo {
                let r = naive.ratings.entry(key.clone()).or_default();
                r.0 += elo;
                r.1 += 1;
            }
            if let Some(year) = year {
                let y = naive.years.entry(key).or_insert((year, year));
                y.0 = y.0.min(year);
                y.1 = y.1.max(year);
            }
        }
        if ucis.len() < max_ply && !epds[..ucis.len()].contains(&epds[ucis.len()]) {
            *naive.ended.entry(epds[ucis.len()].clone()).or_default() += 1;
        }
    }
    naive
}

/// The same figures read off a tree, for every edge it holds.
fn from_tree(tree: &Tree) -> Naive {
    let mut out = Naive {
        games: tree.games(),
        ..Naive::default()
    };
    for (key, code, stats) in tree.edges() {
        let epd = key.to_string();
        if code == tabia_book::END {
            out.ended.insert(epd, u64::from(stats.games));
            continue;
        }
        let pos = Position::from_arg(&epd).expect("a key is a position");
        let m = tabia_book::decode_move(&pos, code).expect("a legal move");
        let uci = UciMove::from_move(m, pos.castling_mode()).to_string();
        let k = (epd, uci);
        out.moves.insert(
            k.clone(),
            [stats.games, stats.white, stats.draws, stats.black].map(u64::from),
        );
        if stats.rated > 0 {
            out.ratings
                .insert(k.clone(), (stats.rating_sum, u64::from(stats.rated)));
        }
        if let Some(years) = stats.years() {
            out.years.insert(k, years);
        }
    }
    out
}

fn tree_of(pgn: &[u8], max_ply: u32) -> Tree {
    let mut tree = Tree::new(TreeOptions {
        max_ply,
        max_nodes: None,
    });
    tree.add_pgn(pgn).expect("in memory");
    tree
}

#[test]
fn fixture_figures_match_a_naive_count() {
    let pgn = std::fs::read(fixture("games.pgn")).expect("fixture");
    for max_ply in [1, 2, 5, 30, 200] {
        let tree = tree_of(&pgn, max_ply);
        let expected = naive(&pgn, max_ply as usize);
        assert_eq!(from_tree(&tree), expected, "max_ply {max_ply}");
    }
}

#[test]
fn fixture_errors_are_reported_and_the_rest_added() {
    let pgn = std::fs::read(fixture("games.pgn")).expect("fixture");
    let mut tree = Tree::new(TreeOptions::default());
    let errors = tree.add_pgn(&pgn[..]).expect("in memory");
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        ["illegal move 2. Ke3 (ply 3): no white king can go to e3"]
    );
    assert_eq!(tree.games(), 10);
}

#[test]
fn transpositions_add_to_one_position() {
    let pgn = std::fs::read(fixture("games.pgn")).expect("fixture");
    let tree = tree_of(&pgn, 30);
    // 1.d4 Nf6 2.c4 e6 and 1.c4 e6 2.d4 Nf6 meet; 1.Nf3 Nf6 2.c4 e6 3.d4 does not (White has
    // a knight out), but 3...d5 4.Nc3 and the others do not meet either.
    let pos = Position::from_arg("rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq -")
        .expect("position");
    let node = tree.node(&pos);
    assert_eq!(node.games(), 2);
    assert_eq!(node.moves.len(), 1);
    let nc3 = &node.moves[0].stats;
    assert_eq!((nc3.games, nc3.white, nc3.black), (2, 1, 1));
    assert_eq!(nc3.average_rating(), Some(2550));
    assert_eq!(nc3.years(), Some((1998, 2003)));
}

#[test]
fn report_text_snapshot() {
    let pgn = std::fs::read(fixture("games.pgn")).expect("fixture");
    let tree = tree_of(&pgn, 30);
    let report = TreeReport::new(
        &tree,
        &Position::new(),
        TreeReportOptions {
            depth: 2,
            min_games: 2,
        },
        tabia_eco::Table::embedded(),
    );
    tabia_testkit::expect_file(&fixture("games.tree.txt"), &report.to_text());
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(json["games"], 9);
    assert_eq!(json["moves"][0]["san"], "e4");
    assert_eq!(json["moves"][0]["next"]["moves"][0]["san"], "c5");
    assert_eq!(json["others"]["moves"], 4);
}

/// A random game: random legal moves from the start, a random result and ratings.
fn random_game(choices: &[u8], result: u8, elo: u16) -> (Vec<String>, String) {
    let mut pos = Position::new();
    let mut sans = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        sans.push(pos.san(m).to_string());
        pos.play_unchecked(m);
    }
    let result = ["1-0", "0-1", "1/2-1/2", "*"][usize::from(result % 4)];
    let mut pgn = format!(
        "[Result \"{result}\"]\n[WhiteElo \"{elo}\"]\n[Date \"{}.01.01\"]\n\n",
        1900 + elo % 120
    );
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            pgn.push_str(&format!("{}. ", i / 2 + 1));
        }
        pgn.push_str(san);
        pgn.push(' ');
    }
    pgn.push_str(result);
    pgn.push_str("\n\n");
    (sans, pgn)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The games counted at the start position are the games read; every figure equals the
    /// naive count; splitting the games between two trees and merging changes nothing.
    #[test]
    fn start_counts_sum_to_games_and_merging_is_exact(
        games in prop::collection::vec(
            (prop::collection::vec(any::<u8>(), 0..24), any::<u8>(), 1000u16..2900),
            1..24,
        ),
        max_ply in 1u32..12,
        split in any::<u64>(),
    ) {
        let mut pgn = String::new();
        let mut parts = [String::new(), String::new()];
        for (i, (choices, result, elo)) in games.iter().enumerate() {
            let (_, text) = random_game(choices, *result, *elo);
            pgn.push_str(&text);
            parts[usize::from(split >> (i % 64) & 1 == 1)].push_str(&text);
        }
        let tree = tree_of(pgn.as_bytes(), max_ply);
        let root = tree.node(&Position::new());
        prop_assert_eq!(root.games(), games.len() as u64);
        prop_assert_eq!(tree.games(), games.len() as u64);
        let total = root.total();
        let decided = games.iter().filter(|g| g.1 % 4 != 3).count() as u32;
        prop_assert_eq!(total.decided(), decided);
        prop_assert_eq!(from_tree(&tree), naive(pgn.as_bytes(), max_ply as usize));
        let mut merged = tree_of(parts[0].as_bytes(), max_ply);
        merged.merge(tree_of(parts[1].as_bytes(), max_ply));
        prop_assert_eq!(from_tree(&merged), from_tree(&tree));
    }

    /// With a budget, the tree stays within it and every figure it still has is exact.
    #[test]
    fn pruned_figures_are_exact(
        games in prop::collection::vec(
            (prop::collection::vec(0u8..3, 0..16), any::<u8>(), 1000u16..2900),
            1..40,
        ),
        budget in 4usize..40,
    ) {
        let mut pgn = String::new();
        for (choices, result, elo) in &games {
            pgn.push_str(&random_game(choices, *result, *elo).1);
        }
        let mut pruned = Tree::new(TreeOptions { max_ply: 10, max_nodes: Some(budget) });
        pruned.add_pgn(pgn.as_bytes()).expect("in memory");
        prop_assert!(pruned.len() <= budget);
        let exact = from_tree(&tree_of(pgn.as_bytes(), 10));
        let kept = from_tree(&pruned);
        for (edge, counts) in &kept.moves {
            prop_assert_eq!(Some(counts), exact.moves.get(edge));
        }
        for (epd, n) in &kept.ended {
            prop_assert_eq!(Some(n), exact.ended.get(epd));
        }
    }
}

#[test]
fn random_game_helper_makes_legal_games() {
    let (sans, pgn) = random_game(&[1, 2, 3, 4, 5, 6], 0, 2000);
    assert_eq!(sans.len(), 6);
    let tree = tree_of(pgn.as_bytes(), 30);
    assert_eq!(tree.games(), 1);
    let info = GameInfo {
        result: Some(GameResult::WhiteWins),
        ..GameInfo::default()
    };
    assert_eq!(info.result, GameResult::from_tag(b"1-0"));
}
