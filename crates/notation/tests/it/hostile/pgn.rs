//! Hostile inputs for the PGN reader: huge, deep, cut off, not text, or just messy. The big
//! inputs are generated on the fly by an `io::Read`, so that the memory measured is the
//! reader's, not the input's.

use std::io::{self, Read};

use tabia_notation::{
    ErrorKind,
    pgn::{
        Game, Origin, Outcome, PgnReader, RawComment, RawTag, ReadError, SanPlus, Visitor,
        WarningKind,
    },
};

use super::{MB, assert_linear, measuring};

/// Bytes made on the fly: `head`, then `body` repeated until `len` bytes of it, then `tail`.
struct Generated {
    parts: [(Vec<u8>, u64); 3],
    part: usize,
    done: u64,
}

impl Generated {
    fn new(head: &[u8], body: &[u8], len: usize, tail: &[u8]) -> Generated {
        Generated {
            parts: [
                (head.to_vec(), head.len() as u64),
                (body.to_vec(), len as u64),
                (tail.to_vec(), tail.len() as u64),
            ],
            part: 0,
            done: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some((bytes, len)) = self.parts.get(self.part) else {
                return Ok(0);
            };
            if self.done == *len || bytes.is_empty() {
                self.part += 1;
                self.done = 0;
                continue;
            }
            let mut n = 0;
            while n < buf.len() && self.done < *len {
                let at = (self.done % bytes.len() as u64) as usize;
                let take = (bytes.len() - at)
                    .min(buf.len() - n)
                    .min((*len - self.done) as usize);
                buf[n..n + take].copy_from_slice(&bytes[at..at + take]);
                n += take;
                self.done += take as u64;
            }
            return Ok(n);
        }
    }
}

/// What a game held, counted without keeping it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Counts {
    tags: usize,
    tag_bytes: usize,
    moves: usize,
    comments: usize,
    comment_bytes: usize,
    variations: usize,
    outcome: Option<Outcome>,
}

#[derive(Default)]
struct Counter(Counts);

impl Visitor for Counter {
    type Output = Counts;

    fn begin_game(&mut self, _start: Origin) -> tabia_notation::pgn::Skip {
        self.0 = Counts::default();
        tabia_notation::pgn::Skip(false)
    }

    fn tag(&mut self, _name: &[u8], value: RawTag<'_>) {
        self.0.tags += 1;
        self.0.tag_bytes += value.as_bytes().len();
    }

    fn san(&mut self, _san: SanPlus, _at: Origin) {
        self.0.moves += 1;
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.0.comment_bytes += comment.as_bytes().len();
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.0.comments += 1;
        self.0.comment_bytes += comment.as_bytes().len();
    }

    fn begin_variation(&mut self) -> tabia_notation::pgn::Skip {
        self.0.variations += 1;
        tabia_notation::pgn::Skip(false)
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.0.outcome = Some(outcome);
    }

    fn end_game(&mut self) -> Counts {
        std::mem::take(&mut self.0)
    }
}

/// Every game of `input` through the visitor: the counts of the good ones, the errors of the
/// bad ones, in input order.
fn visit(input: impl Read) -> Vec<Result<Counts, String>> {
    let mut reader = PgnReader::new(input);
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut Counter::default()) {
            Ok(Some(counts)) => out.push(Ok(counts)),
            Ok(None) => return out,
            Err(ReadError::Syntax { error, .. }) => out.push(Err(error.to_string())),
            Err(err) => panic!("{err}"),
        }
    }
}

/// Every game of `input` as owned trees, errors as their messages.
fn games(input: &[u8]) -> Vec<Result<Game, String>> {
    PgnReader::new(input)
        .games()
        .map(|g| g.map_err(|e| e.to_string()))
        .collect()
}

/// The error kinds and game counts of `input`, read three ways that must agree: owned games,
/// raw games parsed later, and skipped games (only counted).
fn kinds(input: &[u8]) -> Vec<Result<usize, ErrorKind>> {
    let owned: Vec<_> = PgnReader::new(input)
        .games()
        .map(|g| {
            g.map(|g| g.mainline.moves.len())
                .map_err(|e| e.syntax().map(|e| e.kind()).unwrap_or(ErrorKind::Io))
        })
        .collect();
    let raw: Vec<_> = PgnReader::new(input)
        .raw_games()
        .map(|raw| {
            raw.and_then(|raw| raw.parse())
                .map(|g| g.mainline.moves.len())
                .map_err(|e| e.syntax().map(|e| e.kind()).unwrap_or(ErrorKind::Io))
        })
        .collect();
    assert_eq!(owned, raw, "raw games parse differently");
    let mut skipper = PgnReader::new(input);
    let mut skipped = 0;
    while skipper.skip_game().expect("no I/O error").is_some() {
        skipped += 1;
    }
    assert_eq!(skipped, owned.len(), "skipping counts other games");
    owned
}

