//! Lenient reading: what the text of a game gets wrong that can be repaired — the `FEN` tag's
//! clocks, missing fields, castling rights and en-passant square; moves given by their squares,
//! with a wrong capture mark or a wrong check mark — each repair with its warning.

use shakmaty::{
    Bitboard, Chess, FromSetup, Move, PositionError, PositionErrorKinds, variant::VariantPosition,
};
use tabia_notation::{
    ErrorKind, Role,
    fen::Fen,
    pgn::Origin,
    san::{San, SanPlus, Suffix},
};

use crate::{
    edit::Editor,
    error::{ReplayError, ReplayErrorKind},
    moves::MoveErrorKind,
    position::{EpRule, Position, SetupError},
    validate::{Problem, validate_setup},
    variant::GameVariant,
    warning::{ReplayWarning, ReplayWarningKind},
};

/// The position of a `FEN` tag, repaired where it can be, and the warnings that say how. A
/// Chess960 `Variant` tag asks for `chess960`; otherwise the castling letters decide.
///
/// Repaired: a clock that is not a count (read as 0, or 1 for the fullmove number), a fullmove
/// number of 0 (read as 1), missing fields (the defaults of `w - - 0 1`), castling rights the
/// board cannot have (dropped), an impossible en-passant square (dropped), a position that no
/// game can reach but that can be played from (kept). Still an error: a text that is not a
/// FEN, a board without a legal position (no king, a pawn on the back rank, the side not to
/// move in check).
pub(crate) fn start_from_fen(
    text: &str,
    variant: GameVariant,
    at: Origin,
) -> Result<(Position, Vec<ReplayWarning>), ReplayError> {
    let mut warnings = Vec::new();
    let mut warn = |kind| warnings.push(ReplayWarning::new(kind, Some(at)));
    let mut bytes = text.trim().as_bytes().to_vec();
    let fail =
        |message: String| ReplayError::new(ReplayErrorKind::StartPosition(message), Some(at));
    // At most two clocks to repair, then the FEN reads or its error is final.
    let mut fen = None;
    for _ in 0..3 {
        match Fen::from_ascii_lenient(&bytes) {
            Ok(read) => {
                fen = Some(read);
                break;
            }
            Err(err) => {
                let (field, read_as) = match err.kind() {
                    ErrorKind::InvalidHalfmoveClock => ("halfmove clock", 0),
                    ErrorKind::InvalidFullmoveNumber => ("fullmove number", 1),
                    _ => return Err(fail(err.message())),
                };
                let span = err.span();
                let Some(given) = bytes.get(span.clone()) else {
                    return Err(fail(err.message()));
                };
                warn(ReplayWarningKind::FenClock {
                    field,
                    given: String::from_utf8_lossy(given).into_owned(),
                    read_as,
                });
                bytes.splice(span, read_as.to_string().bytes());
            }
        }
    }
    let Some(mut fen) = fen else {
        return Err(fail("the clocks cannot be read".to_owned()));
    };
    if Fen::from_ascii(&bytes).is_err_and(|err| err.kind() == ErrorKind::MissingField) {
        let mut read_as = fen;
        read_as.fullmoves = read_as.fullmoves.max(1);
        warn(ReplayWarningKind::FenFieldsMissing {
            read_as: read_as.to_string(),
        });
    }
    if fen.fullmoves == 0 {
        warn(ReplayWarningKind::FenFullmoveZero);
        fen.fullmoves = 1;
    }
    let editor = Editor::from_fen(&fen);
    let first = match editor.position_variant(variant) {
        Ok(pos) => return Ok((pos, warnings)),
        Err(err) => err,
    };
    let message = |err: &SetupError| {
        err.problems()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    };
    // What the rules of the variant do not allow at all (pockets outside Crazyhouse, …) is
    // not repaired.
    if first
        .problems()
        .iter()
        .all(|p| matches!(p, Problem::Other { .. }))
    {
        return Err(fail(message(&first)));
    }
    let mode = variant
        .castling_mode()
        .unwrap_or_else(|| editor.castling_mode());
    let setup = editor.setup();
    let problems = validate_setup(&setup, mode);
    let (pos, kinds) = if variant.is_standard() {
        let err = match Chess::from_setup(setup, mode) {
            Ok(chess) => return Ok((Position::from(chess), warnings)),
            Err(err) => err,
        };
        let kinds = err.kinds();
        match ignore_repairable(err) {
            Ok(chess) => (Position::from(chess), kinds),
            Err(_) => return Err(fail(message(&first))),
        }
    } else {
        let err = match VariantPosition::from_setup(variant.variant, setup, mode) {
            Ok(pos) => return Ok((Position::from_variant_position(pos), warnings)),
            Err(err) => err,
        };
        let kinds = err.kinds();
        match ignore_repairable(err) {
            Ok(pos) => (Position::from_variant_position(pos), kinds),
            Err(_) => return Err(fail(message(&first))),
        }
    };
    let reasons = |keep: fn(&Problem) -> bool| {
        let reasons: Vec<String> = problems
            .iter()
            .filter(|p| keep(p))
            .map(ToString::to_string)
            .collect();
        reasons.join("; ")
    };
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        warn(ReplayWarningKind::FenCastlingDropped {
            reason: reasons(|p| {
                matches!(
                    p,
                    Problem::CastlingOffBackRank { .. }
                        | Problem::CastlingKing { .. }
                        | Problem::CastlingRook { .. }
                        | Problem::CastlingOther
                )
            }),
            read_as: pos.to_fen(EpRule::Always).castling.to_string(),
        });
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        warn(ReplayWarningKind::FenEpDropped {
            reason: reasons(|p| {
                matches!(
                    p,
                    Problem::EpWrongRank { .. }
                        | Problem::EpNoPawn { .. }
                        | Problem::EpNotEmpty { .. }
                        | Problem::EpOther { .. }
                )
            }),
        });
    }
    if kinds
        .intersects(PositionErrorKinds::IMPOSSIBLE_CHECK | PositionErrorKinds::TOO_MUCH_MATERIAL)
    {
        warn(ReplayWarningKind::FenUnreachable {
            reason: reasons(|p| {
                matches!(
                    p,
                    Problem::ImpossibleCheck
                        | Problem::TooMuchMaterial
                        | Problem::TooManyPawns { .. }
                )
            }),
        });
    }
    Ok((pos, warnings))
}

