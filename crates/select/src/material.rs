//! [`Material`]: pgn-extract's material descriptions, `RP NB`.

use std::{fmt, str::FromStr};

use tabia_position::shakmaty::{Board, Color, Role};

use crate::error::{ParseError, ParseErrorKind};

/// How many of one kind of piece a side may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    /// Exactly n (a letter alone is one; a letter not written is zero).
    Exactly(u32),
    /// n or more (`+` is one or more, `*` zero or more).
    AtLeast(u32),
    /// n or fewer (`d-`).
    AtMost(u32),
    /// As many as the other side (`=`).
    Same,
    /// Not as many as the other side (`#`).
    Different,
    /// At least n more than the other side (`>`, `d>`).
    MoreBy(u32),
    /// At least n fewer than the other side (`<`, `d<`).
    FewerBy(u32),
    /// Exactly n more than the other side (`>=`, `d>=`).
    ExactlyMoreBy(u32),
    /// Exactly n fewer than the other side (`<=`, `d<=`).
    ExactlyFewerBy(u32),
}

impl Count {
    fn accepts(self, ours: u32, theirs: u32) -> bool {
        match self {
            Count::Exactly(n) => ours == n,
            Count::AtLeast(n) => ours >= n,
            Count::AtMost(n) => ours <= n,
            Count::Same => ours == theirs,
            Count::Different => ours != theirs,
            Count::MoreBy(n) => ours >= theirs + n,
            Count::FewerBy(n) => ours + n <= theirs,
            Count::ExactlyMoreBy(n) => ours == theirs + n,
            Count::ExactlyFewerBy(n) => ours + n == theirs,
        }
    }

    /// The fewest pieces a side must have for the count to hold.
    fn least(self) -> u32 {
        match self {
            Count::Exactly(n) | Count::AtLeast(n) | Count::MoreBy(n) | Count::ExactlyMoreBy(n) => n,
            Count::AtMost(_)
            | Count::Same
            | Count::Different
            | Count::FewerBy(_)
            | Count::ExactlyFewerBy(_) => 0,
        }
    }
}

/// The roles a description can name, in the order they are written back.
const ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// One side's material: a count for each of queen, rook, bishop, knight, pawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Side([Count; 5]);

impl Side {
    /// Whether a side that has `now` (queens, rooks, bishops, knights, pawns) may have this
    /// material later in the game: pawns and pieces are never regained, and a piece other than
    /// a pawn is only gained by promoting a pawn.
    fn reachable_from(&self, now: &[u32; 5]) -> bool {
        let pawns = now[4];
        let mut least = 0;
        for (i, count) in self.0.iter().enumerate() {
            let most = if i == 4 { pawns } else { now[i] + pawns };
            if count.least() > most {
                return false;
            }
            least += count.least();
        }
        least <= now.iter().sum::<u32>()
    }
}

/// The pieces of each side of a board, white then black, each as queens, rooks, bishops,
/// knights, pawns (as [`ROLES`]): what [`Material`] is tested on.
pub(crate) type Counts = [[u32; 5]; 2];

/// The [`Counts`] of `board`.
pub(crate) fn counts(board: &Board) -> Counts {
    Color::ALL.map(|color| {
        let ours = board.by_color(color);
        ROLES.map(|role| (ours & board.by_role(role)).count() as u32)
    })
}

/// `--material 'RP NB'`: one side has exactly these pieces and the other those (kings
/// implied), at some ply; either side may be the first unless the description is taken as
/// written ([`Material::as_written`]: the first is white).
///
/// The syntax is pgn-extract's (`-z`): piece letters in any case and order; after a letter,
/// `*` (any number), `+` (one or more), `d` (exactly d), `d+` (d or more), `d-` (d or fewer),
/// or a count relative to the other side's pieces of that kind: `=` (as many), `#` (not as
/// many), `>` / `d>` (at least 1 / d more), `<` / `d<` (at least 1 / d fewer), `>=` / `d>=`
/// (exactly 1 / d more), `<=` / `d<=` (exactly 1 / d fewer).
///
/// ```
/// use tabia_select::Material;
/// use tabia_position::{Position, shakmaty::Position as _};
///
/// let m: Material = "RP NB".parse()?;
/// let board = |fen| Position::from_arg(fen).map(|p| p.chess().board().clone());
/// assert!(m.matches(&board("8/8/3k4/3nb3/8/3KR3/3P4/8 w - - 0 1")?));
/// assert!(m.matches(&board("8/3p4/3kr3/8/3NB3/3K4/8/8 w - - 0 1")?));
/// assert!(!m.as_written().matches(&board("8/3p4/3kr3/8/3NB3/3K4/8/8 w - - 0 1")?));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    text: String,
    sides: [Side; 2],
    as_written: bool,
}

