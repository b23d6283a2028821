//! Moves as syntax: Standard Algebraic Notation ([`San`], [`SanPlus`]), UCI notation ([`Uci`])
//! and long algebraic notation ([`Lan`], [`LanPlus`]).
//!
//! Nothing here knows the rules: `Nf3` is a knight going to f3 from wherever a knight can come
//! from; turning it into a legal move is the business of `tabia-position`.
//!
//! ```
//! use tabia_notation::{Nag, Role, Square, san::{self, San, SanPlus, Suffix}};
//!
//! let mv: SanPlus = "exd8=Q+".parse()?;
//! assert_eq!(mv.suffix, Some(Suffix::Check));
//! assert!(matches!(
//!     mv.san,
//!     San::Normal { role: Role::Pawn, file: Some(4), capture: true, to: Square::D8,
//!                   promotion: Some(Role::Queen), .. }
//! ));
//!
//! // Lenient spellings are read and written back canonically.
//! assert_eq!("0-0-0".parse::<San>()?.to_string(), "O-O-O");
//! assert_eq!("e8Q".parse::<San>()?.to_string(), "e8=Q");
//!
//! // A PGN reader takes a move with its trailing annotation in one go.
//! let (mv, nag, used) = san::annotated_prefix(b"Nxe5!? Nf6")?;
//! assert_eq!((mv.to_string(), nag, used), ("Nxe5".to_string(), Some(Nag(5)), 6));
//! # Ok::<(), tabia_notation::Error>(())
//! ```
//!
//! Accepted on input besides the canonical forms: promotions without `=` or with `/` or
//! parentheses (`e8Q`, `e8/Q`, `e8(Q)`), castling with zeros (`0-0`, `0-0-0`), the null moves
//! `--` and `Z0`. Written: `=Q`, `O-O`, `--`. In PGN movetext the reader also takes moves given
//! by their squares, UCI or long algebraic ([`San::Long`], [`long_prefix`]).

use std::{fmt, str::FromStr};

use crate::{
    CastlingSide, Error, ErrorKind, Nag, Role, Square,
    syntax::{self, Fail, PResult, fail},
    types::{square, try_square},
};

/// A move in Standard Algebraic Notation, without check mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move: `Nbd7`, `R1xe4`, `exd5`, `e8=Q`.
    Normal {
        /// The moving piece (`Pawn` when no letter is given).
        role: Role,
        /// The file given to disambiguate (0 = a … 7 = h): for pawn captures, the pawn's file.
        file: Option<u8>,
        /// The rank given to disambiguate (0 = 1st … 7 = 8th).
        rank: Option<u8>,
        /// Whether `x` was written.
        capture: bool,
        /// The destination square.
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Role>,
    },
    /// Castling: `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A piece dropped from the pocket (Crazyhouse): `N@f3`, `@e4` for a pawn (`P@e4` is
    /// read too).
    Put {
        /// The dropped piece.
        role: Role,
        /// The square it is dropped on.
        to: Square,
    },
    /// A null move: `--` (also read as `Z0`).
    Null,
    /// A move given by its two squares, as some programs write movetext: UCI (`e2e4`,
    /// `d7d8r`) or long algebraic notation (`Ng1-f3`, `e2-e4`, `e7xd8=Q`). Only the PGN reader
    /// reads it ([`long_prefix`]), where no SAN fits; `tabia-position` resolves it, warns, and
    /// gives its SAN. Written back as it was read.
    Long {
        /// The piece named (`Pawn` for a long algebraic pawn move such as `e2-e4`); `None` for
        /// UCI, which names no piece.
        role: Option<Role>,
        /// The square the piece leaves.
        from: Square,
        /// Whether `x` was written.
        capture: bool,
        /// The square the piece goes to.
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Role>,
    },
}

impl San {
    /// Parses a SAN move (no check mark) from the start of `bytes`; returns it and the bytes
    /// consumed. Bytes after the move are left alone.
    pub fn prefix(bytes: &[u8]) -> Result<(San, usize), Error> {
        syntax::run(bytes, san)
    }

    /// Parses exactly one SAN move, without check mark.
    pub fn from_ascii(bytes: &[u8]) -> Result<San, Error> {
        syntax::run_all(bytes, san)
    }

    /// Whether the move is written as a capture.
    pub fn is_capture(self) -> bool {
        matches!(self, San::Normal { capture: true, .. })
    }
}

/// The check mark after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

impl Suffix {
    /// `'+'` or `'#'`.
    pub fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A SAN move with its check mark, as written in PGN movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+` or `#`, if written.
    pub suffix: Option<Suffix>,
}

impl SanPlus {
    /// Parses a SAN move and its check mark from the start of `bytes`; returns it and the
    /// bytes consumed.
    ///
    /// ```
    /// use tabia_notation::san::SanPlus;
    ///
    /// let (mv, used) = SanPlus::prefix(b"Qxf7# 1-0")?;
    /// assert_eq!((mv.to_string().as_str(), used), ("Qxf7#", 5));
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn prefix(bytes: &[u8]) -> Result<(SanPlus, usize), Error> {
        syntax::run(bytes, san_plus)
    }

    /// Parses exactly one SAN move with optional check mark.
    pub fn from_ascii(bytes: &[u8]) -> Result<SanPlus, Error> {
        syntax::run_all(bytes, san_plus)
    }
}

impl From<San> for SanPlus {
    fn from(san: San) -> SanPlus {
        SanPlus { san, suffix: None }
    }
}

/// Parses a SAN move, its check mark and a move annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`,
/// as NAGs 1 to 6) from the start of `bytes`; returns them and the bytes consumed.
///
/// This is the hot path of the PGN reader: no allocation, no backtracking beyond one byte.
///
/// ```
/// use tabia_notation::{Nag, san};
///
/// let (mv, nag, used) = san::annotated_prefix(b"Rxe8+?? {oops}")?;
/// assert_eq!(mv.to_string(), "Rxe8+");
/// assert_eq!((nag, used), (Some(Nag::BLUNDER), 7));
/// # Ok::<(), tabia_notation::Error>(())
/// ```
pub fn annotated_prefix(bytes: &[u8]) -> Result<(SanPlus, Option<Nag>, usize), Error> {
    syntax::run(bytes, annotated_san).map(|((mv, nag), used)| (mv, nag, used))
}

