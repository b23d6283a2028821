//! Forsyth–Edwards Notation: the six fields of a position, strict and lenient.
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
//! board                                         turn castling en-passant halfmoves fullmoves
//! ```
//!
//! [`Fen`] holds the fields exactly as given: the castling field keeps its tokens in order,
//! whether standard (`KQkq`), Shredder (`HAha`) or X-FEN (`Kkc`). In the lenient
//! [`ParseMode`] only the placement is required and missing fields default to `w - - 0 1`.
//!
//! ```
//! use tabia_notation::{Color, Square, fen::{Fen, ParseMode}};
//!
//! let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
//! assert_eq!((fen.turn, fen.ep_square), (Color::Black, Some(Square::E3)));
//! assert_eq!(fen.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//!
//! let partial = Fen::from_ascii_lenient(b"8/8/8/4k3/8/8/8/4K3")?;
//! assert_eq!(partial.to_string(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
//!
//! let err = Fen::from_ascii(b"8/8/8/4k3/8/8/8/4K3 w KQxq - 0 1").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid castling field (expected castling rights such as `KQkq`, `HAha` or `-`) \
//!      at line 1, column 25\n  | 8/8/8/4k3/8/8/8/4K3 w KQxq - 0 1\n  |                         ^^"
//! );
//! # Ok::<(), tabia_notation::Error>(())
//! ```

use std::{fmt, str::FromStr};

use crate::{
    Color, Error, ErrorKind, Piece, Role, Square,
    syntax::{self, PResult, fail},
    types::{color, decimal, square},
};

/// How strict [`Fen::prefix`] is.
///
/// In both modes fields are separated by one or more spaces or tabs, and a FEN ends at a line
/// end or the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParseMode {
    /// All six fields are required; the fullmove number is at least 1.
    #[default]
    Strict,
    /// Only the piece placement is required: the fields after the last one given default to
    /// `w - - 0 1`. A fullmove number of 0 is kept as given.
    Lenient,
}

/// The piece placement: what stands on each square.
///
/// ```
/// use tabia_notation::{Color, Piece, Role, Square, fen::Board};
///
/// let mut board = Board::initial();
/// assert_eq!(board.get(Square::E1), Some(Piece { color: Color::White, role: Role::King }));
/// board.set(Square::E2, None);
/// assert_eq!(board.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 64],
}

impl Board {
    /// The board without pieces.
    pub const fn empty() -> Board {
        Board {
            squares: [None; 64],
        }
    }

    /// The initial position of standard chess.
    pub fn initial() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in (0u8..).zip(back) {
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                board.put(file, back_rank, Some(Piece { color, role }));
                let pawn = Piece {
                    color,
                    role: Role::Pawn,
                };
                board.put(file, pawn_rank, Some(pawn));
            }
        }
        board
    }

    /// What stands on `square`.
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.squares
            .get(usize::from(square.index()))
            .copied()
            .flatten()
    }

    /// Puts `piece` on `square` (or empties it with `None`); returns what stood there.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) -> Option<Piece> {
        match self.squares.get_mut(usize::from(square.index())) {
            Some(slot) => std::mem::replace(slot, piece),
            None => None,
        }
    }

    fn put(&mut self, file: u8, rank: u8, piece: Option<Piece>) {
        if let Some(square) = Square::from_coords(file, rank) {
            self.set(square, piece);
        }
    }

    /// The occupied squares and their pieces, from `a1` to `h8`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// Parses a piece placement from the start of `bytes` (it ends at white space or the end);
    /// returns it and the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(Board, usize), Error> {
        syntax::run(bytes, board)
    }

    /// Parses exactly a piece placement.
    pub fn from_ascii(bytes: &[u8]) -> Result<Board, Error> {
        syntax::run_all(bytes, board)
    }
}

impl Default for Board {
    /// The initial position.
    fn default() -> Board {
        Board::initial()
    }
}

/// The number of bytes up to the next ASCII white space (the rest of a field).
pub(crate) fn field_len(i: &[u8]) -> usize {
    i.iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(i.len())
}

/// Fails with `kind` if the field does not end here (anything but white space or the end is
/// left of it), underlining the rest of the field.
pub(crate) fn field_end<'a>(
    i: &'a [u8],
    kind: ErrorKind,
    expected: &'static str,
) -> PResult<'a, ()> {
    match field_len(i) {
        0 => Ok((i, ())),
        n => fail(i, n, kind, expected),
    }
}

const PLACEMENT: &str = "a piece letter, a digit 1 to 8 or `/`";

