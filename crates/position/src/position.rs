//! [`Position`]: a legal chess position over [`shakmaty::Chess`], and the en-passant rule of
//! its writers.

use std::{fmt, str::FromStr};

use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Castles, CastlingMode, CastlingSide, Chess, Color,
    EnPassantMode, FromSetup, Move, MoveList, Piece, Position as _, RemainingChecks, Role, Setup,
    Square,
    san::SanPlus,
    variant::{Variant, VariantPosition},
    zobrist::{Zobrist64, ZobristValue},
};

use tabia_notation::UnknownValue;

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
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<EpRule, UnknownValue> {
        match s {
            "always" => Ok(EpRule::Always),
            "legal" => Ok(EpRule::Legal),
            "pseudo" | "pseudo-legal" | "pseudolegal" => Ok(EpRule::PseudoLegal),
            _ => Err(UnknownValue::new(
                "en-passant rule",
                s,
                "always, legal or pseudo",
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

/// The rules of a [`Position`]: standard chess (and Chess960) straight on [`Chess`], every
/// other variant through shakmaty's [`VariantPosition`] (boxed, so that a standard position
/// stays small and cheap to copy).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Rules {
    /// Standard chess or Chess960.
    Chess(Chess),
    /// Any other variant (never `VariantPosition::Chess`).
    Variant(Box<VariantPosition>),
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::Chess(Chess::default())
    }
}

/// Evaluates `$body` with `$p` bound to the shakmaty position of a [`Position`], once per
/// arm: standard chess runs on `Chess` itself, without any dispatch per call.
macro_rules! with_pos {
    ($pos:expr, |$p:ident| $body:expr) => {
        match &$pos.rules {
            $crate::position::Rules::Chess($p) => $body,
            $crate::position::Rules::Variant(v) => {
                let $p: &shakmaty::variant::VariantPosition = v;
                $body
            }
        }
    };
}
pub(crate) use with_pos;

/// Like [`with_pos`], with `$p` mutable.
macro_rules! with_pos_mut {
    ($pos:expr, |$p:ident| $body:expr) => {
        match &mut $pos.rules {
            $crate::position::Rules::Chess($p) => $body,
            $crate::position::Rules::Variant(v) => {
                let $p: &mut shakmaty::variant::VariantPosition = v;
                $body
            }
        }
    };
}

/// A legal position of standard chess, Chess960 or a lichess variant (Antichess, Atomic,
/// Crazyhouse, Horde, King of the Hill, Racing Kings, Three-check), with shakmaty's rules.
///
/// It keeps the en-passant square of every double push, so its writers can emit any
/// [`EpRule`]; equality and [`PositionKey`] only see the square when a capture is legal.
/// Standard chess is played on [`shakmaty::Chess`] directly; the variants through
/// [`VariantPosition`].
///
/// ```
/// use tabia_position::{EpRule, Position};
///
/// let pos = Position::new();
/// assert_eq!(pos.fen(EpRule::Always), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// assert_eq!(pos.zobrist(), 0x463b_9618_1691_fc9c);
/// ```
///
/// A variant:
///
/// ```
/// use tabia_position::{EpRule, Position, Variant};
///
/// let mut pos = Position::new_variant(Variant::Crazyhouse);
/// for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2", "Rxa2"] {
///     pos = pos.after(san)?;
/// }
/// assert_eq!(pos.fen(EpRule::Legal), "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] b Kkq - 0 4");
/// let pos = pos.after("@b4")?;
/// assert_eq!(pos.epd(EpRule::Legal), "rnb1kbnr/ppp1pppp/8/8/1p6/2N5/RPPP1PPP/2BQKBNR[QPp] w Kkq -");
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) rules: Rules,
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        Position::default()
    }

    /// The starting position of `variant`.
    ///
    /// ```
    /// use tabia_position::{EpRule, Position, Variant};
    ///
    /// let pos = Position::new_variant(Variant::RacingKings);
    /// assert_eq!(pos.fen(EpRule::Always), "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
    /// ```
    pub fn new_variant(variant: Variant) -> Position {
        Position::from_variant_position(VariantPosition::new(variant))
    }

    /// The position of shakmaty's [`VariantPosition`] (standard chess stays on `Chess`).
    pub fn from_variant_position(pos: VariantPosition) -> Position {
        match pos {
            VariantPosition::Chess(chess) => Position {
                rules: Rules::Chess(chess),
            },
            other => Position {
                rules: Rules::Variant(Box::new(other)),
            },
        }
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
            Ok(chess) => Ok(Position {
                rules: Rules::Chess(chess),
            }),
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

    /// A position of `variant` from a setup (its pockets, promoted pieces and check counters
    /// included), with the castling mode given. Standard chess is checked as by
    /// [`Position::from_setup_with_mode`]; a variant by shakmaty's rules for it.
    ///
    /// # Errors
    ///
    /// [`SetupError`] with every problem found.
    pub fn from_setup_variant(
        setup: Setup,
        variant: Variant,
        mode: CastlingMode,
    ) -> Result<Position, SetupError> {
        if variant == Variant::Chess {
            return Position::from_setup_with_mode(setup, mode);
        }
        match VariantPosition::from_setup(variant, setup, mode) {
            Ok(pos) => Ok(Position::from_variant_position(pos)),
            Err(err) => Err(SetupError::new(crate::validate::variant_problems(
                variant,
                err.kinds(),
            ))),
        }
    }

    /// The shakmaty position of standard chess or Chess960.
    ///
    /// # Panics
    ///
    /// On a position of another variant: use [`Position::as_chess`] or
    /// [`Position::variant_position`] where variants may come.
    pub fn chess(&self) -> &Chess {
        match &self.rules {
            Rules::Chess(chess) => chess,
            Rules::Variant(v) => panic!(
                "Position::chess on a {} position (use as_chess or variant_position)",
                v.variant()
            ),
        }
    }

    /// The shakmaty position, if this is standard chess or Chess960.
    pub fn as_chess(&self) -> Option<&Chess> {
        match &self.rules {
            Rules::Chess(chess) => Some(chess),
            Rules::Variant(_) => None,
        }
    }

    /// Consumes `self` into the shakmaty position of standard chess or Chess960.
    ///
    /// # Panics
    ///
    /// On a position of another variant (see [`Position::into_variant_position`]).
    pub fn into_chess(self) -> Chess {
        match self.rules {
            Rules::Chess(chess) => chess,
            Rules::Variant(v) => panic!(
                "Position::into_chess on a {} position (use into_variant_position)",
                v.variant()
            ),
        }
    }

    /// The position as shakmaty's [`VariantPosition`] (a copy), whatever the variant.
    pub fn variant_position(&self) -> VariantPosition {
        self.clone().into_variant_position()
    }

    /// Consumes `self` into shakmaty's [`VariantPosition`].
    pub fn into_variant_position(self) -> VariantPosition {
        match self.rules {
            Rules::Chess(chess) => VariantPosition::Chess(chess),
            Rules::Variant(v) => *v,
        }
    }

    /// The variant whose rules the position follows ([`Variant::Chess`] for standard chess and
    /// Chess960).
    pub fn variant(&self) -> Variant {
        match &self.rules {
            Rules::Chess(_) => Variant::Chess,
            Rules::Variant(v) => v.variant(),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with_pos!(self, |p| p.turn())
    }

    /// The board.
    pub fn board(&self) -> &Board {
        with_pos!(self, |p| p.board())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        with_pos!(self, |p| p.is_check())
    }

    /// The pieces giving check to the side to move (by the variant's rules): what a replay
    /// loop keeps from move to move for [`Position::resolve_with_checkers`].
    ///
    /// ```
    /// use tabia_position::Position;
    ///
    /// let pos = Position::from_arg("rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3")?;
    /// assert_eq!(pos.checkers().count(), 1);
    /// assert!(Position::new().checkers().is_empty());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        with_pos!(self, |p| p.checkers())
    }

    /// Standard chess and Chess960: whether the king of the side to move can step to a square
    /// that no enemy piece attacks (then a check is not mate), found without generating
    /// moves. `false` in the other variants, and when it cannot.
    pub(crate) fn king_can_step_out(&self) -> bool {
        let Rules::Chess(chess) = &self.rules else {
            return false;
        };
        let board = chess.board();
        let turn = chess.turn();
        let Some(king) = board.king_of(turn) else {
            return false;
        };
        // Without the king: a slider checking it also attacks the squares behind it.
        let occupied = board.occupied().without(king);
        (shakmaty::attacks::king_attacks(king) & !board.by_color(turn))
            .into_iter()
            .any(|to| board.attacks_to(to, !turn, occupied).is_empty())
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        with_pos!(self, |p| p.halfmoves())
    }

    /// The number of the move, from 1.
    pub fn fullmoves(&self) -> NonZeroU32 {
        with_pos!(self, |p| p.fullmoves())
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> MoveList {
        with_pos!(self, |p| p.legal_moves())
    }

    /// Crazyhouse: the pieces in hand of each side.
    pub fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        with_pos!(self, |p| p.pockets())
    }

    /// Three-check: how many more checks each side has to give.
    pub fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        with_pos!(self, |p| p.remaining_checks())
    }

    /// Crazyhouse: the promoted pieces (they go back to the pocket as pawns when taken).
    pub fn promoted(&self) -> Bitboard {
        with_pos!(self, |p| p.promoted())
    }

    /// Standard chess or Chess960 castling.
    pub fn castling_mode(&self) -> CastlingMode {
        with_pos!(self, |p| p.castles().mode())
    }

    /// The setup (all six FEN fields, and the pockets and check counters of a variant) with
    /// the en-passant square of `ep`.
    pub fn setup(&self, ep: EpRule) -> Setup {
        with_pos!(self, |p| p.to_setup(ep.mode()))
    }

    /// The en-passant square under `ep`.
    pub fn ep_square(&self, ep: EpRule) -> Option<shakmaty::Square> {
        with_pos!(self, |p| p.ep_square(ep.mode()))
    }

    /// Plays a move known to be legal (one from [`Position::parse_move`] or the legal moves).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        with_pos_mut!(self, |p| p.play_unchecked(m));
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and returns `false`.
    pub fn play(&mut self, m: Move) -> bool {
        with_pos_mut!(self, |p| {
            if p.is_legal(m) {
                p.play_unchecked(m);
                true
            } else {
                false
            }
        })
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
        if self.is_check() {
            return false;
        }
        let mode = self.castling_mode();
        let variant = self.variant();
        let mut setup = self.setup(EpRule::Always);
        let mover = setup.turn;
        setup.swap_turn();
        setup.halfmoves = setup.halfmoves.saturating_add(1);
        if mover == Color::Black {
            setup.fullmoves = setup.fullmoves.saturating_add(1);
        }
        match VariantPosition::from_setup(variant, setup, mode) {
            Ok(pos) => {
                *self = Position::from_variant_position(pos);
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
        with_pos!(self, |p| SanPlus::from_move(p.clone(), m))
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
        write::push_u32(buf, self.halfmoves());
        buf.push(b' ');
        write::push_u32(buf, self.fullmoves().get());
    }

    /// Appends the EPD's four position fields to `buf` (ASCII); for Crazyhouse the pockets
    /// after the placement (`[QPpp]`, promoted pieces marked `~`), for Three-check the check
    /// counters after the en-passant field (`3+3`), as lichess and python-chess write them.
    pub fn write_epd(&self, buf: &mut Vec<u8>, ep: EpRule) {
        with_pos!(self, |p| write_epd_of(p, buf, ep))
    }

    /// The position key: placement, side to move, castling rights and the en-passant square only
    /// when a capture is legal; no clocks. Two positions that differ only in move counters or
    /// in an unusable en-passant square have the same key. Variants add their rules, pockets
    /// and check counters.
    pub fn key(&self) -> PositionKey {
        match &self.rules {
            Rules::Chess(chess) => PositionKey::from_chess(chess),
            Rules::Variant(v) => PositionKey::from_variant(v),
        }
    }

    /// The 64-bit Polyglot Zobrist hash (en passant only when a capture is legal, no clocks);
    /// variants add shakmaty's keys for pockets, promoted pieces and check counters.
    pub fn zobrist(&self) -> u64 {
        with_pos!(self, |p| p
            .zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
            .0)
    }

    /// The 64-bit Polyglot Zobrist hash with the en-passant square of `ep`
    /// ([`EpRule::PseudoLegal`] is the Polyglot book format's own rule).
    pub fn zobrist_with(&self, ep: EpRule) -> u64 {
        with_pos!(self, |p| p.zobrist_hash::<Zobrist64>(ep.mode()).0)
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        with_pos!(self, |p| p.is_checkmate())
    }

    /// Plays the legal move `m` and returns the new Polyglot hash, updated incrementally from
    /// `hash` (this position's [`Position::zobrist`]): every move of standard chess and
    /// Chess960 (king moves, castling, double steps, en passant and lost castling rights
    /// included); other variants when shakmaty can, else from scratch.
    ///
    /// ```
    /// use tabia_position::Position;
    ///
    /// let mut pos = Position::new();
    /// let mut hash = pos.zobrist();
    /// for san in ["e4", "d5", "e5", "f5", "exf6", "Kf7", "Nf3", "Ke6", "Bc4+", "Kd6"] {
    ///     let m = pos.parse_move(san)?;
    ///     hash = pos.play_zobrist(hash, m);
    ///     assert_eq!(hash, pos.zobrist(), "after {san}");
    /// }
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    #[inline]
    pub fn play_zobrist(&mut self, hash: u64, m: Move) -> u64 {
        if let Rules::Chess(chess) = &mut self.rules
            && let Some(next) = play_chess_zobrist(chess, hash, m)
        {
            return next;
        }
        let next = with_pos_mut!(self, |p| {
            let next = p.update_zobrist_hash::<Zobrist64>(Zobrist64(hash), m, EnPassantMode::Legal);
            p.play_unchecked(m);
            next
        });
        match next {
            Some(z) => z.0,
            None => self.zobrist(),
        }
    }
}

/// [`Position::play_zobrist`] for standard chess and Chess960: plays `m` on `chess` and gives
/// the hash updated from `hash` by the keys of what changed. `None` (nothing played) for a
/// drop, which chess has not.
#[inline]
fn play_chess_zobrist(chess: &mut Chess, hash: u64, m: Move) -> Option<u64> {
    let moved = move_keys(m, chess.turn())?;
    let castles_before = chess.castles().clone();
    let ep_before = chess.ep_square(EnPassantMode::Legal);
    chess.play_unchecked(m);
    Some((Zobrist64(hash) ^ moved ^ state_keys(&castles_before, ep_before, chess)).0)
}

/// The keys a move of `turn` changes by itself: the side to move, the pieces moved, taken and
/// promoted. `None` for a drop.
#[inline]
fn move_keys(m: Move, turn: Color) -> Option<Zobrist64> {
    let piece = |sq: Square, role: Role, color: Color| {
        Zobrist64::zobrist_for_piece(sq, Piece { color, role })
    };
    let mut z = Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            z ^= piece(from, role, turn);
            if let Some(capture) = capture {
                z ^= piece(to, capture, !turn);
            }
            z ^= piece(to, promotion.unwrap_or(role), turn);
        }
        Move::EnPassant { from, to } => {
            z ^= piece(from, Role::Pawn, turn);
            z ^= piece(to, Role::Pawn, turn);
            z ^= piece(
                Square::from_coords(to.file(), from.rank()),
                Role::Pawn,
                !turn,
            );
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            z ^= piece(king, Role::King, turn);
            z ^= piece(rook, Role::Rook, turn);
            z ^= piece(side.king_to(turn), Role::King, turn);
            z ^= piece(side.rook_to(turn), Role::Rook, turn);
        }
        Move::Put { .. } => return None,
    }
    Some(z)
}

