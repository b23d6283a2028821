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
pub(crate) fn cost(work: &mut dyn FnMut()) -> Cost {
    let mut best = Cost {
        time: Duration::MAX,
        peak: usize::MAX,
    };
    for _ in 0..3 {
        ALLOC.reset_peak_memory();
        let start = Instant::now();
        work();
        let time = start.elapsed();
        let peak = ALLOC.get_peak_memory();
        best.time = best.time.min(time);
        best.peak = best.peak.min(peak);
    }
    best
}

/// [`tabia_testkit::assert_linear_by`] with [`cost`]: the work at 8× the size took less than
/// 24× as long (asserted under `cargo xtask timed` only), and both costs, for the memory bounds
/// the tests assert everywhere. Pick `n` so that the small run takes a few milliseconds at
/// least, or timer noise dominates.
pub(crate) fn assert_linear<T>(what: &str, work: impl FnMut(usize) -> T, n: usize) -> [Cost; 2] {
    tabia_testkit::assert_linear_by(what, work, n, cost, |c| c.time)
}

/// A mebibyte.
pub(crate) const MB: usize = 1 << 20;
