//! Polyglot books: write ∘ read round-trips, probes against the tree, malformed books.

use proptest::prelude::*;
use tabia_book::{Book, BookOptions, Entry, Tree, TreeOptions, Weight, polyglot_key};
use tabia_position::{Position, shakmaty::Color};

use crate::fixture;

fn fixture_tree() -> Tree {
    let pgn = std::fs::read(fixture("games.pgn")).expect("fixture");
    let mut tree = Tree::new(TreeOptions::default());
    tree.add_pgn(&pgn[..]).expect("in memory");
    tree
}

fn all(min_games: u32, weight: Weight, only: Option<Color>) -> BookOptions {
    BookOptions {
        min_games,
        only,
        weight,
    }
}

#[test]
fn a_book_from_the_tree_probes_like_the_tree() {
    let tree = fixture_tree();
    let book = Book::from_tree(&tree, all(1, Weight::Games, None));
    let read = Book::from_bytes(&book.to_bytes()).expect("valid");
    assert_eq!(read, book);
    // Every position of every line: the book's moves are the tree's, weighted by games.
    let line = ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Qc2", "O-O"];
    let mut pos = Position::new();
    for san in line {
        let node = tree.node(&pos);
        let probed = read.probe(&pos);
        let from_tree: Vec<(String, u16)> = node
            .moves
            .iter()
            .map(|m| (pos.san(m.m).to_string(), m.stats.games as u16))
            .collect();
        let mut from_book: Vec<(String, u16)> =
            probed.iter().map(|m| (m.san.clone(), m.weight)).collect();
        let mut expected = from_tree.clone();
        expected.sort();
        from_book.sort();
        assert_eq!(from_book, expected, "after {}", pos.key());
        pos = pos.after(san).expect("legal");
    }
    // Castling is written king-takes-rook: 4...O-O is e8h8.
    let castles = read
        .entries()
        .iter()
        .filter(|e| tabia_book::code_text(e.code) == "e8h8")
        .count();
    assert_eq!(
        castles, 4,
        "4...O-O (twice, after 4.Qc2 and 4.e3), 8...O-O, 9...O-O"
    );
}

#[test]
fn options_choose_and_weigh_moves() {
    let tree = fixture_tree();
    let start = Position::new();
    let games = Book::from_tree(&tree, all(2, Weight::Games, None));
    let moves: Vec<_> = games
        .probe(&start)
        .into_iter()
        .map(|m| (m.san, m.weight))
        .collect();
    assert_eq!(moves, [("e4".to_owned(), 4)], "min 2 games");
    let score = Book::from_tree(&tree, all(1, Weight::Score, None));
    let e4 = Position::new().after("e4").expect("legal");
    let moves: Vec<_> = score
        .probe(&e4)
        .into_iter()
        .map(|m| (m.san, m.weight))
        .collect();
    // 1...c5: one win for Black (2) and one unknown result; 1...e5: a loss and a draw (1).
    assert_eq!(moves, [("c5".to_owned(), 2), ("e5".to_owned(), 1)]);
    let wins = Book::from_tree(&tree, all(1, Weight::Wins, None));
    let moves: Vec<_> = wins.probe(&e4).into_iter().map(|m| m.san).collect();
    assert_eq!(
        moves,
        ["c5"],
        "a move that never won has weight 0 and is left out"
    );
    let white = Book::from_tree(&tree, all(1, Weight::Games, Some(Color::White)));
    assert!(white.probe(&e4).is_empty());
    assert!(!white.probe(&start).is_empty());
    assert!(white.len() < Book::from_tree(&tree, all(1, Weight::Games, None)).len());
}

#[test]
fn promotion_and_chess960_moves_are_encoded_as_the_format_says() {
    let tree = fixture_tree();
    let book = Book::from_tree(&tree, all(1, Weight::Games, None));
    let pos = Position::from_arg("8/P6k/8/8/8/8/8/K7 w - - 0 1").expect("position");
    let probed = book.probe(&pos);
    assert_eq!(probed.len(), 1);
    assert_eq!(
        (probed[0].san.as_str(), probed[0].uci.as_str()),
        ("a8=Q", "a7a8q")
    );
    let entry = book.entries_of(polyglot_key(&pos).expect("standard"))[0];
    assert_eq!(entry.code >> 12, 4, "queen promotion is 4");

    let mut tree = Tree::new(TreeOptions::default());
    let pgn = b"[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BN1KR w Hh - 2 9\"]\n\n9. O-O *\n";
    assert!(tree.add_pgn(&pgn[..]).expect("in memory").is_empty());
    let book = Book::from_tree(&tree, all(1, Weight::Games, None));
    assert_eq!(tabia_book::code_text(book.entries()[0].code), "g1h1");
    let pos = Position::from_arg("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BN1KR w Hh - 2 9")
        .expect("position");
    assert_eq!(book.probe(&pos)[0].san, "O-O");
}

