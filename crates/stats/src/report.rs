//! The figures of a [`Stats`], ready to print: aligned text ([`Report`]'s `Display`) or JSON
//! (its `Serialize`).

use std::{fmt, time::Duration};

use serde::Serialize;
use tabia_notation::decode;

use crate::{
    Speed, Stats,
    accuracy::{ACCURACY_SCALE, AccuracySums, BANDS, BandSums, UNRATED},
};

/// How many events and ECO codes a report lists.
pub const TOP: usize = 10;

/// The figures of a [`Stats`]: what `tabia stats` prints. Its `Display` is the aligned text,
/// its `Serialize` the JSON (its fields: `docs/schema.md`, "`tabia stats --json`").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// Games seen: `read + errors`.
    pub games: u64,
    /// Games read whole; every figure below but `warnings` counts these.
    pub read: u64,
    /// Games with a syntax error (reported, and counted nowhere else).
    pub errors: u64,
    /// Warnings of the games read (what the reader repaired).
    pub warnings: u64,
    /// Bytes of the games (decompressed).
    pub bytes: u64,
    /// Mainline plies per game.
    pub plies: Plies,
    /// Games by result (termination marker); they add up to `read`.
    pub results: Results,
    /// The date range (`Date` tag, `UTCDate` when `Date` is unknown).
    pub dates: Dates,
    /// Games by the canonical name of their `Variant` tag (`standard` when there is none,
    /// [`tabia_notation::pgn::variant_name`]), most frequent first; they add
    /// up to `read`.
    pub variants: Vec<Count>,
    /// Games by speed (lichess categories, from `TimeControl`); they add up to `read`.
    pub time_controls: TimeControls,
    /// Ratings (`WhiteElo`, `BlackElo`).
    pub ratings: Ratings,
    /// Distinct player names (`White`, `Black`).
    pub players: u64,
    /// The most frequent events (at most [`TOP`]), most frequent first, ties by name.
    pub events: Vec<Count>,
    /// Distinct events.
    pub distinct_events: u64,
    /// The most frequent ECO codes (at most [`TOP`]), most frequent first, ties by code.
    pub eco: Vec<Count>,
    /// Distinct ECO codes.
    pub distinct_eco: u64,
    /// Games with comments, variations, clocks and evaluations.
    pub annotations: Annotations,
    /// lichess's accuracy, average centipawn loss and mistakes of the games whose moves carry
    /// evaluations, by rating band; `None` (left out of the JSON) when no game's moves have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Accuracy>,
    /// Time taken and rates, when the caller timed the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<Timing>,
}

/// Mainline plies per game, over the games read: `min`, exact lower `median` (the value at
/// rank ⌈n/2⌉ of the sorted counts, from a histogram), `max`, `mean`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Plies {
    /// The smallest count.
    pub min: Option<u32>,
    /// The lower median.
    pub median: Option<u32>,
    /// The largest count.
    pub max: Option<u32>,
    /// The mean, to two decimals.
    pub mean: Option<f64>,
}

/// Games by termination marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Results {
    /// `1-0`.
    #[serde(rename = "1-0")]
    pub white_wins: u64,
    /// `0-1`.
    #[serde(rename = "0-1")]
    pub black_wins: u64,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    pub draws: u64,
    /// `*`.
    #[serde(rename = "*")]
    pub unknown: u64,
}

/// The date range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dates {
    /// Games with a date whose year is known.
    pub games: u64,
    /// The earliest date (`YYYY.MM.DD`, `??` for an unknown month or day).
    pub first: Option<String>,
    /// The latest date.
    pub last: Option<String>,
}

/// Games by speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TimeControls {
    /// Under 30 s (estimated `base + 40 × increment`).
    pub ultrabullet: u64,
    /// 30 s to under 3 min.
    pub bullet: u64,
    /// 3 to under 8 min.
    pub blitz: u64,
    /// 8 to under 25 min.
    pub rapid: u64,
    /// 25 min to under 6 h.
    pub classical: u64,
    /// 6 h or more, or `-`.
    pub correspondence: u64,
    /// No `TimeControl` tag, `?`, or unreadable.
    pub unknown: u64,
}