/// The position of a setup once what can be repaired is: castling rights the board cannot
/// have and an impossible en-passant square dropped, an unreachable position kept.
// shakmaty's error holds the position: large, but only on this cold path.
#[allow(clippy::result_large_err)]
fn ignore_repairable<P>(err: PositionError<P>) -> Result<P, PositionError<P>> {
    err.ignore_invalid_castling_rights()
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
}

/// How a move's text differs from its SAN, found when it is resolved or played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slip {
    /// Given by its squares: UCI (`true`) or long algebraic.
    Notation { uci: bool },
    /// A wrong capture mark: the text says `x` (`true`) or does not.
    Capture { written_as_capture: bool },
    /// A wrong check mark: what the move gives.
    CheckMark { gives: Option<Suffix> },
    /// A b-file pawn capture that is a bishop's (`bxc6` for `Bxc6`).
    LowercaseBishop,
}

/// A move repaired: how its text slipped, and the SAN read instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Repair {
    pub(crate) slip: Slip,
    pub(crate) san: SanPlus,
}

impl Repair {
    /// The warning of this repair of the move `written`, as numbered in `numbered`.
    pub(crate) fn warning(&self, numbered: String, written: SanPlus, at: Origin) -> ReplayWarning {
        let san = self.san.to_string();
        let kind = match self.slip {
            Slip::Notation { uci } => ReplayWarningKind::MoveNotation { numbered, uci, san },
            Slip::Capture { written_as_capture } => ReplayWarningKind::CaptureMark {
                numbered,
                written_as_capture,
                san,
            },
            Slip::LowercaseBishop => ReplayWarningKind::LowercaseBishop { numbered, san },
            Slip::CheckMark { gives } => ReplayWarningKind::CheckMark {
                numbered,
                written: written.suffix,
                gives,
                san,
            },
        };
        ReplayWarning::new(kind, Some(at))
    }
}

/// The SAN of `m` in `pos` (before it is played), check mark included, as notation.
fn san_of(pos: &Position, m: Move) -> SanPlus {
    let text = pos.san(m).to_string();
    // shakmaty writes SAN that the notation grammar reads; the fallback is never taken.
    SanPlus::from_ascii(text.as_bytes()).unwrap_or(SanPlus {
        san: San::Null,
        suffix: None,
    })
}