// annotated-san = san-plus [annotation]
//               = san [check-mark] [annotation]
#[inline(always)]
fn annotated_san(i: &[u8]) -> PResult<'_, (SanPlus, Option<Nag>)> {
    // san-plus inlined by hand: building the `SanPlus` only at the end keeps it in registers.
    let (i, san) = san(i)?;
    let (i, suffix) = check_mark(i)?;
    let (i, nag) = annotation(i)?;
    Ok((i, (SanPlus { san, suffix }, nag)))
}

// annotation = "!!" / "??" / "!?" / "?!" / "!" / "?"
#[inline(always)]
fn annotation(i: &[u8]) -> PResult<'_, Option<Nag>> {
    Ok(match i {
        [b'!', b'!', rest @ ..] => (rest, Some(Nag(3))),
        [b'?', b'?', rest @ ..] => (rest, Some(Nag(4))),
        [b'!', b'?', rest @ ..] => (rest, Some(Nag(5))),
        [b'?', b'!', rest @ ..] => (rest, Some(Nag(6))),
        [b'!', rest @ ..] => (rest, Some(Nag(1))),
        [b'?', rest @ ..] => (rest, Some(Nag(2))),
        _ => (i, None),
    })
}

// san-plus = san [check-mark]
#[inline(always)]
pub(crate) fn san_plus(i: &[u8]) -> PResult<'_, SanPlus> {
    let (i, san) = san(i)?;
    let (i, suffix) = check_mark(i)?;
    Ok((i, SanPlus { san, suffix }))
}

// check-mark = "+" / "#"
#[inline(always)]
fn check_mark(i: &[u8]) -> PResult<'_, Option<Suffix>> {
    Ok(match i {
        [b'+', rest @ ..] => (rest, Some(Suffix::Check)),
        [b'#', rest @ ..] => (rest, Some(Suffix::Checkmate)),
        _ => (i, None),
    })
}

// san = castle / null / drop / piece-move / pawn-move      ; chosen by the first bytes
#[inline(always)]
pub(crate) fn san(i: &[u8]) -> PResult<'_, San> {
    match i.first() {
        Some(b'a'..=b'h') => pawn_move(i),
        Some(b'N' | b'B' | b'R' | b'Q' | b'K') if i.get(1) == Some(&b'@') => piece_drop(i),
        Some(b'N' | b'B' | b'R' | b'Q' | b'K') => piece_move(i),
        Some(b'O' | b'0') => castle(i).map_err(|_| bad_san(i, i, "`O-O` or `O-O-O`")),
        Some(b'-' | b'Z') => null(i),
        Some(b'@' | b'P') => piece_drop(i),
        _ => fail(
            i,
            1,
            ErrorKind::InvalidSan,
            "a move such as `e4`, `Nf3` or `O-O`",
        ),
    }
}

/// An invalid SAN from `start` up to and including the first byte of `at`.
fn bad_san<'a>(start: &'a [u8], at: &'a [u8], expected: &'static str) -> nom::Err<Fail<'a>> {
    nom::Err::Error(Fail {
        rest: start,
        len: start.len() - at.len() + 1,
        kind: ErrorKind::InvalidSan,
        expected: Some(expected),
    })
}

// piece-move = piece [file] [rank] ["x"] square
//            ; in `Nd7` the file and rank are the target, as no square follows them
#[inline(always)]
fn piece_move(i: &[u8]) -> PResult<'_, San> {
    let start = i;
    let (mut i, role) = piece(i)?;
    let mut file = None;
    if let [f @ b'a'..=b'h', rest @ ..] = i {
        file = Some(f - b'a');
        i = rest;
    }
    let mut rank = None;
    if let [r @ b'1'..=b'8', rest @ ..] = i {
        rank = Some(r - b'1');
        i = rest;
    }
    let mut capture = false;
    if let [b'x', rest @ ..] = i {
        capture = true;
        i = rest;
    }
    if let Some((rest, to)) = try_square(i) {
        let san = San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        };
        return Ok((rest, san));
    }
    match (file, rank, capture) {
        (Some(f), Some(r), false) => {
            let to = Square::from_coords(f, r).ok_or_else(|| bad_san(start, i, "a square"))?;
            let san = San::Normal {
                role,
                file: None,
                rank: None,
                capture,
                to,
                promotion: None,
            };
            Ok((i, san))
        }
        _ => Err(bad_san(start, i, "a target square such as `f3`")),
    }
}

// drop = [drop-piece] "@" square
// drop-piece = "P" / "N" / "B" / "R" / "Q" / "K"
fn piece_drop(i: &[u8]) -> PResult<'_, San> {
    let start = i;
    let (i, role) = match i {
        [b'@', ..] => (i, Role::Pawn),
        [b'P', rest @ ..] => (rest, Role::Pawn),
        _ => piece(i)?,
    };
    let i = match i {
        [b'@', rest @ ..] => rest,
        _ => return Err(bad_san(start, i, "`@` and a square, as in `P@e4`")),
    };
    let (i, to) = try_square(i).ok_or_else(|| bad_san(start, after1(i), "a square after `@`"))?;
    Ok((i, San::Put { role, to }))
}

// piece = "N" / "B" / "R" / "Q" / "K"
#[inline(always)]
fn piece(i: &[u8]) -> PResult<'_, Role> {
    match i {
        [b'N', rest @ ..] => Ok((rest, Role::Knight)),
        [b'B', rest @ ..] => Ok((rest, Role::Bishop)),
        [b'R', rest @ ..] => Ok((rest, Role::Rook)),
        [b'Q', rest @ ..] => Ok((rest, Role::Queen)),
        [b'K', rest @ ..] => Ok((rest, Role::King)),
        _ => fail(
            i,
            1,
            ErrorKind::InvalidSan,
            "a piece letter `N`, `B`, `R`, `Q` or `K`",
        ),
    }
}

