//! Game replay: every line of a parsed PGN game played through the rules, from the position
//! its `FEN`/`SetUp`/`Variant` tags give; the first illegal move reported with where it is.

use std::fmt;

use shakmaty::{Bitboard, Move};
use tabia_notation::{
    pgn::{
        Game, Line, Move as Node, Origin, Outcome, RawTag, Warning as PgnWarning,
        WarningKind as PgnWarningKind,
    },
    san::SanPlus,
};

use crate::{
    lenient::{self, Repair},
    moves::{MoveError, MoveErrorKind},
    outcome::{History, Termination},
    position::{EpRule, Position},
    variant::{GameVariant, UnknownVariant, parse_variant},
    walk::Played,
    warning::{Warning, WarningKind},
};

/// The two tags that say where a game starts, `FEN` and `Variant`, remembered as a PGN
/// visitor meets them, for every visitor that has to know (replay, classification).
///
/// ```
/// use tabia_position::StartTags;
/// use tabia_position::notation::pgn::RawTag;
///
/// let mut tags = StartTags::default();
/// tags.tag(b"White", RawTag(b"Carlsen"));
/// assert!(tags.is_default());
/// tags.tag(b"Variant", RawTag(b"Chess960"));
/// // A second tag of the same name is ignored, as by the game tree.
/// tags.tag(b"Variant", RawTag(b"Atomic"));
/// assert_eq!(tags.variant.as_deref(), Some("Chess960"));
/// assert!(!tags.is_default());
/// tags.clear();
/// assert!(tags.is_default());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartTags {
    /// The `FEN` tag, if the game has one.
    pub fen: Option<String>,
    /// The `Variant` tag, if the game has one.
    pub variant: Option<String>,
}

impl StartTags {
    /// Forgets both tags, for the next game.
    pub fn clear(&mut self) {
        self.fen = None;
        self.variant = None;
    }

    /// Remembers the tag if it is the first `FEN` or `Variant` tag of the game (the one
    /// [`Game::tag`] gives, which the tree starts from); ignores any other.
    pub fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        match name {
            b"FEN" if self.fen.is_none() => self.fen = Some(value.decode().into_owned()),
            b"Variant" if self.variant.is_none() => {
                self.variant = Some(value.decode().into_owned());
            }
            _ => {}
        }
    }

    /// Whether neither tag was given: the game starts from the standard position.
    pub fn is_default(&self) -> bool {
        self.fen.is_none() && self.variant.is_none()
    }

    /// The position the game starts from, as [`start_position`] gives it for a parsed game.
    pub fn start(&self, at: Origin) -> Result<Position, ReplayError> {
        self.start_with_warnings(at).map(|(pos, _)| pos)
    }

    /// The position the game starts from and the warnings of the `FEN` tag's repairs, as
    /// [`start_position_with_warnings`] gives them for a parsed game.
    pub fn start_with_warnings(&self, at: Origin) -> Result<(Position, Vec<Warning>), ReplayError> {
        start_from_tags(self.fen.as_deref(), self.variant.as_deref(), at)
    }
}

/// Why a game could not be replayed, or does not agree with its result.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `FEN` tag is not a legal position (the message says why).
    StartPosition(String),
    /// The `Variant` tag names rules tabia does not play (see [`crate::parse_variant`]).
    UnsupportedVariant(String),
    /// A move is not legal.
    IllegalMove {
        /// The move as numbered in the game, e.g. `4. Nxe5` or `4... Nf6`.
        numbered: String,
        /// The ply of the move, counted from the start position (1 is the first move).
        ply: u32,
        /// Whether the move is in a variation rather than the mainline.
        in_variation: bool,
        /// Why it is illegal.
        error: MoveError,
    },
}

/// A game that could not be replayed: what went wrong and where (the move's line and column
/// in the input, when the game was read from text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    kind: Box<ReplayErrorKind>,
    at: Option<Origin>,
}

