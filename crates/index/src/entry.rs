//! The value stored under a position's key: [`Entry::One`], a pointer into the one game that
//! reached it (most positions past the opening), or [`Entry::Many`], its figures by month,
//! speed, rating band and move, the best rated and most recent games of each month and group,
//! and every game that reached it.

use crate::{
    game::{Facts, Outcome},
    key::NO_MOVE,
    varint::{self, Cursor},
};

/// Games kept per month and group as the best rated (lichess's masters explorer shows 15).
pub(crate) const TOP: usize = 15;
/// Games kept per month and group as the most recent.
pub(crate) const RECENT: usize = 8;

/// The first byte of an [`Entry::Many`]; an [`Entry::One`] is its game's id alone, a varint
/// whose first byte is never 0 (ids start at 1).
const TAG_MANY: u8 = 0;

/// One game at one position: its id and the move it played there ([`NO_MOVE`] when it ended
/// there, or its indexed plies did).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub(crate) game: u32,
    pub(crate) mv: u16,
    /// The ply at which the game first reached the position.
    pub(crate) ply: u32,
}

/// The figures of one move in one month and group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Cell {
    pub(crate) month: u16,
    pub(crate) group: u8,
    pub(crate) mv: u16,
    pub(crate) white: u32,
    pub(crate) draws: u32,
    pub(crate) black: u32,
    /// Games with an unknown result.
    pub(crate) other: u32,
    /// The sum of the rated games' mean ratings.
    pub(crate) rating_sum: u64,
    pub(crate) rated: u32,
}

impl Cell {
    fn add(&mut self, facts: &Facts) {
        match facts.outcome {
            Outcome::WhiteWins => self.white += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BlackWins => self.black += 1,
            Outcome::Unknown => self.other += 1,
        }
        if let Some(rating) = facts.rating {
            self.rating_sum += u64::from(rating);
            self.rated += 1;
        }
    }

    pub(crate) fn games(&self) -> u64 {
        u64::from(self.white)
            + u64::from(self.draws)
            + u64::from(self.black)
            + u64::from(self.other)
    }
}

/// A game kept to be shown: among the best rated or the most recent of its month and group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ref {
    pub(crate) month: u16,
    pub(crate) group: u8,
    pub(crate) game: u32,
    pub(crate) rating: u16,
    pub(crate) mv: u16,
}

/// The figures of a position reached by more than one game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Many {
    /// The first game that reached the position and the ply where it did: the game replayed
    /// to that ply to verify that an entry found by 40 bits of key is the position asked for.
    pub(crate) witness: u32,
    pub(crate) witness_ply: u32,
    /// Sorted by (month, group, move).
    pub(crate) cells: Vec<Cell>,
    /// Sorted by (month, group, game): per month and group, the [`TOP`] best rated and the
    /// [`RECENT`] most recent (highest ids) games.
    pub(crate) refs: Vec<Ref>,
    /// Every game that reached the position, ascending.
    pub(crate) games: Vec<u32>,
}

impl Many {
    pub(crate) fn add(&mut self, occurrence: Occurrence, facts: &Facts) {
        if self.games.is_empty() && self.cells.is_empty() {
            self.witness = occurrence.game;
            self.witness_ply = occurrence.ply;
        }
        let key = (facts.month, facts.group, occurrence.mv);
        let at = self
            .cells
            .binary_search_by_key(&key, |c| (c.month, c.group, c.mv));
        let at = at.unwrap_or_else(|at| {
            self.cells.insert(
                at,
                Cell {
                    month: facts.month,
                    group: facts.group,
                    mv: occurrence.mv,
                    ..Cell::default()
                },
            );
            at
        });
        self.cells[at].add(facts);
        self.games.push(occurrence.game);
        if occurrence.mv != NO_MOVE {
            self.offer(Ref {
                month: facts.month,
                group: facts.group,
                game: occurrence.game,
                rating: facts.rating.unwrap_or(0),
                mv: occurrence.mv,
            });
        }
    }

