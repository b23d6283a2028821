//! [`Opening`]: one named position of a table.

use std::{borrow::Cow, fmt};

/// A named opening position: its ECO code, the Scid extended code when the table has one, its
/// name, and the moves that lead to it from the starting position.
///
/// Names are kept as the table gives them. For tables in the lichess style the opening and
/// its variation are separated by `": "` (`"Sicilian Defense: Najdorf Variation, English
/// Attack"`); [`Opening::family`] and [`Opening::variation`] split the name there.
///
/// ```
/// let table = tabia_eco::Table::embedded();
/// let pos = tabia_eco::position::Position::new().after("e4")?.after("e6")?;
/// let french = table.lookup(&pos.key()).expect("in the table");
/// assert_eq!(french.eco(), "C00");
/// assert_eq!(french.moves(), "1. e4 e6");
/// assert_eq!(french.ply(), 2);
/// assert_eq!(french.family(), "French Defense");
/// # Ok::<_, tabia_eco::position::MoveError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Opening {
    pub(crate) eco: Cow<'static, str>,
    pub(crate) extended: Option<Cow<'static, str>>,
    pub(crate) name: Cow<'static, str>,
    pub(crate) moves: Cow<'static, str>,
    pub(crate) ply: u32,
    /// Whether the name is in the lichess style: [`Opening::set_tags`] writes it whole to the
    /// `Opening` tag, as lichess does.
    pub(crate) lichess: bool,
}

/// What [`Opening::set_tags`] did to a game's tags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TagChanges {
    /// Tags the game did not have.
    pub added: u64,
    /// Tags whose value changed.
    pub changed: u64,
    /// Tags taken away (a `Variation` or `SubVariation` the name now holds).
    pub removed: u64,
}

impl TagChanges {
    /// Whether no tag was touched.
    pub fn is_empty(&self) -> bool {
        *self == TagChanges::default()
    }
}

impl std::ops::AddAssign for TagChanges {
    fn add_assign(&mut self, other: TagChanges) {
        self.added += other.added;
        self.changed += other.changed;
        self.removed += other.removed;
    }
}

impl Opening {
    /// The ECO code, like `B90`.
    pub fn eco(&self) -> &str {
        &self.eco
    }

    /// The Scid extended code, like `B90a`, if the table gives one.
    pub fn extended(&self) -> Option<&str> {
        self.extended.as_deref()
    }

    /// The full name, as the table gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The opening: the name up to the first `": "` (all of it if there is none).
    pub fn family(&self) -> &str {
        self.name
            .split_once(": ")
            .map_or(&*self.name, |(family, _)| family)
    }

    /// The variation: the name after the first `": "`, if there is one.
    pub fn variation(&self) -> Option<&str> {
        self.name
            .split_once(": ")
            .map(|(_, variation)| variation)
            .filter(|v| !v.is_empty())
    }

    /// The moves of the table's line to this position, as PGN movetext (`1. e4 c5 2. Nf3`).
    pub fn moves(&self) -> &str {
        &self.moves
    }

    /// How many plies the table's line has (0 for the starting position).
    pub fn ply(&self) -> usize {
        self.ply as usize
    }

    /// Adds or corrects a game's `ECO` and `Opening` tags from this opening, and says what
    /// it changed: a tag that already holds the value is left alone.
    ///
    /// A name in the lichess style (the lichess tables, embedded or TSV) goes whole to the
    /// `Opening` tag, as lichess writes it, and a `Variation` or `SubVariation` tag is removed
    /// (the name holds the variation). Other names (Scid's, pgn-extract's) are split as
    /// pgn-extract writes them: the [family](Opening::family) to `Opening`, the
    /// [variation](Opening::variation) to `Variation`, and a stale `SubVariation` removed.
    ///
    /// ```
    /// use tabia_eco::{Openings, Table, TagChanges, position::notation::pgn::Game};
    ///
    /// let text = "[ECO \"C00\"]\n[Opening \"French Defense\"]\n\n1. e4 e6 2. d4 d5 3. Nc3 *";
    /// let mut game: Game = text.parse()?;
    /// let m = Table::embedded().classify_game(&game)?.matched().expect("named");
    /// let changes = m.opening.set_tags(&mut game);
    /// assert_eq!(game.tag("ECO"), Some("C10"));
    /// assert_eq!(game.tag("Opening"), Some("French Defense: Paulsen Variation"));
    /// assert_eq!(changes, TagChanges { added: 0, changed: 2, removed: 0 });
    ///
    /// let mut game: Game = text.parse()?;
    /// let m = Table::builtin(Openings::Scid).classify_game(&game)?.matched().expect("named");
    /// let changes = m.opening.set_tags(&mut game);
    /// assert_eq!(game.tag("Opening"), Some("French"));
    /// assert_eq!(game.tag("Variation"), Some("3.Nc3"));
    /// assert_eq!(changes, TagChanges { added: 1, changed: 2, removed: 0 });
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_tags(&self, game: &mut tabia_position::notation::pgn::Game) -> TagChanges {
        let (opening, variation) = if self.lichess {
            (self.name(), None)
        } else {
            (self.family(), self.variation())
        };
        let mut changes = TagChanges::default();
        for (name, value) in [
            ("ECO", Some(self.eco())),
            ("Opening", Some(opening)),
            ("Variation", variation),
            ("SubVariation", None),
        ] {
            match (game.tag(name), value) {
                (None, None) => continue,
                (Some(old), Some(new)) if old == new => continue,
                (None, Some(_)) => changes.added += 1,
                (Some(_), Some(_)) => changes.changed += 1,
                (Some(_), None) => changes.removed += 1,
            }
            game.set_tag(name, value);
        }
        changes
    }
}

impl fmt::Display for Opening {
    /// `ECO name`, with the extended code instead of the ECO code when there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            self.extended.as_deref().unwrap_or(&*self.eco),
            self.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::movetext;

    fn opening(name: &'static str) -> Opening {
        Opening {
            eco: "B90".into(),
            extended: Some("B90a".into()),
            name: name.into(),
            moves: {
                let mut text = String::new();
                movetext(&mut text, ["e4", "c5", "Nf3"]);
                text.into()
            },
            ply: 3,
            lichess: true,
        }
    }

    #[test]
    fn family_and_variation_split_at_the_first_colon() {
        let o = opening("Sicilian Defense: Najdorf Variation, English Attack");
        assert_eq!(o.family(), "Sicilian Defense");
        assert_eq!(o.variation(), Some("Najdorf Variation, English Attack"));
        let plain = opening("Sicilian Defense");
        assert_eq!(
            (plain.family(), plain.variation()),
            ("Sicilian Defense", None)
        );
    }

    #[test]
    fn movetext_numbers_white_moves() {
        assert_eq!(opening("x").moves(), "1. e4 c5 2. Nf3");
        let mut text = String::from("stale");
        movetext(&mut text, []);
        assert_eq!(text, "");
        assert_eq!(opening("Sicilian").to_string(), "B90a Sicilian");
    }
}
