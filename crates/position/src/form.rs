//! Output forms that need the rules: moves in long algebraic or UCI notation, a FEN comment
//! after every move, and the tags computed from a replay (`PlyCount`, `Zobrist`, `FinalFEN`).

use std::{fmt, str::FromStr};

use shakmaty::{CastlingMode, Move};
use tabia_notation::{
    self as nt,
    pgn::{Game, Move as Node, MoveText},
    san::{Lan, LanPlus, Pieces, Suffix},
};

use crate::{
    position::{EpRule, Position},
    replay::{ReplayError, replay_mainline, resolve_node, start_position},
};

/// How moves are written: the game's SAN, long algebraic (`Ng1-f3`), or UCI (`g1f3`).
///
/// ```
/// use tabia_position::Notation;
///
/// assert_eq!("uci".parse::<Notation>(), Ok(Notation::Uci));
/// assert_eq!(Notation::Lan.to_string(), "lan");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Standard algebraic notation, as the game gives it.
    #[default]
    San,
    /// Long algebraic notation: piece letter, both squares joined by `-` or `x`, `=Q` for a
    /// promotion, the check mark; castling as `O-O`/`O-O-O`.
    Lan,
    /// UCI: `e2e4`, `e7e8q`; castling as the king's move (`e1g1`) in standard chess and as
    /// the king taking its own rook (`e1h1`) in Chess960; `0000` for a null move.
    Uci,
}

impl Notation {
    /// The name, as [`FromStr`] reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::San => "san",
            Notation::Lan => "lan",
            Notation::Uci => "uci",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not `san`, `lan` or `uci`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseNotationError(String);

impl fmt::Display for ParseNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation `{}` (expected san, lan or uci)",
            self.0
        )
    }
}

impl std::error::Error for ParseNotationError {}

impl FromStr for Notation {
    type Err = ParseNotationError;

    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        match s {
            "san" => Ok(Notation::San),
            "lan" => Ok(Notation::Lan),
            "uci" => Ok(Notation::Uci),
            _ => Err(ParseNotationError(s.to_owned())),
        }
    }
}

/// The [`MoveText`] that replays the game as the writer walks it: each move in a
/// [`Notation`], and with `fen_comments` a comment holding the FEN after every move.
///
/// A move that cannot be resolved (the game was not checked first) is written as the game
/// gives it, and so is the rest of its line.
///
/// ```
/// use tabia_notation::pgn::{Game, WriteOptions};
/// use tabia_position::{MoveWriter, Notation};
///
/// let game: Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O *".parse()?;
/// let mut options = WriteOptions::default();
/// options.tags = false;
/// options.line_length = 0;
/// let mut uci = MoveWriter::new(&game, Notation::Uci)?;
/// assert_eq!(
///     game.write(&options, &mut uci),
///     "1. e2e4 e7e5 (1... c7c5 2. g1f3) 2. g1f3 b8c6 3. f1b5 g8f6 4. e1g1 *"
/// );
/// let mut lan = MoveWriter::new(&game, Notation::Lan)?;
/// assert!(game.write(&options, &mut lan).ends_with("3. Bf1-b5 Ng8-f6 4. O-O *"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct MoveWriter {
    notation: Notation,
    fen_comments: bool,
    /// The position before the move written last, and after it.
    before: Position,
    now: Position,
    /// Whether a move of the current line could not be resolved.
    lost: bool,
    /// The saved `(before, now, lost)` of the lines a variation is open in.
    stack: Vec<(Position, Position, bool)>,
}

impl MoveWriter {
    /// A writer for `game`, from the start position its tags give.
    ///
    /// # Errors
    ///
    /// The tags give no legal start position.
    pub fn new(game: &Game, notation: Notation) -> Result<MoveWriter, ReplayError> {
        let start = start_position(game)?;
        Ok(MoveWriter {
            notation,
            fen_comments: false,
            before: start.clone(),
            now: start,
            lost: false,
            stack: Vec::new(),
        })
    }

    /// Also writes a comment with the FEN after every move (pgn-extract's `--fencomments`).
    pub fn with_fen_comments(mut self, yes: bool) -> MoveWriter {
        self.fen_comments = yes;
        self
    }
}

