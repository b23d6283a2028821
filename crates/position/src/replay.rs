//! Game replay: every line of a parsed PGN game played through the rules, from the position
//! its `FEN`/`SetUp`/`Variant` tags give; the first illegal move reported with where it is.

use std::fmt;

use shakmaty::{Color, Move};
use tabia_notation::{
    fen::Fen,
    pgn::{Game, Line, Move as Node, Origin, Outcome, RawTag, SanPlus},
};

use crate::{
    edit::Editor,
    moves::MoveError,
    outcome::{History, Termination},
    position::{EpRule, Position},
    variant::{GameVariant, UnknownVariant, parse_variant},
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

    /// Remembers the tag if it is `FEN` or `Variant`; ignores any other.
    pub fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        match name {
            b"FEN" => self.fen = Some(value.decode().into_owned()),
            b"Variant" => self.variant = Some(value.decode().into_owned()),
            _ => {}
        }
    }

    /// Whether neither tag was given: the game starts from the standard position.
    pub fn is_default(&self) -> bool {
        self.fen.is_none() && self.variant.is_none()
    }

    /// The position the game starts from, as [`start_position`] gives it for a parsed game.
    pub fn start(&self, at: Origin) -> Result<Position, ReplayError> {
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
/// standard chess or Chess960 as the `Variant` tag or the castling letters say.
///
/// # Errors
///
/// [`ReplayError`] for a bad `FEN` tag or an unsupported variant.
pub fn start_position(game: &Game) -> Result<Position, ReplayError> {
    start_from_tags(game.tag("FEN"), game.tag("Variant"), game.start)
}

/// The start position of a game from its `FEN` and `Variant` tag values.
pub(crate) fn start_from_tags(
    fen: Option<&str>,
    variant: Option<&str>,
    start: Origin,
) -> Result<Position, ReplayError> {
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
        return Ok(Position::new_variant(variant.variant));
    };
    let fen = Fen::from_ascii_lenient(fen.as_bytes())
        .map_err(|err| ReplayError::new(ReplayErrorKind::StartPosition(err.message()), at))?;
    let editor = Editor::from_fen(&fen);
    editor.position_variant(variant).map_err(|err| {
        let message = err
            .problems()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        ReplayError::new(ReplayErrorKind::StartPosition(message), at)
    })
}

/// `4. Nxe5` or `4... Nf6`: the move as numbered in the position before it.
fn numbered(before: &Position, san: SanPlus) -> String {
    let number = before.fullmoves();
    match before.turn() {
        Color::White => format!("{number}. {san}"),
        Color::Black => format!("{number}... {san}"),
    }
}

/// Resolves the move of `node` to a legal move, to be played by the caller; a null move (`--`)
/// is played at once when not in check, and gives `None`.
pub(crate) fn resolve_node(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
) -> Result<Option<Move>, ReplayError> {
    resolve_move(pos, node.san, node.at, ply, depth)
}

/// Resolves `san` (written at `at`, the `ply`-th ply of its line, `depth` variations deep) to
/// a legal move, to be played by the caller; a null move (`--`) is played at once when not in
/// check, and gives `None`. What every replay calls, from a tree or while reading.
#[inline]
pub(crate) fn resolve_move(
    pos: &mut Position,
    san: SanPlus,
    at: Origin,
    ply: u32,
    depth: usize,
) -> Result<Option<Move>, ReplayError> {
    let result = match san.san {
        tabia_notation::san::San::Null => {
            if pos.play_null() {
                return Ok(None);
            }
            Err(crate::moves::MoveErrorKind::NullMoveInCheck)
        }
        other => pos.resolve_san_kind(crate::convert::san(other)),
    };
    match result {
        Ok(m) => Ok(Some(m)),
        Err(kind) => Err(ReplayError::new(
            ReplayErrorKind::IllegalMove {
                numbered: numbered(pos, san),
                ply,
                in_variation: depth > 0,
                error: MoveError::new(san.san.to_string(), kind),
            },
            Some(at),
        )),
    }
}