    /// Keeps `new` if it is among the best rated or most recent of its month and group.
    fn offer(&mut self, new: Ref) {
        let key = (new.month, new.group);
        let start = self.refs.partition_point(|r| (r.month, r.group) < key);
        let end = self.refs.partition_point(|r| (r.month, r.group) <= key);
        let mut group: Vec<Ref> = self.refs[start..end].to_vec();
        if group.iter().any(|r| r.game == new.game) {
            return;
        }
        group.push(new);
        // Always the best rated and the most recent of all the games offered, whatever the
        // order and the batches they came in.
        let mut by_rating = group.clone();
        by_rating.sort_by_key(|r| (std::cmp::Reverse(r.rating), std::cmp::Reverse(r.game)));
        let mut keep: Vec<u32> = by_rating.iter().take(TOP).map(|r| r.game).collect();
        let mut by_id: Vec<u32> = group.iter().map(|r| r.game).collect();
        by_id.sort_unstable_by(|a, b| b.cmp(a));
        keep.extend(by_id.into_iter().take(RECENT));
        group.retain(|r| keep.contains(&r.game));
        group.sort_by_key(|r| r.game);
        self.refs.splice(start..end, group);
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(TAG_MANY);
        varint::put(out, u64::from(self.witness));
        varint::put(out, u64::from(self.witness_ply));
        varint::put(out, self.cells.len() as u64);
        for c in &self.cells {
            varint::put(out, u64::from(c.month));
            out.push(c.group);
            varint::put(out, u64::from(c.mv));
            for n in [c.white, c.draws, c.black, c.other] {
                varint::put(out, u64::from(n));
            }
            varint::put(out, c.rating_sum);
            varint::put(out, u64::from(c.rated));
        }
        varint::put(out, self.refs.len() as u64);
        for r in &self.refs {
            varint::put(out, u64::from(r.month));
            out.push(r.group);
            varint::put(out, u64::from(r.game));
            varint::put(out, u64::from(r.rating));
            varint::put(out, u64::from(r.mv));
        }
        let mut games = self.games.clone();
        games.sort_unstable();
        games.dedup();
        varint::put(out, games.len() as u64);
        let mut last = 0;
        for g in games {
            varint::put(out, u64::from(g - last));
            last = g;
        }
    }

    fn decode(c: &mut Cursor<'_>, with_games: bool) -> Option<Many> {
        let witness = c.u32()?;
        let witness_ply = c.u32()?;
        let n = c.u32()? as usize;
        let mut cells = Vec::with_capacity(n.min(4096));
        for _ in 0..n {
            cells.push(Cell {
                month: c.u16()?,
                group: c.u8()?,
                mv: c.u16()?,
                white: c.u32()?,
                draws: c.u32()?,
                black: c.u32()?,
                other: c.u32()?,
                rating_sum: c.u64()?,
                rated: c.u32()?,
            });
        }
        let n = c.u32()? as usize;
        let mut refs = Vec::with_capacity(n.min(4096));
        for _ in 0..n {
            refs.push(Ref {
                month: c.u16()?,
                group: c.u8()?,
                game: c.u32()?,
                rating: c.u16()?,
                mv: c.u16()?,
            });
        }
        let mut games = Vec::new();
        if with_games {
            let n = c.u32()? as usize;
            games.reserve(n.min(1 << 20));
            let mut last = 0u32;
            for _ in 0..n {
                last = last.checked_add(c.u32()?)?;
                games.push(last);
            }
            if !c.is_empty() {
                return None;
            }
        }
        Some(Many {
            witness,
            witness_ply,
            cells,
            refs,
            games,
        })
    }
}

/// The value of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Reached by one game.
    One(Occurrence),
    /// Reached by more.
    Many(Many),
}

