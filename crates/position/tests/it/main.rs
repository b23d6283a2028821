//! The one integration test binary of tabia-position: one module per area.

mod check;
mod fixtures;
mod hostile;
mod keys;
mod perft;
mod render;
mod roundtrip;
