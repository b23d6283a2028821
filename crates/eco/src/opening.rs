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

    /// Adds or corrects a game's `ECO`, `Opening` and `Variation` tags from this opening (a
    /// stale `Variation` or `SubVariation` is removed: the name already holds any
    /// sub-variation).
    ///
    /// ```
    /// use tabia_eco::{Table, position::notation::pgn::Game};
    ///
    /// let mut game: Game = "[SubVariation \"x\"]\n\n1. e4 e6 2. d4 d5 *".parse()?;
    /// let table = Table::embedded();
    /// let m = table.classify_game(&game)?.matched().expect("named");
    /// m.opening.set_tags(&mut game);
    /// assert_eq!(game.tag("ECO"), Some("C00"));
    /// assert_eq!(game.tag("Opening"), Some("French Defense"));
    /// assert_eq!(game.tag("SubVariation"), None);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_tags(&self, game: &mut tabia_position::notation::pgn::Game) {
        game.set_tag("ECO", Some(self.eco()));
        game.set_tag("Opening", Some(self.family()));
        game.set_tag("Variation", self.variation());
        game.set_tag("SubVariation", None);
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
