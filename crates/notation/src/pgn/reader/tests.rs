use std::cell::Cell;

use proptest::prelude::*;

use super::*;
use crate::pgn::{Skip, tag::tests::tag_line};

thread_local! {
    /// See [`plain_tags_on`].
    pub(super) static PLAIN_TAGS: Cell<bool> = const { Cell::new(true) };
}

/// Every event of every game of `input`, each game's error (its message and span) and
/// where the reader stands after each game, read with or without the fast path for tags.
fn events(input: &[u8], capacity: usize, plain_tags: bool) -> Vec<String> {
    #[derive(Default)]
    struct Record(Vec<String>);
    impl Visitor for Record {
        type Output = ();
        fn begin_game(&mut self, start: Origin) -> Skip {
            self.0.push(format!("game at {start:?}"));
            Skip(false)
        }
        fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
            let (name, value) = (name.escape_ascii(), value.as_bytes().escape_ascii());
            self.0.push(format!("tag {name} {value}"));
        }
        fn san(&mut self, san: SanPlus, at: Origin) {
            self.0.push(format!("san {san} at {at:?}"));
        }
        fn comment(&mut self, comment: RawComment<'_>) {
            self.0.push(format!("comment {comment:?}"));
        }
        fn outcome(&mut self, outcome: Outcome) {
            self.0.push(format!("outcome {outcome:?}"));
        }
        fn end_game(&mut self) {}
    }
    PLAIN_TAGS.with(|on| on.set(plain_tags));
    let mut reader = PgnReader::with_capacity(capacity, input);
    let mut record = Record::default();
    loop {
        let read = reader.read_game(&mut record);
        let at = reader.origin();
        match read {
            Ok(None) => break,
            Ok(Some(())) => record.0.push(format!("end at {at:?}")),
            Err(err) => record.0.push(format!("error {err}\n{err:?}\nat {at:?}")),
        }
    }
    PLAIN_TAGS.with(|on| on.set(true));
    record.0
}

/// Where each game of `input` starts and where the reader stands after it (offset, line,
/// column), skipping movetext the fast way or token by token.
fn skipped(input: &[u8], capacity: usize, fast: bool) -> Vec<(Origin, Origin)> {
    let mut reader = PgnReader::with_capacity(capacity, input);
    let mut out = Vec::new();
    while let Some(start) = reader.begin().unwrap() {
        reader.skip_tags().unwrap();
        if fast {
            reader.skip_to_game_end().unwrap();
        } else {
            reader.skip_tokens(false).unwrap();
        }
        out.push((start, reader.origin()));
    }
    out
}

/// Movetext-like pieces, among them every byte the fast skip looks for.
const PIECES: &[&[u8]] = &[
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"12.",
    b"3...",
    b"e4",
    b"O-O",
    b"O-O-O",
    b"0-0",
    b"{",
    b"}",
    b"[",
    b"]",
    b";",
    b"%",
    b"(",
    b")",
    b" ",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"-",
    b"x",
    b"Nf3",
    b"$1",
    b"!?",
    b"\"",
    b"[Event \"a\"]",
    b"12.1-0",
    b"1-0x",
    b"e4*",
    b"a-b",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The fast skip ends games exactly where the token-by-token skip does, with the same
    /// lines and columns, whatever the buffer size.
    #[test]
    fn fast_skip_agrees_with_the_token_skip(
        picks in proptest::collection::vec(0..PIECES.len(), 0..400),
        filler in 0usize..6000,
        at in 0usize..400,
    ) {
        let mut input = Vec::new();
        for (k, &i) in picks.iter().enumerate() {
            if k == at {
                // A long stretch of plain moves, to make the buffer refill mid-game.
                input.extend(b"e4 e5 Nf3 ".iter().cycle().take(filler));
            }
            input.extend_from_slice(PIECES[i]);
            if i % 3 == 0 {
                input.push(b' ');
            }
        }
        for capacity in [MIN_CAPACITY, 5000, DEFAULT_CAPACITY] {
            prop_assert_eq!(
                skipped(&input, capacity, true),
                skipped(&input, capacity, false),
                "capacity {}", capacity
            );
        }
    }
}