impl ReplayError {
    /// An error of kind `kind` at `at` (for replayers outside this crate, such as game filters).
    pub fn new(kind: ReplayErrorKind, at: Option<Origin>) -> ReplayError {
        ReplayError {
            kind: Box::new(kind),
            at,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ReplayErrorKind {
        &self.kind
    }

    /// Where in the input (the offending move, or the start of the game), if known.
    pub fn origin(&self) -> Option<Origin> {
        self.at
    }
}

impl fmt::Display for ReplayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayErrorKind::StartPosition(message) => write!(f, "bad FEN tag: {message}"),
            ReplayErrorKind::UnsupportedVariant(variant) => {
                write!(f, "{}", UnknownVariant::named(variant))
            }
            ReplayErrorKind::IllegalMove {
                numbered,
                ply,
                in_variation,
                error,
            } => {
                write!(f, "illegal move {numbered} (ply {ply}")?;
                if *in_variation {
                    f.write_str(", in a variation")?;
                }
                write!(f, "): {}", error.reason())
            }
        }
    }
}

impl fmt::Display for ReplayError {
    /// The message, without the location (see [`ReplayError::origin`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for ReplayError {}

/// One ply of a replay, given to the callback of [`replay`] and [`replay_mainline`].
#[derive(Debug)]
pub struct Ply<'a> {
    /// The position after the move.
    pub position: &'a Position,
    /// The move played; `None` for a null move (`--`).
    pub mv: Option<Move>,
    /// The move's node in the game tree (its SAN, NAGs, comments, origin).
    pub node: &'a Node,
    /// The ply number from the start position (1 is the first move).
    pub ply: u32,
    /// 0 in the mainline, 1 in its variations, 2 in theirs, …
    pub depth: usize,
}

/// A game replayed: where it started and ended (mainline), how it stands at the end, and what
/// was repaired or looks wrong on the way.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The start position (from the `FEN` tag, or the standard one).
    pub start: Position,
    /// The position after the last mainline move.
    pub end: Position,
    /// The number of mainline plies.
    pub plies: u32,
    /// How the game stands at the end of the mainline (mate, draws, claimable draws).
    pub termination: Option<Termination>,
    /// What was repaired or looks wrong, in input order: the game was read all the same.
    pub warnings: Vec<Warning>,
}

/// The start position a game's tags ask for: the `FEN` tag (whether or not `SetUp` is given),
/// standard chess or Chess960 as the `Variant` tag or the castling letters say. A `FEN` tag is
/// read leniently (see [`start_position_with_warnings`], which also gives the warnings).
///
/// # Errors
///
/// [`ReplayError`] for a bad `FEN` tag or an unsupported variant.
pub fn start_position(game: &Game) -> Result<Position, ReplayError> {
    start_position_with_warnings(game).map(|(pos, _)| pos)
}

/// Like [`start_position`], with the warnings of the `FEN` tag's repairs: clocks that are not
/// counts, a fullmove number of 0, missing fields, castling rights the board cannot have, an
/// impossible en-passant square, a position no game can reach.
///
/// ```
/// use tabia_position::{EpRule, start_position_with_warnings};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[FEN \"4k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 0\"]\n\n*".parse()?;
/// let (start, warnings) = start_position_with_warnings(&game)?;
/// assert_eq!(start.fen(EpRule::Legal), "4k2r/8/8/8/8/8/8/R3K2R w KQk - 1 1");
/// let messages: Vec<String> = warnings.iter().map(ToString::to_string).collect();
/// assert_eq!(messages, [
///     "FEN tag has fullmove number 0, read as 1",
///     "FEN tag gives castling rights the board cannot have (black may castle queenside \
///      but there is no black rook on a8), read as `KQk`",
/// ]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ReplayError`] for a `FEN` tag with no legal position even after repair, or an
/// unsupported variant.
pub fn start_position_with_warnings(game: &Game) -> Result<(Position, Vec<Warning>), ReplayError> {
    start_from_tags(game.tag("FEN"), game.tag("Variant"), game.start)
}

/// The start position of a game from its `FEN` and `Variant` tag values, and the warnings of
/// the `FEN` tag's repairs.
pub(crate) fn start_from_tags(
    fen: Option<&str>,
    variant: Option<&str>,
    start: Origin,
) -> Result<(Position, Vec<Warning>), ReplayError> {
    let at = Some(start);
    let variant = match variant {
        Some(variant) => parse_variant(variant).map_err(|err| {
            ReplayError::new(
                ReplayErrorKind::UnsupportedVariant(err.name().to_owned()),
                at,
            )
        })?,
        None => GameVariant::STANDARD,
    };
    let Some(fen) = fen else {
        return Ok((Position::new_variant(variant.variant), Vec::new()));
    };
    lenient::start_from_fen(fen, variant, start)
}

