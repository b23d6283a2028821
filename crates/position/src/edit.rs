//! [`Editor`]: a board that may be illegal, edited like Games::Chess's `Position`.

use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, CastlingSide, Color, Piece, Rank,
    RemainingChecks, Role, Setup, Square, variant::Variant,
};

use crate::{
    position::{EpRule, Position, SetupError},
    validate::{Problem, validate_setup},
    variant::GameVariant,
};

/// A position being edited: any placement, side to move, castling rights, en-passant square
/// and clocks, legal or not. [`Editor::problems`] explains what is wrong; [`Editor::position`]
/// turns it into a legal [`Position`].
///
/// ```
/// use tabia_position::{Editor, shakmaty::{CastlingSide, Color, Piece, Role, Square}};
///
/// let mut ed = Editor::empty();
/// ed.set(Square::E1, Some(Piece { color: Color::White, role: Role::King }));
/// ed.set(Square::H1, Some(Piece { color: Color::White, role: Role::Rook }));
/// ed.set(Square::E8, Some(Piece { color: Color::Black, role: Role::King }));
/// ed.set_can_castle(Color::White, CastlingSide::KingSide, true);
/// ed.set_can_castle(Color::White, CastlingSide::QueenSide, true);
/// assert_eq!(ed.problems()[0].to_string(), "white may castle queenside but there is no white rook on a1");
/// ed.set_can_castle(Color::White, CastlingSide::QueenSide, false);
/// let pos = ed.position()?;
/// assert_eq!(pos.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// # Ok::<_, tabia_position::SetupError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    /// Crazyhouse: promoted pieces.
    promoted: Bitboard,
    /// Crazyhouse: the pockets, when given.
    pockets: Option<ByColor<ByRole<u8>>>,
    /// Three-check: the checks each side still has to give, when given.
    remaining_checks: Option<ByColor<RemainingChecks>>,
}

impl Default for Editor {
    /// The starting position.
    fn default() -> Editor {
        Editor::from_setup(&Setup::initial())
    }
}

impl Editor {
    /// The starting position.
    pub fn new() -> Editor {
        Editor::default()
    }

    /// An empty board, white to move, no castling, clocks `0 1`.
    pub fn empty() -> Editor {
        Editor::from_setup(&Setup::empty())
    }

    /// The editor of a setup.
    pub fn from_setup(setup: &Setup) -> Editor {
        Editor {
            board: setup.board.clone(),
            turn: setup.turn,
            castling: setup.castling_rights,
            ep: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.get(),
            promoted: setup.promoted,
            pockets: setup.pockets,
            remaining_checks: setup.remaining_checks,
        }
    }

    /// The editor of a legal position, with its en-passant square under `ep`.
    pub fn from_position(pos: &Position, ep: EpRule) -> Editor {
        Editor::from_setup(&pos.setup(ep))
    }

    /// Like [`Editor::from_setup`] with a fullmove number that may be 0 (to be reported).
    pub fn with_fullmoves(mut self, fullmoves: u32) -> Editor {
        self.fullmoves = fullmoves;
        self
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on a square (Games::Chess `at($x,$y)`).
    pub fn at(&self, square: Square) -> Option<Piece> {
        self.board.piece_at(square)
    }

    /// Puts a piece on a square, or empties it with `None` (Games::Chess `at($x,$y,@piece)`).
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        match piece {
            Some(piece) => self.board.set_piece_at(square, piece),
            None => self.board.discard_piece_at(square),
        }
    }

    /// Empties a square (Games::Chess `clear`).
    pub fn clear(&mut self, square: Square) {
        self.board.discard_piece_at(square);
    }

    /// The side to move (Games::Chess `player_to_move`).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    /// The square of the rook that castles on `side` for `color`: the outermost rook of that
    /// colour on that side of its king on the back rank, else the corner.
    fn castling_rook(&self, color: Color, side: CastlingSide) -> Square {
        let back = color.fold_wb(Rank::First, Rank::Eighth);
        let corner = Square::from_coords(
            if side.is_king_side() {
                shakmaty::File::H
            } else {
                shakmaty::File::A
            },
            back,
        );
        let king = (self.board.by_piece(Role::King.of(color)) & Bitboard::from_rank(back)).first();
        let rooks = self.board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(back);
        let Some(king) = king else { return corner };
        let found = match side {
            CastlingSide::KingSide => rooks.into_iter().rfind(|r| r.file() > king.file()),
            CastlingSide::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
        };
        found.unwrap_or(corner)
    }