/// What a placement of the wrong number of ranks was expected to have, and how many it has:
/// its `/`-separated parts, counted in the field that starts at `placement`.
fn ranks_found(placement: &[u8]) -> &'static str {
    const FOUND: [&str; 16] = [
        "8 ranks, found 1",
        "8 ranks, found 2",
        "8 ranks, found 3",
        "8 ranks, found 4",
        "8 ranks, found 5",
        "8 ranks, found 6",
        "8 ranks, found 7",
        "8 ranks",
        "8 ranks, found 9",
        "8 ranks, found 10",
        "8 ranks, found 11",
        "8 ranks, found 12",
        "8 ranks, found 13",
        "8 ranks, found 14",
        "8 ranks, found 15",
        "8 ranks, found 16",
    ];
    let field = &placement[..field_len(placement)];
    let ranks = 1 + field.iter().filter(|&&b| b == b'/').count();
    FOUND
        .get(ranks - 1)
        .copied()
        .unwrap_or("8 ranks, found more than 16")
}

// board = rank 7("/" rank)
pub(crate) fn board(i: &[u8]) -> PResult<'_, Board> {
    board_marked(i, None)
}

/// The `board` rule; with `promoted`, a `~` after a piece (Crazyhouse) marks it promoted and
/// sets its square's bit, without it a `~` is an error.
fn board_marked<'a>(i: &'a [u8], mut promoted: Option<&mut u64>) -> PResult<'a, Board> {
    if field_len(i) == 0 {
        return fail(i, 0, ErrorKind::MissingField, "the piece placement");
    }
    let start = i;
    let mut board = Board::empty();
    let mut i = i;
    for rank_index in (0..8u8).rev() {
        let (rest, ()) = rank(i, rank_index, &mut board, promoted.as_deref_mut())?;
        i = rest;
        match i {
            [b'/', rest @ ..] if rank_index > 0 => i = rest,
            // A ninth rank is a Crazyhouse pocket, for the `placement` rule to read.
            [b'/', ..] if promoted.is_some() => {}
            [b'/', ..] => {
                return fail(
                    i,
                    field_len(i),
                    ErrorKind::InvalidRankCount,
                    ranks_found(start),
                );
            }
            _ if rank_index > 0 => {
                let len = start.len() - i.len();
                return fail(start, len, ErrorKind::InvalidRankCount, ranks_found(start));
            }
            _ => {}
        }
    }
    Ok((i, board))
}

// rank = 1*(piece-letter ["~"] / empty-count)       ; describing exactly 8 squares
// piece-letter = "P" / "N" / "B" / "R" / "Q" / "K" / "p" / "n" / "b" / "r" / "q" / "k"
// empty-count = "1" / "2" / "3" / "4" / "5" / "6" / "7" / "8"
//                                              ; "~" (a promoted piece) only in Crazyhouse
fn rank<'a>(
    i: &'a [u8],
    rank_index: u8,
    board: &mut Board,
    mut promoted: Option<&mut u64>,
) -> PResult<'a, ()> {
    let start = i;
    let mut file = 0u32;
    let mut i = i;
    loop {
        match i {
            [d @ b'1'..=b'8', rest @ ..] => {
                file += u32::from(d - b'0');
                i = rest;
            }
            [b, rest @ ..] if !b.is_ascii_whitespace() && *b != b'/' && *b != b'[' => {
                let Some(piece) = Piece::from_char(char::from(*b)) else {
                    return fail(i, 1, ErrorKind::InvalidPlacement, PLACEMENT);
                };
                if let Ok(f) = u8::try_from(file) {
                    board.put(f, rank_index, Some(piece));
                }
                i = rest;
                if let [b'~', rest @ ..] = i {
                    let Some(mask) = promoted.as_deref_mut() else {
                        return fail(i, 1, ErrorKind::InvalidPlacement, PLACEMENT);
                    };
                    if file < 8 {
                        *mask |= 1 << (u32::from(rank_index) * 8 + file);
                    }
                    i = rest;
                }
                file += 1;
            }
            _ => break,
        }
    }
    if file != 8 {
        let len = (start.len() - i.len()).max(1);
        return fail(
            start,
            len,
            ErrorKind::InvalidRankLength,
            "8 squares in each rank",
        );
    }
    Ok((i, ()))
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let piece = Square::from_coords(file, rank).and_then(|sq| self.get(sq));
                match piece {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = Error;

    fn from_str(s: &str) -> Result<Board, Error> {
        Board::from_ascii(s.as_bytes())
    }
}

/// Crazyhouse pockets: how many pieces of each kind each side holds in hand, written `[QPpp]`
/// after the placement (or as a ninth rank, `.../RNBQKBNR/QPpp`) and read in both forms.
///
/// ```
/// use tabia_notation::{Color, Role, fen::Pockets};
///
/// let pockets: Pockets = "Ppq".parse()?;
/// assert_eq!(pockets.get(Color::Black, Role::Pawn), 1);
/// assert_eq!(pockets.to_string(), "[Pqp]");
/// assert_eq!(Pockets::default().to_string(), "[]");
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pockets {
    /// Counts by colour (white first), then role (pawn … king).
    counts: [[u8; 6]; 2],
}

impl Pockets {
    /// How many `role` pieces `color` holds.
    pub fn get(&self, color: Color, role: Role) -> u8 {
        self.counts[color_index(color)][role_index(role)]
    }

