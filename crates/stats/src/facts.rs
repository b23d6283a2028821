//! What the statistics keep of one game while it is read: the facts, gathered from the
//! reader's events, added to a [`Stats`](crate::Stats) only once the game was read whole.

use std::borrow::Cow;

use tabia_notation::{
    Color,
    pgn::{
        Command, CommentPart, CommentParts, Origin, Outcome, RawComment, RawTag, SanPlus, Score,
        Skip, Visitor, Warning,
    },
};

use crate::{
    hash::name_hash,
    lichess,
    tags::{Speed, date, rating},
};

/// The facts of one game that [`Stats`](crate::Stats) counts, gathered event by event.
///
/// [`GameFacts`] is a [`Visitor`] of tabia-notation's reader (variations are skipped unread:
/// only their presence is counted), and its event methods ([`GameFacts::tag`],
/// [`GameFacts::mainline_move`], …) can be driven by any other reader. Call
/// [`GameFacts::clear`] before each game (the visitor does it in `begin_game`); nothing is
/// allocated per game once the buffers for the event, variant and ECO values have grown.
///
/// ```
/// use tabia_notation::pgn::{Outcome, PgnReader};
/// use tabia_stats::{GameFacts, Speed, Stats};
///
/// let pgn = b"[White \"A\"]\n[TimeControl \"300+0\"]\n\n1. e4 { [%clk 0:05:00] } e5 (1... c5) 1-0\n";
/// let mut facts = GameFacts::default();
/// PgnReader::new(&pgn[..]).read_game(&mut facts)?;
/// assert_eq!(facts.plies(), 2);
/// assert_eq!(facts.outcome(), Outcome::WhiteWins);
/// assert_eq!(facts.speed(), Speed::Blitz);
/// assert!(facts.has_clocks() && facts.has_variations() && !facts.has_evals());
///
/// let mut stats = Stats::default();
/// stats.add(&facts, pgn.len() as u64);
/// assert_eq!(stats.games(), 1);
/// # Ok::<_, tabia_notation::pgn::ReadError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct GameFacts {
    /// Where the game starts (its first byte).
    pub(crate) start: u64,
    pub(crate) plies: u32,
    pub(crate) outcome: Outcome,
    pub(crate) comments: bool,
    pub(crate) variations: bool,
    pub(crate) clocks: bool,
    pub(crate) evals: bool,
    pub(crate) white: Option<u64>,
    pub(crate) black: Option<u64>,
    pub(crate) white_elo: Option<u32>,
    pub(crate) black_elo: Option<u32>,
    pub(crate) date: Option<[u8; 10]>,
    pub(crate) utc_date: Option<[u8; 10]>,
    pub(crate) speed: Speed,
    /// `Some` once a `Variant` tag was seen (its raw value in `variant`).
    pub(crate) has_variant: bool,
    pub(crate) variant: Vec<u8>,
    pub(crate) has_event: bool,
    pub(crate) event: Vec<u8>,
    pub(crate) has_eco: bool,
    pub(crate) eco: Vec<u8>,
    pub(crate) warnings: Vec<Warning>,
    /// Whether Black moves first (the `FEN` tag's second field is `b`).
    pub(crate) black_first: bool,
    /// White's scores after the mainline moves from the first, up to the first move without.
    pub(crate) scores: Vec<Score>,
    /// Whether a move had a score after a move before it had none.
    pub(crate) score_gap: bool,
    /// The search for `%` in a long comment, set up once.
    percent: Percent,
}

impl GameFacts {
    /// Forgets the last game (keeps the buffers).
    pub fn clear(&mut self) {
        self.plies = 0;
        self.outcome = Outcome::Unknown;
        self.comments = false;
        self.variations = false;
        self.clocks = false;
        self.evals = false;
        self.white = None;
        self.black = None;
        self.white_elo = None;
        self.black_elo = None;
        self.date = None;
        self.utc_date = None;
        self.speed = Speed::Unknown;
        self.has_variant = false;
        self.has_event = false;
        self.has_eco = false;
        self.warnings.clear();
        self.black_first = false;
        self.scores.clear();
        self.score_gap = false;
    }