/// `4. Nxe5` or `4... Nf6`: the move as numbered in the position before it.
fn numbered(before: &Position, node: &Node) -> String {
    lenient::numbered_before(before, node.san)
}

/// Resolves the move of `node` to a legal move, to be played by the caller, leniently (see
/// [`lenient::resolve`]); a null move (`--`) is played at once when not in check, and gives
/// `None`. A repaired move gives its [`Repair`], and the caller then skips the check mark.
pub(crate) fn resolve_node(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
) -> Result<(Option<Move>, Option<Repair>), ReplayError> {
    resolve_node_with(pos, node, ply, depth, None)
}

/// [`resolve_node`], with the pieces giving check in `pos` when the caller knows them.
fn resolve_node_with(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
    checkers: Option<Bitboard>,
) -> Result<(Option<Move>, Option<Repair>), ReplayError> {
    let result = match node.san.san {
        tabia_notation::san::San::Null => {
            if pos.play_null() {
                return Ok((None, None));
            }
            Err(MoveErrorKind::NullMoveInCheck)
        }
        _ => lenient::resolve(pos, node.san, checkers),
    };
    match result {
        Ok((m, repair)) => Ok((Some(m), repair)),
        Err(kind) => Err(ReplayError::new(
            ReplayErrorKind::IllegalMove {
                numbered: numbered(pos, node),
                ply,
                in_variation: depth > 0,
                error: MoveError::new(node.san.san.to_string(), kind),
            },
            Some(node.at),
        )),
    }
}

/// What a replay found to repair: the warnings in input order, and the SAN to write for each
/// repaired move (its index in the order of the text, mainline and variations).
#[derive(Debug, Default)]
struct Found {
    warnings: Vec<Warning>,
    fixes: Vec<(usize, SanPlus)>,
}

impl Found {
    /// Notes the repair of the `index`-th move of the text, if any; when the move was not
    /// repaired by its resolution, checks its check mark from the position after it.
    fn after_move(
        &mut self,
        index: usize,
        node: &Node,
        after: &Position,
        repair: Option<Repair>,
        played: bool,
        checks: bool,
    ) {
        let repair = match repair {
            Some(repair) => Some(repair),
            None if played => lenient::check_mark(after, node.san, checks),
            None => None,
        };
        if let Some(repair) = repair {
            let numbered = lenient::numbered_after(after, node.san);
            self.warnings
                .push(repair.warning(numbered, node.san, node.at));
            self.fixes.push((index, repair.san));
        }
    }
}

/// Replays the mainline only, from `start` (the tags' start position when `None`), calling `f`
/// after every ply.
///
/// # Errors
///
/// The first illegal move, or a bad start position.
pub fn replay_mainline(
    game: &Game,
    start: Option<Position>,
    mut f: impl FnMut(&Ply<'_>),
) -> Result<Replayed, ReplayError> {
    let mut found = Found::default();
    let start = match start {
        Some(start) => start,
        None => {
            let (start, warnings) = start_position_with_warnings(game)?;
            found.warnings = warnings;
            start
        }
    };
    let mut pos = start.clone();
    let mut history = History::new();
    let mut hash = pos.zobrist();
    history.push(hash);
    let mut ply = 0;
    // The pieces giving check, kept from one move to the next (the check mark and the next
    // move's resolution both need them).
    let mut checkers = pos.checkers();
    for node in &game.mainline.moves {
        ply += 1;
        let (m, repair) = resolve_node_with(&mut pos, node, ply, 0, Some(checkers))?;
        hash = match m {
            Some(m) => pos.play_zobrist(hash, m),
            None => pos.zobrist(),
        };
        history.push(hash);
        checkers = pos.checkers();
        found.after_move(
            ply as usize - 1,
            node,
            &pos,
            repair,
            m.is_some(),
            checkers.any(),
        );
        f(&Ply {
            position: &pos,
            mv: m,
            node,
            ply,
            depth: 0,
        });
    }
    let termination = pos.termination(&history);
    let last = game.mainline.moves.last().map(|m| m.at);
    game_end_warnings(game, termination, last, &mut found.warnings);
    Ok(Replayed {
        start,
        end: pos,
        plies: ply,
        termination,
        warnings: found.warnings,
    })
}

/// One line being replayed, on the explicit stack of [`replay`].
#[derive(Debug)]
struct Frame<'g> {
    line: &'g Line,
    next: usize,
    pos: Position,
    /// The pieces giving check in `pos`.
    checkers: Bitboard,
    ply: u32,
    depth: usize,
}