    /// Sets how many `role` pieces `color` holds.
    pub fn set(&mut self, color: Color, role: Role, count: u8) {
        self.counts[color_index(color)][role_index(role)] = count;
    }

    /// Whether both pockets are empty.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().flatten().all(|&n| n == 0)
    }

    /// The number of pieces in both pockets.
    pub fn len(&self) -> usize {
        self.counts.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// The pieces in hand, one per piece: white's then black's, kings first and pawns last
    /// (the order they are written in).
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            Role::ALL.into_iter().rev().flat_map(move |role| {
                std::iter::repeat_n(Piece { color, role }, usize::from(self.get(color, role)))
            })
        })
    }

    /// Parses the pocket letters (without brackets), e.g. `QPpp`.
    pub fn from_ascii(bytes: &[u8]) -> Result<Pockets, Error> {
        syntax::run_all(bytes, pocket_letters)
    }
}

impl Pockets {
    /// Whether a king is in a pocket (Crazyhouse never puts one there).
    fn has_king(&self) -> bool {
        self.counts
            .iter()
            .any(|side| side[role_index(Role::King)] > 0)
    }
}

fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn role_index(role: Role) -> usize {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

impl fmt::Display for Pockets {
    /// `[` white's pieces then black's, kings first and pawns last `]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for piece in self.pieces() {
            write!(f, "{}", piece.char())?;
        }
        f.write_str("]")
    }
}

impl FromStr for Pockets {
    type Err = Error;

    /// The pocket letters, with or without brackets: `QPpp` or `[QPpp]`.
    fn from_str(s: &str) -> Result<Pockets, Error> {
        let inner = s
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .unwrap_or(s);
        Pockets::from_ascii(inner.as_bytes())
    }
}

const POCKET: &str = "pocket pieces such as `QPpp`";

// pocket-letters = *piece-letter          ; at most 64 pieces
fn pocket_letters(i: &[u8]) -> PResult<'_, Pockets> {
    let mut pockets = Pockets::default();
    let mut i = i;
    let mut total = 0;
    while let [b, rest @ ..] = i {
        let Some(piece) = Piece::from_char(char::from(*b)) else {
            break;
        };
        total += 1;
        if total > 64 {
            return fail(
                i,
                1,
                ErrorKind::InvalidPocket,
                "at most 64 pieces in the pockets",
            );
        }
        let slot = &mut pockets.counts[color_index(piece.color)][role_index(piece.role)];
        *slot += 1;
        i = rest;
    }
    Ok((i, pockets))
}

// pockets = "[" pocket-letters "]" / "/" pocket-letters
/// The rule; `placement` is where the placement starts, to count its ranks when a ninth is not
/// a pocket.
fn pockets<'a>(i: &'a [u8], placement: &[u8]) -> PResult<'a, Option<Pockets>> {
    match i {
        [b'[', rest @ ..] => {
            let (rest, pockets) = pocket_letters(rest)?;
            match rest {
                [b']', rest @ ..] => Ok((rest, Some(pockets))),
                _ => fail(
                    rest,
                    field_len(rest).max(1),
                    ErrorKind::InvalidPocket,
                    POCKET,
                ),
            }
        }
        [b'/', rest @ ..] => {
            let (rest, pockets) = pocket_letters(rest)?;
            // Not a pocket but more ranks: a digit or a `/` follows, or a king is in it (no
            // pocket holds one: `.../4K3/k` is a board of nine ranks, not a Crazyhouse king).
            if field_len(rest) > 0 || pockets.has_king() {
                return fail(
                    i,
                    field_len(i),
                    ErrorKind::InvalidRankCount,
                    ranks_found(placement),
                );
            }
            Ok((rest, Some(pockets)))
        }
        _ => Ok((i, None)),
    }
}

/// The piece placement with what Crazyhouse adds to it: promoted marks and pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Placement {
    pub(crate) board: Board,
    pub(crate) promoted: u64,
    pub(crate) pockets: Option<Pockets>,
}

// placement = board [pockets]
pub(crate) fn placement(i: &[u8]) -> PResult<'_, Placement> {
    let start = i;
    let mut promoted = 0;
    let (i, board) = board_marked(i, Some(&mut promoted))?;
    let (i, pockets) = pockets(i, start)?;
    Ok((
        i,
        Placement {
            board,
            promoted,
            pockets,
        },
    ))
}

/// Three-check: how many more checks each side must give to win, each 0 to 3.
///
/// Written `3+3` (remaining, white first) as the field after the en-passant square, as lichess
/// and python-chess write it; the older `+0+0` form (checks given, after the fullmove number)
/// is read too.
///
/// ```
/// use tabia_notation::fen::Checks;
///
/// let checks: Checks = "2+3".parse()?;
/// assert_eq!((checks.white, checks.black), (2, 3));
/// assert_eq!("+1+0".parse::<Checks>()?, checks);
/// assert_eq!(checks.to_string(), "2+3");
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checks {
    /// The checks White still has to give.
    pub white: u8,
    /// The checks Black still has to give.
    pub black: u8,
}