// --- huge and deep ---------------------------------------------------------------------------

#[test]
fn ten_megabytes_of_open_parens_stream_in_bounded_memory_and_linear_time() {
    let _guard = measuring();
    let run = |n: usize| {
        let out = visit(Generated::new(b"1. e4 ", b"(", n, b" *\n\n1. d4 1-0\n"));
        assert_eq!(out.len(), 2, "{out:?}");
        let err = out[0].as_ref().unwrap_err();
        assert!(
            err.starts_with("variation before any move at line 1, column 8"),
            "{err}"
        );
        assert_eq!(out[1].as_ref().map(|c| c.moves), Ok(1));
    };
    let [_, large] = assert_linear("nested (", run, 10 * MB / 8);
    assert!(large.peak < 16 * MB, "peak {} bytes", large.peak);
}

#[test]
fn deeply_nested_variations_build_export_and_drop_without_recursion() {
    let _guard = measuring();
    let text = |depth: usize| {
        let mut s = b"1. e4 ".to_vec();
        for _ in 0..depth {
            s.extend_from_slice(b"(1. d4 ");
        }
        s.extend(std::iter::repeat_n(b')', depth));
        s.extend_from_slice(b" 1-0");
        s
    };
    let inputs = [text(12_500), text(100_000)];
    assert_linear(
        "deep variations",
        |depth| {
            let game = Game::from_ascii(&inputs[usize::from(depth > 12_500)]).unwrap();
            let exported = game.to_string();
            // `assert!`, not `assert_eq!`: `Debug` of the tree recurses.
            assert!(Game::from_ascii(exported.as_bytes()) == Ok(game.with_roster()));
            exported.len()
        },
        12_500,
    );
}

#[test]
fn hundred_megabyte_comment_streams_in_pieces_in_bounded_memory() {
    let _guard = measuring();
    let run = |n: usize| {
        let out = visit(Generated::new(
            b"[Event \"long\"]\n\n1. e4 {",
            b"a comment \xc3\xa9 ",
            n,
            b"} e5 1-0\n",
        ));
        // Nothing lost: every byte of the comment reached the visitor.
        let counts = out[0].as_ref().unwrap();
        assert_eq!((counts.moves, counts.comment_bytes), (2, n));
        assert_eq!(counts.outcome, Some(Outcome::WhiteWins));
    };
    let [_, large] = assert_linear("long comment", run, 100 * MB / 8);
    assert!(large.peak < 16 * MB, "peak {} bytes", large.peak);
}

#[test]
fn megabyte_tag_value_is_an_error_then_the_next_game_is_read() {
    let _guard = measuring();
    let input = |n: usize| {
        let mut s = b"[Event \"".to_vec();
        s.resize(s.len() + n, b'v');
        s.extend_from_slice(b"\"]\n[Site \"x\"]\n\n1. e4 1-0\n\n[Event \"next\"]\n\n1. d4 0-1\n");
        s
    };
    // Both sizes over the longest tag line a reader takes (1 MiB), so that both take the same
    // path: a value under it is read, not scanned to its end as an error (8 times 128 KiB
    // measured the two paths' difference, 25–30× in release, not the growth of either).
    let inputs = [input(2 * MB), input(16 * MB)];
    let [_, large] = assert_linear(
        "long tag",
        |n| visit(&inputs[usize::from(n == 16 * MB)][..]),
        2 * MB,
    );
    assert!(large.peak < 16 * MB, "peak {} bytes", large.peak);
    let inputs = [input(MB / 8), input(MB)];
    let out = visit(&inputs[1][..]);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].is_err(), "{out:?}");
    assert_eq!(out[1].as_ref().map(|c| c.moves), Ok(1));
    // A reader with a buffer big enough keeps the value whole.
    let mut reader = PgnReader::with_capacity(4 * MB, &inputs[1][..]);
    let counts = reader.read_game(&mut Counter::default()).unwrap().unwrap();
    assert_eq!((counts.tags, counts.tag_bytes), (2, MB + 1));
}