/// Replays the mainline and every variation (in the order of the text), calling `f` after
/// every ply. Variations are kept on an explicit stack: any depth of nesting is fine. What was
/// read leniently is in [`Replayed::warnings`].
///
/// ```
/// use tabia_position::replay;
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *".parse()?;
/// let mut plies = Vec::new();
/// let done = replay(&game, |p| plies.push((p.ply, p.depth, p.node.san.to_string())))?;
/// assert_eq!(plies.len(), 6);
/// assert_eq!(plies[2], (2, 1, "c5".to_owned()));
/// assert_eq!(done.plies, 4);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first illegal move in text order, or a bad start position.
pub fn replay(game: &Game, f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    replay_tree(game, f).map(|(replayed, _)| replayed)
}

/// [`replay`], also giving the SAN to write for each repaired move.
fn replay_tree(
    game: &Game,
    mut f: impl FnMut(&Ply<'_>),
) -> Result<(Replayed, Vec<(usize, SanPlus)>), ReplayError> {
    let mut walker = Walker::new(game, true)?;
    while let Some(ply) = walker.step()? {
        f(&ply);
    }
    Ok(walker.finish())
}

/// A game being replayed ply by ply in the order of its text (each move, then its
/// variations, then the move after it): the one loop behind [`replay`] and the
/// [`Replay`](crate::Replay) iterator. Variations are kept on an explicit stack.
#[derive(Debug)]
pub(crate) struct Walker<'g> {
    game: &'g Game,
    variations: bool,
    start: Position,
    found: Found,
    history: History,
    hash: u64,
    stack: Vec<Frame<'g>>,
    end: Option<(Position, u32)>,
    index: usize,
}

impl<'g> Walker<'g> {
    /// Starts at the position the game's tags give; with `variations`, the variations are
    /// played too.
    pub(crate) fn new(game: &'g Game, variations: bool) -> Result<Walker<'g>, ReplayError> {
        let (start, warnings) = start_position_with_warnings(game)?;
        let mut history = History::new();
        let hash = start.zobrist();
        history.push(hash);
        let stack = vec![Frame {
            line: &game.mainline,
            next: 0,
            pos: start.clone(),
            checkers: start.checkers(),
            ply: 0,
            depth: 0,
        }];
        Ok(Walker {
            game,
            variations,
            start,
            found: Found {
                warnings,
                fixes: Vec::new(),
            },
            history,
            hash,
            stack,
            end: None,
            index: 0,
        })
    }

    /// Plays the next move of the text; `None` once every line is played.
    pub(crate) fn step(&mut self) -> Result<Option<Ply<'_>>, ReplayError> {
        Ok(self.advance()?.map(|(at, mv, node, ply, depth)| Ply {
            position: &self.stack[at].pos,
            mv,
            node,
            ply,
            depth,
        }))
    }