    /// A tag pair; `value` is the raw value between the quotes (escapes still in). Only the
    /// tags the statistics use are looked at: `Event`, `Date` (`UTCDate` when `Date` is
    /// unknown), `White`, `Black`, `WhiteElo`, `BlackElo`, `TimeControl`, `Variant`, `ECO`,
    /// `FEN` (its side to move: who makes the first move).
    /// Values `?` and empty are "unknown" for `Event`, `White`, `Black` and `ECO`.
    #[inline]
    pub fn tag(&mut self, name: &[u8], value: &[u8]) {
        let known = !value.is_empty() && value != b"?";
        match name {
            b"Event" if known => {
                self.has_event = true;
                self.event.clear();
                self.event.extend_from_slice(value);
            }
            b"Date" => self.date = date(value),
            b"UTCDate" => self.utc_date = date(value),
            b"White" if known => self.white = Some(name_hash(value)),
            b"Black" if known => self.black = Some(name_hash(value)),
            b"WhiteElo" => self.white_elo = rating(value),
            b"BlackElo" => self.black_elo = rating(value),
            b"TimeControl" => self.speed = Speed::from_time_control(value),
            b"Variant" if !value.is_empty() => {
                self.has_variant = true;
                self.variant.clear();
                self.variant.extend_from_slice(value);
            }
            b"ECO" if known => {
                self.has_eco = true;
                self.eco.clear();
                self.eco.extend_from_slice(value);
            }
            b"FEN" => self.black_first = fen_turn(value) == Color::Black,
            _ => {}
        }
    }

    /// A move of the mainline (a ply).
    #[inline]
    pub fn mainline_move(&mut self) {
        self.plies += 1;
    }

    /// A variation (its moves are not counted).
    #[inline]
    pub fn variation(&mut self) {
        self.variations = true;
    }

    /// A comment, its text without the delimiters: a game has clocks when a comment holds
    /// `[%clk`, evaluations when one holds `[%eval`. The first `[%eval …]` that reads, in the
    /// comments after a mainline move, is that move's score ([`GameFacts::evals`]). (As a
    /// visitor, `GameFacts` skips variations unread, so the comments inside them are not seen.)
    #[inline(always)]
    pub fn comment(&mut self, text: &[u8]) {
        self.comments = true;
        // Whether this comment gave its move's score.
        let mut scored = false;
        let mut from = 0;
        while let Some(at) = find_percent(&text[from..], &self.percent).map(|i| from + i) {
            from = at + 1;
            if at == 0 || text[at - 1] != b'[' {
                continue;
            }
            let command = &text[at + 1..];
            if command.starts_with(b"clk") {
                self.clocks = true;
            } else if command.starts_with(b"eval") {
                self.evals = true;
                if !scored && let Some(score) = eval_score(&text[at - 1..]) {
                    scored = true;
                    self.score(score);
                }
            }
            if scored && self.clocks {
                // Nothing more to learn from this comment.
                return;
            }
        }
    }

    /// The score of the position after the last mainline move so far, from a comment; the
    /// first one after a move counts.
    fn score(&mut self, score: Score) {
        let ply = self.plies as usize;
        if ply == 0 {
            // A comment before the first move: lichess's figures start from their own score.
            return;
        }
        match self.scores.len() {
            n if n + 1 == ply => self.scores.push(score),
            n if n == ply => {}
            _ => self.score_gap = true,
        }
    }

    /// The game termination marker.
    #[inline]
    pub fn set_outcome(&mut self, outcome: Outcome) {
        self.outcome = outcome;
    }

    /// Something the reader repaired in this game.
    pub fn warning(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }

    /// Mainline plies.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The result (the termination marker).
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The speed of the game, from its `TimeControl` tag.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Whether the game has a comment.
    pub fn has_comments(&self) -> bool {
        self.comments
    }

    /// Whether the game has a variation.
    pub fn has_variations(&self) -> bool {
        self.variations
    }

    /// Whether a comment holds a clock (`[%clk …]`).
    pub fn has_clocks(&self) -> bool {
        self.clocks
    }

    /// Whether a comment holds an evaluation (`[%eval …]`).
    pub fn has_evals(&self) -> bool {
        self.evals
    }

    /// What the reader repaired in this game.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The side that makes the first move: the side to move of the `FEN` tag (its second
    /// field), White without one (or when the field does not read).
    pub fn first_mover(&self) -> Color {
        Color::from_white(!self.black_first)
    }

    /// White's scores after the mainline moves, in order from the first move, as their
    /// comments give them (the first `[%eval …]` that reads after each move), up to the first
    /// move without one.
    pub fn evals(&self) -> &[Score] {
        &self.scores
    }

    /// Whether a mainline move has a score ([`GameFacts::evals`], or one after a move without).
    pub fn has_move_evals(&self) -> bool {
        !self.scores.is_empty() || self.score_gap
    }

