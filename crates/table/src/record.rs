//! One game read for the tables: its tags, movetext, replay and moves, or why it could not be
//! read.

use std::fmt;

use tabia_eco::Opening;
use tabia_notation::pgn::{Eval, Origin};
use tabia_position::EpRule;

/// What to read of each game beyond the games table's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Keep a [`MoveRecord`] per ply of the mainline.
    pub moves: bool,
    /// With `moves`: the FEN after each move.
    pub fen: bool,
    /// With `moves`: the position before each move and the move as numbers
    /// ([`MoveRecord::board`]).
    pub boards: bool,
    /// Which en-passant square the FEN after each move and [`BoardRecord::ep_square`] give:
    /// [`EpRule::Legal`] by default (only when an en-passant capture is legal, as position
    /// keys); [`EpRule::Always`] after every double push, as python-chess's `board.ep_square`.
    ///
    /// [`BoardRecord::ep_square`]: crate::BoardRecord::ep_square
    pub ep: EpRule,
}

impl Default for ReadOptions {
    /// Only the games table's columns; the legal en-passant square.
    fn default() -> ReadOptions {
        ReadOptions {
            moves: false,
            fen: false,
            boards: false,
            ep: EpRule::Legal,
        }
    }
}

/// A game read for the tables. A game that cannot be read still gives a record: its tags (as
/// far as they read), its movetext and the error, so that every game read has its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based number of the game in its input.
    pub number: u64,
    /// Where the game starts in the input.
    pub start: Origin,
    /// The tag pairs, in input order, values unescaped and decoded.
    pub tags: Vec<(String, String)>,
    /// The movetext as it stands in the input, trimmed; `None` when the game has none.
    pub movetext: Option<String>,
    /// Plies of the mainline; for a game with an error, those replayed before it (the
    /// plies kept in [`GameRecord::moves`]). Always set by [`GameRecord::read`].
    pub plies: Option<u32>,
    /// The opening named by the positions the game reached (standard start only).
    pub opening: Option<&'static Opening>,
    /// Polyglot hash of the final position, when the mainline replays.
    pub final_zobrist: Option<u64>,
    /// Why the game could not be read or replayed (at most one).
    pub errors: Vec<RowProblem>,
    /// What looks wrong in a game that was read.
    pub warnings: Vec<RowProblem>,
    /// The plies of the mainline (with [`ReadOptions::moves`]); for a game with an error,
    /// the plies replayed before it (the legal moves before an illegal one, as python-chess
    /// keeps them).
    pub moves: Vec<MoveRecord>,
}

/// One ply of a game's mainline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1 for the first move.
    pub ply: u32,
    /// The move in SAN, as written (normalised).
    pub san: String,
    /// The move in UCI (`0000` for a null move).
    pub uci: String,
    /// Polyglot hash of the position after the move.
    pub zobrist: u64,
    /// The FEN after the move (with [`ReadOptions::fen`]).
    pub fen: Option<String>,
    /// `[%clk]` after the move, in milliseconds.
    pub clock_ms: Option<u64>,
    /// `[%emt]` after the move, in milliseconds.
    pub emt_ms: Option<u64>,
    /// `[%eval]` after the move.
    pub eval: Option<Eval>,
    /// The move's NAGs.
    pub nags: Vec<u8>,
    /// The comments after the move, commands removed, joined by a space; `None` when empty.
    pub comment: Option<String>,
    /// The position before the move and the move, as numbers (with [`ReadOptions::boards`]).
    pub board: Option<crate::BoardRecord>,
}

/// An error or warning about a game: a message and, when known, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// 1-based line in the input.
    pub line: Option<u64>,
    /// 1-based column.
    pub column: Option<u64>,
    /// What is wrong.
    pub message: String,
    /// For a warning, whether it is a note or a warning ([`tabia_position::Level`]); none for
    /// an error.
    pub level: Option<tabia_position::Level>,
}

impl fmt::Display for RowProblem {
    /// `LINE:COL: message`, or the message alone when the place is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{line}:{column}: {}", self.message),
            (Some(line), None) => write!(f, "{line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl RowProblem {
    pub(crate) fn at(message: String, at: Option<Origin>) -> RowProblem {
        match at {
            Some(at) if at.line > 0 => RowProblem {
                line: Some(at.line),
                column: Some(at.column),
                message,
                level: None,
            },
            _ => RowProblem {
                line: None,
                column: None,
                message,
                level: None,
            },
        }
    }
}

impl GameRecord {
    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::RawGame;

    use super::*;

    fn raw(text: &str) -> RawGame {
        RawGame {
            bytes: text.as_bytes().to_vec(),
            start: Origin {
                offset: 0,
                line: 1,
                column: 1,
            },
        }
    }

    #[test]
    fn bad_games_keep_their_tags_and_error() {
        let record = GameRecord::read(
            &raw("[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5 2. Ke3 *\n"),
            3,
            ReadOptions::default(),
        );
        assert_eq!(record.tag("Black"), Some("y"));
        // The plies before the illegal move are the game's.
        assert_eq!(record.plies, Some(2));
        assert_eq!(
            record.errors[0].to_string(),
            "4:13: illegal move 2. Ke3 (ply 3): no white king can go to e3"
        );
        let record = GameRecord::read(
            &raw("[White \"x\"]\n\n1. e4 e5 2. Zz9 *\n"),
            4,
            ReadOptions::default(),
        );
        assert_eq!(record.tag("White"), Some("x"));
        assert_eq!(record.errors.len(), 1);
        assert!(
            record.errors[0].to_string().starts_with("3:13: "),
            "{:?}",
            record.errors
        );
        assert_eq!(record.movetext.as_deref(), Some("1. e4 e5 2. Zz9 *"));
        // And those before a syntax error.
        assert_eq!(record.plies, Some(2));
    }

    #[test]
    fn warnings_and_openings() {
        let record = GameRecord::read(
            &raw("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n"),
            1,
            ReadOptions::default(),
        );
        assert!(record.errors.is_empty());
        assert_eq!(
            record.warnings[0].to_string(),
            "3:16: result 1-0 but the game ends in black mates (0-1)"
        );
        let record = GameRecord::read(
            &raw("1. e4 c5 2. Nf3 d6 *"),
            1,
            ReadOptions {
                moves: true,
                fen: true,
                ..ReadOptions::default()
            },
        );
        let opening = record.opening.expect("named");
        assert_eq!(opening.eco(), "B50");
        assert_eq!(
            record.moves[3].fen.as_deref(),
            Some("rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3")
        );
        assert_eq!(record.final_zobrist, Some(record.moves[3].zobrist));
    }
}
