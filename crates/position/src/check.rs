//! [`Checker`]: what [`check_game`](crate::check_game) checks, done while the PGN reader reads
//! (no game tree), and [`check_reader`], every game of an input checked that way.

use std::{fmt, io, mem};

use shakmaty::{Bitboard, Move};
use tabia_notation::pgn::{
    Origin, Outcome, PgnReader, RawGame, RawTag, ReadError, SanPlus, Skip, Visitor,
    Warning as ReaderWarning,
};

use crate::{
    lenient,
    moves::{MoveError, MoveErrorKind},
    outcome::Termination,
    position::Position,
    replay::{ReplayError, ReplayErrorKind, ResultWatch, StartTags},
    warning::ReplayWarning,
};

/// One line being replayed: the mainline, or a variation at some depth.
#[derive(Debug, Clone, Default)]
struct Line {
    /// The position after the last move read in this line.
    pos: Position,
    /// The position before that move: where a variation of it starts.
    before: Position,
    /// The pieces giving check in `pos`: found once per move, for its check mark and for the
    /// resolution of the next move.
    checkers: Bitboard,
    /// The same in `before`.
    before_checkers: Bitboard,
    /// The ply of the last move read, counted from the start of the game.
    ply: u32,
    /// The last move read (`None` before any move and for a null move).
    last: Option<Move>,
}

/// The mainline of the game a [`Checker`] reads, as read so far ([`Checker::mainline`]).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Mainline<'a> {
    /// The position after its last move (the start position before any move).
    pub position: &'a Position,
    /// The number of plies read.
    pub plies: u32,
    /// The last move (`None` before any move and for a null move `--`).
    pub last: Option<Move>,
}

/// A PGN [`Visitor`] that checks each game as it is read, exactly as
/// [`check_game`](crate::check_game) checks its tree: the `FEN` and `Variant` tags give a
/// legal start position, every move of the mainline and of every variation (at any depth) is
/// legal (null moves `--` only when not in check). The first problem in text order is the
/// game's [`ReplayError`], with the line and column of the move (or of the game, for its tags).
/// A game that passes gets the same [`ReplayWarning`]s as from `check_game`, in the same order, in
/// [`Checked::warnings`]: what was read leniently (a repaired `FEN` tag, a move in UCI, a wrong
/// capture or check mark, a missing result, a `Result` tag that disagrees with the movetext)
/// and a result that contradicts a checkmate, stalemate or variant ending on the board.
///
/// No game tree is built: the checker keeps one position per open variation (a stack, reused
/// from game to game), so checking allocates nothing per move. Every event of the game is still
/// read after a problem, so a syntax error anywhere in the game is reported first, as when the
/// tree is built.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_position::Checker;
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 (1... c5 2. Ke3) *\n\n\
///             [Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut checker = Checker::new();
/// let good = reader.read_game(&mut checker)?.expect("a game").expect("legal");
/// assert_eq!((good.plies, good.variation_plies), (3, 2));
/// let bad = reader.read_game(&mut checker)?.expect("a game").unwrap_err();
/// assert_eq!(bad.to_string(), "illegal move 2. Ke3 (ply 3, in a variation): no white king can go to e3");
/// assert_eq!(bad.origin().map(|at| (at.line, at.column)), Some((3, 22)));
/// let mated = reader.read_game(&mut checker)?.expect("a game").expect("legal");
/// assert_eq!(mated.warnings[0].to_string(), "result 1-0 but the game ends in black mates (0-1)");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Checker {
    tags: StartTags,
    /// The result read and where the mainline ends.
    end: ResultWatch,
    /// The open lines: the mainline first, then one per open variation; `lines[..=depth]` are
    /// in use, the rest are kept for their memory.
    lines: Vec<Line>,
    depth: usize,
    variation_plies: u32,
    /// The warnings of the start position and of the moves, in input order.
    warnings: Vec<ReplayWarning>,
    /// The reader's warnings (they come after those of the moves, as in the tree).
    reader_warnings: Vec<ReplayWarning>,
    error: Option<ReplayError>,
    /// The SAN to write for the move read last, when it was repaired (for the exporter).
    fixed: Option<SanPlus>,
    /// Whether the mainline's moves are kept ([`Checker::keep_mainline_moves`]).
    keep_moves: bool,
    /// The mainline's moves, when kept (`None`: a null move).
    moves: Vec<Option<Move>>,
}

