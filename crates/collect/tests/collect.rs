//! Property tests of tabia-collect: output forms read back, dedup and split keep every game.

use proptest::prelude::*;
use tabia_collect::{
    DedupBy, DigestExporter, Digester, Form, Place, Seen,
    notation::{
        Nag,
        pgn::{Game, Line, Move, Outcome, Strip},
        san::SanPlus,
    },
    position::{Notation, Position},
};

/// A random legal game: `plies` moves chosen by `choices`, some with NAGs, comments and a
/// one-move variation (another legal move from the same position).
fn game_from(choices: &[(u16, u8)], result: u8) -> Game {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    for &(pick, extra) in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(pick) % legal.len()];
        let mut node = Move::new(san(&pos, m));
        if extra % 5 == 1 {
            node.nags.push(Nag(extra % 7 + 1));
        }
        if extra % 7 == 2 {
            node.comments.push(format!("c{extra}"));
        }
        if extra % 4 == 3 && legal.len() > 1 {
            let alt = legal[(usize::from(pick) + 1) % legal.len()];
            node.variations.push(Line {
                comments: Vec::new(),
                moves: vec![Move::new(san(&pos, alt))],
            });
        }
        pos.play_unchecked(m);
        moves.push(node);
    }
    let mut game = Game::default();
    game.tags.push(("White".into(), "w".into()));
    game.tags.push(("Opening".into(), "o".into()));
    game.mainline.moves = moves;
    game.result = match result % 4 {
        0 => Outcome::WhiteWins,
        1 => Outcome::BlackWins,
        2 => Outcome::Draw,
        _ => Outcome::Unknown,
    };
    game
}

/// The SAN of a legal move, as the notation crate's type.
fn san(pos: &Position, m: tabia_collect::position::shakmaty::Move) -> SanPlus {
    pos.san(m).to_string().parse().expect("SAN reads back")
}

fn arb_game() -> impl Strategy<Value = Game> {
    (
        prop::collection::vec((any::<u16>(), any::<u8>()), 0..60),
        any::<u8>(),
    )
        .prop_map(|(choices, result)| game_from(&choices, result))
}

fn write(form: &Form, game: &Game) -> String {
    let mut out = Vec::new();
    form.write(game.clone(), &mut out).expect("a legal game");
    String::from_utf8(out).expect("UTF-8")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every form that keeps SAN and the result reads back to the same tree (stripped as
    /// asked, with the Seven Tag Roster the export completes).
    #[test]
    fn san_forms_read_back_to_the_same_tree(
        game in arb_game(),
        line_length in prop_oneof![Just(0usize), 20usize..120],
        move_numbers: bool,
        strip in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let mut form = Form {
            strip: Strip { comments: strip.0, nags: strip.1, variations: strip.2, tags: strip.3, ..Strip::default() },
            ..Form::default()
        };
        form.options.line_length = line_length;
        form.options.move_numbers = move_numbers;
        let text = write(&form, &game);
        let back: Game = text.parse().expect("reads back");
        let mut expected = game.clone();
        expected.strip(&form.strip);
        prop_assert_eq!(back, expected.with_roster());
        if line_length == 0 {
            prop_assert_eq!(text.lines().count(), 1);
        } else {
            prop_assert!(text.lines().all(|l| l.chars().count() <= line_length || !l.contains(' ')));
        }
    }

    /// UCI and long algebraic forms read back to the same moves.
    #[test]
    fn uci_and_lan_forms_read_back_to_the_same_moves(game in arb_game(), uci: bool) {
        let mut form = Form {
            notation: if uci { Notation::Uci } else { Notation::Lan },
            strip: Strip { comments: true, nags: true, variations: true, tags: false, ..Strip::default() },
            ..Form::default()
        };
        form.options.tags = false;
        form.options.move_numbers = false;
        form.options.result = false;
        form.options.line_length = 0;
        let text = write(&form, &game);
        let mut pos = Position::new();
        let mut sans = Vec::new();
        for token in text.split_whitespace() {
            let m = pos.parse_move(token).expect("a legal move");
            sans.push(san(&pos, m));
            pos.play_unchecked(m);
        }
        let expected: Vec<_> = game.mainline.moves.iter().map(|m| m.san).collect();
        prop_assert_eq!(sans, expected);
    }
}

/// The games `--keep first` keeps, as their indexes in `games`.
fn dedup(games: &[Game], by: DedupBy) -> Vec<usize> {
    let mut seen = Seen::default();
    let mut kept = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let digest = Digester::digest(game, by).expect("a legal game");
        let at = Place {
            input: 0,
            game: i as u64 + 1,
        };
        if seen.first(digest, at).is_none() {
            kept.push(i);
        }
    }
    kept
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// dedup(A ++ A) = dedup(A), and dedup(A) holds no two games with the same moves.
    #[test]
    fn dedup_of_a_collection_twice_is_dedup_of_it(
        pool in prop::collection::vec(arb_game(), 1..6),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..20),
        position: bool,
    ) {
        let by = if position { DedupBy::Position } else { DedupBy::Moves };
        let a: Vec<Game> = picks.iter().map(|i| pool[i.index(pool.len())].clone()).collect();
        let twice: Vec<Game> = a.iter().chain(&a).cloned().collect();
        let once = dedup(&a, by);
        prop_assert_eq!(dedup(&twice, by), once.clone());
        let moves = |g: &Game| g.mainline.moves.iter().map(|m| m.san.san).collect::<Vec<_>>();
        for (x, &i) in once.iter().enumerate() {
            for &j in &once[x + 1..] {
                if by == DedupBy::Moves {
                    prop_assert_ne!(moves(&a[i]), moves(&a[j]));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The `DigestExporter`, reading a game's text with no tree, gives the digest the tree
    /// gives by every `DedupBy`, and the text and tag mark `Form::write_marked` gives (when it
    /// writes the game at all).
    #[test]
    fn digest_exporter_agrees_with_the_tree(game in arb_game(), depth in 0u32..12) {
        let text = game.to_string();
        for by in [DedupBy::Moves, DedupBy::Position, DedupBy::FuzzyDepth(depth)] {
            let mut reader = tabia_collect::notation::pgn::PgnReader::new(text.as_bytes());
            let mut exporter = DigestExporter::new(by);
            let read = reader.read_game(&mut exporter).unwrap().unwrap().unwrap();
            prop_assert_eq!(read.digest, Digester::digest(&game, by).unwrap());
            if let Some(streamed) = read.text {
                let (mut tree, mut marks) = (Vec::new(), Vec::new());
                Form::default().write_marked(game.clone(), &mut tree, &mut marks).unwrap();
                prop_assert_eq!(&streamed[..], &tree[..tree.len() - 2]);
                prop_assert_eq!(marks, vec![read.tags_len]);
            }
        }
    }
}
