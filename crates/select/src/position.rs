//! Criteria on the positions a game reaches: [`PositionTarget`], [`Zobrist`], [`MoveSequence`].

use std::{fmt, str::FromStr};

use tabia_position::{
    ParsePositionError, Position, PositionKey,
    shakmaty::{Bitboard, Board, Color, Move, Position as _},
};

use crate::{
    board::PawnCones,
    error::{ParseError, ParseErrorKind},
};

/// What a position still has that no later position can get back: pieces of each colour,
/// pawns of each colour, castling rights, and pawns that can walk to the target's pawns' squares
/// ([`PawnCones`]: a pawn goes forward only, a file aside for each capture, so a pawn on its
/// home rank is one no other pawn can replace). A position that lacks any of a target's can no
/// longer reach the target, so the search of that game can stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reach {
    pieces: [u32; 2],
    pawns: [u32; 2],
    castling: Bitboard,
    /// The target's pawns' squares (for a target; empty for a position now).
    cones: PawnCones,
}

impl Reach {
    /// The counts and castling rights of `board`, without cones (a position now).
    fn counts(board: &Board, castling: Bitboard) -> Reach {
        let side = |color: Color| {
            let ours = board.by_color(color);
            (ours.count() as u32, (ours & board.pawns()).count() as u32)
        };
        let (wp, wpawns) = side(Color::White);
        let (bp, bpawns) = side(Color::Black);
        Reach {
            pieces: [wp, bp],
            pawns: [wpawns, bpawns],
            castling,
            cones: PawnCones::default(),
        }
    }

    /// What a target on `board` with `castling` rights needs.
    pub(crate) fn of(board: &Board, castling: Bitboard) -> Reach {
        Reach {
            cones: PawnCones::of(board),
            ..Reach::counts(board, castling)
        }
    }

    /// Whether a game now at `pos` may still reach a position with `self`.
    pub(crate) fn reachable_from(&self, pos: &Position) -> bool {
        // In variants pieces may come back (Crazyhouse drops them): no pruning there.
        let Some(chess) = pos.as_chess() else {
            return true;
        };
        let board = chess.board();
        let now = Reach::counts(board, chess.castles().castling_rights());
        (0..2).all(|c| now.pieces[c] >= self.pieces[c] && now.pawns[c] >= self.pawns[c])
            && (self.castling & !now.castling).is_empty()
            && self.cones.allow(board)
    }
}

/// `--position POS`: the game reaches a position, by any move order.
///
/// POS is a FEN, an EPD or `startpos`: the position key must be equal (placement, side to
/// move, castling rights, the en-passant square only when a capture is possible; no clocks).
/// A partial FEN (the placement alone, like `rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR`)
/// matches that placement with either side to move and any castling rights.
///
/// ```
/// use tabia_select::PositionTarget;
/// use tabia_position::Position;
///
/// let sicilian: PositionTarget = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2".parse()?;
/// let pos = Position::new().after("e4")?.after("c5")?;
/// assert!(sicilian.matches(&pos, pos.zobrist()));
/// assert!(!sicilian.matches(&Position::new(), Position::new().zobrist()));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PositionTarget {
    text: String,
    board: Board,
    /// The full key and its Polyglot hash; none for a placement alone.
    key: Option<(PositionKey, u64)>,
    reach: Reach,
}

impl PositionTarget {
    /// Whether `pos` (whose Polyglot hash is `hash`) is the target.
    pub fn matches(&self, pos: &Position, hash: u64) -> bool {
        match &self.key {
            Some((key, zobrist)) => hash == *zobrist && pos.key() == *key,
            None => pos.board() == &self.board,
        }
    }

    /// Whether the target can still be reached from `pos` (pieces, pawns and castling rights
    /// are never regained, and a pawn goes forward only, a file aside for each capture).
    pub fn reachable_from(&self, pos: &Position) -> bool {
        self.reach.reachable_from(pos)
    }