impl Material {
    /// The same description with the first side white and the second black.
    #[must_use]
    pub fn as_written(mut self) -> Material {
        self.as_written = true;
        self
    }

    /// Whether the colours are as written (not tried both ways).
    pub fn is_as_written(&self) -> bool {
        self.as_written
    }

    /// Whether `board` has this material.
    pub fn matches(&self, board: &Board) -> bool {
        self.matches_counts(&counts(board))
    }

    /// [`Material::matches`] on the [`Counts`] of a board.
    pub(crate) fn matches_counts(&self, &[white, black]: &Counts) -> bool {
        let fits = |a: &Side, b: &Side| {
            (0..5).all(|i| a.0[i].accepts(white[i], black[i]) && b.0[i].accepts(black[i], white[i]))
        };
        fits(&self.sides[0], &self.sides[1])
            || (!self.as_written && fits(&self.sides[1], &self.sides[0]))
    }

    /// Whether a standard chess game now at `board` may still reach this material (a game
    /// without it can stop being searched): captures only take pieces away, and a promotion
    /// only turns a pawn into another piece.
    ///
    /// ```
    /// use tabia_select::Material;
    /// use tabia_position::Position;
    ///
    /// let rook_ending: Material = "R R".parse()?;
    /// let start = Position::new();
    /// assert!(rook_ending.reachable(start.board()));
    /// let no_rooks = Position::from_arg("4k3/8/8/8/8/8/8/4K2B w - - 0 1")?;
    /// assert!(!rook_ending.reachable(no_rooks.board()));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn reachable(&self, board: &Board) -> bool {
        self.reachable_counts(&counts(board))
    }

    /// [`Material::reachable`] on the [`Counts`] of a board.
    pub(crate) fn reachable_counts(&self, &[white, black]: &Counts) -> bool {
        let could = |a: &Side, b: &Side| a.reachable_from(&white) && b.reachable_from(&black);
        could(&self.sides[0], &self.sides[1])
            || (!self.as_written && could(&self.sides[1], &self.sides[0]))
    }
}

// material = side 1*" " side
// side     = *(letter [count])
// count    = "*" / "+" / "=" / "#" / [digit] (">=" / "<=" / ">" / "<") / digit ["+" / "-"]
fn side(text: &str, part: &str, offset: usize) -> Result<Side, ParseError> {
    let bad = |reason, start: usize, end: usize| {
        ParseError::new(
            "material",
            ParseErrorKind::Material(reason),
            text,
            start..end,
        )
    };
    let mut counts = [None::<Count>; 5];
    let bytes = part.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let at = offset + i;
        let role = Role::from_char(char::from(bytes[i].to_ascii_lowercase()))
            .ok_or_else(|| bad("expected a piece letter: K Q R B N P", at, at + 1))?;
        i += 1;
        let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let number: Option<u32> = if digits > 0 {
            Some(
                part[i..i + digits]
                    .parse()
                    .map_err(|_| bad("number too large", offset + i, offset + i + digits))?,
            )
        } else {
            None
        };
        i += digits;
        let rest = &bytes[i..];
        let (count, used) = match (number, rest) {
            (None, [b'*', ..]) => (Count::AtLeast(0), 1),
            (None, [b'=', ..]) => (Count::Same, 1),
            (None, [b'#', ..]) => (Count::Different, 1),
            (n, [b'>', b'=', ..]) => (Count::ExactlyMoreBy(n.unwrap_or(1)), 2),
            (n, [b'<', b'=', ..]) => (Count::ExactlyFewerBy(n.unwrap_or(1)), 2),
            (n, [b'>', ..]) => (Count::MoreBy(n.unwrap_or(1)), 1),
            (n, [b'<', ..]) => (Count::FewerBy(n.unwrap_or(1)), 1),
            (n, [b'+', ..]) => (Count::AtLeast(n.unwrap_or(1)), 1),
            (Some(n), [b'-', ..]) => (Count::AtMost(n), 1),
            (Some(n), _) => (Count::Exactly(n), 0),
            (None, _) => (Count::Exactly(1), 0),
        };
        i += used;
        if role == Role::King {
            continue;
        }
        let slot = ROLES.iter().position(|r| *r == role).unwrap_or(0);
        if counts[slot].is_some() {
            return Err(bad("a piece letter given twice for one side", at, at + 1));
        }
        counts[slot] = Some(count);
    }
    Ok(Side(counts.map(|c| c.unwrap_or(Count::Exactly(0)))))
}

