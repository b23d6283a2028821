//! [`Tally`]: the figures of one move, and [`GameInfo`]: what a game adds to them.

use tabia_position::shakmaty::Color;

/// How a game ended, from its `Result` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `0-1`.
    BlackWins,
}

impl GameResult {
    /// The result of a `Result` tag value; `None` for `*` or anything else.
    pub fn from_tag(value: &[u8]) -> Option<GameResult> {
        match value {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// What a game adds to the moves it played: its result, the players' ratings, its year.
///
/// ```
/// use tabia_book::{GameInfo, GameResult};
///
/// let mut info = GameInfo::default();
/// info.tag(b"Result", b"1/2-1/2");
/// info.tag(b"WhiteElo", b"2750");
/// info.tag(b"Date", b"2024.03.??");
/// assert_eq!(info.result, Some(GameResult::Draw));
/// assert_eq!((info.white_elo, info.black_elo, info.year), (Some(2750), None, Some(2024)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct GameInfo {
    /// The result; `None` when unknown (`*`).
    pub result: Option<GameResult>,
    /// `WhiteElo`, when a number from 1 to 4000.
    pub white_elo: Option<u16>,
    /// `BlackElo`, when a number from 1 to 4000.
    pub black_elo: Option<u16>,
    /// The year of `Date` (or `UTCDate`), when its first four characters are digits.
    pub year: Option<u16>,
}

impl GameInfo {
    /// Takes what it needs from one tag pair (`Result`, `WhiteElo`, `BlackElo`, `Date`,
    /// `UTCDate`); other tags are ignored.
    pub fn tag(&mut self, name: &[u8], value: &[u8]) {
        match name {
            b"Result" => self.result = GameResult::from_tag(value),
            b"WhiteElo" => self.white_elo = elo(value),
            b"BlackElo" => self.black_elo = elo(value),
            b"Date" => self.year = year(value).or(self.year),
            b"UTCDate" if self.year.is_none() => self.year = year(value),
            _ => {}
        }
    }

    /// The rating of the player of `color`.
    pub fn elo(&self, color: Color) -> Option<u16> {
        color.fold_wb(self.white_elo, self.black_elo)
    }
}

fn elo(value: &[u8]) -> Option<u16> {
    if value.is_empty() || value.len() > 4 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = value
        .iter()
        .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
    (1..=4000).contains(&n).then_some(n)
}

fn year(value: &[u8]) -> Option<u16> {
    let digits = value.get(..4)?;
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
    (n > 0).then_some(n)
}

/// The figures of one move from one position: how many games played it, how they ended, the
/// ratings of the players who played it, and the years. 32 bytes.
///
/// ```
/// use tabia_book::{GameInfo, GameResult, Tally};
/// use tabia_position::shakmaty::Color;
///
/// let mut stats = Tally::default();
/// let win = GameInfo { result: Some(GameResult::WhiteWins), white_elo: Some(2400), year: Some(1990), ..GameInfo::default() };
/// let draw = GameInfo { result: Some(GameResult::Draw), white_elo: Some(2600), year: Some(2001), ..GameInfo::default() };
/// stats.add(&win, Color::White);
/// stats.add(&draw, Color::White);
/// assert_eq!((stats.games, stats.white, stats.draws, stats.black), (2, 1, 1, 0));
/// assert_eq!(stats.score(Color::White), Some(0.75));
/// assert_eq!(stats.average_rating(), Some(2500));
/// assert_eq!(stats.years(), Some((1990, 2001)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Games that played the move.
    pub games: u32,
    /// Of those, games White won.
    pub white: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games Black won.
    pub black: u32,
    /// The sum of the ratings of the players who made the move (when rated).
    pub rating_sum: u64,
    /// How many of the games had a rating for the player who made the move.
    pub rated: u32,
    /// The earliest year (0: no game had a year).
    pub first_year: u16,
    /// The latest year (0: no game had a year).
    pub last_year: u16,
}

impl Tally {
    /// Adds a game in which `mover` made the move.
    #[inline]
    pub fn add(&mut self, info: &GameInfo, mover: Color) {
        self.games += 1;
        match info.result {
            Some(GameResult::WhiteWins) => self.white += 1,
            Some(GameResult::Draw) => self.draws += 1,
            Some(GameResult::BlackWins) => self.black += 1,
            None => {}
        }
        if let Some(elo) = info.elo(mover) {
            self.rating_sum += u64::from(elo);
            self.rated += 1;
        }
        if let Some(year) = info.year {
            self.add_years(year, year);
        }
    }

    fn add_years(&mut self, first: u16, last: u16) {
        if first == 0 {
            return;
        }
        if self.first_year == 0 || first < self.first_year {
            self.first_year = first;
        }
        if last > self.last_year {
            self.last_year = last;
        }
    }

    /// Adds the figures of the same move counted elsewhere (another worker's tree).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.rating_sum += other.rating_sum;
        self.rated += other.rated;
        self.add_years(other.first_year, other.last_year);
    }

    /// Games with a known result.
    pub fn decided(&self) -> u32 {
        self.white + self.draws + self.black
    }

    /// The score of `mover` (a win 1, a draw ½) over the games with a known result.
    pub fn score(&self, mover: Color) -> Option<f64> {
        let decided = self.decided();
        (decided > 0).then(|| {
            let wins = mover.fold_wb(self.white, self.black);
            (f64::from(wins) + f64::from(self.draws) / 2.0) / f64::from(decided)
        })
    }

    /// The average rating of the players who made the move, rounded.
    pub fn average_rating(&self) -> Option<u32> {
        (self.rated > 0).then(|| {
            let rated = u64::from(self.rated);
            u32::try_from((self.rating_sum + rated / 2) / rated).unwrap_or(u32::MAX)
        })
    }

    /// The first and last year.
    pub fn years(&self) -> Option<(u16, u16)> {
        (self.first_year != 0).then_some((self.first_year, self.last_year))
    }
}
