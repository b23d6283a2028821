//! The streaming [`Checker`] against the game tree's [`check_game`]: the same verdict (plies,
//! mate or stalemate, or the same error at the same place) for every game of every fixture, of
//! messy generated games (variations at any depth, illegal and null moves, bad tags, results
//! that contradict the board) and of every truncation of them; read from a whole input
//! ([`check_reader`]) and game by game from the splitter ([`RawGame::visit`]).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tabia_notation::pgn::{PgnReader, RawGame, ReadError};
use tabia_position::{
    CheckError, Checked, Checker, Exporter, ReplayError, ReplayWarning, check_game, check_reader,
    repair_game,
    shakmaty::{self, Position as _, san::SanPlus},
};

/// The verdict on one game, as text.
fn ok(plies: u32, warnings: &[ReplayWarning]) -> String {
    let mut text = format!("ok, {plies} plies");
    for warning in warnings {
        let at = warning.origin().unwrap_or_default();
        text.push_str(&format!(
            "; warning {}:{}:{}: {warning}",
            at.offset, at.line, at.column
        ));
    }
    text
}

fn rules(err: &ReplayError) -> String {
    let at = err.origin().unwrap_or_default();
    format!("{}:{}:{}: {err}", at.offset, at.line, at.column)
}

fn syntax(err: &ReadError) -> String {
    match err {
        ReadError::Syntax { error, start } => format!("syntax at game {start:?}: {error}"),
        other => panic!("not a syntax error: {other}"),
    }
}

fn checked(result: Result<Checked, ReplayError>) -> String {
    match result {
        Ok(done) => ok(done.plies, &done.warnings),
        Err(err) => rules(&err),
    }
}

/// The tree path: parse, then `check_game`.
fn tree(game: Result<tabia_notation::pgn::Game, ReadError>) -> String {
    match game {
        Ok(game) => match check_game(&game) {
            Ok(done) => ok(done.plies, &done.warnings),
            Err(err) => rules(&err),
        },
        Err(err) => syntax(&err),
    }
}

fn by_tree(bytes: &[u8]) -> Vec<String> {
    PgnReader::new(bytes).games().map(tree).collect()
}

fn by_checker(bytes: &[u8]) -> Vec<String> {
    check_reader(bytes)
        .map(|game| match game.expect("no read error") {
            Ok(done) => ok(done.plies, &done.warnings),
            Err(CheckError::Rules(err)) => rules(&err),
            Err(CheckError::Syntax(err)) => syntax(&err),
            Err(other) => panic!("{other}"),
        })
        .collect()
}

fn by_raw_games(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
    let raws: Vec<RawGame> = PgnReader::new(bytes)
        .raw_games()
        .collect::<Result<_, _>>()
        .expect("no read error");
    let fast = raws
        .iter()
        .map(|raw| match raw.visit(&mut Checker::new()) {
            Ok(result) => checked(result),
            Err(err) => syntax(&err),
        })
        .collect();
    let slow = raws.iter().map(|raw| tree(raw.parse())).collect();
    (fast, slow)
}

/// The [`Exporter`] on each game of `bytes`, against the tree: the same verdict as the tree's
/// check, and where it writes the game, the text of `repair_game` then `Display`. Gives how
/// many games it wrote, and how many good games it left to the tree.
fn exports(bytes: &[u8], what: &str) -> (usize, usize) {
    let mut exporter = Exporter::new();
    let (mut written, mut left) = (0, 0);
    for raw in PgnReader::new(bytes).raw_games() {
        let raw = raw.expect("no read error");
        let verdict = match raw.visit(&mut exporter) {
            Ok(result) => checked(result),
            Err(err) => syntax(&err),
        };
        assert_eq!(verdict, tree(raw.parse()), "exporter vs tree: {what}");
        let Ok(mut game) = raw.parse() else {
            assert_eq!(exporter.text(), None, "{what}");
            continue;
        };
        match (repair_game(&mut game), exporter.text()) {
            (Ok(_), Some(text)) => {
                assert_eq!(text, game.to_string(), "exporter vs tree export: {what}");
                written += 1;
            }
            (Ok(_), None) => left += 1,
            (Err(_), text) => assert_eq!(text, None, "{what}"),
        }
    }
    (written, left)
}

/// All four ways agree on `bytes`, and the exporter with them.
fn agree(bytes: &[u8], what: &str) -> (usize, usize) {
    let expected = by_tree(bytes);
    assert_eq!(by_checker(bytes), expected, "check_reader vs tree: {what}");
    let (fast, slow) = by_raw_games(bytes);
    assert_eq!(fast, slow, "raw game Checker vs raw game tree: {what}");
    assert_eq!(fast, expected, "raw games vs whole input: {what}");
    exports(bytes, what)
}