impl MoveText for MoveWriter {
    fn write_move(&mut self, mv: &Node, pieces: &Pieces, out: &mut String) {
        let resolved = if self.lost {
            None
        } else {
            let mut pos = self.now.clone();
            match resolve_node(&mut pos, mv, 0, 0) {
                Ok((m, _)) => Some((pos, m)),
                Err(_) => None,
            }
        };
        let Some((mut pos, m)) = resolved else {
            self.lost = true;
            pieces.write_san(&mv.san, out);
            return;
        };
        let before = self.now.clone();
        if let Some(m) = m {
            pos.play_unchecked(m);
        }
        match (self.notation, m) {
            (Notation::San, _) => pieces.write_san(&mv.san, out),
            (Notation::Lan, None) => out.push_str("--"),
            (Notation::Uci, None) => out.push_str("0000"),
            (Notation::Lan, Some(m)) => pieces.write_lan(&lan(&m, &pos), out),
            (Notation::Uci, Some(m)) => {
                let mode = before.castling_mode();
                let uci = m.to_uci(match mode {
                    CastlingMode::Chess960 => CastlingMode::Chess960,
                    CastlingMode::Standard => CastlingMode::Standard,
                });
                out.push_str(&uci.to_string());
            }
        }
        self.before = before;
        self.now = pos;
    }

    fn comment_after(&mut self, _mv: &Node) -> Option<String> {
        (self.fen_comments && !self.lost).then(|| self.now.fen(EpRule::Always))
    }

    fn begin_variation(&mut self) {
        let now = self.before.clone();
        let saved = (
            std::mem::replace(&mut self.before, now.clone()),
            std::mem::replace(&mut self.now, now),
            self.lost,
        );
        self.stack.push(saved);
    }

    fn end_variation(&mut self) {
        if let Some((before, now, lost)) = self.stack.pop() {
            self.before = before;
            self.now = now;
            self.lost = lost;
        }
    }
}

impl Position {
    /// The long algebraic notation of the legal move `m` (`Ng1-f3`, `e4xd5`, `e7-e8=Q+`,
    /// `O-O`), as python-chess's `board.lan(move)` writes it.
    ///
    /// ```
    /// use tabia_position::Position;
    ///
    /// let pos = Position::new().after("e4")?.after("d5")?;
    /// let m = pos.parse_move("exd5")?;
    /// assert_eq!(pos.lan(m).to_string(), "e4xd5");
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    pub fn lan(&self, m: Move) -> LanPlus {
        let mut after = self.clone();
        after.play_unchecked(m);
        lan(&m, &after)
    }
}

/// The long algebraic form of the legal move `m`, given the position after it (for the check
/// mark).
fn lan(m: &Move, after: &Position) -> LanPlus {
    let lan = match *m {
        Move::Castle { king, rook } => Lan::Castle(if rook.file() > king.file() {
            nt::CastlingSide::KingSide
        } else {
            nt::CastlingSide::QueenSide
        }),
        Move::Put { role: r, to } => Lan::Put {
            role: role(r),
            to: square(to),
        },
        _ => Lan::Normal {
            role: role(m.role()),
            from: m.from().map_or(square(m.to()), square),
            capture: m.is_capture(),
            to: square(m.to()),
            promotion: m.promotion().map(role),
        },
    };
    let suffix = if after.is_checkmate() {
        Some(Suffix::Checkmate)
    } else if after.is_check() {
        Some(Suffix::Check)
    } else {
        None
    };
    LanPlus { lan, suffix }
}

fn square(sq: shakmaty::Square) -> nt::Square {
    nt::Square::new(u8::from(sq) & 63).unwrap_or(nt::Square::A1)
}

fn role(role: shakmaty::Role) -> nt::Role {
    match role {
        shakmaty::Role::Pawn => nt::Role::Pawn,
        shakmaty::Role::Knight => nt::Role::Knight,
        shakmaty::Role::Bishop => nt::Role::Bishop,
        shakmaty::Role::Rook => nt::Role::Rook,
        shakmaty::Role::Queen => nt::Role::Queen,
        shakmaty::Role::King => nt::Role::King,
    }
}

/// Tags a replay of the mainline can add to a game.
///
/// ```
/// use tabia_notation::pgn::Game;
/// use tabia_position::ReplayTags;
///
/// let mut game: Game = "1. e4 e5 *".parse()?;
/// ReplayTags { ply_count: true, zobrist: true, final_fen: true }.add(&mut game)?;
/// assert_eq!(game.tag("PlyCount"), Some("2"));
/// assert_eq!(game.tag("Zobrist"), Some("0844931a6ef4b9a0"));
/// assert_eq!(
///     game.tag("FinalFEN"),
///     Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
/// );
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayTags {
    /// `PlyCount`: the number of mainline plies.
    pub ply_count: bool,
    /// `Zobrist`: the Polyglot hash of the final position, 16 hex digits.
    pub zobrist: bool,
    /// `FinalFEN`: the FEN of the final position.
    pub final_fen: bool,
}

