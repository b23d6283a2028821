//! The visitor: what the reader tells about a game, event by event, without allocating.

use super::{Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Warning};

/// Whether to skip what was just begun (a game, its movetext, or a variation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[must_use]
pub struct Skip(pub bool);

/// Receives the parts of each game from a [`Reader`](super::Reader).
///
/// For each game the reader calls, in this order:
///
/// 1. [`begin_game`](Visitor::begin_game), where the visitor resets its state (a game that
///    turned out bad leaves no [`end_game`](Visitor::end_game) behind it);
/// 2. [`tag`](Visitor::tag) for each tag pair;
/// 3. [`begin_movetext`](Visitor::begin_movetext);
/// 4. in input order: [`san`](Visitor::san), [`nag`](Visitor::nag),
///    [`comment`](Visitor::comment) (after [`partial_comment`](Visitor::partial_comment) for the
///    pieces of a comment longer than the reader's buffer),
///    [`begin_variation`](Visitor::begin_variation), [`end_variation`](Visitor::end_variation);
///    then [`outcome`](Visitor::outcome) (after [`warning`](Visitor::warning) when the
///    result is missing);
/// 5. [`end_game`](Visitor::end_game), whose value `read_game` returns.
///
/// Every method but `end_game` has a default that ignores its event; `begin_variation` visits
/// variations by default. The events of a game are only promised to be well-formed once
/// `end_game` is called: if the game has a syntax error, `read_game` returns the error instead.
pub trait Visitor {
    /// What [`Visitor::end_game`] produces for a game.
    type Output;

    /// A game starts at `start` (its first byte). Return `Skip(true)` to skip it: the reader
    /// then only looks for its end and calls `end_game`.
    fn begin_game(&mut self, start: Origin) -> Skip {
        let _ = start;
        Skip(false)
    }

    /// A tag pair, like `[White "Deep Blue"]`: `name` is `White`, `value` holds `Deep Blue`.
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let _ = (name, value);
    }

    /// The tags are over. Return `Skip(true)` to skip the movetext (then `end_game` follows).
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    /// A move, like `Nf3+`, whose first byte is at `at`.
    fn san(&mut self, san: SanPlus, at: Origin) {
        let _ = (san, at);
    }

    /// Asked after each move of the mainline: return `Skip(true)` to skip the rest of the
    /// movetext, as a visitor that only needs the first moves does (an opening classifier).
    /// The reader then only looks for the end of the game, unchecked, and calls
    /// [`end_game`](Visitor::end_game) (no [`outcome`](Visitor::outcome)).
    fn skip_rest(&mut self) -> Skip {
        Skip(false)
    }

    /// A numeric annotation glyph, `$n` or one of the suffixes `! ? !! ?? !? ?!` (NAGs 1–6).
    fn nag(&mut self, nag: Nag) {
        let _ = nag;
    }

    /// A piece of a comment that is longer than the reader's buffer; the last piece comes in
    /// [`Visitor::comment`]. Pieces never cut a UTF-8 sequence in two. By default each piece is
    /// passed to [`Visitor::comment`], so long comments look like several.
    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.comment(comment);
    }

    /// A comment: `{ text }` or `; text` (the text without its delimiters).
    fn comment(&mut self, comment: RawComment<'_>) {
        let _ = comment;
    }

    /// A `(` opens a variation: an alternative to the move just before it. Return `Skip(true)`
    /// to skip it (then no `end_variation` follows for it; a skipped variation is only scanned
    /// for its end, not checked for syntax errors).
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// A `)` closes the variation opened last.
    fn end_variation(&mut self) {}

    /// The game termination marker.
    fn outcome(&mut self, outcome: Outcome) {
        let _ = outcome;
    }

    /// The reader repaired something in the game (a missing result, read as `*`: then
    /// [`outcome`](Visitor::outcome) follows with [`Outcome::Unknown`]).
    fn warning(&mut self, warning: Warning) {
        let _ = warning;
    }

    /// The game is over (or was skipped).
    fn end_game(&mut self) -> Self::Output;
}
