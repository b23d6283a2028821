//! Criteria decided from a game's tags alone: result, ratings, variant, ECO code.

use std::{fmt, str::FromStr};

use crate::{
    error::{ParseError, ParseErrorKind},
    range::Bounds,
};

/// A result criterion: `1-0`, `0-1`, `1/2-1/2` (or `1/2`, `draw`), `*`, or `decisive`
/// (`1-0` or `0-1`). It reads the `Result` tag.
///
/// ```
/// use tabia_select::ResultCriterion;
///
/// let r: ResultCriterion = "decisive".parse()?;
/// assert!(r.matches("0-1") && !r.matches("1/2-1/2") && !r.matches("*"));
/// assert_eq!("1/2".parse::<ResultCriterion>()?.to_string(), "1/2-1/2");
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultCriterion {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`
    Unfinished,
    /// `1-0` or `0-1`
    Decisive,
}

impl ResultCriterion {
    /// Whether a `Result` tag with `value` matches.
    pub fn matches(self, value: &str) -> bool {
        match self {
            ResultCriterion::WhiteWins => value == "1-0",
            ResultCriterion::BlackWins => value == "0-1",
            ResultCriterion::Draw => value == "1/2-1/2",
            ResultCriterion::Unfinished => value == "*",
            ResultCriterion::Decisive => value == "1-0" || value == "0-1",
        }
    }
}

impl FromStr for ResultCriterion {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<ResultCriterion, ParseError> {
        Ok(match text.trim() {
            "1-0" => ResultCriterion::WhiteWins,
            "0-1" => ResultCriterion::BlackWins,
            "1/2-1/2" | "1/2" | "½-½" | "draw" => ResultCriterion::Draw,
            "*" => ResultCriterion::Unfinished,
            "decisive" => ResultCriterion::Decisive,
            _ => {
                return Err(ParseError::new(
                    "result",
                    ParseErrorKind::Result,
                    text,
                    0..text.len(),
                ));
            }
        })
    }
}

impl fmt::Display for ResultCriterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResultCriterion::WhiteWins => "1-0",
            ResultCriterion::BlackWins => "0-1",
            ResultCriterion::Draw => "1/2-1/2",
            ResultCriterion::Unfinished => "*",
            ResultCriterion::Decisive => "decisive",
        })
    }
}

/// `--elo MIN[..MAX]`: both players' ratings (`WhiteElo`, `BlackElo`) are in the range; one
/// value is a minimum. A game without both ratings does not match.
///
/// ```
/// use tabia_select::EloRange;
///
/// let e: EloRange = "2500".parse()?;
/// assert!(e.matches(Some("2500"), Some("2710")));
/// assert!(!e.matches(Some("2499"), Some("2710")));
/// assert!(!e.matches(Some("2600"), None));
/// assert!("2000..2200".parse::<EloRange>()?.matches(Some("2000"), Some("2200")));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EloRange(pub Bounds);

impl EloRange {
    /// Whether a game with these `WhiteElo` and `BlackElo` values matches.
    pub fn matches(&self, white: Option<&str>, black: Option<&str>) -> bool {
        let ok = |v: Option<&str>| {
            v.and_then(|v| v.trim().parse::<u32>().ok())
                .is_some_and(|v| self.0.contains(v))
        };
        ok(white) && ok(black)
    }
}

impl FromStr for EloRange {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<EloRange, ParseError> {
        Bounds::parse("elo", text, true).map(EloRange)
    }
}

impl fmt::Display for EloRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.min, self.0.max) {
            (Some(min), None) => write!(f, "{min}"),
            _ => self.0.fmt(f),
        }
    }
}

/// A variant name for `--variant`, compared by its canonical name
/// ([`tabia_notation::pgn::variant_name`]): `standard` (also a game without a `Variant` tag),
/// `chess960` (also `Fischerandom`, `Chess 960`, …), `antichess` (also `Giveaway`), or any
/// other name as `Variant` tags write it.
///
/// ```
/// use tabia_select::VariantName;
///
/// let v: VariantName = "chess960".parse()?;
/// assert!(v.matches(Some("Fischerandom")) && !v.matches(None));
/// assert!("standard".parse::<VariantName>()?.matches(None));
/// assert!("crazyhouse".parse::<VariantName>()?.matches(Some("Crazyhouse")));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariantName(String);

fn normalize_variant(name: &str) -> String {
    tabia_notation::pgn::variant_name(Some(name)).into_owned()
}

