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

mod lan;
mod pieces;
mod uci;

pub use lan::{Lan, LanPlus};
pub use pieces::Pieces;
pub use uci::Uci;

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

/// The input at which a square failed (its last offending byte).
fn failed_at<'a>(err: nom::Err<Fail<'a>>, start: &'a [u8]) -> &'a [u8] {
    match err {
        nom::Err::Error(f) | nom::Err::Failure(f) => {
            f.rest.get(f.len.saturating_sub(1)..).unwrap_or(f.rest)
        }
        nom::Err::Incomplete(_) => start,
    }
}

#[cfg(test)]
mod tests;