/// Ratings over every `WhiteElo` and `BlackElo` of a game read (positive numbers only).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ratings {
    /// Ratings counted (up to two per game).
    pub count: u64,
    /// The lowest.
    pub min: Option<u32>,
    /// The highest.
    pub max: Option<u32>,
    /// The mean, to two decimals.
    pub mean: Option<f64>,
}

/// A value and how many games have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The tag value (escapes decoded).
    pub name: String,
    /// Games.
    pub games: u64,
}

/// Games with annotations of each kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Annotations {
    /// With a comment (outside variations).
    pub comments: u64,
    /// With a variation.
    pub variations: u64,
    /// With a clock, `[%clk …]`.
    pub clocks: u64,
    /// With an evaluation, `[%eval …]`.
    pub evals: u64,
}

/// lichess's figures of the games whose mainline moves carry evaluations (`[%eval]`), as
/// lichess computes them for a game it analysed ([`crate::lichess`]), summed by the rating band
/// of each side's own rating.
///
/// A game is judged when each of its mainline moves has a score in a comment after it; the
/// last may lack one (lichess writes none after a checkmate): it is then scored as the mate
/// when the result is a win for the side that made it, and else left out
/// ([`GameFacts::judged_evals`](crate::GameFacts::judged_evals)).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Accuracy {
    /// Games judged.
    pub games: u64,
    /// Games with a score after some mainline move that were not judged: a move before the
    /// last has none.
    pub left_out: u64,
    /// By the rating band of the side's own rating (`WhiteElo`, `BlackElo`), lowest first,
    /// the unrated sides last; bands without a side are left out.
    pub bands: Vec<Band>,
    /// Every side together.
    pub all: Band,
}

/// The figures of the sides of one rating band (or of all): a game counts once for each side
/// that made a move judged, in that side's band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// `under 1000`, `1000-1199`, …, `2200-2499`, `2500+`, `unrated`; `all` for every side.
    pub band: String,
    /// The lowest rating of the band (`None` for `unrated` and `all`).
    pub min: Option<u32>,
    /// The highest rating of the band (`None` for `2500+`, `unrated` and `all`).
    pub max: Option<u32>,
    /// Sides (a game counts once for each side).
    pub sides: u64,
    /// Moves judged.
    pub moves: u64,
    /// The mean of the sides' game accuracies (lichess's, in percent), to two decimals.
    pub accuracy: Option<f64>,
    /// The mean centipawn loss of the moves (lichess's, mates as 1000 centipawns), to two
    /// decimals.
    pub acpl: Option<f64>,
    /// Moves judged inaccuracies, mistakes and blunders (lichess's advice).
    pub judgements: Judgements<u64>,
    /// The same per 100 moves, to two decimals.
    pub per_100_moves: Option<Judgements<f64>>,
}

/// Inaccuracies, mistakes and blunders ([`crate::lichess::Judgement`]), counted or per 100
/// moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Judgements<T> {
    /// `?!`: the mover's winning chances fell by 0.1 or more.
    pub inaccuracies: T,
    /// `?`: by 0.2 or more.
    pub mistakes: T,
    /// `??`: by 0.3 or more.
    pub blunders: T,
}

impl AccuracySums {
    /// The figures, `None` when no game's moves carry an evaluation.
    fn report(&self) -> Option<Accuracy> {
        if self.games == 0 && self.left_out == 0 {
            return None;
        }
        let bands = self
            .bands
            .iter()
            .enumerate()
            .filter(|(_, sums)| sums.sides > 0)
            .map(|(i, sums)| {
                let (name, min, max) = match i {
                    UNRATED => ("unrated".to_owned(), None, None),
                    0 => (format!("under {}", BANDS[1]), Some(0), Some(BANDS[1] - 1)),
                    i if i + 1 == BANDS.len() => (format!("{}+", BANDS[i]), Some(BANDS[i]), None),
                    i => (
                        format!("{}-{}", BANDS[i], BANDS[i + 1] - 1),
                        Some(BANDS[i]),
                        Some(BANDS[i + 1] - 1),
                    ),
                };
                band(name, min, max, sums)
            })
            .collect();
        Some(Accuracy {
            games: self.games,
            left_out: self.left_out,
            bands,
            all: band("all".to_owned(), None, None, &self.all()),
        })
    }
}