// pawn-move = file "x" square [promotion] / square [promotion]
#[inline(always)]
fn pawn_move(i: &[u8]) -> PResult<'_, San> {
    let start = i;
    let (i, file, capture, to) = match i {
        [f @ b'a'..=b'h', b'x', rest @ ..] => {
            let (rest, to) = try_square(rest)
                .ok_or_else(|| bad_san(start, rest, "a target square such as `d5`"))?;
            (rest, Some(f - b'a'), true, to)
        }
        _ => {
            let (rest, to) = try_square(i)
                .ok_or_else(|| bad_san(start, after1(i), "a square such as `e4`, or `x`"))?;
            (rest, None, false, to)
        }
    };
    let (i, promotion) = promotion(i)
        .map_err(|_| bad_san(start, after1(i), "`N`, `B`, `R`, `Q` or `K` after `=`"))?;
    let san = San::Normal {
        role: Role::Pawn,
        file,
        rank: None,
        capture,
        to,
        promotion,
    };
    Ok((i, san))
}

/// `i` without its first byte (empty if `i` is).
fn after1(i: &[u8]) -> &[u8] {
    i.get(1..).unwrap_or_default()
}

// promotion = ["=" / "/"] promotion-piece / "(" promotion-piece ")"
// promotion-piece = "N" / "B" / "R" / "Q" / "K"
#[inline(always)]
fn promotion(i: &[u8]) -> PResult<'_, Option<Role>> {
    let (j, eq) = match i {
        [b'=' | b'/', rest @ ..] => (rest, true),
        [
            b'(',
            p @ (b'N' | b'B' | b'R' | b'Q' | b'K'),
            b')',
            rest @ ..,
        ] => {
            return Ok((rest, Some(promotion_piece(*p))));
        }
        _ => (i, false),
    };
    match j {
        [b'N', rest @ ..] => Ok((rest, Some(Role::Knight))),
        [b'B', rest @ ..] => Ok((rest, Some(Role::Bishop))),
        [b'R', rest @ ..] => Ok((rest, Some(Role::Rook))),
        [b'Q', rest @ ..] => Ok((rest, Some(Role::Queen))),
        [b'K', rest @ ..] => Ok((rest, Some(Role::King))),
        _ if eq => fail(j, 1, ErrorKind::InvalidSan, "a promotion piece"),
        _ => Ok((i, None)),
    }
}

/// The role of a promotion piece letter (one of `NBRQK`).
fn promotion_piece(letter: u8) -> Role {
    match letter {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'K' => Role::King,
        _ => Role::Queen,
    }
}

// castle = "O-O-O" / "O-O" / "0-0-0" / "0-0"
#[inline(always)]
fn castle(i: &[u8]) -> PResult<'_, San> {
    match i {
        [b'O', b'-', b'O', b'-', b'O', rest @ ..] | [b'0', b'-', b'0', b'-', b'0', rest @ ..] => {
            Ok((rest, San::Castle(CastlingSide::QueenSide)))
        }
        [b'O', b'-', b'O', rest @ ..] | [b'0', b'-', b'0', rest @ ..] => {
            Ok((rest, San::Castle(CastlingSide::KingSide)))
        }
        _ => fail(i, 1, ErrorKind::InvalidSan, "`O-O` or `O-O-O`"),
    }
}

// null = "--" / "Z0"
#[inline(always)]
fn null(i: &[u8]) -> PResult<'_, San> {
    match i {
        [b'-', b'-', rest @ ..] | [b'Z', b'0', rest @ ..] => Ok((rest, San::Null)),
        // `Zz9` is no null move gone wrong: no piece letter `Z` either.
        [b'Z', ..] => Err(bad_san(i, after1(i), "a move such as `e4`, `Nf3` or `O-O`")),
        _ => Err(bad_san(i, after1(i), "`--` (a null move)")),
    }
}

impl San {
    /// Writes the move as [`Display`](fmt::Display) does, character by character, without the
    /// formatting machinery: for writers that take many moves (`String`, an Arrow string
    /// builder).
    ///
    /// ```
    /// use tabia_notation::san::San;
    ///
    /// let mut out = String::new();
    /// "exd8=Q".parse::<San>()?.write_to(&mut out)?;
    /// assert_eq!(out, "exd8=Q");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Only those of `out`.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let square = |out: &mut W, sq: Square| {
            out.write_char(sq.file_char())?;
            out.write_char(sq.rank_char())
        };
        match *self {
            San::Normal { .. } | San::Castle(_) => {
                let (bytes, len) = self.ascii().unwrap_or_default();
                // ASCII: always UTF-8.
                out.write_str(std::str::from_utf8(&bytes[..len]).unwrap_or_default())
            }
            San::Put { role, to } => {
                if role != Role::Pawn {
                    out.write_char(role.upper_char())?;
                }
                out.write_char('@')?;
                square(out, to)
            }
            San::Null => out.write_str("--"),
            San::Long {
                role: None,
                from,
                to,
                promotion,
                ..
            } => {
                square(out, from)?;
                square(out, to)?;
                if let Some(promotion) = promotion {
                    out.write_char(promotion.char())?;
                }
                Ok(())
            }
            San::Long {
                role: Some(role),
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.write_char(role.upper_char())?;
                }
                square(out, from)?;
                out.write_char(if capture { 'x' } else { '-' })?;
                square(out, to)?;
                if let Some(promotion) = promotion {
                    out.write_char('=')?;
                    out.write_char(promotion.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl FromStr for San {
    type Err = Error;

    fn from_str(s: &str) -> Result<San, Error> {
        San::from_ascii(s.as_bytes())
    }
}

impl SanPlus {
    /// Writes the move and its check mark as [`Display`](fmt::Display) does, without the
    /// formatting machinery (see [`San::write_to`]).
    ///
    /// # Errors
    ///
    /// Only those of `out`.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        self.san.write_to(out)?;
        if let Some(suffix) = self.suffix {
            out.write_char(suffix.char())?;
        }
        Ok(())
    }
}

impl San {
    /// The move in SAN with the PGN standard's letters, as ASCII bytes on the stack and their
    /// length: what [`San::write_to`] writes, for a move or castling (`None` for the rest,
    /// which [`San::write_to`] spells itself).
    ///
    /// ```
    /// use tabia_notation::san::San;
    ///
    /// let mv: San = "exd8=Q".parse()?;
    /// let (bytes, len) = mv.ascii().expect("a move");
    /// assert_eq!(&bytes[..len], b"exd8=Q");
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    #[inline]
    pub fn ascii(&self) -> Option<([u8; 16], usize)> {
        // Gathered in a register, stored once: bytes stored one at a time and then copied
        // as a whole wait for each other.
        let mut acc = 0_u128;
        let mut len = 0;
        let mut push = |b: u8| {
            acc |= u128::from(b) << (8 * len);
            len += 1;
        };
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    push(role.upper_byte());
                }
                if let Some(file) = file {
                    push(b'a' + file.min(7));
                }
                if let Some(rank) = rank {
                    push(b'1' + rank.min(7));
                }
                if capture {
                    push(b'x');
                }
                push(b'a' + to.file());
                push(b'1' + to.rank());
                if let Some(promotion) = promotion {
                    push(b'=');
                    push(promotion.upper_byte());
                }
            }
            San::Castle(side) => side.san().bytes().for_each(&mut push),
            _ => return None,
        }
        Some((acc.to_le_bytes(), len))
    }
}

