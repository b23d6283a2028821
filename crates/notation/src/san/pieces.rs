//! [`Pieces`]: the letters (or figurines) a language writes pieces with.

use super::*;

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
