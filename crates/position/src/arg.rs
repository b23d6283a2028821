//! [`PositionArg`]: what a position argument that names positions to look for means, the one
//! meaning `filter --position`, `tree --position` and `book probe` share.

use crate::{edit::Editor, parse::ParsePositionError, position::Position};
use shakmaty::{Bitboard, Board, Color, Square};

/// A position argument that names the positions to look for: a position (a full or partial
/// FEN with at least the side to move, an EPD, or `startpos`), or a bare placement (the first
/// FEN field alone), which stands for every position with that placement: either side to
/// move, any castling rights and any en-passant square.
///
/// ```
/// use tabia_position::PositionArg;
///
/// let arg = PositionArg::parse("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R")?;
/// // White or Black to move, with every castling right its kings and rooks allow.
/// let keys: Vec<String> = arg.positions().iter().map(|p| p.key().to_string()).collect();
/// assert!(keys.contains(&"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -".to_owned()));
/// assert!(keys.contains(&"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - -".to_owned()));
/// assert_eq!(keys.len(), 32);
/// assert_eq!(PositionArg::parse("startpos")?.positions().len(), 1);
/// # Ok::<_, tabia_position::ParsePositionError>(())
/// ```
#[derive(Debug, Clone)]
pub enum PositionArg {
    /// One legal position, side to move and castling rights included (a partial FEN gives
    /// the missing fields `- - 0 1`).
    Position(Position),
    /// A bare placement: any side to move, castling rights and en-passant square.
    Placement(Board),
}

impl PositionArg {
    /// Whether `text` is a bare placement: one field, not `startpos`.
    pub fn is_placement(text: &str) -> bool {
        let trimmed = text.trim();
        trimmed != "startpos" && !trimmed.contains(char::is_whitespace)
    }

    /// Reads a position argument.
    ///
    /// # Errors
    ///
    /// As [`Position::from_arg`]: the syntax error, or the problems of a position that is not
    /// legal (a placement is not checked: [`PositionArg::positions`] may be empty).
    pub fn parse(text: &str) -> Result<PositionArg, ParsePositionError> {
        if PositionArg::is_placement(text) {
            let editor = Editor::from_arg(text).map_err(ParsePositionError::Syntax)?;
            Ok(PositionArg::Placement(editor.board().clone()))
        } else {
            Position::from_arg(text).map(PositionArg::Position)
        }
    }

    /// The legal positions it names: the one position, or for a placement (in standard chess) every legal position with it, White to move first, then
    /// fewer castling rights first; en passant only where a capture is legal (as in
    /// [`crate::PositionKey`]).
    pub fn positions(&self) -> Vec<Position> {
        let board = match self {
            PositionArg::Position(pos) => return vec![pos.clone()],
            PositionArg::Placement(board) => board,
        };
        let mut rights = Bitboard::EMPTY;
        for (king, rooks) in [
            (Square::E1, [Square::A1, Square::H1]),
            (Square::E8, [Square::A8, Square::H8]),
        ] {
            let color = if king == Square::E1 {
                Color::White
            } else {
                Color::Black
            };
            if board.king_of(color) == Some(king) {
                for rook in rooks {
                    if (board.rooks() & board.by_color(color)).contains(rook) {
                        rights |= Bitboard::from(rook);
                    }
                }
            }
        }
        let mut positions = Vec::new();
        let mut keys = std::collections::HashSet::new();
        for turn in [Color::White, Color::Black] {
            for castling in rights.carry_rippler() {
                // En passant: none, or behind any pawn of the side not to move that may have
                // just come two squares.
                let behind = (board.pawns() & board.by_color(!turn))
                    .into_iter()
                    .filter(|sq| {
                        sq.rank() == turn.fold_wb(shakmaty::Rank::Fifth, shakmaty::Rank::Fourth)
                    })
                    .filter_map(|sq| sq.offset(turn.fold_wb(8, -8)));
                for ep in std::iter::once(None).chain(behind.map(Some)) {
                    let mut editor = Editor::empty();
                    for (square, piece) in board.clone() {
                        editor.set(square, Some(piece));
                    }
                    editor.set_turn(turn);
                    editor.set_castling_rights(castling);
                    editor.set_en_passant(ep);
                    if let Ok(pos) = editor.position()
                        && keys.insert(pos.key())
                    {
                        positions.push(pos);
                    }
                }
            }
        }
        positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_names_every_side_and_castling() {
        let keys = |text: &str| -> Vec<String> {
            PositionArg::parse(text)
                .expect("a position")
                .positions()
                .iter()
                .map(|p| p.key().to_string())
                .collect()
        };
        // No king or rook at home: White or Black to move.
        assert_eq!(
            keys("4k3/8/8/8/8/8/8/3K4"),
            ["4k3/8/8/8/8/8/8/3K4 w - -", "4k3/8/8/8/8/8/8/3K4 b - -"]
        );
        // A pawn that may have just come two squares, and one to take it.
        let ep = keys("4k3/8/8/3Pp3/8/8/8/3K4");
        assert!(
            ep.contains(&"4k3/8/8/3Pp3/8/8/8/3K4 w - e6".to_owned()),
            "{ep:?}"
        );
        assert_eq!(ep.len(), 3, "{ep:?}");
        // A position given with its side names that one only.
        assert_eq!(keys("4k3/8/8/8/8/8/8/3K4 b"), ["4k3/8/8/8/8/8/8/3K4 b - -"]);
        // A king in check: only its side to move.
        assert_eq!(keys("4k3/8/8/8/8/8/8/3KR3"), ["4k3/8/8/8/8/8/8/3KR3 b - -"]);
    }
}
