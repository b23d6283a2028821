//! Reading one game for the commands that write games (`dedup`, `split`): parse it, check it
//! as `tabia pgn` does (legal moves; warnings reported, not fatal), report what is wrong.

use tabia_notation::pgn::{Game, RawGame};
use tabia_position::{Ply, Replayed, repair_game_with};

use crate::{parallel::Sink, report::Diagnostic};

/// A game read by [`read_game`]: the game, its replay and its warnings (reported already).
pub(crate) struct ReadGame {
    pub(crate) game: Game,
    pub(crate) replayed: Replayed,
    pub(crate) warnings: Vec<Diagnostic>,
}

/// Parses and checks game `number` of input `name`, calling `f` after every ply of the
/// replay; reports a bad game on `sink` (and gives its diagnostic back) and the warnings of a
/// good one, which is repaired where they say (as `tabia pgn` writes it).
pub(crate) fn read_game(
    name: &str,
    number: u64,
    raw: &RawGame,
    sink: &mut Sink,
    f: impl FnMut(&Ply<'_>),
) -> Result<ReadGame, Diagnostic> {
    let mut game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            let diagnostic = match tabia_position::unsupported_variant(raw) {
                Some(variant) => Diagnostic::located(name, number, &variant),
                None => Diagnostic::from_game_error(name, number, &err),
            };
            sink.error(&diagnostic);
            return Err(diagnostic);
        }
    };
    match repair_game_with(&mut game, f) {
        Ok(replayed) => {
            let warnings = sink.replay_warnings(name, number, &replayed.warnings);
            Ok(ReadGame {
                game,
                replayed,
                warnings,
            })
        }
        Err(err) => {
            let diagnostic = Diagnostic::located(name, number, &err);
            sink.error(&diagnostic);
            Err(diagnostic)
        }
    }
}
