//! [`Matcher`]: a PGN visitor that decides whether each game matches a [`Query`], as the
//! reader reads it.

use tabia_eco::{Follower, Table};
use tabia_notation::pgn::{Origin, RawComment, RawTag, SanPlus, Skip, Visitor};
use tabia_position::{
    EpRule, History, MoveError, MoveErrorKind, Position, ReplayError, ReplayErrorKind, StartTags,
    shakmaty::{Bitboard, Move, Position as _, Role},
};

use crate::{
    criterion::{Criterion, Feature, GroupKey, Side},
    material::counts,
    query::{Phase, Query},
};

/// Where a criterion matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The index of the criterion in [`Query::criteria`].
    pub criterion: usize,
    /// The ply (0 is the start position) for criteria on positions and moves; none for
    /// criteria on tags.
    pub ply: Option<u32>,
    /// The FEN of the position there.
    pub fen: Option<String>,
    /// Where the move is in the game tree: the variations taken from the mainline, each as
    /// (index of the move in its line, index of the variation among that move's), empty for
    /// the mainline.
    pub path: Vec<(u32, u32)>,
    /// How many moves of that line lead to the position (0: before its first move).
    pub index: u32,
}

/// Whether a game matched, and where.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Every criterion group holds.
    pub matched: bool,
    /// For a match: where it was decided (the criterion that matched last, at the latest
    /// ply); none when the query has no criteria.
    pub hit: Option<Hit>,
    /// Which of the tags the query reads the game has: bit `i` for
    /// [`Query::tag_names`]`[i]` (the first 64), so that a caller can tell a tag no game has
    /// (a misspelt `--tag Whiteelo`) from one no game matched.
    pub tags_present: u64,
}

/// How far a group is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Pending,
    Yes(Hit),
    No,
}

/// A line being replayed: the mainline, or a variation inside it.
#[derive(Debug, Clone)]
struct Line {
    pos: Position,
    /// The pieces giving check in `pos`, kept from move to move for resolving the next one.
    checkers: Bitboard,
    hash: u64,
    /// The position before the last move (kept only when variations are searched).
    before: Option<(Position, u64)>,
    ply: u32,
    moves: u32,
    variations_of_last: u32,
    path: Vec<(u32, u32)>,
    /// Which material the position has: a number given anew whenever the material may have
    /// changed (a new line, a capture, a promotion), so that criteria on material alone are
    /// not tested again on the same material.
    material: u64,
}

/// A PGN [`Visitor`] that matches each game against a [`Query`] as it is read, and gives its
/// [`Verdict`] (or the [`ReplayError`] that kept it from deciding).
///
/// It reads only what the query needs: criteria on tags are decided before the movetext, which
/// is then skipped unread when they fail or when nothing else is asked; criteria on positions
/// replay the mainline (and the variations with [`Options::variations`](crate::Options)),
/// comparing Polyglot hashes first and full keys on a hit, and stop reading the game as soon
/// as it is decided — for instance once a pawn the target position has on its home square has
/// moved.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_select::{Criterion, Matcher, Options, Query};
///
/// let query = Query::new(
///     vec![Criterion::Position("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -".parse()?)],
///     Options::default(),
/// );
/// let pgn = b"1. Nf3 c5 2. e4 *\n\n1. e4 e5 *\n";
/// let mut matcher = Matcher::new(&query);
/// let mut reader = PgnReader::new(&pgn[..]);
/// let first = reader.read_game(&mut matcher)?.expect("a game")?;
/// assert!(first.matched);
/// assert_eq!(first.hit.and_then(|hit| hit.ply), Some(3));
/// let second = reader.read_game(&mut matcher)?.expect("a game")?;
/// assert!(!second.matched);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Matcher<'q> {
    query: &'q Query,
    start: Origin,
    /// The values of the tags the query looks at, as (index in the query's `tag_names`, value):
    /// the first `tag_count` are this game's, the strings after them are kept for the next.
    tags: Vec<(usize, String)>,
    tag_count: usize,
    start_tags: StartTags,
    states: Vec<State>,
    /// Groups still pending that need the moves played.
    replaying: bool,
    /// Groups still pending that need the movetext.
    scanning: bool,
    lines: Vec<Line>,
    /// Depth of variations being skipped inside searched ones (not replayed).
    plies: u32,
    history: History,
    classifier: Option<Follower<'static>>,
    /// Per `--moves` criterion: still following the game.
    following: Vec<bool>,
    error: Option<ReplayError>,
    /// The movetext was read to its end (so the end position is the game's).
    complete: bool,
    /// The last number given to a line's material (see [`Line::material`]).
    materials: u64,
    /// Per group on material alone (`--material`, `--piece-count`): the material it was last
    /// tested on without a match, and whether the position was allowed there.
    tested: Vec<Option<(u64, bool)>>,
}

