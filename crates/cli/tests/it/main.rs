//! The one integration test binary of the `tabia` command: one module per subcommand.

mod analyse;
mod book;
mod dedup;
mod docs;
mod eco;
mod epd;
mod every;
mod fen;
mod filter;
mod forms;
mod general;
mod index;
mod json;
mod lenient;
mod lossless;
mod outputs;
mod pgn;
mod schema;
mod show;
mod split;
mod stats;
mod streaming;
mod support;
#[cfg(feature = "table")]
mod table;
mod tree;
mod validate;
mod variants;

/// The `tabia` binary built for these tests.
fn tabia() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_tabia"))
}

/// The tags the export writes for a game without tags: the Seven Tag Roster with the
/// standard's unknown values, `Result` from the movetext (`result`), and the blank line.
fn unknown_roster(result: &str) -> String {
    format!(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"{result}\"]\n\n"
    )
}