/// A game that passed every check of a [`Checker`], and its warnings.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// The number of mainline plies.
    pub plies: u32,
    /// The number of plies in the variations, at every depth.
    pub variation_plies: u32,
    /// Checkmate, stalemate or a variant's own ending at the end of the mainline: what
    /// decides a result beyond doubt (only looked for when the game has a result other than
    /// `*`, the only case where it matters).
    pub end: Option<Termination>,
    /// What was repaired or looks wrong, in input order (as
    /// [`Replayed::warnings`](crate::Replayed::warnings) of [`check_game`](crate::check_game)):
    /// the game was read all the same.
    pub warnings: Vec<ReplayWarning>,
}

impl Checker {
    /// A checker, ready for the first game.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// The line being read (made when a variation opens deeper than ever before).
    #[inline]
    fn line(&mut self) -> &mut Line {
        let depth = self.depth;
        if self.lines.len() <= depth {
            self.lines.resize_with(depth + 1, Line::default);
        }
        &mut self.lines[depth]
    }

    /// Notes a repaired move (`after` is the position after it).
    #[cold]
    fn repaired(&mut self, repair: lenient::Repair, written: SanPlus, at: Origin) {
        let after = &self.lines[self.depth].pos;
        let numbered = lenient::numbered_after(after, written);
        self.fixed = Some(repair.san);
        self.warnings.push(repair.warning(numbered, written, at));
    }

    /// The mainline as read so far (also while one of its variations is read): after
    /// `begin_movetext`, its start position, and after each of its moves, the position after
    /// it; `None` once the game is bad (a bad start position, an illegal move). What a visitor
    /// that wraps a checker looks at to follow the mainline with no tree (the dedup digest of
    /// `tabia-collect` does).
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, SanPlus, Visitor};
    /// use tabia_position::Checker;
    ///
    /// let mut checker = Checker::new();
    /// checker.begin_game(Origin::default());
    /// checker.begin_movetext();
    /// assert_eq!(checker.mainline().map(|m| m.plies), Some(0));
    /// checker.san("e4".parse::<SanPlus>()?, Origin::default());
    /// let main = checker.mainline().expect("legal");
    /// assert_eq!((main.plies, main.last.map(|m| m.to().to_string())), (1, Some("e4".into())));
    /// checker.begin_variation();
    /// checker.san("d4".parse::<SanPlus>()?, Origin::default());
    /// assert_eq!(checker.mainline().map(|m| m.plies), Some(1));
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn mainline(&self) -> Option<Mainline<'_>> {
        if self.error.is_some() {
            return None;
        }
        let line = self.lines.first()?;
        Some(Mainline {
            position: &line.pos,
            plies: line.ply,
            last: line.last,
        })
    }

    /// Keeps the moves of each game's mainline as they are read, for
    /// [`Checker::mainline_moves`] (not by default: it costs a little on every move).
    pub fn keep_mainline_moves(&mut self, keep: bool) {
        self.keep_moves = keep;
        self.moves.clear();
    }

    /// The moves of the mainline read so far (`None`: a null move `--`), when asked for with
    /// [`Checker::keep_mainline_moves`], else empty; once the game is read, all of them (valid
    /// until the next game begins, and only for a game that passed the checks).
    ///
    /// ```
    /// use tabia_notation::pgn::PgnReader;
    /// use tabia_position::Checker;
    ///
    /// let mut reader = PgnReader::new(&b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 -- 3. Bc4 *"[..]);
    /// let mut checker = Checker::new();
    /// checker.keep_mainline_moves(true);
    /// reader.read_game(&mut checker)?.expect("a game").expect("legal");
    /// let uci: Vec<String> = checker
    ///     .mainline_moves()
    ///     .iter()
    ///     .map(|m| m.map_or("--".into(), |m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()))
    ///     .collect();
    /// assert_eq!(uci, ["e2e4", "e7e5", "g1f3", "--", "f1c4"]);
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn mainline_moves(&self) -> &[Option<Move>] {
        &self.moves
    }

    /// The SAN to write for the move read last when it was repaired (a check mark added, a
    /// move in UCI written in SAN, …), as [`repair_game`](crate::repair_game) writes it.
    pub(crate) fn take_fixed(&mut self) -> Option<SanPlus> {
        self.fixed.take()
    }

    /// Once the movetext begins: the start position and its warnings (what was repaired in
    /// the `FEN` tag), or `None` when the tags give no legal start.
    pub(crate) fn start(&self) -> Option<(&Position, &[ReplayWarning])> {
        if self.error.is_some() {
            return None;
        }
        Some((&self.lines.first()?.pos, &self.warnings))
    }

    /// Notes an illegal move (`before` is the position before it).
    #[cold]
    fn illegal(&mut self, kind: MoveErrorKind, written: SanPlus, at: Origin, ply: u32) {
        let before = &self.lines[self.depth].pos;
        self.error = Some(ReplayError::new(
            ReplayErrorKind::IllegalMove {
                numbered: lenient::numbered_before(before, written),
                ply,
                in_variation: self.depth > 0,
                error: MoveError::new(written.san.to_string(), kind),
            },
            Some(at),
        ));
    }
}