impl<'q> Matcher<'q> {
    /// A matcher for `query`.
    pub fn new(query: &'q Query) -> Matcher<'q> {
        Matcher {
            query,
            start: Origin::default(),
            tags: Vec::new(),
            tag_count: 0,
            start_tags: StartTags::default(),
            states: vec![State::Pending; query.groups.len()],
            replaying: false,
            scanning: false,
            lines: Vec::new(),
            plies: 0,
            history: History::new(),
            classifier: None,
            following: Vec::new(),
            error: None,
            complete: false,
            materials: 0,
            tested: vec![None; query.groups.len()],
        }
    }

    fn tag_value(&self, name: &str) -> Option<&str> {
        self.tags[..self.tag_count]
            .iter()
            .find(|&&(i, _)| self.query.tag_names[i] == name)
            .map(|(_, v)| v.as_str())
    }

    /// Decides the groups that need only tags.
    fn decide_tags(&mut self) {
        let query = self.query;
        for (g, group) in query.groups.iter().enumerate() {
            if group.phase != Phase::Tags {
                continue;
            }
            let hit = group
                .members
                .iter()
                .copied()
                .find(|&i| self.tag_criterion_holds(&query.criteria[i]));
            self.states[g] = match hit {
                Some(criterion) => State::Yes(Hit {
                    criterion,
                    ply: None,
                    fen: None,
                    path: Vec::new(),
                    index: 0,
                }),
                None => State::No,
            };
        }
    }

    fn tag_criterion_holds(&self, criterion: &Criterion) -> bool {
        match criterion {
            Criterion::Tag(c) => c.matches(self.tag_value(c.name())),
            Criterion::Player(side, pattern) => {
                let check = |name: &str| self.tag_value(name).is_some_and(|v| pattern.is_match(v));
                match side {
                    Side::Either => check("White") || check("Black"),
                    Side::White => check("White"),
                    Side::Black => check("Black"),
                }
            }
            Criterion::Result(c) => self.tag_value("Result").is_some_and(|v| c.matches(v)),
            Criterion::Elo(c) => c.matches(self.tag_value("WhiteElo"), self.tag_value("BlackElo")),
            Criterion::Date(c) => self.tag_value("Date").is_some_and(|v| c.contains_tag(v)),
            Criterion::Variant(c) => c.matches(self.tag_value("Variant")),
            Criterion::Eco(c) => self.tag_value("ECO").is_some_and(|v| c.matches(v)),
            Criterion::Feature(f @ (Feature::HigherRatedWon | Feature::LowerRatedWon)) => {
                let elo = |name| {
                    self.tag_value(name)
                        .and_then(|v| v.trim().parse::<u32>().ok())
                };
                let (Some(white), Some(black)) = (elo("WhiteElo"), elo("BlackElo")) else {
                    return false;
                };
                let higher_won = match self.tag_value("Result") {
                    Some("1-0") => white > black,
                    Some("0-1") => black > white,
                    _ => return false,
                };
                white != black && (higher_won == (*f == Feature::HigherRatedWon))
            }
            _ => false,
        }
    }

    /// Whether the game is decided: some group fails, or none is pending.
    fn decided(&self) -> bool {
        self.states.contains(&State::No) || self.states.iter().all(|s| *s != State::Pending)
    }

    /// Recomputes what is still needed.
    fn refresh(&mut self) {
        let pending = |phase| {
            self.query
                .groups
                .iter()
                .zip(&self.states)
                .any(|(g, s)| g.phase == phase && *s == State::Pending)
        };
        let failed = self.states.contains(&State::No);
        self.replaying = !failed && pending(Phase::Replay) && self.error.is_none();
        self.scanning = !failed && pending(Phase::Movetext);
    }

    fn hit_here(&self, criterion: usize) -> Hit {
        let line = self.lines.last().expect("replaying");
        Hit {
            criterion,
            ply: Some(line.ply),
            fen: Some(line.pos.fen(EpRule::Always)),
            path: line.path.clone(),
            index: line.moves,
        }
    }

    /// Checks the position criteria at the current position of the current line.
    fn at_position(&mut self) {
        let query = self.query;
        let options = query.options;
        let line = self.lines.last().expect("replaying");
        let in_mainline = self.lines.len() == 1;
        let prune = in_mainline && !options.variations;
        let allowed = options.ply_range.is_none_or(|r| r.contains(line.ply))
            && options.to_move.is_none_or(|c| c == line.pos.turn());
        let past_range = options.ply_range.is_some_and(|r| r.is_below(line.ply));
        for (g, group) in query.groups.iter().enumerate() {
            if self.states[g] != State::Pending || group.phase != Phase::Replay {
                continue;
            }
            let positional = matches!(
                group.key,
                GroupKey::Position
                    | GroupKey::Zobrist
                    | GroupKey::FenPattern
                    | GroupKey::Material
                    | GroupKey::PieceCount
            );
            if !positional {
                continue;
            }
            let line = self.lines.last().expect("replaying");
            let on_material = matches!(group.key, GroupKey::Material | GroupKey::PieceCount);
            if on_material && self.tested[g] == Some((line.material, allowed)) {
                // Tested on this material already, with the same answer to come.
                continue;
            }
            // Counted once for matching and for pruning.
            let counts = (group.key == GroupKey::Material).then(|| counts(line.pos.board()));
            if allowed {
                let found = group.members.iter().copied().find(|&i| {
                    let pos = &line.pos;
                    match &query.criteria[i] {
                        Criterion::Position(t) => t.matches(pos, line.hash),
                        Criterion::Zobrist(z) => z.0 == line.hash,
                        Criterion::FenPattern(p) => p.matches(pos.board()),
                        Criterion::Material(m) => counts.is_some_and(|c| m.matches_counts(&c)),
                        Criterion::PieceCount(b) => {
                            b.contains(pos.board().occupied().count() as u32)
                        }
                        _ => false,
                    }
                });
                if let Some(i) = found {
                    self.states[g] = State::Yes(self.hit_here(i));
                    continue;
                }
            }
            if on_material && !past_range {
                self.tested[g] = Some((line.material, allowed));
            }
            if prune {
                let line = self.lines.last().expect("replaying");
                // Pieces only come back in variants (Crazyhouse): prune standard chess only.
                let standard = line.pos.as_chess().is_some();
                let board = line.pos.board();
                let reachable = !past_range
                    && group.members.iter().any(|&i| match &query.criteria[i] {
                        Criterion::Position(t) => t.reachable_from(&line.pos),
                        Criterion::PieceCount(b) => {
                            !standard
                                || b.min
                                    .is_none_or(|min| board.occupied().count() as u32 >= min)
                        }
                        Criterion::Material(m) => {
                            !standard || counts.is_none_or(|c| m.reachable_counts(&c))
                        }
                        Criterion::FenPattern(p) => !standard || p.reachable(board),
                        _ => true,
                    });
                if !reachable {
                    self.states[g] = State::No;
                }
            }
        }
    }

    /// After a move of the current line: move criteria and per-move features.
    fn after_move(&mut self, m: Option<Move>) {
        let query = self.query;
        let in_mainline = self.lines.len() == 1;
        for (g, group) in query.groups.iter().enumerate() {
            if self.states[g] != State::Pending {
                continue;
            }
            let line = self.lines.last().expect("replaying");
            match group.key {
                GroupKey::Moves if in_mainline => {
                    let ply = line.ply as usize;
                    let mut hit = None;
                    for (k, &i) in group.members.iter().enumerate() {
                        let Criterion::Moves(seq) = &query.criteria[i] else {
                            continue;
                        };
                        if !self.following[k] {
                            continue;
                        }
                        if seq.moves().get(ply - 1).copied() != m {
                            self.following[k] = false;
                        } else if ply == seq.moves().len() {
                            hit = Some(i);
                            break;
                        }
                    }
                    if let Some(i) = hit {
                        self.states[g] = State::Yes(self.hit_here(i));
                    } else if !self.following.iter().any(|&f| f) {
                        self.states[g] = State::No;
                    }
                }
                GroupKey::Feature(Feature::Underpromotion)
                    if m.and_then(|m| m.promotion())
                        .is_some_and(|r| matches!(r, Role::Knight | Role::Bishop | Role::Rook)) =>
                {
                    self.states[g] = State::Yes(self.hit_here(group.members[0]));
                }
                GroupKey::Feature(Feature::Fifty) if line.pos.halfmoves() >= 100 => {
                    self.states[g] = State::Yes(self.hit_here(group.members[0]));
                }
                GroupKey::Feature(Feature::Repetition) if in_mainline => {
                    self.history.push(line.hash);
                    if self.history.repetitions(line.pos.halfmoves()) >= 3 {
                        self.states[g] = State::Yes(self.hit_here(group.members[0]));
                    }
                }
                GroupKey::Eco if in_mainline => {
                    if let (Some(classifier), Some(_)) = (self.classifier.as_mut(), m) {
                        classifier.follow(&line.pos);
                        if classifier.is_done() {
                            self.states[g] = self.eco_state(g);
                        }
                    }
                }
                _ => {}
            }
        }
        self.at_position();
    }

    /// The state of the `--eco` group by position, from what the classifier found.
    fn eco_state(&self, g: usize) -> State {
        let query = self.query;
        let Some(found) = self.classifier.as_ref().and_then(Follower::found) else {
            return State::No;
        };
        let group = &query.groups[g];
        let member = group.members.iter().copied().find(
            |&i| matches!(&query.criteria[i], Criterion::Eco(r) if r.matches(found.opening.eco())),
        );
        match member {
            Some(criterion) => State::Yes(Hit {
                criterion,
                ply: Some(found.ply as u32),
                fen: None,
                path: Vec::new(),
                index: found.ply as u32,
            }),
            None => State::No,
        }
    }

    /// Decides what only the end of the mainline can decide.
    fn finish(&mut self) {
        let query = self.query;
        for (g, group) in query.groups.iter().enumerate() {
            if self.states[g] != State::Pending {
                continue;
            }
            let end = self.complete && self.error.is_none();
            let state = match &group.key {
                GroupKey::Plies if end => {
                    let found = group.members.iter().copied().find(|&i| {
                        matches!(&query.criteria[i], Criterion::Plies(b) if b.contains(self.plies))
                    });
                    match found {
                        Some(criterion) => State::Yes(Hit {
                            criterion,
                            ply: Some(self.plies),
                            fen: None,
                            path: Vec::new(),
                            index: self.plies,
                        }),
                        None => State::No,
                    }
                }
                GroupKey::Feature(
                    f @ (Feature::Checkmate | Feature::Stalemate | Feature::Insufficient),
                ) if end => {
                    // The mainline is the only line left once the movetext is over.
                    let line = &self.lines[0];
                    let holds = match (f, line.pos.as_chess()) {
                        (Feature::Checkmate, _) => line.pos.is_checkmate(),
                        (Feature::Stalemate, Some(chess)) => chess.is_stalemate(),
                        (Feature::Stalemate, None) => line.pos.variant_position().is_stalemate(),
                        (_, Some(chess)) => chess.is_insufficient_material(),
                        (_, None) => line.pos.variant_position().is_insufficient_material(),
                    };
                    if holds {
                        let hit = Hit {
                            criterion: group.members[0],
                            ply: Some(line.ply),
                            fen: Some(line.pos.fen(EpRule::Always)),
                            path: Vec::new(),
                            index: line.moves,
                        };
                        State::Yes(hit)
                    } else {
                        State::No
                    }
                }
                GroupKey::Eco if self.classifier.is_some() => self.eco_state(g),
                _ => State::No,
            };
            self.states[g] = state;
        }
    }

    fn illegal(&mut self, san: SanPlus, at: Origin, error: MoveError) {
        let line = self.lines.last().expect("replaying");
        let number = line.pos.fullmoves();
        let dots = if line.pos.turn().is_white() {
            "."
        } else {
            "..."
        };
        self.error = Some(ReplayError::new(
            ReplayErrorKind::IllegalMove {
                numbered: format!("{number}{dots} {san}"),
                ply: line.ply + 1,
                in_variation: self.lines.len() > 1,
                error,
            },
            Some(at),
        ));
        self.replaying = false;
    }
}

impl Visitor for Matcher<'_> {
    type Output = Result<Verdict, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.start = start;
        self.tag_count = 0;
        self.start_tags.clear();
        self.states.fill(State::Pending);
        self.lines.clear();
        self.plies = 0;
        self.history.clear();
        self.classifier = None;
        self.error = None;
        self.complete = false;
        self.replaying = false;
        self.scanning = false;
        self.tested.fill(None);
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if self.query.needs_replay() {
            self.start_tags.tag(name, value);
        }
        if let Some(i) = self
            .query
            .tag_names
            .iter()
            .position(|n| n.as_bytes() == name)
            && !self.tags[..self.tag_count].iter().any(|&(k, _)| k == i)
        {
            let value = value.decode();
            match self.tags.get_mut(self.tag_count) {
                Some(slot) => {
                    slot.0 = i;
                    slot.1.clear();
                    slot.1.push_str(&value);
                }
                None => self.tags.push((i, value.into_owned())),
            }
            self.tag_count += 1;
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        self.decide_tags();
        self.refresh();
        if !self.replaying && !self.scanning {
            return Skip(true);
        }
        if self.replaying {
            let start = match self.start_tags.start(self.start) {
                Ok(start) => start,
                Err(err) => {
                    self.error = Some(err);
                    return Skip(true);
                }
            };
            let standard = start == Position::new();
            let hash = start.zobrist();
            let query = self.query;
            self.following.clear();
            for group in &query.groups {
                if group.key == GroupKey::Moves {
                    self.following.resize(group.members.len(), standard);
                }
            }
            if query.groups.iter().any(|g| g.key == GroupKey::Eco) && standard {
                self.classifier = Some(Follower::new(Table::embedded()));
            }
            self.history.push(hash);
            self.materials += 1;
            self.lines.push(Line {
                checkers: start.checkers(),
                pos: start,
                hash,
                before: None,
                ply: 0,
                moves: 0,
                variations_of_last: 0,
                path: Vec::new(),
                material: self.materials,
            });
            // `--moves` from a position other than the standard one never matches.
            for (g, group) in query.groups.iter().enumerate() {
                if group.key == GroupKey::Moves && !standard {
                    self.states[g] = State::No;
                }
            }
            self.at_position();
            self.refresh();
        }
        Skip(self.decided())
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.lines.len() <= 1 {
            self.plies += 1;
            if self.scanning {
                for (g, group) in self.query.groups.iter().enumerate() {
                    if group.key == GroupKey::Plies && self.states[g] == State::Pending {
                        let all_below = group.members.iter().all(|&i| {
                            matches!(&self.query.criteria[i], Criterion::Plies(b) if b.is_below(self.plies))
                        });
                        if all_below {
                            self.states[g] = State::No;
                        }
                    }
                }
            }
        }
        if !self.replaying {
            return;
        }
        let keep_before = self.query.options.variations;
        let hashes = self.query.hashes;
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        let m = match san.san {
            tabia_notation::san::San::Null => {
                let before = keep_before.then(|| (line.pos.clone(), line.hash));
                if !line.pos.play_null() {
                    let error = MoveError::new("--", MoveErrorKind::NullMoveInCheck);
                    self.illegal(san, at, error);
                    return;
                }
                if hashes {
                    line.hash = line.pos.zobrist();
                }
                line.checkers = line.pos.checkers();
                line.before = before;
                None
            }
            other => match line.pos.resolve_with_checkers(other, line.checkers) {
                Ok(m) => {
                    if keep_before {
                        line.before = Some((line.pos.clone(), line.hash));
                    }
                    if hashes {
                        line.hash = line.pos.play_zobrist(line.hash, m);
                    } else {
                        line.pos.play_unchecked(m);
                    }
                    line.checkers = line.pos.checkers();
                    // Material changes by captures, promotions and (Crazyhouse) drops only.
                    if m.is_capture() || m.is_promotion() || matches!(m, Move::Put { .. }) {
                        self.materials += 1;
                        line.material = self.materials;
                    }
                    Some(m)
                }
                Err(kind) => {
                    self.illegal(san, at, MoveError::new(other.to_string(), kind));
                    return;
                }
            },
        };
        line.ply += 1;
        line.moves += 1;
        line.variations_of_last = 0;
        self.after_move(m);
        self.refresh();
    }

