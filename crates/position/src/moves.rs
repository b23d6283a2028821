//! Moves from text (SAN, UCI, long algebraic) to legal moves, with errors that say why.

use std::fmt;

use shakmaty::{
    Bitboard, CastlingSide, Color, Move, Piece, Rank, Role, Square, attacks,
    san::{San, SanPlus},
    uci::UciMove,
    variant::Variant,
};

use crate::position::{Position, with_pos};

/// Why a move is not legal in a position (or is not a move at all).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The text is not a move in SAN, UCI or long algebraic notation.
    Syntax(tabia_notation::Error),
    /// No piece of the side to move of that kind can go to the square.
    NoPieceCanGo {
        /// The piece named by the move.
        piece: Piece,
        /// The destination.
        to: Square,
    },
    /// The move is one the side *not* to move could make.
    WrongSide {
        /// The side to move.
        turn: Color,
    },
    /// Several legal moves match; their canonical SAN is listed.
    Ambiguous {
        /// The canonical SAN of each candidate.
        candidates: Vec<String>,
    },
    /// The piece could go there, but the move would leave or put its own king in check.
    SelfCheck {
        /// Whether the king is in check already.
        in_check: bool,
    },
    /// The king would go to a square the other side attacks (or stay in the line of a check).
    KingIntoCheck {
        /// The king's destination.
        to: Square,
    },
    /// The move is written as a capture but captures nothing, or the reverse.
    CaptureMismatch {
        /// Whether the text says `x`.
        written_as_capture: bool,
        /// The destination.
        to: Square,
    },
    /// A pawn reaches the last rank but no promotion piece is written.
    MissingPromotion,
    /// A promotion is written for a move that is not a pawn reaching the last rank.
    UnexpectedPromotion,
    /// Castling is not possible.
    CannotCastle {
        /// Which side.
        side: CastlingSide,
        /// Why: the right is gone, the king is in check, or the path is blocked or attacked.
        reason: &'static str,
    },
    /// A UCI or long algebraic move starts from an empty square.
    NoPieceOn {
        /// The empty origin.
        from: Square,
    },
    /// A UCI or long algebraic move names a piece that is not on its origin square.
    WrongPiece {
        /// The piece the text names.
        named: Role,
        /// The origin.
        from: Square,
    },
    /// The piece on the origin square cannot move to the destination.
    Unreachable {
        /// The piece on `from`.
        piece: Piece,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// A null move (`--`, `Z0`) or a piece drop, which are not moves of chess.
    NotAChessMove,
    /// A piece drop (Crazyhouse) that is not legal.
    IllegalDrop {
        /// The dropped piece.
        piece: Piece,
        /// Where it was to go.
        to: Square,
        /// Why it cannot.
        reason: &'static str,
    },
    /// A move that the rules of the variant forbid (a capture is compulsory in Antichess, …).
    VariantRule {
        /// The rule.
        reason: &'static str,
    },
    /// A null move in a game, while the side to move is in check.
    NullMoveInCheck,
}

/// A move that could not be played: the move's text and why.
///
/// ```
/// use tabia_position::Position;
///
/// let pos: Position = "4k3/8/8/8/8/1N3N2/8/4K3 w - - 0 1".parse()?;
/// let err = pos.parse_move("Nd4").unwrap_err();
/// assert_eq!(err.to_string(), "illegal move `Nd4`: ambiguous, could be Nbd4 or Nfd4");
/// let err = pos.parse_move("Ke3").unwrap_err();
/// assert_eq!(err.to_string(), "illegal move `Ke3`: no white king can go to e3");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    text: String,
    kind: MoveErrorKind,
}

impl MoveError {
    /// The move `text` failed for `kind` (for replayers outside this crate).
    pub fn new(text: impl Into<String>, kind: MoveErrorKind) -> MoveError {
        MoveError {
            text: text.into(),
            kind,
        }
    }

    /// The move as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why it failed.
    pub fn kind(&self) -> &MoveErrorKind {
        &self.kind
    }

    /// The reason without the move, e.g. `no white king can go to e3`.
    pub fn reason(&self) -> String {
        self.kind.to_string()
    }
}

