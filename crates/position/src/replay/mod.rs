//! Game replay: every line of a parsed PGN game played through the rules, from the position
//! its `FEN`/`SetUp`/`Variant` tags give; the first illegal move reported with where it is.

use shakmaty::{Bitboard, Move};
use tabia_notation::{
    pgn::{Game, Line, Move as Node},
    san::SanPlus,
};

use crate::{
    lenient::{self, Repair},
    moves::{MoveError, MoveErrorKind},
    outcome::{History, Termination},
    position::{EpRule, Position},
    walk::Played,
    warning::ReplayWarning,
};

mod end;
mod repair;
mod start;

pub use crate::error::{ReplayError, ReplayErrorKind};
pub(crate) use end::{ResultWatch, game_end_warnings};
pub(crate) use repair::{TagRepairs, set_tag};
pub use repair::{repair_game, repair_game_with};
pub use start::{StartTags, start_position, start_position_with_warnings};

/// One ply of a replay, given to the callback of [`replay`] and [`replay_mainline`].
#[derive(Debug)]
pub struct Ply<'a> {
    /// The position after the move.
    pub position: &'a Position,
    /// The move played; `None` for a null move (`--`).
    pub mv: Option<Move>,
    /// The move's node in the game tree (its SAN, NAGs, comments, origin).
    pub node: &'a Node,
    /// The ply number from the start position (1 is the first move).
    pub ply: u32,
    /// 0 in the mainline, 1 in its variations, 2 in theirs, …
    pub depth: usize,
}

/// A game replayed: where it started and ended (mainline), how it stands at the end, and what
/// was repaired or looks wrong on the way.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The start position (from the `FEN` tag, or the standard one).
    pub start: Position,
    /// The position after the last mainline move.
    pub end: Position,
    /// The number of mainline plies.
    pub plies: u32,
    /// How the game stands at the end of the mainline (mate, draws, claimable draws).
    pub termination: Option<Termination>,
    /// What was repaired or looks wrong, in input order: the game was read all the same.
    pub warnings: Vec<ReplayWarning>,
}

/// `4. Nxe5` or `4... Nf6`: the move as numbered in the position before it.
fn numbered(before: &Position, node: &Node) -> String {
    lenient::numbered_before(before, node.san)
}

/// Resolves the move of `node` to a legal move, to be played by the caller, leniently (see
/// [`lenient::resolve`]); a null move (`--`) is played at once when not in check, and gives
/// `None`. A repaired move gives its [`Repair`], and the caller then skips the check mark.
pub(crate) fn resolve_node(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
) -> Result<(Option<Move>, Option<Repair>), ReplayError> {
    resolve_node_with(pos, node, ply, depth, None)
}

/// [`resolve_node`], with the pieces giving check in `pos` when the caller knows them.
fn resolve_node_with(
    pos: &mut Position,
    node: &Node,
    ply: u32,
    depth: usize,
    checkers: Option<Bitboard>,
) -> Result<(Option<Move>, Option<Repair>), ReplayError> {
    let result = match node.san.san {
        tabia_notation::san::San::Null => {
            if pos.play_null() {
                return Ok((None, None));
            }
            Err(MoveErrorKind::NullMoveInCheck)
        }
        _ => lenient::resolve(pos, node.san, checkers),
    };
    match result {
        Ok((m, repair)) => Ok((Some(m), repair)),
        Err(kind) => Err(ReplayError::new(
            ReplayErrorKind::IllegalMove {
                numbered: numbered(pos, node),
                ply,
                in_variation: depth > 0,
                error: MoveError::new(node.san.san.to_string(), kind),
            },
            Some(node.at),
        )),
    }
}

/// What a replay found to repair: the warnings in input order, and the SAN to write for each
/// repaired move (its index in the order of the text, mainline and variations).
#[derive(Debug, Default)]
struct Found {
    warnings: Vec<ReplayWarning>,
    fixes: Vec<(usize, SanPlus)>,
}

impl Found {
    /// Notes the repair of the `index`-th move of the text, if any; when the move was not
    /// repaired by its resolution, checks its check mark from the position after it.
    fn after_move(
        &mut self,
        index: usize,
        node: &Node,
        after: &Position,
        repair: Option<Repair>,
        played: bool,
        checks: bool,
    ) {
        let repair = match repair {
            Some(repair) => Some(repair),
            None if played => lenient::check_mark(after, node.san, checks),
            None => None,
        };
        if let Some(repair) = repair {
            let numbered = lenient::numbered_after(after, node.san);
            self.warnings
                .push(repair.warning(numbered, node.san, node.at));
            self.fixes.push((index, repair.san));
        }
    }
}