impl Default for Checks {
    /// No check given yet: `3+3`.
    fn default() -> Checks {
        Checks { white: 3, black: 3 }
    }
}

impl Checks {
    /// Parses either form, `3+3` (remaining) or `+0+0` (given).
    pub fn from_ascii(bytes: &[u8]) -> Result<Checks, Error> {
        syntax::run_all(bytes, |i| match i.first() {
            Some(b'+') => checks_given(i),
            _ => checks_remaining(i),
        })
    }
}

impl fmt::Display for Checks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.white, self.black)
    }
}

impl FromStr for Checks {
    type Err = Error;

    fn from_str(s: &str) -> Result<Checks, Error> {
        Checks::from_ascii(s.as_bytes())
    }
}

const CHECKS: &str = "check counters such as `3+3` or `+0+0`";

/// One digit 0 to 3.
fn check_count(i: &[u8]) -> PResult<'_, u8> {
    match i {
        [d @ b'0'..=b'3', rest @ ..] => Ok((rest, d - b'0')),
        _ => fail(i, field_len(i).max(1), ErrorKind::InvalidChecks, CHECKS),
    }
}

// checks-remaining = check-count "+" check-count      ; check-count = "0" / "1" / "2" / "3"
pub(crate) fn checks_remaining(i: &[u8]) -> PResult<'_, Checks> {
    let (i, white) = check_count(i)?;
    let i = match i {
        [b'+', rest @ ..] => rest,
        _ => return fail(i, field_len(i).max(1), ErrorKind::InvalidChecks, CHECKS),
    };
    let (i, black) = check_count(i)?;
    Ok((i, Checks { white, black }))
}

// checks-given = "+" check-count "+" check-count
pub(crate) fn checks_given(i: &[u8]) -> PResult<'_, Checks> {
    let i = match i {
        [b'+', rest @ ..] => rest,
        _ => return fail(i, field_len(i).max(1), ErrorKind::InvalidChecks, CHECKS),
    };
    let (i, given) = checks_remaining(i)?;
    Ok((
        i,
        Checks {
            white: 3 - given.white,
            black: 3 - given.black,
        },
    ))
}

/// Whether a field is the check counters of the `3+3` form.
pub(crate) fn is_checks_field(i: &[u8]) -> bool {
    matches!(i, [b'0'..=b'3', b'+', b'0'..=b'3', rest @ ..] if field_len(rest) == 0)
}

/// Whether a field is the check counters of the `+0+0` form.
fn is_checks_given_field(i: &[u8]) -> bool {
    matches!(i, [b'+', b'0'..=b'3', b'+', b'0'..=b'3', rest @ ..] if field_len(rest) == 0)
}

/// One token of the castling field, without its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingToken {
    /// `K` or `k`: with the outermost rook on the king side.
    KingSide,
    /// `Q` or `q`: with the outermost rook on the queen side.
    QueenSide,
    /// A file letter (Shredder-FEN and X-FEN), 0 = a … 7 = h: with the rook on that file.
    File(u8),
}

/// The castling field: its tokens exactly as given, in order (`-` when there are none).
///
/// At most two tokens per colour, none twice. Which castling moves they allow is for
/// `tabia-position` to decide, knowing where kings and rooks stand.
///
/// ```
/// use tabia_notation::{Color, fen::{Castling, CastlingToken}};
///
/// let castling: Castling = "Hkc".parse()?;
/// let tokens: Vec<_> = castling.iter().collect();
/// assert_eq!(tokens, [
///     (Color::White, CastlingToken::File(7)),
///     (Color::Black, CastlingToken::KingSide),
///     (Color::Black, CastlingToken::File(2)),
/// ]);
/// assert_eq!(castling.to_string(), "Hkc");
/// assert_eq!(Castling::none().to_string(), "-");
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castling {
    tokens: [u8; 4],
    len: u8,
}

impl Castling {
    /// No castling rights: `-`.
    pub const fn none() -> Castling {
        Castling {
            tokens: [0; 4],
            len: 0,
        }
    }

    /// All four standard rights: `KQkq`.
    pub const fn standard() -> Castling {
        Castling {
            tokens: *b"KQkq",
            len: 4,
        }
    }