    /// The rights for `color` on `side`, as the rook squares present.
    fn rights_on(&self, color: Color, side: CastlingSide) -> Bitboard {
        let back = color.fold_wb(Rank::First, Rank::Eighth);
        let ours = self.castling & Bitboard::from_rank(back);
        let king = (self.board.by_piece(Role::King.of(color)) & Bitboard::from_rank(back)).first();
        let file = king.map_or(shakmaty::File::E, Square::file);
        ours.into_iter()
            .filter(|sq| match side {
                CastlingSide::KingSide => sq.file() > file,
                CastlingSide::QueenSide => sq.file() < file,
            })
            .collect()
    }

    /// Whether `color` may castle on `side` (Games::Chess `can_castle`).
    pub fn can_castle(&self, color: Color, side: CastlingSide) -> bool {
        self.rights_on(color, side).any()
    }

    /// Grants or removes the right of `color` to castle on `side` (with the outermost rook on
    /// that side of the king, else the corner).
    pub fn set_can_castle(&mut self, color: Color, side: CastlingSide, allowed: bool) {
        self.castling &= !self.rights_on(color, side);
        if allowed {
            self.castling.add(self.castling_rook(color, side));
        }
    }

    /// The castling rights as rook squares.
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// Sets the castling rights as rook squares.
    pub fn set_castling_rights(&mut self, rights: Bitboard) {
        self.castling = rights;
    }

    /// The en-passant square (Games::Chess `en_passant`).
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Sets or clears the en-passant square.
    pub fn set_en_passant(&mut self, square: Option<Square>) {
        self.ep = square;
    }

    /// The halfmove clock.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves
    }

    /// Sets the halfmove clock.
    pub fn set_halfmove_clock(&mut self, halfmoves: u32) {
        self.halfmoves = halfmoves;
    }

    /// The fullmove number (Games::Chess `move_number`).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmoves
    }

    /// Sets the fullmove number (0 is kept and reported by [`Editor::problems`]).
    pub fn set_fullmove_number(&mut self, fullmoves: u32) {
        self.fullmoves = fullmoves;
    }

    /// The setup (a fullmove number of 0 becomes 1).
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep,
            halfmoves: self.halfmoves,
            fullmoves: NonZeroU32::new(self.fullmoves).unwrap_or(NonZeroU32::MIN),
            promoted: self.promoted,
            pockets: self.pockets,
            remaining_checks: self.remaining_checks,
        }
    }

    /// Crazyhouse: the pockets, when given.
    pub fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        self.pockets.as_ref()
    }

    /// Sets the Crazyhouse pockets.
    pub fn set_pockets(&mut self, pockets: Option<ByColor<ByRole<u8>>>) {
        self.pockets = pockets;
    }

    /// Crazyhouse: the promoted pieces.
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Sets the promoted pieces (Crazyhouse).
    pub fn set_promoted(&mut self, promoted: Bitboard) {
        self.promoted = promoted;
    }

    /// Three-check: the checks each side still has to give, when given.
    pub fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        self.remaining_checks.as_ref()
    }

    /// Sets the Three-check counters.
    pub fn set_remaining_checks(&mut self, checks: Option<ByColor<RemainingChecks>>) {
        self.remaining_checks = checks;
    }

    /// The variant the position's own fields suggest when nothing else says: Crazyhouse when
    /// it has pockets, Three-check when it has check counters, else standard chess.
    pub fn implied_variant(&self) -> Variant {
        if self.pockets.is_some() {
            Variant::Crazyhouse
        } else if self.remaining_checks.is_some() {
            Variant::ThreeCheck
        } else {
            Variant::Chess
        }
    }

    /// Every problem of the position under the rules of `variant`; for standard chess as
    /// [`Editor::problems`].
    pub fn problems_variant(&self, variant: GameVariant) -> Vec<Problem> {
        let foreign = self.foreign_fields(variant);
        if !foreign.is_empty() {
            return foreign;
        }
        if variant.is_standard() {
            let mut problems = self.problems();
            if variant.chess960
                && problems.is_empty()
                && let Err(err) = self.position_with_mode(CastlingMode::Chess960)
            {
                problems = err.problems().to_vec();
            }
            return problems;
        }
        match self.position_variant(variant) {
            Ok(_) => Vec::new(),
            Err(err) => err.problems().to_vec(),
        }
    }

    /// The legal position under the rules of `variant` (Chess960 castling if it says so, else
    /// as the castling rights imply).
    ///
    /// ```
    /// use tabia_position::{EpRule, Editor, Variant};
    ///
    /// let ed = Editor::from_arg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")?;
    /// let pos = ed.position_variant(ed.implied_variant().into())?;
    /// assert_eq!(pos.variant(), Variant::Crazyhouse);
    /// assert_eq!(pos.epd(EpRule::Legal), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq -");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SetupError`] listing every problem.
    pub fn position_variant(&self, variant: GameVariant) -> Result<Position, SetupError> {
        let mode = variant
            .castling_mode()
            .unwrap_or_else(|| self.castling_mode());
        let foreign = self.foreign_fields(variant);
        if !foreign.is_empty() {
            return Err(SetupError::new(foreign));
        }
        if variant.is_standard() {
            return self.position_with_mode(mode);
        }
        if self.fullmoves == 0 {
            return Err(SetupError::new(vec![Problem::FullmoveNumber]));
        }
        Position::from_setup_variant(self.setup(), variant.variant, mode)
    }

    /// Pockets or check counters that `variant` does not have, each a problem.
    fn foreign_fields(&self, variant: GameVariant) -> Vec<Problem> {
        let mut foreign = Vec::new();
        if variant.variant != Variant::Crazyhouse && (self.pockets.is_some() || self.promoted.any())
        {
            foreign.push(Problem::Other {
                message: format!("pockets or promoted pieces, which {variant} does not have"),
            });
        }
        if variant.variant != Variant::ThreeCheck && self.remaining_checks.is_some() {
            foreign.push(Problem::Other {
                message: format!("check counters, which {variant} does not have"),
            });
        }
        foreign
    }

    /// The castling mode the rights imply.
    pub fn castling_mode(&self) -> CastlingMode {
        CastlingMode::detect(&self.setup())
    }

    /// Every problem, in a fixed order; empty if the position is legal.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = validate_setup(&self.setup(), self.castling_mode());
        if self.fullmoves == 0 {
            let at = problems
                .iter()
                .position(|p| {
                    !matches!(
                        p,
                        Problem::TooManyPawns { .. }
                            | Problem::MissingKing { .. }
                            | Problem::TooManyKings { .. }
                            | Problem::PawnOnBackRank { .. }
                            | Problem::EpWrongRank { .. }
                            | Problem::EpNoPawn { .. }
                            | Problem::EpNotEmpty { .. }
                            | Problem::CastlingOffBackRank { .. }
                            | Problem::CastlingKing { .. }
                            | Problem::CastlingRook { .. }
                            | Problem::HalfmoveClock { .. }
                    )
                })
                .unwrap_or(problems.len());
            problems.insert(at, Problem::FullmoveNumber);
        }
        problems
    }

    /// The legal position, or every problem.
    ///
    /// # Errors
    ///
    /// [`SetupError`] listing every [`Problem`].
    pub fn position(&self) -> Result<Position, SetupError> {
        self.position_with_mode(self.castling_mode())
    }

    /// Like [`Editor::position`], with the castling mode given (for a `Variant` tag).
    ///
    /// # Errors
    ///
    /// [`SetupError`] listing every [`Problem`].
    pub fn position_with_mode(&self, mode: CastlingMode) -> Result<Position, SetupError> {
        if self.fullmoves == 0 {
            return Err(SetupError::new(self.problems()));
        }
        Position::from_setup_with_mode(self.setup(), mode)
    }
}

