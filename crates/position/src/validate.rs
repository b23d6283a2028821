//! Validation that explains: every problem of a setup, each with a message.
//!
//! The checks are Games::Chess's seven (pawns plus obvious promotions, one king each, no pawns
//! on the first and last ranks, a plausible en-passant square, plausible castling rights, the
//! halfmove clock, the fullmove number) and shakmaty's (the side not to move in check,
//! impossible checks, too much material).

use std::fmt;

use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, FromSetup, Piece, PositionErrorKinds, Rank,
    Role, Setup, Square,
};

/// One reason why a position is not legal.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// More than 8 pawns plus obviously promoted pieces (a second queen, a third rook or
    /// knight, a second bishop on squares of one colour).
    TooManyPawns {
        /// The side.
        color: Color,
        /// Its pawns.
        pawns: u32,
        /// Its obviously promoted pieces.
        promoted: u32,
    },
    /// A side has no king.
    MissingKing {
        /// The side.
        color: Color,
    },
    /// A side has more than one king.
    TooManyKings {
        /// The side.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank {
        /// The pawn.
        piece: Piece,
        /// Where.
        square: Square,
    },
    /// The en-passant square is not on the rank a double push just crossed (6 with white to
    /// move, 3 with black to move).
    EpWrongRank {
        /// The en-passant square.
        square: Square,
        /// The side to move.
        turn: Color,
    },
    /// No pawn stands where the double push would have put it.
    EpNoPawn {
        /// The en-passant square.
        square: Square,
        /// Where the pushed pawn should be.
        pawn: Square,
        /// The colour of the pawn that should be there.
        color: Color,
    },
    /// A square the double-pushed pawn crossed or left is occupied.
    EpNotEmpty {
        /// The en-passant square.
        square: Square,
        /// The occupied square.
        occupied: Square,
    },
    /// Another en-passant problem found by shakmaty.
    EpOther {
        /// The en-passant square.
        square: Square,
    },
    /// A castling right names a square that is not on either side's back rank.
    CastlingOffBackRank {
        /// The square.
        square: Square,
    },
    /// A side may castle but its king is not where castling needs it.
    CastlingKing {
        /// The side.
        color: Color,
        /// Where the king must stand (standard chess), or `None` for "on the back rank".
        needed: Option<Square>,
    },
    /// A side may castle with a rook that is not there.
    CastlingRook {
        /// The side.
        color: Color,
        /// Which side, if the king is known.
        side: Option<CastlingSide>,
        /// The rook's square.
        square: Square,
    },
    /// Other castling rights problems found by shakmaty (e.g. two rights on one side).
    CastlingOther,
    /// The halfmove clock is beyond the 50-move rule (more than 100 plies).
    HalfmoveClock {
        /// The clock.
        halfmoves: u32,
    },
    /// The fullmove number is 0.
    FullmoveNumber,
    /// The side that is not to move is in check.
    OppositeCheck {
        /// The side in check (the side not to move).
        color: Color,
    },
    /// The checks on the king cannot arise from a legal move.
    ImpossibleCheck,
    /// More material than promotions can give.
    TooMuchMaterial,
    /// Any other reason shakmaty gives.
    Other {
        /// shakmaty's message.
        message: String,
    },
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