    /// [`Walker::step`], the position copied out.
    pub(crate) fn step_owned(&mut self) -> Result<Option<Played<'g>>, ReplayError> {
        Ok(self.advance()?.map(|(at, mv, node, ply, depth)| Played {
            position: self.stack[at].pos.clone(),
            mv,
            node,
            ply,
            depth,
        }))
    }

    /// Plays the next move: the frame that holds the position after it, the move, its node,
    /// its ply and depth.
    #[allow(clippy::type_complexity)]
    fn advance(
        &mut self,
    ) -> Result<Option<(usize, Option<Move>, &'g Node, u32, usize)>, ReplayError> {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                return Ok(None);
            };
            let line: &'g Line = frame.line;
            let Some(node) = line.moves.get(frame.next) else {
                if let Some(done) = self.stack.pop()
                    && done.depth == 0
                {
                    self.end = Some((done.pos, done.ply));
                }
                continue;
            };
            frame.next += 1;
            let branches = self.variations && !node.variations.is_empty();
            let before = branches.then(|| (frame.pos.clone(), frame.checkers));
            let ply = frame.ply + 1;
            let depth = frame.depth;
            let (m, repair) =
                resolve_node_with(&mut frame.pos, node, ply, depth, Some(frame.checkers))?;
            if depth == 0 {
                self.hash = match m {
                    Some(m) => frame.pos.play_zobrist(self.hash, m),
                    None => frame.pos.zobrist(),
                };
                self.history.push(self.hash);
            } else if let Some(m) = m {
                frame.pos.play_unchecked(m);
            }
            frame.checkers = frame.pos.checkers();
            let checks = frame.checkers.any();
            self.found
                .after_move(self.index, node, &frame.pos, repair, m.is_some(), checks);
            self.index += 1;
            frame.ply = ply;
            let at = self.stack.len() - 1;
            if let Some((before, checkers)) = before {
                for line in node.variations.iter().rev() {
                    self.stack.push(Frame {
                        line,
                        next: 0,
                        pos: before.clone(),
                        checkers,
                        ply: ply - 1,
                        depth: depth + 1,
                    });
                }
            }
            return Ok(Some((at, m, node, ply, depth)));
        }
    }

    /// What the replay found, once [`Walker::step`] has given `None`, and the SAN to write
    /// for each repaired move.
    pub(crate) fn finish(self) -> (Replayed, Vec<(usize, SanPlus)>) {
        let Walker {
            game,
            start,
            mut found,
            history,
            end,
            ..
        } = self;
        let (end, plies) = end.unwrap_or_else(|| (start.clone(), 0));
        let termination = end.termination(&history);
        let last = game.mainline.moves.last().map(|m| m.at);
        game_end_warnings(game, termination, last, &mut found.warnings);
        let replayed = Replayed {
            start,
            end,
            plies,
            termination,
            warnings: found.warnings,
        };
        (replayed, found.fixes)
    }
}

/// The warnings of a game's end, from what the reader saw (a missing result) and the board
/// (see [`GameEnd::warnings`]).
fn game_end_warnings(
    game: &Game,
    termination: Option<Termination>,
    last: Option<Origin>,
    warnings: &mut Vec<Warning>,
) {
    let mut missing = None;
    let moves = warnings.len();
    for warning in &game.warnings {
        match warning.kind {
            PgnWarningKind::MissingResult => missing = Some(warning.at),
            _ => warnings.push(Warning::new(
                WarningKind::Reader(warning.kind),
                Some(warning.at),
            )),
        }
    }
    if moves > 0 && warnings.len() > moves {
        crate::warning::in_input_order(warnings);
    }
    let end = GameEnd {
        tag: game.tag("Result"),
        marker: game.result,
        missing,
        start: game.start,
        last,
    };
    end.warnings(termination, warnings);
}

/// What is known of a game's result: its `Result` tag, the marker that ends its movetext
/// (`*` when missing, and then where it is missing), where the game starts and its last move.
pub(crate) struct GameEnd<'a> {
    pub(crate) tag: Option<&'a str>,
    pub(crate) marker: Outcome,
    pub(crate) missing: Option<Origin>,
    pub(crate) start: Origin,
    pub(crate) last: Option<Origin>,
}

