//! The one integration test binary of tabia-position: one module per area.

mod check;
mod fixtures;
mod hostile;
mod keys;
mod perft;
mod render;
mod roundtrip;
mod variant_games;
mod variant_perft;
mod walk;

use std::sync::{Mutex, MutexGuard};

static TIMING: Mutex<()> = Mutex::new(());

/// Held by the tests that time work (`hostile`) and by the heavy ones that would disturb their
/// timings if they ran at the same time (`check`).
pub(crate) fn timing() -> MutexGuard<'static, ()> {
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}