#[test]
fn a_line_of_a_million_move_numbers_in_linear_time() {
    let _guard = measuring();
    let run = |n: usize| {
        let out = visit(Generated::new(b"", b"1. ", 3 * n, b"e4 *\n"));
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].as_ref().map(|c| c.moves), Ok(1), "{out:?}");
    };
    let [_, large] = assert_linear("move numbers", run, 1_000_000 / 8);
    assert!(large.peak < 16 * MB, "peak {} bytes", large.peak);
}

#[test]
fn hundred_thousand_empty_games_in_linear_time() {
    let _guard = measuring();
    let run = |n: usize| {
        let out = visit(Generated::new(b"", b"[Event \"?\"]\n\n*\n\n", 16 * n, b""));
        assert_eq!(out.len(), n);
        assert!(out.iter().all(|g| g.as_ref().is_ok_and(|c| c.moves == 0)));
        out.len()
    };
    let [_, large] = assert_linear("empty games", run, 100_000 / 8);
    assert!(large.peak < 16 * MB, "peak {} bytes", large.peak);
    // Without tags or blank lines, too.
    let bare = "*\n".repeat(100_000);
    assert_eq!(kinds(bare.as_bytes()).len(), 100_000);
}

// --- not text ---------------------------------------------------------------------------------

#[test]
fn nul_bytes_and_invalid_utf8_are_kept_or_reported() {
    let _guard = measuring();
    let input = b"[Event \"caf\xe9\"]\n[Site \"a\0b\"]\n\n1. e4 {\xff\xfe \0} e5 1-0\n\n\
                  [Event \"nul\"]\n\n1. e4 \0 e5 1-0\n\n[Event \"ok\"]\n\n1. d4 *\n";
    let out = games(input);
    assert_eq!(out.len(), 3, "{out:?}");
    let first = out[0].as_ref().unwrap();
    // Latin-1 where it is not UTF-8; NUL kept.
    assert_eq!(first.tag("Event"), Some("caf\u{e9}"));
    assert_eq!(first.tag("Site"), Some("a\0b"));
    assert_eq!(first.mainline.moves[0].comments, ["\u{ff}\u{fe} \0"]);
    assert_eq!(
        out[1].as_ref().unwrap_err(),
        "unexpected token in movetext at line 8, column 7\n  | 1. e4 \0 e5 1-0\n  |       ^"
    );
    assert!(out[2].is_ok());
    assert_eq!(
        kinds(input),
        [Ok(2), Err(ErrorKind::UnexpectedToken), Ok(1)]
    );
}

// --- cut off, unbalanced, missing --------------------------------------------------------------

const TWO_GAMES: &[u8] =
    b"[Event \"one\"]\n[Site \"here\"]\n\n1. e4 {a comment} e5 (1... c5 2. Nf3) \
                           2. Nf3 $1 Nc6 1-0\n\n[Event \"two\"]\n\n1. d4 d5 0-1\n";

#[test]
fn every_cut_of_a_file_reads_the_games_before_it_and_reports_the_rest() {
    let _guard = measuring();
    let first_end = TWO_GAMES.windows(3).position(|w| w == b"1-0").unwrap() + 3;
    let second_end = TWO_GAMES.windows(3).position(|w| w == b"0-1").unwrap() + 3;
    for end in 0..=TWO_GAMES.len() {
        let cut = &TWO_GAMES[..end];
        let read = kinds(cut);
        assert!(read.len() <= 2, "cut at {end}: {read:?}");
        // The games that are whole before the cut are read whole; nothing after them is
        // dropped silently: a cut game is an error or (cut after a move) a game without result.
        if end >= first_end {
            assert_eq!(read.first(), Some(&Ok(4)), "cut at {end}: {read:?}");
        }
        if end >= second_end {
            assert_eq!(read.get(1), Some(&Ok(2)), "cut at {end}: {read:?}");
        }
        let started = usize::from(end > 0) + usize::from(end > first_end + 2);
        assert_eq!(read.len(), started, "cut at {end}: {read:?}");
    }
}

