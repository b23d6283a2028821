//! [`Lan`] and [`LanPlus`]: moves in long algebraic notation (`Ng1-f3`, `e7xd8=Q+`).

use super::*;

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
pub(super) fn lan(i: &[u8]) -> PResult<'_, Lan> {
    lan_move(i).map_err(|e| {
        e.map(|f| Fail {
            kind: ErrorKind::InvalidLan,
            ..f
        })
    })
}

/// The `lan` rule, its errors reported as SAN errors by the rules it shares with SAN.
pub(super) fn lan_move(i: &[u8]) -> PResult<'_, Lan> {
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
pub(super) fn lan_plus(i: &[u8]) -> PResult<'_, LanPlus> {
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
