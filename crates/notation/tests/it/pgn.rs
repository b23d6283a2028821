//! PGN: fixtures, the splitter against the reader, round trips and properties.

use std::path::Path;

use proptest::prelude::*;
use tabia_notation::{
    Nag,
    pgn::{Game, Line, Move, Outcome, PgnReader, RawGame, ReadError},
    san::SanPlus,
};

use crate::{expect_file, fixtures};

/// Reads every game of `bytes`: the export of each good game (followed by a blank line), and
/// the full message of each error (followed by a blank line).
fn read_all(bytes: &[u8]) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    for game in PgnReader::new(bytes).games() {
        match game {
            Ok(game) => out.push_str(&format!("{game}\n\n")),
            Err(e) => err.push_str(&format!("{e}\n\n")),
        }
    }
    (out, err)
}

/// The same through the splitter: raw games, each parsed on its own.
fn read_all_split(bytes: &[u8]) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    for raw in PgnReader::new(bytes).raw_games() {
        match raw.map(|raw| raw.parse()) {
            Ok(Ok(game)) => out.push_str(&format!("{game}\n\n")),
            Ok(Err(e)) | Err(e) => err.push_str(&format!("{e}\n\n")),
        }
    }
    (out, err)
}

/// What the splitter must agree on with the reader: each good game, each error's message,
/// span and line. (The caret snippet of an error on the first line of a game that does not
/// start its line is drawn without the part of the line before the game.)
fn summary(bytes: &[u8], split: bool) -> Vec<Result<String, String>> {
    let one = |game: Result<Game, ReadError>| match game {
        Ok(game) => Ok(game.to_string()),
        Err(e) => Err(match e.syntax() {
            Some(e) => format!("{} {:?} {:?}", e.message(), e.span(), e.line()),
            None => e.to_string(),
        }),
    };
    if split {
        PgnReader::new(bytes)
            .raw_games()
            .map(|raw| one(raw.and_then(|raw| raw.parse())))
            .collect()
    } else {
        PgnReader::new(bytes).games().map(one).collect()
    }
}

/// Every event of a game, written down.
#[derive(Default)]
struct Trace(String);

impl tabia_notation::pgn::Visitor for Trace {
    type Output = String;

    fn tag(&mut self, name: &[u8], value: tabia_notation::pgn::RawTag<'_>) {
        self.0 += &format!("[{}={:?}]", String::from_utf8_lossy(name), value.as_bytes());
    }

    fn san(&mut self, san: SanPlus, at: tabia_notation::pgn::Origin) {
        self.0 += &format!(" {san}@{}:{}", at.line, at.column);
    }

    fn nag(&mut self, nag: Nag) {
        self.0 += &format!(" ${nag:?}");
    }

    fn comment(&mut self, comment: tabia_notation::pgn::RawComment<'_>) {
        self.0 += &format!(" {{{:?}}}", comment.as_bytes());
    }

    fn begin_variation(&mut self) -> tabia_notation::pgn::Skip {
        self.0 += " (";
        tabia_notation::pgn::Skip(false)
    }

    fn end_variation(&mut self) {
        self.0 += " )";
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.0 += &format!(" {outcome:?}");
    }

    fn end_game(&mut self) -> String {
        std::mem::take(&mut self.0)
    }
}

fn check_fixture(path: &Path, want_errors: bool) {
    let bytes = std::fs::read(path).expect("readable fixture");
    let (out, err) = read_all(&bytes);
    assert_eq!(!err.is_empty(), want_errors, "{}: {err}", path.display());
    assert_eq!(
        read_all_split(&bytes),
        (out.clone(), err.clone()),
        "{}: the splitter disagrees",
        path.display()
    );
    // A tiny buffer reads the same.
    let mut small = (String::new(), String::new());
    for game in PgnReader::with_capacity(0, &bytes[..]).games() {
        match game {
            Ok(game) => small.0.push_str(&format!("{game}\n\n")),
            Err(e) => small.1.push_str(&format!("{e}\n\n")),
        }
    }
    assert_eq!(small, (out.clone(), err.clone()), "{}", path.display());
    // What the reader repaired, `LINE:COL: game N: warning: message`, in `*.warn`.
    let mut warnings = String::new();
    for (n, game) in PgnReader::new(&bytes[..]).games().enumerate() {
        for w in game.iter().flat_map(|g| &g.warnings) {
            let (line, column, number) = (w.at.line, w.at.column, n + 1);
            warnings.push_str(&format!("{line}:{column}: game {number}: warning: {w}\n"));
        }
    }
    if warnings.is_empty() {
        assert!(!path.with_extension("warn").exists(), "{}", path.display());
    } else {
        expect_file(path, "warn", &warnings);
    }
    // The export is read back to the same text.
    assert_eq!(read_all(out.as_bytes()), (out.clone(), String::new()));
    expect_file(path, "out", &out);
    if want_errors {
        expect_file(path, "err", &err);
    }
}

