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

/// The criteria that take a value, by the name of their command-line option.
pub(crate) const VALUED: [&str; 18] = [
    "tag",
    "player",
    "white",
    "black",
    "result",
    "elo",
    "date",
    "plies",
    "variant",
    "eco",
    "position",
    "zobrist",
    "moves",
    "fen-pattern",
    "fen-pattern-either",
    "material",
    "material-as-written",
    "piece-count",
];

impl Criterion {
    /// The criterion of `tabia filter`'s option `--NAME VALUE` (`name` without its dashes;
    /// `_` reads as `-`, so `fen_pattern` is `fen-pattern`), or of a feature `--NAME` with
    /// no value: the inverse of `Display`, for programs and bindings that take criteria as
    /// names and values.
    ///
    /// ```
    /// use tabia_select::Criterion;
    ///
    /// let elo = Criterion::from_option("elo", Some("2500..2700"))?;
    /// assert_eq!(elo.to_string(), "--elo 2500..2700");
    /// let mate = Criterion::from_option("checkmate", None)?;
    /// assert_eq!(mate.to_string(), "--checkmate");
    /// assert_eq!("--fen-pattern-either */*/*/*/*/*/*/*".parse::<Criterion>()?.to_string(),
    ///            "--fen-pattern-either */*/*/*/*/*/*/*");
    /// let error = Criterion::from_option("elo", Some("high")).unwrap_err();
    /// assert_eq!(error.what(), "elo");
    /// assert!(Criterion::from_option("colour", Some("w")).is_err());
    /// # Ok::<_, tabia_select::ParseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParseError`]: an unknown name, a value missing or in excess, or the value's own
    /// error.
    pub fn from_option(name: &str, value: Option<&str>) -> Result<Criterion, ParseError> {
        let name = name.trim_start_matches('-').replace('_', "-");
        let Some(value) = value else {
            if let Ok(feature) = name.parse::<Feature>() {
                return Ok(Criterion::Feature(feature));
            }
            return match VALUED.into_iter().find(|v| *v == name) {
                Some(what) => Err(ParseError::new(
                    what,
                    ParseErrorKind::Value { expected: true },
                    &name,
                    0..name.len(),
                )),
                None => Err(unknown(&name)),
            };
        };
        Ok(match name.as_str() {
            "tag" => Criterion::Tag(value.parse()?),
            "player" => Criterion::Player(Side::Either, value.parse()?),
            "white" => Criterion::Player(Side::White, value.parse()?),
            "black" => Criterion::Player(Side::Black, value.parse()?),
            "result" => Criterion::Result(value.parse()?),
            "elo" => Criterion::Elo(value.parse()?),
            "date" => Criterion::Date(value.parse()?),
            "plies" => Criterion::Plies(value.parse()?),
            "variant" => Criterion::Variant(value.parse()?),
            "eco" => Criterion::Eco(value.parse()?),
            "position" => Criterion::Position(value.parse()?),
            "zobrist" => Criterion::Zobrist(value.parse()?),
            "moves" => Criterion::Moves(value.parse()?),
            "fen-pattern" => Criterion::FenPattern(value.parse()?),
            "fen-pattern-either" => Criterion::FenPattern(value.parse::<FenPattern>()?.either()),
            "material" => Criterion::Material(value.parse()?),
            "material-as-written" => Criterion::Material(value.parse::<Material>()?.as_written()),
            "piece-count" => Criterion::PieceCount(value.parse()?),
            _ if let Ok(feature) = name.parse::<Feature>() => {
                return Err(ParseError::new(
                    feature.as_str(),
                    ParseErrorKind::Value { expected: false },
                    &name,
                    0..name.len(),
                ));
            }
            _ => return Err(unknown(&name)),
        })
    }
}

fn unknown(name: &str) -> ParseError {
    ParseError::new(
        "filter",
        ParseErrorKind::UnknownCriterion,
        name,
        0..name.len(),
    )
}

