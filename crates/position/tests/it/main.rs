//! The one integration test binary of tabia-position: one module per area.

mod fixtures;
mod keys;
mod perft;
mod render;
mod roundtrip;
