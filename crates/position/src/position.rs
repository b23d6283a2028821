//! [`Position`]: a legal chess position over [`shakmaty::Chess`], and the en-passant rule of
//! its writers.

use std::{fmt, str::FromStr};

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position as _, Setup, san::SanPlus,
    zobrist::Zobrist64,
};

use crate::{key::PositionKey, validate::Problem, write};

/// Which en-passant square a FEN or EPD writer emits.
///
/// ```
/// use tabia_position::EpRule;
///
/// assert_eq!("legal".parse::<EpRule>(), Ok(EpRule::Legal));
/// assert_eq!(EpRule::default(), EpRule::Always);
/// assert_eq!(EpRule::PseudoLegal.to_string(), "pseudo");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EpRule {
    /// The square behind every double pawn push, as the FEN standard and the seeds write it
    /// (1.e4 gives `e3`).
    #[default]
    Always,
    /// Only when an en-passant capture is legal (what [`PositionKey`] and lichess use).
    Legal,
    /// Only when an enemy pawn stands next to the pushed pawn (X-FEN), legal or not.
    PseudoLegal,
}

impl EpRule {
    /// The matching shakmaty mode.
    pub fn mode(self) -> EnPassantMode {
        match self {
            EpRule::Always => EnPassantMode::Always,
            EpRule::Legal => EnPassantMode::Legal,
            EpRule::PseudoLegal => EnPassantMode::PseudoLegal,
        }
    }
}

impl fmt::Display for EpRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EpRule::Always => "always",
            EpRule::Legal => "legal",
            EpRule::PseudoLegal => "pseudo",
        })
    }
}

impl FromStr for EpRule {
    type Err = String;

    fn from_str(s: &str) -> Result<EpRule, String> {
        match s {
            "always" => Ok(EpRule::Always),
            "legal" => Ok(EpRule::Legal),
            "pseudo" | "pseudo-legal" | "pseudolegal" => Ok(EpRule::PseudoLegal),
            _ => Err(format!(
                "unknown en-passant rule `{s}` (expected always, legal or pseudo)"
            )),
        }
    }
}

/// Why a setup is not a legal position: every [`Problem`] found, in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    problems: Vec<Problem>,
}

impl SetupError {
    pub(crate) fn new(problems: Vec<Problem>) -> SetupError {
        SetupError { problems }
    }

