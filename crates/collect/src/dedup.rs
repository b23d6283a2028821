//! Duplicate games: a fixed-size [`Digest`] per game, and the set of digests seen ([`Seen`],
//! [`Best`]) that says whether a game is new or a copy of which earlier one.

use std::{
    collections::HashMap,
    fmt,
    hash::{BuildHasherDefault, Hash, Hasher},
    str::FromStr,
};

use siphasher::sip128::{Hasher128, SipHasher13};
use tabia_notation::{
    UnknownValue,
    pgn::{Game, Line},
};
use tabia_position::{
    Ply, Position, PositionKey, ReplayError, Replayed, replay,
    shakmaty::{Move, Role},
};

/// What makes two games duplicates.
///
/// ```
/// use tabia_collect::DedupBy;
///
/// assert_eq!("position".parse(), Ok(DedupBy::Position));
/// assert_eq!(DedupBy::FuzzyDepth(20).to_string(), "fuzzy-depth 20");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum DedupBy {
    /// The same start position and the same mainline moves (check marks, annotations,
    /// comments, variations and tags do not matter).
    #[default]
    Moves,
    /// The same final position (placement, side to move, castling, en passant when a capture
    /// is legal) and the same number of plies: pgn-extract's `-D`.
    Position,
    /// The same position after this many plies (a game shorter than that: its final
    /// position and its length), pgn-extract's `--fuzzydepth`.
    FuzzyDepth(u32),
}

impl fmt::Display for DedupBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DedupBy::Moves => f.write_str("moves"),
            DedupBy::Position => f.write_str("position"),
            DedupBy::FuzzyDepth(n) => write!(f, "fuzzy-depth {n}"),
        }
    }
}

impl FromStr for DedupBy {
    type Err = UnknownValue;

    /// `moves`, `position` or `fuzzy-depth N`.
    fn from_str(s: &str) -> Result<DedupBy, UnknownValue> {
        match s {
            "moves" => Ok(DedupBy::Moves),
            "position" => Ok(DedupBy::Position),
            _ => s
                .strip_prefix("fuzzy-depth ")
                .and_then(|n| n.parse().ok())
                .map(DedupBy::FuzzyDepth)
                .ok_or_else(|| {
                    UnknownValue::new("duplicate rule", s, "moves, position or fuzzy-depth N")
                }),
        }
    }
}

/// The digest of a game: 128 bits of SipHash-1-3 over what [`DedupBy`] compares. Two games
/// with the same digest are taken as duplicates (two different games collide with a
/// probability of about `n² / 2¹²⁹` among `n` games: never in practice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest(pub [u64; 2]);

impl Hash for Digest {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Already uniformly distributed: one word is a perfect hash for the table.
        state.write_u64(self.0[0]);
    }
}

/// The hasher of digest tables: passes the digest's first word through.
#[derive(Debug, Default, Clone, Copy)]
pub struct DigestHasher(u64);

impl Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Computes a [`Digest`] from a replay: feed it every ply ([`Digester::ply`], variations
/// are ignored) and the end of the replay ([`Digester::finish`]). A replay with no tree (such
/// as a [`Checker`](tabia_position::Checker)'s) feeds it the start position
/// ([`Digester::start`]), each mainline move ([`Digester::mainline_move`]) and the end
/// ([`Digester::end`]) instead, and gets the same digest ([`DigestExporter`](crate::DigestExporter)).
///
/// ```
/// use tabia_collect::{DedupBy, Digester};
/// use tabia_notation::pgn::Game;
///
/// let a: Game = "1. e4 {x} e5 2. Nf3 $1 1-0".parse()?;
/// let b: Game = "[White \"y\"]\n\n1. e4 e5 (1... c5) 2. Nf3 *".parse()?;
/// assert_eq!(Digester::digest(&a, DedupBy::Moves)?, Digester::digest(&b, DedupBy::Moves)?);
/// let c: Game = "1. Nf3 e5 2. e4 *".parse()?;
/// assert_ne!(Digester::digest(&a, DedupBy::Moves)?, Digester::digest(&c, DedupBy::Moves)?);
/// assert_eq!(Digester::digest(&a, DedupBy::Position)?, Digester::digest(&c, DedupBy::Position)?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Digester {
    by: DedupBy,
    hasher: SipHasher13,
    /// `Moves`: the mainline moves, 4 bytes each, hashed at the end (in one write: the same
    /// hash as a write a move, for less).
    moves: Vec<u8>,
    /// `Moves`: the start position's key and whether it is Chess960, once given.
    start: Option<(PositionKey, bool)>,
    /// `FuzzyDepth`: the key at the given ply, once reached.
    at_depth: Option<PositionKey>,
}