impl SanPlus {
    /// [`San::ascii`] with the check mark: what [`SanPlus::write_to`] writes, for a move or
    /// castling.
    ///
    /// ```
    /// use tabia_notation::san::SanPlus;
    ///
    /// let mv: SanPlus = "exd8=Q#".parse()?;
    /// let (bytes, len) = mv.ascii().expect("a move");
    /// assert_eq!(&bytes[..len], b"exd8=Q#");
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    #[inline]
    pub fn ascii(&self) -> Option<([u8; 16], usize)> {
        let (bytes, len) = self.san.ascii()?;
        let mark = match self.suffix {
            Some(Suffix::Check) => b'+',
            Some(Suffix::Checkmate) => b'#',
            None => return Some((bytes, len)),
        };
        let acc = u128::from_le_bytes(bytes) | (u128::from(mark) << (8 * len));
        Some((acc.to_le_bytes(), len + 1))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl FromStr for SanPlus {
    type Err = Error;

    fn from_str(s: &str) -> Result<SanPlus, Error> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

/// Parses a move given by its squares, UCI or long algebraic (see [`San::Long`]), with its
/// check mark, from the start of `bytes`; returns it and the bytes consumed. For the PGN reader,
/// where no SAN fits: `Ng1f3`, which is SAN, is not read here.
///
/// ```
/// use tabia_notation::{Role, Square, san::{self, San}};
///
/// let (mv, used) = san::long_prefix(b"d7d8r e5")?;
/// assert_eq!(used, 5);
/// assert_eq!(mv.san, San::Long { role: None, from: Square::D7, capture: false, to: Square::D8,
///                                promotion: Some(Role::Rook) });
/// assert_eq!(mv.to_string(), "d7d8r");
/// let (mv, _) = san::long_prefix(b"Ng1-f3+")?;
/// assert_eq!(mv.to_string(), "Ng1-f3+");
/// assert_eq!(san::long_prefix(b"e2-e4")?.0.to_string(), "e2-e4");
/// # Ok::<(), tabia_notation::Error>(())
/// ```
pub fn long_prefix(bytes: &[u8]) -> Result<(SanPlus, usize), Error> {
    syntax::run(bytes, long_plus)
}

// long-plus = long-move [check-mark]
pub(crate) fn long_plus(i: &[u8]) -> PResult<'_, SanPlus> {
    let (i, san) = long_move(i)?;
    let (i, suffix) = check_mark(i)?;
    Ok((i, SanPlus { san, suffix }))
}

// long-move = piece square ["-" / "x"] square
//           / square ["-" / "x"] square [promotion / uci-promotion]
//           ; UCI when no piece, separator or upper-case promotion is written
fn long_move(i: &[u8]) -> PResult<'_, San> {
    let start = i;
    let expected = "a move such as `e4`, `Nf3`, `e2e4` or `Ng1-f3`";
    let (i, piece) = match i.first() {
        Some(b'a'..=b'h') => (i, None),
        _ => piece(i)
            .map(|(rest, role)| (rest, Some(role)))
            .map_err(|_| bad_san(start, start, expected))?,
    };
    let (i, from) = try_square(i).ok_or_else(|| bad_san(start, i, expected))?;
    let (i, separator) = match i {
        [b'-', rest @ ..] => (rest, Some(false)),
        [b'x', rest @ ..] => (rest, Some(true)),
        _ => (i, None),
    };
    let (i, to) = try_square(i).ok_or_else(|| bad_san(start, i, "a target square"))?;
    let (i, promotion, upper) = match i {
        // Only a pawn promotes: `Nb1c3b` is no move (it would be written `Nb1-c3=B`, which
        // reads as no move either).
        [p @ (b'n' | b'b' | b'r' | b'q' | b'k'), rest @ ..] if piece.is_none() => {
            (rest, Some(promotion_piece(p.to_ascii_uppercase())), false)
        }
        _ if piece.is_none() => {
            let (rest, promotion) =
                promotion(i).map_err(|_| bad_san(start, after1(i), "a promotion piece"))?;
            (rest, promotion, promotion.is_some())
        }
        _ => (i, None, false),
    };
    let uci = piece.is_none() && separator.is_none() && !upper;
    let san = San::Long {
        role: if uci {
            None
        } else {
            Some(piece.unwrap_or(Role::Pawn))
        },
        from,
        capture: separator == Some(true),
        to,
        promotion,
    };
    Ok((i, san))
}

/// The letters (or figurines) a writer uses for the pieces, in the order pawn, knight, bishop,
/// rook, queen, king, as pgn-extract's `-Wsan<letters>` takes them.
///
/// SAN and long algebraic moves name every piece but the pawn by its letter; the pawn's letter
/// is kept for completeness (pgn-extract takes six). Only [`Pieces::ENGLISH`] reads back as
/// PGN: the other sets are for people.
///
/// ```
/// use tabia_notation::san::{Pieces, SanPlus};
///
/// let de: Pieces = "BSLTDK".parse()?;
/// assert_eq!(Pieces::language("de"), Some(de));
/// let mv: SanPlus = "Nxe5+".parse()?;
/// assert_eq!(de.san(&mv), "Sxe5+");
/// assert_eq!(Pieces::FIGURINE.san(&"e8=Q#".parse()?), "e8=\u{2655}#");
/// assert_eq!(Pieces::ENGLISH.san(&mv), mv.to_string());
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pieces(pub [char; 6]);

impl Default for Pieces {
    fn default() -> Pieces {
        Pieces::ENGLISH
    }
}

impl Pieces {
    /// `P N B R Q K`: the letters of the PGN standard.
    pub const ENGLISH: Pieces = Pieces(['P', 'N', 'B', 'R', 'Q', 'K']);
    /// The white figurines `♙ ♘ ♗ ♖ ♕ ♔`, for both colours (as printed in books).
    pub const FIGURINE: Pieces = Pieces([
        '\u{2659}', '\u{2658}', '\u{2657}', '\u{2656}', '\u{2655}', '\u{2654}',
    ]);