fn pgn_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            pgn_files(&path, found);
        } else if path.extension().is_some_and(|x| x == "pgn") {
            found.push(path);
        }
    }
}

#[test]
fn every_fixture_game_gets_the_tree_verdict() {
    let _heavy = crate::timing();
    let mut files = Vec::new();
    pgn_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
        &mut files,
    );
    files.sort();
    assert!(files.len() > 20, "fixtures found: {}", files.len());
    let mut bad = 0;
    let (mut written, mut left) = (0, 0);
    for file in &files {
        let bytes = std::fs::read(file).expect("read");
        let (w, l) = agree(&bytes, &file.display().to_string());
        written += w;
        left += l;
        bad += by_tree(&bytes)
            .iter()
            .filter(|v| !v.starts_with("ok"))
            .count();
    }
    // The fixtures have bad games of both kinds: the comparison sees errors, not only passes.
    assert!(bad > 10, "{bad} bad fixture games");
    // Nearly every good game is written as it is read; a few are left to the tree.
    assert!(
        written > 50 * left.max(1),
        "{written} written, {left} left to the tree"
    );
}

#[test]
fn the_first_fen_and_variant_tags_start_the_game() {
    // Found by the `export` fuzz target: the checker started from the last `FEN` tag, the tree
    // from the first; `tabia pgn --check` and `tabia pgn` disagreed on such a game.
    let pgn = "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBR\"]\n\
               [FEN \"8/8/3k4/8/3K4/4R3/3P4/7r w - - 0 1\"]\n\n1. Kc4 *\n\n\
               [FEN \"8/8/3k4/8/3K4/4R3/3P4/7r w - - 0 1\"]\n\
               [FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBR\"]\n\n1. Kc4 *\n\n\
               [Variant \"Atomic\"]\n[Variant \"Standard\"]\n\n1. e4 *\n";
    let verdicts = by_tree(pgn.as_bytes());
    assert!(
        verdicts[0].contains("rank does not have exactly 8 squares"),
        "{verdicts:?}"
    );
    assert_eq!(verdicts[1..], ["ok, 1 plies", "ok, 1 plies"]);
    let (written, _) = agree(pgn.as_bytes(), pgn);
    assert_eq!(written, 2);
}

#[test]
fn long_comments_read_in_pieces_are_written_as_the_tree_writes_them() {
    // Comments longer than the reader's buffer come in pieces (`partial_comment`): plain ASCII,
    // Latin-1 (not UTF-8), and one with line ends.
    let long = "a plain word ".repeat(40_000);
    let latin1: Vec<u8> = b"caf\xe9 ".repeat(100_000);
    let lines = "line\nend ".repeat(50_000);
    let mut pgn = format!("1. e4 {{{long}}} e5 2. Nf3 {{").into_bytes();
    pgn.extend_from_slice(&latin1);
    pgn.extend_from_slice(format!("}} Nc6 {{{lines}}} *\n").as_bytes());
    assert!(pgn.len() > 3 * tabia_notation::pgn::DEFAULT_CAPACITY);
    assert_eq!(agree(&pgn, "long comments"), (1, 0));
}

/// A small deterministic generator (xorshift), driven by proptest's seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Start positions: some near a mate or a stalemate, Chess960, and bad ones.
const FENS: &[&str] = &[
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
];

/// Moves that are often illegal, or not moves at all in the position they land in.
const ODD: &[&str] = &[
    "Ke3", "Nf3", "O-O", "O-O-O", "exd6", "e8=Q", "--", "Qh5+", "Kxe2", "Nbd2", "b1=K", "Rxa8",
    "Bb5", "Z0", "e4", "Qxf7#", "e2e4", "g1f3", "Ng1-f3", "Nxc3", "e4+", "Nf3#", "d7d5", "exf3",
];

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

