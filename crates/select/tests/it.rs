//! The one integration test binary of `tabia-select`: property tests of the matcher over
//! random legal games (a game matches its own first moves and its own positions; `invert`
//! partitions), and the matcher's decisions on small games.

use proptest::prelude::*;
use tabia_notation::pgn::PgnReader;
use tabia_position::{EpRule, Position, shakmaty::Position as _};
use tabia_select::{Criterion, Feature, Matcher, Options, Query, Verdict};

/// A random legal game of up to `plies` plies from the start, as PGN movetext and the
/// positions it goes through (the start first).
fn random_game(choices: &[u16]) -> (String, Vec<Position>) {
    let mut pos = Position::new();
    let mut text = String::new();
    let mut positions = vec![pos.clone()];
    for (ply, choice) in choices.iter().enumerate() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(*choice) % moves.len()];
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&pos.san(m).to_string());
        text.push(' ');
        pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    text.push('*');
    (format!("[Event \"random\"]\n\n{text}\n"), positions)
}

fn verdict(query: &Query, pgn: &str) -> Verdict {
    PgnReader::new(pgn.as_bytes())
        .read_game(&mut Matcher::new(query))
        .expect("reads")
        .expect("a game")
        .expect("legal")
}

fn one(criterion: Criterion) -> Query {
    Query::new(vec![criterion], Options::default())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_game_matches_its_own_first_moves(choices in proptest::collection::vec(any::<u16>(), 1..60), n in 1usize..60) {
        let (pgn, positions) = random_game(&choices);
        let plies = positions.len() - 1;
        prop_assume!(plies > 0);
        let n = n.min(plies);
        let movetext = pgn.lines().nth(2).expect("movetext");
        let first: Vec<&str> = movetext
            .split(' ')
            .filter(|w| !w.ends_with('.') && *w != "*")
            .take(n)
            .collect();
        let query = one(Criterion::Moves(first.join(" ").parse().expect("legal moves")));
        let v = verdict(&query, &pgn);
        prop_assert!(v.matched);
        prop_assert_eq!(v.hit.and_then(|h| h.ply), Some(n as u32));
    }

    #[test]
    fn a_game_reaches_each_of_its_positions(choices in proptest::collection::vec(any::<u16>(), 0..60), k in any::<usize>()) {
        let (pgn, positions) = random_game(&choices);
        let target = &positions[k % positions.len()];
        let query = one(Criterion::Position(target.fen(EpRule::Legal).parse().expect("a FEN")));
        let v = verdict(&query, &pgn);
        prop_assert!(v.matched, "{pgn} {}", target.fen(EpRule::Legal));
        // The hit is the first ply with that key, at or before the one chosen.
        let ply = v.hit.and_then(|h| h.ply).expect("a ply") as usize;
        prop_assert!(ply <= k % positions.len());
        prop_assert_eq!(positions[ply].key(), target.key());
        // The Polyglot hash finds it too, and the placement alone.
        let query = one(Criterion::Zobrist(tabia_select::Zobrist(target.zobrist())));
        prop_assert!(verdict(&query, &pgn).matched);
        let placement = target.fen(EpRule::Legal).split(' ').next().expect("placement").to_owned();
        let query = one(Criterion::Position(placement.parse().expect("a placement")));
        prop_assert!(verdict(&query, &pgn).matched);
    }

    #[test]
    fn a_position_from_another_game_matches_only_if_reached(a in proptest::collection::vec(any::<u16>(), 0..30), b in proptest::collection::vec(any::<u16>(), 0..30), k in any::<usize>()) {
        // Pruning (a pawn left home, a piece captured) never hides a position the game reaches.
        let (pgn, positions) = random_game(&a);
        let (_, others) = random_game(&b);
        let target = &others[k % others.len()];
        let reached = positions.iter().any(|p| p.key() == target.key());
        let query = one(Criterion::Position(target.fen(EpRule::Legal).parse().expect("a FEN")));
        prop_assert_eq!(verdict(&query, &pgn).matched, reached);
    }

    #[test]
    fn a_game_reaches_the_pawns_of_each_of_its_positions(choices in proptest::collection::vec(any::<u16>(), 0..120), k in any::<usize>(), keep in any::<u64>()) {
        // Pruning (no pawn left that can walk to a square the pattern fixes to a pawn) never
        // hides a pattern the game matches later: a pattern of some of the pawns of one of its
        // positions, `?` elsewhere, is reachable before and matches.
        let (pgn, positions) = random_game(&choices);
        let k = k % positions.len();
        let board = positions[k].chess().board().clone();
        let mut text = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = tabia_position::shakmaty::Square::from_coords(
                    tabia_position::shakmaty::File::new(file),
                    tabia_position::shakmaty::Rank::new(rank),
                );
                let kept = keep & (1 << (square as u32)) != 0;
                text.push(match board.piece_at(square) {
                    Some(p) if kept && p.role == tabia_position::shakmaty::Role::Pawn => p.char(),
                    _ => '?',
                });
            }
            if rank > 0 {
                text.push('/');
            }
        }
        let pattern: tabia_select::FenPattern = text.parse().expect("a pattern");
        for (ply, earlier) in positions[..=k].iter().enumerate() {
            prop_assert!(pattern.reachable(earlier.chess().board()), "{text} unreachable at ply {ply} of {pgn}");
        }
        let v = verdict(&one(Criterion::FenPattern(pattern)), &pgn);
        prop_assert!(v.matched, "{text} in {pgn}");
        prop_assert!(v.hit.and_then(|h| h.ply).expect("a ply") as usize <= k);
    }

    #[test]
    fn piece_counts_and_patterns_agree_with_the_positions(choices in proptest::collection::vec(any::<u16>(), 0..80), n in 2u32..33) {
        let (pgn, positions) = random_game(&choices);
        let reached = positions.iter().any(|p| p.chess().board().occupied().count() as u32 == n);
        let query = one(Criterion::PieceCount(n.to_string().parse().expect("a count")));
        prop_assert_eq!(verdict(&query, &pgn).matched, reached);
        // A pattern of `?` everywhere matches any position; the start position's placement as
        // a pattern matches at ply 0.
        let query = one(Criterion::FenPattern("*/*/*/*/*/*/*/*".parse().expect("a pattern")));
        prop_assert!(verdict(&query, &pgn).matched);
    }
}

