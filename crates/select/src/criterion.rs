//! [`Criterion`]: one selection criterion of any kind, and [`Feature`]s of a game.

use std::{fmt, str::FromStr};

use crate::{
    date::DateRange,
    error::{ParseError, ParseErrorKind},
    header::{EcoRange, EloRange, ResultCriterion, VariantName},
    material::Material,
    pattern::FenPattern,
    position::{MoveSequence, PositionTarget, Zobrist},
    range::Bounds,
    tag::TagCriterion,
    text::NamePattern,
};

/// A property of a whole game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The mainline ends in checkmate.
    Checkmate,
    /// The mainline ends in stalemate.
    Stalemate,
    /// The mainline ends with neither side able to mate (insufficient material).
    Insufficient,
    /// A position occurs three times in the mainline (threefold repetition).
    Repetition,
    /// Fifty moves by each side without a capture or a pawn move (the halfmove clock reaches 100).
    Fifty,
    /// A pawn promotes to a knight, bishop or rook.
    Underpromotion,
    /// The game has a comment.
    Commented,
    /// The game has a variation.
    HasVariations,
    /// The game has clock comments (`[%clk 0:03:00]`).
    HasClocks,
    /// The player with the higher `WhiteElo`/`BlackElo` won.
    HigherRatedWon,
    /// The player with the lower `WhiteElo`/`BlackElo` won.
    LowerRatedWon,
}

impl Feature {
    /// Every feature, in the order of the command line's options.
    pub const ALL: [Feature; 11] = [
        Feature::Checkmate,
        Feature::Stalemate,
        Feature::Insufficient,
        Feature::Repetition,
        Feature::Fifty,
        Feature::Underpromotion,
        Feature::Commented,
        Feature::HasVariations,
        Feature::HasClocks,
        Feature::HigherRatedWon,
        Feature::LowerRatedWon,
    ];

    /// The feature's name, as its command-line option without the dashes.
    pub fn as_str(self) -> &'static str {
        match self {
            Feature::Checkmate => "checkmate",
            Feature::Stalemate => "stalemate",
            Feature::Insufficient => "insufficient",
            Feature::Repetition => "repetition",
            Feature::Fifty => "fifty",
            Feature::Underpromotion => "underpromotion",
            Feature::Commented => "commented",
            Feature::HasVariations => "has-variations",
            Feature::HasClocks => "has-clocks",
            Feature::HigherRatedWon => "higher-rated-won",
            Feature::LowerRatedWon => "lower-rated-won",
        }
    }
}