/// Resolves the move `written` at `pos`, leniently: a move given by its squares, or with a
/// wrong capture mark, is found all the same, and comes with its [`Repair`] (its SAN is
/// computed here, before the move is played). The check mark is checked after the move is
/// played, by [`check_mark`].
#[inline]
pub(crate) fn resolve(
    pos: &Position,
    written: SanPlus,
    checkers: Option<Bitboard>,
) -> Result<(Move, Option<Repair>), MoveErrorKind> {
    let (m, slip) = match pos.resolve_kind_with(written.san, checkers) {
        Ok(m) => match written.san {
            San::Long { role, .. } => (
                m,
                Slip::Notation {
                    uci: role.is_none(),
                },
            ),
            _ => return Ok((m, None)),
        },
        Err(MoveErrorKind::CaptureMismatch {
            written_as_capture,
            to,
        }) => {
            let flipped = match written.san {
                San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion,
                } => San::Normal {
                    role,
                    file,
                    rank,
                    capture: !capture,
                    to,
                    promotion,
                },
                San::Long {
                    role,
                    from,
                    capture,
                    to,
                    promotion,
                } => San::Long {
                    role,
                    from,
                    capture: !capture,
                    to,
                    promotion,
                },
                other => other,
            };
            let m = pos
                .resolve_kind(flipped)
                .map_err(|_| MoveErrorKind::CaptureMismatch {
                    written_as_capture,
                    to,
                })?;
            let slip = match written.san {
                San::Long { role, .. } => Slip::Notation {
                    uci: role.is_none(),
                },
                _ => Slip::Capture { written_as_capture },
            };
            (m, slip)
        }
        Err(err) => match lowercase_bishop(pos, written.san) {
            Some(m) => (m, Slip::LowercaseBishop),
            None => return Err(err),
        },
    };
    let san = san_of(pos, m);
    Ok((m, Some(Repair { slip, san })))
}

/// The bishop's capture that a b-file pawn capture no pawn can make stands for (`bxc6`
/// written with a bishop's lowercase `b`), if a bishop can make it.
#[cold]
fn lowercase_bishop(pos: &Position, written: San) -> Option<Move> {
    let San::Normal {
        role: Role::Pawn,
        file: Some(1),
        rank: None,
        capture: true,
        to,
        promotion: None,
    } = written
    else {
        return None;
    };
    let bishop = San::Normal {
        role: Role::Bishop,
        file: None,
        rank: None,
        capture: true,
        to,
        promotion: None,
    };
    pos.resolve_kind(bishop).ok()
}