fn color_name(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TooManyPawns {
                color,
                pawns,
                promoted,
            } => write!(
                f,
                "{} has {pawns} pawns and {promoted} obviously promoted pieces: more than 8",
                color_name(*color)
            ),
            Problem::MissingKing { color } => write!(f, "{} has no king", color_name(*color)),
            Problem::TooManyKings { color, count } => {
                write!(f, "{} has {count} kings", color_name(*color))
            }
            Problem::PawnOnBackRank { piece, square } => write!(
                f,
                "{} pawn on {square}: no pawn may stand on rank {}",
                color_name(piece.color),
                square.rank().char()
            ),
            Problem::EpWrongRank { square, turn } => write!(
                f,
                "en-passant square {square} is not on rank {} ({} to move)",
                turn.fold_wb('6', '3'),
                color_name(*turn)
            ),
            Problem::EpNoPawn {
                square,
                pawn,
                color,
            } => write!(
                f,
                "en-passant square {square} but no {} pawn on {pawn}",
                color_name(*color)
            ),
            Problem::EpNotEmpty { square, occupied } => {
                write!(f, "en-passant square {square} but {occupied} is not empty")
            }
            Problem::EpOther { square } => {
                write!(f, "en-passant square {square} is not possible")
            }
            Problem::CastlingOffBackRank { square } => write!(
                f,
                "castling right for a rook on {square}, which is not on rank 1 or 8"
            ),
            Problem::CastlingKing {
                color,
                needed: Some(sq),
            } => write!(
                f,
                "{} may castle but the {} king is not on {sq}",
                color_name(*color),
                color_name(*color)
            ),
            Problem::CastlingKing {
                color,
                needed: None,
            } => write!(
                f,
                "{} may castle but the {} king is not on rank {}",
                color_name(*color),
                color_name(*color),
                color.fold_wb('1', '8')
            ),
            Problem::CastlingRook {
                color,
                side,
                square,
            } => {
                write!(f, "{} may castle", color_name(*color))?;
                if let Some(side) = side {
                    write!(f, " {}", side_name(*side))?;
                }
                write!(
                    f,
                    " but there is no {} rook on {square}",
                    color_name(*color)
                )
            }
            Problem::CastlingOther => f.write_str("the castling rights are not possible"),
            Problem::HalfmoveClock { halfmoves } => write!(
                f,
                "halfmove clock {halfmoves} is beyond the 50-move rule (at most 100 plies)"
            ),
            Problem::FullmoveNumber => f.write_str("fullmove number must be 1 or more"),
            Problem::OppositeCheck { color } => write!(
                f,
                "{} is in check but it is {}'s move",
                color_name(*color),
                color_name(!*color)
            ),
            Problem::ImpossibleCheck => {
                f.write_str("the king is in a check that no legal move could give")
            }
            Problem::TooMuchMaterial => {
                f.write_str("too much material: more than promotions could give")
            }
            Problem::Other { message } => f.write_str(message),
        }
    }
}

/// The problems shakmaty finds in a setup of a variant, each with a message.
pub(crate) fn variant_problems(
    variant: shakmaty::variant::Variant,
    kinds: PositionErrorKinds,
) -> Vec<Problem> {
    let name = crate::variant::display_name(variant);
    let mut problems = Vec::new();
    for (kind, message) in [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (PositionErrorKinds::TOO_MANY_KINGS, "too many kings"),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "a pawn stands on a back rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights without king and rook in place",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en-passant square is not behind a pawn that just moved two squares",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the king is in a check that no legal move could give",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "too much material: more than promotions could give",
        ),
    ] {
        if kinds.contains(kind) {
            problems.push(Problem::Other {
                message: format!("{message} ({name})"),
            });
        }
    }
    if kinds.contains(PositionErrorKinds::VARIANT) || problems.is_empty() {
        problems.push(Problem::Other {
            message: format!("not a legal position of {name}"),
        });
    }
    problems
}

fn count(bb: Bitboard) -> u32 {
    bb.count() as u32
}

/// Every problem of `setup`, in a fixed order; empty if it is a legal position (standard chess,
/// or Chess960 if its castling rights say so).
///
/// ```
/// use tabia_position::{Editor, validate};
///
/// let setup = Editor::from_arg("4k3/8/8/8/8/8/8/4K2P w K e6 120 1")?.setup();
/// let messages: Vec<String> = validate(&setup).iter().map(ToString::to_string).collect();
/// assert_eq!(messages, [
///     "white pawn on h1: no pawn may stand on rank 1",
///     "en-passant square e6 but no black pawn on e5",
///     "white may castle kingside but there is no white rook on h1",
///     "halfmove clock 120 is beyond the 50-move rule (at most 100 plies)",
/// ]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn validate(setup: &Setup) -> Vec<Problem> {
    validate_setup(setup, CastlingMode::detect(setup))
}