/// Each `ok/*.pgn` reads without error, and its export is in `*.out`.
#[test]
fn ok_fixtures() {
    for path in fixtures("pgn", "ok", "pgn") {
        check_fixture(&path, false);
    }
}

/// Each `err/*.pgn` has bad games (messages in `*.err`) and good ones (export in `*.out`).
#[test]
fn err_fixtures() {
    for path in fixtures("pgn", "err", "pgn") {
        check_fixture(&path, true);
    }
}

#[test]
fn games_know_where_they_start() {
    let pgn = b"\n\n[Event \"a\"]\n\n1. e4 *\n   1. d4 *\n";
    let starts: Vec<_> = PgnReader::new(&pgn[..])
        .games()
        .map(|g| g.unwrap().start)
        .collect();
    assert_eq!(
        starts
            .iter()
            .map(|s| (s.offset, s.line, s.column))
            .collect::<Vec<_>>(),
        [(2, 3, 1), (26, 6, 4)]
    );
    let raw: Vec<RawGame> = PgnReader::new(&pgn[..])
        .raw_games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(raw[1].bytes, b"1. d4 *");
    assert_eq!(raw[1].start, starts[1]);
}

#[test]
fn errors_keep_absolute_lines_through_the_splitter() {
    let pgn = b"1. e4 *\n\n\n[Event \"x\"]\n\n1. e4 e5 2. Qxx9 *\n";
    let raw: Vec<RawGame> = PgnReader::new(&pgn[..])
        .raw_games()
        .map(Result::unwrap)
        .collect();
    let err = raw[1].parse().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid SAN move at line 6, column 13\n  | 1. e4 e5 2. Qxx9 *\n  |             ^^^^"
    );
    let Some(e) = err.syntax() else {
        panic!("a syntax error")
    };
    assert_eq!(e.span(), 35..39);
}

#[test]
fn long_comments_and_deep_variations_stream() {
    // Not while a hostile test measures its peak memory: this one holds hundreds of MB.
    let _guard = crate::hostile::measuring();
    // A comment four times the buffer, then a game.
    let comment = "é".repeat(20_000);
    let pgn = format!("1. e4 {{{comment}}} *\n1. d4 *");
    let games: Vec<Game> = PgnReader::with_capacity(4096, pgn.as_bytes())
        .games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games[0].mainline.moves[0].comments, [comment]);
    assert_eq!(games[1].start.line, 2);
    // A million nested variations: no stack overflow, in the visitor or in the tree.
    let depth = 1_000_000;
    let pgn = format!("1. e4 {} *", "(1. d4 ".repeat(depth) + &")".repeat(depth));
    let game: Game = pgn.parse().unwrap();
    let mut line = &game.mainline;
    let mut seen = 0;
    while let Some(v) = line.moves.first().and_then(|m| m.variations.first()) {
        line = v;
        seen += 1;
    }
    assert_eq!(seen, depth);
    let again: Game = pgn.parse().unwrap();
    assert_eq!(again, game);
}

#[test]
fn a_huge_unclosed_nesting_is_an_error_not_a_crash() {
    let _guard = crate::hostile::measuring();
    let pgn = "1. e4 ".to_owned() + &"(e4 ".repeat(1_000_000);
    let err = pgn.parse::<Game>().unwrap_err();
    assert_eq!(
        err.to_string().lines().next(),
        Some("variation not closed by `)` at line 1, column 4000006")
    );
}

