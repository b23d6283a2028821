//! [`FenPattern`]: pgn-extract's FENPattern syntax, a board with wildcards.

use std::{fmt, str::FromStr};

use tabia_position::shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Square};

use crate::{
    board::{KINDS, PawnCones, contents, kind},
    error::{ParseError, ParseErrorKind},
};

/// A set of square contents, as a bit mask: bit 0 is an empty square, bits 1–6 the white
/// pawn, knight, bishop, rook, queen, king, bits 7–12 the black ones.
type Set = u16;

const EMPTY: Set = 1;
const WHITE: Set = 0b111111 << 1;
const BLACK: Set = 0b111111 << 7;
const PAWNS: Set = (1 << 1) | (1 << 7);
const ALL: Set = EMPTY | WHITE | BLACK;

fn piece_bit(piece: Piece) -> Set {
    1 << kind(piece)
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
    /// The ranks as bit boards, and their swapped form.
    compiled: Compiled,
    compiled_swapped: Option<Compiled>,
}

/// A pattern compiled to bit boards: the squares of a rank with at most one `*` have a fixed
/// set of allowed contents each (a `*` alone, or between the squares that start and those
/// that end the rank), checked for the whole board in one pass over the thirteen kinds of
/// content; ranks with more than one `*` are matched square by square.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Compiled {
    /// For each kind of content, the squares where the pattern allows it.
    allowed: [Bitboard; KINDS],
    /// The ranks matched square by square: (rank, tokens).
    others: Vec<(Rank, Vec<Token>)>,
    /// How many pieces of each colour the fixed squares need (white, black).
    pieces: [u32; 2],
    /// The squares fixed to a pawn of a colour.
    pawns: PawnCones,
}

impl Compiled {
    fn new(ranks: &[Vec<Token>; 8]) -> Compiled {
        let mut compiled = Compiled {
            allowed: [Bitboard::FULL; KINDS],
            others: Vec::new(),
            pieces: [0; 2],
            pawns: PawnCones::default(),
        };
        for (i, tokens) in ranks.iter().enumerate() {
            let rank = Rank::new(7 - i as u32);
            let stars = tokens.iter().filter(|t| **t == Token::Any).count();
            if stars > 1 {
                compiled.others.push((rank, tokens.clone()));
                continue;
            }
            let star = tokens.iter().position(|t| *t == Token::Any);
            let (head, tail) = match star {
                Some(at) => (&tokens[..at], &tokens[at + 1..]),
                None => (&tokens[..], &[][..]),
            };
            let files = (0..head.len()).chain(8 - tail.len()..8);
            for (file, token) in files.zip(head.iter().chain(tail)) {
                let Token::One(set) = *token else { continue };
                compiled.fix(Square::from_coords(File::new(file as u32), rank), set);
            }
        }
        compiled
    }

    /// Allows only `set` on `square`.
    fn fix(&mut self, square: Square, set: Set) {
        for (k, allowed) in self.allowed.iter_mut().enumerate() {
            if set & (1 << k) == 0 {
                allowed.discard(square);
            }
        }
        for (c, (color, pieces, pawn)) in
            [(Color::White, WHITE, 1 << 1), (Color::Black, BLACK, 1 << 7)]
                .into_iter()
                .enumerate()
        {
            if set & !pieces == 0 {
                self.pieces[c] += 1;
            }
            if set & !pawn == 0 {
                self.pawns.push(color, square);
            }
        }
    }

    fn fits(&self, board: &[Bitboard; KINDS]) -> bool {
        board
            .iter()
            .zip(&self.allowed)
            .all(|(squares, allowed)| (*squares & !*allowed).is_empty())
            && self
                .others
                .iter()
                .all(|(rank, tokens)| rank_matches(tokens, &rank_squares(board, *rank)))
    }

    /// Whether a standard chess game now at `board` may still fit: pieces are never regained,
    /// and a pawn only goes forward, a file aside for each capture.
    fn reachable(&self, board: &Board) -> bool {
        Color::ALL
            .into_iter()
            .enumerate()
            .all(|(c, color)| board.by_color(color).count() as u32 >= self.pieces[c])
            && self.pawns.allow(board)
    }
}