    /// The side to move of the target, when it has one (not for a placement alone).
    pub fn turn(&self) -> Option<Color> {
        self.key.as_ref().map(|(key, _)| key.turn())
    }
}

impl FromStr for PositionTarget {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<PositionTarget, ParseError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(ParseError::new(
                "position",
                ParseErrorKind::Empty,
                text,
                0..text.len(),
            ));
        }
        // The position parsers see the trimmed text: their spans start `lead` bytes in.
        let lead = text.len() - text.trim_start().len();
        let syntax = |err: &tabia_position::notation::Error| {
            let span = err.span();
            ParseError::new(
                "position",
                ParseErrorKind::Position(err.message()),
                text,
                span.start + lead..span.end.max(span.start + 1) + lead,
            )
        };
        // Errors of the position as a whole mark all of it.
        let whole = |reason: String| {
            ParseError::new(
                "position",
                ParseErrorKind::Position(reason),
                text,
                lead..lead + trimmed.len(),
            )
        };
        if tabia_position::PositionArg::is_placement(trimmed) {
            let board: Board = trimmed.parse().map_err(|err| whole(format!("{err}")))?;
            let reach = Reach::of(&board, Bitboard::EMPTY);
            return Ok(PositionTarget {
                text: trimmed.to_owned(),
                board,
                key: None,
                reach,
            });
        }
        let pos = Position::from_arg(trimmed).map_err(|err| match err {
            ParsePositionError::Syntax(err) => syntax(&err),
            ParsePositionError::Illegal(err) => whole(err.to_string()),
        })?;
        let chess = pos.chess();
        Ok(PositionTarget {
            text: trimmed.to_owned(),
            board: chess.board().clone(),
            key: Some((pos.key(), pos.zobrist())),
            reach: Reach::of(chess.board(), chess.castles().castling_rights()),
        })
    }
}

impl fmt::Display for PositionTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `--zobrist HEX`: the game reaches a position with this 64-bit Polyglot hash (en passant
/// only when a capture is possible, as `tabia fen --json` gives it).
///
/// ```
/// use tabia_select::Zobrist;
///
/// let z: Zobrist = "463b96181691fc9c".parse()?;
/// assert_eq!(z.0, tabia_position::Position::new().zobrist());
/// assert_eq!(z.to_string(), "463b96181691fc9c");
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Zobrist(pub u64);

impl FromStr for Zobrist {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Zobrist, ParseError> {
        let digits = text.trim();
        let digits = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
            .unwrap_or(digits);
        if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(ParseError::new(
                "zobrist",
                ParseErrorKind::Zobrist,
                text,
                0..text.len(),
            ));
        }
        u64::from_str_radix(digits, 16)
            .map(Zobrist)
            .map_err(|_| ParseError::new("zobrist", ParseErrorKind::Zobrist, text, 0..text.len()))
    }
}

impl fmt::Display for Zobrist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// `--moves '1. d4 Nf6 2. c4 e6'`: the mainline starts with these moves, from the standard
/// starting position (move numbers are optional; SAN, UCI or long algebraic). The moves are
/// checked when the criterion is read, and compared as moves, not as text: `Nbd2` in the game
/// is `Nd2` in the criterion when only one knight can go there.
///
/// ```
/// use tabia_select::MoveSequence;
///
/// let m: MoveSequence = "1. d4 Nf6 2. c4 e6".parse()?;
/// assert_eq!(m.moves().len(), 4);
/// assert_eq!(m.to_string(), "1. d4 Nf6 2. c4 e6");
/// let err = "1. e4 e5 2. Ke3".parse::<MoveSequence>().unwrap_err();
/// assert!(err.to_string().starts_with("invalid moves criterion: illegal move 2. Ke3"));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone)]
pub struct MoveSequence {
    moves: Vec<Move>,
    text: String,
}

