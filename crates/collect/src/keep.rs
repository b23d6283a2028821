//! [`Deduper`]: which copy of each game is kept, decided in input order.

use std::{collections::HashMap, fmt, io};

use crate::{Best, Digest, Place, Seen};

/// Which copy of a group of duplicates is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Keep {
    /// The first copy in input order.
    #[default]
    First,
    /// The copy with the most annotations ([`annotations`](crate::annotations)), written at
    /// the first copy's place; the first of the best on a tie. The input is read twice: once
    /// to [`Deduper::rank`] the copies, once to [`Deduper::decide`].
    MostAnnotated,
}

/// A game offered to a [`Deduper`]: its digest, where it is, how many annotations it has
/// (for [`Keep::MostAnnotated`]), and its text in the output form with the places where a
/// duplicate's `DuplicateOf` tag goes ([`Form::write_marked`](crate::Form::write_marked)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCopy {
    /// What the game is compared by.
    pub digest: Digest,
    /// Where it is.
    pub at: Place,
    /// Its annotations.
    pub score: u64,
    /// Its text.
    pub text: Vec<u8>,
    /// Offsets in `text` where a duplicate's tag is inserted.
    pub marks: Vec<usize>,
}

/// A copy that is not kept, and the copy that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The copy.
    pub copy: GameCopy,
    /// Where the kept copy is.
    pub of: Place,
}

impl Duplicate {
    /// Writes the duplicate's text with `tag` (a `DuplicateOf` tag, or a JSON member) at each
    /// of its marks.
    ///
    /// # Errors
    ///
    /// An error of `out`.
    pub fn write_tagged(&self, out: &mut impl io::Write, tag: &[u8]) -> io::Result<()> {
        let text = &self.copy.text;
        let mut from = 0;
        for &mark in &self.copy.marks {
            let mark = mark.clamp(from, text.len());
            out.write_all(&text[from..mark])?;
            out.write_all(tag)?;
            from = mark;
        }
        out.write_all(&text[from..])
    }
}

/// What to do with a copy, decided in input order: the text to write to the output here (the
/// copy's, or the best copy's at the first one's place) and the copy that goes to the
/// duplicates, either, both or neither.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decided {
    /// The text to write to the output.
    pub kept: Option<Vec<u8>>,
    /// A duplicate.
    pub duplicate: Option<Duplicate>,
}

/// The copies of a game were not those of the first pass ([`Keep::MostAnnotated`] reads its
/// inputs twice): an input changed in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedInput {
    /// The copy that the first pass did not see.
    pub at: Place,
}

impl fmt::Display for ChangedInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "an input changed between the two passes (input {}, game {})",
            self.at.input + 1,
            self.at.game
        )
    }
}

impl std::error::Error for ChangedInput {}

/// Decides which copy of each game is kept, the games offered in input order: the ordered
/// stage of `tabia dedup`, after workers have digested and written the games on all cores.
/// Memory: one fixed-size entry per distinct game ([`Seen`], [`Best`]), and with
/// [`Keep::MostAnnotated`] the text of each group's best copy when it is not the first.
///
/// ```
/// use tabia_collect::{GameCopy, Deduper, Digest, Keep, Place};
///
/// let copy = |game, digest, text: &str| GameCopy {
///     digest: Digest([digest, 0]),
///     at: Place { input: 0, game },
///     score: 0,
///     text: text.into(),
///     marks: vec![0],
/// };
/// let mut deduper = Deduper::new(Keep::First);
/// let first = deduper.decide(copy(1, 7, "1. e4 *\n"))?;
/// assert_eq!(first.kept.as_deref(), Some(&b"1. e4 *\n"[..]));
/// let again = deduper.decide(copy(2, 7, "1. e4 *\n"))?;
/// assert_eq!((again.kept, again.duplicate.map(|d| d.of.game)), (None, Some(1)));
/// assert_eq!((deduper.kept(), deduper.duplicates()), (1, 1));
/// # Ok::<_, tabia_collect::ChangedInput>(())
/// ```
#[derive(Debug, Default)]
pub struct Deduper {
    keep: Keep,
    seen: Seen,
    best: Best,
    /// [`Keep::MostAnnotated`]: the text of each group's best copy so far, when it is not the
    /// first.
    texts: HashMap<Digest, Vec<u8>>,
    kept: u64,
    duplicates: u64,
}

impl Deduper {
    /// A deduper keeping the `keep` copy.
    pub fn new(keep: Keep) -> Deduper {
        Deduper {
            keep,
            ..Deduper::default()
        }
    }

    /// Which copy it keeps.
    pub fn keep(&self) -> Keep {
        self.keep
    }

    /// [`Keep::MostAnnotated`]'s first pass: offers a copy, in input order, keeping its text
    /// when it is the best of its group so far and not the first.
    pub fn rank(&mut self, copy: GameCopy) {
        let is_first = self.best.get(copy.digest).is_none();
        if self.best.offer(copy.digest, copy.at, copy.score) && !is_first {
            self.texts.insert(copy.digest, copy.text);
        }
    }