impl Digester {
    /// A digester for `by`.
    pub fn new(by: DedupBy) -> Digester {
        Digester {
            by,
            hasher: Digester::hasher(),
            moves: Vec::new(),
            start: None,
            at_depth: None,
        }
    }

    fn hasher() -> SipHasher13 {
        SipHasher13::new_with_keys(0x7461_6269_6120_6475, 0x7061_6d65_7320_2020)
    }

    /// Whether it needs the position after some mainline move ([`Digester::mainline_move`]):
    /// only [`DedupBy::FuzzyDepth`] does; [`DedupBy::Moves`] can take the moves at the end
    /// ([`Digester::mainline_moves`]), [`DedupBy::Position`] needs the end only.
    pub fn follows_positions(&self) -> bool {
        matches!(self.by, DedupBy::FuzzyDepth(_))
    }

    /// Forgets the game digested so far, for the next one (its memory kept).
    pub fn reset(&mut self) {
        self.hasher = Digester::hasher();
        self.moves.clear();
        self.start = None;
        self.at_depth = None;
    }

    /// Takes the start position (before or after the moves: the digest is the same).
    pub fn start(&mut self, start: &Position) {
        if self.by == DedupBy::Moves {
            self.start = Some((start.key(), start.castling_mode().is_chess960()));
        }
    }

    /// Takes one ply of the replay (plies in variations are ignored).
    pub fn ply(&mut self, ply: &Ply<'_>) {
        if ply.depth == 0 {
            self.mainline_move(ply.ply, ply.mv, ply.position);
        }
    }

    /// Takes the moves of the whole mainline (`None`: a null move), as
    /// [`Digester::mainline_move`] takes them one by one: enough for [`DedupBy::Moves`],
    /// which needs no position on the way (see [`Digester::follows_positions`]).
    pub fn mainline_moves(&mut self, moves: &[Option<Move>]) {
        if self.by == DedupBy::Moves {
            let start = self.moves.len();
            self.moves.resize(start + 4 * moves.len(), 0);
            for (bytes, &mv) in self.moves[start..].chunks_exact_mut(4).zip(moves) {
                bytes.copy_from_slice(&encode(mv));
            }
        }
    }

    /// Takes one move of the mainline: its ply (1 for the first move), the move (`None`: a
    /// null move) and the position after it.
    #[inline]
    pub fn mainline_move(&mut self, ply: u32, mv: Option<Move>, after: &Position) {
        match self.by {
            DedupBy::Moves => self.moves.extend_from_slice(&encode(mv)),
            DedupBy::FuzzyDepth(n) if ply == n => {
                self.at_depth = Some(after.key());
            }
            _ => {}
        }
    }

    /// The digest, from the end of the replay.
    pub fn finish(mut self, replayed: &Replayed) -> Digest {
        self.start(&replayed.start);
        self.end(&replayed.end, replayed.plies)
    }

    /// The digest, from the position after the last mainline move and the number of plies
    /// (the start position given before, [`Digester::start`]).
    pub fn end(mut self, end: &Position, plies: u32) -> Digest {
        self.take(end, plies)
    }

    /// [`Digester::end`], the digester then [reset](Digester::reset) for the next game.
    pub fn take(&mut self, end: &Position, plies: u32) -> Digest {
        let digest = self.digest_end(end, plies);
        self.reset();
        digest
    }

    fn digest_end(&mut self, end: &Position, plies: u32) -> Digest {
        match self.by {
            DedupBy::Moves => {
                self.hasher.write(&self.moves);
                if let Some((key, chess960)) = self.start {
                    self.hasher.write(&key.to_bytes());
                    self.hasher.write(&[u8::from(chess960)]);
                }
                self.hasher.write_u32(plies);
            }
            DedupBy::Position => {
                self.hasher.write(&end.key().to_bytes());
                self.hasher.write_u32(plies);
            }
            DedupBy::FuzzyDepth(_) => match self.at_depth {
                Some(key) => self.hasher.write(&key.to_bytes()),
                None => {
                    self.hasher.write(&end.key().to_bytes());
                    self.hasher.write_u32(plies);
                }
            },
        }
        let h = self.hasher.finish128();
        Digest([h.h1, h.h2])
    }

    /// Checks `game` (as `tabia_position::check_game`) and gives its digest with the replay.
    ///
    /// # Errors
    ///
    /// An illegal move or a bad start position.
    pub fn check(game: &Game, by: DedupBy) -> Result<(Digest, Replayed), ReplayError> {
        let mut digester = Digester::new(by);
        let replayed = replay(game, |ply| digester.ply(ply))?;
        Ok((digester.finish(&replayed), replayed))
    }

