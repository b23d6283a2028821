//! The `Variant` tag: which rules a game is played by, matched as people write it.

use std::{fmt, str::FromStr};

use shakmaty::{CastlingMode, variant::Variant};

/// What a `Variant` tag (or a `--variant` option) asks for: the rules, and whether castling
/// is Chess960's.
///
/// ```
/// use tabia_position::{GameVariant, Variant};
///
/// let v: GameVariant = "Three-check".parse()?;
/// assert_eq!(v, GameVariant { variant: Variant::ThreeCheck, chess960: false });
/// assert_eq!(v.to_string(), "Three-check");
/// assert!("chess 960".parse::<GameVariant>()?.chess960);
/// let err = "Seirawan".parse::<GameVariant>().unwrap_err();
/// assert_eq!(err.to_string(), "variant `Seirawan` is not supported (tabia plays Standard, \
///     Chess960, From Position, Antichess, Atomic, Crazyhouse, Horde, King of the Hill, \
///     Racing Kings and Three-check)");
/// # Ok::<_, tabia_position::UnknownVariant>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GameVariant {
    /// The rules ([`Variant::Chess`] for standard chess, Chess960 and "From Position").
    pub variant: Variant,
    /// Chess960 castling, whatever the castling letters say.
    pub chess960: bool,
}

impl GameVariant {
    /// Standard chess.
    pub const STANDARD: GameVariant = GameVariant {
        variant: Variant::Chess,
        chess960: false,
    };

    /// The castling mode it imposes: Chess960 for Chess960, else none (the castling letters
    /// decide).
    pub fn castling_mode(self) -> Option<CastlingMode> {
        self.chess960.then_some(CastlingMode::Chess960)
    }

    /// Whether these are the rules of standard chess (Chess960 included).
    pub fn is_standard(self) -> bool {
        self.variant == Variant::Chess
    }
}

impl From<Variant> for GameVariant {
    fn from(variant: Variant) -> GameVariant {
        GameVariant {
            variant,
            chess960: false,
        }
    }
}

/// The name lichess gives a variant (`Standard`, `Three-check`, `King of the Hill`, …).
pub(crate) fn display_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "Standard",
        Variant::Atomic => "Atomic",
        Variant::Antichess => "Antichess",
        Variant::KingOfTheHill => "King of the Hill",
        Variant::ThreeCheck => "Three-check",
        Variant::Crazyhouse => "Crazyhouse",
        Variant::RacingKings => "Racing Kings",
        Variant::Horde => "Horde",
    }
}

impl fmt::Display for GameVariant {
    /// The lichess name: `Standard`, `Chess960`, `Crazyhouse`, `Three-check`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.variant, self.chess960) {
            (Variant::Chess, true) => f.write_str("Chess960"),
            (variant, true) => write!(f, "{} (Chess960 castling)", display_name(variant)),
            (variant, false) => f.write_str(display_name(variant)),
        }
    }
}

/// A `Variant` tag naming rules that tabia does not play (Seirawan, Sittuyin, Shogi, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant {
    name: String,
}

impl UnknownVariant {
    pub(crate) fn named(name: &str) -> UnknownVariant {
        UnknownVariant {
            name: name.to_owned(),
        }
    }