impl FromStr for Material {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Material, ParseError> {
        let mut parts = Vec::new();
        let mut offset = 0;
        for word in text.split(' ') {
            if !word.is_empty() {
                parts.push((word, offset));
            }
            offset += word.len() + 1;
        }
        match parts.as_slice() {
            [(a, ao), (b, bo)] => Ok(Material {
                text: format!("{a} {b}"),
                sides: [side(text, a, *ao)?, side(text, b, *bo)?],
                as_written: false,
            }),
            _ => Err(ParseError::new(
                "material",
                ParseErrorKind::Material("expected two sides separated by a space, like `RP NB`"),
                text,
                0..text.len(),
            )),
        }
    }
}

impl fmt::Display for Material {
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
    fn counts_and_relative_counts() {
        let start = board("startpos");
        assert!(
            "QR2B2N2P8 QR2B2N2P8"
                .parse::<Material>()
                .unwrap()
                .matches(&start)
        );
        assert!("q*r+n*b*p+ q=r=n*b*p#".parse::<Material>().is_ok());
        assert!(!"R+P+ R=P#".parse::<Material>().unwrap().matches(&start));
        let rook_pawn_up = board("4k3/ppp5/8/8/8/8/PPPP4/R3K3 w - - 0 1");
        assert!("RP4 p3".parse::<Material>().unwrap().matches(&rook_pawn_up));
        assert!(
            "rp1>= p*"
                .parse::<Material>()
                .unwrap()
                .matches(&rook_pawn_up)
        );
        assert!("rp> p*".parse::<Material>().unwrap().matches(&rook_pawn_up));
        assert!(
            !"rp2>= p*"
                .parse::<Material>()
                .unwrap()
                .matches(&rook_pawn_up)
        );
        assert!(
            "KRP3+ KP3-"
                .parse::<Material>()
                .unwrap()
                .matches(&rook_pawn_up)
        );
    }

    #[test]
    fn reachable_only_while_pieces_and_pawns_allow() {
        let m: Material = "RP R".parse().unwrap();
        // Rooks and pawns on both sides: reachable.
        assert!(m.reachable(&board("4k2r/p7/8/8/8/8/P7/R3K3 w - - 0 1")));
        // Black has no rook but a pawn, which may promote to one.
        assert!(m.reachable(&board("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1")));
        // Neither side has a rook or a pawn left on one side: never again.
        assert!(!m.reachable(&board("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1")));
        // Too few pieces in all for `RP` on one side and `R` on the other.
        assert!(!m.reachable(&board("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")));
        // Reachable is never false where the material matches.
        for fen in [
            "4k2r/8/8/8/8/8/P7/R3K3 w - - 0 1",
            "4k2r/p7/8/8/8/8/8/R3K3 w - - 0 1",
        ] {
            assert!(m.matches(&board(fen)) && m.reachable(&board(fen)), "{fen}");
        }
        let as_written = m.clone().as_written();
        assert!(!as_written.reachable(&board("4k2r/p7/8/8/8/8/8/R3K3 w - - 0 1")));
    }

    #[test]
    fn bad_material() {
        let mut messages = crate::golden::Messages::default();
        messages.push("RP".parse::<Material>().unwrap_err());
        messages.push("RX NB".parse::<Material>().unwrap_err());
        messages.push("RR NB".parse::<Material>().unwrap_err());
        messages.check("material-bad_material");
    }
}
