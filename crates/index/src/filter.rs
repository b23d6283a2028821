//! What the explorer can be asked to count: speeds, rating bands, months and the filter that
//! combines them, with the names and syntax of lichess's opening explorer.

use std::{fmt, str::FromStr};

use serde::Serialize;

/// A time control class, as lichess names them (`speeds=blitz,rapid`), from the `TimeControl`
/// tag: the estimated duration `base + 40 × increment` in seconds, under 30 ultraBullet, under
/// 180 bullet, under 480 blitz, under 1500 rapid, classical above; `-` is correspondence, and a
/// game with no (or an unreadable) `TimeControl` is classical (over-the-board games).
///
/// ```
/// use tabia_index::Speed;
///
/// assert_eq!(Speed::from_time_control(Some("180+2")), Speed::Blitz);
/// assert_eq!(Speed::from_time_control(Some("-")), Speed::Correspondence);
/// assert_eq!(Speed::from_time_control(None), Speed::Classical);
/// assert_eq!("ultraBullet".parse::<Speed>()?, Speed::UltraBullet);
/// assert_eq!(Speed::Rapid.to_string(), "rapid");
/// # Ok::<_, tabia_index::FilterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more, or no time control.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// Every speed, in lichess's order.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a `TimeControl` tag value: `tabia stats`'s classes
    /// ([`tabia_stats::Speed`]), a missing or unreadable one classical.
    pub fn from_time_control(value: Option<&str>) -> Speed {
        use tabia_stats::Speed as Class;
        match value.map(|v| Class::from_time_control(v.trim().as_bytes())) {
            Some(Class::UltraBullet) => Speed::UltraBullet,
            Some(Class::Bullet) => Speed::Bullet,
            Some(Class::Blitz) => Speed::Blitz,
            Some(Class::Rapid) => Speed::Rapid,
            Some(Class::Correspondence) => Speed::Correspondence,
            Some(Class::Classical | Class::Unknown) | None => Speed::Classical,
        }
    }

    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_code(code: u8) -> Option<Speed> {
        Speed::ALL.get(usize::from(code)).copied()
    }

    fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<Speed, FilterError> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == s)
            .ok_or_else(|| FilterError::Speed(s.to_owned()))
    }
}

/// A rating band of lichess's explorer (`ratings=1600,1800`), named by its lower bound: 0
/// (under 1000), 1000, 1200, 1400, 1600, 1800, 2000, 2200 and 2500 (and above), by the mean of
/// the players' ratings (of the one rated player, when only one is; band 0 when neither is).
///
/// ```
/// use tabia_index::RatingBand;
///
/// assert_eq!(RatingBand::of(Some(1650), Some(1790)).to_string(), "1600");
/// assert_eq!(RatingBand::of(Some(2700), None).to_string(), "2500");
/// assert_eq!("2200".parse::<RatingBand>()?, RatingBand::of(Some(2300), Some(2300)));
/// assert!("1300".parse::<RatingBand>().is_err());
/// # Ok::<_, tabia_index::FilterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RatingBand(u8);

impl RatingBand {
    /// The lower bounds of the bands.
    pub const BOUNDS: [u16; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

    /// The band of a game whose players have these ratings.
    pub fn of(white: Option<u16>, black: Option<u16>) -> RatingBand {
        let mean = match (white, black) {
            (Some(w), Some(b)) => (u32::from(w) + u32::from(b)) / 2,
            (Some(r), None) | (None, Some(r)) => u32::from(r),
            (None, None) => 0,
        };
        let band = RatingBand::BOUNDS
            .iter()
            .rposition(|&bound| u32::from(bound) <= mean)
            .unwrap_or(0);
        RatingBand(band as u8)
    }

    /// Every band, lowest first.
    pub fn all() -> impl Iterator<Item = RatingBand> {
        (0..RatingBand::BOUNDS.len() as u8).map(RatingBand)
    }

    /// The band's lower bound.
    pub fn lower(self) -> u16 {
        RatingBand::BOUNDS[usize::from(self.0)]
    }

    pub(crate) fn code(self) -> u8 {
        self.0
    }

    pub(crate) fn from_code(code: u8) -> Option<RatingBand> {
        (usize::from(code) < RatingBand::BOUNDS.len()).then_some(RatingBand(code))
    }
}

impl fmt::Display for RatingBand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lower())
    }
}

impl FromStr for RatingBand {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<RatingBand, FilterError> {
        s.parse::<u16>()
            .ok()
            .and_then(|n| RatingBand::BOUNDS.iter().position(|&b| b == n))
            .map(|i| RatingBand(i as u8))
            .ok_or_else(|| FilterError::Rating(s.to_owned()))
    }
}