#[test]
fn features_decide_where_expected() {
    let game = |fen: &str, moves: &str| format!("[FEN \"{fen}\"]\n\n{moves} *\n");
    let q = one(Criterion::Feature(Feature::Checkmate));
    assert!(verdict(&q, "1. f3 e5 2. g4 Qh4# 0-1").matched);
    assert!(!verdict(&q, "1. f3 e5 2. g4 Qf6 0-1").matched);
    let q = one(Criterion::Feature(Feature::Repetition));
    assert!(verdict(&q, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *").matched);
    assert!(!verdict(&q, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 *").matched);
    let q = one(Criterion::Feature(Feature::Fifty));
    assert!(verdict(&q, &game("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", "1. Ra2")).matched);
    assert!(!verdict(&q, &game("8/8/8/4k3/8/8/8/R3K3 w - - 97 80", "1. Ra2")).matched);
    let q = one(Criterion::Feature(Feature::Underpromotion));
    assert!(verdict(&q, &game("8/P7/8/8/8/8/k7/4K3 w - - 0 1", "1. a8=R")).matched);
    assert!(!verdict(&q, &game("8/P7/8/8/8/8/k7/4K3 w - - 0 1", "1. a8=Q")).matched);
    let q = one(Criterion::Feature(Feature::HasClocks));
    assert!(verdict(&q, "1. e4 { [%clk 0:01:00] } *").matched);
    assert!(!verdict(&q, "1. e4 { clock } *").matched);
}

#[test]
fn games_the_matcher_cannot_replay_are_errors() {
    // A bad start position or an illegal move the matcher needs is an error, not a verdict
    // (the CLI reports it and counts it apart from matched and unmatched games).
    let q = one(Criterion::Position("startpos".parse().expect("startpos")));
    let bad = PgnReader::new(&b"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n"[..])
        .read_game(&mut Matcher::new(&q))
        .expect("reads")
        .expect("a game");
    assert!(bad.is_err());
    let illegal = PgnReader::new(&b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"[..])
        .read_game(&mut Matcher::new(&one(Criterion::Feature(
            Feature::Checkmate,
        ))))
        .expect("reads")
        .expect("a game");
    assert_eq!(
        illegal.expect_err("illegal").to_string(),
        "illegal move 2. Ke3 (ply 3): no white king can go to e3"
    );
}