fn color_name(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveErrorKind::Syntax(err) => write!(f, "{}", err.message()),
            MoveErrorKind::NoPieceCanGo { piece, to } => write!(
                f,
                "no {} {} can go to {to}",
                color_name(piece.color),
                role_name(piece.role)
            ),
            MoveErrorKind::WrongSide { turn } => write!(
                f,
                "it is {}'s move, and this is a move for {}",
                color_name(*turn),
                color_name(!*turn)
            ),
            MoveErrorKind::Ambiguous { candidates } => {
                f.write_str("ambiguous, could be ")?;
                for (i, c) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == candidates.len() {
                            " or "
                        } else {
                            ", "
                        })?;
                    }
                    f.write_str(c)?;
                }
                Ok(())
            }
            MoveErrorKind::SelfCheck { in_check: true } => {
                f.write_str("the king is in check and this move does not escape it")
            }
            MoveErrorKind::SelfCheck { in_check: false } => {
                f.write_str("the piece is pinned: the move would expose the king to check")
            }
            MoveErrorKind::KingIntoCheck { to } => {
                write!(f, "the king would be in check on {to}")
            }
            MoveErrorKind::CaptureMismatch {
                written_as_capture: true,
                to,
            } => write!(
                f,
                "written as a capture, but there is nothing to take on {to}"
            ),
            MoveErrorKind::CaptureMismatch {
                written_as_capture: false,
                to,
            } => write!(f, "this captures on {to}: write it with `x`"),
            MoveErrorKind::MissingPromotion => {
                f.write_str("a pawn reaching the last rank must promote (e.g. `=Q`)")
            }
            MoveErrorKind::UnexpectedPromotion => {
                f.write_str("only a pawn reaching the last rank promotes")
            }
            MoveErrorKind::CannotCastle { side, reason } => write!(
                f,
                "cannot castle {}: {reason}",
                match side {
                    CastlingSide::KingSide => "kingside",
                    CastlingSide::QueenSide => "queenside",
                }
            ),
            MoveErrorKind::NoPieceOn { from } => write!(f, "there is no piece on {from}"),
            MoveErrorKind::WrongPiece { named, from } => {
                write!(f, "there is no {} on {from}", role_name(*named))
            }
            MoveErrorKind::Unreachable { piece, from, to } => write!(
                f,
                "the {} {} on {from} cannot go to {to}",
                color_name(piece.color),
                role_name(piece.role)
            ),
            MoveErrorKind::NotAChessMove => {
                f.write_str("null moves and piece drops are not moves of chess")
            }
            MoveErrorKind::NullMoveInCheck => {
                f.write_str("a null move is not possible while in check")
            }
            MoveErrorKind::IllegalDrop { piece, to, reason } => write!(
                f,
                "cannot drop a {} {} on {to}: {reason}",
                color_name(piece.color),
                role_name(piece.role)
            ),
            MoveErrorKind::VariantRule { reason } => f.write_str(reason),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move `{}`: {}", self.text, self.kind)
    }
}

impl std::error::Error for MoveError {}

/// Squares from which a `piece` could move to `to` by the movement rules alone (ignoring
/// checks): pushes and double pushes for pawns when `capture` is false, attacks otherwise.
fn pseudo_sources<P: shakmaty::Position>(
    pos: &P,
    piece: Piece,
    to: Square,
    capture: bool,
) -> Bitboard {
    let board = pos.board();
    let occupied = board.occupied();
    if board.by_color(piece.color).contains(to) {
        return Bitboard::EMPTY;
    }
    let ours = board.by_piece(piece);
    if piece.role != Role::Pawn {
        return ours & attacks::attacks(to, piece, occupied);
    }
    if capture {
        return ours & attacks::pawn_attacks(!piece.color, to);
    }
    if occupied.contains(to) {
        return Bitboard::EMPTY;
    }
    let back = piece.color.fold_wb(-8, 8);
    let mut from = Bitboard::EMPTY;
    if let Some(one) = to.offset(back) {
        if ours.contains(one) {
            from.add(one);
        } else if !occupied.contains(one)
            && to.rank() == piece.color.fold_wb(Rank::Fourth, Rank::Fifth)
            && let Some(two) = one.offset(back).filter(|sq| ours.contains(*sq))
        {
            from.add(two);
        }
    }
    from
}