    /// The digest of `game` (checking it).
    ///
    /// # Errors
    ///
    /// As [`Digester::check`].
    pub fn digest(game: &Game, by: DedupBy) -> Result<Digest, ReplayError> {
        Digester::check(game, by).map(|(digest, _)| digest)
    }
}

/// The bytes a move adds to a [`DedupBy::Moves`] digest: from (64 for a drop), to (the rook
/// for castling), promotion, role; four `0xff` for a null move.
#[inline]
fn encode(mv: Option<Move>) -> [u8; 4] {
    match mv {
        Some(Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        }) => [
            u8::from(from),
            u8::from(to),
            promotion.map_or(0, |r| r as u8),
            role as u8,
        ],
        Some(Move::EnPassant { from, to }) => [u8::from(from), u8::from(to), 0, Role::Pawn as u8],
        Some(Move::Castle { king, rook }) => [u8::from(king), u8::from(rook), 0, Role::King as u8],
        Some(Move::Put { role, to }) => [64, u8::from(to), 0, role as u8],
        None => [0xff; 4],
    }
}

/// Where a game is: which input (0-based, in the order given) and its 1-based number there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The input, 0-based (at most 65,535).
    pub input: u16,
    /// The game's number in its input, 1-based (below 2⁴⁸).
    pub game: u64,
}

impl Place {
    /// Game `game` of input `input` (0-based; an input past the 65,535th counts as that one:
    /// a caller with more inputs refuses them first).
    ///
    /// ```
    /// use tabia_collect::Place;
    ///
    /// assert_eq!(Place::new(2, 7), Place { input: 2, game: 7 });
    /// assert_eq!(Place::new(70_000, 1).input, u16::MAX);
    /// ```
    pub fn new(input: usize, game: u64) -> Place {
        Place {
            input: u16::try_from(input).unwrap_or(u16::MAX),
            game,
        }
    }

    fn pack(self) -> u64 {
        (u64::from(self.input) << 48) | (self.game & ((1 << 48) - 1))
    }

    fn unpack(n: u64) -> Place {
        Place {
            input: (n >> 48) as u16,
            game: n & ((1 << 48) - 1),
        }
    }
}

/// The digests seen so far, each with where its first game is: `--keep first`.
///
/// An entry is [`Seen::BYTES_PER_GAME`] bytes (the 16-byte digest and the 8-byte location);
/// the hash table adds one control byte per slot and keeps between 1/8 and 9/16 of its slots
/// free, so a distinct game costs between 28 and 57 bytes ([`Seen::heap_bytes`]): 10 million
/// distinct games take at most 570 MB, 420 MB typically.
///
/// ```
/// use tabia_collect::{Digest, Place, Seen};
///
/// let mut seen = Seen::default();
/// let at = |game| Place { input: 0, game };
/// assert_eq!(seen.first(Digest([1, 2]), at(1)), None);
/// assert_eq!(seen.first(Digest([3, 4]), at(2)), None);
/// assert_eq!(seen.first(Digest([1, 2]), at(3)), Some(at(1)));
/// assert_eq!(seen.len(), 2);
/// ```
#[derive(Debug, Default, Clone)]
pub struct Seen {
    map: HashMap<Digest, u64, BuildHasherDefault<DigestHasher>>,
}

impl Seen {
    /// The bytes of one entry: a 16-byte digest and an 8-byte location.
    pub const BYTES_PER_GAME: usize = 24;

    /// Records `digest` at `at` if it is new (`None`); otherwise gives where its first game is.
    pub fn first(&mut self, digest: Digest, at: Place) -> Option<Place> {
        match self.map.entry(digest) {
            std::collections::hash_map::Entry::Occupied(e) => Some(Place::unpack(*e.get())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(at.pack());
                None
            }
        }
    }

    /// How many distinct digests are recorded.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The memory the table holds: its slots and their control bytes.
    pub fn heap_bytes(&self) -> usize {
        self.map.capacity() * 8 / 7 * (Seen::BYTES_PER_GAME + 1)
    }
}

