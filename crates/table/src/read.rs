//! Reading one game for the tables in one pass over its bytes, as the PGN reader reads it: no
//! game tree, the mainline replayed by [`MainlineReplayer`] (the same lenient reading and the
//! same warnings as everywhere else), the opening classified from the moves played, the
//! Polyglot hash of each ply updated incrementally, and what each ply needs kept in a scratch
//! area reused from game to game (no allocation per move unless a move has a comment).
//!
//! A game with variations is checked once more by [`Checker`] (every move of every variation,
//! what `tabia pgn --check` does), so that an illegal move in a variation is the game's error.
//!
//! A game with an error keeps the plies of its mainline replayed before the error (as
//! python-chess keeps the legal moves before an illegal one): the moves before an illegal move
//! or a syntax error, the whole mainline for an illegal move in a variation, none for a start
//! position that does not read. Its `ply_count` counts them, so that the moves table has
//! `ply_count` rows for every game.

use std::{borrow::Cow, cell::RefCell, ops::Range};

use tabia_eco::{Follower, Table};
use tabia_notation::{
    decode,
    pgn::{
        Command, Comment, CommentPart, CommentParts, Eval, Nag, Origin, Outcome, RawComment,
        RawGame, RawTag, ReadError, SanPlus, Skip, Visitor, Warning as ReaderWarning, push_tag,
    },
};
use tabia_position::{
    Checker, EpRule, MainlineReplayer, Position, ReplayError, ReplayWarning, Replayed,
    ZobristTracker,
    shakmaty::{CastlingMode, Move},
    variant_mode,
};

use crate::{
    BoardRecord,
    record::{GameRecord, MoveRecord, ReadOptions, RowProblem},
};

/// What is kept of one ply until the game is known to read (its moves then go to the table).
#[derive(Debug, Clone)]
pub(crate) struct Ply {
    /// The move as written.
    pub(crate) san: SanPlus,
    /// The move played (`None` for a null move).
    pub(crate) mv: Option<Move>,
    /// Polyglot hash of the position after the move.
    pub(crate) zobrist: u64,
    pub(crate) clock_ms: Option<u64>,
    pub(crate) emt_ms: Option<u64>,
    pub(crate) eval: Option<Eval>,
    /// The move's NAGs, in [`Scratch::nags`].
    pub(crate) nags: Range<usize>,
    /// The comments after the move (commands removed, joined by a space), in
    /// [`Scratch::text`]; empty when none.
    pub(crate) comment: Range<usize>,
    /// The FEN after the move, in [`Scratch::text`] (with [`ReadOptions::fen`]).
    pub(crate) fen: Range<usize>,
}

impl Ply {
    /// The move in UCI (`0000` for a null move), appended to `out`.
    pub(crate) fn write_uci(&self, mode: CastlingMode, out: &mut String) {
        match self.mv {
            Some(m) => m.to_uci(mode).append_to_string(out),
            None => out.push_str("0000"),
        }
    }
}

/// The plies of the game being read, and the text they point into; reused from game to game.
#[derive(Debug)]
pub(crate) struct Scratch {
    pub(crate) plies: Vec<Ply>,
    pub(crate) nags: Vec<u8>,
    pub(crate) text: String,
    /// How the game writes castling in UCI.
    pub(crate) mode: CastlingMode,
    /// The SAN being replayed (set before the replayer is told of it).
    pending: Option<SanPlus>,
    /// With [`ReadOptions::boards`]: the position before each ply and its move, beside
    /// `plies`, and the position before the next ply.
    pub(crate) boards: Vec<BoardRecord>,
    before: Option<BoardRecord>,
    hasher: ZobristTracker,
    /// The opening by position, along this replay.
    classifier: Option<Follower<'static>>,
    /// Whether the classifier met a move it cannot follow (a null move).
    unclassified: bool,
    /// The en-passant rule of the FENs and boards ([`ReadOptions::ep`]); kept from game to game.
    ep: EpRule,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            plies: Vec::new(),
            nags: Vec::new(),
            text: String::new(),
            mode: CastlingMode::Standard,
            pending: None,
            boards: Vec::new(),
            before: None,
            hasher: ZobristTracker::default(),
            classifier: None,
            unclassified: false,
            ep: EpRule::Legal,
        }
    }
}

