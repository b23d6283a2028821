//! Shared code of the benches (see `benches/`) and of the whole-process peer programs (see
//! `examples/`): the peers, pgn-reader 0.29 and shakmaty visitors, in [`peer`].

#![deny(missing_docs)]

pub mod peer;
