//! Test helpers shared by tabia's crates (a dev-dependency only):
//!
//! - [`expect_file`]: a golden file, the one way expected output is kept in a file next to
//!   its input; `TABIA_BLESS=1` rewrites the files from what the code gives (review the diff).
//! - [`csv_records`]: the records of a CSV text (RFC 4180), to read `tabia table`'s CSV.
//! - [`assert_linear`] and [`assert_linear_by`]: the work at size N and 8N timed in the same
//!   test and the ratio bounded (never an absolute time), asserted only under
//!   `cargo xtask timed` (release, one test at a time, `TABIA_TIMED` set).

#![deny(missing_docs)]

use std::{
    fmt::Debug,
    path::Path,
    time::{Duration, Instant},
};

/// Compares `actual` with the text of the file at `path`; with `TABIA_BLESS` set, writes
/// `actual` there instead.
///
/// # Panics
///
/// When they differ, or the file cannot be read (with how to create it).
pub fn expect_file(path: &Path, actual: &str) {
    if std::env::var_os("TABIA_BLESS").is_some() {
        std::fs::write(path, actual)
            .unwrap_or_else(|e| panic!("{}: {e}: cannot bless", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with TABIA_BLESS=1 to create it)",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "{} differs from what the code gives (TABIA_BLESS=1 rewrites it; review the diff):\n\
         --- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

/// The CPU time of this thread so far, where Linux tells it (`/proc/thread-self/schedstat`,
/// in nanoseconds): unlike the wall clock, it does not grow while a busy machine runs other
/// work, which would make a long run look slower per item than a short one.
pub fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// CPU readings shorter than this are not trusted (see [`least_time`]).
const MIN_CPU: Duration = Duration::from_millis(1);

/// The least time of three runs of `work`: CPU time where known, else wall time. Other work
/// on the machine can only add to a run's time: the least is the closest to `work`'s own.
pub fn least_time<T>(mut work: impl FnMut() -> T) -> Duration {
    (0..3)
        .map(|_| {
            let (cpu, start) = (thread_cpu(), Instant::now());
            let out = work();
            let wall = start.elapsed();
            drop(out);
            // schedstat is only brought up to date at scheduler events, so a short run can read
            // as no CPU at all: below a millisecond, the wall clock is the better measure.
            match (cpu, thread_cpu()) {
                (Some(before), Some(after)) if after.saturating_sub(before) >= MIN_CPU => {
                    after.saturating_sub(before)
                }
                _ => wall,
            }
        })
        .min()
        .unwrap_or_default()
}

/// Whether times are asserted: under `cargo xtask timed` (`TABIA_TIMED` set).
pub fn timed() -> bool {
    std::env::var_os("TABIA_TIMED").is_some()
}

/// [`assert_linear_by`] with [`least_time`] as the cost.
///
/// ```
/// // Summing n numbers is linear (the ratio is asserted only under `cargo xtask timed`).
/// tabia_testkit::assert_linear("sum", |n| (0..n as u64).sum::<u64>(), 100_000);
/// ```
pub fn assert_linear<T>(what: &str, work: impl FnMut(usize) -> T, n: usize) {
    assert_linear_by(what, work, n, |run| least_time(run), |time| *time);
}

/// Asserts that the work at 8× the size took less than 24× as long (quadratic would take
/// 64×), measuring again (twice at most) when a busy machine made one measurement slow: it
/// can make one slow, but not a quadratic algorithm fast. `cost` measures a run (its time,
/// and whatever else a test bounds, such as peak memory), `time` reads the time of a cost.
/// Gives the costs at both sizes.
///
/// Only under `cargo xtask timed` (release, one test at a time, `TABIA_TIMED` set) is the
/// ratio asserted, each size run as many times as brings the small one to 10 ms; under
/// `cargo test` each size runs once and its cost is given (what the test asserts of the
/// results, and of the costs other than time, still holds).
///
/// # Panics
///
/// The ratio is 24× or more three times in a row.
pub fn assert_linear_by<T, C: Copy + Debug>(
    what: &str,
    mut work: impl FnMut(usize) -> T,
    n: usize,
    mut cost: impl FnMut(&mut dyn FnMut()) -> C,
    time: impl Fn(&C) -> Duration,
) -> [C; 2] {
    let mut once = |size: usize, reps: usize| {
        cost(&mut || {
            for _ in 0..reps {
                drop(work(size));
            }
        })
    };
    if !timed() {
        return [once(n, 1), once(8 * n, 1)];
    }
    // In release the small run can take a fraction of a millisecond, where timer and cache
    // noise dominate.
    let single = time(&once(n, 1)).as_secs_f64().max(1e-6);
    let reps = ((0.01 / single).ceil() as usize).clamp(1, 10_000);
    for attempt in 1.. {
        let (small, large) = (once(n, reps), once(8 * n, reps));
        let ratio = time(&large).as_secs_f64() / time(&small).as_secs_f64().max(1e-9);
        if std::env::var_os("TABIA_HOSTILE_VERBOSE").is_some() {
            eprintln!(
                "{what}: {small:?} at {n}, {large:?} at {} ({ratio:.1}×)",
                8 * n
            );
        }
        if ratio < 24.0 {
            return [small, large];
        }
        assert!(
            attempt < 3,
            "{what}: {:?} at size {n} but {:?} at size {} ({ratio:.1}×): not linear",
            time(&small),
            time(&large),
            8 * n
        );
    }
    unreachable!("the loop returns or panics")
}

/// The records of a CSV text (RFC 4180): fields split on commas, quoted fields holding
/// commas, doubled quotes and line ends; records ended by CRLF or LF.
///
/// ```
/// let records = tabia_testkit::csv_records("a,\"b,\"\"c\"\"\"\r\n1,\"x\ny\"\r\n");
/// assert_eq!(records, [["a", "b,\"c\""], ["1", "x\ny"]]);
/// ```
pub fn csv_records(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_golden_file_that_differs_fails_and_one_that_agrees_passes() {
        let dir = std::env::temp_dir().join(format!("tabia-testkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("expected.txt");
        std::fs::write(&path, "one\n").unwrap();
        expect_file(&path, "one\n");
        let failed = std::panic::catch_unwind(|| expect_file(&path, "two\n")).unwrap_err();
        let message = failed.downcast_ref::<String>().unwrap();
        assert!(
            message.contains("--- expected\none\n\n--- actual\ntwo\n"),
            "{message}"
        );
        let missing = std::panic::catch_unwind(|| expect_file(&dir.join("no.txt"), "x"));
        let message = missing
            .unwrap_err()
            .downcast_ref::<String>()
            .unwrap()
            .clone();
        assert!(
            message.contains("run with TABIA_BLESS=1 to create it"),
            "{message}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn costs_are_given_at_both_sizes() {
        let mut sizes = Vec::new();
        let [small, large] = assert_linear_by(
            "len",
            |n| sizes.push(n),
            10,
            |run| {
                run();
                1u8
            },
            |_| Duration::from_millis(1),
        );
        assert_eq!((small, large), (1, 1));
        if !timed() {
            assert_eq!(sizes, [10, 80]);
        }
    }
}
