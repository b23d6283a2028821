//! [`Probe`]: what a book holds for a position reached by moves from a start, with its errors
//! ([`ProbeError`]), as `tabia book probe` writes it (text or JSON).

use std::fmt;

use serde::{Serialize, Serializer};
use tabia_position::{EpRule, MoveError, Position, Variant};

use crate::{Book, BookMove, polyglot_key};

/// A position, its Polyglot key and the book's moves there ([`Book::probe_after`]). Its
/// `Display` is the text of `tabia book probe` (the position, the key, then a table of the
/// moves), its JSON (serde) that of `tabia book probe --json`, the key in 16 hex digits.
///
/// ```
/// use tabia_book::{Book, BookOptions, Tree, TreeOptions};
/// use tabia_position::Position;
///
/// let mut tree = Tree::new(TreeOptions::default());
/// tree.add_pgn(&b"1. e4 e5 2. Nf3 *\n\n1. e4 c5 *\n"[..])?;
/// let book = Book::from_tree(&tree, BookOptions { min_games: 1, ..BookOptions::default() });
/// let probe = book.probe_after(&Position::new(), ["e4"])?;
/// assert_eq!(probe.key, 0x823c9b50fd114196);
/// assert_eq!(probe.to_string(), "\
/// position  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -
/// key       823c9b50fd114196
///
/// move  uci    weight   share  learn
/// c5    c7c5        1   50.0%      0
/// e5    e7e5        1   50.0%      0
/// ");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Probe {
    /// The position (its key: a FEN without the clocks).
    pub position: String,
    /// The position's FEN (en passant only when a capture is legal).
    pub fen: String,
    /// The Polyglot key.
    #[serde(serialize_with = "hex")]
    pub key: u64,
    /// The book's moves there, heaviest first ([`Book::probe`]).
    pub moves: Vec<BookMove>,
}

/// A Polyglot key in 16 hex digits.
fn hex<S: Serializer>(key: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{key:016x}"))
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "position  {}", self.position)?;
        writeln!(f, "key       {:016x}", self.key)?;
        if self.moves.is_empty() {
            return writeln!(f, "no moves in the book");
        }
        let w = self
            .moves
            .iter()
            .map(|m| m.san.len())
            .max()
            .unwrap_or(0)
            .max(4);
        writeln!(
            f,
            "\n{:<w$}  {:<5}  {:>6}  {:>6}  {:>5}",
            "move", "uci", "weight", "share", "learn"
        )?;
        for m in &self.moves {
            writeln!(
                f,
                "{:<w$}  {:<5}  {:>6}  {:>5.1}%  {:>5}",
                m.san, m.uci, m.weight, m.percent, m.learn
            )?;
        }
        Ok(())
    }
}

/// Why a book cannot be probed where it was asked: a move that is not legal on the way, or a
/// position that Polyglot has no keys for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProbeError {
    /// A move played from the start is not legal.
    IllegalMove {
        /// 1-based ply of the move from the start.
        ply: usize,
        /// Why it is not legal.
        error: MoveError,
    },
    /// The position is of a variant Polyglot books have no keys for.
    Variant(Variant),
}

impl ProbeError {
    /// The ply of the move that is not legal (1 for the first move from the start).
    pub fn ply(&self) -> Option<usize> {
        match self {
            ProbeError::IllegalMove { ply, .. } => Some(*ply),
            ProbeError::Variant(_) => None,
        }
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::IllegalMove { ply, error } => write!(f, "move {ply}: {error}"),
            ProbeError::Variant(variant) => write!(
                f,
                "Polyglot books are for standard chess and Chess960, not {variant}"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

impl Book {
    /// What the book holds for the position reached by `moves` (SAN or UCI) from `start`.
    ///
    /// # Errors
    ///
    /// A move that is not legal ([`ProbeError::IllegalMove`], with its ply), or a position of
    /// another variant than standard chess ([`ProbeError::Variant`]).
    ///
    /// ```
    /// use tabia_book::{Book, ProbeError};
    /// use tabia_position::{Position, Variant};
    ///
    /// let book = Book::default();
    /// let err = book.probe_after(&Position::new(), ["e4", "e4"]).unwrap_err();
    /// assert_eq!(err.ply(), Some(2));
    /// assert!(err.to_string().starts_with("move 2: "));
    /// let atomic = Position::new_variant(Variant::Atomic);
    /// let err = book.probe_after(&atomic, [""; 0]).unwrap_err();
    /// assert_eq!(err, ProbeError::Variant(Variant::Atomic));
    /// ```
    pub fn probe_after<I>(&self, start: &Position, moves: I) -> Result<Probe, ProbeError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut pos = start.clone();
        for (i, text) in moves.into_iter().enumerate() {
            match pos.parse_move(text.as_ref()) {
                Ok(m) => pos.play_unchecked(m),
                Err(error) => return Err(ProbeError::IllegalMove { ply: i + 1, error }),
            }
        }
        let key = polyglot_key(&pos).ok_or_else(|| ProbeError::Variant(pos.variant()))?;
        Ok(Probe {
            position: pos.key().to_string(),
            fen: pos.fen(EpRule::Legal),
            key,
            moves: self.probe(&pos),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BookOptions, Tree, TreeOptions};

    fn book() -> Book {
        let mut tree = Tree::new(TreeOptions::default());
        tree.add_pgn(&b"1. e4 e5 *\n\n1. e4 c5 *\n\n1. d4 *\n"[..])
            .expect("readable");
        Book::from_tree(
            &tree,
            BookOptions {
                min_games: 1,
                ..BookOptions::default()
            },
        )
    }

    #[test]
    fn probes_after_the_moves() {
        let probe = book().probe_after(&Position::new(), [""; 0]).unwrap();
        assert_eq!(probe.key, 0x463b_9618_1691_fc9c);
        let moves: Vec<&str> = probe.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(moves, ["e4", "d4"]);
        let after = book().probe_after(&Position::new(), ["d2d4"]).unwrap();
        assert_eq!(after.moves, []);
        assert!(after.to_string().ends_with("\nno moves in the book\n"));
    }

    #[test]
    fn the_json_has_the_key_in_hex() {
        let probe = book().probe_after(&Position::new(), ["e4", "c5"]).unwrap();
        let json = serde_json::to_string(&probe).unwrap();
        assert!(
            json.starts_with(&format!(
                "{{\"position\":\"{}\",\"fen\":\"{}\",\"key\":\"{:016x}\",\"moves\":[]",
                probe.position, probe.fen, probe.key
            )),
            "{json}"
        );
    }

    #[test]
    fn an_illegal_move_names_its_ply() {
        let err = book()
            .probe_after(&Position::new(), ["e4", "e5", "Ke3"])
            .unwrap_err();
        assert_eq!(err.ply(), Some(3));
        assert!(err.to_string().starts_with("move 3: "), "{err}");
    }
}