    /// The tokens as written, e.g. `b"KQkq"`; empty for `-`.
    pub fn as_bytes(&self) -> &[u8] {
        self.tokens.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// Whether there are no tokens (`-`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The tokens in order, each with its colour (upper case is white).
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastlingToken)> + '_ {
        self.as_bytes().iter().filter_map(|&b| token_of(b))
    }

    /// Appends a token. Returns `false` (and changes nothing) if it is already there or its
    /// colour has two tokens already, or if a file is not 0 to 7.
    pub fn push(&mut self, color: Color, token: CastlingToken) -> bool {
        let letter = match token {
            CastlingToken::KingSide => b'k',
            CastlingToken::QueenSide => b'q',
            CastlingToken::File(f) if f < 8 => b'a' + f,
            CastlingToken::File(_) => return false,
        };
        let byte = match color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        };
        self.push_byte(byte).is_ok()
    }

    /// Appends a token byte; on failure, says what was expected.
    fn push_byte(&mut self, byte: u8) -> Result<(), &'static str> {
        if self.as_bytes().contains(&byte) {
            return Err("each castling token once");
        }
        let white = byte.is_ascii_uppercase();
        let same_color = self
            .as_bytes()
            .iter()
            .filter(|b| b.is_ascii_uppercase() == white)
            .count();
        match self.tokens.get_mut(usize::from(self.len)) {
            Some(slot) if same_color < 2 => {
                *slot = byte;
                self.len += 1;
                Ok(())
            }
            _ => Err("at most two castling tokens per colour"),
        }
    }

    /// Parses a castling field from the start of `bytes`; returns it and the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(Castling, usize), Error> {
        syntax::run(bytes, castling)
    }

    /// Parses exactly a castling field.
    pub fn from_ascii(bytes: &[u8]) -> Result<Castling, Error> {
        syntax::run_all(bytes, castling)
    }
}

impl Default for Castling {
    /// No castling rights.
    fn default() -> Castling {
        Castling::none()
    }
}

fn token_of(b: u8) -> Option<(Color, CastlingToken)> {
    let color = Color::from_white(b.is_ascii_uppercase());
    let token = match b.to_ascii_lowercase() {
        b'k' => CastlingToken::KingSide,
        b'q' => CastlingToken::QueenSide,
        f @ b'a'..=b'h' => CastlingToken::File(f - b'a'),
        _ => return None,
    };
    Some((color, token))
}

const CASTLING: &str = "castling rights such as `KQkq`, `HAha` or `-`";

// castling = "-" / 1*4castling-token      ; no token twice, at most two per colour
// castling-token = "K" / "Q" / "k" / "q" / %x41-48 / %x61-68      ; K Q k q A-H a-h
pub(crate) fn castling(i: &[u8]) -> PResult<'_, Castling> {
    if let [b'-', rest @ ..] = i {
        return Ok((rest, Castling::none()));
    }
    let mut castling = Castling::none();
    let mut i = i;
    while let [b, rest @ ..] = i {
        if token_of(*b).is_none() {
            break;
        }
        if let Err(expected) = castling.push_byte(*b) {
            return fail(i, 1, ErrorKind::InvalidCastling, expected);
        }
        i = rest;
    }
    if castling.is_empty() {
        let len = field_len(i).max(1);
        return fail(i, len, ErrorKind::InvalidCastling, CASTLING);
    }
    Ok((i, castling))
}

impl fmt::Display for Castling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for &b in self.as_bytes() {
            write!(f, "{}", char::from(b))?;
        }
        Ok(())
    }
}

impl FromStr for Castling {
    type Err = Error;

    fn from_str(s: &str) -> Result<Castling, Error> {
        Castling::from_ascii(s.as_bytes())
    }
}

// ep-square = "-" / square
pub(crate) fn ep_square(i: &[u8]) -> PResult<'_, Option<Square>> {
    if let [b'-', rest @ ..] = i {
        return Ok((rest, None));
    }
    match square(i) {
        Ok((rest, sq)) => Ok((rest, Some(sq))),
        Err(_) => fail(
            i,
            field_len(i).max(1),
            ErrorKind::InvalidEnPassant,
            "a square such as `e3`, or `-`",
        ),
    }
}

// clock = 1*DIGIT
fn clock<'a>(i: &'a [u8], kind: ErrorKind, expected: &'static str) -> PResult<'a, u32> {
    let n = i.iter().take_while(|b| b.is_ascii_digit()).count();
    let (digits, rest) = i.split_at(n);
    match decimal(digits).and_then(|v| u32::try_from(v).ok()) {
        Some(v) if n > 0 => Ok((rest, v)),
        _ => fail(i, field_len(i).max(1), kind, expected),
    }
}

// halfmove-clock = clock
pub(crate) fn halfmove_clock(i: &[u8]) -> PResult<'_, u32> {
    clock(
        i,
        ErrorKind::InvalidHalfmoveClock,
        "a number of plies such as `0`",
    )
}

// fullmove-number = clock            ; at least 1 in strict mode
fn fullmove_number(i: &[u8], mode: ParseMode) -> PResult<'_, u32> {
    const EXPECTED: &str = "a move number such as `1`";
    let (rest, n) = clock(i, ErrorKind::InvalidFullmoveNumber, EXPECTED)?;
    if n == 0 && mode == ParseMode::Strict {
        return fail(i, field_len(i), ErrorKind::InvalidFullmoveNumber, EXPECTED);
    }
    Ok((rest, n))
}

/// Where the next field starts: after a run of spaces and tabs. `None` if no field follows on
/// this line (the input or the line ends).
pub(crate) fn next_field(i: &[u8]) -> Option<&[u8]> {
    let n = i.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    let rest = i.get(n..).unwrap_or_default();
    match rest.first() {
        Some(b) if n > 0 && !b.is_ascii_whitespace() => Some(rest),
        _ => None,
    }
}