/// A month, `YYYY-MM` (lichess's `since` and `until`); a bare year `YYYY` is read as its
/// January in `since` and its December in `until` (lichess's masters explorer takes years).
/// Games with no known year are in no month: they are left out by any `since` or `until`.
///
/// ```
/// use tabia_index::Month;
///
/// let m: Month = "2024-03".parse()?;
/// assert_eq!((m.year(), m.month()), (2024, 3));
/// assert_eq!(m.to_string(), "2024-03");
/// assert_eq!(Month::from_date("2019.11.??"), Some("2019-11".parse()?));
/// assert_eq!(Month::from_date("2019.??.??"), Some("2019-01".parse()?));
/// assert_eq!(Month::from_date("????.??.??"), None);
/// # Ok::<_, tabia_index::FilterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Month(u16);

impl Month {
    /// The month of a year (1 to 12).
    pub fn new(year: u16, month: u8) -> Option<Month> {
        ((1..=12).contains(&month) && (1..=5000).contains(&year))
            .then(|| Month(year * 12 + u16::from(month) - 1))
    }

    /// The month of a PGN date (`YYYY.MM.DD`, with `??` for what is unknown): January when
    /// only the year is known, `None` when the year is not.
    pub fn from_date(date: &str) -> Option<Month> {
        let year: u16 = date.get(..4)?.parse().ok()?;
        let month = date
            .get(5..7)
            .and_then(|m| m.parse::<u8>().ok())
            .filter(|m| (1..=12).contains(m))
            .unwrap_or(1);
        Month::new(year, month)
    }

    /// The year.
    pub fn year(self) -> u16 {
        self.0 / 12
    }

    /// The month, 1 to 12.
    pub fn month(self) -> u8 {
        (self.0 % 12) as u8 + 1
    }

    pub(crate) fn code(self) -> u16 {
        self.0
    }

    pub(crate) fn from_code(code: u16) -> Option<Month> {
        (code >= 12).then_some(Month(code))
    }

    /// Reads `YYYY-MM` or `YYYY` (as `month_of_year` says which month a bare year is).
    fn parse_with(s: &str, month_of_year: u8) -> Result<Month, FilterError> {
        let bad = || FilterError::Month(s.to_owned());
        let (year, month) = match s.split_once('-') {
            Some((year, month)) if month.len() == 2 => {
                (year, month.parse::<u8>().map_err(|_| bad())?)
            }
            Some(_) => return Err(bad()),
            None => (s, month_of_year),
        };
        if year.len() != 4 {
            return Err(bad());
        }
        Month::new(year.parse().map_err(|_| bad())?, month).ok_or_else(bad)
    }

    /// `since`: a bare year is its January.
    pub fn parse_since(s: &str) -> Result<Month, FilterError> {
        Month::parse_with(s, 1)
    }

    /// `until`: a bare year is its December.
    pub fn parse_until(s: &str) -> Result<Month, FilterError> {
        Month::parse_with(s, 12)
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

impl FromStr for Month {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<Month, FilterError> {
        Month::parse_since(s)
    }
}

/// A bad filter value: what was given and what is expected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FilterError {
    /// Not one of lichess's speeds.
    Speed(String),
    /// Not one of lichess's rating bands.
    Rating(String),
    /// Not `YYYY-MM` or `YYYY`.
    Month(String),
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::Speed(s) => write!(
                f,
                "unknown speed `{s}`: expected ultraBullet, bullet, blitz, rapid, classical or correspondence"
            ),
            FilterError::Rating(s) => write!(
                f,
                "unknown rating band `{s}`: expected 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200 or 2500"
            ),
            FilterError::Month(s) => write!(f, "bad month `{s}`: expected YYYY-MM or YYYY"),
        }
    }
}

impl std::error::Error for FilterError {}

/// Which games count: speeds, rating bands and months (all games when a part is empty or
/// unset).
///
/// ```
/// use tabia_index::{Filter, Speed};
///
/// let filter = Filter::parse(Some("blitz,rapid"), Some("1600,1800"), Some("2020-01"), None)?;
/// assert!(filter.speeds.contains(&Speed::Blitz));
/// assert_eq!(filter.to_string(), "speeds=blitz,rapid&ratings=1600,1800&since=2020-01");
/// assert!(Filter::parse(Some("blitz,fast"), None, None, None).is_err());
/// # Ok::<_, tabia_index::FilterError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// The speeds counted; empty: all.
    pub speeds: Vec<Speed>,
    /// The rating bands counted; empty: all.
    pub ratings: Vec<RatingBand>,
    /// The first month counted.
    pub since: Option<Month>,
    /// The last month counted.
    pub until: Option<Month>,
}