    /// The languages [`Pieces::language`] knows, by ISO 639-1 code, with their letters (pawn
    /// first).
    pub const LANGUAGES: [(&'static str, &'static str); 16] = [
        ("cs", "PJSVDK"),
        ("da", "BSLTDK"),
        ("de", "BSLTDK"),
        ("en", "PNBRQK"),
        ("es", "PCATDR"),
        ("fi", "SRLTDK"),
        ("fr", "PCFTDR"),
        ("hu", "GHFBVK"),
        ("is", "PRBHDK"),
        ("it", "PCATDR"),
        ("nl", "OPLTDK"),
        ("no", "BSLTDK"),
        ("pl", "PSGWHK"),
        ("pt", "PCBTDR"),
        ("ro", "PCNTDR"),
        ("sv", "BSLTDK"),
    ];

    /// The piece letters of a language, by its two-letter ISO 639-1 code (see
    /// [`Pieces::LANGUAGES`]).
    pub fn language(code: &str) -> Option<Pieces> {
        Pieces::LANGUAGES
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(code))
            .and_then(|(_, letters)| letters.parse().ok())
    }

    /// The letter of `role`.
    pub fn char(&self, role: Role) -> char {
        let i = match role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => 5,
        };
        self.0[i]
    }

    /// Whether these are the standard letters, whose moves read back as PGN.
    pub fn is_english(&self) -> bool {
        *self == Pieces::ENGLISH
    }

    /// `mv` in SAN with these letters.
    pub fn san(&self, mv: &SanPlus) -> String {
        let mut out = String::new();
        self.write_san(mv, &mut out);
        out
    }

    /// Appends `mv` in SAN with these letters to `out`.
    pub fn write_san(&self, mv: &SanPlus, out: &mut String) {
        match mv.ascii() {
            // The standard spelling, each piece letter (the capitals: files are small letters,
            // castling's `O` is no piece's) replaced by this one.
            Some((bytes, len)) => out.extend(bytes[..len].iter().map(|&b| {
                match Role::from_char(char::from(b)).filter(|_| b.is_ascii_uppercase()) {
                    Some(role) => self.char(role),
                    None => char::from(b),
                }
            })),
            // Drops, null moves and moves by their squares: the standard letters.
            None => {
                let _ = mv.write_to(out);
            }
        }
    }

    /// Appends `mv` in long algebraic notation with these letters to `out`.
    ///
    /// ```
    /// use tabia_notation::san::{LanPlus, Pieces};
    ///
    /// let mut out = String::new();
    /// let fr = Pieces::language("fr").expect("a known language");
    /// fr.write_lan(&"Ng1-f3+".parse::<LanPlus>()?, &mut out);
    /// assert_eq!(out, "Cg1-f3+");
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn write_lan(&self, mv: &LanPlus, out: &mut String) {
        use fmt::Write as _;
        match mv.lan {
            Lan::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(self.char(role));
                }
                let _ = write!(out, "{from}{}{to}", if capture { 'x' } else { '-' });
                if let Some(promotion) = promotion {
                    out.push('=');
                    out.push(self.char(promotion));
                }
            }
            other => {
                let _ = write!(out, "{other}");
            }
        }
        if let Some(suffix) = mv.suffix {
            out.push(suffix.char());
        }
    }
}

impl FromStr for Pieces {
    type Err = Error;

    /// Six letters, pawn knight bishop rook queen king (`BSLTDK`), as pgn-extract's
    /// `-Wsan<letters>`. The five piece letters must differ from each other and from what
    /// else a move holds (files `a`–`h`, digits, `x`, `O`, `=`, `+`, `#`, `-`).
    fn from_str(s: &str) -> Result<Pieces, Error> {
        let bad = || {
            Error::new(ErrorKind::InvalidPieces, 0..s.len())
                .with_expected("six letters for pawn, knight, bishop, rook, queen, king")
                .with_source(s.as_bytes())
        };
        let chars: Vec<char> = s.chars().collect();
        let letters: [char; 6] = chars.try_into().map_err(|_| bad())?;
        let pieces = &letters[1..];
        for (i, &c) in pieces.iter().enumerate() {
            if c.is_whitespace()
                || matches!(c, 'a'..='h' | 'x' | 'O' | '0'..='9' | '=' | '+' | '#' | '-')
                || pieces[..i].contains(&c)
            {
                return Err(bad());
            }
        }
        Ok(Pieces(letters))
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|c| write!(f, "{c}"))
    }
}