impl Scratch {
    fn clear(&mut self) {
        self.plies.clear();
        self.nags.clear();
        self.text.clear();
        self.mode = CastlingMode::Standard;
        self.pending = None;
        self.boards.clear();
        self.before = None;
        self.hasher = ZobristTracker::default();
        self.classifier = None;
        self.unclassified = false;
    }

    /// Notes the ply just played: `pos` is the position after `mv`.
    fn played(&mut self, pos: &Position, mv: Option<Move>, fen: bool) {
        let zobrist = self.hasher.after(pos, mv);
        if self.plies.is_empty() {
            self.mode = pos.castling_mode();
        }
        if let Some(classifier) = self.classifier.as_mut().filter(|c| !c.is_done()) {
            match mv {
                Some(_) => {
                    classifier.follow(pos);
                }
                None => self.unclassified = true,
            }
        }
        let fen = if fen {
            let start = self.text.len();
            self.text.push_str(&pos.fen(self.ep));
            start..self.text.len()
        } else {
            0..0
        };
        // The position after this ply is the one before the next.
        let before = match self.before.as_mut() {
            Some(before) => Some(std::mem::replace(
                before,
                BoardRecord::position(pos, self.ep),
            )),
            None => None,
        };
        let Some(san) = self.pending.take() else {
            return;
        };
        if let Some(before) = before {
            self.boards.push(before.with_move(mv.as_ref(), self.mode));
        }
        let at = self.nags.len();
        self.plies.push(Ply {
            san,
            mv,
            zobrist,
            clock_ms: None,
            emt_ms: None,
            eval: None,
            nags: at..at,
            comment: 0..0,
            fen,
        });
    }

    /// Adds a comment's commands and text to the last ply.
    fn comment(&mut self, text: &str) {
        let Some(ply) = self.plies.last_mut() else {
            return;
        };
        // One pass over the pieces (nothing collected): the first clock, elapsed time and
        // evaluation of the ply, and the text pieces joined by a space (what `Comment::text`
        // gives), written straight to `text`. The comments of a ply are contiguous: nothing else
        // is written to `text` between them (the FEN of the next ply comes after).
        for piece in CommentParts::new(text) {
            match piece {
                CommentPart::Command { command, .. } => match command {
                    Command::Clock(ms) => ply.clock_ms = ply.clock_ms.or(Some(ms)),
                    Command::Emt(ms) => ply.emt_ms = ply.emt_ms.or(Some(ms)),
                    Command::Eval(eval) => ply.eval = ply.eval.or(Some(eval)),
                    _ => {}
                },
                CommentPart::Text(_) => {
                    let Some(text) = piece.trimmed_text() else {
                        continue;
                    };
                    if ply.comment.is_empty() {
                        ply.comment = self.text.len()..self.text.len();
                    } else {
                        self.text.push(' ');
                    }
                    self.text.push_str(text);
                    ply.comment.end = self.text.len();
                }
            }
        }
    }

    /// A comment that is a lone clock ([`Comment::lone_clock`]): what [`Scratch::comment`]
    /// makes of it.
    fn clock(&mut self, ms: u64) {
        if let Some(ply) = self.plies.last_mut() {
            ply.clock_ms = ply.clock_ms.or(Some(ms));
        }
    }

    fn nag(&mut self, nag: Nag) {
        if let Some(ply) = self.plies.last_mut() {
            self.nags.push(nag.0);
            ply.nags.end = self.nags.len();
        }
    }

    /// The opening named by the positions the game reached, if it was classified.
    fn opening(&self) -> Option<&'static tabia_eco::Opening> {
        if self.unclassified {
            return None;
        }
        self.classifier
            .as_ref()
            .and_then(Follower::found)
            .map(|m| m.opening)
    }

    /// The plies as [`MoveRecord`]s.
    pub(crate) fn records(&self) -> Vec<MoveRecord> {
        self.plies
            .iter()
            .zip(1..)
            .map(|(p, ply)| {
                let mut uci = String::with_capacity(5);
                p.write_uci(self.mode, &mut uci);
                MoveRecord {
                    ply,
                    san: p.san.to_string(),
                    uci,
                    zobrist: p.zobrist,
                    fen: (!p.fen.is_empty()).then(|| self.text[p.fen.clone()].to_owned()),
                    clock_ms: p.clock_ms,
                    emt_ms: p.emt_ms,
                    eval: p.eval,
                    nags: self.nags[p.nags.clone()].to_vec(),
                    comment: (!p.comment.is_empty())
                        .then(|| self.text[p.comment.clone()].to_owned()),
                    board: self.boards.get(ply as usize - 1).copied(),
                }
            })
            .collect()
    }
}