pub(crate) fn validate_setup(setup: &Setup, mode: CastlingMode) -> Vec<Problem> {
    let mut problems = Vec::new();
    let board = &setup.board;

    // 1. Pawns plus obviously promoted pieces.
    for color in Color::ALL {
        let ours = board.by_color(color);
        let extra =
            |role: Role, normal: u32| count(board.by_role(role) & ours).saturating_sub(normal);
        let bishops = board.by_role(Role::Bishop) & ours;
        let promoted = extra(Role::Queen, 1)
            + extra(Role::Rook, 2)
            + extra(Role::Knight, 2)
            + count(bishops & Bitboard::LIGHT_SQUARES).saturating_sub(1)
            + count(bishops & Bitboard::DARK_SQUARES).saturating_sub(1);
        let pawns = count(board.by_role(Role::Pawn) & ours);
        if pawns + promoted > 8 {
            problems.push(Problem::TooManyPawns {
                color,
                pawns,
                promoted,
            });
        }
    }

    // 2. Exactly one king each.
    for color in Color::ALL {
        match count(board.by_piece(Role::King.of(color))) {
            0 => problems.push(Problem::MissingKing { color }),
            1 => {}
            n => problems.push(Problem::TooManyKings { color, count: n }),
        }
    }

    // 3. No pawns on ranks 1 and 8.
    for square in board.pawns() & Bitboard::BACKRANKS {
        if let Some(piece) = board.piece_at(square) {
            problems.push(Problem::PawnOnBackRank { piece, square });
        }
    }

    // 4. A plausible en-passant square.
    let ep_problems_before = problems.len();
    if let Some(square) = setup.ep_square {
        let turn = setup.turn;
        let pusher = !turn;
        if square.rank() != turn.fold_wb(Rank::Sixth, Rank::Third) {
            problems.push(Problem::EpWrongRank { square, turn });
        } else {
            let forward = pusher.fold_wb(8, -8);
            let pawn = square.offset(forward);
            let origin = square.offset(-forward);
            if let Some(pawn) = pawn
                && board.piece_at(pawn) != Some(Role::Pawn.of(pusher))
            {
                problems.push(Problem::EpNoPawn {
                    square,
                    pawn,
                    color: pusher,
                });
            }
            for occupied in [Some(square), origin].into_iter().flatten() {
                if board.occupied().contains(occupied) {
                    problems.push(Problem::EpNotEmpty { square, occupied });
                }
            }
        }
    }
    let ep_explained = problems.len() > ep_problems_before;

    // 5. Plausible castling rights.
    let castling_before = problems.len();
    for color in Color::ALL {
        let back = color.fold_wb(Rank::First, Rank::Eighth);
        let rights = setup.castling_rights & Bitboard::from_rank(back);
        if rights.is_empty() {
            continue;
        }
        let king = (board.by_piece(Role::King.of(color)) & Bitboard::from_rank(back)).first();
        let needed = match mode {
            CastlingMode::Standard => Some(color.fold_wb(Square::E1, Square::E8)),
            CastlingMode::Chess960 => None,
        };
        let king_ok = match (king, needed) {
            (Some(k), Some(n)) => k == n,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if !king_ok {
            problems.push(Problem::CastlingKing { color, needed });
        }
        for square in rights {
            if board.piece_at(square) != Some(Role::Rook.of(color)) {
                let side = king.map(|k| CastlingSide::from_king_side(square.file() > k.file()));
                problems.push(Problem::CastlingRook {
                    color,
                    side,
                    square,
                });
            }
        }
    }
    for square in setup.castling_rights & !Bitboard::BACKRANKS {
        problems.push(Problem::CastlingOffBackRank { square });
    }
    let castling_explained = problems.len() > castling_before;

    // 6. Halfmove clock within the 50-move rule.
    if setup.halfmoves > 100 {
        problems.push(Problem::HalfmoveClock {
            halfmoves: setup.halfmoves,
        });
    }

    // 7. Fullmove number: a `Setup` cannot hold 0 (see `Editor::problems`).

    // shakmaty's checks, for what the above did not explain.
    if let Err(err) = Chess::from_setup(setup.clone(), mode) {
        let kinds = err.kinds();
        if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE)
            && !ep_explained
            && let Some(square) = setup.ep_square
        {
            problems.push(Problem::EpOther { square });
        }
        if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) && !castling_explained {
            problems.push(Problem::CastlingOther);
        }
        if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
            problems.push(Problem::OppositeCheck { color: !setup.turn });
        }
        if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
            problems.push(Problem::ImpossibleCheck);
        }
        let pawns_said = problems
            .iter()
            .any(|p| matches!(p, Problem::TooManyPawns { .. }));
        if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) && !pawns_said {
            problems.push(Problem::TooMuchMaterial);
        }
        if problems.is_empty() {
            problems.push(Problem::Other {
                message: err.to_string(),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;

    use super::*;

    fn messages(fen: &str) -> Vec<String> {
        let setup = fen.parse::<Fen>().expect("fen").into_setup();
        validate(&setup).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn legal_positions_have_no_problems() {
        assert!(messages("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_empty());
        assert!(messages("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").is_empty());
        assert!(
            messages("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .is_empty()
        );
    }

    #[test]
    fn every_check_has_its_message() {
        assert_eq!(
            messages("QQ2k3/PPPPPPPP/8/8/8/8/8/4K3 w - - 0 1"),
            [
                "white has 8 pawns and 1 obviously promoted pieces: more than 8",
                "black is in check but it is white's move"
            ]
        );
        assert_eq!(
            messages("8/8/8/8/8/8/8/4K1K1 w - - 0 1"),
            ["white has 2 kings", "black has no king"]
        );
        assert_eq!(
            messages("4k3/8/8/8/8/8/8/R3K2R b KQ e6 0 1"),
            ["en-passant square e6 is not on rank 3 (black to move)"]
        );
        assert_eq!(
            messages("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1"),
            ["en-passant square e3 but e3 is not empty"]
        );
        assert_eq!(
            {
                let mut setup = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
                    .parse::<Fen>()
                    .expect("fen")
                    .into_setup();
                setup.castling_rights = Bitboard::CORNERS;
                let mut std = validate_setup(&setup, CastlingMode::Standard);
                setup.board.discard_piece_at(Square::E1);
                setup
                    .board
                    .set_piece_at(Square::D1, Role::King.of(Color::White));
                std.extend(validate_setup(&setup, CastlingMode::Standard));
                std.iter().map(ToString::to_string).collect::<Vec<_>>()
            },
            [
                "white may castle kingside but there is no white rook on h1",
                "black may castle queenside but there is no black rook on a8",
                "black may castle kingside but there is no black rook on h8",
                "white may castle but the white king is not on e1",
                "white may castle kingside but there is no white rook on h1",
                "black may castle queenside but there is no black rook on a8",
                "black may castle kingside but there is no black rook on h8",
            ]
        );
    }

    #[test]
    fn shakmaty_checks() {
        assert_eq!(
            messages("4k3/8/8/8/8/8/8/4K2r w - - 0 1"),
            Vec::<String>::new()
        );
        assert_eq!(
            messages("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            ["black is in check but it is white's move"]
        );
        assert_eq!(
            messages("4k3/8/8/8/8/8/2n1n3/r3K2r w - - 0 1"),
            ["the king is in a check that no legal move could give"]
        );
    }
}