/// Replays the mainline only, from `start` (the tags' start position when `None`), calling `f`
/// after every ply.
///
/// # Errors
///
/// The first illegal move, or a bad start position.
pub fn replay_mainline(
    game: &Game,
    start: Option<Position>,
    mut f: impl FnMut(&Ply<'_>),
) -> Result<Replayed, ReplayError> {
    let mut found = Found::default();
    let start = match start {
        Some(start) => start,
        None => {
            let (start, warnings) = start_position_with_warnings(game)?;
            found.warnings = warnings;
            start
        }
    };
    let mut pos = start.clone();
    let mut history = History::new();
    let mut hash = pos.zobrist();
    history.push(hash);
    let mut ply = 0;
    // The pieces giving check, kept from one move to the next (the check mark and the next
    // move's resolution both need them).
    let mut checkers = pos.checkers();
    for node in &game.mainline.moves {
        ply += 1;
        let (m, repair) = resolve_node_with(&mut pos, node, ply, 0, Some(checkers))?;
        hash = match m {
            Some(m) => pos.play_zobrist(hash, m),
            None => pos.zobrist(),
        };
        history.push(hash);
        checkers = pos.checkers();
        found.after_move(
            ply as usize - 1,
            node,
            &pos,
            repair,
            m.is_some(),
            checkers.any(),
        );
        f(&Ply {
            position: &pos,
            mv: m,
            node,
            ply,
            depth: 0,
        });
    }
    let termination = pos.termination(&history);
    let last = game.mainline.moves.last().map(|m| m.at);
    game_end_warnings(game, termination, last, &mut found.warnings);
    Ok(Replayed {
        start,
        end: pos,
        plies: ply,
        termination,
        warnings: found.warnings,
    })
}

/// One line being replayed, on the explicit stack of [`replay`].
#[derive(Debug)]
struct Frame<'g> {
    line: &'g Line,
    next: usize,
    pos: Position,
    /// The pieces giving check in `pos`.
    checkers: Bitboard,
    ply: u32,
    depth: usize,
}

/// Replays the mainline and every variation (in the order of the text), calling `f` after
/// every ply. Variations are kept on an explicit stack: any depth of nesting is fine. What was
/// read leniently is in [`Replayed::warnings`].
///
/// ```
/// use tabia_position::replay;
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *".parse()?;
/// let mut plies = Vec::new();
/// let done = replay(&game, |p| plies.push((p.ply, p.depth, p.node.san.to_string())))?;
/// assert_eq!(plies.len(), 6);
/// assert_eq!(plies[2], (2, 1, "c5".to_owned()));
/// assert_eq!(done.plies, 4);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first illegal move in text order, or a bad start position.
pub fn replay(game: &Game, f: impl FnMut(&Ply<'_>)) -> Result<Replayed, ReplayError> {
    replay_tree(game, f).map(|(replayed, _)| replayed)
}

/// [`replay`], also giving the SAN to write for each repaired move.
fn replay_tree(
    game: &Game,
    mut f: impl FnMut(&Ply<'_>),
) -> Result<(Replayed, Vec<(usize, SanPlus)>), ReplayError> {
    let mut walker = Walker::new(game, true)?;
    while let Some(ply) = walker.step()? {
        f(&ply);
    }
    Ok(walker.finish())
}

/// A game being replayed ply by ply in the order of its text (each move, then its
/// variations, then the move after it): the one loop behind [`replay`] and the
/// [`Replay`](crate::Replay) iterator. Variations are kept on an explicit stack.
#[derive(Debug)]
pub(crate) struct Walker<'g> {
    game: &'g Game,
    variations: bool,
    start: Position,
    found: Found,
    history: History,
    hash: u64,
    stack: Vec<Frame<'g>>,
    end: Option<(Position, u32)>,
    index: usize,
}

impl<'g> Walker<'g> {
    /// Starts at the position the game's tags give; with `variations`, the variations are
    /// played too.
    pub(crate) fn new(game: &'g Game, variations: bool) -> Result<Walker<'g>, ReplayError> {
        let (start, warnings) = start_position_with_warnings(game)?;
        let mut history = History::new();
        let hash = start.zobrist();
        history.push(hash);
        let stack = vec![Frame {
            line: &game.mainline,
            next: 0,
            pos: start.clone(),
            checkers: start.checkers(),
            ply: 0,
            depth: 0,
        }];
        Ok(Walker {
            game,
            variations,
            start,
            found: Found {
                warnings,
                fixes: Vec::new(),
            },
            history,
            hash,
            stack,
            end: None,
            index: 0,
        })
    }

    /// Plays the next move of the text; `None` once every line is played.
    pub(crate) fn step(&mut self) -> Result<Option<Ply<'_>>, ReplayError> {
        Ok(self.advance()?.map(|(at, mv, node, ply, depth)| Ply {
            position: &self.stack[at].pos,
            mv,
            node,
            ply,
            depth,
        }))
    }

    /// [`Walker::step`], the position copied out.
    pub(crate) fn step_owned(&mut self) -> Result<Option<Played<'g>>, ReplayError> {
        Ok(self.advance()?.map(|(at, mv, node, ply, depth)| Played {
            position: self.stack[at].pos.clone(),
            mv,
            node,
            ply,
            depth,
        }))
    }

    /// Plays the next move: the frame that holds the position after it, the move, its node,
    /// its ply and depth.
    #[allow(clippy::type_complexity)]
    fn advance(
        &mut self,
    ) -> Result<Option<(usize, Option<Move>, &'g Node, u32, usize)>, ReplayError> {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                return Ok(None);
            };
            let line: &'g Line = frame.line;
            let Some(node) = line.moves.get(frame.next) else {
                if let Some(done) = self.stack.pop()
                    && done.depth == 0
                {
                    self.end = Some((done.pos, done.ply));
                }
                continue;
            };
            frame.next += 1;
            let branches = self.variations && !node.variations.is_empty();
            let before = branches.then(|| (frame.pos.clone(), frame.checkers));
            let ply = frame.ply + 1;
            let depth = frame.depth;
            let (m, repair) =
                resolve_node_with(&mut frame.pos, node, ply, depth, Some(frame.checkers))?;
            if depth == 0 {
                self.hash = match m {
                    Some(m) => frame.pos.play_zobrist(self.hash, m),
                    None => frame.pos.zobrist(),
                };
                self.history.push(self.hash);
            } else if let Some(m) = m {
                frame.pos.play_unchecked(m);
            }
            frame.checkers = frame.pos.checkers();
            let checks = frame.checkers.any();
            self.found
                .after_move(self.index, node, &frame.pos, repair, m.is_some(), checks);
            self.index += 1;
            frame.ply = ply;
            let at = self.stack.len() - 1;
            if let Some((before, checkers)) = before {
                for line in node.variations.iter().rev() {
                    self.stack.push(Frame {
                        line,
                        next: 0,
                        pos: before.clone(),
                        checkers,
                        ply: ply - 1,
                        depth: depth + 1,
                    });
                }
            }
            return Ok(Some((at, m, node, ply, depth)));
        }
    }

    /// What the replay found, once [`Walker::step`] has given `None`, and the SAN to write
    /// for each repaired move.
    pub(crate) fn finish(self) -> (Replayed, Vec<(usize, SanPlus)>) {
        let Walker {
            game,
            start,
            mut found,
            history,
            end,
            ..
        } = self;
        let (end, plies) = end.unwrap_or_else(|| (start.clone(), 0));
        let termination = end.termination(&history);
        let last = game.mainline.moves.last().map(|m| m.at);
        game_end_warnings(game, termination, last, &mut found.warnings);
        let replayed = Replayed {
            start,
            end,
            plies,
            termination,
            warnings: found.warnings,
        };
        (replayed, found.fixes)
    }
}

