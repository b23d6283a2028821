//! [`Uci`]: moves in UCI notation (`e2e4`, `e7e8q`, `0000`).

use super::*;

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
pub(super) fn bad_uci<'a>(start: &'a [u8], at: &'a [u8]) -> nom::Err<Fail<'a>> {
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
pub(super) fn uci(i: &[u8]) -> PResult<'_, Uci> {
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