impl FromStr for Feature {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Feature, ParseError> {
        Feature::ALL
            .into_iter()
            .find(|f| f.as_str() == text)
            .ok_or_else(|| ParseError::new("feature", ParseErrorKind::Empty, text, 0..text.len()))
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which player a name criterion looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// White or Black (`--player`).
    Either,
    /// White (`--white`).
    White,
    /// Black (`--black`).
    Black,
}

/// One criterion. Each kind is a small type with `FromStr` and `Display`; `Display` of a
/// `Criterion` is its command-line form (`--tag Date>=2020`), used to say which criterion
/// matched.
#[derive(Debug, Clone)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // A query holds a handful: their size does not matter.
pub enum Criterion {
    /// `--tag 'NAME OP VALUE'`
    Tag(TagCriterion),
    /// `--player`, `--white`, `--black`
    Player(Side, NamePattern),
    /// `--result`
    Result(ResultCriterion),
    /// `--elo MIN[..MAX]`
    Elo(EloRange),
    /// `--date FROM..TO`
    Date(DateRange),
    /// `--plies MIN..MAX`: the number of mainline plies.
    Plies(Bounds),
    /// `--variant`
    Variant(VariantName),
    /// `--eco`: from the `ECO` tag, or by position with [`Options::eco_by_position`](crate::Options).
    Eco(EcoRange),
    /// `--position`
    Position(PositionTarget),
    /// `--zobrist`
    Zobrist(Zobrist),
    /// `--moves`
    Moves(MoveSequence),
    /// `--fen-pattern`, `--fen-pattern-either`
    FenPattern(FenPattern),
    /// `--material`, `--material-as-written`
    Material(Material),
    /// `--piece-count`: the number of pieces on the board, kings included.
    PieceCount(Bounds),
    /// `--checkmate`, `--stalemate`, …
    Feature(Feature),
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Criterion::Tag(c) => write!(f, "--tag {c}"),
            Criterion::Player(Side::Either, c) => write!(f, "--player {c}"),
            Criterion::Player(Side::White, c) => write!(f, "--white {c}"),
            Criterion::Player(Side::Black, c) => write!(f, "--black {c}"),
            Criterion::Result(c) => write!(f, "--result {c}"),
            Criterion::Elo(c) => write!(f, "--elo {c}"),
            Criterion::Date(c) => write!(f, "--date {c}"),
            Criterion::Plies(c) => write!(f, "--plies {c}"),
            Criterion::Variant(c) => write!(f, "--variant {c}"),
            Criterion::Eco(c) => write!(f, "--eco {c}"),
            Criterion::Position(c) => write!(f, "--position {c}"),
            Criterion::Zobrist(c) => write!(f, "--zobrist {c}"),
            Criterion::Moves(c) => write!(f, "--moves {c}"),
            Criterion::FenPattern(c) if c.is_either() => write!(f, "--fen-pattern-either {c}"),
            Criterion::FenPattern(c) => write!(f, "--fen-pattern {c}"),
            Criterion::Material(c) if c.is_as_written() => write!(f, "--material-as-written {c}"),
            Criterion::Material(c) => write!(f, "--material {c}"),
            Criterion::PieceCount(c) => write!(f, "--piece-count {c}"),
            Criterion::Feature(c) => write!(f, "--{c}"),
        }
    }
}

/// Criteria of the same kind are alternatives (OR); different kinds all must hold (AND).
/// Tags group by name: `--tag White=A --tag White=B` is either, `--tag White=A --tag Black=B`
/// both.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum GroupKey {
    Tag(String),
    Player(Side),
    Result,
    Elo,
    Date,
    Plies,
    Variant,
    Eco,
    Position,
    Zobrist,
    Moves,
    FenPattern,
    Material,
    PieceCount,
    Feature(Feature),
}

impl Criterion {
    pub(crate) fn group(&self) -> GroupKey {
        match self {
            Criterion::Tag(c) => GroupKey::Tag(c.name().to_owned()),
            Criterion::Player(side, _) => GroupKey::Player(*side),
            Criterion::Result(_) => GroupKey::Result,
            Criterion::Elo(_) => GroupKey::Elo,
            Criterion::Date(_) => GroupKey::Date,
            Criterion::Plies(_) => GroupKey::Plies,
            Criterion::Variant(_) => GroupKey::Variant,
            Criterion::Eco(_) => GroupKey::Eco,
            Criterion::Position(_) => GroupKey::Position,
            Criterion::Zobrist(_) => GroupKey::Zobrist,
            Criterion::Moves(_) => GroupKey::Moves,
            Criterion::FenPattern(_) => GroupKey::FenPattern,
            Criterion::Material(_) => GroupKey::Material,
            Criterion::PieceCount(_) => GroupKey::PieceCount,
            Criterion::Feature(f) => GroupKey::Feature(*f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_round_trip() {
        for f in Feature::ALL {
            assert_eq!(f.to_string().parse::<Feature>().unwrap(), f);
        }
    }

    #[test]
    fn display_is_the_command_line() {
        let c = Criterion::Tag("Date >= 2020".parse().unwrap());
        assert_eq!(c.to_string(), "--tag Date>=2020");
        let c = Criterion::FenPattern("*/*/*/*/*/*/*/*".parse::<FenPattern>().unwrap().either());
        assert_eq!(c.to_string(), "--fen-pattern-either */*/*/*/*/*/*/*");
        assert_eq!(
            Criterion::Feature(Feature::HasClocks).to_string(),
            "--has-clocks"
        );
    }
}