/// The figures of a band from its sums.
fn band(name: String, min: Option<u32>, max: Option<u32>, sums: &BandSums) -> Band {
    let [inaccuracies, mistakes, blunders] = sums.judgements;
    let per_100 = |n: u64| two_decimals(n as f64 * 100.0 / sums.moves as f64);
    Band {
        band: name,
        min,
        max,
        sides: sums.sides,
        moves: sums.moves,
        accuracy: (sums.sides > 0)
            .then(|| two_decimals(sums.accuracy as f64 / ACCURACY_SCALE / sums.sides as f64)),
        acpl: mean(sums.loss, sums.moves),
        judgements: Judgements {
            inaccuracies,
            mistakes,
            blunders,
        },
        per_100_moves: (sums.moves > 0).then(|| Judgements {
            inaccuracies: per_100(inaccuracies),
            mistakes: per_100(mistakes),
            blunders: per_100(blunders),
        }),
    }
}

/// How long the run took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Timing {
    /// Seconds (wall clock).
    pub seconds: f64,
    /// Bytes per second.
    pub bytes_per_second: f64,
    /// Games per second.
    pub games_per_second: f64,
}

fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn mean(sum: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| two_decimals(sum as f64 / n as f64))
}

/// Counts sorted by frequency (then name), at most `limit`.
fn top(
    map: &std::collections::HashMap<Vec<u8>, u64, crate::hash::FxBuild>,
    limit: usize,
) -> Vec<Count> {
    let mut all: Vec<(&Vec<u8>, u64)> = map.iter().map(|(k, &n)| (k, n)).collect();
    all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    all.into_iter()
        .take(limit)
        .map(|(name, games)| Count {
            name: decode_tag(name),
            games,
        })
        .collect()
}

/// A tag value as text: `\"` and `\\` unescaped.
fn decode_tag(raw: &[u8]) -> String {
    tabia_notation::pgn::RawTag(raw).decode().into_owned()
}

impl Stats {
    /// The figures, with rates when `elapsed` (the time the run took) is given.
    pub fn report(&self, elapsed: Option<Duration>) -> Report {
        let read = self.games - self.errors;
        let mut histogram = self.plies_histogram();
        let first = histogram.next();
        let (mut median, mut max, mut seen) = (None, first.map(|f| f.0), 0u64);
        let rank = read.div_ceil(2);
        for (plies, n) in first.into_iter().chain(histogram) {
            seen += n;
            if median.is_none() && seen >= rank {
                median = Some(plies);
            }
            max = Some(plies);
        }
        let speed = |s: Speed| self.speeds[s.index()];
        Report {
            games: self.games,
            read,
            errors: self.errors,
            warnings: self.warnings,
            bytes: self.bytes,
            plies: Plies {
                min: first.map(|f| f.0),
                median,
                max,
                mean: mean(self.plies_total, read),
            },
            results: Results {
                white_wins: self.results[0],
                black_wins: self.results[1],
                draws: self.results[2],
                unknown: self.results[3],
            },
            dates: Dates {
                games: self.dated,
                first: self.first_date.map(|d| decode(&d).into_owned()),
                last: self.last_date.map(|d| decode(&d).into_owned()),
            },
            variants: top(&self.variants, usize::MAX),
            time_controls: TimeControls {
                ultrabullet: speed(Speed::UltraBullet),
                bullet: speed(Speed::Bullet),
                blitz: speed(Speed::Blitz),
                rapid: speed(Speed::Rapid),
                classical: speed(Speed::Classical),
                correspondence: speed(Speed::Correspondence),
                unknown: speed(Speed::Unknown),
            },
            ratings: Ratings {
                count: self.ratings,
                min: self.rating_min,
                max: self.rating_max,
                mean: mean(self.rating_sum, self.ratings),
            },
            players: self.players.len() as u64,
            events: top(&self.events, TOP),
            distinct_events: self.events.len() as u64,
            eco: top(&self.ecos, TOP),
            distinct_eco: self.ecos.len() as u64,
            annotations: Annotations {
                comments: self.with_comments,
                variations: self.with_variations,
                clocks: self.with_clocks,
                evals: self.with_evals,
            },
            accuracy: self.accuracy.report(),
            time: elapsed.map(|elapsed| {
                let seconds = elapsed.as_secs_f64();
                let rate = |n: u64| {
                    if seconds > 0.0 {
                        n as f64 / seconds
                    } else {
                        0.0
                    }
                };
                Timing {
                    seconds,
                    bytes_per_second: rate(self.bytes),
                    games_per_second: rate(self.games),
                }
            }),
        }
    }
}

