//! Integration tests of tabia-eco: the embedded tables, transpositions, the rule and its early
//! exit, keys.

use tabia_eco::{
    Classification, MAX_PLIES, Openings, Table,
    position::{EpRule, Position},
};

fn after(moves: &str) -> Position {
    moves
        .split_whitespace()
        .try_fold(Position::new(), |pos, m| pos.after(m))
        .expect("legal moves")
}

fn name_of(moves: &str) -> Option<(&'static str, &'static str)> {
    Table::embedded()
        .lookup(&after(moves).key())
        .map(|o| (o.eco(), o.name()))
}

#[test]
fn embedded_tables_are_complete() {
    for (openings, len, max_ply) in [(Openings::Lichess, 3807, 36), (Openings::Scid, 10_360, 36)] {
        let table = Table::builtin(openings);
        assert_eq!((table.len(), table.max_ply()), (len, max_ply), "{openings}");
        // Every opening's own moves lead back to it.
        for opening in table.openings() {
            let sans: Vec<&str> = opening
                .moves()
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            let pos = sans
                .iter()
                .try_fold(Position::new(), |p, m| p.after(m))
                .expect("legal");
            assert_eq!(
                table.lookup(&pos.key()),
                Some(opening),
                "{}",
                opening.moves()
            );
            assert_eq!(sans.len(), opening.ply());
        }
    }
    assert_eq!(Table::embedded().len(), 3807);
}

#[test]
fn transpositions_get_one_name() {
    let queen_pawn_first = name_of("d4 Nf6 c4 e6 Nc3 Bb4");
    assert_eq!(queen_pawn_first, name_of("c4 e6 Nc3 Nf6 d4 Bb4"));
    assert_eq!(queen_pawn_first, Some(("E20", "Nimzo-Indian Defense")));
    // As games, both orders end on the same name at the same ply.
    let table = Table::embedded();
    let a = table
        .classify_moves(["d4", "Nf6", "c4", "e6", "Nc3", "Bb4"])
        .unwrap()
        .unwrap();
    let b = table
        .classify_moves(["c4", "e6", "Nc3", "Nf6", "d4", "Bb4"])
        .unwrap()
        .unwrap();
    assert_eq!((a.opening, a.ply), (b.opening, b.ply));
}

#[test]
fn en_passant_counts_only_when_a_capture_is_legal() {
    // 2.c4 leaves an en-passant square behind and 2.Nf3 none, but it cannot be taken: the
    // positions have one key, so one name.
    let reti = name_of("Nf3 d5 c4");
    assert_eq!(reti, name_of("c4 d5 Nf3"));
    assert_eq!(reti, Some(("A09", "Réti Opening")));
    // After 1.d4 c5 2.d5 e5 the capture d5xe6 is legal: the key holds e6, and the same
    // placement without the en-passant right is another position.
    let benoni = after("d4 c5 d5 e5");
    assert_eq!(
        benoni.key().to_string(),
        "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6"
    );
    assert_eq!(
        name_of("d4 c5 d5 e5"),
        Some(("A44", "Benoni Defense: Old Benoni"))
    );
    let without: Position = "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3"
        .parse()
        .expect("legal");
    assert_ne!(without.key(), benoni.key());
    assert_eq!(Table::embedded().classify_position(&without), None);
    // The writer still shows the square of every double push.
    assert_eq!(
        after("d4 e6 c4").epd(EpRule::Always),
        "rnbqkbnr/pppp1ppp/4p3/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3"
    );
}

#[test]
fn game_keeps_the_last_named_position_and_stops_early() {
    let table = Table::embedded();
    // A Najdorf with 6.a4 (lichess names no line with it) h5, then rook moves; then an illegal
    // move that is never read because the classifier has stopped before it: at ply 40 at the
    // latest, here at ply 12, once no named position keeps both the a- and the h-pawn home.
    let mut moves: Vec<&str> = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 a4 h5"
        .split_whitespace()
        .collect();
    moves.extend(["Ra3", "Rh6", "Rb3", "Rg6"].repeat(7));
    moves.push("Qxh8");
    let m = table
        .classify_moves(&moves)
        .expect("stops before Qxh8")
        .expect("named");
    assert_eq!(
        (m.opening.eco(), m.opening.name(), m.ply),
        ("B90", "Sicilian Defense: Najdorf Variation", 10)
    );
    let mut c = table.classifier();
    let mut read = 0;
    for san in &moves {
        if !c.play_text(san).expect("legal until the stop") {
            read += 1;
            break;
        }
        read += 1;
    }
    assert_eq!(read, 12, "read {read} plies");
    assert!(read <= MAX_PLIES);
    // Scid's table names the same game by its finer line.
    let m = Table::builtin(Openings::Scid)
        .classify_moves(&moves)
        .expect("stops before Qxh8")
        .expect("named");
    assert_eq!(m.opening.name(), "Sicilian: Najdorf, 6.a4");
    assert_eq!((m.opening.extended(), m.ply), (Some("B90b"), 11));
}

#[test]
fn classification_says_why_a_game_is_not_named() {
    assert_eq!(
        Classification::Chess960.reason(),
        Some("unclassified: Chess960")
    );
    assert_eq!(
        Classification::NonStandardStart.reason(),
        Some("unclassified: non-standard start")
    );
    assert_eq!(Classification::Unnamed.matched(), None);
}