impl ReplayTags {
    /// Whether no tag is asked for.
    pub fn is_empty(&self) -> bool {
        !(self.ply_count || self.zobrist || self.final_fen)
    }

    /// Replays the mainline and sets the tags asked for (replacing a tag of the same name).
    ///
    /// # Errors
    ///
    /// A bad start position or an illegal mainline move.
    pub fn add(&self, game: &mut Game) -> Result<(), ReplayError> {
        if self.is_empty() {
            return Ok(());
        }
        let replayed = replay_mainline(game, None, |_| {})?;
        if self.ply_count {
            game.set_tag("PlyCount", Some(&replayed.plies.to_string()));
        }
        if self.zobrist {
            let hash = format!("{:016x}", replayed.end.zobrist());
            game.set_tag("Zobrist", Some(&hash));
        }
        if self.final_fen {
            game.set_tag("FinalFEN", Some(&replayed.end.fen(EpRule::Always)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::WriteOptions;

    use super::*;

    fn write(pgn: &str, notation: Notation) -> String {
        let game: Game = pgn.parse().unwrap();
        let options = WriteOptions {
            tags: false,
            ..WriteOptions::default()
        };
        let mut w = MoveWriter::new(&game, notation).unwrap();
        game.write(&options, &mut w)
    }

    #[test]
    fn promotion_capture_check_mate_and_null() {
        let pgn = "[FEN \"4k3/1P6/8/8/8/8/8/4K2R w K - 0 1\"]\n\n\
                   1. bxa8=Q+ ({x} 1. b8=N) 1... Kd7 2. -- Ke7 3. O-O *";
        let pgn = pgn.replace("bxa8=Q+", "b8=Q+");
        assert_eq!(
            write(&pgn, Notation::Lan),
            "1. b7-b8=Q+ ({x} 1. b7-b8=N) 1... Ke8-d7 2. -- Kd7-e7 3. O-O *"
        );
        assert_eq!(
            write(&pgn, Notation::Uci),
            "1. b7b8q ({x} 1. b7b8n) 1... e8d7 2. 0000 d7e7 3. e1g1 *"
        );
        let mate = "1. f3 e5 2. g4 Qh4# 0-1";
        assert_eq!(
            write(mate, Notation::Lan),
            "1. f2-f3 e7-e5 2. g2-g4 Qd8-h4# 0-1"
        );
        assert_eq!(
            write("1. e4 d5 2. exd5 *", Notation::Lan),
            "1. e2-e4 d7-d5 2. e4xd5 *"
        );
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let pgn = "[Variant \"Chess960\"]\n\
                   [FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n\
                   1. O-O-O O-O *";
        assert_eq!(write(pgn, Notation::Uci), "1. e1b1 e8g8 *");
        assert_eq!(write(pgn, Notation::Lan), "1. O-O-O O-O *");
        let standard = "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O *";
        assert_eq!(write(standard, Notation::Uci), "1. e1g1 e8c8 *");
    }

    #[test]
    fn variations_start_from_the_position_before_their_move() {
        assert_eq!(
            write(
                "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) (1... e6) 2. Nf3 *",
                Notation::Uci
            ),
            "1. e2e4 e7e5 (1... c7c5 2. g1f3 (2. b1c3 b8c6) 2... d7d6) (1... e7e6) 2. g1f3 *"
        );
    }

    #[test]
    fn unresolvable_move_is_written_as_given() {
        assert_eq!(
            write("1. e4 Ke2 2. Nf3 *", Notation::Uci),
            "1. e2e4 Ke2 2. Nf3 *"
        );
    }

    #[test]
    fn fen_comments() {
        let game: Game = "1. e4 (1. d4) e5 *".parse().unwrap();
        let options = WriteOptions {
            tags: false,
            line_length: 0,
            ..WriteOptions::default()
        };
        let mut w = MoveWriter::new(&game, Notation::San)
            .unwrap()
            .with_fen_comments(true);
        assert_eq!(
            game.write(&options, &mut w),
            "1. e4 {rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1} \
             (1. d4 {rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1}) \
             1... e5 {rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2} *"
        );
    }
}
