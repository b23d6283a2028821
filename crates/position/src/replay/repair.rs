//! Repairing a game in place where its replay found what to repair.

use tabia_notation::{
    pgn::{Game, Outcome},
    san::SanPlus,
};

use super::{Ply, ReplayError, Replayed, replay_tree};
use crate::{
    position::EpRule,
    warning::{ReplayWarning, ReplayWarningKind},
};

/// Checks a game like [`check_game`](super::check_game) and repairs it in place where its warnings say: the
/// `FEN` tag rewritten as read, each repaired move written in SAN with its right check mark,
/// the result read (and the `Result` tag set to it). The game then reads again without those
/// warnings; a result that contradicts the board is kept (and still warned about).
///
/// ```
/// use tabia_position::repair_game;
/// use tabia_notation::pgn::Game;
///
/// let mut game: Game = "[Result \"1-0\"]\n\n1. e2e4 e7e5 2. Ng1-f3+ 0-1".parse()?;
/// let checked = repair_game(&mut game)?;
/// assert_eq!(checked.warnings.len(), 4);
/// assert_eq!(checked.warnings[0].to_string(), "Result tag says `1-0` but the movetext ends with `0-1`, read as `0-1`");
/// assert_eq!(checked.warnings[3].to_string(), "move 2. Ng1-f3+ is in long algebraic notation, read as Nf3");
/// assert!(game.to_string().ends_with("[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 0-1"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`check_game`](super::check_game); the game is then left as it was.
pub fn repair_game(game: &mut Game) -> Result<Replayed, ReplayError> {
    repair_game_with(game, |_| {})
}

/// [`repair_game`], calling `f` after every ply as [`replay`](super::replay) does (one replay
/// for the check, the repair and what the caller computes).
///
/// ```
/// use tabia_notation::pgn::Game;
/// use tabia_position::repair_game_with;
///
/// let mut game: Game = "1. e2e4 e5 2. Ng1-f3 *".parse()?;
/// let mut plies = 0;
/// let replayed = repair_game_with(&mut game, |ply| plies += u32::from(ply.depth == 0))?;
/// assert_eq!((plies, replayed.warnings.len()), (3, 2));
/// assert!(game.to_string().ends_with("1. e4 e5 2. Nf3 *"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`check_game`](super::check_game); the game is then left as it was.
pub fn repair_game_with(game: &mut Game, f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    let (replayed, fixes) = replay_tree(game, f)?;
    let repairs = TagRepairs::of(&replayed.warnings);
    if repairs.fen {
        let fen = replayed.start.to_fen(EpRule::Always).to_string();
        set_tag(&mut game.tags, "FEN", fen);
    }
    if let Some((marker, tag)) = repairs.result {
        game.result = marker;
        set_tag(&mut game.tags, "Result", tag);
    }
    game.warnings.clear();
    apply_fixes(game, &fixes);
    Ok(replayed)
}

/// What the warnings of a replay say to rewrite in the tags of a repaired game.
#[derive(Debug, Default)]
pub(crate) struct TagRepairs {
    /// The `FEN` tag was read leniently: it gets the FEN of the start position.
    pub(crate) fen: bool,
    /// The result the game was read with, when the `Result` tag or the marker said otherwise
    /// (or was missing): the marker and the tag's value to write.
    pub(crate) result: Option<(Outcome, String)>,
}

impl TagRepairs {
    pub(crate) fn of(warnings: &[ReplayWarning]) -> TagRepairs {
        let mut repairs = TagRepairs::default();
        for warning in warnings {
            match warning.kind() {
                ReplayWarningKind::FenClock { .. }
                | ReplayWarningKind::FenFullmoveZero
                | ReplayWarningKind::FenFieldsMissing { .. }
                | ReplayWarningKind::FenCastlingDropped { .. }
                | ReplayWarningKind::FenEpDropped { .. } => repairs.fen = true,
                ReplayWarningKind::MissingResult { read_as }
                | ReplayWarningKind::ResultTagMismatch {
                    marker: read_as, ..
                } => {
                    let marker = match read_as.as_str() {
                        "1-0" => Outcome::WhiteWins,
                        "0-1" => Outcome::BlackWins,
                        "1/2-1/2" => Outcome::Draw,
                        _ => Outcome::Unknown,
                    };
                    repairs.result = Some((marker, read_as.clone()));
                }
                _ => {}
            }
        }
        repairs
    }
}

/// Sets the value of the first tag named `name`, or adds the tag.
pub(crate) fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some(tag) => tag.1 = value,
        None => tags.push((name.to_owned(), value)),
    }
}

/// Writes the SAN of each fix into its move, numbering the moves in the order of the text as
/// [`replay`](super::replay) visits them (an explicit stack: any depth of nesting).
fn apply_fixes(game: &mut Game, fixes: &[(usize, SanPlus)]) {
    let Some(&(mut next, _)) = fixes.first() else {
        return;
    };
    let mut fixes = fixes.iter().peekable();
    let mut index = 0;
    let mut stack = vec![game.mainline.moves.iter_mut()];
    while let Some(moves) = stack.last_mut() {
        let Some(node) = moves.next() else {
            stack.pop();
            continue;
        };
        if index == next {
            if let Some((_, san)) = fixes.next() {
                node.san = *san;
            }
            match fixes.peek() {
                Some(&&(i, _)) => next = i,
                None => return,
            }
        }
        index += 1;
        for line in node.variations.iter_mut().rev() {
            stack.push(line.moves.iter_mut());
        }
    }
}