/// The PGN visitor: the mainline to the replayer and the scratch area, the tags kept,
/// variations read (for their syntax) but not replayed.
struct GameVisitor<'s, F> {
    replayer: MainlineReplayer<F>,
    scratch: &'s RefCell<Scratch>,
    tags: &'s mut Vec<(String, String)>,
    /// Tag pairs of earlier games, their strings reused for the next ones.
    spare: &'s mut Vec<(String, String)>,
    depth: usize,
    variations: bool,
    partial: Vec<u8>,
    /// Whether the moves are wanted (else their comments are not read).
    moves: bool,
    /// Whether the position before each move is kept ([`ReadOptions::boards`]).
    boards: bool,
    /// Whether a move of the mainline did not play: its NAGs and comments, and those of the
    /// moves after it, belong to no ply kept.
    stopped: bool,
}

impl<F: FnMut(&Position, Option<Move>, u32)> Visitor for GameVisitor<'_, F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.spare.append(self.tags);
        self.scratch.borrow_mut().clear();
        self.depth = 0;
        self.variations = false;
        self.partial.clear();
        self.stopped = false;
        let _ = self.replayer.begin_game(start);
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        push_tag(self.tags, self.spare, name, value);
        self.replayer.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        let skip = self.replayer.begin_movetext();
        if !skip.0 && self.boards {
            let mut scratch = self.scratch.borrow_mut();
            let ep = scratch.ep;
            scratch.before = Some(BoardRecord::position(self.replayer.position(), ep));
        }
        if !skip.0 && classified(self.tags) {
            self.scratch.borrow_mut().classifier = Some(Follower::new(Table::embedded()));
        }
        skip
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.depth == 0 && !self.stopped {
            self.scratch.borrow_mut().pending = Some(san);
            self.replayer.san(san, at);
            // A move played took its SAN; one left pending did not play (an illegal move, a
            // null move in check): the replay stops there.
            self.stopped = self.scratch.borrow().pending.is_some();
        }
    }

    fn nag(&mut self, nag: Nag) {
        if self.depth == 0 && !self.stopped {
            self.scratch.borrow_mut().nag(nag);
        }
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        if self.depth == 0 && self.moves && !self.stopped {
            self.partial.extend_from_slice(comment.as_bytes());
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        if self.depth > 0 || !self.moves || self.stopped {
            return;
        }
        if self.partial.is_empty() {
            let mut scratch = self.scratch.borrow_mut();
            // The comment lichess writes after every move, `{ [%clk 0:03:00] }`, read at once.
            match Comment::lone_clock(comment.as_bytes()) {
                Some(ms) => scratch.clock(ms),
                None => scratch.comment(&comment.decode()),
            }
        } else {
            self.partial.extend_from_slice(comment.as_bytes());
            let text = decode(&self.partial).into_owned();
            self.partial.clear();
            self.scratch.borrow_mut().comment(&text);
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.depth += 1;
        self.variations = true;
        // Read on (a syntax error in a variation is the game's error), but not replayed.
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.replayer.outcome(outcome);
    }

    fn warning(&mut self, warning: ReaderWarning) {
        self.replayer.warning(warning);
    }

    fn end_game(&mut self) -> Self::Output {
        self.replayer.end_game()
    }
}

/// Whether a game with these tags is classified by position: standard chess from the
/// standard start (the rule of [`Table::classify_game`]).
fn classified(tags: &[(String, String)]) -> bool {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    match tag("Variant").map(variant_mode) {
        Some(Some(CastlingMode::Chess960) | None) => return false,
        Some(Some(CastlingMode::Standard)) | None => {}
    }
    match tag("FEN").map(Position::from_arg) {
        None => true,
        Some(Ok(pos)) => pos.key() == Position::new().key(),
        Some(Err(_)) => false,
    }
}

/// Reads game `number` (`raw`) into `record` (everything but its moves and its movetext, see
/// [`movetext`]) and `scratch` (its plies, when it reads), in `buffer` (kept from game to
/// game, see [`RawGame::visit_in`]).
pub(crate) fn read_game(
    raw: &RawGame,
    number: u64,
    options: ReadOptions,
    scratch: &RefCell<Scratch>,
    spare: &mut Vec<(String, String)>,
    buffer: &mut Vec<u8>,
) -> GameRecord {
    let mut record = GameRecord {
        number,
        start: raw.start,
        tags: Vec::new(),
        movetext: None,
        plies: None,
        opening: None,
        final_zobrist: None,
        errors: Vec::new(),
        warnings: Vec::new(),
        moves: Vec::new(),
    };
    let fen = options.moves && options.fen;
    scratch.borrow_mut().ep = options.ep;
    let replayer = MainlineReplayer::new(|pos: &Position, mv, _ply| {
        scratch.borrow_mut().played(pos, mv, fen);
    });
    let mut visitor = GameVisitor {
        replayer,
        scratch,
        tags: &mut record.tags,
        spare,
        depth: 0,
        variations: false,
        partial: Vec::new(),
        moves: options.moves,
        boards: options.moves && options.boards,
        stopped: false,
    };
    let read = raw.visit_in(&mut visitor, buffer);
    let variations = visitor.variations;
    match read {
        Ok(Ok(replayed)) => {
            let scratch = scratch.borrow();
            record.plies = Some(replayed.plies);
            record.final_zobrist = Some(
                scratch
                    .plies
                    .last()
                    .map_or_else(|| replayed.end.zobrist(), |p| p.zobrist),
            );
            record.opening = scratch.opening();
            record.warnings = replayed.warnings.iter().map(warning).collect();
        }
        Ok(Err(err)) => record.errors.push(replay_error(&err)),
        Err(err) => record.errors.push(game_error(&err)),
    }
    if variations && record.errors.is_empty() {
        check_variations(raw, &mut record);
    }
    if !record.errors.is_empty() {
        // The plies replayed before the error stay (the module's overview); the game has no
        // final position and no opening.
        let plies = scratch.borrow().plies.len();
        record.plies = Some(u32::try_from(plies).unwrap_or(u32::MAX));
        record.final_zobrist = None;
        record.opening = None;
    }
    record
}

/// Checks every variation of a game whose mainline read, as `tabia pgn --check` does: an
/// illegal move in a variation is the game's error; otherwise the checker's warnings (those
/// of the variations' moves included) are the game's.
fn check_variations(raw: &RawGame, record: &mut GameRecord) {
    match raw.visit(&mut Checker::new()) {
        Ok(Ok(checked)) => record.warnings = checked.warnings.iter().map(warning).collect(),
        Ok(Err(err)) => record.errors.push(replay_error(&err)),
        Err(err) => record.errors.push(game_error(&err)),
    }
}

fn game_error(err: &ReadError) -> RowProblem {
    match err.syntax() {
        Some(error) => RowProblem {
            line: error.line(),
            column: error.column(),
            message: error.brief(),
            level: None,
        },
        None => RowProblem {
            line: None,
            column: None,
            message: err.to_string(),
            level: None,
        },
    }
}

fn replay_error(err: &ReplayError) -> RowProblem {
    RowProblem::at(err.to_string(), err.origin())
}

fn warning(warning: &ReplayWarning) -> RowProblem {
    RowProblem {
        level: Some(warning.level()),
        ..RowProblem::at(warning.to_string(), warning.origin())
    }
}

/// The movetext of a game's bytes: everything after the tag pairs (and the blank lines and `%`
/// escape lines among them), trimmed.
pub(crate) fn movetext(bytes: &[u8]) -> Option<String> {
    movetext_text(bytes).map(Cow::into_owned)
}

/// [`movetext`], borrowed from `bytes` when they are UTF-8 (the games table copies it once,
/// into its column).
pub(crate) fn movetext_text(bytes: &[u8]) -> Option<Cow<'_, str>> {
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        let line = bytes[start..end].trim_ascii();
        let is_tag =
            line.first() == Some(&b'[') && line.get(1).is_some_and(u8::is_ascii_alphanumeric);
        if !(line.is_empty() || is_tag || line.first() == Some(&b'%') || line == b"\xef\xbb\xbf") {
            break;
        }
        start = end;
    }
    let text = bytes[start..].trim_ascii();
    (!text.is_empty()).then(|| decode(text))
}