impl Visitor for Checker {
    type Output = Result<Checked, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.tags.clear();
        self.end.begin(start);
        self.depth = 0;
        self.variation_plies = 0;
        self.warnings.clear();
        self.reader_warnings.clear();
        self.error = None;
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if name == b"Result" {
            self.end.result_tag(value);
        } else {
            self.tags.tag(name, value);
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        let start = if self.tags.is_default() {
            Ok((Position::new(), Vec::new()))
        } else {
            self.tags.start_with_warnings(self.end.start())
        };
        self.moves.clear();
        let line = self.line();
        line.ply = 0;
        line.last = None;
        match start {
            Ok((pos, warnings)) => {
                line.checkers = pos.checkers();
                line.pos = pos;
                self.warnings = warnings;
            }
            Err(err) => {
                // Moves of rules tabia does not play (Seirawan's `Nf3/E`, Sittuyin's `F@g3`)
                // are not read: the game's error is its variant, not its first such move.
                let unsupported = matches!(err.kind(), ReplayErrorKind::UnsupportedVariant(_));
                self.error = Some(err);
                if unsupported {
                    return Skip(true);
                }
            }
        }
        // Never skip otherwise: a syntax error later in the game is to be found.
        Skip(false)
    }

    #[inline]
    fn san(&mut self, san: SanPlus, at: Origin) {
        self.fixed = None;
        if self.error.is_some() {
            return;
        }
        let depth = self.depth;
        if depth == 0 {
            self.end.mainline_move(at);
        } else {
            self.variation_plies += 1;
        }
        let line = self.line();
        line.before.clone_from(&line.pos);
        line.before_checkers = line.checkers;
        line.ply += 1;
        line.last = None;
        let ply = line.ply;
        let resolved = match san.san {
            tabia_notation::san::San::Null => {
                if line.pos.play_null() {
                    line.checkers = line.pos.checkers();
                    if depth == 0 && self.keep_moves {
                        self.moves.push(None);
                    }
                    return;
                }
                Err(MoveErrorKind::NullMoveInCheck)
            }
            _ => lenient::resolve(&line.pos, san, Some(line.checkers)),
        };
        match resolved {
            Ok((m, repair)) => {
                line.last = Some(m);
                line.pos.play_unchecked(m);
                line.checkers = line.pos.checkers();
                let checks = line.checkers.any();
                if let Some(repair) = repair.or_else(|| lenient::check_mark(&line.pos, san, checks))
                {
                    self.repaired(repair, san, at);
                }
                if depth == 0 && self.keep_moves {
                    self.moves.push(Some(m));
                }
            }
            Err(kind) => self.illegal(kind, san, at, ply),
        }
    }

