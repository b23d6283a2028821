//! Reading one game for the commands that write games (`dedup`, `split`): parse it, check it
//! as `tabia pgn` does (legal moves; warnings reported, not fatal), report what is wrong.

use tabia_notation::pgn::{Game, Origin, RawGame};
use tabia_position::{Ply, Replayed, check_game_with};

use crate::{parallel::Sink, report::Diagnostic};

/// Parses and checks game `number` of input `name`, calling `f` after every ply of the
/// replay; reports a bad game on `sink` (and gives `None`) and its warnings.
pub(crate) fn read_game(
    name: &str,
    number: u64,
    raw: &RawGame,
    sink: &mut Sink,
    f: impl FnMut(&Ply<'_>),
) -> Option<(Game, Replayed)> {
    let game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.error(&Diagnostic::from_game_error(name, number, &err));
            return None;
        }
    };
    match check_game_with(&game, f) {
        Ok(replayed) => {
            for warning in &replayed.warnings {
                sink.warning(&Diagnostic::from_warning(name, number, warning));
            }
            Some((game, replayed))
        }
        Err(err) => {
            sink.error(&at(
                Diagnostic::new(name, err.to_string()).game(number),
                err.origin(),
            ));
            None
        }
    }
}

/// The diagnostic placed at `origin` when it is known.
pub(crate) fn at(diagnostic: Diagnostic, origin: Option<Origin>) -> Diagnostic {
    match origin {
        Some(o) if o.line > 0 => diagnostic.at(o.line, o.column),
        _ => diagnostic,
    }
}
