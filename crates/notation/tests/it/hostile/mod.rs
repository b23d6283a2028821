//! Hostile inputs (issue 6): generated inputs that are huge, deep, cut off or not text, and
//! the guarantees that hold on every input: no panic, no hang, no blow-up, nothing lost, and
//! export round-trips.
//!
//! Each hostile test checks that the grammar gives a value or a positioned error, that time
//! grows linearly (the work at size N and 8N is timed in the same test and the ratio bounded,
//! never an absolute time; asserted under `cargo xtask timed`, in release), and that memory stays bounded (a counting global allocator gives
//! the peak of live bytes during the work).
//!
//! The tests of this module run one at a time (those that measure share the allocator's peak
//! counter; the others would disturb it) and each time is the best of a few runs, since other
//! test threads share the CPU.

mod grammars;
mod lossless;
mod pgn;

use std::{
    alloc::System,
    sync::{Mutex, MutexGuard},
    time::{Duration, Instant},
};

use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};

#[global_allocator]
static ALLOC: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Serialises the tests of this module: the peak counter is global.
static MEASURE: Mutex<()> = Mutex::new(());

pub(crate) fn measuring() -> MutexGuard<'static, ()> {
    MEASURE.lock().unwrap_or_else(|e| e.into_inner())
}

/// What some work cost: its time and the peak of bytes allocated while it ran (above what was
/// live when it started).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cost {
    pub(crate) time: Duration,
    pub(crate) peak: usize,
}

/// Runs `work` three times; gives the least time and the least peak. Other test threads share
/// the CPU and the allocator, so they can only add to either: the least is the closest to the
/// cost of `work` alone.
pub(crate) fn cost<T>(mut work: impl FnMut() -> T) -> Cost {
    let mut best = Cost {
        time: Duration::MAX,
        peak: usize::MAX,
    };
    for _ in 0..3 {
        ALLOC.reset_peak_memory();
        let start = Instant::now();
        let out = work();
        let time = start.elapsed();
        let peak = ALLOC.get_peak_memory();
        drop(out);
        best.time = best.time.min(time);
        best.peak = best.peak.min(peak);
    }
    best
}

/// Asserts that the work at 8× the size took less than 24× as long: linear, with room for
/// noise (quadratic work would take 64×). Gives both costs. Pick `n` so that the small run
/// takes a few milliseconds at least, or timer noise dominates. A ratio over the bound is
/// measured again (twice at most): a busy machine can make one measurement slow, but not a
/// quadratic algorithm fast. The ratio is only asserted under `cargo xtask timed` (release,
/// one test at a time, `TABIA_TIMED` set); under `cargo test` both costs are measured and
/// given (the memory bounds hold there too) but no time is asserted.
pub(crate) fn assert_linear<T>(
    what: &str,
    mut work: impl FnMut(usize) -> T,
    n: usize,
) -> [Cost; 2] {
    if std::env::var_os("TABIA_TIMED").is_none() {
        return [cost(|| work(n)), cost(|| work(8 * n))];
    }
    // In release the small run can take a fraction of a millisecond, where timer and cache
    // noise dominate: both sizes are run as many times as brings the small one to 10 ms.
    let once = cost(|| work(n)).time.as_secs_f64().max(1e-6);
    let reps = ((0.01 / once).ceil() as usize).clamp(1, 10_000);
    let mut repeated = |size: usize| {
        let mut out = None;
        for _ in 0..reps {
            out = Some(work(size));
        }
        out
    };
    let mut attempt = 0;
    loop {
        attempt += 1;
        let small = cost(|| repeated(n));
        let large = cost(|| repeated(8 * n));
        let ratio = large.time.as_secs_f64() / small.time.as_secs_f64().max(1e-9);
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
            small.time,
            large.time,
            8 * n
        );
    }
}

/// A mebibyte.
pub(crate) const MB: usize = 1 << 20;