/// Where each game of `input` starts and where it ends (offset), skipped whole.
fn games_whole(input: &[u8]) -> Vec<(Origin, u64)> {
    let mut reader = PgnReader::with_capacity(MIN_CAPACITY, input);
    let mut out = Vec::new();
    while let Some(start) = reader.skip_game().unwrap() {
        out.push((start, reader.offset()));
    }
    out
}

/// The same, reading `input` in pieces cut before the `[`s at `cuts` (each at the start of
/// a line), one reader a piece, a game cut off by the end of its piece going on in the next.
fn games_in_pieces(input: &[u8], cuts: &[usize]) -> Vec<(Origin, u64)> {
    let mut out = Vec::new();
    let mut open: Option<(Origin, Cut)> = None;
    let mut lines = 0;
    let mut from = 0;
    for (k, &to) in cuts.iter().chain([&input.len()]).enumerate() {
        let last = k == cuts.len();
        let piece = &input[from..to];
        let origin = Origin {
            offset: from as u64,
            line: lines + 1,
            column: 1,
        };
        let mut reader = PgnReader::with_capacity(MIN_CAPACITY, piece).with_origin(origin);
        if let Some((start, cut)) = open.take() {
            reader.skip_rest(cut).unwrap();
            match reader.cut() {
                Some(cut) if !last => open = Some((start, cut)),
                _ => out.push((start, reader.offset())),
            }
        }
        if open.is_none() {
            while let Some(start) = reader.skip_game().unwrap() {
                out.push((start, reader.offset()));
            }
            if let (Some(cut), false) = (reader.cut(), last) {
                let (start, _) = out.pop().unwrap();
                open = Some((start, cut));
            }
        }
        lines = reader.position().line - 1;
        from = to;
    }
    out
}