impl VariantName {
    /// Whether a game whose `Variant` tag is `value` (none: no tag) matches.
    pub fn matches(&self, value: Option<&str>) -> bool {
        tabia_notation::pgn::variant_name(value) == self.0
    }
}

impl FromStr for VariantName {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<VariantName, ParseError> {
        if text.trim().is_empty()
            || !text
                .chars()
                .all(|c| c.is_alphanumeric() || " -_".contains(c))
        {
            return Err(ParseError::new(
                "variant",
                ParseErrorKind::Variant,
                text,
                0..text.len(),
            ));
        }
        Ok(VariantName(normalize_variant(text)))
    }
}

impl fmt::Display for VariantName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// ECO codes for `--eco`: one code (`B90`), a prefix (`B9` is B90–B99, `B` is B00–B99), or a
/// range of either (`A00-B19`, `C6-C9`). Extended codes (`C95e`) match by their first three
/// characters.
///
/// ```
/// use tabia_select::EcoRange;
///
/// let r: EcoRange = "A0-B1".parse()?;
/// assert!(r.matches("A00") && r.matches("B19") && !r.matches("B20"));
/// assert!("B9".parse::<EcoRange>()?.matches("B97"));
/// assert!("C95".parse::<EcoRange>()?.matches("C95e"));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EcoRange {
    text: String,
    first: u16,
    last: u16,
}

/// An ECO code or prefix as the interval of codes it covers, codes numbered `letter * 100 +
/// number`.
fn eco_interval(part: &str) -> Option<(u16, u16)> {
    let bytes = part.as_bytes();
    let letter = match bytes.first()? {
        b @ b'A'..=b'E' => u16::from(b - b'A'),
        b @ b'a'..=b'e' => u16::from(b - b'a'),
        _ => return None,
    };
    let digits = &bytes[1..];
    if digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let base = letter * 100;
    Some(match digits {
        [] => (base, base + 99),
        [d] => {
            let d = u16::from(d - b'0');
            (base + d * 10, base + d * 10 + 9)
        }
        [a, b] => {
            let n = u16::from(a - b'0') * 10 + u16::from(b - b'0');
            (base + n, base + n)
        }
        _ => return None,
    })
}

impl EcoRange {
    /// Whether an ECO code (from an `ECO` tag or a classification) is in the range.
    pub fn matches(&self, code: &str) -> bool {
        let head = code.get(..3).unwrap_or(code);
        match eco_interval(head) {
            Some((c, c_end)) if c == c_end => (self.first..=self.last).contains(&c),
            _ => false,
        }
    }
}

impl FromStr for EcoRange {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<EcoRange, ParseError> {
        let bad = |start: usize, end: usize| {
            ParseError::new("eco", ParseErrorKind::Eco, text, start..end)
        };
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => {
                let (first, _) = eco_interval(a).ok_or_else(|| bad(0, a.len()))?;
                let (_, last) = eco_interval(b).ok_or_else(|| bad(a.len() + 1, text.len()))?;
                if first > last {
                    return Err(ParseError::new(
                        "eco",
                        ParseErrorKind::EmptyRange,
                        text,
                        0..text.len(),
                    ));
                }
                (first, last)
            }
            None => eco_interval(text).ok_or_else(|| bad(0, text.len()))?,
        };
        Ok(EcoRange {
            text: text.to_ascii_uppercase(),
            first,
            last,
        })
    }
}

impl fmt::Display for EcoRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eco_ranges() {
        let r: EcoRange = "C".parse().unwrap();
        assert!(r.matches("C00") && r.matches("C99") && !r.matches("D00"));
        let r: EcoRange = "a00-b19".parse().unwrap();
        assert_eq!(r.to_string(), "A00-B19");
        assert!(r.matches("A45") && !r.matches("B20") && !r.matches("?"));
    }

    #[test]
    fn results_round_trip() {
        for text in ["1-0", "0-1", "1/2-1/2", "*", "decisive"] {
            assert_eq!(text.parse::<ResultCriterion>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn bad_values() {
        let mut messages = crate::golden::Messages::default();
        messages.push("1-1".parse::<ResultCriterion>().unwrap_err());
        messages.push("B19-A00".parse::<EcoRange>().unwrap_err());
        messages.push("A00-F19".parse::<EcoRange>().unwrap_err());
        messages.push("2500..x".parse::<EloRange>().unwrap_err());
        messages.push("".parse::<VariantName>().unwrap_err());
        messages.check("header-bad_values");
    }
}
