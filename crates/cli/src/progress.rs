//! The progress meter: one line on standard error, redrawn in place at most ten times a second,
//! only when standard error is a terminal (and `--quiet` was not given).
//!
//! ```text
//! games.pgn.zst: 12.4 MiB of 96.0 MiB (13%), 41 230 games, 52 310 games/s, ETA 0:09
//! ```
//!
//! Bytes are those read from the file itself (compressed bytes for a compressed file), so that
//! the percentage and the ETA compare like with like; for standard input, or any input of
//! unknown size, there is no percentage and no ETA.

use std::time::{Duration, Instant};

/// Gives the bytes read so far.
pub(crate) type BytesRead = Box<dyn Fn() -> u64 + Send>;

/// How often the line may be redrawn.
const INTERVAL: Duration = Duration::from_millis(100);

/// The progress of one input.
pub(crate) struct Progress {
    enabled: bool,
    name: String,
    noun: &'static str,
    read: BytesRead,
    size: Option<u64>,
    start: Instant,
    last: Option<Instant>,
    drawn: bool,
}

impl Progress {
    /// A meter for the input `name` that counts `noun`s (`"games"`); `read` counts the bytes
    /// read so far out of `size`. A disabled meter draws nothing.
    pub(crate) fn new(
        enabled: bool,
        name: &str,
        noun: &'static str,
        read: BytesRead,
        size: Option<u64>,
    ) -> Progress {
        Progress {
            enabled,
            name: name.to_owned(),
            noun,
            read,
            size,
            start: Instant::now(),
            last: None,
            drawn: false,
        }
    }

    /// A meter that draws nothing.
    pub(crate) fn disabled() -> Progress {
        Progress::new(false, "", "items", Box::new(|| 0), None)
    }

    /// What to write to the terminal to show that `items` are done, if it is time to redraw.
    pub(crate) fn update(&mut self, items: u64) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let now = Instant::now();
        if self.last.is_some_and(|last| now - last < INTERVAL) {
            return None;
        }
        self.last = Some(now);
        self.drawn = true;
        let line = self.line(items, now - self.start);
        // Back to the start of the line, draw, erase what a longer previous line left.
        Some(format!("\r{line}\x1b[K"))
    }

    /// What to write to erase the line (before a diagnostic, or at the end).
    pub(crate) fn clear(&mut self) -> Option<&'static str> {
        if !std::mem::take(&mut self.drawn) {
            return None;
        }
        // Let the next update draw at once.
        self.last = None;
        Some("\r\x1b[K")
    }

    /// The text of the line after `elapsed` with `items` done.
    fn line(&self, items: u64, elapsed: Duration) -> String {
        let read = (self.read)();
        let secs = elapsed.as_secs_f64();
        let mut line = format!("{}: {}", self.name, bytes(read));
        if let Some(size) = self.size.filter(|&s| s > 0) {
            let done = read.min(size);
            line += &format!(" of {} ({}%)", bytes(size), done * 100 / size);
        }
        line += &format!(", {} {}", thousands(items), self.noun);
        if secs > 0.0 {
            line += &format!(
                ", {} {}/s",
                thousands((items as f64 / secs) as u64),
                self.noun
            );
        }
        if let Some(size) = self.size
            && read > 0
            && read < size
            && secs > 0.5
        {
            let left = secs * (size - read) as f64 / read as f64;
            line += &format!(", ETA {}", clock(left as u64));
        }
        line
    }
}

/// `1536` → `1.5 KiB`.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    match unit {
        0 => format!("{n} B"),
        _ => format!("{value:.1} {}", UNITS[unit]),
    }
}

/// `1234567` → `1 234 567` (a thin, locale-neutral grouping).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Seconds as `H:MM:SS` or `M:SS`.
fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meter(read: u64, size: Option<u64>) -> Progress {
        Progress::new(true, "g.pgn", "games", Box::new(move || read), size)
    }

    #[test]
    fn line_with_known_size_has_percentage_and_eta() {
        let p = meter(25 << 20, Some(100 << 20));
        assert_eq!(
            p.line(50_000, Duration::from_secs(2)),
            "g.pgn: 25.0 MiB of 100.0 MiB (25%), 50 000 games, 25 000 games/s, ETA 0:06"
        );
    }

    #[test]
    fn line_of_unknown_size_has_no_eta() {
        let p = meter(512, None);
        assert_eq!(
            p.line(3, Duration::from_secs(1)),
            "g.pgn: 512 B, 3 games, 3 games/s"
        );
    }

    #[test]
    fn redraws_are_rate_limited_and_cleared() {
        let mut p = meter(10, Some(100));
        assert!(p.clear().is_none(), "nothing drawn yet");
        let first = p.update(1).unwrap();
        assert!(first.starts_with('\r') && first.ends_with("\x1b[K"));
        assert!(p.update(2).is_none(), "too soon");
        assert_eq!(p.clear(), Some("\r\x1b[K"));
        assert!(
            p.update(3).is_some(),
            "after a clear the line comes back at once"
        );
    }

    #[test]
    fn disabled_meter_is_silent() {
        let mut p = Progress::disabled();
        assert!(p.update(1).is_none());
        assert!(p.clear().is_none());
    }

    #[test]
    fn units() {
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_234_567), "1 234 567");
        assert_eq!(thousands(123_456), "123 456");
        assert_eq!(clock(59), "0:59");
        assert_eq!(clock(3_723), "1:02:03");
    }
}
