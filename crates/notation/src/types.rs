//! The small vocabulary every notation shares: colours, roles, pieces, squares, castling sides
//! and numeric annotation glyphs. All are `Copy` and cost at most two bytes.

use std::{fmt, str::FromStr};

use crate::{
    Error, ErrorKind,
    syntax::{self, PResult, fail},
};

/// A side: white or black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White,
    /// The other side.
    Black,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The FEN letter: `w` or `b`.
    pub fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour of a FEN letter `w` or `b`.
    pub fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The other colour.
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `White` if `white` is true.
    pub fn from_white(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }

    /// Parses `w` or `b` from the start of `bytes`; returns the colour and the bytes consumed (1).
    pub fn prefix(bytes: &[u8]) -> Result<(Color, usize), Error> {
        syntax::run(bytes, color)
    }

    /// Parses exactly `w` or `b`.
    pub fn from_ascii(bytes: &[u8]) -> Result<Color, Error> {
        syntax::run_all(bytes, color)
    }
}

// color = "w" / "b"
pub(crate) fn color(i: &[u8]) -> PResult<'_, Color> {
    match i {
        [b'w', rest @ ..] => Ok((rest, Color::White)),
        [b'b', rest @ ..] => Ok((rest, Color::Black)),
        _ => fail(i, 1, ErrorKind::InvalidColor, "`w` or `b`"),
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "w",
            Color::Black => "b",
        })
    }
}

impl FromStr for Color {
    type Err = Error;

    fn from_str(s: &str) -> Result<Color, Error> {
        Color::from_ascii(s.as_bytes())
    }
}

/// A kind of piece, without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn (`P`, written without a letter in SAN).
    Pawn,
    /// Knight (`N`).
    Knight,
    /// Bishop (`B`).
    Bishop,
    /// Rook (`R`).
    Rook,
    /// Queen (`Q`).
    Queen,
    /// King (`K`).
    King,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The lower-case letter (`p n b r q k`), as in FEN for black and in UCI promotions.
    pub fn char(self) -> char {
        char::from(self.byte())
    }

    /// The upper-case letter (`P N B R Q K`), as in SAN and in FEN for white.
    pub fn upper_char(self) -> char {
        char::from(self.upper_byte())
    }

    /// [`Role::upper_char`] as an ASCII byte.
    pub(crate) fn upper_byte(self) -> u8 {
        self.byte().to_ascii_uppercase()
    }

    /// [`Role::char`] as an ASCII byte: the one table of the letters.
    fn byte(self) -> u8 {
        match self {
            Role::Pawn => b'p',
            Role::Knight => b'n',
            Role::Bishop => b'b',
            Role::Rook => b'r',
            Role::Queen => b'q',
            Role::King => b'k',
        }
    }

    /// The role of a letter of either case.
    ///
    /// ```
    /// use tabia_notation::Role;
    ///
    /// assert_eq!(Role::from_char('N'), Some(Role::Knight));
    /// assert_eq!(Role::from_char('q'), Some(Role::Queen));
    /// assert_eq!(Role::from_char('x'), None);
    /// ```
    pub fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    /// The upper-case letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.upper_char())
    }
}

/// A piece: a colour and a role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for white, lower case for black.
    ///
    /// ```
    /// use tabia_notation::{Color, Piece, Role};
    ///
    /// let piece = Piece { color: Color::Black, role: Role::Knight };
    /// assert_eq!(piece.char(), 'n');
    /// assert_eq!(Piece::from_char('n'), Some(piece));
    /// ```
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = Color::from_white(c.is_ascii_uppercase());
        Some(Piece { color, role })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 64 squares: `a1` is 0, `b1` is 1, …, `h8` is 63.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $index:expr),* $(,)?) => {
        $(
            #[doc = concat!("The square ", stringify!($name), ".")]
            pub const $name: Square = Square($index);
        )*
    };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
        A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
        A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
        A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
        A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
        A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// The square with index `index` (0 to 63), or `None`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = 1st … 7 = 8th), or `None`.
    ///
    /// ```
    /// use tabia_notation::Square;
    ///
    /// let e4 = Square::from_coords(4, 3).unwrap();
    /// assert_eq!((e4.file(), e4.rank(), e4.index()), (4, 3, 28));
    /// assert_eq!(e4.to_string(), "e4");
    /// assert_eq!("e4".parse::<Square>(), Ok(e4));
    /// ```
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The index, 0 (`a1`) to 63 (`h8`).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (1st) to 7 (8th).
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The file letter, `a` to `h`.
    pub fn file_char(self) -> char {
        char::from(b'a' + self.file())
    }

    /// The rank digit, `1` to `8`.
    pub fn rank_char(self) -> char {
        char::from(b'1' + self.rank())
    }

    /// All squares from `a1` to `h8`.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..64).map(Square)
    }

    /// Parses a square name from the start of `bytes`; returns it and the bytes consumed (2).
    pub fn prefix(bytes: &[u8]) -> Result<(Square, usize), Error> {
        syntax::run(bytes, square)
    }

    /// Parses exactly a square name such as `e4`.
    pub fn from_ascii(bytes: &[u8]) -> Result<Square, Error> {
        syntax::run_all(bytes, square)
    }
}

