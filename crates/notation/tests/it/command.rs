//! Commands in comments: parse ∘ write is the identity on any comment text, generated commands
//! are found among any text, stripping removes exactly what is asked, and a game's export keeps
//! its commands byte for byte.

use proptest::prelude::*;
use tabia_notation::{
    Square,
    pgn::{
        Arrow, Command, CommandKind, Comment, CommentPart, Eval, Game, MarkColor, Score,
        SquareMark, strip_commands,
    },
};

/// Text that cannot form or break a command (no brackets).
fn plain() -> impl Strategy<Value = String> {
    "[a-z0-9 .,:#%+\\-é\n]{0,12}"
}

fn color() -> impl Strategy<Value = MarkColor> {
    prop::sample::select(vec![
        MarkColor::Green,
        MarkColor::Red,
        MarkColor::Yellow,
        MarkColor::Blue,
    ])
}

fn square() -> impl Strategy<Value = Square> {
    (0u8..64).prop_map(|i| Square::new(i).expect("index below 64"))
}

fn command() -> impl Strategy<Value = Command<'static>> {
    let score = prop_oneof![
        (-100_000i32..100_000).prop_map(Score::Cp),
        (-300i32..300).prop_map(Score::Mate),
    ];
    prop_oneof![
        (0u64..400_000_000).prop_map(Command::Clock),
        (0u64..400_000_000).prop_map(Command::Emt),
        (score, proptest::option::of(0u32..100))
            .prop_map(|(score, depth)| Command::Eval(Eval { score, depth })),
        prop::collection::vec(
            (color(), square()).prop_map(|(color, square)| SquareMark { color, square }),
            1..4
        )
        .prop_map(Command::Squares),
        prop::collection::vec(
            (color(), square(), square()).prop_map(|(color, from, to)| Arrow { color, from, to }),
            1..4
        )
        .prop_map(Command::Arrows),
        ("[a-z]{1,5}", "[a-z0-9,\" ]{0,8}").prop_filter_map("a known name", |(name, args)| {
            let args = args.trim().to_owned();
            (!matches!(name.as_str(), "clk" | "emt" | "eval" | "csl" | "cal")).then(|| {
                Command::Other {
                    name: name.into(),
                    args: args.into(),
                }
            })
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text at all: written back byte for byte, and read again the same.
    #[test]
    fn any_text_survives(text in ".{0,40}") {
        let comment = Comment::parse(&text);
        let written = comment.to_string();
        prop_assert_eq!(&written, &text);
        prop_assert_eq!(Comment::parse(&written), comment);
    }

    /// Text made of command fragments, which often almost read.
    #[test]
    fn fragments_survive(parts in prop::collection::vec(prop::sample::select(vec![
        "[%", "]", "[", "clk", "eval", "csl", "cal", "emt", "x", " ", "0:01:00", "1:2", "#-3", "0.5",
        ",", ",23", "Ga4", "Ge2e4", "\n", ".7",
    ]), 0..16)) {
        let text = parts.concat();
        let comment = Comment::parse(&text);
        prop_assert_eq!(comment.to_string(), text.clone());
        // Every command read writes back to its raw text... and reads back to itself.
        for piece in comment.pieces() {
            if let CommentPart::Command { raw, command } = piece {
                let again = Command::parse(raw);
                prop_assert_eq!(again.as_ref(), Some(command));
                let canonical = command.to_string();
                let again = Command::parse(&canonical);
                prop_assert_eq!(again.as_ref(), Some(command));
            }
        }
    }

    /// Commands placed among text are all found, in order, with the text around them kept.
    #[test]
    fn commands_among_text(items in prop::collection::vec((plain(), command()), 0..5), tail in plain()) {
        let mut text = String::new();
        for (before, command) in &items {
            text.push_str(before);
            text.push_str(&command.to_string());
        }
        text.push_str(&tail);
        let comment = Comment::parse(&text);
        let found: Vec<_> = comment.commands().cloned().collect();
        let given: Vec<_> = items.iter().map(|(_, c)| c.clone()).collect();
        prop_assert_eq!(found, given);
        prop_assert_eq!(comment.to_string(), text.clone());
        let words: Vec<&str> = items.iter().map(|(t, _)| t.as_str()).chain([tail.as_str()])
            .flat_map(str::split_ascii_whitespace).collect();
        let text_words: Vec<String> = comment.text().split_ascii_whitespace().map(str::to_owned).collect();
        prop_assert_eq!(text_words, words);
    }

    /// Stripping removes the commands of the kinds asked, keeps the others in order, and keeps
    /// the words of the text.
    #[test]
    fn strip_keeps_the_rest(items in prop::collection::vec((plain(), command()), 0..5), tail in plain(),
                            kinds in prop::collection::vec(prop::sample::select(vec![
                                CommandKind::Clock, CommandKind::Emt, CommandKind::Eval,
                                CommandKind::Squares, CommandKind::Arrows, CommandKind::Other]), 0..4)) {
        let mut text = String::new();
        for (before, command) in &items {
            text.push_str(before);
            text.push_str(&command.to_string());
        }
        text.push_str(&tail);
        let stripped = strip_commands(&text, &kinds);
        let left = Comment::parse(&stripped);
        let kept: Vec<_> = items.iter().map(|(_, c)| c.clone()).filter(|c| !kinds.contains(&c.kind())).collect();
        prop_assert_eq!(left.commands().cloned().collect::<Vec<_>>(), kept);
        let (left_text, text_text) = (left.text(), Comment::parse(&text).text());
        prop_assert_eq!(left_text.split_ascii_whitespace().collect::<Vec<_>>(),
                        text_text.split_ascii_whitespace().collect::<Vec<_>>());
        // Stripping again changes nothing.
        prop_assert_eq!(strip_commands(&stripped, &kinds), stripped.clone());
    }
}

/// The export of a game keeps its commands byte for byte, in the command syntax.
#[test]
fn export_keeps_commands() {
    let pgn = "[Event \"x\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 \
               { [%eval -1.2,23] [%clk 0:04:55.7] [%emt 0:00:07] } 2. Nf3 { [%csl Ga4,Rb5] \
               [%cal Ge2e4,Rd1h5] [%evp 1,2] } 2... Nc6 {[%eval #-3]} 1-0";
    let game: Game = pgn.parse().expect("a game");
    let written = game.to_string();
    for command in [
        "[%eval 0.17]",
        "[%clk 0:03:00]",
        "[%eval -1.2,23]",
        "[%clk 0:04:55.7]",
        "[%emt 0:00:07]",
        "[%csl Ga4,Rb5]",
        "[%cal Ge2e4,Rd1h5]",
        "[%evp 1,2]",
        "[%eval #-3]",
    ] {
        assert!(written.contains(command), "{command} lost:\n{written}");
    }
    let back: Game = written.parse().expect("the export reads");
    assert_eq!(back, game.with_roster());
    let comments: Vec<Comment<'_>> = back
        .mainline
        .moves
        .iter()
        .map(|m| Comment::parse(&m.comments[0]))
        .collect();
    assert_eq!(comments[0].clock(), Some(180_000));
    assert_eq!(
        comments[1].eval(),
        Some(Eval {
            score: Score::Cp(-120),
            depth: Some(23)
        })
    );
    assert_eq!(comments[1].emt(), Some(7_000));
    assert_eq!(comments[2].commands().count(), 3);
    assert_eq!(
        comments[3].eval(),
        Some(Eval {
            score: Score::Mate(-3),
            depth: None
        })
    );
}