    fn begin_variation(&mut self) -> Skip {
        // The reader opens a variation only after a move of the line: it starts where that
        // move started.
        let parent = self.depth;
        self.depth += 1;
        if self.error.is_none() {
            self.line();
            let (lower, upper) = self.lines.split_at_mut(parent + 1);
            let (parent, child) = (&lower[parent], &mut upper[0]);
            child.pos.clone_from(&parent.before);
            child.checkers = parent.before_checkers;
            child.ply = parent.ply.saturating_sub(1);
        }
        // Never skip: its moves are checked, and its syntax too.
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.end.outcome(outcome);
    }

    fn warning(&mut self, warning: ReaderWarning) {
        self.reader_warnings
            .extend(self.end.reader_warning(warning));
    }

    fn end_game(&mut self) -> Result<Checked, ReplayError> {
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        // The board decides a result only when there is one: `*` needs no move generation.
        let (plies, decided) = match self.lines.first() {
            Some(main) if self.end.needs_board() => (main.ply, main.pos.decided()),
            Some(main) => (main.ply, None),
            None => (0, None),
        };
        let mut warnings = mem::take(&mut self.warnings);
        if !self.reader_warnings.is_empty() {
            // The reader's and the moves' warnings, each in input order: merged, in input order.
            let moves = warnings.len();
            warnings.append(&mut self.reader_warnings);
            if moves > 0 {
                crate::warning::in_input_order(&mut warnings);
            }
        }
        self.end.warnings(decided, &mut warnings);
        Ok(Checked {
            plies,
            variation_plies: self.variation_plies,
            end: decided,
            warnings,
        })
    }
}

/// Why a game read by [`check_reader`] (or written by
/// [`EpdLines::write_game`](crate::EpdLines::write_game)) is bad: its syntax, or the rules.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckError {
    /// The game could not be read ([`ReadError::Syntax`]); the reader went on to the next.
    Syntax(ReadError),
    /// The game was read, and breaks a rule ([`Checker`]).
    Rules(ReplayError),
}

impl tabia_notation::Located for CheckError {
    fn message(&self) -> String {
        match self {
            CheckError::Syntax(err) => tabia_notation::Located::message(err),
            other => other.to_string(),
        }
    }

    fn origin(&self) -> Option<Origin> {
        CheckError::origin(self)
    }
}

impl CheckError {
    /// Where the problem is, when known: the syntax error's, or the move's (or the game's,
    /// for a bad start position).
    pub fn origin(&self) -> Option<Origin> {
        match self {
            CheckError::Syntax(ReadError::Syntax { error, start }) => Some(Origin {
                offset: error.span().start as u64,
                line: error.line().unwrap_or(start.line),
                column: error.column().unwrap_or(start.column),
            }),
            CheckError::Syntax(_) => None,
            CheckError::Rules(err) => err.origin(),
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Syntax(err) => err.fmt(f),
            CheckError::Rules(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckError::Syntax(err) => Some(err),
            CheckError::Rules(err) => Some(err),
        }
    }
}

/// The error of a game whose `Variant` tag names rules tabia does not play, when it is one:
/// what to report for a game that could not be parsed, rather than its first move in that
/// variant's notation (Seirawan's `Nf3/E`, Sittuyin's `F@g3`).
///
/// ```
/// use tabia_notation::pgn::{Origin, RawGame};
///
/// let raw = RawGame { bytes: b"[Variant \"Seirawan\"]\n\n1. Nf3/E e5 *".to_vec(), start: Origin::default() };
/// assert!(raw.parse().is_err());
/// let err = tabia_position::unsupported_variant(&raw).expect("an unsupported variant");
/// assert!(err.to_string().starts_with("variant `Seirawan` is not supported"));
/// ```
pub fn unsupported_variant(raw: &RawGame) -> Option<ReplayError> {
    match raw.visit(&mut Checker::new()) {
        Ok(Err(err)) if matches!(err.kind(), ReplayErrorKind::UnsupportedVariant(_)) => Some(err),
        _ => None,
    }
}

/// Every game of `input` checked by a [`Checker`] as it is read, one item per game in input
/// order: the game's [`Checked`] summary or its [`CheckError`]. A bad game does not stop the
/// iteration; an error reading the input is the last item.
///
/// ```
/// use tabia_position::{CheckError, check_reader};
///
/// let pgn = "1. e4 e5 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n\n1. e4 e5 2. Nf3 Q *\n\n1. d4 d5 *\n";
/// let mut good = 0;
/// let mut bad = Vec::new();
/// for game in check_reader(pgn.as_bytes()) {
///     match game? {
///         Ok(_) => good += 1,
///         Err(err) => {
///             let at = err.origin().expect("a place");
///             bad.push(format!("{}:{}: {}", at.line, at.column, err.to_string().lines().next().unwrap_or("")));
///         }
///     }
/// }
/// assert_eq!(good, 2);
/// assert_eq!(bad, [
///     "3:13: illegal move 2. Ke3 (ply 3): no white king can go to e3",
///     "5:17: invalid SAN move at line 5, column 17",
/// ]);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn check_reader<R: io::Read>(input: R) -> CheckedGames<R> {
    CheckedGames {
        reader: PgnReader::new(input),
        checker: Checker::new(),
    }
}

