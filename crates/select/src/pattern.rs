//! [`FenPattern`]: pgn-extract's FENPattern syntax, a board with wildcards.

use std::{fmt, str::FromStr};

use tabia_position::shakmaty::{Board, Color, File, Piece, Rank, Square};

use crate::error::{ParseError, ParseErrorKind};

/// A set of square contents, as a bit mask: bit 0 is an empty square, bits 1–6 the white
/// pawn, knight, bishop, rook, queen, king, bits 7–12 the black ones.
type Set = u16;

const EMPTY: Set = 1;
const WHITE: Set = 0b111111 << 1;
const BLACK: Set = 0b111111 << 7;
const PAWNS: Set = (1 << 1) | (1 << 7);
const ALL: Set = EMPTY | WHITE | BLACK;

fn piece_bit(piece: Piece) -> Set {
    let role = piece.role as u16; // Pawn = 1 … King = 6
    match piece.color {
        Color::White => 1 << role,
        Color::Black => 1 << (role + 6),
    }
}

fn letter_set(c: u8) -> Option<Set> {
    Some(match c {
        b'A' => WHITE,
        b'a' => BLACK,
        _ => piece_bit(Piece::from_char(char::from(c))?),
    })
}

/// The same set with the colours swapped.
fn swap(set: Set) -> Set {
    (set & EMPTY) | ((set & WHITE) << 6) | ((set & BLACK) >> 6)
}

/// One token of a rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// One square whose content is in the set.
    One(Set),
    /// `*`: zero or more squares, whatever they hold.
    Any,
}

/// A board pattern in pgn-extract's FENPattern syntax: eight ranks separated by `/`, from the
/// eighth down, each a sequence of
///
/// | token | matches |
/// |---|---|
/// | `K Q R B N P k q r b n p` | that piece |
/// | `1`–`8` | that many empty squares |
/// | `?` | any square, empty or not |
/// | `!` | any occupied square |
/// | `A` / `a` | any white / black piece |
/// | `m` | any square without a pawn (empty, or a piece that is not a pawn) |
/// | `M` | any piece that is not a pawn |
/// | `*` | zero or more squares, whatever they hold |
/// | `[xyz]` / `[^xyz]` | one square holding one of / none of the listed pieces (`A`, `a` allowed) |
///
/// Each rank must cover exactly eight squares. With [`FenPattern::either`] the pattern is also
/// tried with the colours swapped (the board mirrored top to bottom and white and black
/// exchanged), as pgn-extract's `FENPatternI` does.
///
/// ```
/// use tabia_select::FenPattern;
/// use tabia_position::{Position, shakmaty::Position as _};
///
/// let center: FenPattern = "*/*/*/*/???PP???/*/*/*".parse()?;
/// let pos = Position::new().after("e4")?.after("e5")?.after("d4")?;
/// assert!(center.matches(pos.chess().board()));
/// assert!(!center.matches(Position::new().chess().board()));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenPattern {
    text: String,
    /// The ranks, the eighth first.
    ranks: [Vec<Token>; 8],
    /// The pattern with the colours swapped, for `either`.
    swapped: Option<[Vec<Token>; 8]>,
}

impl FenPattern {
    /// The same pattern, also tried with the colours swapped.
    #[must_use]
    pub fn either(mut self) -> FenPattern {
        let mut swapped = self.ranks.clone();
        swapped.reverse();
        for rank in &mut swapped {
            for token in rank.iter_mut() {
                if let Token::One(set) = token {
                    *set = swap(*set);
                }
            }
        }
        self.swapped = Some(swapped);
        self
    }

    /// Whether the pattern is also tried with the colours swapped.
    pub fn is_either(&self) -> bool {
        self.swapped.is_some()
    }

    /// Whether `board` matches the pattern (or, with [`FenPattern::either`], its swapped form).
    pub fn matches(&self, board: &Board) -> bool {
        self.fits(&self.ranks, board) || self.swapped.as_ref().is_some_and(|r| self.fits(r, board))
    }

    /// Whether the ranks fit the board; a rank that is a lone `*` is not even looked at, and a
    /// rank's squares are read only when it is checked.
    fn fits(&self, ranks: &[Vec<Token>; 8], board: &Board) -> bool {
        ranks.iter().enumerate().all(|(i, tokens)| {
            if tokens.as_slice() == [Token::Any] {
                return true;
            }
            let rank = Rank::new(7 - i as u32);
            let mut squares = [0 as Set; 8];
            for (f, square) in squares.iter_mut().enumerate() {
                *square = match board.piece_at(Square::from_coords(File::new(f as u32), rank)) {
                    Some(piece) => piece_bit(piece),
                    None => EMPTY,
                };
            }
            rank_matches(tokens, &squares)
        })
    }
}

/// Whether a rank's tokens match its eight squares exactly (`*` by backtracking over a table
/// of at most 9 × (tokens + 1) states).
fn rank_matches(tokens: &[Token], squares: &[Set; 8]) -> bool {
    // can[j] after processing i tokens: whether i tokens can cover the first j squares.
    let mut can = [false; 9];
    can[0] = true;
    for token in tokens {
        let mut next = [false; 9];
        match token {
            Token::Any => {
                let mut reached = false;
                for j in 0..9 {
                    reached |= can[j];
                    next[j] = reached;
                }
            }
            Token::One(set) => {
                for j in 0..8 {
                    if can[j] && squares[j] & set != 0 {
                        next[j + 1] = true;
                    }
                }
            }
        }
        can = next;
    }
    can[8]
}