/// Every byte at every place of a block: the stops the block search finds are the bytes
/// of [`MOVETEXT_STOPS`], and [`find_movetext_stop`] finds the first of them, in a block
/// or after it.
#[test]
fn the_block_search_finds_exactly_the_movetext_stops() {
    for at in 0..16 {
        for b in 0..=255u8 {
            let mut block = [b'a'; 16];
            block[at] = b;
            let want = MOVETEXT_STOPS.contains(&b);
            assert_eq!(
                movetext_stops(&block),
                u32::from(want) << at,
                "{b:#04x} at {at}"
            );
            let mut bytes = vec![b'a'; 40];
            bytes[at] = b;
            bytes[at + 20] = b'*';
            let first = if want { at } else { at + 20 };
            assert_eq!(find_movetext_stop(&bytes), Some(first), "{b:#04x} at {at}");
            assert_eq!(find_movetext_stop(&bytes[..at + 1]), want.then_some(at));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Reading an input in pieces cut where a line starts with `[`, going on with a game
    /// that [`PgnReader::cut`] says was cut off, finds the games of the whole input: the same
    /// starts (offset, line, column) and the same ends.
    #[test]
    fn pieces_cut_at_a_line_starting_with_a_bracket_give_the_same_games(
        picks in proptest::collection::vec(0..PIECES.len(), 0..300),
        mask in proptest::collection::vec(any::<bool>(), 64),
        long in 0usize..300,
    ) {
        let mut input = Vec::new();
        for (k, &i) in picks.iter().enumerate() {
            if k == long {
                // A comment longer than the buffer, with tag-like lines in it.
                input.extend_from_slice(b"{ ");
                for _ in 0..300 {
                    input.extend_from_slice(b"\n[Event \"c\"] a comment line\n\n");
                }
                input.extend_from_slice(b"}\n");
            }
            input.extend_from_slice(PIECES[i]);
            if i % 3 == 0 {
                input.push(b' ');
            }
        }
        let candidates: Vec<usize> = (1..input.len())
            .filter(|&i| input[i] == b'[' && matches!(input[i - 1], b'\n' | b'\r'))
            .collect();
        let cuts: Vec<usize> = candidates
            .iter()
            .enumerate()
            .filter(|&(k, _)| mask[k % mask.len()] || k % 7 == 0)
            .map(|(_, &i)| i)
            .collect();
        prop_assert_eq!(games_in_pieces(&input, &cuts), games_whole(&input));
    }
}

#[test]
fn pieces_go_on_with_tags_and_comments_they_cut() {
    let input =
        b"[Event \"a\"]\n[Site \"s\"]\n\n1. e4 {x\n[y]\n} 1-0 {z\n[w]\n}\n\n[Event \"b\"]\n\n*\n";
    let cuts: Vec<usize> = (1..input.len())
        .filter(|&i| input[i] == b'[' && input[i - 1] == b'\n')
        .collect();
    assert_eq!(cuts.len(), 4);
    let whole = games_whole(input);
    assert_eq!(whole.len(), 2);
    assert_eq!(whole[1].0.line, 10);
    assert_eq!(games_in_pieces(input, &cuts), whole);
    let mut reader = PgnReader::new(&input[..cuts[0]]);
    reader.skip_game().unwrap();
    assert_eq!(reader.cut(), Some(Cut::Tags));
    for (cut, want) in [Some(Cut::Comment), Some(Cut::TrailingComment), None]
        .into_iter()
        .enumerate()
    {
        let mut reader = PgnReader::new(&input[..cuts[cut + 1]]);
        reader.skip_game().unwrap();
        assert_eq!(reader.cut(), want, "cut {}", cut + 1);
    }
}

/// A [`tag_line`], now and then with a value longer than the reader's look-ahead, so that
/// the buffer can end inside it.
fn long_or_short_tag_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => tag_line(),
        1 => (tag_line(), LOOKAHEAD..3000).prop_map(|(line, n)| {
            let at = line.iter().position(|&b| b == b'"').map_or(0, |i| i + 1);
            [&line[..at], &b"x ".repeat(n / 2), &line[at..]].concat()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Reading tags with the fast path for the common shape gives the same tags, errors
    /// (messages and places) and positions as the rule alone, also where the buffer ends
    /// in the middle of a tag pair.
    #[test]
    fn plain_tags_read_as_the_rule_reads_them(
        games in proptest::collection::vec(
            (
                proptest::collection::vec(long_or_short_tag_line(), 0..8),
                proptest::sample::select(&["\n1. e4 e5 1-0\n\n", "\n*\n", "", "\n{ x } 0-1"][..]),
            ),
            1..6,
        ),
        filler in 0usize..9000,
    ) {
        // A first game with a long comment, so that the buffer ends anywhere in the next.
        let mut input = format!("[Event \"pad\"]\n\n{{{}}} *\n\n", "x".repeat(filler)).into_bytes();
        for (lines, movetext) in &games {
            input.extend(lines.concat());
            input.extend(movetext.as_bytes());
        }
        for capacity in [MIN_CAPACITY, 5000, DEFAULT_CAPACITY] {
            prop_assert_eq!(
                events(&input, capacity, true),
                events(&input, capacity, false),
                "capacity {}", capacity
            );
        }
    }
}

/// A token longer than [`LOOKAHEAD`] is judged on its first `LOOKAHEAD` bytes: a figurine's
/// bytes further on (the fuzzer's `K` and 255 bytes, then `E2 99`) made it an unexpected
/// token where the whole input was buffered and an invalid move where the buffer ended
/// before them.
#[test]
fn a_long_token_is_the_same_error_wherever_the_buffer_ends() {
    let mut token = b"K".to_vec();
    token.extend([0u8; 300]);
    token.extend("♕".as_bytes());
    for filler in (0..5000).step_by(97) {
        let mut input = format!("{{{}}} 1. e4 ", "x".repeat(filler)).into_bytes();
        input.extend(&token);
        input.extend(b" *\n");
        let errors = |capacity| -> Vec<_> {
            PgnReader::with_capacity(capacity, &input[..])
                .games()
                .filter_map(Result::err)
                .map(|err| match err {
                    ReadError::Syntax { error, start } => (error.kind(), error.span(), start),
                    other => panic!("{other}"),
                })
                .collect()
        };
        let whole = errors(DEFAULT_CAPACITY);
        assert_eq!(errors(MIN_CAPACITY), whole, "filler {filler}");
        let start = filler + 9;
        assert_eq!(
            whole
                .iter()
                .map(|(kind, span, _)| (*kind, span.clone()))
                .collect::<Vec<_>>(),
            [(ErrorKind::InvalidSan, start..start + LOOKAHEAD)]
        );
    }
}

#[test]
fn fast_skip_finds_results_in_long_games() {
    let mut pgn = b"[Event \"a\"]\n\n".to_vec();
    for i in 1..2000 {
        pgn.extend(format!("{i}. e4 {{a - b * c [x] ; %}} e5 O-O ").as_bytes());
    }
    pgn.extend(b"1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
    let fast = skipped(&pgn, MIN_CAPACITY, true);
    assert_eq!(fast, skipped(&pgn, MIN_CAPACITY, false));
    assert_eq!(fast.len(), 2);
    assert_eq!(fast[1].0.line, 5);
}

#[test]
fn brace_or_line_end() {
    for (s, want) in [
        (&b"abc}"[..], Some(3)),
        (b" [%clk 0:03:00] } 2. e4", Some(16)),
        (b"0123456789abcdef\n}", Some(16)),
        (b"01234567\r", Some(8)),
        (b"0123\t567}", Some(4)),
        (b"no end", None),
        (&[b'x'; 100][..], None),
    ] {
        assert_eq!(
            find_brace_or_line_end(s, &BraceOrLineEnd::new()),
            want,
            "{s:?}"
        );
    }
    let mut long = vec![b'x'; 100];
    long.push(b'}');
    assert_eq!(
        find_brace_or_line_end(&long, &BraceOrLineEnd::new()),
        Some(100)
    );
    for at in [40, 70, 99] {
        let mut long = vec![b'x'; 100];
        long[at] = b'\r';
        assert_eq!(
            find_brace_or_line_end(&long, &BraceOrLineEnd::new()),
            Some(at)
        );
    }
    // A byte just above a match must not hide it (borrows run upwards only).
    assert_eq!(
        find_brace_or_line_end(b"\x7e}", &BraceOrLineEnd::new()),
        Some(1)
    );
    assert_eq!(
        find_brace_or_line_end(b"\x0b\x0a", &BraceOrLineEnd::new()),
        Some(1)
    );
}

#[test]
fn moves_after_a_comment_that_ends_its_line_are_located() {
    /// Where each move of the first game is.
    #[derive(Default)]
    struct At(Vec<(u64, u64, u64)>);
    impl Visitor for At {
        type Output = Vec<(u64, u64, u64)>;
        fn san(&mut self, _: SanPlus, at: Origin) {
            self.0.push((at.offset, at.line, at.column));
        }
        fn end_game(&mut self) -> Self::Output {
            std::mem::take(&mut self.0)
        }
    }
    let pgn = b"1. e4 {a}\nc5 {b}\r\n2. Nf3 {c}\n\n{d}\nd6 {e}\n%x\n3. d4 *\n";
    let moves = PgnReader::new(&pgn[..])
        .read_game(&mut At::default())
        .expect("read")
        .expect("a game");
    assert_eq!(
        moves,
        [(3, 1, 4), (10, 2, 1), (21, 3, 4), (34, 6, 1), (47, 8, 4)]
    );
}

/// The reader's warnings of a game.
#[derive(Default)]
struct Warned(Vec<Warning>);

impl Visitor for Warned {
    type Output = Vec<Warning>;
    fn warning(&mut self, warning: Warning) {
        self.0.push(warning);
    }
    fn end_game(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.0)
    }
}

/// The mainline of a game, in SAN.
fn mainline_sans(game: &crate::pgn::Game) -> Vec<String> {
    game.mainline
        .moves
        .iter()
        .map(|m| m.san.to_string())
        .collect()
}

/// The NAG numbers of each mainline move.
fn mainline_nags(game: &crate::pgn::Game) -> Vec<Vec<u8>> {
    game.mainline
        .moves
        .iter()
        .map(|m| m.nags.iter().map(|n| n.0).collect())
        .collect()
}

/// `pgn` read, every warning of it of the kind `is_kind` accepts: the game, and the
/// columns of its warnings.
fn read_warned(pgn: &str, is_kind: fn(&WarningKind) -> bool) -> (crate::pgn::Game, Vec<u64>) {
    let game: crate::pgn::Game = pgn.parse().expect("read");
    assert!(
        game.warnings.iter().all(|w| is_kind(&w.kind)),
        "{:?}",
        game.warnings
    );
    let columns = game.warnings.iter().map(|w| w.at.column).collect();
    (game, columns)
}

#[test]
fn a_comment_the_input_ends_in_is_an_error_whether_read_or_skipped() {
    /// Reads every move, or skips the movetext at its start, or after the first move.
    struct Reading(u8);
    impl Visitor for Reading {
        type Output = ();
        fn begin_movetext(&mut self) -> Skip {
            Skip(self.0 == 1)
        }
        fn skip_rest(&mut self) -> Skip {
            Skip(self.0 == 2)
        }
        fn end_game(&mut self) {}
    }
    for pgn in [
        &b"[White \"a\"]\n\n1. e4 {c} e5 {never closed\n\n[White \"b\"]\n\n1. d4 *\n"[..],
        b"1. e4 e5 1-0 {after the result\n",
        b"1. e4 (1. d4 {in a variation\n",
    ] {
        let messages: Vec<String> = (0..3)
            .map(|how| {
                let mut reader = PgnReader::new(pgn);
                let err = reader
                    .read_game(&mut Reading(how))
                    .expect_err("the comment is not closed");
                assert!(matches!(reader.read_game(&mut Reading(how)), Ok(None)));
                err.to_string()
            })
            .collect();
        assert!(
            messages[0].starts_with("comment not closed by `}` at line "),
            "{messages:?}"
        );
        assert_eq!(messages[1], messages[0]);
        assert_eq!(messages[2], messages[0]);
    }
}

#[test]
fn a_comment_that_runs_into_a_tag_pair_is_warned_about() {
    let warned = |pgn: &[u8], capacity: usize| {
        PgnReader::with_capacity(capacity, pgn)
            .read_game(&mut Warned::default())
            .expect("read")
            .expect("a game")
    };
    // Buffered, over lines; and in pieces, the blank line anywhere around a cut.
    for filler in [
        0, 3000, 4090, 4093, 4094, 4095, 4096, 4097, 4100, 8190, 8192,
    ] {
        for line_end in ["\n", "\r\n"] {
            let pgn = format!(
                "[Event \"a\"]{e}{e}1. e4 {{never closed {}{e}{e}[Event \"b\"]{e}{e}1. d4 {{x}} 1-0{e}",
                "y".repeat(filler),
                e = line_end,
            );
            let warnings = warned(pgn.as_bytes(), 4096);
            let want = Warning {
                kind: WarningKind::TagPairInComment { line: 5 },
                at: Origin {
                    offset: (11 + 2 * line_end.len() + 6) as u64,
                    line: 3,
                    column: 7,
                },
            };
            assert_eq!(warnings, [want], "filler {filler}, {line_end:?}");
        }
    }
    assert_eq!(
        warned(b"1. e4 {a\n\n[White \"x\"]} *", 4096)[0].to_string(),
        "comment runs past a blank line into a tag pair on line 3: a `}` is probably \
         missing (what comes up to the next `}` is read as the comment)"
    );
    // Commands on lines of their own, a bracket that starts no tag pair, a tag pair
    // without a blank line before it: no warning.
    for body in [
        "{\n\n[%evp 1,2]\n}",
        "{a\n\n[not a tag]}",
        "{a\n[White \"x\"]}",
        "{a\n\n[\"x\"]}",
    ] {
        let pgn = format!("1. e4 {body} *");
        assert_eq!(warned(pgn.as_bytes(), 4096), [], "{body:?}");
    }
}

#[test]
fn tags_that_go_on_after_a_blank_line_are_warned_about() {
    let warned = |pgn: &str| {
        PgnReader::new(pgn.as_bytes())
            .read_game(&mut Warned::default())
            .expect("read")
            .expect("a game")
    };
    for (pgn, at) in [
        ("[Event \"a\"]\n\n[Event \"b\"]\n\n1. e4 *", (13, 3)),
        ("[Event \"a\"]\r\n\r\n[Event \"b\"]\r\n\r\n1. e4 *", (15, 3)),
        (
            "[Event \"a\"]\n \t\n[Event \"b\"]\n[White \"c\"]\n\n[Site \"d\"]\n\n*",
            (15, 3),
        ),
    ] {
        let warnings = warned(pgn);
        let want = Warning {
            kind: WarningKind::TagsAfterBlankLine,
            at: Origin {
                offset: at.0,
                line: at.1,
                column: 1,
            },
        };
        assert_eq!(warnings, [want], "{pgn:?}");
    }
    assert_eq!(
        warned("[Event \"a\"]\n\n[Event \"b\"]\n\n*")[0].to_string(),
        "tag pairs go on after a blank line: the game before them may have no movetext \
         (read as one game with the tags of both)"
    );
    // Tag pairs on lines of their own, CRLF, an escape line between them: no warning.
    for pgn in [
        "[Event \"a\"]\n[White \"x\"]\n\n1. e4 *",
        "[Event \"a\"]\r\n[White \"x\"]\r\n\r\n1. e4 *",
        "[Event \"a\"]\n%escaped\n[White \"x\"]\n\n1. e4 *",
        "[Event \"a\"]\r\n%escaped\r\n[White \"x\"]\r\n\r\n1. e4 *",
        "[Event \"a\"] [White \"x\"]\n\n1. e4 *",
    ] {
        assert_eq!(warned(pgn), [], "{pgn:?}");
    }
}

#[test]
fn a_nag_before_the_first_move_is_dropped_with_a_warning() {
    use crate::Nag;
    for (pgn, nag, column, sans) in [
        ("$10 1. e4 e5 *", 10, 1, &["e4", "e5"][..]),
        ("{a drawish line} $10 1. e4 *", 10, 18, &["e4"]),
        ("1. e4 ($14 1. d4) e5 *", 14, 8, &["e4", "e5"]),
        ("!? 1. e4 *", 5, 1, &["e4"]),
    ] {
        let game: crate::pgn::Game = pgn.parse().expect("read");
        assert_eq!(mainline_sans(&game), sans, "{pgn}");
        assert_eq!(game.warnings.len(), 1, "{pgn}");
        let warning = game.warnings[0];
        assert_eq!(warning.kind, WarningKind::NagBeforeMove { nag: Nag(nag) });
        assert_eq!(warning.at.column, column, "{pgn}");
        assert_eq!(
            warning.to_string(),
            format!("NAG ${nag} before the first move annotates no move, dropped")
        );
        assert_eq!(warning.kind.level(), crate::pgn::Level::Warning);
    }
}

#[test]
fn en_passant_marks_are_dropped_with_a_warning() {
    for (pgn, column) in [
        ("1. e4 d5 2. e5 f5 3. exf6 e.p. Nxf6 *", 27),
        ("1. e4 d5 2. e5 f5 3. exf6e.p. Nxf6 *", 26),
        ("1. e4 d5 2. e5 f5 3. exf6 ep Nxf6 *", 27),
        ("1. e4 d5 2. e5 f5 3. exf6 e.p Nxf6 *", 27),
    ] {
        let game: crate::pgn::Game = pgn.parse().expect("read");
        assert_eq!(
            mainline_sans(&game),
            ["e4", "d5", "e5", "f5", "exf6", "Nxf6"],
            "{pgn}"
        );
        assert_eq!(game.warnings.len(), 1, "{pgn}");
        assert_eq!(game.warnings[0].kind, WarningKind::EnPassantMark);
        assert_eq!(game.warnings[0].at.column, column, "{pgn}");
        assert_eq!(
            game.warnings[0].to_string(),
            "`e.p.` after a move is not SAN, dropped"
        );
    }
    // Not a mark: `epx` and `e.q.` are still bad moves.
    for pgn in ["1. e4 epx *", "1. e4 e.q. *"] {
        assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
    }
}

#[test]
fn evaluation_symbols_as_text_are_read_as_nags_with_a_warning() {
    let glyph = |kind: &WarningKind| matches!(kind, WarningKind::TextGlyph { .. });
    let pgn = "1. e4 = e5 += 2. Nf3 +/- Nc6 -+ 3. Bb5 N a6 ± 4. Ba4 ∞ Nf6 =/∞ *";
    let (game, columns) = read_warned(pgn, glyph);
    assert_eq!(
        mainline_nags(&game),
        [
            vec![10],
            vec![14],
            vec![16],
            vec![19],
            vec![146],
            vec![16],
            vec![13],
            vec![44]
        ]
    );
    assert_eq!(columns, [7, 12, 22, 30, 40, 45, 55, 63]);
    assert_eq!(
        game.warnings[2].to_string(),
        "evaluation symbol written as text, read as the NAG $16"
    );
    // Glued to its move: the longest move that leaves a symbol.
    let (game, columns) = read_warned("1. e4± e5 2. O-O+/- Nf3+- *", glyph);
    assert_eq!(mainline_sans(&game), ["e4", "e5", "O-O", "Nf3"]);
    assert_eq!(mainline_nags(&game), [vec![16], vec![], vec![16], vec![18]]);
    // (Columns count bytes: `±` takes two.)
    assert_eq!(columns, [6, 18, 25]);
    // Not after a move, or not standing alone: still errors.
    for pgn in ["+- 1. e4 *", "1. e4 +/-x *", "1. e4 =Q *", "1. e4 e4+/-x *"] {
        assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
    }
}

#[test]
fn a_pawn_letter_is_dropped_with_a_warning() {
    let (game, columns) = read_warned("1. Pe4 d5 2. Pexd5 *", |kind| {
        *kind == WarningKind::PawnLetter
    });
    assert_eq!(mainline_sans(&game), ["e4", "d5", "exd5"]);
    assert_eq!(columns, [4, 14]);
    assert_eq!(
        game.warnings[0].to_string(),
        "pawn move written with `P`, read without it"
    );
    // `P` before anything but a pawn move is no move.
    assert!("1. PNf3 *".parse::<crate::pgn::Game>().is_err());
}

#[test]
fn lowercase_piece_letters_are_read_in_capitals_with_a_warning() {
    let pgn = "1. e4 e5 2. nf3 nc6 3. bc4 bc5 4. o-o qe7+! 5. re1 b5 6. bxc5 o-o-o *";
    let (game, columns) = read_warned(pgn, |kind| *kind == WarningKind::LowercasePiece);
    assert_eq!(
        mainline_sans(&game),
        [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Qe7+", "Re1", "b5", "bxc5", "O-O-O"
        ]
    );
    // One warning a lowercase move, at its first byte; `b5` and `bxc5` are pawn moves.
    assert_eq!(columns, [13, 17, 24, 28, 35, 39, 48, 63]);
    assert_eq!(
        game.warnings[0].to_string(),
        "piece letter or castling written in lowercase, read in capitals"
    );
    // Words are no moves: the error names the whole token, as before.
    for (pgn, token) in [
        ("1. e4 resign *", "resign"),
        ("1. e4 nf3nf3 *", "nf3nf3"),
        ("1. e4 ob *", "ob"),
        ("1. e4 kx *", "kx"),
    ] {
        let err = pgn.parse::<crate::pgn::Game>().expect_err(pgn);
        assert_eq!(err.kind(), ErrorKind::InvalidSan, "{pgn}");
        assert_eq!(err.span(), 6..6 + token.len(), "{pgn}");
    }
}

#[test]
fn moves_in_figurines_are_read_in_letters_with_a_warning() {
    let (game, columns) = read_warned(
        "1. e4 e5 2. ♘f3 ♞c6 3. ♗b5 a6 4. ♗xc6 dxc6 5. O-O ♕f6! 6. ♙d4 ♔e7 *",
        |kind| *kind == WarningKind::FigurineMove,
    );
    assert_eq!(
        mainline_sans(&game),
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Qf6", "d4", "Ke7"
        ]
    );
    assert_eq!(
        game.mainline.moves[9].nags.len(),
        1,
        "the `!` after a figurine move"
    );
    assert_eq!(columns, [13, 19, 28, 40, 59, 69, 75]);
    assert_eq!(
        game.warnings[0].to_string(),
        "move written with figurines, read with letters"
    );
    let promoted: crate::pgn::Game = "1. e4 d5 2. exd5 c6 3. dxc6 e5 4. cxb7 e4 5. bxa8=♕ *"
        .parse()
        .expect("read");
    assert_eq!(promoted.mainline.moves[8].san.to_string(), "bxa8=Q");
    // A figurine that makes no move is still an error.
    for pgn in ["1. e4 ♘ *", "1. e4 ♘x *", "1. e4 ♘f *"] {
        assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
    }
}

#[test]
fn typographic_results_are_passed_with_a_warning() {
    for (text, n) in [
        ("½-½ ", Some(5)),
        ("½–½\n", Some(7)),
        ("1–0", Some(5)),
        ("0—1)", Some(5)),
        ("1-0", None),
        ("½-0", None),
        ("1–1", None),
        ("½–½x", None),
        ("½", None),
    ] {
        assert_eq!(typographic_result(text.as_bytes()), n, "{text:?}");
    }
    let game: crate::pgn::Game = "[Result \"1/2-1/2\"]\n\n1. e4 e5 ½-½\n"
        .parse()
        .expect("read");
    assert_eq!(game.mainline.moves.len(), 2);
    let kinds: Vec<WarningKind> = game.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [WarningKind::TypographicResult, WarningKind::MissingResult]
    );
    assert_eq!(
        (game.warnings[0].at.line, game.warnings[0].at.column),
        (3, 10)
    );
    // A skipping reader ends the game where the reading one does.
    let pgn = "1. e4 e5 1–0 2. Nf3 *\n1. d4 ½-½ 1... d5 *\n\n1. c4 *\n".as_bytes();
    let mut skipping = PgnReader::new(pgn);
    let mut skipped = Vec::new();
    while let Some(start) = skipping.skip_game().expect("skip") {
        skipped.push(start.offset);
    }
    let read: Vec<u64> = PgnReader::new(pgn)
        .games()
        .map(|game| game.expect("read").start.offset)
        .collect();
    assert_eq!(read, [0, 24, 47]);
    assert_eq!(skipped, read);
}

#[test]
fn result_tokens() {
    assert!(is_result_token(b"1-0"));
    assert!(is_result_token(b"12.1/2-1/2"));
    assert!(is_result_token(b"3...*"));
    assert!(is_result_token(b".*"));
    assert!(is_result_token(b"1.2.0-1"));
    assert!(!is_result_token(b"1-0x"));
    assert!(!is_result_token(b"121-0"));
}

/// An input that gives its bytes, then a read error (a download cut in the middle).
struct CutInput<'a>(&'a [u8]);

impl Read for CutInput<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Err(io::Error::other("incomplete frame"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn a_read_error_comes_after_the_whole_games_buffered_before_it() {
    let mut pgn = Vec::new();
    for i in 0..1000 {
        pgn.extend(format!("[Event \"{i}\"]\n\n1. e4 e5 1-0\n\n").into_bytes());
    }
    pgn.extend(b"[Event \"1000\"]\n\n1. e4 e");
    // Whatever the buffer, every whole game, then the error in the cut game's place.
    for capacity in [MIN_CAPACITY, DEFAULT_CAPACITY] {
        let mut reader = PgnReader::with_capacity(capacity, CutInput(&pgn)).raw_games();
        let games: Vec<_> = reader.by_ref().take_while(Result::is_ok).collect();
        assert_eq!(games.len(), 1000, "capacity {capacity}");
        assert!(reader.next().is_none(), "nothing after the error");
        let read: Vec<_> = PgnReader::with_capacity(capacity, CutInput(&pgn))
            .games()
            .collect();
        assert_eq!(read.len(), 1001);
        assert!(read[..1000].iter().all(Result::is_ok));
        assert!(
            matches!(&read[1000], Err(ReadError::Io(e)) if e.to_string() == "incomplete frame")
        );
    }
}