impl Entry {
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        match self {
            // The move is the game's: found when the game is replayed to verify the entry.
            Entry::One(o) => {
                varint::put(out, u64::from(o.game.max(1)));
                varint::put(out, u64::from(o.ply));
            }
            Entry::Many(many) => many.encode(out),
        }
    }

    /// Decodes a value; without `with_games`, the list of every game is not read (an
    /// explorer answer needs only the figures). The move of [`Entry::One`] is not stored:
    /// it is [`NO_MOVE`] until the game is replayed ([`Entry::set_move`]).
    pub(crate) fn decode(bytes: &[u8], with_games: bool) -> Option<Entry> {
        let mut c = Cursor::new(bytes);
        if bytes.first() == Some(&TAG_MANY) {
            c.u8()?;
            return Many::decode(&mut c, with_games).map(Entry::Many);
        }
        let game = c.u32().filter(|&g| g > 0)?;
        let ply = c.u32()?;
        c.is_empty().then_some(Entry::One(Occurrence {
            game,
            mv: NO_MOVE,
            ply,
        }))
    }

    /// The game to replay, and to which ply, to verify that the entry is the position asked
    /// for.
    pub(crate) fn witness(&self) -> (u32, u32) {
        match self {
            Entry::One(o) => (o.game, o.ply),
            Entry::Many(many) => (many.witness, many.witness_ply),
        }
    }

    /// Sets the move of an [`Entry::One`], found by replaying its game.
    pub(crate) fn set_move(&mut self, mv: u16) {
        if let Entry::One(o) = self {
            o.mv = mv;
        }
    }

    /// This entry with more occurrences; `facts` gives a game's facts by its id.
    pub(crate) fn merge(
        old: Option<Entry>,
        new: &[Occurrence],
        mut facts: impl FnMut(u32) -> Option<Facts>,
    ) -> Option<Entry> {
        let mut many = match old {
            None if new.len() == 1 => return Some(Entry::One(new[0])),
            None => Many::default(),
            Some(Entry::One(o)) => {
                let mut many = Many::default();
                many.add(o, &facts(o.game)?);
                many
            }
            Some(Entry::Many(many)) => many,
        };
        for &o in new {
            many.add(o, &facts(o.game)?);
        }
        Some(Entry::Many(many))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn facts_of(game: u32) -> Facts {
        Facts {
            month: (game % 3) as u16 + 24_000,
            group: (game % 5) as u8,
            outcome: [
                Outcome::WhiteWins,
                Outcome::Draw,
                Outcome::BlackWins,
                Outcome::Unknown,
            ][(game % 4) as usize],
            rating: (!game.is_multiple_of(7)).then_some(1000 + (game * 37 % 1500) as u16),
        }
    }

    proptest! {
        /// However the occurrences are split into batches, the merged entry is the same, and
        /// it survives its encoding.
        #[test]
        fn merging_in_batches_is_merging_at_once(
            moves in proptest::collection::vec(0u16..4, 1..80),
            cut in proptest::collection::vec(1usize..10, 1..10),
        ) {
            let all: Vec<Occurrence> = moves
                .iter()
                .enumerate()
                .map(|(i, &mv)| Occurrence { game: i as u32 + 1, mv: if mv == 3 { NO_MOVE } else { mv }, ply: (i % 7) as u32 })
                .collect();
            let once = Entry::merge(None, &all, |g| Some(facts_of(g))).expect("facts");
            let mut batched: Option<Entry> = None;
            let mut rest = &all[..];
            let mut cuts = cut.iter().cycle();
            while !rest.is_empty() {
                let n = (*cuts.next().expect("cycle")).min(rest.len());
                let merged = Entry::merge(batched.take(), &rest[..n], |g| Some(facts_of(g))).expect("facts");
                let mut bytes = Vec::new();
                merged.encode(&mut bytes);
                batched = Entry::decode(&bytes, true);
                if let Some(entry) = &mut batched {
                    let (witness, _) = entry.witness();
                    entry.set_move(all[witness as usize - 1].mv);
                }
                prop_assert!(batched.is_some());
                rest = &rest[n..];
            }
            prop_assert_eq!(batched, Some(once.clone()));
            if let Entry::Many(many) = &once {
                let total: u64 = many.cells.iter().map(Cell::games).sum();
                prop_assert_eq!(total, all.len() as u64);
                prop_assert_eq!(many.games.len(), all.len());
            }
        }

        #[test]
        fn garbage_is_refused_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = Entry::decode(&bytes, true);
        }
    }

    #[test]
    fn the_best_rated_and_most_recent_are_kept() {
        let mut many = Many::default();
        for game in 1..=100u32 {
            let facts = Facts {
                month: 24_000,
                group: 0,
                outcome: Outcome::Draw,
                rating: Some(game as u16),
            };
            many.add(
                Occurrence {
                    game,
                    mv: 1,
                    ply: 3,
                },
                &facts,
            );
        }
        let kept: Vec<u32> = many.refs.iter().map(|r| r.game).collect();
        assert_eq!(kept, (86..=100).collect::<Vec<_>>());
        let mut many = Many::default();
        for game in 1..=100u32 {
            let facts = Facts {
                month: 24_000,
                group: 0,
                outcome: Outcome::Draw,
                rating: Some(3000 - game as u16),
            };
            many.add(
                Occurrence {
                    game,
                    mv: 1,
                    ply: 3,
                },
                &facts,
            );
        }
        let kept: Vec<u32> = many.refs.iter().map(|r| r.game).collect();
        let expected: Vec<u32> = (1..=15).chain(93..=100).collect();
        assert_eq!(kept, expected);
    }
}