    /// Every problem found (at least one).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

/// A legal position of standard chess or Chess960, with the rules of [`shakmaty::Chess`].
///
/// It keeps the en-passant square of every double push, so its writers can emit any
/// [`EpRule`]; equality and [`PositionKey`] only see the square when a capture is legal.
///
/// ```
/// use tabia_position::{EpRule, Position};
///
/// let pos = Position::new();
/// assert_eq!(pos.fen(EpRule::Always), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// assert_eq!(pos.zobrist(), 0x463b_9618_1691_fc9c);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Position {
    chess: Chess,
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        Position::default()
    }

    /// A position from a setup, in standard chess or Chess960 as the castling rights say
    /// ([`CastlingMode::detect`]). Every reason the setup is illegal is explained.
    ///
    /// # Errors
    ///
    /// [`SetupError`] with every [`Problem`] found.
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        let mode = CastlingMode::detect(&setup);
        Position::from_setup_with_mode(setup, mode)
    }

    /// Like [`Position::from_setup`], with the castling mode given (for a `Variant` tag).
    ///
    /// # Errors
    ///
    /// [`SetupError`] with every [`Problem`] found.
    pub fn from_setup_with_mode(setup: Setup, mode: CastlingMode) -> Result<Position, SetupError> {
        match Chess::from_setup(setup.clone(), mode) {
            Ok(chess) => Ok(Position { chess }),
            Err(err) => {
                let mut problems = crate::validate::validate_setup(&setup, mode);
                if problems.is_empty() {
                    problems.push(Problem::Other {
                        message: err.to_string(),
                    });
                }
                Err(SetupError::new(problems))
            }
        }
    }

    /// The shakmaty position.
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// Consumes `self` into the shakmaty position.
    pub fn into_chess(self) -> Chess {
        self.chess
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.chess.turn()
    }

    /// Standard chess or Chess960 castling.
    pub fn castling_mode(&self) -> CastlingMode {
        self.chess.castles().mode()
    }

    /// The setup (all six FEN fields) with the en-passant square of `ep`.
    pub fn setup(&self, ep: EpRule) -> Setup {
        self.chess.to_setup(ep.mode())
    }

    /// The en-passant square under `ep`.
    pub fn ep_square(&self, ep: EpRule) -> Option<shakmaty::Square> {
        self.chess.ep_square(ep.mode())
    }

    /// Plays a move known to be legal (one from [`Position::parse_move`] or the legal moves).
    pub fn play_unchecked(&mut self, m: Move) {
        self.chess.play_unchecked(m);
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and returns `false`.
    pub fn play(&mut self, m: Move) -> bool {
        if self.chess.is_legal(m) {
            self.chess.play_unchecked(m);
            true
        } else {
            false
        }
    }

    /// Plays a null move (`--` in PGN): the other side is to move, the en-passant square is
    /// gone, the clocks go on. Not possible, and `false`, when the side to move is in check.
    ///
    /// ```
    /// use tabia_position::{EpRule, Position};
    ///
    /// let mut pos = Position::new().after("e4")?;
    /// assert!(pos.play_null());
    /// assert_eq!(pos.fen(EpRule::Always), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    pub fn play_null(&mut self) -> bool {
        if self.chess.is_check() {
            return false;
        }
        let mode = self.castling_mode();
        let mut setup = self.chess.to_setup(EnPassantMode::Always);
        let mover = setup.turn;
        setup.swap_turn();
        setup.halfmoves = setup.halfmoves.saturating_add(1);
        if mover == Color::Black {
            setup.fullmoves = setup.fullmoves.saturating_add(1);
        }
        match Chess::from_setup(setup, mode) {
            Ok(chess) => {
                self.chess = chess;
                true
            }
            Err(_) => false,
        }
    }

    /// The canonical SAN of a legal move: minimal disambiguation, `+` or `#`.
    ///
    /// ```
    /// use tabia_position::Position;
    ///
    /// let pos = Position::new();
    /// let m = pos.parse_move("g1f3")?;
    /// assert_eq!(pos.san(m).to_string(), "Nf3");
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    pub fn san(&self, m: Move) -> SanPlus {
        SanPlus::from_move(self.chess.clone(), m)
    }

    /// The FEN of the position, with the en-passant square of `ep`.
    pub fn fen(&self, ep: EpRule) -> String {
        let mut buf = Vec::with_capacity(90);
        self.write_fen(&mut buf, ep);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The EPD of the position (the four position fields, no operations).
    ///
    /// ```
    /// use tabia_position::{EpRule, Position};
    ///
    /// assert_eq!(Position::new().epd(EpRule::Always), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    /// ```
    pub fn epd(&self, ep: EpRule) -> String {
        let mut buf = Vec::with_capacity(80);
        self.write_epd(&mut buf, ep);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Appends the FEN to `buf` (ASCII), without allocating when `buf` has room.
    pub fn write_fen(&self, buf: &mut Vec<u8>, ep: EpRule) {
        self.write_epd(buf, ep);
        buf.push(b' ');
        write::push_u32(buf, self.chess.halfmoves());
        buf.push(b' ');
        write::push_u32(buf, self.chess.fullmoves().get());
    }

    /// Appends the EPD's four position fields to `buf` (ASCII).
    pub fn write_epd(&self, buf: &mut Vec<u8>, ep: EpRule) {
        let board = self.chess.board();
        write::push_placement(buf, board);
        buf.push(b' ');
        buf.push(self.chess.turn().fold_wb(b'w', b'b'));
        buf.push(b' ');
        let castles = self.chess.castles();
        let rights = castles.castling_rights();
        if castles.mode() == CastlingMode::Standard {
            write::push_standard_castling(buf, rights);
        } else {
            write::push_castling(buf, board, rights);
        }
        buf.push(b' ');
        match self.chess.ep_square(ep.mode()) {
            Some(sq) => {
                buf.push(sq.file().char() as u8);
                buf.push(sq.rank().char() as u8);
            }
            None => buf.push(b'-'),
        }
    }

    /// The position key: placement, side to move, castling rights and the en-passant square only
    /// when a capture is legal; no clocks. Two positions that differ only in move counters or
    /// in an unusable en-passant square have the same key.
    pub fn key(&self) -> PositionKey {
        PositionKey::from_chess(&self.chess)
    }

    /// The 64-bit Polyglot Zobrist hash (en passant only when a capture is legal, no clocks).
    pub fn zobrist(&self) -> u64 {
        self.chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
    }

    /// Plays the legal move `m` and returns the new Polyglot hash, updated incrementally from
    /// `hash` (this position's [`Position::zobrist`]) when shakmaty can, else from scratch.
    pub fn play_zobrist(&mut self, hash: u64, m: Move) -> u64 {
        let next =
            self.chess
                .update_zobrist_hash::<Zobrist64>(Zobrist64(hash), m, EnPassantMode::Legal);
        self.chess.play_unchecked(m);
        match next {
            Some(z) => z.0,
            None => self.zobrist(),
        }
    }
}

impl From<Chess> for Position {
    fn from(chess: Chess) -> Position {
        Position { chess }
    }
}

impl fmt::Display for Position {
    /// The FEN, en passant [always](EpRule::Always).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen(EpRule::Always))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ep_rules_after_e4() {
        let mut pos = Position::new();
        pos.play_unchecked(Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::E2,
            capture: None,
            to: shakmaty::Square::E4,
            promotion: None,
        });
        assert_eq!(
            pos.fen(EpRule::Always),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert_eq!(
            pos.fen(EpRule::Legal),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            pos.fen(EpRule::PseudoLegal),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(pos.zobrist(), 0x823c_9b50_fd11_4196);
    }

    #[test]
    fn ep_rule_names_round_trip() {
        for rule in [EpRule::Always, EpRule::Legal, EpRule::PseudoLegal] {
            assert_eq!(rule.to_string().parse::<EpRule>(), Ok(rule));
        }
        assert!("sometimes".parse::<EpRule>().is_err());
    }
}