#[test]
fn the_reader_skips_what_follows_the_exit() {
    use tabia_eco::{GameVisitor, position::notation::pgn::PgnReader};

    // After the exit the rest is skipped unread: the bad token `Qxh9` is not reported.
    let mut pgn = String::from("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 ");
    pgn.push_str("6. h3 h6 ");
    for _ in 0..8 {
        pgn.push_str("Rh2 Rh7 Rh1 Rh8 ");
    }
    pgn.push_str("40. Qxh9 1-0\n\n1. d4 *\n");
    let mut reader = PgnReader::new(pgn.as_bytes());
    let mut visitor = GameVisitor::new(Table::embedded());
    let first = reader
        .read_game(&mut visitor)
        .expect("read")
        .expect("a game");
    let m = first.expect("legal").matched().expect("named");
    assert_eq!((m.opening.eco(), m.ply), ("B90", 11));
    let second = reader
        .read_game(&mut visitor)
        .expect("read")
        .expect("a game");
    assert_eq!(second.expect("legal").matched().map(|m| m.ply), Some(1));
    // Without the exit the same token is an error.
    let err = PgnReader::new(&b"1. e4 Qxh9 *"[..])
        .read_game(&mut GameVisitor::new(Table::embedded()))
        .unwrap_err();
    assert_eq!(err.syntax().map(|e| e.column()), Some(Some(7)));
}

#[test]
fn every_opening_classifies_its_own_line() {
    for openings in Openings::ALL {
        let table = Table::builtin(openings);
        // (Scid's "Start position" names no game: the rule does not look at ply 0.)
        for opening in table.openings().iter().filter(|o| o.ply() > 0) {
            let sans = opening
                .moves()
                .split_whitespace()
                .filter(|t| !t.ends_with('.'));
            let m = table.classify_moves(sans).expect("legal").expect("named");
            assert_eq!(
                (m.opening, m.ply),
                (opening, opening.ply()),
                "{openings}: {}",
                opening.moves()
            );
        }
    }
}

mod properties {
    use proptest::prelude::*;
    use tabia_eco::{GameVisitor, Table, TableFormat, position::notation::pgn::PgnReader};

    /// Text made of the pieces tables and games are made of, in any order.
    fn table_like() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            Just("[ECO \"B90\"]\n".to_owned()),
            Just("[Opening \"x\"]\n".to_owned()),
            Just("[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n".to_owned()),
            Just("eco\tname\tpgn\n".to_owned()),
            Just("C20a \"Open\" ".to_owned()),
            Just("\"".to_owned()),
            Just("1. e4 e5 ".to_owned()),
            Just("2.Nf3 ".to_owned()),
            Just("Ke3 ".to_owned()),
            Just("( ".to_owned()),
            Just(") ".to_owned()),
            Just("{ c } ".to_owned()),
            Just("* ".to_owned()),
            Just("1-0\n".to_owned()),
            Just("\t".to_owned()),
            Just("\n".to_owned()),
            Just("# x\n".to_owned()),
            "[ -~]{0,6}",
        ];
        prop::collection::vec(token, 0..24).prop_map(|t| t.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Loading never panics, whatever the bytes, in every format.
        #[test]
        fn tables_load_or_fail_cleanly(text in table_like(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            for format in [TableFormat::Pgn, TableFormat::Scid, TableFormat::Tsv] {
                for input in [text.as_bytes(), &bytes[..]] {
                    if let Err(err) = Table::from_bytes(input, format) {
                        prop_assert!(!err.to_string().is_empty());
                    }
                }
            }
        }

        /// Classifying games never panics, and every game read gets an answer.
        #[test]
        fn games_classify_or_fail_cleanly(text in table_like()) {
            let mut reader = PgnReader::new(text.as_bytes());
            let mut visitor = GameVisitor::new(Table::embedded());
            let mut steps = 0;
            while let Ok(Some(_)) | Err(_) = reader.read_game(&mut visitor).map(|g| g.map(|_| ())) {
                steps += 1;
                prop_assert!(steps <= text.len() + 1, "the reader advances");
            }
        }
    }
}

#[test]
fn the_variant_tag_decides_whether_a_game_is_classified() {
    use tabia_eco::{GameVisitor, position::notation::pgn::PgnReader};

    // The same moves under four `Variant` tags, read by the streaming visitor and by the
    // parsed-game classifier: both must give the same answers.
    let games = [
        ("Standard", Some("C20")),
        ("chess 960", None),
        ("Crazyhouse", None),
        ("Atomic", None),
    ];
    let mut pgn = String::new();
    for (variant, _) in games {
        pgn.push_str(&format!("[Variant \"{variant}\"]\n\n1. e4 e5 *\n\n"));
    }
    let table = Table::embedded();
    let mut reader = PgnReader::new(pgn.as_bytes());
    let mut visitor = GameVisitor::new(table);
    let mut parsed = PgnReader::new(pgn.as_bytes()).games();
    for (variant, eco) in games {
        let streamed = reader
            .read_game(&mut visitor)
            .expect("read")
            .expect("a game")
            .expect("classified");
        let game = parsed.next().expect("a game").expect("parsed");
        let whole = table.classify_game(&game).expect("classified");
        for class in [&streamed, &whole] {
            assert_eq!(class.matched().map(|m| m.opening.eco()), eco, "{variant}");
        }
        let reason = match variant {
            "Standard" => None,
            "chess 960" => Some("unclassified: Chess960"),
            _ => Some("unclassified: non-standard start"),
        };
        assert_eq!(streamed.reason(), reason, "{variant}");
        assert_eq!(whole.reason(), reason, "{variant}");
    }
}