/// The legal move a SAN names, found without generating moves, in the common case only:
/// exactly one piece of the named kind (after the written disambiguation) can go to the square
/// by the movement rules, the capture and promotion are written as they are, the piece is not
/// pinned (or moves along its pin), and when the side to move is in check (`checkers`, the
/// pieces giving check, computed here when not given) the move takes the one checker or
/// blocks its line, or is the king's to a square no enemy piece attacks. `None` otherwise, for
/// [`San::to_move`] and the explanations to decide: then there may still be a legal move (an
/// en-passant capture, castling, an ambiguity that a pin resolves, a double check).
/// A move found here is the one `to_move` finds (tested against it).
#[inline]
fn quick_san(pos: &shakmaty::Chess, san: San, checkers: Option<Bitboard>) -> Option<Move> {
    use shakmaty::Position as _;

    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let board = pos.board();
    let turn = pos.turn();
    if board.by_color(turn).contains(to) {
        return None;
    }
    // What stands on `to` is the enemy's: taken, or nothing. En passant takes elsewhere.
    let taken = board.role_at(to);
    if taken.is_some() != capture {
        return None;
    }
    let king = board.king_of(turn)?;
    let occupied = board.occupied();
    let checkers = checkers.unwrap_or_else(|| board.attacks_to(king, !turn, occupied));
    // Where a piece other than the king may go: anywhere; in check, onto the checker or
    // between it and the king; in double check, nowhere.
    let evading = if checkers.is_empty() {
        Bitboard::FULL
    } else if let Some(checker) = checkers.single_square() {
        attacks::between(king, checker).with(checker)
    } else {
        Bitboard::EMPTY
    };
    if role != Role::King && !evading.contains(to) {
        return None;
    }
    let ours = board.by_piece(role.of(turn));
    let mut from = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!turn, to) & ours,
        Role::Pawn => {
            let back = turn.fold_wb(-8, 8);
            let one = to.offset(back)?;
            if ours.contains(one) {
                Bitboard::from_square(one)
            } else if !occupied.contains(one)
                && to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth)
                && let Some(two) = one.offset(back).filter(|sq| ours.contains(*sq))
            {
                Bitboard::from_square(two)
            } else {
                return None;
            }
        }
        Role::King => {
            let from = attacks::king_attacks(to) & ours;
            // Without the king: a slider checking it also attacks the squares behind it.
            if board.attacks_to(to, !turn, occupied.without(king)).any() {
                return None;
            }
            from
        }
        // Each role's own attacks, inlined (`attacks::attacks` is a call that matches the
        // piece again).
        Role::Knight => attacks::knight_attacks(to) & ours,
        Role::Bishop => attacks::bishop_attacks(to, occupied) & ours,
        Role::Rook => attacks::rook_attacks(to, occupied) & ours,
        Role::Queen => attacks::queen_attacks(to, occupied) & ours,
    };
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    let from = from.single_square()?;
    if role == Role::Pawn && is_last_rank(turn, to) {
        if !matches!(
            promotion,
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        ) {
            return None;
        }
    } else if promotion.is_some() {
        return None;
    }
    if role != Role::King {
        // Pinned: on a line from the king, with an enemy slider behind it on that line, and
        // leaving the line.
        let line = attacks::ray(king, from);
        if line.any() && !line.contains(to) {
            let without = occupied.without(from);
            let snipers = if attacks::bishop_attacks(king, Bitboard::EMPTY).contains(from) {
                attacks::bishop_attacks(king, without) & board.bishops_and_queens()
            } else {
                attacks::rook_attacks(king, without) & board.rooks_and_queens()
            };
            if (snipers & line & board.by_color(!turn)).any() {
                return None;
            }
        }
    }
    Some(Move::Normal {
        role,
        from,
        capture: taken,
        to,
        promotion,
    })
}

#[inline]
fn is_last_rank(color: Color, sq: Square) -> bool {
    sq.rank() == color.fold_wb(Rank::Eighth, Rank::First)
}

