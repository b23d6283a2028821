//! [`Bounds`]: `MIN..MAX` ranges of numbers (Elo, plies, piece counts); [`GameNumbers`]:
//! games by number (`5,17-20`).

use std::{fmt, str::FromStr};

use crate::error::{ParseError, ParseErrorKind};

/// An inclusive range of whole numbers: `MIN..MAX`, `MIN..`, `..MAX`, or one value `N`
/// (exactly `N`).
///
/// ```
/// use tabia_select::Bounds;
///
/// let r: Bounds = "20..40".parse()?;
/// assert!(r.contains(20) && r.contains(40) && !r.contains(41));
/// assert_eq!("..10".parse::<Bounds>()?.to_string(), "..10");
/// assert_eq!("7".parse::<Bounds>()?, Bounds::new(Some(7), Some(7)));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bounds {
    /// The least value (none: no lower bound).
    pub min: Option<u32>,
    /// The greatest value (none: no upper bound).
    pub max: Option<u32>,
}

impl Bounds {
    /// The range from `min` to `max`, inclusive.
    pub fn new(min: Option<u32>, max: Option<u32>) -> Bounds {
        Bounds { min, max }
    }

    /// Whether `value` is in the range.
    pub fn contains(&self, value: u32) -> bool {
        self.min.is_none_or(|min| value >= min) && self.max.is_none_or(|max| value <= max)
    }

    /// Whether every value from `value` on is above the range.
    pub fn is_below(&self, value: u32) -> bool {
        self.max.is_some_and(|max| value > max)
    }

    /// Parses a range; with `single_is_min`, one value `N` means `N..` (for `--elo 2500`).
    pub(crate) fn parse(
        what: &'static str,
        text: &str,
        single_is_min: bool,
    ) -> Result<Bounds, ParseError> {
        let number = |part: &str, offset: usize| -> Result<Option<u32>, ParseError> {
            let trimmed = part.trim();
            if trimmed.is_empty() {
                return Ok(None);
            }
            trimmed.parse::<u32>().map(Some).map_err(|_| {
                ParseError::new(
                    what,
                    ParseErrorKind::Number,
                    text,
                    offset..offset + part.len(),
                )
            })
        };
        if text.trim().is_empty() {
            return Err(ParseError::new(
                what,
                ParseErrorKind::Empty,
                text,
                0..text.len(),
            ));
        }
        let bounds = match text.find("..") {
            Some(dots) => Bounds::new(
                number(&text[..dots], 0)?,
                number(&text[dots + 2..], dots + 2)?,
            ),
            None => {
                // `2500-2700`: a range written with a dash (no bound is negative).
                if let Some((low, high)) = text.split_once('-')
                    && [low, high]
                        .iter()
                        .all(|part| part.trim().parse::<u32>().is_ok())
                {
                    let dash = low.len();
                    return Err(ParseError::new(
                        what,
                        ParseErrorKind::DashRange,
                        text,
                        dash..dash + 1,
                    ));
                }
                let value = number(text, 0)?;
                Bounds::new(value, if single_is_min { None } else { value })
            }
        };
        if let (Some(min), Some(max)) = (bounds.min, bounds.max)
            && min > max
        {
            return Err(ParseError::new(
                what,
                ParseErrorKind::EmptyRange,
                text,
                0..text.len(),
            ));
        }
        Ok(bounds)
    }
}

impl FromStr for Bounds {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Bounds, ParseError> {
        Bounds::parse("range", text, false)
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (Some(min), Some(max)) if min == max => write!(f, "{min}"),
            (min, max) => {
                if let Some(min) = min {
                    write!(f, "{min}")?;
                }
                f.write_str("..")?;
                if let Some(max) = max {
                    write!(f, "{max}")?;
                }
                Ok(())
            }
        }
    }
}

/// Games by their number in their input (`--game 5,17-20`): numbers and ranges `A-B` (or
/// `A..B`), comma-separated; games are numbered from 1, as diagnostics name them.
///
/// ```
/// use tabia_select::GameNumbers;
///
/// let games: GameNumbers = "5,17-20".parse()?;
/// assert!(games.contains(5) && games.contains(18) && !games.contains(6) && !games.contains(21));
/// assert_eq!(games.to_string(), "5,17-20");
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct GameNumbers(Vec<(u64, u64)>);

impl GameNumbers {
    /// Whether game `number` is one of them.
    pub fn contains(&self, number: u64) -> bool {
        self.0
            .iter()
            .any(|&(low, high)| low <= number && number <= high)
    }
}

impl FromStr for GameNumbers {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<GameNumbers, ParseError> {
        let err = |kind, at: usize, len: usize| {
            Err(ParseError::new("game", kind, text, at..at + len.max(1)))
        };
        if text.trim().is_empty() {
            return err(ParseErrorKind::Empty, 0, text.len());
        }
        let mut ranges = Vec::new();
        let mut at = 0;
        for part in text.split(',') {
            let number = |s: &str, offset: usize| -> Result<u64, ParseError> {
                match s.trim().parse::<u64>() {
                    Ok(n) if n > 0 => Ok(n),
                    _ => Err(ParseError::new(
                        "game",
                        ParseErrorKind::Number,
                        text,
                        offset..offset + s.len().max(1),
                    )),
                }
            };
            let (low, high) = match part.split_once("..").or_else(|| part.split_once('-')) {
                Some((low, high)) => {
                    let dash = part.len() - high.len();
                    (number(low, at)?, number(high, at + dash)?)
                }
                None => {
                    let n = number(part, at)?;
                    (n, n)
                }
            };
            if low > high {
                return err(ParseErrorKind::EmptyRange, at, part.len());
            }
            ranges.push((low, high));
            at += part.len() + 1;
        }
        Ok(GameNumbers(ranges))
    }
}

impl fmt::Display for GameNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(low, high)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if low == high {
                write!(f, "{low}")?;
            } else {
                write!(f, "{low}-{high}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_display_round_trip() {
        for text in ["1..2", "5..", "..9", "7", "0"] {
            let bounds: Bounds = text.parse().unwrap();
            assert_eq!(bounds.to_string(), text);
            assert_eq!(bounds.to_string().parse::<Bounds>().unwrap(), bounds);
        }
        assert_eq!(
            Bounds::parse("elo", "2500", true).unwrap(),
            Bounds::new(Some(2500), None)
        );
    }

    #[test]
    fn bad_ranges() {
        let mut messages = crate::golden::Messages::default();
        messages.push("10..x".parse::<Bounds>().unwrap_err());
        messages.push("9..3".parse::<Bounds>().unwrap_err());
        messages.push("40-60".parse::<Bounds>().unwrap_err());
        messages.push("5,x-9".parse::<GameNumbers>().unwrap_err());
        messages.push("5,20-17".parse::<GameNumbers>().unwrap_err());
        messages.push("0".parse::<GameNumbers>().unwrap_err());
        messages.push("".parse::<Bounds>().unwrap_err());
        messages.check("range-bad_ranges");
    }
}