impl From<&Position> for Editor {
    fn from(pos: &Position) -> Editor {
        Editor::from_position(pos, EpRule::Always)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_and_read_back() {
        let mut ed = Editor::new();
        assert!(ed.can_castle(Color::Black, CastlingSide::QueenSide));
        ed.clear(Square::A8);
        ed.set_can_castle(Color::Black, CastlingSide::QueenSide, false);
        assert!(!ed.can_castle(Color::Black, CastlingSide::QueenSide));
        assert!(ed.can_castle(Color::Black, CastlingSide::KingSide));
        ed.set_turn(Color::Black);
        ed.set_halfmove_clock(3);
        ed.set_fullmove_number(7);
        assert_eq!(ed.at(Square::A8), None);
        assert_eq!(
            ed.position().expect("legal").to_string(),
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQk - 3 7"
        );
    }

    #[test]
    fn fullmove_zero_is_a_problem() {
        let mut ed = Editor::new();
        ed.set_fullmove_number(0);
        ed.set_halfmove_clock(101);
        let messages: Vec<String> = ed.problems().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "halfmove clock 101 is beyond the 50-move rule (at most 100 plies)",
                "fullmove number must be 1 or more"
            ]
        );
        assert!(ed.position().is_err());
    }

    #[test]
    fn chess960_rights_use_the_outermost_rook() {
        let mut ed = Editor::empty();
        let w = |role| {
            Some(Piece {
                color: Color::White,
                role,
            })
        };
        ed.set(Square::B1, w(Role::King));
        ed.set(Square::A1, w(Role::Rook));
        ed.set(Square::F1, w(Role::Rook));
        ed.set(Square::G1, w(Role::Rook));
        ed.set(
            Square::H8,
            Some(Piece {
                color: Color::Black,
                role: Role::King,
            }),
        );
        ed.set_can_castle(Color::White, CastlingSide::KingSide, true);
        assert_eq!(ed.castling_rights(), Bitboard::from_square(Square::G1));
        assert_eq!(ed.problems(), []);
        assert!(ed.position().is_ok());
    }
}