/// The keys that change between a position with `castles_before` and the en-passant square
/// `ep_before` (when a capture is legal) and `after`: the castling rights lost, the en-passant
/// file before and after.
#[inline]
fn state_keys(castles_before: &Castles, ep_before: Option<Square>, after: &Chess) -> Zobrist64 {
    let mut z = Zobrist64(0);
    let castles = after.castles();
    if castles.castling_rights() != castles_before.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if castles.has(color, side) != castles_before.has(color, side) {
                    z ^= Zobrist64::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    if let Some(sq) = ep_before {
        z ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    if let Some(sq) = after.ep_square(EnPassantMode::Legal) {
        z ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    z
}

/// The Polyglot hashes ([`Position::zobrist`]) of the positions of a line, for a caller that
/// is shown each position after its move rather than playing the moves itself (the callback of
/// a replay): each hash is updated from the one before, for every move of standard chess and
/// Chess960, else computed afresh (the first position, a null move, other variants).
///
/// ```
/// use tabia_position::{Position, ZobristTracker};
///
/// let mut pos = Position::new();
/// let mut tracker = ZobristTracker::default();
/// assert_eq!(tracker.after(&pos, None), pos.zobrist());
/// for san in ["e4", "d5", "exd5", "Kd7", "Ke2", "c5", "dxc6"] {
///     let m = pos.parse_move(san)?;
///     pos.play_unchecked(m);
///     assert_eq!(tracker.after(&pos, Some(m)), pos.zobrist(), "after {san}");
/// }
/// # Ok::<_, tabia_position::MoveError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ZobristTracker {
    /// The last position's hash, castling rights and en-passant square (a legal capture),
    /// when it was standard chess or Chess960.
    last: Option<(u64, Castles, Option<Square>)>,
}

impl ZobristTracker {
    /// The hash of `pos`, reached by `m` from the position given last (`None`: the first
    /// position, or one after a null move).
    #[inline]
    pub fn after(&mut self, pos: &Position, m: Option<Move>) -> u64 {
        let Rules::Chess(chess) = &pos.rules else {
            self.last = None;
            return pos.zobrist();
        };
        let updated = match (&self.last, m) {
            (Some((hash, castles, ep)), Some(m)) => move_keys(m, !chess.turn())
                .map(|moved| (Zobrist64(*hash) ^ moved ^ state_keys(castles, *ep, chess)).0),
            _ => None,
        };
        let hash = updated.unwrap_or_else(|| pos.zobrist());
        self.last = Some((
            hash,
            chess.castles().clone(),
            chess.ep_square(EnPassantMode::Legal),
        ));
        hash
    }
}

/// The EPD fields of any shakmaty position into `buf`.
#[inline]
fn write_epd_of<P: shakmaty::Position>(p: &P, buf: &mut Vec<u8>, ep: EpRule) {
    let board = p.board();
    let promoted = p.promoted();
    if promoted.is_empty() {
        write::push_placement(buf, board);
    } else {
        write::push_placement_promoted(buf, board, promoted);
    }
    if let Some(pockets) = p.pockets() {
        write::push_pockets(buf, pockets);
    }
    buf.push(b' ');
    buf.push(p.turn().fold_wb(b'w', b'b'));
    buf.push(b' ');
    let castles = p.castles();
    let rights = castles.castling_rights();
    if castles.mode() == CastlingMode::Standard {
        write::push_standard_castling(buf, rights);
    } else {
        write::push_castling(buf, board, rights);
    }
    buf.push(b' ');
    match p.ep_square(ep.mode()) {
        Some(sq) => {
            buf.push(sq.file().char() as u8);
            buf.push(sq.rank().char() as u8);
        }
        None => buf.push(b'-'),
    }
    if let Some(checks) = p.remaining_checks() {
        buf.push(b' ');
        write::push_u32(buf, u32::from(checks.white));
        buf.push(b'+');
        write::push_u32(buf, u32::from(checks.black));
    }
}

impl From<Chess> for Position {
    fn from(chess: Chess) -> Position {
        Position {
            rules: Rules::Chess(chess),
        }
    }
}

impl From<VariantPosition> for Position {
    fn from(pos: VariantPosition) -> Position {
        Position::from_variant_position(pos)
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
        assert_eq!(
            "sometimes".parse::<EpRule>().unwrap_err().to_string(),
            "unknown en-passant rule `sometimes` (expected always, legal or pseudo)"
        );
    }
}