// pattern = rank 7("/" rank)
// rank    = *(digit / square / "*")
// square  = piece / "?" / "!" / "A" / "a" / "m" / "M" / "[" ["^"] 1*(piece / "A" / "a") "]"
impl FromStr for FenPattern {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<FenPattern, ParseError> {
        let bad = |reason, start: usize, end: usize| {
            ParseError::new(
                "fen-pattern",
                ParseErrorKind::Pattern(reason),
                text,
                start..end,
            )
        };
        let pattern = text.split_whitespace().next().unwrap_or_default();
        let lead = text.len() - text.trim_start().len();
        if pattern.is_empty() {
            return Err(ParseError::new(
                "fen-pattern",
                ParseErrorKind::Empty,
                text,
                0..text.len(),
            ));
        }
        let mut ranks: [Vec<Token>; 8] = Default::default();
        let mut offset = lead;
        let parts: Vec<&str> = pattern.split('/').collect();
        if parts.len() != 8 {
            return Err(bad(
                "expected 8 ranks separated by `/`",
                lead,
                lead + pattern.len(),
            ));
        }
        for (rank, part) in ranks.iter_mut().zip(&parts) {
            let bytes = part.as_bytes();
            let mut i = 0;
            // The fewest and most squares the rank can cover.
            let (mut least, mut unbounded) = (0usize, false);
            while i < bytes.len() {
                let at = offset + i;
                let token = match bytes[i] {
                    d @ b'1'..=b'8' => {
                        for _ in 0..(d - b'0') {
                            rank.push(Token::One(EMPTY));
                        }
                        least += usize::from(d - b'0');
                        i += 1;
                        continue;
                    }
                    b'*' => {
                        unbounded = true;
                        Token::Any
                    }
                    b'?' => Token::One(ALL),
                    b'!' => Token::One(WHITE | BLACK),
                    b'm' => Token::One(ALL & !PAWNS),
                    b'M' => Token::One((WHITE | BLACK) & !PAWNS),
                    b'[' => {
                        let close = bytes[i..]
                            .iter()
                            .position(|&b| b == b']')
                            .ok_or_else(|| bad("`[` without `]`", at, offset + bytes.len()))?;
                        let inner = &bytes[i + 1..i + close];
                        let (negated, letters) = match inner.split_first() {
                            Some((b'^', rest)) => (true, rest),
                            _ => (false, inner),
                        };
                        if letters.is_empty() {
                            return Err(bad("an empty set", at, at + close + 1));
                        }
                        let mut set = 0;
                        for (k, &c) in letters.iter().enumerate() {
                            let pos = at + 1 + usize::from(negated) + k;
                            set |= letter_set(c).ok_or_else(|| {
                                bad(
                                    "expected piece letters (KQRBNPkqrbnp, A, a) in a set",
                                    pos,
                                    pos + 1,
                                )
                            })?;
                        }
                        i += close;
                        Token::One(if negated { ALL & !set } else { set })
                    }
                    c => Token::One(letter_set(c).ok_or_else(|| {
                        bad(
                            "expected a piece letter, 1-8, ?, !, A, a, m, M, * or [set]",
                            at,
                            at + 1,
                        )
                    })?),
                };
                if token != Token::Any {
                    least += 1;
                }
                rank.push(token);
                i += 1;
            }
            if least > 8 || (!unbounded && least < 8) {
                return Err(bad(
                    "a rank must cover exactly 8 squares",
                    offset,
                    (offset + part.len()).max(offset + 1),
                ));
            }
            offset += part.len() + 1;
        }
        Ok(FenPattern {
            text: pattern.to_owned(),
            ranks,
            swapped: None,
        })
    }
}

impl fmt::Display for FenPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use tabia_position::{Position, shakmaty::Position as _};

    use super::*;

    fn board(fen: &str) -> Board {
        Position::from_arg(fen).unwrap().chess().board().clone()
    }

    #[test]
    fn pgn_extract_examples() {
        let start = board("startpos");
        assert!(
            "rnbqkbnr/*/*/*/*/*/*/RNBQKBNR"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            "*/*/*/*/*/*/*/????m???"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            !"*/*/*/*/*/*/*/[KQ]*"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            "*/*/*/*/*/*/*/[^KQ]*"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            !"8/*/*/*/*/*/*/*"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
        );
        assert!(
            "????k???/*/*/*/*/*/*/????K???"
                .parse::<FenPattern>()
                .unwrap()
                .matches(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
        );
        let castled: FenPattern = "?????rk?/?????aaa/*/*/*/8/P[BP]P*/??KR????"
            .parse()
            .unwrap();
        assert!(castled.matches(&board("5rk1/5ppp/8/8/8/8/PBP5/2KR4 w - - 0 1")));
        assert!(!castled.matches(&board("5rk1/5ppp/8/8/8/8/PNP5/2KR4 w - - 0 1")));
    }

    #[test]
    fn either_swaps_colours() {
        let white_fianchetto: FenPattern = "*/*/*/*/*/6P1/*PBP/*".parse().unwrap();
        let black = board("rnbqk2r/ppppppbp/6p1/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(!white_fianchetto.matches(&black));
        assert!(white_fianchetto.either().matches(&black));
    }

    #[test]
    fn bad_patterns() {
        insta::assert_snapshot!("*/*/*".parse::<FenPattern>().unwrap_err());
        insta::assert_snapshot!("*/*/*/*/x*/*/*/*".parse::<FenPattern>().unwrap_err());
        insta::assert_snapshot!("*/*/*/*/*/*/*/[KQ".parse::<FenPattern>().unwrap_err());
        insta::assert_snapshot!("*/*/*/*/9/*/*/*".parse::<FenPattern>().unwrap_err());
        insta::assert_snapshot!("*/*/*/*/7/*/*/*".parse::<FenPattern>().unwrap_err());
    }
}