/// The iterator of [`check_reader`].
#[derive(Debug)]
pub struct CheckedGames<R> {
    reader: PgnReader<R>,
    checker: Checker,
}

impl<R> CheckedGames<R> {
    /// The PGN reader (e.g. for its [`PgnReader::offset`]).
    pub fn reader(&self) -> &PgnReader<R> {
        &self.reader
    }
}

impl<R: io::Read> Iterator for CheckedGames<R> {
    type Item = io::Result<Result<Checked, CheckError>>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.reader.read_game(&mut self.checker) {
            Ok(Some(Ok(checked))) => Some(Ok(Ok(checked))),
            Ok(Some(Err(err))) => Some(Ok(Err(CheckError::Rules(err)))),
            Ok(None) => None,
            Err(ReadError::Io(err)) => Some(Err(err)),
            Err(err) => Some(Ok(Err(CheckError::Syntax(err)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::{Game, RawGame};

    use super::*;

    /// The checker's verdict on the first game of `text`, as `check_game` would say it.
    /// A verdict of the tree path: mainline plies and warnings, or the error.
    type Verdict = Result<(u32, Vec<ReplayWarning>), String>;

    fn both(text: &str) -> (Result<Checked, String>, Verdict) {
        let raw = RawGame {
            bytes: text.as_bytes().to_vec(),
            start: Origin {
                offset: 0,
                line: 1,
                column: 1,
            },
        };
        let fast = raw
            .visit(&mut Checker::new())
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| format!("{}: {e}", e.origin().unwrap_or_default())));
        let tree = raw
            .parse()
            .map_err(|e| e.to_string())
            .and_then(|game: Game| {
                crate::check_game(&game)
                    .map(|r| (r.plies, r.warnings))
                    .map_err(|e| format!("{}: {e}", e.origin().unwrap_or_default()))
            });
        (fast, tree)
    }

    #[test]
    fn variations_start_before_their_move() {
        let (fast, tree) = both("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) (1... e6) 2. Nf3 *");
        let fast = fast.expect("legal");
        assert_eq!((fast.plies, fast.variation_plies), (3, 6));
        assert_eq!(tree, Ok((3, Vec::new())));
    }

    #[test]
    fn errors_as_the_tree_gives_them() {
        for text in [
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6 3. Bb5+ Nd7 4. O-O) 2. Ke2 *",
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc3) d6) 2. Nf3 *",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1",
            "[Result \" 1-0 \"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1/2-1/2",
            "[Result \"1-0\"]\n[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# 0-1",
            "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n1-0",
            "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n*",
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *",
            "[Variant \"Atomic\"]\n1. e4 *",
            "1. e4 f5 2. Qh5+ -- *",
            "1. e4 -- 2. -- e5 (2... -- 3. Qh5) *",
            "1. e4 e5 2. Nf3 (2. Ke3 $1 {no}) (2. f4 exf4 3. Ke2) *",
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 ; c\n Nc6 Ke7) ) 2. Nf3 *",
            "1. e4 e5 2. Kq3 (2. Nf3 *",
        ] {
            let (fast, tree) = both(text);
            let fast = fast.map(|c| (c.plies, c.warnings));
            assert_eq!(fast, tree, "{text}");
        }
    }
}