/// Like [`resolve_node`], and plays the move, updating the Polyglot hash of the line.
fn play_hashed(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
    hash: u64,
) -> Result<(Option<Move>, u64), ReplayError> {
    match resolve_node(pos, node, ply, depth)? {
        Some(m) => Ok((Some(m), pos.play_zobrist(hash, m))),
        None => Ok((None, pos.zobrist())),
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
    let start = match start {
        Some(start) => start,
        None => start_position(game)?,
    };
    let mut pos = start.clone();
    let mut history = History::new();
    let mut hash = pos.zobrist();
    history.push(hash);
    let mut ply = 0;
    for node in &game.mainline.moves {
        ply += 1;
        let (m, h) = play_hashed(&mut pos, node, ply, 0, hash)?;
        hash = h;
        history.push(hash);
        f(&Ply {
            position: &pos,
            mv: m,
            node,
            ply,
            depth: 0,
        });
    }
    let termination = pos.termination(&history);
    Ok(Replayed {
        start,
        end: pos,
        plies: ply,
        termination,
        warnings: Vec::new(),
    })
}

/// One line being replayed, on the explicit stack of [`replay`].
struct Frame<'g> {
    line: &'g Line,
    next: usize,
    pos: Position,
    ply: u32,
    depth: usize,
}

/// Replays the mainline and every variation (in the order of the text), calling `f` after
/// every ply. Variations are kept on an explicit stack: any depth of nesting is fine.
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
pub fn replay(game: &Game, mut f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    let start = start_position(game)?;
    let mut history = History::new();
    let mut hash = start.zobrist();
    history.push(hash);
    let mut stack = vec![Frame {
        line: &game.mainline,
        next: 0,
        pos: start.clone(),
        ply: 0,
        depth: 0,
    }];
    let mut end = None;
    while let Some(frame) = stack.last_mut() {
        let Some(node) = frame.line.moves.get(frame.next) else {
            if let Some(done) = stack.pop()
                && done.depth == 0
            {
                end = Some((done.pos, done.ply));
            }
            continue;
        };
        frame.next += 1;
        let before = (!node.variations.is_empty()).then(|| frame.pos.clone());
        let ply = frame.ply + 1;
        let depth = frame.depth;
        let m = if depth == 0 {
            let (m, h) = play_hashed(&mut frame.pos, node, ply, depth, hash)?;
            hash = h;
            history.push(hash);
            m
        } else {
            let m = resolve_node(&mut frame.pos, node, ply, depth)?;
            if let Some(m) = m {
                frame.pos.play_unchecked(m);
            }
            m
        };
        frame.ply = ply;
        f(&Ply {
            position: &frame.pos,
            mv: m,
            node,
            ply,
            depth,
        });
        if let Some(before) = before {
            for line in node.variations.iter().rev() {
                stack.push(Frame {
                    line,
                    next: 0,
                    pos: before.clone(),
                    ply: ply - 1,
                    depth: depth + 1,
                });
            }
        }
    }
    let (end, plies) = end.unwrap_or_else(|| (start.clone(), 0));
    let termination = end.termination(&history);
    Ok(Replayed {
        start,
        end,
        plies,
        termination,
        warnings: Vec::new(),
    })
}

/// The result a game claims: its `Result` tag, else its termination marker.
fn claimed_result(game: &Game) -> String {
    match game.tag("Result") {
        Some(result) => result.trim().to_owned(),
        None => match game.result {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
        .to_owned(),
    }
}

/// Checks a game: every move legal (mainline and variations); a result that contradicts a
/// mate (or stalemate) on the board at the end of the mainline is a warning
/// ([`Replayed::warnings`]), not an error. What `tabia pgn --check` calls.
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
    let mut replayed = replay(game, f)?;
    // Only mate, stalemate and a variant's own ending decide a result beyond doubt:
    // databases score time forfeits against a bare king, and games drawn by the 75-move rule
    // or fivefold repetition, in ways a check would flag wrongly.
    let decided = |t: &Termination| {
        matches!(
            t,
            Termination::Checkmate { .. } | Termination::Stalemate | Termination::VariantEnd { .. }
        )
    };
    if let Some(termination) = replayed.termination.filter(decided) {
        let result = claimed_result(game);
        if result != "*" && result != termination.result() {
            let at = game.mainline.moves.last().map_or(game.start, |m| m.at);
            replayed.warnings.push(Warning::new(
                WarningKind::ResultMismatch {
                    result,
                    termination,
                },
                Some(at),
            ));
        }
    }
    Ok(replayed)
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