#[test]
fn visitor_can_skip_games_and_variations() {
    use tabia_notation::pgn::{Origin, Skip, Visitor};

    struct Mainline(Vec<String>, bool);
    impl Visitor for Mainline {
        type Output = Vec<String>;
        fn begin_game(&mut self, start: Origin) -> Skip {
            self.0.clear();
            self.1 = false;
            Skip(start.line == 1)
        }
        fn tag(&mut self, name: &[u8], _value: tabia_notation::pgn::RawTag<'_>) {
            self.1 = name == b"Skip";
        }
        fn begin_movetext(&mut self) -> Skip {
            Skip(self.1)
        }
        fn san(&mut self, san: SanPlus, _at: Origin) {
            self.0.push(san.to_string());
        }
        fn begin_variation(&mut self) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    let pgn = b"1. e4 {[x]} *\n[Skip \"\"] 1. f4 *\n1. d4 (1. c4 (1. b3) c5) d5 ; (\n2. c4 *\n";
    let mut reader = PgnReader::new(&pgn[..]);
    let mut v = Mainline(Vec::new(), false);
    assert_eq!(reader.read_game(&mut v).unwrap(), Some(vec![]));
    assert_eq!(reader.read_game(&mut v).unwrap(), Some(vec![]));
    assert_eq!(
        reader.read_game(&mut v).unwrap(),
        Some(vec!["d4".to_owned(), "d5".to_owned(), "c4".to_owned()])
    );
    assert_eq!(reader.read_game(&mut v).unwrap(), None);
    let mut reader = PgnReader::new(&pgn[..]);
    assert_eq!(reader.skip_game().unwrap().map(|s| s.line), Some(1));
    assert_eq!(reader.skip_game().unwrap().map(|s| s.line), Some(2));
    assert_eq!(reader.skip_game().unwrap().map(|s| s.line), Some(3));
    assert_eq!(reader.skip_game().unwrap(), None);
}

#[test]
fn io_errors_stop_the_reader() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let mut games = PgnReader::new(Failing).games();
    assert!(matches!(games.next(), Some(Err(ReadError::Io(_)))));
    assert!(games.next().is_none());
}

// --- properties ---

fn san() -> impl Strategy<Value = SanPlus> {
    let moves = [
        "e4", "Nf3", "O-O", "O-O-O+", "exd5", "Qxf7#", "e8=Q+", "Nbd7", "R1e2", "Kxh8", "--",
        "bxa1=N#", "Bb5",
    ];
    prop::sample::select(moves.to_vec()).prop_map(|s| s.parse().expect("valid SAN"))
}

fn comment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ a-zA-Z0-9%\\[\\]();.éß\n-]{0,30}",
        1 => "[ a-z%\\[\n]{60,200}",
        1 => "[ a-z{}]{0,10}",
    ]
}

fn mv(variations: impl Strategy<Value = Vec<Line>>) -> impl Strategy<Value = Move> {
    (
        san(),
        prop::collection::vec(any::<u8>().prop_map(Nag), 0..3),
        prop::collection::vec(comment(), 0..2),
        variations,
    )
        .prop_map(|(san, nags, comments, variations)| {
            let mut m = Move::new(san);
            m.nags = nags;
            m.comments = comments;
            m.variations = variations;
            m
        })
}

fn line() -> impl Strategy<Value = Line> {
    let leaf = (
        prop::collection::vec(comment(), 0..2),
        prop::collection::vec(mv(Just(Vec::new())), 0..6),
    )
        .prop_map(|(comments, moves)| Line { comments, moves });
    leaf.prop_recursive(4, 64, 4, |inner| {
        (
            prop::collection::vec(comment(), 0..2),
            prop::collection::vec(mv(prop::collection::vec(inner, 0..2)), 0..6),
        )
            .prop_map(|(comments, moves)| Line { comments, moves })
    })
}

fn roster_names() -> [&'static str; 7] {
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
}