impl GameEnd<'_> {
    /// The result read: the marker; when it is missing, the `Result` tag if it is a result.
    pub(crate) fn result(&self) -> Outcome {
        match (self.missing, self.tag.map(str::trim)) {
            (Some(_), Some("1-0")) => Outcome::WhiteWins,
            (Some(_), Some("0-1")) => Outcome::BlackWins,
            (Some(_), Some("1/2-1/2")) => Outcome::Draw,
            _ => self.marker,
        }
    }

    /// The warnings about the result: a missing one (read as the `Result` tag says, else `*`),
    /// a `Result` tag that disagrees with the marker (the marker wins), and a result that a
    /// mate, stalemate or variant ending on the board contradicts (kept). Only these decide a
    /// result beyond doubt: databases score time forfeits against a bare king, and games drawn
    /// by the 75-move rule or fivefold repetition, in ways a check would flag wrongly.
    pub(crate) fn warnings(&self, termination: Option<Termination>, warnings: &mut Vec<Warning>) {
        let result = self.result();
        if let Some(at) = self.missing {
            warnings.push(Warning::new(
                WarningKind::MissingResult {
                    read_as: result.as_str().to_owned(),
                },
                Some(at),
            ));
        } else if let Some(tag) = self.tag.map(str::trim)
            && tag != self.marker.as_str()
        {
            // Tag mismatches are about the tags: shown where the game starts, before the moves.
            let at = warnings
                .iter()
                .position(|w| w.origin().is_none_or(|o| o.offset > self.start.offset))
                .unwrap_or(warnings.len());
            warnings.insert(
                at,
                Warning::new(
                    WarningKind::ResultTagMismatch {
                        tag: tag.to_owned(),
                        marker: self.marker.as_str().to_owned(),
                    },
                    Some(self.start),
                ),
            );
        }
        let decided = |t: &Termination| {
            matches!(
                t,
                Termination::Checkmate { .. }
                    | Termination::Stalemate
                    | Termination::VariantEnd { .. }
            )
        };
        if let Some(termination) = termination.filter(decided)
            && result != Outcome::Unknown
            && result.as_str() != termination.result()
        {
            warnings.push(Warning::new(
                WarningKind::ResultMismatch {
                    result: result.as_str().to_owned(),
                    termination,
                },
                Some(self.last.unwrap_or(self.start)),
            ));
        }
    }
}

/// What a visitor that replays while the reader reads ([`Checker`](crate::Checker),
/// [`MainlineReplayer`](crate::MainlineReplayer)) gathers of a game's result, and the game's
/// end from it: the [`GameEnd`] of the tree path, without the tree.
#[derive(Debug, Clone, Default)]
pub(crate) struct ResultWatch {
    /// The first `Result` tag (as [`Game::tag`] gives it).
    tag: Option<String>,
    marker: Outcome,
    /// Where the reader found the result missing.
    missing: Option<Origin>,
    start: Origin,
    /// Where the last mainline move is.
    last: Option<Origin>,
}

impl ResultWatch {
    /// Forgets the last game; the next starts at `start`.
    pub(crate) fn begin(&mut self, start: Origin) {
        *self = ResultWatch {
            start,
            ..ResultWatch::default()
        };
    }

    /// Where the game starts.
    pub(crate) fn start(&self) -> Origin {
        self.start
    }

    /// Reads a `Result` tag (the first counts).
    pub(crate) fn result_tag(&mut self, value: RawTag<'_>) {
        if self.tag.is_none() {
            self.tag = Some(value.decode().into_owned());
        }
    }

    /// Notes a move of the mainline, at `at`.
    #[inline]
    pub(crate) fn mainline_move(&mut self, at: Origin) {
        self.last = Some(at);
    }

    /// Reads the termination marker.
    pub(crate) fn outcome(&mut self, marker: Outcome) {
        self.marker = marker;
    }

    /// Reads a warning of the reader: a missing result is kept for the end of the game; any
    /// other is given back as the game's warning.
    pub(crate) fn reader_warning(&mut self, warning: PgnWarning) -> Option<Warning> {
        match warning.kind {
            PgnWarningKind::MissingResult => {
                self.missing = Some(warning.at);
                None
            }
            kind => Some(Warning::new(WarningKind::Reader(kind), Some(warning.at))),
        }
    }

    fn end(&self) -> GameEnd<'_> {
        GameEnd {
            tag: self.tag.as_deref(),
            marker: self.marker,
            missing: self.missing,
            start: self.start,
            last: self.last,
        }
    }

    /// Whether the board can contradict the result: only when there is one (`*` needs no
    /// move generation at the end of the game).
    pub(crate) fn needs_board(&self) -> bool {
        self.end().result() != Outcome::Unknown
    }

    /// The warnings of the game's end (see [`GameEnd::warnings`]), from `termination`, how
    /// the final position ends the game (looked for when [`ResultWatch::needs_board`]).
    pub(crate) fn warnings(&self, termination: Option<Termination>, warnings: &mut Vec<Warning>) {
        self.end().warnings(termination, warnings);
    }
}

