//! The visitor: what the reader tells about a game, event by event, without allocating.

use super::{Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Warning};

/// Whether to skip what was just begun (a game, its movetext, or a variation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[must_use]
pub struct Skip(pub bool);

/// Receives the parts of each game from a [`PgnReader`](super::PgnReader).
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

/// Two visitors reading the same game at once: every event goes to both, and the game's
/// output is the pair of theirs. What one of them asks to skip (the game, the movetext, the
/// rest of it, a variation) it does not hear of, while the other still does; the reader skips
/// a part only when both ask to.
///
/// ```
/// use tabia_notation::pgn::{Both, Origin, RawTag, PgnReader, SanPlus, Skip, Visitor};
///
/// /// The moves of the mainline (variations skipped).
/// #[derive(Default)]
/// struct Mainline(Vec<String>);
/// impl Visitor for Mainline {
///     type Output = Vec<String>;
///     fn begin_game(&mut self, _: Origin) -> Skip {
///         self.0.clear();
///         Skip(false)
///     }
///     fn san(&mut self, san: SanPlus, _: Origin) {
///         self.0.push(san.to_string());
///     }
///     fn begin_variation(&mut self) -> Skip {
///         Skip(true)
///     }
///     fn end_game(&mut self) -> Vec<String> {
///         std::mem::take(&mut self.0)
///     }
/// }
/// /// Every move, variations included.
/// #[derive(Default)]
/// struct Moves(usize);
/// impl Visitor for Moves {
///     type Output = usize;
///     fn begin_game(&mut self, _: Origin) -> Skip {
///         self.0 = 0;
///         Skip(false)
///     }
///     fn san(&mut self, _: SanPlus, _: Origin) {
///         self.0 += 1;
///     }
///     fn end_game(&mut self) -> usize {
///         self.0
///     }
/// }
///
/// let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *";
/// let mut both = Both::new(Mainline::default(), Moves::default());
/// let game = PgnReader::new(pgn.as_bytes()).read_game(&mut both)?;
/// assert_eq!(game, Some((vec!["e4".to_owned(), "e5".to_owned(), "Nf3".to_owned()], 6)));
/// # Ok::<_, tabia_notation::pgn::ReadError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Both<A, B> {
    first: A,
    second: B,
    /// For each visitor: 0 when it hears the events; the depth of nested variations inside
    /// the variation it skipped; [`SKIPPED`] when it skipped the game, the movetext or the
    /// rest of it.
    levels: [u32; 2],
}

/// A [`Both`] level: the rest of the game is skipped.
const SKIPPED: u32 = u32::MAX;

impl<A, B> Both<A, B> {
    /// Both visitors, the first one's output first.
    pub fn new(first: A, second: B) -> Both<A, B> {
        Both {
            first,
            second,
            levels: [0, 0],
        }
    }

    /// The first visitor.
    pub fn first(&self) -> &A {
        &self.first
    }

    /// The second visitor.
    pub fn second(&self) -> &B {
        &self.second
    }

    /// The two visitors.
    pub fn into_inner(self) -> (A, B) {
        (self.first, self.second)
    }
}

impl<A: Visitor, B: Visitor> Both<A, B> {
    /// Calls `f` on each visitor that hears events now, and notes which ask to skip the rest.
    fn ask(&mut self, f: impl Fn(&mut dyn Asked) -> Skip) -> Skip {
        if self.levels[0] == 0 && f(&mut self.first).0 {
            self.levels[0] = SKIPPED;
        }
        if self.levels[1] == 0 && f(&mut self.second).0 {
            self.levels[1] = SKIPPED;
        }
        Skip(self.levels == [SKIPPED, SKIPPED])
    }

    /// Calls `f` on each visitor that hears events now.
    fn tell(&mut self, f: impl Fn(&mut dyn Asked)) {
        if self.levels[0] == 0 {
            f(&mut self.first);
        }
        if self.levels[1] == 0 {
            f(&mut self.second);
        }
    }
}

