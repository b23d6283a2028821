//! What the statistics read from tag values: dates, time controls, ratings.

use std::fmt;

use serde::Serialize;

/// The speed of a game, in lichess's categories, from its `TimeControl` tag.
///
/// The estimated duration of a game is `base + 40 × increment` seconds (lichess's estimate: a
/// game of 40 moves each), and the categories are lichess's: under 30 s ultrabullet, under
/// 180 s bullet, under 480 s blitz, under 1500 s rapid, under 21600 s classical, and
/// correspondence beyond (and for `-`, the standard's "no time control").
///
/// ```
/// use tabia_stats::Speed;
///
/// assert_eq!(Speed::from_time_control(b"180+2"), Speed::Blitz); // 180 + 80 = 260 s
/// assert_eq!(Speed::from_time_control(b"15+0"), Speed::UltraBullet);
/// assert_eq!(Speed::from_time_control(b"40/7200:3600"), Speed::Classical);
/// assert_eq!(Speed::from_time_control(b"-"), Speed::Correspondence);
/// assert_eq!(Speed::from_time_control(b"?"), Speed::Unknown);
/// assert_eq!(Speed::UltraBullet.to_string(), "ultrabullet");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Under 30 s.
    UltraBullet,
    /// 30 s to under 3 min.
    Bullet,
    /// 3 min to under 8 min.
    Blitz,
    /// 8 min to under 25 min.
    Rapid,
    /// 25 min to under 6 h.
    Classical,
    /// 6 h or more, or no time control (`-`).
    Correspondence,
    /// No `TimeControl` tag, `?`, or a value that cannot be read.
    #[default]
    Unknown,
}

impl Speed {
    /// Every speed, fastest first, `Unknown` last.
    pub const ALL: [Speed; 7] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unknown,
    ];

    /// The category of an estimated duration in seconds (`base + 40 × increment`).
    pub fn from_seconds(seconds: u64) -> Speed {
        match seconds {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            1500..21600 => Speed::Classical,
            _ => Speed::Correspondence,
        }
    }

    /// The category of a `TimeControl` tag value (see [`estimate`] for the forms read).
    pub fn from_time_control(value: &[u8]) -> Speed {
        if value == b"-" {
            return Speed::Correspondence;
        }
        estimate(value).map_or(Speed::Unknown, Speed::from_seconds)
    }

    /// The name: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`, `correspondence` or
    /// `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unknown => "unknown",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The estimated duration in seconds of a game under a `TimeControl` value, `base + 40 ×
/// increment` of its first period; `None` for `?`, `-` and what cannot be read.
///
/// ```text
/// time-control = period *(":" period)           ; the first period is estimated
/// period       = [moves "/"] seconds ["+" seconds] / "*" seconds
/// ```
///
/// ```
/// assert_eq!(tabia_stats::estimate(b"300+3"), Some(420));
/// assert_eq!(tabia_stats::estimate(b"40/5400+30:1800+30"), Some(6600));
/// assert_eq!(tabia_stats::estimate(b"*60"), Some(60));
/// assert_eq!(tabia_stats::estimate(b"fast"), None);
/// ```
pub fn estimate(value: &[u8]) -> Option<u64> {
    let first = value.split(|&b| b == b':').next()?;
    period(first)
}

// period = [moves "/"] seconds ["+" seconds] / "*" seconds
fn period(text: &[u8]) -> Option<u64> {
    if let Some(sand) = text.strip_prefix(b"*") {
        return number(sand);
    }
    let text = match text.iter().position(|&b| b == b'/') {
        Some(slash) => {
            number(&text[..slash])?;
            &text[slash + 1..]
        }
        None => text,
    };
    match text.iter().position(|&b| b == b'+') {
        Some(plus) => {
            let base = number(&text[..plus])?;
            let increment = number(&text[plus + 1..])?;
            base.checked_add(increment.checked_mul(40)?)
        }
        None => number(text),
    }
}

