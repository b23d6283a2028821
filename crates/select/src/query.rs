//! [`Query`]: criteria grouped (same kind: OR; different kinds: AND) and sorted by what they
//! need to see of a game: its tags, its movetext, or its positions.

use tabia_position::shakmaty::Color;

use crate::{
    criterion::{Criterion, Feature, GroupKey, Side},
    range::Bounds,
};

/// Options that change where criteria look.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Position criteria also look at the positions of variations (not only the mainline).
    pub variations: bool,
    /// Position criteria only match at these plies (0 is the start position).
    pub ply_range: Option<Bounds>,
    /// Position criteria only match with this side to move.
    pub to_move: Option<Color>,
    /// `--eco` classifies the game by its positions (the embedded table of `tabia-eco`)
    /// instead of reading its `ECO` tag.
    pub eco_by_position: bool,
}

/// What a group needs to see to be decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Phase {
    /// The tags alone.
    Tags,
    /// The movetext, without playing the moves.
    Movetext,
    /// The positions: the moves are played.
    Replay,
}

/// Criteria of one kind: any of them may match.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub(crate) key: GroupKey,
    pub(crate) members: Vec<usize>,
    pub(crate) phase: Phase,
}

/// A set of criteria ready to be matched against games ([`Matcher`](crate::Matcher)):
/// criteria of the same kind combine with OR, different kinds with AND (tags by name).
///
/// ```
/// use tabia_select::{Criterion, Options, Query};
///
/// let query = Query::new(
///     vec![
///         Criterion::Result("1-0".parse()?),
///         Criterion::Result("0-1".parse()?),
///         Criterion::Elo("2600".parse()?),
///     ],
///     Options::default(),
/// );
/// assert!(query.is_tags_only());
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Query {
    pub(crate) criteria: Vec<Criterion>,
    pub(crate) groups: Vec<Group>,
    pub(crate) options: Options,
    /// The tags the criteria read (by name).
    pub(crate) tag_names: Vec<String>,
    /// The latest phase any group needs.
    pub(crate) phase: Phase,
    /// Whether the replay must keep Polyglot hashes (positions, hashes, repetitions).
    pub(crate) hashes: bool,
}

impl Query {
    /// The query of `criteria` with `options`. No criteria: every game matches.
    pub fn new(criteria: Vec<Criterion>, options: Options) -> Query {
        let mut groups: Vec<Group> = Vec::new();
        let mut tag_names: Vec<String> = Vec::new();
        let mut need = |name: &str| {
            if !tag_names.iter().any(|n| n == name) {
                tag_names.push(name.to_owned());
            }
        };
        for (i, criterion) in criteria.iter().enumerate() {
            let phase = match criterion {
                Criterion::Tag(c) => {
                    need(c.name());
                    Phase::Tags
                }
                Criterion::Player(side, _) => {
                    if *side != Side::Black {
                        need("White");
                    }
                    if *side != Side::White {
                        need("Black");
                    }
                    Phase::Tags
                }
                Criterion::Result(_) => {
                    need("Result");
                    Phase::Tags
                }
                Criterion::Elo(_) => {
                    need("WhiteElo");
                    need("BlackElo");
                    Phase::Tags
                }
                Criterion::Date(_) => {
                    need("Date");
                    Phase::Tags
                }
                Criterion::Variant(_) => {
                    need("Variant");
                    Phase::Tags
                }
                Criterion::Eco(_) if options.eco_by_position => Phase::Replay,
                Criterion::Eco(_) => {
                    need("ECO");
                    Phase::Tags
                }
                Criterion::Feature(Feature::HigherRatedWon | Feature::LowerRatedWon) => {
                    need("WhiteElo");
                    need("BlackElo");
                    need("Result");
                    Phase::Tags
                }
                Criterion::Plies(_)
                | Criterion::Feature(
                    Feature::Commented | Feature::HasVariations | Feature::HasClocks,
                ) => Phase::Movetext,
                Criterion::Position(_)
                | Criterion::Zobrist(_)
                | Criterion::Moves(_)
                | Criterion::FenPattern(_)
                | Criterion::Material(_)
                | Criterion::PieceCount(_)
                | Criterion::Feature(_) => Phase::Replay,
            };
            let key = criterion.group();
            match groups.iter_mut().find(|g| g.key == key) {
                Some(group) => group.members.push(i),
                None => groups.push(Group {
                    key,
                    members: vec![i],
                    phase,
                }),
            }
        }
        let phase = groups.iter().map(|g| g.phase).max().unwrap_or(Phase::Tags);
        let hashes = groups.iter().any(|g| {
            matches!(
                g.key,
                GroupKey::Position | GroupKey::Zobrist | GroupKey::Feature(Feature::Repetition)
            )
        });
        Query {
            criteria,
            groups,
            options,
            tag_names,
            phase,
            hashes,
        }
    }

    /// The criteria, in the order given.
    pub fn criteria(&self) -> &[Criterion] {
        &self.criteria
    }

    /// The names of the tags the criteria read, each once, in the order they first appear
    /// (the bits of [`Verdict::tags_present`](crate::Verdict::tags_present)).
    pub fn tag_names(&self) -> &[String] {
        &self.tag_names
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Whether every criterion is decided by the tags alone: the movetext is then skipped
    /// unread.
    pub fn is_tags_only(&self) -> bool {
        self.phase == Phase::Tags
    }

    /// Whether some criterion needs the moves to be played.
    pub fn needs_replay(&self) -> bool {
        self.phase == Phase::Replay
    }

    /// Whether matching decides most games within their first moves: every criterion is on
    /// tags, on a position reached (the search of a game stops once the position can no
    /// longer be reached) or on the opening moves, and variations are not searched. Matching
    /// such a query costs little next to reading the games.
    pub fn decides_early(&self) -> bool {
        !self.options.variations
            && self.groups.iter().all(|g| {
                g.phase == Phase::Tags || matches!(g.key, GroupKey::Position | GroupKey::Moves)
            })
    }
}
