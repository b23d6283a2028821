//! [`PgnDate`]: PGN dates with unknown parts, compared as the days they may stand for.

use std::{fmt, str::FromStr};

use crate::error::{ParseError, ParseErrorKind};

/// A date as PGN writes it, `YYYY.MM.DD`, where any part may be unknown (`??`); as a criterion
/// also `YYYY` or `YYYY.MM` (and `-` or `/` between the parts).
///
/// A date stands for the days it may be: `2020.??.??` is any day of 2020. Comparisons are
/// made on these intervals ([`PgnDate::interval`]), so a date is before `2021` only when all
/// its days are.
///
/// ```
/// use tabia_select::PgnDate;
///
/// let d: PgnDate = "2020.05.??".parse()?;
/// assert_eq!(d.interval(), Some((2020_05_01, 2020_05_31)));
/// assert_eq!(d.to_string(), "2020.05.??");
/// assert_eq!("1999".parse::<PgnDate>()?.interval(), Some((1999_01_01, 1999_12_31)));
/// assert_eq!("????.??.??".parse::<PgnDate>()?.interval(), None);
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PgnDate {
    year: Option<u16>,
    month: Option<u8>,
    day: Option<u8>,
    /// How many parts were written (1 to 3), for `Display`.
    parts: u8,
}

impl PgnDate {
    /// The first and last day the date may be, as `YYYYMMDD` numbers; `None` when the year is
    /// unknown.
    pub fn interval(&self) -> Option<(u32, u32)> {
        let year = u32::from(self.year?);
        let (m0, m1) = match self.month {
            Some(m) => (u32::from(m), u32::from(m)),
            None => (1, 12),
        };
        let (d0, d1) = match (self.month, self.day) {
            (Some(_), Some(d)) => (u32::from(d), u32::from(d)),
            _ => (1, 31),
        };
        Some((year * 10_000 + m0 * 100 + d0, year * 10_000 + m1 * 100 + d1))
    }

    /// Reads a date leniently (a game's tag): `None` when it is not a date at all.
    pub(crate) fn from_tag(text: &str) -> Option<PgnDate> {
        text.trim().parse().ok()
    }
}

impl FromStr for PgnDate {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<PgnDate, ParseError> {
        let bad = |start: usize, end: usize| {
            ParseError::new("date", ParseErrorKind::Date, text, start..end)
        };
        if text.is_empty() {
            return Err(bad(0, 0));
        }
        let mut parts = [None::<u16>; 3];
        let mut count = 0;
        let mut offset = 0;
        for (i, part) in text.split(['.', '-', '/']).enumerate() {
            let end = offset + part.len();
            if i >= 3 {
                return Err(bad(offset, text.len()));
            }
            let width = if i == 0 { 4 } else { 2 };
            if part.len() != width {
                return Err(bad(offset, end));
            }
            if part.bytes().all(|b| b == b'?') {
                parts[i] = None;
            } else if part.bytes().all(|b| b.is_ascii_digit()) {
                let value: u16 = part.parse().map_err(|_| bad(offset, end))?;
                let ok = match i {
                    1 => (1..=12).contains(&value),
                    2 => (1..=31).contains(&value),
                    _ => true,
                };
                if !ok {
                    return Err(bad(offset, end));
                }
                parts[i] = Some(value);
            } else {
                return Err(bad(offset, end));
            }
            count = i + 1;
            offset = end + 1;
        }
        Ok(PgnDate {
            year: parts[0],
            month: parts[1].map(|m| m as u8),
            day: parts[2].map(|d| d as u8),
            parts: count as u8,
        })
    }
}

impl fmt::Display for PgnDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}")?,
            None => f.write_str("????")?,
        }
        if self.parts >= 2 {
            match self.month {
                Some(m) => write!(f, ".{m:02}")?,
                None => f.write_str(".??")?,
            }
        }
        if self.parts >= 3 {
            match self.day {
                Some(d) => write!(f, ".{d:02}")?,
                None => f.write_str(".??")?,
            }
        }
        Ok(())
    }
}

/// A range of dates for `--date FROM..TO` (either end may be left out; one date is that
/// date): a game matches when all the days its date may be are in the range.
///
/// ```
/// use tabia_select::DateRange;
///
/// let r: DateRange = "2019.06..2020".parse()?;
/// assert!(r.contains_tag("2019.06.01"));
/// assert!(r.contains_tag("2020.??.??"));
/// assert!(!r.contains_tag("2019.??.??"));
/// assert!(!r.contains_tag("????.??.??"));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateRange {
    from: Option<PgnDate>,
    to: Option<PgnDate>,
}

impl DateRange {
    /// Whether the date of a game (a `Date` tag's value) is in the range.
    pub fn contains_tag(&self, value: &str) -> bool {
        let Some((first, last)) = PgnDate::from_tag(value).and_then(|d| d.interval()) else {
            return false;
        };
        let after = self
            .from
            .and_then(|d| d.interval())
            .is_none_or(|(from, _)| first >= from);
        let before = self
            .to
            .and_then(|d| d.interval())
            .is_none_or(|(_, to)| last <= to);
        after && before
    }
}

impl FromStr for DateRange {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<DateRange, ParseError> {
        let date = |part: &str, offset: usize| -> Result<Option<PgnDate>, ParseError> {
            if part.is_empty() {
                return Ok(None);
            }
            let date = part
                .parse::<PgnDate>()
                .map_err(|err| err.shift("date", text, offset))?;
            if date.year.is_none() {
                return Err(ParseError::new(
                    "date",
                    ParseErrorKind::Date,
                    text,
                    offset..offset + part.len(),
                ));
            }
            Ok(Some(date))
        };
        let text_trimmed = text.trim();
        if text_trimmed.is_empty() || text_trimmed == ".." {
            return Err(ParseError::new(
                "date",
                ParseErrorKind::Range,
                text,
                0..text.len(),
            ));
        }
        let range = match text.find("..") {
            Some(dots) => DateRange {
                from: date(&text[..dots], 0)?,
                to: date(&text[dots + 2..], dots + 2)?,
            },
            None => {
                let d = date(text, 0)?;
                DateRange { from: d, to: d }
            }
        };
        if let (Some((a, _)), Some((_, b))) = (
            range.from.and_then(|d| d.interval()),
            range.to.and_then(|d| d.interval()),
        ) && a > b
        {
            return Err(ParseError::new(
                "date",
                ParseErrorKind::EmptyRange,
                text,
                0..text.len(),
            ));
        }
        Ok(range)
    }
}

impl fmt::Display for DateRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from, self.to) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (a, b) => {
                if let Some(a) = a {
                    write!(f, "{a}")?;
                }
                f.write_str("..")?;
                if let Some(b) = b {
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        for text in [
            "2020",
            "2020.05",
            "2020.05.17",
            "2020.??.??",
            "????.??.??",
            "1999.12.??",
        ] {
            let d: PgnDate = text.parse().unwrap();
            assert_eq!(d.to_string(), text);
        }
        for text in ["2019..2020", "2019.06..", "..2001.01.01", "2020"] {
            let r: DateRange = text.parse().unwrap();
            assert_eq!(r.to_string(), text);
        }
    }

    #[test]
    fn bad_dates() {
        let mut messages = crate::golden::Messages::default();
        messages.push("2020.13".parse::<PgnDate>().unwrap_err());
        messages.push("20".parse::<PgnDate>().unwrap_err());
        messages.push("2020..19x9".parse::<DateRange>().unwrap_err());
        messages.push("2021..2020".parse::<DateRange>().unwrap_err());
        messages.check("date-bad_dates");
    }
}