/// Reads the separator and the next field with `rule`; if no field follows, fails with
/// [`ErrorKind::MissingField`] in strict mode and returns `None` in lenient mode.
pub(crate) fn then_field<'a, T>(
    i: &'a [u8],
    mode: ParseMode,
    what: &'static str,
    rule: impl FnOnce(&'a [u8]) -> PResult<'a, T>,
    kind: ErrorKind,
    expected: &'static str,
) -> PResult<'a, Option<T>> {
    match next_field(i) {
        Some(field) => {
            let (rest, value) = rule(field)?;
            let (rest, ()) = field_end(rest, kind, expected)?;
            Ok((rest, Some(value)))
        }
        None if mode == ParseMode::Lenient => Ok((i, None)),
        None => {
            let at = i.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
            fail(
                i.get(at..).unwrap_or_default(),
                0,
                ErrorKind::MissingField,
                what,
            )
        }
    }
}

/// A position in Forsyth–Edwards Notation: the six fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fen {
    /// Field 1: the piece placement.
    pub board: Board,
    /// Field 2: the side to move.
    pub turn: Color,
    /// Field 3: the castling tokens.
    pub castling: Castling,
    /// Field 4: the en-passant target square.
    pub ep_square: Option<Square>,
    /// Field 5: plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// Field 6: the number of the move, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
    /// Crazyhouse: the squares of promoted pieces (`Q~`), bit `8 × rank + file` (a1 = 0).
    pub promoted: u64,
    /// Crazyhouse: the pieces in hand (`[QPpp]` or a ninth rank), when given.
    pub pockets: Option<Pockets>,
    /// Three-check: the checks each side still has to give (`3+3`), when given.
    pub checks: Option<Checks>,
}

impl Fen {
    /// The initial position of standard chess.
    pub fn initial() -> Fen {
        Fen {
            board: Board::initial(),
            turn: Color::White,
            castling: Castling::standard(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            promoted: 0,
            pockets: None,
            checks: None,
        }
    }

    /// A FEN of `board` with the defaults `w - - 0 1` for the other fields.
    pub fn from_board(board: Board) -> Fen {
        Fen {
            board,
            turn: Color::White,
            castling: Castling::none(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            promoted: 0,
            pockets: None,
            checks: None,
        }
    }

    /// Parses a FEN from the start of `bytes` (fields separated by spaces or tabs, ending at a
    /// line end, the end of input or after the sixth field); returns it and the bytes consumed
    /// (not counting white space after it). Error spans are byte offsets into `bytes`.
    ///
    /// ```
    /// use tabia_notation::fen::{Fen, ParseMode};
    ///
    /// let text = b"8/8/8/8/8/8/8/K6k b\nnext line";
    /// let (fen, used) = Fen::prefix(text, ParseMode::Lenient)?;
    /// assert_eq!((fen.to_string().as_str(), used), ("8/8/8/8/8/8/8/K6k b - - 0 1", 19));
    /// assert!(Fen::prefix(text, ParseMode::Strict).is_err());
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn prefix(bytes: &[u8], mode: ParseMode) -> Result<(Fen, usize), Error> {
        syntax::run(bytes, |i| fen(i, mode))
    }

    /// Parses exactly one FEN with all six fields (white space around it is ignored). The
    /// error carries `bytes` as its source.
    pub fn from_ascii(bytes: &[u8]) -> Result<Fen, Error> {
        syntax::run_trimmed(bytes, |i| fen(i, ParseMode::Strict))
    }

    /// Parses exactly one FEN, of which only the piece placement is required (white space
    /// around it is ignored). The error carries `bytes` as its source.
    pub fn from_ascii_lenient(bytes: &[u8]) -> Result<Fen, Error> {
        syntax::run_trimmed(bytes, |i| fen(i, ParseMode::Lenient))
    }
}

impl Default for Fen {
    /// The initial position.
    fn default() -> Fen {
        Fen::initial()
    }
}

// fen = placement sep color sep castling sep ep-square [sep checks-remaining]
//       sep halfmove-clock sep fullmove-number [sep checks-given]
// sep = 1*(" " / %x09)
fn fen(i: &[u8], mode: ParseMode) -> PResult<'_, Fen> {
    let (i, placement) = placement(i)?;
    let (i, ()) = field_end(i, ErrorKind::InvalidPlacement, PLACEMENT)?;
    let mut fen = Fen::from_board(placement.board);
    fen.promoted = placement.promoted;
    fen.pockets = placement.pockets;
    let (i, turn) = then_field(
        i,
        mode,
        "the active colour",
        color,
        ErrorKind::InvalidColor,
        "`w` or `b`",
    )?;
    let Some(turn) = turn else {
        return Ok((i, fen));
    };
    fen.turn = turn;
    let (i, castling) = then_field(
        i,
        mode,
        "the castling field",
        castling,
        ErrorKind::InvalidCastling,
        CASTLING,
    )?;
    let Some(castling) = castling else {
        return Ok((i, fen));
    };
    fen.castling = castling;
    let (i, ep) = then_field(
        i,
        mode,
        "the en-passant field",
        ep_square,
        ErrorKind::InvalidEnPassant,
        "a square such as `e3`, or `-`",
    )?;
    let Some(ep) = ep else {
        return Ok((i, fen));
    };
    fen.ep_square = ep;
    let mut i = i;
    if let Some(field) = next_field(i).filter(|f| is_checks_field(f)) {
        let (rest, checks) = checks_remaining(field)?;
        fen.checks = Some(checks);
        i = rest;
    }
    let (i, halfmoves) = then_field(
        i,
        mode,
        "the halfmove clock",
        halfmove_clock,
        ErrorKind::InvalidHalfmoveClock,
        "a number of plies such as `0`",
    )?;
    let Some(halfmoves) = halfmoves else {
        return Ok((i, fen));
    };
    fen.halfmoves = halfmoves;
    let (i, fullmoves) = then_field(
        i,
        mode,
        "the fullmove number",
        |i| fullmove_number(i, mode),
        ErrorKind::InvalidFullmoveNumber,
        "a move number such as `1`",
    )?;
    let Some(fullmoves) = fullmoves else {
        return Ok((i, fen));
    };
    fen.fullmoves = fullmoves;
    if fen.checks.is_none()
        && let Some(field) = next_field(i).filter(|f| is_checks_given_field(f))
    {
        let (rest, checks) = checks_given(field)?;
        fen.checks = Some(checks);
        return Ok((rest, fen));
    }
    Ok((i, fen))
}

/// Writes the placement with its promoted marks and pockets, as the first FEN field.
pub(crate) fn write_placement(
    f: &mut fmt::Formatter<'_>,
    board: &Board,
    promoted: u64,
    pockets: Option<&Pockets>,
) -> fmt::Result {
    if promoted == 0 {
        write!(f, "{board}")?;
    } else {
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let piece = Square::from_coords(file, rank).and_then(|sq| board.get(sq));
                match piece {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.char())?;
                        if promoted >> (u32::from(rank) * 8 + u32::from(file)) & 1 == 1 {
                            f.write_str("~")?;
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
    }
    if let Some(pockets) = pockets {
        write!(f, "{pockets}")?;
    }
    Ok(())
}

impl fmt::Display for Fen {
    /// The six fields; pockets after the placement (`[QPpp]`) and check counters after the
    /// en-passant field (`3+3`) when present.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_placement(f, &self.board, self.promoted, self.pockets.as_ref())?;
        write!(f, " {} {} ", self.turn, self.castling)?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        if let Some(checks) = self.checks {
            write!(f, " {checks}")?;
        }
        write!(f, " {} {}", self.halfmoves, self.fullmoves)
    }
}

impl FromStr for Fen {
    type Err = Error;