impl Position {
    /// Resolves a parsed SAN to the legal move it names, or explains why there is none.
    ///
    /// # Errors
    ///
    /// [`MoveError`]: illegal, ambiguous (naming the candidates), no piece can go there, wrong
    /// side to move, capture or promotion written wrong, castling impossible.
    pub fn resolve_san(&self, san: San) -> Result<Move, MoveError> {
        self.resolve_san_kind(san)
            .map_err(|kind| MoveError::new(san.to_string(), kind))
    }

    #[inline]
    pub(crate) fn resolve_san_kind(&self, san: San) -> Result<Move, MoveErrorKind> {
        self.resolve_san_kind_with(san, None)
    }

    /// [`Position::resolve_san_kind`], with the pieces giving check when the caller knows them
    /// (from [`Position::checkers`] of this position).
    #[inline]
    pub(crate) fn resolve_san_kind_with(
        &self,
        san: San,
        checkers: Option<Bitboard>,
    ) -> Result<Move, MoveErrorKind> {
        // Fastest path (standard chess, Chess960): one piece can go there and it is not
        // pinned, and it answers a check if there is one.
        if let Some(m) = self
            .as_chess()
            .and_then(|chess| quick_san(chess, san, checkers))
        {
            return Ok(m);
        }
        let variant = self.variant();
        with_pos!(self, |p| resolve_san_in(p, variant, san))
    }

    /// Resolves a parsed UCI move (`e2e4`, `e7e8q`, `e1g1` or Chess960's `e1h1`, `N@f3`).
    ///
    /// # Errors
    ///
    /// [`MoveError`]: no piece on the origin, wrong side, unreachable, self-check, promotion.
    pub fn resolve_uci(&self, uci: UciMove) -> Result<Move, MoveError> {
        self.resolve_uci_kind(uci, None, None)
            .map_err(|kind| MoveError::new(uci.to_string(), kind))
    }

    /// Resolves a move given by its origin and destination, optionally checking the named piece
    /// and whether the text says capture (long algebraic notation: `Ng1-f3`, `e4xd5`).
    pub(crate) fn resolve_uci_kind(
        &self,
        uci: UciMove,
        named: Option<Role>,
        capture: Option<bool>,
    ) -> Result<Move, MoveErrorKind> {
        let variant = self.variant();
        with_pos!(self, |p| resolve_uci_in(p, variant, uci, named, capture))
    }

    /// The canonical SAN (with `+`/`#`) of every legal move, e.g. for a "did you mean".
    pub fn legal_sans(&self) -> Vec<SanPlus> {
        self.legal_moves().iter().map(|m| self.san(*m)).collect()
    }
}

/// Why a drop the rules refuse is illegal.
fn explain_drop<P: shakmaty::Position>(
    pos: &P,
    variant: Variant,
    role: Role,
    to: Square,
) -> MoveErrorKind {
    let piece = role.of(pos.turn());
    let reason = if variant != Variant::Crazyhouse {
        "pieces are dropped only in Crazyhouse"
    } else if pos
        .pockets()
        .is_none_or(|p| *p.get(piece.color).get(role) == 0)
    {
        "there is none in the pocket"
    } else if pos.board().occupied().contains(to) {
        "the square is not empty"
    } else if role == Role::Pawn && (to.rank() == Rank::First || to.rank() == Rank::Eighth) {
        "pawns are not dropped on the first or last rank"
    } else if pos.is_check() {
        "the drop does not escape the check"
    } else {
        "the rules do not allow it"
    };
    MoveErrorKind::IllegalDrop { piece, to, reason }
}

/// Why a move the piece could make by its movement is still illegal: the variant's own rule,
/// or a king left in check.
fn explain_pseudo_legal<P: shakmaty::Position>(
    pos: &P,
    variant: Variant,
    role: Role,
    to: Square,
) -> MoveErrorKind {
    match variant {
        Variant::Antichess if !pos.capture_moves().is_empty() => MoveErrorKind::VariantRule {
            reason: "a capture is compulsory in Antichess",
        },
        Variant::Atomic => MoveErrorKind::VariantRule {
            reason: "in Atomic the move would explode its own king or leave it in check",
        },
        Variant::RacingKings => MoveErrorKind::VariantRule {
            reason: "in Racing Kings no move may give check or leave the king in check",
        },
        _ if role == Role::King => MoveErrorKind::KingIntoCheck { to },
        _ => MoveErrorKind::SelfCheck {
            in_check: pos.is_check(),
        },
    }
}