/// What a move gives, from the position after it: `+`, `#` or nothing.
#[inline]
fn gives(after: &Position) -> Option<Suffix> {
    if !after.is_check() {
        None
    } else if after.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The repair of the check mark of `written`, from the position `after` the move (`checks`:
/// whether it gives check): `None` when the mark (or its absence) is right, and in variants
/// other than standard chess.
///
/// On the replay's hot path no move is generated: for a move without a mark that gives no
/// check (most moves), and for a check written `+` that the king can step out of. Otherwise
/// the legal replies are generated to tell a mate from a check, so that `+` for a mate and
/// `#` for a check are repaired as well.
#[inline]
pub(crate) fn check_mark(after: &Position, written: SanPlus, checks: bool) -> Option<Repair> {
    match (written.suffix, checks) {
        (None, false) => None,
        (Some(Suffix::Check), true) if after.king_can_step_out() => None,
        _ => marked_or_checking(after, written),
    }
}

/// [`check_mark`] for a move that checks or is written with a mark.
#[cold]
#[inline(never)]
fn marked_or_checking(after: &Position, written: SanPlus) -> Option<Repair> {
    // Variants write `#` for the move that wins by their own rules (an explosion, the last
    // piece given away, a third check) and the writers differ: their marks are not checked.
    if after.variant() != shakmaty::variant::Variant::Chess {
        return None;
    }
    let gives = gives(after);
    if gives == written.suffix {
        return None;
    }
    Some(Repair {
        slip: Slip::CheckMark { gives },
        san: SanPlus {
            san: written.san,
            suffix: gives,
        },
    })
}

/// `4. Nxe5` or `4... Nf6`: the move `written` as numbered, from the position `after` it.
pub(crate) fn numbered_after(after: &Position, written: SanPlus) -> String {
    let fullmoves = after.fullmoves().get();
    if after.turn().is_black() {
        format!("{fullmoves}. {written}")
    } else {
        format!("{}... {written}", fullmoves.saturating_sub(1).max(1))
    }
}

/// `4. Nxe5` or `4... Nf6`: the move `written` as numbered, from the position `before` it.
pub(crate) fn numbered_before(before: &Position, written: SanPlus) -> String {
    let fullmoves = before.fullmoves().get();
    if before.turn().is_white() {
        format!("{fullmoves}. {written}")
    } else {
        format!("{fullmoves}... {written}")
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Position as _, fen::Fen as ShakmatyFen};
    use tabia_notation::pgn::Game;

    use super::*;

    /// What the check mark of a move must be, from the position after it, by shakmaty's full
    /// move generation (`is_checkmate`), independently of [`gives`].
    fn full(after: &Chess) -> Option<Suffix> {
        if after.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        }
    }

    /// Asserts that [`check_mark`] repairs exactly the marks that differ from [`full`]'s, for
    /// the move `m` written with every mark; returns whether the move checks.
    fn agrees(before: &Chess, m: Move) -> (bool, bool) {
        let san = san_of(&Position::from(before.clone()), m).san;
        let after_chess = before.clone().play(m).expect("legal");
        let truth = full(&after_chess);
        let after = Position::from(after_chess);
        for suffix in [None, Some(Suffix::Check), Some(Suffix::Checkmate)] {
            let written = SanPlus { san, suffix };
            let want = (truth != suffix).then_some(Repair {
                slip: Slip::CheckMark { gives: truth },
                san: SanPlus { san, suffix: truth },
            });
            assert_eq!(
                check_mark(&after, written, after.is_check()),
                want,
                "{written} in {after}"
            );
        }
        (truth.is_some(), truth == Some(Suffix::Checkmate))
    }

    /// Every move of random games (biased towards checks, so that many end in mate) and of
    /// the real games of the fixtures, each written with every mark: the quick test agrees
    /// with the full move generation.
    #[test]
    fn quick_check_marks_agree_with_move_generation() {
        let (mut moves, mut checks, mut mates) = (0usize, 0usize, 0usize);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        for fen in starts {
            let start: Chess = fen
                .parse::<ShakmatyFen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            for _ in 0..40 {
                let mut pos = start.clone();
                for _ in 0..120 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let checking: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| pos.clone().play(*m).is_ok_and(|p| p.is_check()))
                        .collect();
                    for m in &legal {
                        let (check, mate) = agrees(&pos, *m);
                        moves += 1;
                        checks += usize::from(check);
                        mates += usize::from(mate);
                    }
                    let m = if !checking.is_empty() && next() % 2 == 0 {
                        checking[(next() % checking.len() as u64) as usize]
                    } else {
                        legal[(next() % legal.len() as u64) as usize]
                    };
                    pos.play_unchecked(m);
                }
            }
        }
        for text in [
            include_str!("../../../fixtures/select/games.pgn"),
            include_str!("../../../fixtures/book/games.pgn"),
            include_str!("../../../fixtures/eco/ok/games.tagged.pgn"),
        ] {
            let mut bytes = text.as_bytes();
            while bytes.iter().any(|b| !b.is_ascii_whitespace()) {
                let (game, n) = Game::prefix(bytes).expect("a fixture game");
                bytes = &bytes[n..];
                if game.tag("FEN").is_some() || game.tag("Variant").is_some() {
                    continue;
                }
                let mut pos = Chess::default();
                for played in &game.mainline.moves {
                    // The fixtures' illegal games end at their illegal move.
                    let Ok(m) = crate::convert::san(played.san.san).to_move(&pos) else {
                        break;
                    };
                    let (check, mate) = agrees(&pos, m);
                    moves += 1;
                    checks += usize::from(check);
                    mates += usize::from(mate);
                    pos.play_unchecked(m);
                }
            }
        }
        assert!(moves > 200_000, "{moves} moves");
        assert!(checks > 10_000, "{checks} checks");
        assert!(mates > 200, "{mates} mates");
    }

    /// Variants are not checked for marks: their `#` may mean their own win.
    #[test]
    fn variant_marks_are_left_alone() {
        let mut pos = Position::new_variant(shakmaty::variant::Variant::Atomic);
        for san in ["e4", "d5", "Qh5", "Nf6"] {
            pos = pos.after(san).expect("legal");
        }
        let (before, after) = (pos.clone(), pos.after("Qxf7").expect("legal"));
        let m = before.resolve("Qxf7".parse().expect("san")).expect("legal");
        let san = san_of(&before, m).san;
        for suffix in [None, Some(Suffix::Check), Some(Suffix::Checkmate)] {
            assert_eq!(check_mark(&after, SanPlus { san, suffix }, true), None);
        }
    }
}