    /// The variant as written.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "variant `{}` is not supported (tabia plays Standard, Chess960, From Position, \
             Antichess, Atomic, Crazyhouse, Horde, King of the Hill, Racing Kings and \
             Three-check)",
            self.name
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Reads a `Variant` tag value as people write it: case, spaces, dashes, underscores and
/// apostrophes do not matter.
///
/// | rules | accepted spellings (after lower-casing and dropping ` `, `-`, `_`, `'`) |
/// |---|---|
/// | standard chess | empty, `standard`, `chess`, `normal`, `classical`, `fromposition`, `frompos`, `position` |
/// | standard chess, Chess960 castling | `chess960`, `960`, `fischerandom`, `fischerrandom`, `frc`, `chess960(fischerrandom)` |
/// | Antichess | `antichess`, `giveaway`, `suicide`, `anti` |
/// | Atomic | `atomic` |
/// | Crazyhouse | `crazyhouse`, `zh` |
/// | Horde | `horde` |
/// | King of the Hill | `kingofthehill`, `koth` |
/// | Racing Kings | `racingkings` |
/// | Three-check | `threecheck`, `3check` |
///
/// ```
/// use tabia_position::{Variant, parse_variant};
///
/// for tag in ["King of the Hill", "kingofthehill", "KOTH"] {
///     assert_eq!(parse_variant(tag)?.variant, Variant::KingOfTheHill);
/// }
/// assert_eq!(parse_variant("Giveaway")?.variant, Variant::Antichess);
/// assert!(parse_variant("fischerandom")?.chess960);
/// assert_eq!(parse_variant("From Position")?, Default::default());
/// assert_eq!(parse_variant("Shogi").unwrap_err().name(), "Shogi");
/// # Ok::<_, tabia_position::UnknownVariant>(())
/// ```
///
/// # Errors
///
/// [`UnknownVariant`] naming the variant, for rules tabia does not play.
pub fn parse_variant(tag: &str) -> Result<GameVariant, UnknownVariant> {
    let key: String = tag
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\'' | '\t'))
        .flat_map(char::to_lowercase)
        .collect();
    let (variant, chess960) = match key.as_str() {
        "" | "standard" | "chess" | "normal" | "classical" | "fromposition" | "frompos"
        | "position" => (Variant::Chess, false),
        "chess960"
        | "960"
        | "fischerandom"
        | "fischerrandom"
        | "frc"
        | "chess960(fischerrandom)" => (Variant::Chess, true),
        "antichess" | "giveaway" | "suicide" | "anti" => (Variant::Antichess, false),
        "atomic" => (Variant::Atomic, false),
        "crazyhouse" | "zh" => (Variant::Crazyhouse, false),
        "horde" => (Variant::Horde, false),
        "kingofthehill" | "koth" => (Variant::KingOfTheHill, false),
        "racingkings" => (Variant::RacingKings, false),
        "threecheck" | "3check" => (Variant::ThreeCheck, false),
        _ => {
            return Err(UnknownVariant {
                name: tag.trim().to_owned(),
            });
        }
    };
    Ok(GameVariant { variant, chess960 })
}

impl FromStr for GameVariant {
    type Err = UnknownVariant;

    /// As [`parse_variant`].
    fn from_str(s: &str) -> Result<GameVariant, UnknownVariant> {
        parse_variant(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_people_write() {
        let cases = [
            ("Standard", Variant::Chess, false),
            ("From Position", Variant::Chess, false),
            ("Chess960", Variant::Chess, true),
            ("chess 960", Variant::Chess, true),
            ("Fischerandom", Variant::Chess, true),
            ("Chess960 (Fischer Random)", Variant::Chess, true),
            ("Antichess", Variant::Antichess, false),
            ("Giveaway", Variant::Antichess, false),
            ("suicide", Variant::Antichess, false),
            ("Atomic", Variant::Atomic, false),
            ("crazyhouse", Variant::Crazyhouse, false),
            ("Horde", Variant::Horde, false),
            ("King of the Hill", Variant::KingOfTheHill, false),
            ("king-of-the-hill", Variant::KingOfTheHill, false),
            ("Racing Kings", Variant::RacingKings, false),
            ("racing_kings", Variant::RacingKings, false),
            ("Three-check", Variant::ThreeCheck, false),
            ("three check", Variant::ThreeCheck, false),
            ("3-check", Variant::ThreeCheck, false),
        ];
        for (tag, variant, chess960) in cases {
            assert_eq!(
                parse_variant(tag),
                Ok(GameVariant { variant, chess960 }),
                "{tag}"
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for variant in Variant::ALL {
            let v = GameVariant::from(variant);
            assert_eq!(parse_variant(&v.to_string()), Ok(v));
        }
        let chess960 = GameVariant {
            variant: Variant::Chess,
            chess960: true,
        };
        assert_eq!(parse_variant(&chess960.to_string()), Ok(chess960));
    }
}