    fn skip_rest(&mut self) -> Skip {
        Skip(self.decided() || self.error.is_some())
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        if !self.scanning {
            return;
        }
        let query = self.query;
        for (g, group) in query.groups.iter().enumerate() {
            if self.states[g] != State::Pending {
                continue;
            }
            let holds = match group.key {
                GroupKey::Feature(Feature::Commented) => true,
                GroupKey::Feature(Feature::HasClocks) => memchr_clk(comment.as_bytes()),
                _ => false,
            };
            if holds {
                self.states[g] = State::Yes(Hit {
                    criterion: group.members[0],
                    ply: Some(self.plies),
                    fen: None,
                    path: Vec::new(),
                    index: self.plies,
                });
            }
        }
        self.refresh();
    }

    fn begin_variation(&mut self) -> Skip {
        if self.scanning {
            for (g, group) in self.query.groups.iter().enumerate() {
                if group.key == GroupKey::Feature(Feature::HasVariations)
                    && self.states[g] == State::Pending
                {
                    self.states[g] = State::Yes(Hit {
                        criterion: group.members[0],
                        ply: Some(self.plies),
                        fen: None,
                        path: Vec::new(),
                        index: self.plies,
                    });
                }
            }
            self.refresh();
        }
        if !(self.replaying && self.query.options.variations) {
            return Skip(true);
        }
        let Some(parent) = self.lines.last_mut() else {
            return Skip(true);
        };
        let Some((pos, hash)) = parent.before.clone() else {
            return Skip(true);
        };
        let mut path = parent.path.clone();
        path.push((parent.moves.saturating_sub(1), parent.variations_of_last));
        parent.variations_of_last += 1;
        let ply = parent.ply.saturating_sub(1);
        self.materials += 1;
        self.lines.push(Line {
            checkers: pos.checkers(),
            pos,
            hash,
            before: None,
            ply,
            moves: 0,
            variations_of_last: 0,
            path,
            material: self.materials,
        });
        Skip(false)
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    fn outcome(&mut self, _outcome: tabia_notation::pgn::Outcome) {
        self.complete = true;
    }

    fn end_game(&mut self) -> Result<Verdict, ReplayError> {
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        self.finish();
        let matched = self.states.iter().all(|s| matches!(s, State::Yes(_)));
        let hit = if matched {
            self.states
                .iter()
                .filter_map(|s| match s {
                    State::Yes(hit) => Some(hit),
                    _ => None,
                })
                .max_by_key(|hit| hit.ply.map_or(0, |p| u64::from(p) + 1))
                .cloned()
        } else {
            None
        };
        let tags_present = self.tags[..self.tag_count]
            .iter()
            .filter(|&&(i, _)| i < 64)
            .fold(0, |bits, &(i, _)| bits | 1 << i);
        Ok(Verdict {
            matched,
            hit,
            tags_present,
        })
    }
}

/// Whether a comment has a clock command, `[%clk`.
fn memchr_clk(bytes: &[u8]) -> bool {
    bytes.windows(5).any(|w| w == b"[%clk")
}