impl MoveSequence {
    /// The moves, from the standard starting position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

impl FromStr for MoveSequence {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<MoveSequence, ParseError> {
        let mut pos = Position::new();
        let mut moves = Vec::new();
        let mut sans = Vec::new();
        let mut offset = 0;
        for token in text.split_inclusive(char::is_whitespace) {
            let start = offset;
            offset += token.len();
            let word = token.trim_end();
            // A move number, alone (`12.`, `12...`) or glued to its move (`12.e4`).
            let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let after_dots = word[digits..].trim_start_matches('.');
            let (word, start) = if digits > 0 && after_dots.len() < word.len() - digits {
                (after_dots, start + (word.len() - after_dots.len()))
            } else {
                (word, start)
            };
            if word.is_empty() {
                continue;
            }
            let m = pos.parse_move(word).map_err(|err| {
                let number = pos.chess().fullmoves();
                let dots = if pos.turn().is_white() { "." } else { "..." };
                ParseError::new(
                    "moves",
                    ParseErrorKind::Move(format!(
                        "illegal move {number}{dots} {word}: {}",
                        err.reason()
                    )),
                    text,
                    start..start + word.len(),
                )
            })?;
            sans.push((pos.turn(), pos.chess().fullmoves(), pos.san(m).to_string()));
            pos.play_unchecked(m);
            moves.push(m);
        }
        if moves.is_empty() {
            return Err(ParseError::new(
                "moves",
                ParseErrorKind::Empty,
                text,
                0..text.len(),
            ));
        }
        let mut canonical = String::new();
        for (i, (turn, number, san)) in sans.iter().enumerate() {
            if !canonical.is_empty() {
                canonical.push(' ');
            }
            if turn.is_white() {
                canonical.push_str(&format!("{number}. "));
            } else if i == 0 {
                canonical.push_str(&format!("{number}... "));
            }
            canonical.push_str(san);
        }
        Ok(MoveSequence {
            moves,
            text: canonical,
        })
    }
}

impl fmt::Display for MoveSequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_full_and_placement() {
        let target: PositionTarget = "startpos".parse().unwrap();
        let start = Position::new();
        assert!(target.matches(&start, start.zobrist()));
        let placement: PositionTarget = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
            .parse()
            .unwrap();
        let after = start.clone().after("e4").unwrap();
        assert!(placement.matches(&after, after.zobrist()));
        assert_eq!(placement.turn(), None);
    }

    #[test]
    fn reach_prunes_what_cannot_come_back() {
        let target: PositionTarget =
            "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"
                .parse()
                .unwrap();
        let start = Position::new();
        assert!(target.reachable_from(&start));
        let e4 = start.after("e4").unwrap();
        assert!(!target.reachable_from(&e4), "the e2 pawn has left its home");
    }

    #[test]
    fn move_numbers_glued_or_not() {
        let m: MoveSequence = "1.e4 c5 2.Nf3 2...d6 3. d2d4".parse().unwrap();
        assert_eq!(m.to_string(), "1. e4 c5 2. Nf3 d6 3. d4");
        let m: MoveSequence = "e4".parse().unwrap();
        assert_eq!(m.moves().len(), 1);
    }

    #[test]
    fn bad_criteria() {
        let mut messages = crate::golden::Messages::default();
        messages.push("1. e4 e5 2. Ke3".parse::<MoveSequence>().unwrap_err());
        messages.push(
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR"
                .parse::<PositionTarget>()
                .unwrap_err(),
        );
        messages.push(
            "8/8/8/8/8/8/8/8 w - - 0 1"
                .parse::<PositionTarget>()
                .unwrap_err(),
        );
        // A syntax error in a full FEN is marked where it is, leading spaces counted.
        messages.push(
            " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
                .parse::<PositionTarget>()
                .unwrap_err(),
        );
        messages.push("xyz".parse::<Zobrist>().unwrap_err());
        messages.check("position-bad_criteria");
    }
}