/// Checks a game: every move legal (mainline and variations). What was read leniently (a
/// repaired `FEN` tag, a move in UCI, a wrong check mark, a missing result, …) and a result
/// that contradicts a mate (or stalemate) on the board are warnings ([`Replayed::warnings`]),
/// not errors. What `tabia pgn --check` calls.
///
/// ```
/// use tabia_position::check_game;
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0".parse()?;
/// let checked = check_game(&game)?;
/// assert_eq!(checked.warnings[0].to_string(), "result 1-0 but the game ends in black mates (0-1)");
/// let game: Game = "1. e4 e5 2. Ke3 *".parse()?;
/// let err = check_game(&game).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move 2. Ke3 (ply 3): no white king can go to e3");
/// assert_eq!(err.origin().map(|o| (o.line, o.column)), Some((1, 13)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ReplayError`]: the first illegal move, or a bad start position.
pub fn check_game(game: &Game) -> Result<Replayed, ReplayError> {
    replay(game, |_| {})
}

/// The EPD after every mainline ply (Chess::PGN::EPD `epdlist`), from the tags' start
/// position, or from `start` when given (`epdset`).
///
/// ```
/// use tabia_position::{EpRule, epdlist};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "1. e4 c5 2. Nf3 *".parse()?;
/// assert_eq!(epdlist(&game, None, EpRule::Always)?, [
///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6",
///     "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -",
/// ]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first illegal move, or a bad start position.
pub fn epdlist(
    game: &Game,
    start: Option<Position>,
    ep: EpRule,
) -> Result<Vec<String>, ReplayError> {
    let mut out = Vec::with_capacity(game.mainline.moves.len());
    replay_mainline(game, start, |ply| out.push(ply.position.epd(ep)))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        text.parse().expect("well-formed game")
    }

    #[test]
    fn null_moves_pass_the_turn() {
        let g = game("1. e4 e5 2. Nf3 (2. -- Nc6 3. Nf3 Nf6) 2... Nc6 3. -- Nf6 *");
        let mut seen = Vec::new();
        let done = replay(&g, |p| seen.push((p.ply, p.depth, p.mv.is_none()))).expect("legal");
        assert_eq!(done.plies, 6);
        assert_eq!(seen[3], (3, 1, true));
        assert_eq!(seen[8], (5, 0, true));
        assert_eq!(
            done.end.fen(EpRule::Always),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 4"
        );
        let epds = epdlist(&g, None, EpRule::Always).expect("legal");
        assert_eq!(
            epds[4],
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -"
        );
    }

    #[test]
    fn no_null_move_in_check() {
        let g = game("1. e4 f5 2. Qh5+ -- *");
        let err = check_game(&g).expect_err("illegal");
        assert_eq!(
            err.to_string(),
            "illegal move 2... -- (ply 4): a null move is not possible while in check"
        );
    }
}