/// A line of about `plies` random moves from `pos`, with variations, comments, NAGs, null and
/// odd moves, written in PGN with move numbers.
fn line(rng: &mut Rng, mut pos: shakmaty::Chess, plies: usize, depth: usize, out: &mut String) {
    let mut first = true;
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let before = pos.clone();
        let number = pos.fullmoves();
        let white = pos.turn().is_white();
        if white {
            out.push_str(&format!("{number}. "));
        } else if first {
            out.push_str(&format!("{number}... "));
        }
        first = false;
        if legal.is_empty() {
            // Mate or stalemate: the result decides whether the game is right.
            return;
        }
        if rng.chance(4) {
            let odd = rng.pick(ODD);
            out.push_str(odd);
            out.push(' ');
            if odd == "--" && !pos.is_check() {
                // Played by the replay: follow it, so that what comes next is often legal.
                if let Ok(next) = pos.clone().swap_turn() {
                    pos = next;
                }
            }
            continue;
        }
        // A move that ends the game, when there is one, now and then.
        let ending = legal.iter().filter(|_| legal.len() < 12).find(|m| {
            let mut after = pos.clone();
            after.play_unchecked(**m);
            after.legal_moves().is_empty()
        });
        let m = match ending {
            Some(m) if rng.chance(50) => *m,
            _ => legal[rng.below(legal.len())],
        };
        let san = SanPlus::from_move(pos.clone(), m);
        out.push_str(&san.to_string());
        out.push(' ');
        pos.play_unchecked(m);
        if rng.chance(8) {
            out.push_str(rng.pick(&["$1 ", "!? ", "{a comment} ", "; to the end\n", "?? "]));
        }
        if rng.chance(3) {
            // A comment and a NAG, in the order the tree writes them or not.
            out.push_str(rng.pick(&["{x} $4 ", "$3 {y} ", "{long} {two} "]));
        }
        if depth < 3 && rng.chance(12) {
            let count = 1 + rng.below(2);
            for _ in 0..count {
                out.push('(');
                if rng.chance(10) {
                    out.push_str("{before} ");
                }
                let plies = 1 + rng.below(6);
                line(rng, before.clone(), plies, depth + 1, out);
                out.push_str(") ");
            }
            if rng.chance(10) {
                // After the variations: the tree writes it before them.
                out.push_str(rng.pick(&["{after} ", "$2 "]));
            }
            first = true;
        }
    }
}

/// A game with random tags and movetext.
fn game(rng: &mut Rng) -> String {
    let mut out = String::new();
    out.push_str("[Event \"generated\"]\n");
    if rng.chance(40) {
        let result = rng.pick(&["1-0", "0-1", "1/2-1/2", "*", " 1-0 ", "?", "0-1"]);
        out.push_str(&format!("[Result \"{result}\"]\n"));
        if rng.chance(10) {
            out.push_str("[Result \"1/2-1/2\"]\n");
        }
    }
    let mut start = shakmaty::Chess::default();
    if rng.chance(35) {
        let fen = rng.pick(FENS);
        out.push_str(&format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n"));
        if let Some(pos) = fen
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok())
        {
            start = pos;
        }
    }
    if rng.chance(5) {
        let variant = rng.pick(&["Chess960", "Standard", "Atomic", "chess 960"]);
        out.push_str(&format!("[Variant \"{variant}\"]\n"));
    }
    out.push('\n');
    let plies = rng.below(40);
    line(rng, start, plies, 0, &mut out);
    out.push_str(rng.pick(RESULTS));
    out.push_str("\n\n");
    out
}

fn games(seed: u64, count: usize) -> String {
    let mut rng = Rng(seed | 1);
    (0..count).map(|_| game(&mut rng)).collect()
}

#[test]
fn generated_games_cover_what_they_should() {
    let _heavy = crate::timing();
    // The generator makes what the comparison needs: legal and illegal games, variations,
    // mates or stalemates at the end, bad tags.
    let text = games(7, 400);
    let verdicts = by_tree(text.as_bytes());
    let count = |needle: &str| verdicts.iter().filter(|v| v.contains(needle)).count();
    assert!(count("ok,") > 40, "{verdicts:?}");
    assert!(count("illegal move") > 40);
    assert!(count("in a variation") > 5);
    assert!(count("but the game ends in") > 3);
    assert!(count("bad FEN tag") > 3);
    assert!(text.matches(" -- ").count() > 20);
    let (written, left) = agree(text.as_bytes(), "400 generated games");
    assert!(
        written > 30 && left > 3,
        "{written} written, {left} left to the tree"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn messy_games_get_the_tree_verdict(seed in any::<u64>()) {
        let _heavy = crate::timing();
        let text = games(seed, 12);
        agree(text.as_bytes(), &text);
    }

    #[test]
    fn truncated_games_get_the_tree_verdict(seed in any::<u64>(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 4)) {
        let _heavy = crate::timing();
        let text = games(seed, 4);
        let bytes = text.as_bytes();
        for cut in cuts {
            let cut = cut.index(bytes.len() + 1);
            agree(&bytes[..cut], &String::from_utf8_lossy(&bytes[..cut]));
        }
    }
}