impl GameRecord {
    /// Reads game `number` of its input: parses it, replays its mainline, names its opening.
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, RawGame};
    /// use tabia_table::{GameRecord, ReadOptions};
    ///
    /// let raw = RawGame {
    ///     bytes: b"[White \"a\"]\n[WhiteElo \"?\"]\n\n1. e4 { [%clk 0:03:00] } e5 1-0\n".to_vec(),
    ///     start: Origin::default(),
    /// };
    /// let record = GameRecord::read(&raw, 1, ReadOptions { moves: true, ..ReadOptions::default() });
    /// assert_eq!(record.plies, Some(2));
    /// assert_eq!(record.movetext.as_deref(), Some("1. e4 { [%clk 0:03:00] } e5 1-0"));
    /// assert_eq!(record.moves[0].uci, "e2e4");
    /// assert_eq!(record.moves[0].clock_ms, Some(180_000));
    /// assert!(record.errors.is_empty());
    /// ```
    pub fn read(raw: &RawGame, number: u64, options: ReadOptions) -> GameRecord {
        let scratch = std::cell::RefCell::new(Scratch::default());
        let mut record = read_game(
            raw,
            number,
            options,
            &scratch,
            &mut Vec::new(),
            &mut Vec::new(),
        );
        record.movetext = movetext(&raw.bytes);
        if options.moves {
            record.moves = scratch.borrow().records();
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_after_tags() {
        assert_eq!(
            movetext(b"[A \"1\"]\n[B \"2\"]\n\n1. e4 e5\n2. Nf3 *\n").as_deref(),
            Some("1. e4 e5\n2. Nf3 *")
        );
        assert_eq!(movetext(b"1. e4 *").as_deref(), Some("1. e4 *"));
        assert_eq!(movetext(b"[A \"1\"]\n\n").as_deref(), None);
        assert_eq!(
            movetext(b"[A \"1\"]\n{ [%clk 0:00:01]\n[%eval 1] } *").as_deref(),
            Some("{ [%clk 0:00:01]\n[%eval 1] } *")
        );
    }

    fn read(pgn: &str) -> GameRecord {
        let raw = RawGame {
            bytes: pgn.as_bytes().to_vec(),
            start: Origin::default(),
        };
        let options = ReadOptions {
            moves: true,
            boards: true,
            ..ReadOptions::default()
        };
        GameRecord::read(&raw, 1, options)
    }

    fn ucis(record: &GameRecord) -> Vec<&str> {
        record.moves.iter().map(|m| m.uci.as_str()).collect()
    }

    /// A game with an error keeps the plies replayed before it, and counts them; what follows
    /// the illegal move (its comment, its NAG, the next moves) belongs to none of them.
    #[test]
    fn an_error_keeps_the_plies_before_it() {
        let record = read("1. e4 e5 2. Nf3 Ke7 3. Bb5 { kept } Kxe5 $2 { dropped } 4. d4 *");
        assert_eq!(record.errors.len(), 1, "{:?}", record.errors);
        assert!(record.errors[0].message.contains("illegal move 3... Kxe5"));
        assert_eq!(ucis(&record), ["e2e4", "e7e5", "g1f3", "e8e7", "f1b5"]);
        assert_eq!(record.plies, Some(5));
        assert_eq!(record.moves[4].comment.as_deref(), Some("kept"));
        assert!(record.moves[4].nags.is_empty());
        assert_eq!(record.moves.iter().filter(|m| m.board.is_some()).count(), 5);
        assert_eq!((record.final_zobrist, record.opening), (None, None));

        // An illegal move in a variation: the whole mainline.
        let record = read("1. e4 (1. d4 Ke7) e5 2. Nf3 *");
        assert_eq!(record.errors.len(), 1, "{:?}", record.errors);
        assert_eq!(ucis(&record), ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(record.plies, Some(3));

        // A start that does not read: none.
        let record = read("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *");
        assert_eq!(record.errors.len(), 1, "{:?}", record.errors);
        assert_eq!((record.moves.len(), record.plies), (0, Some(0)));

        // A null move in check does not play either.
        let record = read("1. e4 f5 2. Qh5+ -- 3. Qxf5 *");
        assert_eq!(record.errors.len(), 1, "{:?}", record.errors);
        assert_eq!(ucis(&record), ["e2e4", "f7f5", "d1h5"]);
    }
}