/// How many annotations a game has: comments, NAGs (the whole tree) and tags. What
/// `--keep most-annotated` compares.
///
/// ```
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[White \"x\"]\n\n{a} 1. e4 $1 {b} (1. d4 {c}) *".parse()?;
/// assert_eq!(tabia_collect::annotations(&game), 5);
/// # Ok::<_, tabia_notation::Error>(())
/// ```
pub fn annotations(game: &Game) -> u64 {
    let mut n = game.tags.len() as u64;
    let mut stack: Vec<&Line> = vec![&game.mainline];
    while let Some(line) = stack.pop() {
        n += line.comments.len() as u64;
        for m in &line.moves {
            n += (m.comments.len() + m.nags.len()) as u64;
            stack.extend(&m.variations);
        }
    }
    n
}

/// For `--keep most-annotated`: per digest, the first game, the most annotated one (the
/// first of the best on a tie) and its score. An entry is 40 bytes.
///
/// ```
/// use tabia_collect::{Best, Digest, Place};
///
/// let mut best = Best::default();
/// let at = |game| Place { input: 0, game };
/// assert!(best.offer(Digest([1, 1]), at(1), 2));
/// assert!(!best.offer(Digest([1, 1]), at(2), 1));
/// assert!(best.offer(Digest([1, 1]), at(3), 5));
/// assert_eq!(best.get(Digest([1, 1])), Some((at(1), at(3))));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Best {
    map: HashMap<Digest, (u64, u64, u64), BuildHasherDefault<DigestHasher>>,
}

impl Best {
    /// Offers the game at `at` with `score` annotations; gives whether it is now the best of
    /// its digest (the first game of a digest always is).
    pub fn offer(&mut self, digest: Digest, at: Place, score: u64) -> bool {
        match self.map.entry(digest) {
            std::collections::hash_map::Entry::Occupied(mut e) => {
                let (_, best, best_score) = e.get_mut();
                if score > *best_score {
                    *best = at.pack();
                    *best_score = score;
                    true
                } else {
                    false
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert((at.pack(), at.pack(), score));
                true
            }
        }
    }

    /// The first game of `digest` and the one kept.
    pub fn get(&self, digest: Digest) -> Option<(Place, Place)> {
        self.map
            .get(&digest)
            .map(|&(first, best, _)| (Place::unpack(first), Place::unpack(best)))
    }

    /// How many distinct digests are recorded.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(pgn: &str, by: DedupBy) -> Digest {
        Digester::digest(&pgn.parse::<Game>().unwrap(), by).unwrap()
    }

    #[test]
    fn moves_ignore_annotations_but_not_start_or_order() {
        let a = digest("1. e4 e5 2. Nf3 Nc6 *", DedupBy::Moves);
        assert_eq!(
            a,
            digest("1. e4! e5 {x} 2. Ngf3 (2. d4) Nc6 1-0", DedupBy::Moves)
        );
        assert_ne!(a, digest("1. Nf3 Nc6 2. e4 e5 *", DedupBy::Moves));
        assert_ne!(a, digest("1. e4 e5 2. Nf3 *", DedupBy::Moves));
        let fen = "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n";
        assert_eq!(
            a,
            digest(&format!("{fen}1. e4 e5 2. Nf3 Nc6 *"), DedupBy::Moves)
        );
        let other = "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1\"]\n\n";
        assert_ne!(
            a,
            digest(&format!("{other}1. e4 e5 2. Nf3 Nc6 *"), DedupBy::Moves)
        );
    }

    #[test]
    fn position_and_fuzzy_depth() {
        let a = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *";
        let b = "1. Nf3 Nc6 2. e4 e5 3. Bb5 *";
        assert_eq!(digest(a, DedupBy::Position), digest(b, DedupBy::Position));
        assert_ne!(
            digest(a, DedupBy::Position),
            digest("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *", DedupBy::Position)
        );
        let c = "1. e4 e5 2. Nf3 Nc6 3. Bc4 *";
        assert_eq!(
            digest(a, DedupBy::FuzzyDepth(4)),
            digest(c, DedupBy::FuzzyDepth(4))
        );
        assert_ne!(
            digest(a, DedupBy::FuzzyDepth(5)),
            digest(c, DedupBy::FuzzyDepth(5))
        );
        // Shorter than the depth: the final position and the length.
        assert_eq!(
            digest("1. e4 e5 *", DedupBy::FuzzyDepth(10)),
            digest("1. e4 e5 *", DedupBy::FuzzyDepth(10))
        );
        assert_ne!(
            digest("1. e4 e5 *", DedupBy::FuzzyDepth(10)),
            digest(a, DedupBy::FuzzyDepth(10))
        );
    }

    #[test]
    fn locations_pack() {
        for at in [
            Place { input: 0, game: 1 },
            Place {
                input: u16::MAX,
                game: (1 << 48) - 1,
            },
        ] {
            assert_eq!(Place::unpack(at.pack()), at);
        }
    }

    #[test]
    fn dedup_by_parse_round_trip() {
        for by in [DedupBy::Moves, DedupBy::Position, DedupBy::FuzzyDepth(12)] {
            assert_eq!(by.to_string().parse(), Ok(by));
        }
        assert_eq!(
            "bogus".parse::<DedupBy>().unwrap_err().to_string(),
            "unknown duplicate rule `bogus` (expected moves, position or fuzzy-depth N)"
        );
    }
}