/// The width of the label column.
const LABEL: usize = 16;

/// `12.3%` of `n` in `total` (empty when `total` is 0).
fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        String::new()
    } else {
        format!("{:5.1}%", n as f64 * 100.0 / total as f64)
    }
}

/// Rows `name  count  percent` under a label, names padded and counts right-aligned.
fn table(
    f: &mut fmt::Formatter<'_>,
    label: &str,
    rows: &[(String, u64)],
    total: Option<u64>,
) -> fmt::Result {
    let name_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let count_width = rows
        .iter()
        .map(|r| r.1.to_string().len())
        .max()
        .unwrap_or(0);
    for (i, (name, n)) in rows.iter().enumerate() {
        let label = if i == 0 { label } else { "" };
        let pad = name_width - name.chars().count();
        write!(f, "{label:<LABEL$}{name}{:pad$}  {n:>count_width$}", "")?;
        match total {
            Some(total) if total > 0 => writeln!(f, "  {}", percent(*n, total))?,
            _ => writeln!(f)?,
        }
    }
    Ok(())
}

fn or_dash<T: fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// `1.5 MiB` and the like.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

impl fmt::Display for Report {
    /// The aligned text of `tabia stats` (`docs/commands/stats.md`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let read = self.read;
        writeln!(
            f,
            "{:<LABEL$}{} (read {}, errors {}, warnings {})",
            "games", self.games, read, self.errors, self.warnings
        )?;
        writeln!(
            f,
            "{:<LABEL$}{} ({})",
            "bytes",
            self.bytes,
            size(self.bytes)
        )?;
        writeln!(
            f,
            "{:<LABEL$}min {}, median {}, max {}, mean {}",
            "plies",
            or_dash(self.plies.min),
            or_dash(self.plies.median),
            or_dash(self.plies.max),
            self.plies
                .mean
                .map_or_else(|| "-".to_owned(), |m| format!("{m:.2}")),
        )?;
        let r = self.results;
        table(
            f,
            "results",
            &[
                ("1-0".to_owned(), r.white_wins),
                ("0-1".to_owned(), r.black_wins),
                ("1/2-1/2".to_owned(), r.draws),
                ("*".to_owned(), r.unknown),
            ],
            Some(read),
        )?;
        match (&self.dates.first, &self.dates.last) {
            (Some(first), Some(last)) => writeln!(
                f,
                "{:<LABEL$}{first} to {last} ({} games dated)",
                "dates", self.dates.games
            )?,
            _ => writeln!(f, "{:<LABEL$}- (0 games dated)", "dates")?,
        }
        let variants: Vec<(String, u64)> = self
            .variants
            .iter()
            .map(|c| (c.name.clone(), c.games))
            .collect();
        if variants.is_empty() {
            writeln!(f, "{:<LABEL$}-", "variants")?;
        }
        table(f, "variants", &variants, Some(read))?;
        let t = self.time_controls;
        let speeds: Vec<(String, u64)> = [
            (Speed::UltraBullet, t.ultrabullet),
            (Speed::Bullet, t.bullet),
            (Speed::Blitz, t.blitz),
            (Speed::Rapid, t.rapid),
            (Speed::Classical, t.classical),
            (Speed::Correspondence, t.correspondence),
            (Speed::Unknown, t.unknown),
        ]
        .into_iter()
        .map(|(s, n)| (s.to_string(), n))
        .collect();
        table(f, "time controls", &speeds, Some(read))?;
        writeln!(
            f,
            "{:<LABEL$}min {}, max {}, mean {} ({} ratings)",
            "ratings",
            or_dash(self.ratings.min),
            or_dash(self.ratings.max),
            self.ratings
                .mean
                .map_or_else(|| "-".to_owned(), |m| format!("{m:.2}")),
            self.ratings.count
        )?;
        writeln!(f, "{:<LABEL$}{} distinct", "players", self.players)?;
        for (label, counts, distinct) in [
            ("events", &self.events, self.distinct_events),
            ("eco", &self.eco, self.distinct_eco),
        ] {
            let rows: Vec<(String, u64)> =
                counts.iter().map(|c| (c.name.clone(), c.games)).collect();
            let heading = format!("{label} ({distinct})");
            if rows.is_empty() {
                writeln!(f, "{heading:<LABEL$}-")?;
            }
            table(f, &heading, &rows, Some(read))?;
        }
        let a = self.annotations;
        table(
            f,
            "games with",
            &[
                ("comments".to_owned(), a.comments),
                ("variations".to_owned(), a.variations),
                ("clocks".to_owned(), a.clocks),
                ("evals".to_owned(), a.evals),
            ],
            Some(read),
        )?;
        if let Some(accuracy) = &self.accuracy {
            write_accuracy(f, accuracy)?;
        }
        if let Some(time) = self.time {
            writeln!(
                f,
                "{:<LABEL$}{:.3} s, {:.1} MB/s, {:.0} games/s",
                "time",
                time.seconds,
                time.bytes_per_second / 1e6,
                time.games_per_second
            )?;
        }
        Ok(())
    }
}