fn resolve_san_in<P: shakmaty::Position + Clone>(
    pos: &P,
    variant: Variant,
    san: San,
) -> Result<Move, MoveErrorKind> {
    {
        // Fast path: shakmaty finds the one legal move that matches everything written.
        if let Ok(m) = san.to_move(pos) {
            return Ok(m);
        }
        let turn = pos.turn();
        match san {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let from_matches = |m: &Move| {
                    let from = m.from().unwrap_or(to);
                    file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank())
                };
                let mut exact = pos.san_candidates(role, to);
                exact.retain(|m| {
                    from_matches(m) && m.is_capture() == capture && m.promotion() == promotion
                });
                match exact.as_slice() {
                    [m] => return Ok(*m),
                    [] => {}
                    many => {
                        let candidates = many
                            .iter()
                            .map(|m| SanPlus::from_move(pos.clone(), *m).to_string())
                            .collect();
                        return Err(MoveErrorKind::Ambiguous { candidates });
                    }
                }
                // Explain: what matches the piece and squares but not the capture or promotion.
                let mut matching = pos.san_candidates(role, to);
                matching.retain(|m| from_matches(m));
                if let Some(m) = matching.first() {
                    if m.is_capture() != capture {
                        return Err(MoveErrorKind::CaptureMismatch {
                            written_as_capture: capture,
                            to,
                        });
                    }
                    return Err(if promotion.is_some() && m.promotion().is_none() {
                        MoveErrorKind::UnexpectedPromotion
                    } else {
                        MoveErrorKind::MissingPromotion
                    });
                }
                if promotion.is_some() && (role != Role::Pawn || !is_last_rank(turn, to)) {
                    return Err(MoveErrorKind::UnexpectedPromotion);
                }
                let filter = |bb: Bitboard| {
                    bb.into_iter().any(|from| {
                        file.is_none_or(|f| f == from.file())
                            && rank.is_none_or(|r| r == from.rank())
                    })
                };
                if filter(pseudo_sources(pos, role.of(turn), to, capture)) {
                    // A pawn attacks an empty square that is no en-passant square: nothing to
                    // take, whatever the king.
                    if role == Role::Pawn
                        && capture
                        && !pos.board().occupied().contains(to)
                        && pos.maybe_ep_square() != Some(to)
                    {
                        return Err(MoveErrorKind::CaptureMismatch {
                            written_as_capture: true,
                            to,
                        });
                    }
                    return Err(explain_pseudo_legal(pos, variant, role, to));
                }
                if filter(pseudo_sources(pos, role.of(!turn), to, capture)) {
                    return Err(MoveErrorKind::WrongSide { turn });
                }
                Err(MoveErrorKind::NoPieceCanGo {
                    piece: role.of(turn),
                    to,
                })
            }
            San::Castle(side) => {
                if let Some(m) = pos.castling_moves(side).first() {
                    return Ok(*m);
                }
                let reason = if !pos.castles().has(turn, side) {
                    "the right to castle is gone"
                } else if pos.is_check() {
                    "the king is in check"
                } else if (pos.castles().path(turn, side) & pos.board().occupied()).any() {
                    "a piece stands between king and rook"
                } else {
                    "the king would pass through or land on an attacked square"
                };
                Err(MoveErrorKind::CannotCastle { side, reason })
            }
            San::Put { role, to } => Err(explain_drop(pos, variant, role, to)),
            San::Null => Err(MoveErrorKind::NotAChessMove),
        }
    }
}

