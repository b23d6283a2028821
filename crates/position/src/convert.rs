//! Conversions between the syntax types of `tabia-notation` and shakmaty's.

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, File, Rank, RemainingChecks, Square, san::San,
    uci::UciMove,
};
use tabia_notation as nt;

use crate::{edit::Editor, position::EpRule};

#[inline]
pub(crate) fn square(sq: nt::Square) -> Square {
    Square::new(u32::from(sq.index()) & 63)
}

#[inline]
pub(crate) fn role(role: nt::Role) -> shakmaty::Role {
    match role {
        nt::Role::Pawn => shakmaty::Role::Pawn,
        nt::Role::Knight => shakmaty::Role::Knight,
        nt::Role::Bishop => shakmaty::Role::Bishop,
        nt::Role::Rook => shakmaty::Role::Rook,
        nt::Role::Queen => shakmaty::Role::Queen,
        nt::Role::King => shakmaty::Role::King,
    }
}

#[inline]
pub(crate) fn color(color: nt::Color) -> shakmaty::Color {
    match color {
        nt::Color::White => shakmaty::Color::White,
        nt::Color::Black => shakmaty::Color::Black,
    }
}

#[inline]
pub(crate) fn castling_side(side: nt::CastlingSide) -> shakmaty::CastlingSide {
    match side {
        nt::CastlingSide::KingSide => shakmaty::CastlingSide::KingSide,
        nt::CastlingSide::QueenSide => shakmaty::CastlingSide::QueenSide,
    }
}

/// A SAN as shakmaty's (the null move stays a null move, to be refused with a reason).
#[inline]
pub(crate) fn san(san: nt::san::San) -> San {
    match san {
        nt::san::San::Normal {
            role: r,
            file,
            rank,
            capture,
            to,
            promotion,
        } => San::Normal {
            role: role(r),
            file: file.map(|f| File::new(u32::from(f) & 7)),
            rank: rank.map(|r| Rank::new(u32::from(r) & 7)),
            capture,
            to: square(to),
            promotion: promotion.map(role),
        },
        nt::san::San::Castle(side) => San::Castle(castling_side(side)),
        nt::san::San::Put { role: r, to } => San::Put {
            role: role(r),
            to: square(to),
        },
        nt::san::San::Null => San::Null,
        // As SAN with both squares of the origin: right for every piece named, and for UCI
        // when the piece is a pawn (`Position::resolve` reads UCI by its squares instead).
        nt::san::San::Long {
            role: r,
            from,
            capture,
            to,
            promotion,
        } => San::Normal {
            role: r.map_or(shakmaty::Role::Pawn, role),
            file: Some(square(from).file()),
            rank: Some(square(from).rank()),
            capture,
            to: square(to),
            promotion: promotion.map(role),
        },
    }
}

#[inline]
pub(crate) fn uci(uci: nt::san::Uci) -> UciMove {
    match uci {
        nt::san::Uci::Normal {
            from,
            to,
            promotion,
        } => UciMove::Normal {
            from: square(from),
            to: square(to),
            promotion: promotion.map(role),
        },
        nt::san::Uci::Put { role: r, to } => UciMove::Put {
            role: role(r),
            to: square(to),
        },
        nt::san::Uci::Null => UciMove::Null,
    }
}

/// Crazyhouse pockets as shakmaty's.
pub(crate) fn pockets(pockets: &nt::fen::Pockets) -> ByColor<ByRole<u8>> {
    let mut out = ByColor::<ByRole<u8>>::default();
    for c in nt::Color::ALL {
        for r in nt::Role::ALL {
            *out.get_mut(color(c)).get_mut(role(r)) = pockets.get(c, r);
        }
    }
    out
}

pub(crate) fn board(board: &nt::fen::Board) -> Board {
    let mut out = Board::empty();
    for (sq, piece) in board.pieces() {
        out.set_piece_at(
            square(sq),
            shakmaty::Piece {
                color: color(piece.color),
                role: role(piece.role),
            },
        );
    }
    out
}

/// The rook squares the castling tokens name: `K`/`Q` the outermost rook on that side of the
/// king on the back rank (the corner if there is none, to be reported), a file letter the rook
/// on that file of the back rank.
pub(crate) fn castling_rights(board: &Board, castling: &nt::fen::Castling) -> Bitboard {
    let mut rights = Bitboard::EMPTY;
    for (c, token) in castling.iter() {
        let c = color(c);
        let back = c.fold_wb(Rank::First, Rank::Eighth);
        let rank_bb = Bitboard::from_rank(back);
        let king = (board.by_piece(shakmaty::Role::King.of(c)) & rank_bb).first();
        let rooks = board.by_piece(shakmaty::Role::Rook.of(c)) & rank_bb;
        let square = match token {
            nt::fen::CastlingToken::File(f) => {
                Square::from_coords(File::new(u32::from(f) & 7), back)
            }
            nt::fen::CastlingToken::KingSide => king
                .and_then(|k| rooks.into_iter().rfind(|r| r.file() > k.file()))
                .unwrap_or(Square::from_coords(File::H, back)),
            nt::fen::CastlingToken::QueenSide => king
                .and_then(|k| rooks.into_iter().find(|r| r.file() < k.file()))
                .unwrap_or(Square::from_coords(File::A, back)),
        };
        rights.add(square);
    }
    rights
}

/// The castling mode a `Variant` tag asks for: `Some(Chess960)` for Chess960 and its aliases,
/// `Some(Standard)` for standard chess, `None` when the tag says nothing we know.
pub fn variant_mode(variant: &str) -> Option<CastlingMode> {
    let v = variant.trim().to_ascii_lowercase();
    match v.as_str() {
        "chess960"
        | "chess 960"
        | "960"
        | "fischerandom"
        | "fischer random"
        | "frc"
        | "fischerrandom"
        | "chess960 (fischer random)" => Some(CastlingMode::Chess960),
        "standard" | "chess" | "normal" | "" => Some(CastlingMode::Standard),
        _ => None,
    }
}

impl Editor {
    /// The editor of a parsed FEN, fields kept as given (a fullmove number of 0 too).
    pub fn from_fen(fen: &nt::fen::Fen) -> Editor {
        let board = board(&fen.board);
        let rights = castling_rights(&board, &fen.castling);
        let mut ed = Editor::empty();
        for (sq, piece) in board {
            ed.set(sq, Some(piece));
        }
        ed.set_turn(color(fen.turn));
        ed.set_castling_rights(rights);
        ed.set_en_passant(fen.ep_square.map(square));
        ed.set_halfmove_clock(fen.halfmoves);
        ed.set_fullmove_number(fen.fullmoves);
        ed.set_promoted(Bitboard(fen.promoted));
        ed.set_pockets(fen.pockets.map(|p| pockets(&p)));
        ed.set_remaining_checks(fen.checks.map(|c| ByColor {
            white: RemainingChecks::new(u32::from(c.white)),
            black: RemainingChecks::new(u32::from(c.black)),
        }));
        ed
    }
}

impl crate::Position {
    /// The position as a notation [`Fen`](nt::fen::Fen), with the en-passant square of `ep`
    /// and the castling field as [`Position::fen`](crate::Position::fen) writes it.
    pub fn to_fen(&self, ep: EpRule) -> nt::fen::Fen {
        let mut text = Vec::with_capacity(90);
        self.write_fen(&mut text, ep);
        // What we wrote is a FEN by construction; the fallback is never taken.
        nt::fen::Fen::from_ascii(&text).unwrap_or_default()
    }
}