/// The `square` rule without an error value, for hot paths that have a fallback.
#[inline]
pub(crate) fn try_square(i: &[u8]) -> Option<(&[u8], Square)> {
    match i {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', rest @ ..] => {
            Some((rest, Square((r - b'1') * 8 + (f - b'a'))))
        }
        _ => None,
    }
}

// square = file rank
// file = "a" / "b" / "c" / "d" / "e" / "f" / "g" / "h"
// rank = "1" / "2" / "3" / "4" / "5" / "6" / "7" / "8"
pub(crate) fn square(i: &[u8]) -> PResult<'_, Square> {
    match i {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', rest @ ..] => {
            Ok((rest, Square((r - b'1') * 8 + (f - b'a'))))
        }
        [b'a'..=b'h', ..] => fail(i, 2, ErrorKind::InvalidSquare, "a square such as `e4`"),
        _ => fail(i, 1, ErrorKind::InvalidSquare, "a square such as `e4`"),
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl FromStr for Square {
    type Err = Error;

    fn from_str(s: &str) -> Result<Square, Error> {
        Square::from_ascii(s.as_bytes())
    }
}

/// Which side of the board a castling move goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// Towards the h-file: `O-O`.
    KingSide,
    /// Towards the a-file: `O-O-O`.
    QueenSide,
}

impl CastlingSide {
    /// The SAN of the castling move: `O-O` or `O-O-O`.
    pub fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

impl fmt::Display for CastlingSide {
    /// `O-O` or `O-O-O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.san())
    }
}

/// A Numeric Annotation Glyph (`$0` to `$255`), the PGN form of `!`, `?` and their kin.
///
/// ```
/// use tabia_notation::Nag;
///
/// assert_eq!(Nag::from_suffix(b"!?"), Some(Nag::SPECULATIVE));
/// assert_eq!(Nag::SPECULATIVE.to_string(), "$5");
/// assert_eq!(Nag(5).suffix(), Some("!?"));
/// assert_eq!("$18".parse::<Nag>(), Ok(Nag(18)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, `!`: a good move.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `$2`, `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`: a brilliant move.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `$4`, `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`: a speculative move.
    pub const SPECULATIVE: Nag = Nag(5);
    /// `$6`, `?!`: a dubious move.
    pub const DUBIOUS: Nag = Nag(6);

    /// The NAG of a move suffix `!`, `?`, `!!`, `??`, `!?` or `?!` (NAGs 1 to 6).
    pub fn from_suffix(suffix: &[u8]) -> Option<Nag> {
        match suffix {
            b"!" => Some(Nag(1)),
            b"?" => Some(Nag(2)),
            b"!!" => Some(Nag(3)),
            b"??" => Some(Nag(4)),
            b"!?" => Some(Nag(5)),
            b"?!" => Some(Nag(6)),
            _ => None,
        }
    }

    /// The move suffix of NAGs 1 to 6, else `None`.
    pub fn suffix(self) -> Option<&'static str> {
        match self.0 {
            1 => Some("!"),
            2 => Some("?"),
            3 => Some("!!"),
            4 => Some("??"),
            5 => Some("!?"),
            6 => Some("?!"),
            _ => None,
        }
    }

    /// Parses a `$n` NAG from the start of `bytes`; returns it and the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(Nag, usize), Error> {
        syntax::run(bytes, nag)
    }

    /// Parses exactly a `$n` NAG.
    pub fn from_ascii(bytes: &[u8]) -> Result<Nag, Error> {
        syntax::run_all(bytes, nag)
    }
}