impl Filter {
    /// Reads the explorer's parameters (comma-separated lists; months as `YYYY-MM` or `YYYY`).
    ///
    /// # Errors
    ///
    /// The first bad value.
    pub fn parse(
        speeds: Option<&str>,
        ratings: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
    ) -> Result<Filter, FilterError> {
        let list = |s: Option<&str>| {
            s.into_iter()
                .flat_map(|s| s.split(','))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let mut speeds = list(speeds)
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<Speed>, _>>()?;
        speeds.sort_unstable();
        speeds.dedup();
        let mut ratings = list(ratings)
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<RatingBand>, _>>()?;
        ratings.sort_unstable();
        ratings.dedup();
        Ok(Filter {
            speeds,
            ratings,
            since: since
                .filter(|s| !s.is_empty())
                .map(Month::parse_since)
                .transpose()?,
            until: until
                .filter(|s| !s.is_empty())
                .map(Month::parse_until)
                .transpose()?,
        })
    }

    /// Whether a game of this speed, band and month counts.
    pub fn admits(&self, speed: Speed, band: RatingBand, month: Option<Month>) -> bool {
        (self.speeds.is_empty() || self.speeds.contains(&speed))
            && (self.ratings.is_empty() || self.ratings.contains(&band))
            && self.admits_month(month)
    }

    /// Whether a game of this month counts.
    pub fn admits_month(&self, month: Option<Month>) -> bool {
        match (self.since, self.until) {
            (None, None) => true,
            (since, until) => month.is_some_and(|m| {
                since.is_none_or(|since| m >= since) && until.is_none_or(|until| m <= until)
            }),
        }
    }

    /// Whether the filter counts every game.
    pub fn is_all(&self) -> bool {
        *self == Filter::default()
    }
}

impl fmt::Display for Filter {
    /// The explorer's query parameters, `&`-joined (empty for all games).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        let join = |items: Vec<String>| items.join(",");
        if !self.speeds.is_empty() {
            parts.push(format!(
                "speeds={}",
                join(self.speeds.iter().map(Speed::to_string).collect())
            ));
        }
        if !self.ratings.is_empty() {
            parts.push(format!(
                "ratings={}",
                join(self.ratings.iter().map(RatingBand::to_string).collect())
            ));
        }
        if let Some(since) = self.since {
            parts.push(format!("since={since}"));
        }
        if let Some(until) = self.until {
            parts.push(format!("until={until}"));
        }
        f.write_str(&parts.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_follow_lichess_thresholds() {
        let cases = [
            ("15+0", Speed::UltraBullet),
            ("29+0", Speed::UltraBullet),
            ("30+0", Speed::Bullet),
            ("60+1", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("180+0", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("900+15", Speed::Classical),
            ("1800+0", Speed::Classical),
            ("-", Speed::Correspondence),
            ("40/7200:3600", Speed::Classical),
        ];
        for (tc, speed) in cases {
            assert_eq!(Speed::from_time_control(Some(tc)), speed, "{tc}");
        }
    }

    #[test]
    fn names_round_trip() {
        for speed in Speed::ALL {
            assert_eq!(speed.to_string().parse::<Speed>(), Ok(speed));
            assert_eq!(Speed::from_code(speed.code()), Some(speed));
        }
        for band in RatingBand::all() {
            assert_eq!(band.to_string().parse::<RatingBand>(), Ok(band));
        }
        for code in 12..60_000 {
            let month = Month(code);
            assert_eq!(month.to_string().parse::<Month>(), Ok(month));
        }
    }

    #[test]
    fn bad_values_say_what_is_expected() {
        let err = Filter::parse(Some("blitz,fast"), None, None, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown speed `fast`: expected ultraBullet, bullet, blitz, rapid, classical or correspondence"
        );
        let err = Filter::parse(None, Some("1500"), None, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rating band `1500`: expected 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200 or 2500"
        );
        for bad in ["2020-13", "20-01", "2020-1", "x", "2020-00"] {
            let err = Filter::parse(None, None, Some(bad), None).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("bad month `{bad}`: expected YYYY-MM or YYYY")
            );
        }
    }

    #[test]
    fn months_bound_both_ways() {
        let filter = Filter::parse(None, None, Some("2019"), Some("2020")).expect("valid");
        assert!(filter.admits_month(Month::new(2019, 1)));
        assert!(filter.admits_month(Month::new(2020, 12)));
        assert!(!filter.admits_month(Month::new(2021, 1)));
        assert!(!filter.admits_month(Month::new(2018, 12)));
        assert!(!filter.admits_month(None));
        assert!(Filter::default().admits_month(None));
    }
}