    /// The scores lichess's figures of the game are computed on, one after each mainline move:
    /// `None` unless every move has one, but the last may lack it (lichess writes no `[%eval]`
    /// after a checkmate). A last move without a score is scored as mate when the result is a
    /// win for the side that made it (as `tabia analyse` scores a checkmate: `#1` after
    /// White's move, `#-1` after Black's); otherwise (a draw, a loss, `*`) it is left out and
    /// the game is judged up to the move before.
    ///
    /// ```
    /// use tabia_notation::pgn::{PgnReader, Score};
    /// use tabia_stats::GameFacts;
    ///
    /// let mut facts = GameFacts::default();
    /// let mate = b"1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Qh5 { [%eval -0.5] } Nc6 \
    ///              { [%eval -0.4] } 3. Bc4 { [%eval -0.3] } Nf6 { [%eval #1] } 4. Qxf7# 1-0";
    /// PgnReader::new(&mate[..]).read_game(&mut facts)?;
    /// assert_eq!(facts.evals().len(), 6);
    /// let evals = facts.judged_evals().expect("judged");
    /// assert_eq!(evals.len(), 7);
    /// assert_eq!(evals[6], Score::Mate(1));
    ///
    /// let gap = b"1. e4 { [%eval 0.2] } e5 2. Nf3 { [%eval 0.3] } Nc6 { [%eval 0.3] } *";
    /// PgnReader::new(&gap[..]).read_game(&mut facts)?;
    /// assert!(facts.judged_evals().is_none() && facts.has_move_evals());
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn judged_evals(&self) -> Option<Cow<'_, [Score]>> {
        if self.score_gap || self.scores.is_empty() {
            return None;
        }
        let plies = self.plies as usize;
        match plies - self.scores.len() {
            0 => Some(Cow::Borrowed(&self.scores)),
            1 => {
                let last = lichess::mover(self.first_mover(), plies - 1);
                let mated = match (self.outcome, last) {
                    (Outcome::WhiteWins, Color::White) => Score::Mate(1),
                    (Outcome::BlackWins, Color::Black) => Score::Mate(-1),
                    _ => return Some(Cow::Borrowed(&self.scores)),
                };
                let mut scores = self.scores.clone();
                scores.push(mated);
                Some(Cow::Owned(scores))
            }
            _ => None,
        }
    }
}

/// The side to move of a `FEN` tag value (its second field), White when it does not read.
fn fen_turn(value: &[u8]) -> Color {
    value
        .split(u8::is_ascii_whitespace)
        .filter(|field| !field.is_empty())
        .nth(1)
        .and_then(|field| Color::from_ascii(field).ok())
        .unwrap_or(Color::White)
}

/// The score of the `[%eval …]` that `command` starts with (its `[`), read by tabia-notation's
/// comment grammar as [`Comment::eval`](tabia_notation::pgn::Comment::eval) reads it, without
/// splitting the rest of the comment; `None` when it does not read.
fn eval_score(command: &[u8]) -> Option<Score> {
    let end = memchr::memchr(b']', command)?;
    let text = std::str::from_utf8(&command[..=end]).ok()?;
    match CommentParts::new(text).next()? {
        CommentPart::Command {
            command: Command::Eval(eval),
            ..
        } => Some(eval.score),
        _ => None,
    }
}

/// The first `%` of `text`: eight bytes at a time for a short comment (most hold one command,
/// and a call into `memchr` costs more than the scan), `memchr` for a long one (engine
/// comments of a few hundred bytes, which hold no command at all).
#[inline(always)]
fn find_percent(text: &[u8], long: &Percent) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    if text.len() > 48 {
        return long.find(text);
    }
    let mut chunks = text.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'%'));
        // A zero byte of `x` is a `%` of the chunk; the lowest flagged byte is the first one.
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'%')
        .map(|i| offset + i)
}

/// The search for `%` in a long comment, set up once: an engine comment of a few hundred bytes
/// after every move (TCEC) then pays for the search alone, not for the dispatch and set-up of
/// [`memchr::memchr`] each time.
#[derive(Debug, Clone, Copy)]
struct Percent {
    /// The AVX2 searcher, when the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl Default for Percent {
    fn default() -> Percent {
        Percent {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b'%'),
        }
    }
}

impl Percent {
    /// Where the first `%` of `text` is.
    #[inline(always)]
    fn find(&self, text: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = &self.avx2 {
            return one.find(text);
        }
        memchr::memchr(b'%', text)
    }
}