// nag = "$" 1*digit          ; value 0 to 255
pub(crate) fn nag(i: &[u8]) -> PResult<'_, Nag> {
    let Some(digits) = i.strip_prefix(b"$") else {
        return fail(i, 1, ErrorKind::InvalidNag, "`$` and a number 0 to 255");
    };
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 {
        return fail(i, 1, ErrorKind::InvalidNag, "`$` and a number 0 to 255");
    }
    let (num, rest) = digits.split_at(n);
    match decimal(num).and_then(|v| u8::try_from(v).ok()) {
        Some(v) => Ok((rest, Nag(v))),
        None => fail(i, n + 1, ErrorKind::InvalidNag, "a number 0 to 255"),
    }
}

/// The value of a run of ASCII digits, or `None` on overflow.
pub(crate) fn decimal(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |acc, &d| {
        acc.checked_mul(10)?
            .checked_add(u64::from(d.wrapping_sub(b'0')))
    })
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

impl FromStr for Nag {
    type Err = Error;

    fn from_str(s: &str) -> Result<Nag, Error> {
        Nag::from_ascii(s.as_bytes())
    }
}

/// The decimal digits of `n`, written into `buf` without `fmt` (move numbers and FEN counters
/// are written for every move or position; `fmt` is slow, for `u128` most of all).
///
/// ```
/// let mut buf = [0; 39];
/// assert_eq!(tabia_notation::decimal_digits(1_234, &mut buf), "1234");
/// assert_eq!(tabia_notation::decimal_digits(u128::MAX, &mut buf), u128::MAX.to_string());
/// ```
pub fn decimal_digits(mut n: u128, buf: &mut [u8; 39]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Digits only: always UTF-8.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_rule() {
        assert_eq!(color(b"w KQ"), Ok((&b" KQ"[..], Color::White)));
        assert_eq!(Color::prefix(b"b"), Ok((Color::Black, 1)));
        let err = Color::from_ascii(b"x").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidColor);
        assert_eq!(
            Color::from_ascii(b"wb").unwrap_err().kind(),
            ErrorKind::TrailingInput
        );
        assert_eq!(Color::White.other(), Color::Black);
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).map(Piece::char), Some(c));
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Role::Knight.to_string(), "N");
    }

    #[test]
    fn square_rules() {
        assert_eq!(square(b"h8"), Ok((&b""[..], Square::H8)));
        assert_eq!(Square::prefix(b"a1b2"), Ok((Square::A1, 2)));
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square::new(64), None);
        assert_eq!(Square::from_coords(8, 0), None);
        assert_eq!(
            "e9".parse::<Square>().unwrap_err().to_string(),
            "invalid square (expected a square such as `e4`) at line 1, column 1\n  | e9\n  | ^^"
        );
    }

    #[test]
    fn nag_rule() {
        assert_eq!(nag(b"$0"), Ok((&b""[..], Nag(0))));
        assert_eq!(Nag::prefix(b"$255 "), Ok((Nag(255), 4)));
        assert_eq!(Nag::from_ascii(b"$007"), Ok(Nag(7)));
        assert_eq!(
            Nag::from_ascii(b"$256").unwrap_err().to_string(),
            "invalid NAG (expected a number 0 to 255) at line 1, column 1\n  | $256\n  | ^^^^"
        );
        assert_eq!(
            Nag::from_ascii(b"$").unwrap_err().kind(),
            ErrorKind::InvalidNag
        );
        assert_eq!(
            Nag::from_ascii(b"$99999999999999999999999")
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidNag
        );
        for n in 0..=255u8 {
            let nag = Nag(n);
            assert_eq!(nag.to_string().parse::<Nag>(), Ok(nag));
            if let Some(s) = nag.suffix() {
                assert_eq!(Nag::from_suffix(s.as_bytes()), Some(nag));
            }
        }
        assert_eq!(Nag::from_suffix(b"!!!"), None);
    }
}