fn game() -> impl Strategy<Value = Game> {
    let roster = roster_names();
    (
        prop::collection::vec(prop::option::of("[ -~é]{0,12}"), 7),
        prop::collection::vec(("[A-Z][a-z0-9_]{2,8}", "[ -~é\"\\\\]{0,20}"), 0..4),
        line(),
        prop::sample::select(vec![
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
            Outcome::Unknown,
        ]),
    )
        .prop_map(move |(str_values, others, mainline, result)| {
            let mut tags: Vec<(String, String)> = roster
                .iter()
                .zip(str_values)
                .filter_map(|(name, value)| value.map(|v| ((*name).to_owned(), v)))
                .collect();
            tags.extend(
                others
                    .into_iter()
                    .filter(|(name, _)| !roster.contains(&name.as_str()) && name != "FEN"),
            );
            Game {
                tags,
                mainline,
                result,
                ..Game::default()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// parse ∘ write is the identity on game trees once the Seven Tag Roster is complete
    /// (the export completes it), and the export is idempotent.
    #[test]
    fn write_then_parse_is_identity(game in game()) {
        let text = game.to_string();
        let mut back: Game = text.parse().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let again = back.to_string();
        let given = game.tags.clone();
        let mut completed = game.with_roster();
        // Line ends in comments are spaces to the export (which breaks long ones at spaces).
        let unwrap = |comments: &mut Vec<String>| {
            comments.iter_mut().for_each(|c| *c = c.replace(['\n', '\r'], " "));
        };
        back.edit_comments(unwrap);
        completed.edit_comments(unwrap);
        prop_assert_eq!(&back, &completed, "{}", text);
        // The tags given are all there, unchanged; only missing roster tags were added.
        for tag in &given {
            prop_assert!(completed.tags.contains(tag), "{:?} lost\n{}", tag, text);
        }
        let missing = roster_names().iter().filter(|r| !given.iter().any(|(n, _)| n == *r)).count();
        prop_assert_eq!(completed.tags.len(), given.len() + missing);
        prop_assert_eq!(again, text.clone());
        for line in text.lines().skip_while(|l| l.starts_with('[') || l.is_empty()) {
            // Only a lone word longer than a line may exceed 79 characters.
            prop_assert!(line.chars().count() < 80 || !line.contains(' ') || line.contains(';'), "{}", line);
        }
    }

    /// Parsing game after game into the memory of the one before (`parse_reusing`) gives the
    /// games a fresh parse gives, whatever the shapes that follow each other (variations,
    /// comments, NAGs, more or fewer tags and moves), and so does a parse after an error.
    #[test]
    fn parse_reusing_is_parse(games in prop::collection::vec(game(), 1..6), junk in 0usize..6) {
        let raw = |text: String| RawGame { bytes: text.into_bytes(), start: Default::default() };
        let mut texts: Vec<RawGame> = games.iter().map(|g| raw(g.to_string())).collect();
        // An unreadable game somewhere in the sequence.
        texts.insert(junk.min(texts.len()), raw("1. e4 {never closed".to_owned()));
        let mut spare: Option<Game> = None;
        for game in &texts {
            let fresh = game.parse();
            let reused = match spare.take() {
                Some(old) => game.parse_reusing(old),
                None => game.parse(),
            };
            match (fresh, reused) {
                (Ok(fresh), Ok(reused)) => {
                    prop_assert_eq!(&reused, &fresh);
                    prop_assert_eq!(reused.to_string(), fresh.to_string());
                    spare = Some(reused);
                }
                (Err(fresh), Err(reused)) => prop_assert_eq!(reused.to_string(), fresh.to_string()),
                (fresh, reused) => prop_assert!(false, "{:?} against {:?}", reused.map(|_| ()), fresh.map(|_| ())),
            }
        }
    }

    /// Visiting game after game in one buffer (`visit_in`) sees what a fresh visit sees, after
    /// longer and shorter games, good and bad ones.
    #[test]
    fn visit_in_is_visit(bytes in prop::collection::vec(prop::sample::select(
        b"[]{}();%$!?*.\"\\ \n\r\t1-0/2e4Nf3O#+xQa\xe9".to_vec()), 0..400)) {
        let mut buffer = b"[Event \"left over\"]\n\n1. e4 {".repeat(50);
        for raw in PgnReader::new(&bytes[..]).raw_games() {
            let Ok(raw) = raw else { continue };
            let fresh = raw.visit(&mut Trace::default()).map_err(|e| e.to_string());
            let reused = raw.visit_in(&mut Trace::default(), &mut buffer).map_err(|e| e.to_string());
            prop_assert_eq!(reused, fresh);
        }
    }

    /// On any bytes: no panic, and the splitter and the reader agree.
    #[test]
    fn splitter_agrees_with_reader(bytes in prop::collection::vec(prop::sample::select(
        b"[]{}();%$!?*.\"\\ \n\r\t1-0/2e4Nf3O#+xQa\xe9".to_vec()), 0..200)) {
        prop_assert_eq!(summary(&bytes, true), summary(&bytes, false));
    }
}