#[test]
fn cut_mid_tag_mid_comment_mid_game_and_no_final_newline() {
    let _guard = measuring();
    let cases: [(&[u8], &str); 3] = [
        (
            b"[Event \"one\"]\n[Site \"he",
            "unterminated string (expected `\"` before the line end) at line 2, column 7\n  \
             | [Site \"he\n  |       ^",
        ),
        (
            b"[Event \"one\"]\n\n1. e4 {a comm",
            "comment not closed by `}` at line 3, column 7\n  | 1. e4 {a comm\n  |       ^",
        ),
        (b"1. e4 e5 1-0", ""),
    ];
    for (input, message) in cases {
        let out = games(input);
        assert_eq!(out.len(), 1, "{out:?}");
        match &out[0] {
            Ok(game) => assert_eq!((message, game.result), ("", Outcome::WhiteWins)),
            Err(err) => assert_eq!(err, message),
        }
    }
    // Cut after a move: the game is read, as ending with `*`, with a warning after its last
    // token.
    let game = PgnReader::new(&b"[Event \"one\"]\n\n1. e4 e5 2. Nf3"[..])
        .games()
        .next()
        .expect("a game")
        .expect("read");
    assert_eq!(
        (game.result, game.mainline.moves.len()),
        (Outcome::Unknown, 3)
    );
    let w = game.warnings[0];
    assert_eq!(
        (w.kind, w.at.line, w.at.column, w.at.offset),
        (WarningKind::MissingResult, 3, 16, 30)
    );
}

#[test]
fn games_without_blank_lines_or_results() {
    let _guard = measuring();
    let input = b"[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1\n1. c4 *\n\
                  [Event \"no result\"]\n\n1. e4 e5\n\n[Event \"c\"]\n\n1. Nf3 1/2-1/2";
    assert_eq!(kinds(input), [Ok(1), Ok(1), Ok(1), Ok(2), Ok(1)]);
}

#[test]
fn unbalanced_braces_and_parens_are_reported_and_the_reader_goes_on() {
    let _guard = measuring();
    for (bad, kind) in [
        (&b"1. e4 { open 1-0\n\n"[..], ErrorKind::UnterminatedComment),
        (b"1. e4 } 1-0\n\n", ErrorKind::UnexpectedCloseBrace),
        (b"1. e4 (1. d4 1-0\n\n", ErrorKind::UnclosedVariation),
        (b"1. e4 ) 1-0\n\n", ErrorKind::UnmatchedCloseParen),
        (b"( 1. e4 1-0\n\n", ErrorKind::VariationWithoutMove),
    ] {
        let mut input = bad.to_vec();
        input.extend_from_slice(b"[Event \"next\"]\n\n1. d4 *\n");
        let read = kinds(&input);
        let last = read.last().cloned();
        assert_eq!(
            read.first(),
            Some(&Err(kind)),
            "{:?}",
            String::from_utf8_lossy(bad)
        );
        // An unclosed comment swallows the rest of the file; otherwise the next game is read.
        if kind != ErrorKind::UnterminatedComment {
            assert_eq!((read.len(), last), (2, Some(Ok(1))), "{read:?}");
        }
    }
}

#[test]
fn percent_escape_line_inside_movetext_is_skipped() {
    let _guard = measuring();
    let input = b"[Event \"esc\"]\n\n1. e4\n% an escape { ( ) } 1-0 junk\ne5 2. Nf3 1-0\n";
    let out = games(input);
    let game = out[0].as_ref().unwrap();
    let moves: Vec<String> = game
        .mainline
        .moves
        .iter()
        .map(|m| m.san.to_string())
        .collect();
    assert_eq!(moves, ["e4", "e5", "Nf3"]);
    assert_eq!(out.len(), 1);
}

#[test]
fn owned_trees_of_a_large_file_take_time_linear_in_its_size() {
    let _guard = measuring();
    let game =
        b"[Event \"e\"]\n[White \"w\"]\n\n1. e4 {c} e5 (1... c5 2. Nf3 $1) 2. Nf3 Nc6 1-0\n\n";
    let inputs = [game.repeat(2_500), game.repeat(20_000)];
    let [small, _] = assert_linear(
        "owned games",
        |n| {
            let read = games(&inputs[usize::from(n > 2_500)]);
            assert_eq!(read.len(), n);
            read
        },
        2_500,
    );
    assert!(small.time.as_nanos() > 0);
}

// --- regressions found by fuzzing and by the corpus -------------------------------------------