// number = 1*DIGIT
fn number(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 12 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// A rating from a `WhiteElo` or `BlackElo` value: digits only, more than 0 (`?`, `-`, `0` and
/// empty values mean "unrated" in real files).
///
/// ```
/// assert_eq!(tabia_stats::rating(b"2850"), Some(2850));
/// assert_eq!(tabia_stats::rating(b"?"), None);
/// assert_eq!(tabia_stats::rating(b"0"), None);
/// ```
pub fn rating(value: &[u8]) -> Option<u32> {
    if value.len() > 5 {
        return None;
    }
    number(value)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n > 0)
}

/// A date as `YYYY.MM.DD`, from a `Date` (or `UTCDate`) tag value whose year is known; the
/// month and day may be `??`, and are else a month (01 to 12) and a day (01 to 31). Dates
/// compare as their text, so that a date with an unknown month or day sorts after the known
/// dates of its year.
///
/// ```text
/// date = 4DIGIT "." ("??" / month) "." ("??" / day)
/// ```
///
/// ```
/// assert_eq!(tabia_stats::date(b"2024.01.15"), Some(*b"2024.01.15"));
/// assert_eq!(tabia_stats::date(b"1999.??.??"), Some(*b"1999.??.??"));
/// assert_eq!(tabia_stats::date(b"????.??.??"), None);
/// assert_eq!(tabia_stats::date(b"2024-01-15"), None);
/// assert_eq!(tabia_stats::date(b"2024.13.45"), None);
/// ```
pub fn date(value: &[u8]) -> Option<[u8; 10]> {
    let date: [u8; 10] = value.try_into().ok()?;
    // `??`, or two digits from 1 to `max`.
    let part = |pair: &[u8], max: u8| match pair {
        b"??" => true,
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
            (1..=max).contains(&((a - b'0') * 10 + (b - b'0')))
        }
        _ => false,
    };
    (date[..4].iter().all(u8::is_ascii_digit)
        && date[4] == b'.'
        && date[7] == b'.'
        && part(&date[5..7], 12)
        && part(&date[8..], 31))
    .then_some(date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_thresholds() {
        for (tc, speed) in [
            ("0+1", Speed::Bullet), // 40 s
            ("15+0", Speed::UltraBullet),
            ("29+0", Speed::UltraBullet),
            ("30+0", Speed::Bullet),
            ("60+0", Speed::Bullet),
            ("120+1", Speed::Bullet), // 160 s
            ("179+0", Speed::Bullet),
            ("180+0", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("479+0", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("900+10", Speed::Rapid),
            ("1499+0", Speed::Rapid),
            ("1500+0", Speed::Classical),
            ("1800+20", Speed::Classical),
            ("21599", Speed::Classical),
            ("21600", Speed::Correspondence),
            ("-", Speed::Correspondence),
            ("?", Speed::Unknown),
            ("", Speed::Unknown),
            ("1+", Speed::Unknown),
            ("40/", Speed::Unknown),
            ("99999999999999999+1", Speed::Unknown),
        ] {
            assert_eq!(Speed::from_time_control(tc.as_bytes()), speed, "{tc}");
        }
    }

    #[test]
    fn periods() {
        assert_eq!(estimate(b"40/9000"), Some(9000));
        assert_eq!(estimate(b"40/7200:20/3600:900+30"), Some(7200));
        assert_eq!(estimate(b"5400+30"), Some(6600));
        assert_eq!(estimate(b"x/60"), None);
        assert_eq!(estimate(b"*"), None);
    }

    #[test]
    fn ratings_and_dates() {
        assert_eq!(rating(b"1500"), Some(1500));
        assert_eq!(rating(b"123456"), None);
        assert_eq!(rating(b"15a0"), None);
        assert_eq!(rating(b""), None);
        assert_eq!(date(b"2024.1.15"), None);
        assert_eq!(date(b"2024.01.15 "), None);
        assert_eq!(date(b"2024.00.10"), None);
        assert_eq!(date(b"2024.12.00"), None);
        assert_eq!(date(b"2024.1?.15"), None);
        assert_eq!(date(b"2024.12.31"), Some(*b"2024.12.31"));
        assert_eq!(date(b"2024.12.??"), Some(*b"2024.12.??"));
        assert!(date(b"2024.??.??") > date(b"2024.12.31"));
    }
}