/// A move in UCI notation: `e2e4`, `e7e8q`, or the null move `0000`.
///
/// ```
/// use tabia_notation::{Role, Square, san::Uci};
///
/// let mv: Uci = "e7e8q".parse()?;
/// assert_eq!(mv, Uci::Normal { from: Square::E7, to: Square::E8, promotion: Some(Role::Queen) });
/// assert_eq!(mv.to_string(), "e7e8q");
/// assert_eq!("0000".parse::<Uci>()?, Uci::Null);
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uci {
    /// A move from one square to another (castling is the king's move, `e1g1`).
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square the piece goes to.
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Role>,
    },
    /// A piece dropped from the pocket (Crazyhouse): `N@f3`, `P@e4`.
    Put {
        /// The dropped piece.
        role: Role,
        /// The square it is dropped on.
        to: Square,
    },
    /// The null move `0000`.
    Null,
}

impl Uci {
    /// Parses a UCI move from the start of `bytes`; returns it and the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(Uci, usize), Error> {
        syntax::run(bytes, uci)
    }

    /// Parses exactly one UCI move.
    pub fn from_ascii(bytes: &[u8]) -> Result<Uci, Error> {
        syntax::run_all(bytes, uci)
    }
}

/// An invalid UCI move from `start` up to and including the first byte of `at`.
fn bad_uci<'a>(start: &'a [u8], at: &'a [u8]) -> nom::Err<Fail<'a>> {
    nom::Err::Error(Fail {
        rest: start,
        len: start.len() - at.len() + 1,
        kind: ErrorKind::InvalidUci,
        expected: Some("a move such as `e2e4`, `e7e8q` or `0000`"),
    })
}

// uci = "0000" / uci-drop / square square [uci-promotion]
// uci-promotion = "n" / "b" / "r" / "q" / "k"
// uci-drop = drop-letter "@" square      ; drop-letter: P N B R Q K, either case
fn uci(i: &[u8]) -> PResult<'_, Uci> {
    if let [b'0', b'0', b'0', b'0', rest @ ..] = i {
        return Ok((rest, Uci::Null));
    }
    let start = i;
    if let [letter, b'@', rest @ ..] = i {
        let role = Role::from_char(char::from(letter.to_ascii_lowercase()))
            .ok_or_else(|| bad_uci(start, start))?;
        let (rest, to) = try_square(rest).ok_or_else(|| bad_uci(start, &start[2..]))?;
        return Ok((rest, Uci::Put { role, to }));
    }
    let (i, from) = square(i).map_err(|e| bad_uci(start, failed_at(e, start)))?;
    let (i, to) = square(i).map_err(|e| bad_uci(start, failed_at(e, start)))?;
    let (i, promotion) = match i {
        [b'n', rest @ ..] => (rest, Some(Role::Knight)),
        [b'b', rest @ ..] => (rest, Some(Role::Bishop)),
        [b'r', rest @ ..] => (rest, Some(Role::Rook)),
        [b'q', rest @ ..] => (rest, Some(Role::Queen)),
        [b'k', rest @ ..] => (rest, Some(Role::King)),
        _ => (i, None),
    };
    Ok((
        i,
        Uci::Normal {
            from,
            to,
            promotion,
        },
    ))
}

/// The input at which a square failed (its last offending byte).
fn failed_at<'a>(err: nom::Err<Fail<'a>>, start: &'a [u8]) -> &'a [u8] {
    match err {
        nom::Err::Error(f) | nom::Err::Failure(f) => {
            f.rest.get(f.len.saturating_sub(1)..).unwrap_or(f.rest)
        }
        nom::Err::Incomplete(_) => start,
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Uci::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(promotion) = promotion {
                    write!(f, "{}", promotion.char())?;
                }
                Ok(())
            }
            Uci::Put { role, to } => write!(f, "{}@{to}", role.upper_char()),
            Uci::Null => f.write_str("0000"),
        }
    }
}

impl FromStr for Uci {
    type Err = Error;

    fn from_str(s: &str) -> Result<Uci, Error> {
        Uci::from_ascii(s.as_bytes())
    }
}

/// A move in long algebraic notation: `e2-e4`, `Ng1-f3`, `e7xd8=Q`, `O-O`.
///
/// The separator `-` may be left out on input (`Ng1f3`); it is written.
///
/// ```
/// use tabia_notation::{Role, Square, san::Lan};
///
/// let mv: Lan = "Ng1-f3".parse()?;
/// assert_eq!(
///     mv,
///     Lan::Normal { role: Role::Knight, from: Square::G1, capture: false, to: Square::F3,
///                   promotion: None }
/// );
/// assert_eq!("e7xd8Q".parse::<Lan>()?.to_string(), "e7xd8=Q");
/// # Ok::<(), tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lan {
    /// A piece or pawn move with both squares.
    Normal {
        /// The moving piece (`Pawn` when no letter is given).
        role: Role,
        /// The square the piece leaves.
        from: Square,
        /// Whether `x` was written.
        capture: bool,
        /// The square the piece goes to.
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Role>,
    },
    /// Castling: `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A piece dropped from the pocket (Crazyhouse): `N@f3`, `@e4` (as in SAN).
    Put {
        /// The dropped piece.
        role: Role,
        /// The square it is dropped on.
        to: Square,
    },
    /// A null move: `--`.
    Null,
}

impl Lan {
    /// Parses a long algebraic move (no check mark) from the start of `bytes`; returns it and
    /// the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(Lan, usize), Error> {
        syntax::run(bytes, lan)
    }

    /// Parses exactly one long algebraic move, without check mark.
    pub fn from_ascii(bytes: &[u8]) -> Result<Lan, Error> {
        syntax::run_all(bytes, lan)
    }
}

// lan = castle / null / drop / [piece] square ["-" / "x"] square [promotion]
fn lan(i: &[u8]) -> PResult<'_, Lan> {
    lan_move(i).map_err(|e| {
        e.map(|f| Fail {
            kind: ErrorKind::InvalidLan,
            ..f
        })
    })
}