/// TCEC files put comments after the result, on its line and the next ones: they belong to
/// the game. They were read as the start of a next game without result, which made 232 false
/// errors (and as many extra games) out of the 2,152 games of `tcec-slice.pgn.zst`.
#[test]
fn comments_after_the_result_belong_to_the_game() {
    let _guard = measuring();
    let input = b"[Event \"a\"]\n\n1. d4 d5 0-1 ; { Game Nr. 1 : Rybka wins }\n\n\
                  [Event \"b\"]\n\n1. e4 1/2-1/2 \r\n; { Game Nr. 2 : draw\r\n; by agreement }\r\n\r\n\
                  [Event \"c\"]\n\n1. c4 * {after} {two}\n\n{next game} 1. Nf3 *\n";
    assert_eq!(kinds(input), [Ok(2), Ok(1), Ok(1), Ok(1)]);
    let out = games(input);
    let comments = |g: &Result<Game, String>| {
        g.as_ref()
            .unwrap()
            .mainline
            .moves
            .last()
            .unwrap()
            .comments
            .clone()
    };
    assert_eq!(comments(&out[0]), [" { Game Nr. 1 : Rybka wins }"]);
    assert_eq!(
        comments(&out[1]),
        [" { Game Nr. 2 : draw", " by agreement }"]
    );
    assert_eq!(comments(&out[2]), ["after", "two"]);
    // After a blank line, a comment starts the next game.
    assert_eq!(out[3].as_ref().unwrap().mainline.comments, ["next game"]);
    // A game alone: the comments are part of what it took.
    let (game, used) = Game::prefix(b"1. e4 1-0 {c}\n\n1. d4 *").unwrap();
    assert_eq!((game.mainline.moves[0].comments.len(), used), (1, 13));
    let (_, used) = Game::prefix(b"1. e4 1-0\n\n1. d4 *").unwrap();
    assert_eq!(used, 9);
}

/// The error span of a token longer than the reader's lookahead depended on how much was
/// buffered (found by the `reader` fuzz target: whole input and one byte per `read` gave
/// 35..346 and 35..291).
#[test]
fn span_of_an_overlong_token_does_not_depend_on_the_buffer() {
    let _guard = measuring();
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'\x8c', 1000));
    input.extend_from_slice(b" 1-0\n");
    let whole = PgnReader::new(&input[..]).read_game(&mut Counter::default());
    let trickled = PgnReader::with_capacity(4096, super::lossless::Trickle(&input))
        .read_game(&mut Counter::default());
    let span = |r: Result<Option<Counts>, ReadError>| r.unwrap_err().syntax().unwrap().span();
    assert_eq!(span(whole), 6..262);
    assert_eq!(span(trickled), 6..262);
}

/// Same for a malformed move number longer than the lookahead (found by the `reader` target).
#[test]
fn span_of_an_overlong_move_number_does_not_depend_on_the_buffer() {
    let _guard = measuring();
    let mut input = b"1".to_vec();
    input.extend(std::iter::repeat_n(0, 20));
    input.extend(std::iter::repeat_n(b'f', 500));
    input.extend_from_slice(b" e5 *\n");
    let whole = PgnReader::new(&input[..]).read_game(&mut Counter::default());
    let trickled = PgnReader::with_capacity(4096, super::lossless::Trickle(&input))
        .read_game(&mut Counter::default());
    let error = |r: Result<Option<Counts>, ReadError>| {
        let err = r.unwrap_err();
        let err = err.syntax().unwrap();
        (err.kind(), err.span())
    };
    assert_eq!(error(whole), error(trickled));
}

/// Where a missing result is shown (after the last token) depended on whether that token was
/// still buffered (found by the `reader` target): now the reader remembers the last token that
/// left its buffer.
#[test]
fn missing_result_is_shown_at_the_same_place_whichever_way_the_bytes_arrive() {
    let _guard = measuring();
    let mut input = b"[Event \"a\"]\n\n1. e4 e5".to_vec();
    input.extend(std::iter::repeat_n(b'\n', 600));
    input.extend_from_slice(b"[Event \"b\"]\n\n1. d4 *\n");
    let whole = PgnReader::new(&input[..]).games().next();
    let trickled = PgnReader::with_capacity(4096, super::lossless::Trickle(&input))
        .games()
        .next();
    let warning = |g: Option<Result<Game, ReadError>>| {
        let game = g.expect("a game").expect("read, with a warning");
        let w = game.warnings[0];
        (w.kind, w.at.offset, w.at.line, w.at.column)
    };
    let expected = (WarningKind::MissingResult, 21, 3, 9);
    assert_eq!(warning(whole), expected);
    assert_eq!(warning(trickled), expected);
}