/// The accuracy section: the games judged, then a row per band and one for all sides.
fn write_accuracy(f: &mut fmt::Formatter<'_>, accuracy: &Accuracy) -> fmt::Result {
    let games = if accuracy.games == 1 { "game" } else { "games" };
    write!(f, "{:<LABEL$}{} {games} judged", "accuracy", accuracy.games)?;
    if accuracy.left_out > 0 {
        write!(
            f,
            ", {} left out (a move before the last without an eval)",
            accuracy.left_out
        )?;
    }
    writeln!(f)?;
    if accuracy.games == 0 {
        return Ok(());
    }
    let decimals = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"));
    let mut rows: Vec<[String; 8]> = vec![
        [
            "rating", "sides", "moves", "accuracy", "acpl", "?!/100", "?/100", "??/100",
        ]
        .map(str::to_owned),
    ];
    for band in accuracy.bands.iter().chain([&accuracy.all]) {
        let rate =
            |pick: fn(&Judgements<f64>) -> f64| decimals(band.per_100_moves.as_ref().map(pick));
        rows.push([
            band.band.clone(),
            band.sides.to_string(),
            band.moves.to_string(),
            decimals(band.accuracy),
            decimals(band.acpl),
            rate(|j| j.inaccuracies),
            rate(|j| j.mistakes),
            rate(|j| j.blunders),
        ]);
    }
    let mut widths = [0; 8];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in &rows {
        write!(f, "{:<LABEL$}{:<w$}", "", row[0], w = widths[0])?;
        for (cell, &width) in row.iter().zip(&widths).skip(1) {
            write!(f, "  {cell:>width$}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}