/// The `lan` rule, its errors reported as SAN errors by the rules it shares with SAN.
fn lan_move(i: &[u8]) -> PResult<'_, Lan> {
    let start = i;
    match i.first() {
        Some(b'O' | b'0') => {
            return match castle(i) {
                Ok((rest, San::Castle(side))) => Ok((rest, Lan::Castle(side))),
                _ => Err(bad_san(i, i, "`O-O` or `O-O-O`")),
            };
        }
        Some(b'-' | b'Z') => return null(i).map(|(rest, _)| (rest, Lan::Null)),
        // drop = [drop-piece] "@" square
        Some(b'@' | b'P' | b'N' | b'B' | b'R' | b'Q' | b'K')
            if i.first() == Some(&b'@') || i.get(1) == Some(&b'@') =>
        {
            return piece_drop(i).and_then(|(rest, san)| match san {
                San::Put { role, to } => Ok((rest, Lan::Put { role, to })),
                _ => Err(bad_san(start, start, "a drop such as `N@f3`")),
            });
        }
        _ => {}
    }
    let (i, role) = match i.first() {
        Some(b'a'..=b'h') => (i, Role::Pawn),
        _ => piece(i).map_err(|_| bad_san(start, start, "a move such as `e2-e4` or `Ng1-f3`"))?,
    };
    let (i, from) = square(i).map_err(|e| bad_san(start, failed_at(e, start), "a square"))?;
    let (i, capture) = match i {
        [b'-', rest @ ..] => (rest, false),
        [b'x', rest @ ..] => (rest, true),
        _ => (i, false),
    };
    let (i, to) = square(i).map_err(|e| bad_san(start, failed_at(e, start), "a target square"))?;
    let (i, promotion) = if role == Role::Pawn {
        promotion(i)
            .map_err(|_| bad_san(start, after1(i), "`N`, `B`, `R`, `Q` or `K` after `=`"))?
    } else {
        (i, None)
    };
    Ok((
        i,
        Lan::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        },
    ))
}

impl fmt::Display for Lan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Lan::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                write!(f, "{from}{}{to}", if capture { 'x' } else { '-' })?;
                if let Some(promotion) = promotion {
                    write!(f, "={}", promotion.upper_char())?;
                }
                Ok(())
            }
            Lan::Castle(side) => f.write_str(side.san()),
            Lan::Put { role, to } => write!(f, "{}", San::Put { role, to }),
            Lan::Null => f.write_str("--"),
        }
    }
}

impl FromStr for Lan {
    type Err = Error;

    fn from_str(s: &str) -> Result<Lan, Error> {
        Lan::from_ascii(s.as_bytes())
    }
}

/// A long algebraic move with its check mark: `Qd1xd8#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LanPlus {
    /// The move.
    pub lan: Lan,
    /// `+` or `#`, if written.
    pub suffix: Option<Suffix>,
}

impl LanPlus {
    /// Parses a long algebraic move and its check mark from the start of `bytes`; returns it
    /// and the bytes consumed.
    pub fn prefix(bytes: &[u8]) -> Result<(LanPlus, usize), Error> {
        syntax::run(bytes, lan_plus)
    }

    /// Parses exactly one long algebraic move with optional check mark.
    pub fn from_ascii(bytes: &[u8]) -> Result<LanPlus, Error> {
        syntax::run_all(bytes, lan_plus)
    }
}

// lan-plus = lan [check-mark]
fn lan_plus(i: &[u8]) -> PResult<'_, LanPlus> {
    let (i, lan) = lan(i)?;
    let (i, suffix) = check_mark(i)?;
    Ok((i, LanPlus { lan, suffix }))
}

impl fmt::Display for LanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lan)?;
        if let Some(suffix) = self.suffix {
            write!(f, "{suffix}")?;
        }
        Ok(())
    }
}

impl FromStr for LanPlus {
    type Err = Error;

    fn from_str(s: &str) -> Result<LanPlus, Error> {
        LanPlus::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal(role: Role, file: Option<u8>, rank: Option<u8>, capture: bool, to: Square) -> San {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        }
    }

    /// Moves given by their squares read back from what is written of them, and a piece
    /// move takes no promotion in any form (the fuzzer's `Nb1c3b` read as a knight promoting
    /// to a bishop, written `Nb1-c3=B`, which did not read back).
    #[test]
    fn long_moves_read_back_and_pieces_do_not_promote() {
        for text in [
            "e2e4", "d7d8r", "e7xd8=Q", "Ng1-f3", "Ng1f3", "Qh4xe1", "e2-e4", "b7b8=N",
        ] {
            let (mv, used) = long_prefix(text.as_bytes()).expect(text);
            assert_eq!(used, text.len(), "{text}");
            let written = mv.to_string();
            assert_eq!(
                long_prefix(written.as_bytes()).map(|(m, _)| m),
                Ok(mv),
                "{text}"
            );
        }
        for text in ["Nb1c3b", "Nb1-c3=B", "Nb1c3=B", "Qd1d8q", "Ke1e2(Q)"] {
            let read = long_prefix(text.as_bytes()).map(|(_, used)| used);
            assert_ne!(read, Ok(text.len()), "{text} read as a whole move");
        }
    }