fn resolve_uci_in<P: shakmaty::Position + Clone>(
    pos: &P,
    variant: Variant,
    uci: UciMove,
    named: Option<Role>,
    capture: Option<bool>,
) -> Result<Move, MoveErrorKind> {
    {
        let turn = pos.turn();
        if let UciMove::Put { role, to } = uci {
            return match uci.to_move(pos) {
                Ok(m) => Ok(m),
                Err(_) => Err(explain_drop(pos, variant, role, to)),
            };
        }
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = uci
        else {
            return Err(MoveErrorKind::NotAChessMove);
        };
        let Some(piece) = pos.board().piece_at(from) else {
            return Err(MoveErrorKind::NoPieceOn { from });
        };
        if let Some(named) = named.filter(|r| *r != piece.role) {
            return Err(MoveErrorKind::WrongPiece { named, from });
        }
        if piece.color != turn {
            return Err(MoveErrorKind::WrongSide { turn });
        }
        if let Ok(m) = uci.to_move(pos) {
            if let Some(capture) = capture.filter(|c| *c != m.is_capture()) {
                return Err(MoveErrorKind::CaptureMismatch {
                    written_as_capture: capture,
                    to,
                });
            }
            return Ok(m);
        }
        if promotion.is_some() && (piece.role != Role::Pawn || !is_last_rank(turn, to)) {
            return Err(MoveErrorKind::UnexpectedPromotion);
        }
        let reachable = pseudo_sources(pos, piece, to, false).contains(from)
            || (piece.role == Role::Pawn
                && pos.board().by_color(!turn).contains(to)
                && pseudo_sources(pos, piece, to, true).contains(from));
        if reachable && piece.role == Role::Pawn && is_last_rank(turn, to) && promotion.is_none() {
            return Err(MoveErrorKind::MissingPromotion);
        }
        if reachable {
            return Err(explain_pseudo_legal(pos, variant, piece.role, to));
        }
        if piece.role == Role::King && from.distance(to) == 2 && from.rank() == to.rank() {
            let side = CastlingSide::from_king_side(to.file() > from.file());
            return resolve_san_in(pos, variant, San::Castle(side));
        }
        Err(MoveErrorKind::Unreachable { piece, from, to })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;

    fn at(fen: &str) -> Position {
        let setup = fen.parse::<shakmaty::fen::Fen>().expect("fen").into_setup();
        Position::from_setup(setup).expect("legal")
    }

    fn san_err(fen: &str, san: &str) -> String {
        let san: San = san.parse().expect("san");
        at(fen).resolve_san(san).expect_err("illegal").to_string()
    }

    fn uci_err(fen: &str, uci: &str) -> String {
        let uci: UciMove = uci.parse().expect("uci");
        at(fen).resolve_uci(uci).expect_err("illegal").to_string()
    }

    #[test]
    fn explained_san_errors() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let check = "4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1";
        let pawn = "4k3/8/8/4p3/8/4K3/8/8 w - - 0 1";
        // (position, move, UCI or SAN, the message)
        for (fen, text, uci, message) in [
            (start, "Qh5", false, "no white queen can go to h5"),
            (
                start,
                "e5",
                false,
                "it is white's move, and this is a move for black",
            ),
            (
                start,
                "Nf6",
                false,
                "it is white's move, and this is a move for black",
            ),
            (
                start,
                "O-O",
                false,
                "cannot castle kingside: a piece stands between king and rook",
            ),
            (
                start,
                "Nxf3",
                false,
                "written as a capture, but there is nothing to take on f3",
            ),
            (
                "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
                "Bd3",
                false,
                "the piece is pinned: the move would expose the king to check",
            ),
            (
                check,
                "d3",
                false,
                "the king is in check and this move does not escape it",
            ),
            // A pawn capture onto an empty square has nothing to take (it is not pinned).
            (
                "rnbqkbnr/ppp1pppp/8/8/4p3/1P6/P1PP1PPP/RNBQKBNR w KQkq - 0 3",
                "bxc4",
                false,
                "written as a capture, but there is nothing to take on c4",
            ),
            // A king that steps onto an attacked square is not pinned: its own square is named.
            (pawn, "Kf4", false, "the king would be in check on f4"),
            (pawn, "e3d4", true, "the king would be in check on d4"),
            // In check, stepping back along the checking rook's line does not escape it either.
            (check, "Kf1", false, "the king would be in check on f1"),
            (
                "8/4P3/8/8/8/k7/8/4K3 w - - 0 1",
                "e8",
                false,
                "a pawn reaching the last rank must promote (e.g. `=Q`)",
            ),
            (
                "4k3/8/8/8/8/8/K7/R6R w - - 0 1",
                "Rd1",
                false,
                "ambiguous, could be Rad1 or Rhd1",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
                "O-O",
                false,
                "cannot castle kingside: the right to castle is gone",
            ),
        ] {
            let err = if uci {
                uci_err(fen, text)
            } else {
                san_err(fen, text)
            };
            assert_eq!(err, format!("illegal move `{text}`: {message}"), "{fen}");
        }
    }

    /// Every SAN worth trying in `pos`: each legal move written canonically, without and with
    /// full disambiguation, with the capture mark flipped, with other promotions; and each role
    /// to each square.
    fn sans(pos: &shakmaty::Chess) -> Vec<San> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let san = San::from_move(pos, m);
            out.push(san);
            if let San::Normal {
                role,
                capture,
                to,
                promotion,
                ..
            } = san
            {
                let from = m.from().unwrap_or(to);
                for (file, rank) in [
                    (None, None),
                    (Some(from.file()), None),
                    (None, Some(from.rank())),
                    (Some(from.file()), Some(from.rank())),
                ] {
                    for capture in [capture, !capture] {
                        for promotion in [promotion, None, Some(Role::Queen), Some(Role::King)] {
                            out.push(San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            });
                        }
                    }
                }
            }
        }
        for role in Role::ALL {
            for to in Square::ALL {
                for capture in [false, true] {
                    out.push(San::Normal {
                        role,
                        file: None,
                        rank: None,
                        capture,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_quick_path_finds_what_shakmaty_finds() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
            "8/8/8/2k5/3pP3/8/8/4K2R b K e3 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let (mut found, mut canonical, mut tried) = (0usize, 0usize, 0usize);
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for fen in starts {
            for _ in 0..6 {
                let mut pos = at(fen).into_chess();
                for _ in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for san in sans(&pos) {
                        tried += 1;
                        let quick = quick_san(&pos, san, None);
                        assert_eq!(quick, quick_san(&pos, san, Some(pos.checkers())));
                        if let Some(m) = quick {
                            assert_eq!(
                                san.to_move(&pos),
                                Ok(m),
                                "{san} in {}",
                                Position::from(pos.clone())
                            );
                        }
                    }
                    if !pos.is_check() {
                        for m in &moves {
                            let san = San::from_move(&pos, *m);
                            canonical += 1;
                            found += usize::from(quick_san(&pos, san, None).is_some());
                        }
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = moves[(seed % moves.len() as u64) as usize];
                    pos.play_unchecked(m);
                }
            }
        }
        assert!(tried > 100_000, "{tried}");
        // The quick path is the common path: castling, en passant and pins aside.
        assert!(found * 100 > canonical * 90, "{found} of {canonical}");
    }

    #[test]
    fn explained_uci_errors() {
        let pos = Position::new();
        let err = |s: &str| {
            pos.resolve_uci(s.parse().expect("uci"))
                .expect_err("illegal")
                .to_string()
        };
        assert_eq!(err("e3e4"), "illegal move `e3e4`: there is no piece on e3");
        assert_eq!(
            err("e7e5"),
            "illegal move `e7e5`: it is white's move, and this is a move for black"
        );
        assert_eq!(
            err("g1g3"),
            "illegal move `g1g3`: the white knight on g1 cannot go to g3"
        );
        assert_eq!(
            err("e2e4q"),
            "illegal move `e2e4q`: only a pawn reaching the last rank promotes"
        );
        assert!(pos.resolve_uci("g1f3".parse().expect("uci")).is_ok());
    }

    #[test]
    fn castling_in_uci_both_forms() {
        let pos = at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["e1g1", "e1h1"] {
            let m = pos.resolve_uci(text.parse().expect("uci")).expect("legal");
            assert_eq!(pos.san(m).to_string(), "O-O");
        }
    }
}
