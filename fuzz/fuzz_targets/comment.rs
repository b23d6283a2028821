//! Comments and their embedded commands (`[%clk]`, `[%eval]`, `[%csl]`, `[%cal]`, any
//! `[%name args]`): any text split into pieces is written back byte for byte; every command
//! read writes back to text that reads as the same command; the typed values agree with the
//! commands; removing commands of some kinds keeps the others, and leaves none of those kinds
//! but what the text around them spells once joined (`[%eval [%clk 0:01:00] 0]` is an `[%eval`
//! that did not read, then a clock: without the clock, `[%eval 0]` reads).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::pgn::{Command, CommandKind, Comment, CommentPart};

fn check(text: &str) {
    let comment = Comment::parse(text);
    assert_eq!(comment.to_string(), text, "not written back byte for byte");
    let joined: String = comment.pieces().iter().map(CommentPart::as_str).collect();
    assert_eq!(joined, text);
    for piece in comment.pieces() {
        if let CommentPart::Command { raw, command } = piece {
            assert_eq!(Command::parse(raw).as_ref(), Some(command), "{raw:?}");
            let written = command.to_string();
            assert_eq!(
                Command::parse(&written).as_ref(),
                Some(command),
                "{raw:?} written {written:?}"
            );
        }
    }
    if let Some(clock) = Comment::lone_clock(text.as_bytes()) {
        assert_eq!(comment.clock(), Some(clock), "{text:?}");
    }
    let _ = (comment.emt(), comment.eval(), comment.text());
    let kinds = [CommandKind::Clock, CommandKind::Eval, CommandKind::Arrows];
    let stripped = comment.without(&kinds);
    let again = Comment::parse(&stripped);
    let spelled = again
        .commands()
        .filter(|c| kinds.contains(&c.kind()))
        .count();
    let openers: usize = comment
        .pieces()
        .iter()
        .filter_map(|p| match p {
            CommentPart::Text(t) => Some(t.matches("[%").count()),
            CommentPart::Command { .. } => None,
        })
        .sum();
    assert!(spelled <= openers, "{text:?} stripped to {stripped:?}");
    for piece in comment.pieces() {
        if let CommentPart::Command { raw, command } = piece
            && !kinds.contains(&command.kind())
        {
            assert!(
                stripped.contains(raw),
                "{raw:?} lost from {text:?}: {stripped:?}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check(&text);
    // The bodies of the `{...}` comments of a PGN.
    for body in text.split('{').skip(1).filter_map(|s| s.split_once('}')) {
        check(body.0);
    }
});