#[test]
fn malformed_books_name_the_byte() {
    let good = Book::from_tree(&fixture_tree(), all(1, Weight::Games, None)).to_bytes();
    let mut cases: Vec<(Vec<u8>, &str)> = Vec::new();
    cases.push((
        good[..good.len() - 3].to_vec(),
        "truncated book: the entry at byte 1408 has 13 of its 16 bytes",
    ));
    cases.push((
        vec![7u8],
        "truncated book: the entry at byte 0 has 1 of its 16 bytes",
    ));
    let mut unsorted = good.clone();
    unsorted[32..48].copy_from_slice(&good[..16]);
    unsorted[..16].copy_from_slice(&good[32..48]);
    cases.push((
        unsorted,
        "book not sorted by key: the entry at byte 16 has key 0844931a6ef4b9a0, smaller than 09a2250f4dfc8f82 before it",
    ));
    let mut bad_move = good.clone();
    bad_move[16 * 3 + 8] = 0x70; // promotion piece 7
    cases.push((bad_move, "bad move 0x70ca (d1c2?7) in the entry at byte 48"));
    let mut null_move = good.clone();
    null_move[16 * 5 + 8..16 * 5 + 10].copy_from_slice(&[0, 0]);
    cases.push((null_move, "bad move 0x0000 (a1a1) in the entry at byte 80"));
    for (bytes, expected) in cases {
        let err = Book::from_bytes(&bytes).expect_err(expected);
        assert_eq!(err.to_string(), expected);
    }
    assert_eq!(Book::from_bytes(&[]).expect("empty is a book").len(), 0);
}

#[test]
fn merge_adds_weights_and_keeps_the_first_learn() {
    let a = Book::from_entries(vec![
        Entry {
            key: 1,
            code: 0x031c,
            weight: 3,
            learn: 7,
        },
        Entry {
            key: 2,
            code: 0x031c,
            weight: 1,
            learn: 0,
        },
    ]);
    let b = Book::from_entries(vec![
        Entry {
            key: 1,
            code: 0x031c,
            weight: 4,
            learn: 9,
        },
        Entry {
            key: 1,
            code: 0x0315,
            weight: 2,
            learn: 0,
        },
        Entry {
            key: 3,
            code: 0x031c,
            weight: 65535,
            learn: 0,
        },
    ]);
    let merged = a.merge(&b);
    let got: Vec<(u64, u16, u16, u32)> = merged
        .entries()
        .iter()
        .map(|e| (e.key, e.code, e.weight, e.learn))
        .collect();
    assert_eq!(
        got,
        [
            (1, 0x031c, 7, 7),
            (1, 0x0315, 2, 0),
            (2, 0x031c, 1, 0),
            (3, 0x031c, 65535, 0)
        ]
    );
}

proptest! {
    /// Any sorted entries with valid moves: bytes → book → bytes is the identity; any bytes
    /// read without a panic.
    #[test]
    fn bytes_round_trip(mut raw in prop::collection::vec((any::<u64>(), 0u16..0x5000, any::<u16>(), any::<u32>()), 0..64)) {
        raw.retain(|r| (r.1 >> 6) & 0x3f != r.1 & 0x3f);
        raw.sort_by_key(|r| r.0);
        let mut bytes = Vec::new();
        for (key, code, weight, learn) in &raw {
            bytes.extend_from_slice(&Entry { key: *key, code: *code, weight: *weight, learn: *learn }.to_bytes());
        }
        let book = Book::from_bytes(&bytes).expect("valid");
        prop_assert_eq!(book.len(), raw.len());
        prop_assert_eq!(book.to_bytes(), bytes);
    }

    #[test]
    fn any_bytes_read_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        match Book::from_bytes(&bytes) {
            Ok(book) => prop_assert_eq!(book.len() * 16, bytes.len()),
            Err(err) => prop_assert!(err.offset() as usize <= bytes.len() && err.offset() % 16 == 0),
        }
    }
}

#[test]
fn variant_games_keep_their_own_keys_and_stay_out_of_books() {
    let pgn =
        b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 *\n\n1. e4 e5 *\n";
    let mut tree = Tree::new(TreeOptions::default());
    assert!(tree.add_pgn(&pgn[..]).expect("in memory").is_empty());
    let root = tree.node(&Position::new());
    assert_eq!(
        root.games(),
        1,
        "the crazyhouse game is not a standard game"
    );
    let drops = tree
        .edges()
        .filter(|(_, code, _)| code & 0x8000 != 0)
        .count();
    assert_eq!(drops, 1, "P@d4 has a code of its own");
    let book = Book::from_tree(&tree, all(1, Weight::Games, None));
    assert_eq!(book.len(), 2, "1.e4 e5 only");
}