/// Checks a game: every move legal (mainline and variations). What was read leniently (a
/// repaired `FEN` tag, a move in UCI, a wrong check mark, a missing result, …) and a result
/// that contradicts a mate (or stalemate) on the board are warnings ([`Replayed::warnings`]),
/// not errors. What `tabia pgn --check` calls.
///
/// ```
/// use tabia_position::check_game;
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0".parse()?;
/// let checked = check_game(&game)?;
/// assert_eq!(checked.warnings[0].to_string(), "result 1-0 but the game ends in black mates (0-1)");
/// let game: Game = "1. e4 e5 2. Ke3 *".parse()?;
/// let err = check_game(&game).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move 2. Ke3 (ply 3): no white king can go to e3");
/// assert_eq!(err.origin().map(|o| (o.line, o.column)), Some((1, 13)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ReplayError`]: the first illegal move, or a bad start position.
pub fn check_game(game: &Game) -> Result<Replayed, ReplayError> {
    check_game_with(game, |_| {})
}

/// [`check_game`], calling `f` after every ply as [`replay`] does: one replay for the check
/// and for what the caller computes (a digest of the mainline, say).
///
/// # Errors
///
/// As [`check_game`].
pub fn check_game_with(game: &Game, f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    replay(game, f)
}

/// Checks a game like [`check_game`] and repairs it in place where its warnings say: the
/// `FEN` tag rewritten as read, each repaired move written in SAN with its right check mark,
/// the result read (and the `Result` tag set to it). The game then reads again without those
/// warnings; a result that contradicts the board is kept (and still warned about).
///
/// ```
/// use tabia_position::repair_game;
/// use tabia_notation::pgn::Game;
///
/// let mut game: Game = "[Result \"1-0\"]\n\n1. e2e4 e7e5 2. Ng1-f3+ 0-1".parse()?;
/// let checked = repair_game(&mut game)?;
/// assert_eq!(checked.warnings.len(), 4);
/// assert_eq!(checked.warnings[0].to_string(), "Result tag says `1-0` but the movetext ends with `0-1`, read as `0-1`");
/// assert_eq!(checked.warnings[3].to_string(), "move 2. Ng1-f3+ is in long algebraic notation, read as Nf3");
/// assert!(game.to_string().ends_with("[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 0-1"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`check_game`]; the game is then left as it was.
pub fn repair_game(game: &mut Game) -> Result<Replayed, ReplayError> {
    repair_game_with(game, |_| {})
}

/// [`repair_game`], calling `f` after every ply as [`check_game_with`] does (one replay for
/// the check, the repair and what the caller computes).
///
/// ```
/// use tabia_notation::pgn::Game;
/// use tabia_position::repair_game_with;
///
/// let mut game: Game = "1. e2e4 e5 2. Ng1-f3 *".parse()?;
/// let mut plies = 0;
/// let replayed = repair_game_with(&mut game, |ply| plies += u32::from(ply.depth == 0))?;
/// assert_eq!((plies, replayed.warnings.len()), (3, 2));
/// assert!(game.to_string().ends_with("1. e4 e5 2. Nf3 *"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`check_game`]; the game is then left as it was.
pub fn repair_game_with(game: &mut Game, f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    let (replayed, fixes) = replay_tree(game, f)?;
    let repairs = TagRepairs::of(&replayed.warnings);
    if repairs.fen {
        let fen = replayed.start.to_fen(EpRule::Always).to_string();
        set_tag(&mut game.tags, "FEN", fen);
    }
    if let Some((marker, tag)) = repairs.result {
        game.result = marker;
        set_tag(&mut game.tags, "Result", tag);
    }
    game.warnings.clear();
    apply_fixes(game, &fixes);
    Ok(replayed)
}