/// The contents of the eight squares of `rank`, as sets of one kind each.
fn rank_squares(board: &[Bitboard; KINDS], rank: Rank) -> [Set; 8] {
    let mut squares = [0 as Set; 8];
    let on_rank = Bitboard::from_rank(rank);
    for (k, squares_of_kind) in board.iter().enumerate() {
        for square in *squares_of_kind & on_rank {
            squares[square.file() as usize] = 1 << k;
        }
    }
    squares
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
        self.compiled_swapped = Some(Compiled::new(&swapped));
        self.swapped = Some(swapped);
        self
    }

    /// Whether the pattern is also tried with the colours swapped.
    pub fn is_either(&self) -> bool {
        self.swapped.is_some()
    }

    /// Whether `board` matches the pattern (or, with [`FenPattern::either`], its swapped form).
    pub fn matches(&self, board: &Board) -> bool {
        let board = contents(board);
        self.compiled.fits(&board)
            || self
                .compiled_swapped
                .as_ref()
                .is_some_and(|c| c.fits(&board))
    }

    /// Whether a standard chess game now at `board` may still reach a position that matches
    /// (a game that cannot can stop being searched): the squares the pattern fixes to a
    /// colour's pieces need as many (pieces are never regained), and those it fixes to pawns
    /// need pawns that can still walk there (a pawn goes forward only, a file aside for each
    /// capture).
    ///
    /// ```
    /// use tabia_select::FenPattern;
    /// use tabia_position::Position;
    ///
    /// let doubled: FenPattern = "*/*/*/*/*/4P3/4P3/*".parse()?;
    /// assert!(doubled.reachable(Position::new().board()));
    /// let one_pawn = Position::from_arg("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert!(!doubled.reachable(one_pawn.board()));
    ///
    /// // A pawn on d4 and one on e4: the e4 pawn cannot go back, the c2 pawn can take twice.
    /// let center: FenPattern = "*/*/*/*/???PP???/*/*/*".parse()?;
    /// let c2 = Position::from_arg("4k3/8/8/8/4P3/8/2P5/4K3 w - - 0 1")?;
    /// assert!(center.reachable(c2.board()));
    /// let a2 = Position::from_arg("4k3/8/8/8/4P3/8/P7/4K3 w - - 0 1")?;
    /// assert!(!center.reachable(a2.board()));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn reachable(&self, board: &Board) -> bool {
        self.compiled.reachable(board)
            || self
                .compiled_swapped
                .as_ref()
                .is_some_and(|c| c.reachable(board))
    }

    /// Whether the ranks fit the board square by square (the reference that the compiled
    /// form is tested against).
    #[cfg(test)]
    fn fits_by_squares(ranks: &[Vec<Token>; 8], board: &Board) -> bool {
        let board = contents(board);
        ranks.iter().enumerate().all(|(i, tokens)| {
            tokens.as_slice() == [Token::Any]
                || rank_matches(tokens, &rank_squares(&board, Rank::new(7 - i as u32)))
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
            compiled: Compiled::new(&ranks),
            ranks,
            swapped: None,
            compiled_swapped: None,
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

    /// The compiled pattern matches where the square-by-square reading does, on positions of
    /// a real game and on patterns of every shape (no `*`, one, several).
    #[test]
    fn compiled_patterns_agree_with_square_by_square_matching() {
        let mut pos = Position::new();
        let mut boards = vec![pos.board().clone()];
        for san in [
            "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3",
            "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O", "Nbd7", "g4", "b5", "g5", "b4", "Ne2",
            "Ne8", "f4", "a5", "f5", "a4", "Nbd4", "exd4", "Nxd4", "b3", "Kb1", "bxc2+", "Nxc2",
            "Bb3", "axb3", "axb3",
        ] {
            pos = pos.after(san).unwrap();
            boards.push(pos.board().clone());
        }
        boards.push(board("8/8/8/8/8/8/8/K6k w - - 0 1"));
        let patterns = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "*/*/*/*/???PP???/*/*/*",
            "*/*/*/*/*/6P1/*PBP/*RK1",
            "*/*/*/*/*/*/*/??KR*",
            "*/*/*/*/*/*/*/*K*",
            "*P*/*/*/*/*/*/*/*",
            "*p*p*/*/*/*/*/*/*/*",
            "?????rk?/?????aaa/*/*/*/8/P[BP]P*/??KR????",
            "*/*/*/*/*/*/*/[^KQ]*",
            "*/*/*/*/*/*/*/????m???",
            "*/!*!/*/*/*/*/*/*",
            "8/*/*/*/*/*/*/*",
            "*/*/*/*/*/*/*/K*k",
            "*/*/*/*/*/*/*/*M",
        ];
        let mut hits = 0;
        for text in patterns {
            let pattern: FenPattern = text.parse().unwrap();
            let either = pattern.clone().either();
            for b in &boards {
                let by_squares = FenPattern::fits_by_squares(&pattern.ranks, b);
                assert_eq!(pattern.matches(b), by_squares, "{text} on {b}");
                let swapped = either.swapped.as_ref().unwrap();
                let either_by_squares = by_squares || FenPattern::fits_by_squares(swapped, b);
                assert_eq!(either.matches(b), either_by_squares, "{text} either on {b}");
                hits += usize::from(by_squares);
                if by_squares {
                    assert!(
                        pattern.reachable(b),
                        "{text} matches but is unreachable on {b}"
                    );
                }
            }
        }
        assert!(hits > 20, "{hits}");
    }

    #[test]
    fn pawn_cones_go_back_a_file_aside_per_rank() {
        use crate::board::pawn_cone;
        use Square::*;
        let cone = |color, square| pawn_cone(color, square).into_iter().collect::<Vec<_>>();
        assert_eq!(cone(Color::White, D4), [B2, C2, D2, E2, F2, C3, D3, E3, D4]);
        assert_eq!(cone(Color::Black, E5), [E5, D6, E6, F6, C7, D7, E7, F7, G7]);
        assert_eq!(cone(Color::White, A3), [A2, B2, A3]);
        assert_eq!(cone(Color::Black, H7), [H7]);
        // No pawn ever stands on the first or the last rank.
        for square in [A1, E1, H8, D8] {
            assert!(pawn_cone(Color::White, square).is_empty());
            assert!(pawn_cone(Color::Black, square).is_empty());
        }
        // A pattern with a white pawn on the eighth rank can never be reached.
        let promoted: FenPattern = "P*/*/*/*/*/*/*/*".parse().unwrap();
        assert!(!promoted.reachable(&board("startpos")));
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
        let mut messages = crate::golden::Messages::default();
        messages.push("*/*/*".parse::<FenPattern>().unwrap_err());
        messages.push("*/*/*/*/x*/*/*/*".parse::<FenPattern>().unwrap_err());
        messages.push("*/*/*/*/*/*/*/[KQ".parse::<FenPattern>().unwrap_err());
        messages.push("*/*/*/*/9/*/*/*".parse::<FenPattern>().unwrap_err());
        messages.push("*/*/*/*/7/*/*/*".parse::<FenPattern>().unwrap_err());
        messages.check("pattern-bad_patterns");
    }
}