    /// Decides what becomes of a copy, in input order (with [`Keep::MostAnnotated`], after
    /// every copy was [`Deduper::rank`]ed).
    ///
    /// # Errors
    ///
    /// [`Keep::MostAnnotated`]: a copy the ranking did not see.
    pub fn decide(&mut self, copy: GameCopy) -> Result<Decided, ChangedInput> {
        let decided = match self.keep {
            Keep::First => match self.seen.first(copy.digest, copy.at) {
                None => Decided {
                    kept: Some(copy.text),
                    duplicate: None,
                },
                Some(of) => Decided {
                    kept: None,
                    duplicate: Some(Duplicate { copy, of }),
                },
            },
            Keep::MostAnnotated => self.most_annotated(copy)?,
        };
        self.kept += u64::from(decided.kept.is_some());
        self.duplicates += u64::from(decided.duplicate.is_some());
        Ok(decided)
    }

    /// [`Keep::MostAnnotated`]'s second pass: the best copy at the first one's place.
    fn most_annotated(&mut self, copy: GameCopy) -> Result<Decided, ChangedInput> {
        let changed = ChangedInput { at: copy.at };
        let (first, best) = self.best.get(copy.digest).ok_or(changed)?;
        Ok(if copy.at == first && best == first {
            Decided {
                kept: Some(copy.text),
                duplicate: None,
            }
        } else if copy.at == first {
            let text = self.texts.remove(&copy.digest).ok_or(changed)?;
            Decided {
                kept: Some(text),
                duplicate: Some(Duplicate { copy, of: best }),
            }
        } else if copy.at == best {
            Decided::default()
        } else {
            Decided {
                kept: None,
                duplicate: Some(Duplicate { copy, of: best }),
            }
        })
    }

    /// How many copies were kept.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// How many copies were duplicates.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy(game: u64, digest: u64, score: u64) -> GameCopy {
        GameCopy {
            digest: Digest([digest, 0]),
            at: Place { input: 0, game },
            score,
            text: format!("game {game}\n").into_bytes(),
            marks: vec![0],
        }
    }

    /// What became of a copy: the text kept, the duplicate's game and the kept game.
    type Fate = (Option<String>, Option<(u64, u64)>);

    /// The fate of each copy of `games` (game, digest, score).
    fn run(keep: Keep, games: &[(u64, u64, u64)]) -> Vec<Fate> {
        let mut deduper = Deduper::new(keep);
        if keep == Keep::MostAnnotated {
            for &(game, digest, score) in games {
                deduper.rank(copy(game, digest, score));
            }
        }
        games
            .iter()
            .map(|&(game, digest, score)| {
                let decided = deduper.decide(copy(game, digest, score)).unwrap();
                (
                    decided.kept.map(|t| String::from_utf8(t).unwrap()),
                    decided.duplicate.map(|d| (d.copy.at.game, d.of.game)),
                )
            })
            .collect()
    }

    const GAMES: [(u64, u64, u64); 5] = [(1, 1, 0), (2, 2, 3), (3, 1, 5), (4, 1, 5), (5, 2, 1)];

    #[test]
    fn first_keeps_the_first_copy() {
        let kept = |g: u64| (Some(format!("game {g}\n")), None);
        assert_eq!(
            run(Keep::First, &GAMES),
            [
                kept(1),
                kept(2),
                (None, Some((3, 1))),
                (None, Some((4, 1))),
                (None, Some((5, 2)))
            ]
        );
    }

    #[test]
    fn most_annotated_writes_the_best_at_the_first_place() {
        assert_eq!(
            run(Keep::MostAnnotated, &GAMES),
            [
                // Game 3 is the best of digest 1 (game 4 ties it, later): its text at 1's place.
                (Some("game 3\n".into()), Some((1, 3))),
                (Some("game 2\n".into()), None),
                (None, None),
                (None, Some((4, 3))),
                (None, Some((5, 2)))
            ]
        );
    }

    #[test]
    fn every_copy_is_kept_or_a_duplicate_once() {
        // Counts add up: the best copy's own place writes nothing, its text is written once.
        for keep in [Keep::First, Keep::MostAnnotated] {
            let decided = run(keep, &GAMES);
            let kept = decided.iter().filter(|d| d.0.is_some()).count();
            let dups = decided.iter().filter(|d| d.1.is_some()).count();
            assert_eq!((kept, dups), (2, 3), "{keep:?}");
        }
    }

    #[test]
    fn a_copy_the_ranking_did_not_see_is_an_error() {
        let mut deduper = Deduper::new(Keep::MostAnnotated);
        deduper.rank(copy(1, 1, 0));
        let err = deduper.decide(copy(2, 9, 0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "an input changed between the two passes (input 1, game 2)"
        );
    }

    #[test]
    fn duplicates_are_tagged_at_each_mark() {
        let duplicate = Duplicate {
            copy: GameCopy {
                marks: vec![3, 3, 99],
                ..copy(1, 1, 0)
            },
            of: Place { input: 0, game: 1 },
        };
        let mut out = Vec::new();
        duplicate.write_tagged(&mut out, b"<T>").unwrap();
        assert_eq!(out, b"gam<T><T>e 1\n<T>");
    }
}