    /// Parses a strict FEN, as [`Fen::from_ascii`].
    fn from_str(s: &str) -> Result<Fen, Error> {
        Fen::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn board_rule() {
        let (rest, b) = board(b"8/8/8/8/8/8/8/K6k w").unwrap();
        assert_eq!(rest, b" w");
        assert_eq!(b.pieces().count(), 2);
        assert_eq!(
            b.get(Square::H1),
            Some(Piece {
                color: Color::Black,
                role: Role::King
            })
        );
        let kinds = [
            ("8/8/8/8/8/8/8/7", ErrorKind::InvalidRankLength),
            ("8/8/8/8/8/8/8/9", ErrorKind::InvalidPlacement),
            ("8/8/8/8/8/8/8/K7k", ErrorKind::InvalidRankLength),
            ("8/8/8/8/8/8/8", ErrorKind::InvalidRankCount),
            ("8/8/8/8/8/8/8/8/8", ErrorKind::InvalidRankCount),
            ("8/8/8/8/8/8/8/7X", ErrorKind::InvalidPlacement),
            ("", ErrorKind::MissingField),
        ];
        for (text, kind) in kinds {
            assert_eq!(
                Board::from_ascii(text.as_bytes()).unwrap_err().kind(),
                kind,
                "{text}"
            );
        }
        assert_eq!(Board::from_ascii(b"44/8/8/8/8/8/8/8"), Ok(Board::empty()));
    }

    #[test]
    fn rank_error_underlines_the_rank() {
        let err = Board::from_ascii(b"8/8/8/ppp4/8/8/8/8").unwrap_err();
        assert_eq!(err.span(), 6..10);
    }

    #[test]
    fn board_display_round_trips() {
        assert_eq!(
            Board::initial().to_string(),
            START.split(' ').next().unwrap()
        );
        assert_eq!(Board::empty().to_string(), "8/8/8/8/8/8/8/8");
    }

    #[test]
    fn castling_rule() {
        assert_eq!(castling(b"- e3").unwrap().1, Castling::none());
        let (rest, c) = castling(b"KQkq -").unwrap();
        assert_eq!((rest, c), (&b" -"[..], Castling::standard()));
        assert_eq!(Castling::from_ascii(b"HAha").unwrap().as_bytes(), b"HAha");
        assert_eq!(Castling::from_ascii(b"qkQK").unwrap().to_string(), "qkQK");
        for (bad, expected) in [
            ("KK", "each castling token once"),
            ("KQA", "at most two castling tokens per colour"),
            ("x", CASTLING),
            ("", CASTLING),
        ] {
            let err = Castling::from_ascii(bad.as_bytes()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidCastling, "{bad}");
            assert_eq!(err.expected(), Some(expected), "{bad}");
        }
        let mut c = Castling::none();
        assert!(c.push(Color::White, CastlingToken::File(7)));
        assert!(!c.push(Color::White, CastlingToken::File(7)));
        assert!(!c.push(Color::Black, CastlingToken::File(8)));
        assert!(c.push(Color::Black, CastlingToken::QueenSide));
        assert_eq!(c.to_string(), "Hq");
    }

    #[test]
    fn ep_and_clock_rules() {
        assert_eq!(ep_square(b"-"), Ok((&b""[..], None)));
        assert_eq!(ep_square(b"e3 0"), Ok((&b" 0"[..], Some(Square::E3))));
        assert!(ep_square(b"e9").is_err());
        assert_eq!(halfmove_clock(b"12 1"), Ok((&b" 1"[..], 12)));
        assert!(halfmove_clock(b"x").is_err());
        assert!(halfmove_clock(b"99999999999").is_err());
        assert_eq!(fullmove_number(b"0", ParseMode::Lenient), Ok((&b""[..], 0)));
        assert!(fullmove_number(b"0", ParseMode::Strict).is_err());
    }

    #[test]
    fn next_field_stops_at_line_end() {
        assert_eq!(next_field(b"  w"), Some(&b"w"[..]));
        assert_eq!(next_field(b"w"), None);
        assert_eq!(next_field(b" \nw"), None);
        assert_eq!(next_field(b""), None);
    }

    #[test]
    fn start_position_round_trips() {
        let fen: Fen = START.parse().unwrap();
        assert_eq!(fen, Fen::initial());
        assert_eq!(fen.to_string(), START);
    }

    #[test]
    fn lenient_fills_defaults() {
        let fen = Fen::from_ascii_lenient(b"8/8/8/8/8/8/8/K6k b KQ").unwrap();
        assert_eq!(fen.to_string(), "8/8/8/8/8/8/8/K6k b KQ - 0 1");
        let fen = Fen::from_ascii_lenient(b"8/8/8/8/8/8/8/K6k b - - 3 0").unwrap();
        assert_eq!(fen.fullmoves, 0);
    }

    #[test]
    fn strict_names_the_missing_field() {
        let err = Fen::from_ascii(b"8/8/8/8/8/8/8/K6k b KQ -").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::MissingField);
        assert_eq!(err.expected(), Some("the halfmove clock"));
        assert_eq!(err.span(), 24..24);
    }