    #[test]
    fn piece_move_rule() {
        let cases: [(&str, San); 7] = [
            ("Nf3", normal(Role::Knight, None, None, false, Square::F3)),
            (
                "Nbd7",
                normal(Role::Knight, Some(1), None, false, Square::D7),
            ),
            ("R1e2", normal(Role::Rook, None, Some(0), false, Square::E2)),
            (
                "Qh4xe1",
                normal(Role::Queen, Some(7), Some(3), true, Square::E1),
            ),
            ("Kxa1", normal(Role::King, None, None, true, Square::A1)),
            (
                "Bfxe5",
                normal(Role::Bishop, Some(5), None, true, Square::E5),
            ),
            ("Rdd1", normal(Role::Rook, Some(3), None, false, Square::D1)),
        ];
        for (text, want) in cases {
            assert_eq!(piece_move(text.as_bytes()), Ok((&b""[..], want)), "{text}");
            assert_eq!(want.to_string(), text);
        }
        assert_eq!(
            piece_move(b"Nd7+"),
            Ok((
                &b"+"[..],
                normal(Role::Knight, None, None, false, Square::D7)
            ))
        );
        assert!(piece_move(b"Nx").is_err());
        assert!(piece_move(b"N").is_err());
        assert!(piece_move(b"Nd").is_err());
    }

    #[test]
    fn pawn_move_rule() {
        assert_eq!(
            pawn_move(b"e4"),
            Ok((&b""[..], normal(Role::Pawn, None, None, false, Square::E4)))
        );
        assert_eq!(
            pawn_move(b"exd5 "),
            Ok((
                &b" "[..],
                normal(Role::Pawn, Some(4), None, true, Square::D5)
            ))
        );
        let promo = San::Normal {
            role: Role::Pawn,
            file: Some(4),
            rank: None,
            capture: true,
            to: Square::D8,
            promotion: Some(Role::Knight),
        };
        assert_eq!(pawn_move(b"exd8=N"), Ok((&b""[..], promo)));
        assert_eq!(pawn_move(b"exd8N"), Ok((&b""[..], promo)));
        assert!(pawn_move(b"e9").is_err());
        assert!(pawn_move(b"exe").is_err());
        assert!(pawn_move(b"e8=").is_err());
        assert!(pawn_move(b"e8=P").is_err());
    }

    #[test]
    fn promotion_rule() {
        assert_eq!(promotion(b"=Q+"), Ok((&b"+"[..], Some(Role::Queen))));
        assert_eq!(promotion(b"R"), Ok((&b""[..], Some(Role::Rook))));
        assert_eq!(promotion(b"+"), Ok((&b"+"[..], None)));
        assert!(promotion(b"=x").is_err());
    }

    #[test]
    fn castle_and_null_rules() {
        assert_eq!(
            castle(b"O-O"),
            Ok((&b""[..], San::Castle(CastlingSide::KingSide)))
        );
        assert_eq!(
            castle(b"0-0-0+"),
            Ok((&b"+"[..], San::Castle(CastlingSide::QueenSide)))
        );
        assert!(castle(b"O-0").is_err());
        assert_eq!(null(b"--"), Ok((&b""[..], San::Null)));
        assert_eq!(null(b"Z0"), Ok((&b""[..], San::Null)));
        assert!(null(b"-").is_err());
        let err = "Zz9".parse::<SanPlus>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid SAN move (expected a move such as `e4`, `Nf3` or `O-O`) at line 1, column 1\n  \
             | Zz9\n  | ^^"
        );
    }

    #[test]
    fn check_mark_and_annotation_rules() {
        assert_eq!(check_mark(b"#!"), Ok((&b"!"[..], Some(Suffix::Checkmate))));
        assert_eq!(check_mark(b"!"), Ok((&b"!"[..], None)));
        for (text, n) in [
            ("!", 1),
            ("?", 2),
            ("!!", 3),
            ("??", 4),
            ("!?", 5),
            ("?!", 6),
        ] {
            assert_eq!(annotation(text.as_bytes()), Ok((&b""[..], Some(Nag(n)))));
        }
        assert_eq!(annotation(b"!!!"), Ok((&b"!"[..], Some(Nag(3)))));
    }

    #[test]
    fn annotated_prefix_reads_all_parts() {
        let (mv, nag, used) = annotated_prefix(b"O-O#?! 1-0").unwrap();
        assert_eq!(mv.to_string(), "O-O#");
        assert_eq!((nag, used), (Some(Nag(6)), 6));
    }

    #[test]
    fn errors_underline_the_move() {
        let err = SanPlus::from_ascii(b"Qxx4").unwrap_err();
        assert_eq!(err.span(), 0..3);
        assert_eq!(
            err.to_string(),
            "invalid SAN move (expected a target square such as `f3`) at line 1, column 1\n  | Qxx4\n  | ^^^"
        );
        assert_eq!(
            San::from_ascii(b"e4e5").unwrap_err().kind(),
            ErrorKind::TrailingInput
        );
        assert_eq!(
            San::from_ascii(b"").unwrap_err().kind(),
            ErrorKind::InvalidSan
        );
        assert_eq!(
            San::from_ascii(b"\xff").unwrap_err().kind(),
            ErrorKind::InvalidSan
        );
    }

    #[test]
    fn uci_rule() {
        assert_eq!(
            uci(b"e2e4"),
            Ok((
                &b""[..],
                Uci::Normal {
                    from: Square::E2,
                    to: Square::E4,
                    promotion: None
                }
            ))
        );
        assert_eq!(uci(b"0000 "), Ok((&b" "[..], Uci::Null)));
        assert_eq!(
            Uci::from_ascii(b"e2e9").unwrap_err().to_string(),
            "invalid UCI move (expected a move such as `e2e4`, `e7e8q` or `0000`) at line 1, column 1\n  | e2e9\n  | ^^^^"
        );
        assert_eq!(
            Uci::from_ascii(b"e7e8Q").unwrap_err().kind(),
            ErrorKind::TrailingInput
        );
    }

    #[test]
    fn lan_rule() {
        for text in ["e2-e4", "Ng1-f3", "e7xd8=Q", "O-O", "O-O-O", "--", "Ke1xe2"] {
            let mv: Lan = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("e2e4".parse::<Lan>().unwrap().to_string(), "e2-e4");
        assert_eq!("Qd1xd8#".parse::<LanPlus>().unwrap().to_string(), "Qd1xd8#");
        assert!("Ng1-f3=Q".parse::<Lan>().is_err());
        assert!("Xg1-f3".parse::<Lan>().is_err());
        assert!("Ng1-".parse::<Lan>().is_err());
    }
}