/// The events of a [`Visitor`] without its output, so that [`Both`] can pass one to either.
trait Asked {
    fn tag(&mut self, name: &[u8], value: RawTag<'_>);
    fn begin_movetext(&mut self) -> Skip;
    fn san(&mut self, san: SanPlus, at: Origin);
    fn skip_rest(&mut self) -> Skip;
    fn nag(&mut self, nag: Nag);
    fn partial_comment(&mut self, comment: RawComment<'_>);
    fn comment(&mut self, comment: RawComment<'_>);
    fn outcome(&mut self, outcome: Outcome);
    fn warning(&mut self, warning: Warning);
}

impl<V: Visitor> Asked for V {
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        Visitor::tag(self, name, value);
    }
    fn begin_movetext(&mut self) -> Skip {
        Visitor::begin_movetext(self)
    }
    fn san(&mut self, san: SanPlus, at: Origin) {
        Visitor::san(self, san, at);
    }
    fn skip_rest(&mut self) -> Skip {
        Visitor::skip_rest(self)
    }
    fn nag(&mut self, nag: Nag) {
        Visitor::nag(self, nag);
    }
    fn partial_comment(&mut self, comment: RawComment<'_>) {
        Visitor::partial_comment(self, comment);
    }
    fn comment(&mut self, comment: RawComment<'_>) {
        Visitor::comment(self, comment);
    }
    fn outcome(&mut self, outcome: Outcome) {
        Visitor::outcome(self, outcome);
    }
    fn warning(&mut self, warning: Warning) {
        Visitor::warning(self, warning);
    }
}

impl<A: Visitor, B: Visitor> Visitor for Both<A, B> {
    type Output = (A::Output, B::Output);

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.levels = [
            if self.first.begin_game(start).0 {
                SKIPPED
            } else {
                0
            },
            if self.second.begin_game(start).0 {
                SKIPPED
            } else {
                0
            },
        ];
        Skip(self.levels == [SKIPPED, SKIPPED])
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.tell(|v| v.tag(name, value));
    }

    fn begin_movetext(&mut self) -> Skip {
        self.ask(|v| v.begin_movetext())
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        self.tell(|v| v.san(san, at));
    }

    fn skip_rest(&mut self) -> Skip {
        self.ask(|v| v.skip_rest())
    }

    fn nag(&mut self, nag: Nag) {
        self.tell(|v| v.nag(nag));
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.tell(|v| v.partial_comment(comment));
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.tell(|v| v.comment(comment));
    }

    fn begin_variation(&mut self) -> Skip {
        let before = self.levels;
        let mut next = before;
        for (i, level) in next.iter_mut().enumerate() {
            *level = match *level {
                0 => {
                    let skip = if i == 0 {
                        self.first.begin_variation()
                    } else {
                        self.second.begin_variation()
                    };
                    u32::from(skip.0)
                }
                SKIPPED => SKIPPED,
                deeper => deeper + 1,
            };
        }
        if next.iter().all(|&l| l > 0) {
            // The reader skips it: no event of it, nor its end, comes.
            self.levels = before;
            Skip(true)
        } else {
            self.levels = next;
            Skip(false)
        }
    }

    fn end_variation(&mut self) {
        for i in 0..2 {
            match self.levels[i] {
                0 if i == 0 => self.first.end_variation(),
                0 => self.second.end_variation(),
                SKIPPED => {}
                _ => self.levels[i] -= 1,
            }
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.tell(|v| v.outcome(outcome));
    }

    fn warning(&mut self, warning: Warning) {
        self.tell(|v| v.warning(warning));
    }

    fn end_game(&mut self) -> Self::Output {
        (self.first.end_game(), self.second.end_game())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    /// Writes down what it hears; skips what `skip` names (`variations`, `rest` after the
    /// first move, `movetext`).
    #[derive(Default)]
    struct Log {
        skip: &'static str,
        heard: String,
    }

    impl Visitor for Log {
        type Output = String;
        fn begin_game(&mut self, _: Origin) -> Skip {
            self.heard.clear();
            Skip(false)
        }
        fn begin_movetext(&mut self) -> Skip {
            Skip(self.skip == "movetext")
        }
        fn san(&mut self, san: SanPlus, _: Origin) {
            self.heard.push_str(&format!("{san} "));
        }
        fn skip_rest(&mut self) -> Skip {
            Skip(self.skip == "rest")
        }
        fn begin_variation(&mut self) -> Skip {
            self.heard.push_str("( ");
            Skip(self.skip == "variations")
        }
        fn end_variation(&mut self) {
            self.heard.push_str(") ");
        }
        fn outcome(&mut self, outcome: Outcome) {
            self.heard.push_str(&format!("{outcome:?}"));
        }
        fn end_game(&mut self) -> String {
            std::mem::take(&mut self.heard)
        }
    }

    fn both(a: &'static str, b: &'static str) -> (String, String) {
        let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) d6) 2. Nf3 (2. Bc4) Nc6 1-0";
        let mut both = Both::new(
            Log {
                skip: a,
                ..Log::default()
            },
            Log {
                skip: b,
                ..Log::default()
            },
        );
        PgnReader::new(pgn.as_bytes())
            .read_game(&mut both)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn each_visitor_hears_only_what_it_did_not_skip() {
        let all = "e4 e5 ( c5 Nf3 ( c3 d5 ) d6 ) Nf3 ( Bc4 ) Nc6 WhiteWins";
        assert_eq!(both("", ""), (all.to_owned(), all.to_owned()));
        assert_eq!(
            both("variations", ""),
            ("e4 e5 ( Nf3 ( Nc6 WhiteWins".to_owned(), all.to_owned())
        );
        assert_eq!(both("", "rest"), (all.to_owned(), "e4 ".to_owned()));
        assert_eq!(both("movetext", "variations").0, "");
        assert_eq!(
            both("movetext", "variations").1,
            "e4 e5 ( Nf3 ( Nc6 WhiteWins"
        );
        // Both skip: the reader skips, and neither hears the parts skipped.
        assert_eq!(
            both("variations", "variations"),
            (
                "e4 e5 ( Nf3 ( Nc6 WhiteWins".to_owned(),
                "e4 e5 ( Nf3 ( Nc6 WhiteWins".to_owned()
            )
        );
    }
}