/// `--NAME VALUE` or `--FEATURE`, as `Display` writes a criterion; `--NAME=VALUE` too, as the
/// command line takes an option (the dashes are optional: `white Carlsen`, `white=Carlsen`).
/// The name ends at the first space or `=`, so `--tag Date>=2020` and `--tag=Date>=2020` are
/// the same criterion.
///
/// ```
/// use tabia_select::Criterion;
///
/// let flag: Criterion = "--white=Carlsen".parse()?;
/// assert_eq!(flag.to_string(), "--white Carlsen");
/// assert_eq!("--tag=Date>=2020".parse::<Criterion>()?.to_string(), "--tag Date>=2020");
/// // A tag compared without `--tag` is no criterion; the message shows how to write it.
/// let bare = "White=Carlsen".parse::<Criterion>().unwrap_err();
/// assert!(bare.to_string().contains("`--tag White=Carlsen`"));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
impl FromStr for Criterion {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Criterion, ParseError> {
        let text = text.trim();
        let name_end = text
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(text.len());
        let (name, rest) = text.split_at(name_end);
        // The separator (a space or `=`), then the value.
        let value = rest.get(1..).map(str::trim_start);
        Criterion::from_option(name, value).map_err(|error| {
            // `White=Carlsen` or `Date>=2020`: a tag comparison, written without `--tag`.
            let bare_tag = *error.kind() == ParseErrorKind::UnknownCriterion
                && is_tag_name(name.trim_start_matches('-'))
                && text.trim_start_matches('-').parse::<TagCriterion>().is_ok();
            if bare_tag {
                let tag = text.trim_start_matches('-');
                ParseError::new(
                    "filter",
                    ParseErrorKind::BareTag(format!("--tag {tag}")),
                    text,
                    0..text.len(),
                )
            } else {
                error
            }
        })
    }
}

/// Whether `name`, not a criterion's, is a tag's: a PGN tag name starts with a capital
/// letter (`White`, `Date`, `ECO`), a criterion's never does.
fn is_tag_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
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

    /// `from_option` is the inverse of `Display`, for every kind of criterion.
    #[test]
    fn from_option_reads_what_display_writes() {
        let mut messages = crate::golden::Messages::default();
        let texts = [
            "--tag Date>=2020",
            "--player Carlsen",
            "--white Carlsen",
            "--black Nakamura",
            "--result 1-0",
            "--elo 2500..2700",
            "--date 2020..2021",
            "--plies 40..",
            "--variant chess960",
            "--eco B90-B99",
            "--position startpos",
            "--zobrist 463b96181691fc9c",
            "--moves e4 e5",
            "--fen-pattern */*/*/*/*/*/*/*",
            "--fen-pattern-either */*/*/*/*/*/*/*",
            "--material QR qr",
            "--material-as-written QR qr",
            "--piece-count 3..5",
            "--checkmate",
            "--has-clocks",
        ];
        for text in texts {
            let criterion: Criterion = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let again: Criterion = criterion.to_string().parse().unwrap();
            assert_eq!(again.to_string(), criterion.to_string(), "{text}");
        }
        let errors: Vec<String> = [
            ("elo", Some("high")),
            ("colour", Some("w")),
            ("elo", None),
            ("checkmate", Some("yes")),
        ]
        .into_iter()
        .map(|(n, v)| Criterion::from_option(n, v).unwrap_err().to_string())
        .collect();
        messages.push(errors.join("\n"));
        messages.check("criterion-from_option_reads_what_display_writes");
    }

    /// `--NAME=VALUE`, as the command line takes an option, reads as `--NAME VALUE` (issue
    /// 40 §6); a tag compared without `--tag` is refused with the criterion to write.
    #[test]
    fn flag_form_reads_as_the_command_line() {
        let same = [
            ("--white=Carlsen", "--white Carlsen"),
            ("white=Carlsen", "--white Carlsen"),
            ("--elo=2500..2700", "--elo 2500..2700"),
            ("--tag=Date>=2020", "--tag Date>=2020"),
            ("--tag Date>=2020", "--tag Date>=2020"),
            ("--moves=e4 e5", "--moves 1. e4 e5"),
            (
                "--position=8/8/8/4k3/8/8/8/4K3 w - -",
                "--position 8/8/8/4k3/8/8/8/4K3 w - -",
            ),
        ];
        for (text, display) in same {
            let criterion: Criterion = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(criterion.to_string(), display, "{text}");
        }
        let mut messages = crate::golden::Messages::default();
        for text in [
            "White=Carlsen",
            "--Date>=2020",
            "--colour=w",
            "--checkmate=yes",
            "--elo=",
        ] {
            let error = text.parse::<Criterion>().unwrap_err();
            messages.push(format!("{text}\n{error}"));
        }
        messages.check("criterion-flag_form_reads_as_the_command_line");
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