impl Visitor for GameFacts {
    type Output = ();

    #[inline]
    fn begin_game(&mut self, start: Origin) -> Skip {
        self.clear();
        self.start = start.offset;
        Skip(false)
    }

    #[inline]
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        GameFacts::tag(self, name, value.as_bytes());
    }

    #[inline]
    fn san(&mut self, _san: SanPlus, _at: Origin) {
        self.mainline_move();
    }

    #[inline(always)]
    fn comment(&mut self, comment: RawComment<'_>) {
        GameFacts::comment(self, comment.as_bytes());
    }

    #[inline]
    fn begin_variation(&mut self) -> Skip {
        self.variation();
        // Only the mainline's plies are counted: the variation is skipped unread.
        Skip(true)
    }

    #[inline]
    fn outcome(&mut self, outcome: Outcome) {
        self.set_outcome(outcome);
    }

    fn warning(&mut self, warning: Warning) {
        GameFacts::warning(self, warning);
    }

    #[inline]
    fn end_game(&mut self) {}
}

/// [`GameFacts`] as a visitor that gives each game's facts as its output, for readers that hand
/// the output of each game on, such as the workers of
/// [`Pipeline::run_games`](tabia_stream::Pipeline::run_games), which read the games
/// of their piece of the input in place. (The facts of each game are a value of their own: the
/// event, ECO and variant names are allocated per game.)
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_stats::{FactsVisitor, Stats};
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut visitor = FactsVisitor::default();
/// let mut stats = Stats::new();
/// while let Some(facts) = reader.read_game(&mut visitor)? {
///     stats.add(&facts, 0);
/// }
/// assert_eq!(stats.report(None).plies.max, Some(2));
/// # Ok::<_, tabia_notation::pgn::ReadError>(())
/// ```
#[derive(Debug, Default)]
pub struct FactsVisitor(GameFacts);

impl Visitor for FactsVisitor {
    type Output = GameFacts;

    #[inline]
    fn begin_game(&mut self, start: Origin) -> Skip {
        Visitor::begin_game(&mut self.0, start)
    }

    #[inline]
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        Visitor::tag(&mut self.0, name, value);
    }

    #[inline]
    fn san(&mut self, san: SanPlus, at: Origin) {
        Visitor::san(&mut self.0, san, at);
    }

    #[inline(always)]
    fn comment(&mut self, comment: RawComment<'_>) {
        Visitor::comment(&mut self.0, comment);
    }

    #[inline]
    fn begin_variation(&mut self) -> Skip {
        Visitor::begin_variation(&mut self.0)
    }

    #[inline]
    fn outcome(&mut self, outcome: Outcome) {
        Visitor::outcome(&mut self.0, outcome);
    }

    fn warning(&mut self, warning: Warning) {
        Visitor::warning(&mut self.0, warning);
    }

    #[inline]
    fn end_game(&mut self) -> GameFacts {
        let percent = self.0.percent;
        std::mem::replace(
            &mut self.0,
            GameFacts {
                percent,
                ..GameFacts::default()
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_is_found_first_wherever_it_is() {
        for len in (0..40).chain(44..56).chain([100, 300]) {
            for at in 0..=len {
                let mut text = vec![b'a'; len];
                if at < len {
                    text[at] = b'%';
                    if at + 3 < len {
                        text[at + 3] = b'%';
                    }
                }
                let expected = text.iter().position(|&b| b == b'%');
                assert_eq!(
                    find_percent(&text, &Percent::default()),
                    expected,
                    "{len} {at}"
                );
            }
        }
        // Bytes next to `%` (0x25) that the zero-byte trick must not confuse: 0x24, 0x26, 0xa5.
        assert_eq!(
            find_percent(b"$&\xa5$&\xa5$&%", &Percent::default()),
            Some(8)
        );
    }

    #[test]
    fn clocks_and_evals_anywhere_in_a_comment() {
        for (text, clocks, evals) in [
            (&b" [%clk 0:03:00] "[..], true, false),
            (b"[%eval 0.3] [%clk 0:03:00]", true, true),
            (b"good move 100% [%eval #3]", false, true),
            (b"%clk without a bracket", false, false),
            (
                b"a long comment before the clock, then [%clk 1:00:00]",
                true,
                false,
            ),
        ] {
            let mut facts = GameFacts::default();
            facts.comment(text);
            assert_eq!(
                (facts.clocks, facts.evals, facts.comments),
                (clocks, evals, true)
            );
        }
    }
}