    #[test]
    fn field_errors_name_the_field() {
        let cases = [
            (
                "8/8/8/8/8/8/8/K6k x - - 0 1",
                ErrorKind::InvalidColor,
                18..19,
            ),
            (
                "8/8/8/8/8/8/8/K6k ww - - 0 1",
                ErrorKind::InvalidColor,
                19..20,
            ),
            (
                "8/8/8/8/8/8/8/K6k w KQkq- - 0 1",
                ErrorKind::InvalidCastling,
                24..25,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - e33 0 1",
                ErrorKind::InvalidEnPassant,
                24..25,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - - x 1",
                ErrorKind::InvalidHalfmoveClock,
                24..25,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - - 0 -1",
                ErrorKind::InvalidFullmoveNumber,
                26..28,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - - 0 1 x",
                ErrorKind::TrailingInput,
                28..29,
            ),
        ];
        for (text, kind, span) in cases {
            let err = Fen::from_ascii(text.as_bytes()).unwrap_err();
            assert_eq!((err.kind(), err.span()), (kind, span), "{text}");
        }
    }

    #[test]
    fn prefix_stops_after_the_fen() {
        let (fen, used) =
            Fen::prefix(format!("{START}  rest").as_bytes(), ParseMode::Strict).unwrap();
        assert_eq!((fen, used), (Fen::initial(), START.len()));
        let (_, used) = Fen::prefix(b"8/8/8/8/8/8/8/K6k\tw \r\n", ParseMode::Lenient).unwrap();
        assert_eq!(used, 19);
    }

    #[test]
    fn surrounding_white_space_is_ignored() {
        let fen = Fen::from_ascii(format!("  {START}\n").as_bytes()).unwrap();
        assert_eq!(fen, Fen::initial());
        let err = Fen::from_ascii(b"  8/8/8/8/8/8/8/K6k x - - 0 1").unwrap_err();
        assert_eq!(err.span(), 20..21);
    }
}