/// What the warnings of a replay say to rewrite in the tags of a repaired game.
#[derive(Debug, Default)]
pub(crate) struct TagRepairs {
    /// The `FEN` tag was read leniently: it gets the FEN of the start position.
    pub(crate) fen: bool,
    /// The result the game was read with, when the `Result` tag or the marker said otherwise
    /// (or was missing): the marker and the tag's value to write.
    pub(crate) result: Option<(Outcome, String)>,
}

impl TagRepairs {
    pub(crate) fn of(warnings: &[Warning]) -> TagRepairs {
        let mut repairs = TagRepairs::default();
        for warning in warnings {
            match warning.kind() {
                WarningKind::FenClock { .. }
                | WarningKind::FenFullmoveZero
                | WarningKind::FenFieldsMissing { .. }
                | WarningKind::FenCastlingDropped { .. }
                | WarningKind::FenEpDropped { .. } => repairs.fen = true,
                WarningKind::MissingResult { read_as }
                | WarningKind::ResultTagMismatch {
                    marker: read_as, ..
                } => {
                    let marker = match read_as.as_str() {
                        "1-0" => Outcome::WhiteWins,
                        "0-1" => Outcome::BlackWins,
                        "1/2-1/2" => Outcome::Draw,
                        _ => Outcome::Unknown,
                    };
                    repairs.result = Some((marker, read_as.clone()));
                }
                _ => {}
            }
        }
        repairs
    }
}

/// Sets the value of the first tag named `name`, or adds the tag.
pub(crate) fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some(tag) => tag.1 = value,
        None => tags.push((name.to_owned(), value)),
    }
}

/// Writes the SAN of each fix into its move, numbering the moves in the order of the text as
/// [`replay`] visits them (an explicit stack: any depth of nesting).
fn apply_fixes(game: &mut Game, fixes: &[(usize, SanPlus)]) {
    let Some(&(mut next, _)) = fixes.first() else {
        return;
    };
    let mut fixes = fixes.iter().peekable();
    let mut index = 0;
    let mut stack = vec![game.mainline.moves.iter_mut()];
    while let Some(moves) = stack.last_mut() {
        let Some(node) = moves.next() else {
            stack.pop();
            continue;
        };
        if index == next {
            if let Some((_, san)) = fixes.next() {
                node.san = *san;
            }
            match fixes.peek() {
                Some(&&(i, _)) => next = i,
                None => return,
            }
        }
        index += 1;
        for line in node.variations.iter_mut().rev() {
            stack.push(line.moves.iter_mut());
        }
    }
}

/// The EPD after every mainline ply (Chess::PGN::EPD `epdlist`), from the tags' start
/// position, or from `start` when given (`epdset`).
///
/// ```
/// use tabia_position::{EpRule, epdlist};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "1. e4 c5 2. Nf3 *".parse()?;
/// assert_eq!(epdlist(&game, None, EpRule::Always)?, [
///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6",
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -",
/// ]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first illegal move, or a bad start position.
pub fn epdlist(
    game: &Game,
    start: Option<Position>,
    ep: EpRule,
) -> Result<Vec<String>, ReplayError> {
    let mut out = Vec::with_capacity(game.mainline.moves.len());
    replay_mainline(game, start, |ply| out.push(ply.position.epd(ep)))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        text.parse().expect("well-formed game")
    }

    #[test]
    fn null_moves_pass_the_turn() {
        let g = game("1. e4 e5 2. Nf3 (2. -- Nc6 3. Nf3 Nf6) 2... Nc6 3. -- Nf6 *");
        let mut seen = Vec::new();
        let done = replay(&g, |p| seen.push((p.ply, p.depth, p.mv.is_none()))).expect("legal");
        assert_eq!(done.plies, 6);
        assert_eq!(seen[3], (3, 1, true));
        assert_eq!(seen[8], (5, 0, true));
        assert_eq!(
            done.end.fen(EpRule::Always),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 4"
        );
        let epds = epdlist(&g, None, EpRule::Always).expect("legal");
        assert_eq!(
            epds[4],
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -"
        );
    }

    #[test]
    fn no_null_move_in_check() {
        let g = game("1. e4 f5 2. Qh5+ -- *");
        let err = check_game(&g).expect_err("illegal");
        assert_eq!(
            err.to_string(),
            "illegal move 2... -- (ply 4): a null move is not possible while in check"
        );
    }
}
