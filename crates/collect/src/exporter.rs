//! [`DigestExporter`]: each game checked, written in export format and digested while the
//! reader reads it, with no game tree: `tabia dedup`'s worker at the cost of `tabia pgn`'s.

use tabia_notation::pgn::{
    Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor, Warning,
};
use tabia_position::{Checked, Exporter, ReplayError};

use crate::{DedupBy, Digest, Digester, GameCopy, Place};

/// A PGN [`Visitor`] that does what an [`Exporter`] does (checks each game, writes it in export
/// format, repaired) and also gives its [`Digest`], as [`Digester::check`] gives it from the
/// game's tree: with the text, everything `tabia dedup` needs of a game, read once.
///
/// A game whose export needs its tree ([`Exporter`] says which) has no text: parse it and
/// write it from its tree instead; its digest is still given.
///
/// ```
/// use tabia_collect::{DedupBy, DigestExporter, Digester};
/// use tabia_notation::pgn::{Game, PgnReader};
///
/// let pgn = "[White \"Tal\"]\n\n1. e4 {x} e5 2. Nf3 (2. d4) 1-0\n\n1. e4 e5 2. Nf3 *\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let mut exporter = DigestExporter::new(DedupBy::Moves);
/// let first = reader.read_game(&mut exporter)?.expect("a game").expect("legal");
/// let tree: Game = pgn.split("\n\n1. e4 e5").next().unwrap().parse()?;
/// assert_eq!(first.digest, Digester::digest(&tree, DedupBy::Moves)?);
/// assert!(first.text.expect("written").ends_with(b"1. e4 {x} 1... e5 2. Nf3 (2. d4) 1-0"));
/// let second = reader.read_game(&mut exporter)?.expect("a game").expect("legal");
/// assert_eq!(second.digest, first.digest);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct DigestExporter {
    exporter: Exporter,
    digester: Digester,
    /// The mainline plies given to the digester so far (for `DedupBy::FuzzyDepth`).
    followed: u32,
}

/// A game a [`DigestExporter`] read: the checker's verdict, the digest, the text.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Digested {
    /// The checks passed, with the warnings.
    pub checked: Checked,
    /// What [`DedupBy`] compares.
    pub digest: Digest,
    /// The game in export format (tags, a blank line, the movetext; no line end after the
    /// result), or `None` when it is to be written from its tree.
    pub text: Option<Vec<u8>>,
    /// The length of the tag section of `text` (its tags, each with its line end): where a
    /// tag added to the game goes.
    pub tags_len: usize,
}

impl Digested {
    /// The game as a copy for a [`Deduper`](crate::Deduper), found at `at`: its text (moved
    /// out, not copied) ended by `separator` ([`Form::separator`](crate::Form::separator)),
    /// with a duplicate's tag going after its last tag, as
    /// [`Form::write_marked`](crate::Form::write_marked) marks it; it has no annotations to
    /// rank by (score 0). `None` when the game has no text (it is to be written from its
    /// tree); the warnings stay in [`Digested::checked`].
    ///
    /// ```
    /// use tabia_collect::{DedupBy, DigestExporter, Place};
    /// use tabia_notation::pgn::PgnReader;
    ///
    /// let pgn = "[White \"Tal\"]\n\n1. e4 e5 *\n";
    /// let mut exporter = DigestExporter::new(DedupBy::Moves);
    /// let mut game = PgnReader::new(pgn.as_bytes()).read_game(&mut exporter)?.expect("a game")?;
    /// let copy = game.take_copy(Place::new(0, 1), "\n\n").expect("written");
    /// assert_eq!((copy.digest, copy.at.game, copy.marks.len()), (game.digest, 1, 1));
    /// assert!(game.text.is_none());
    /// let text = String::from_utf8(copy.text)?;
    /// assert!(text.ends_with("[White \"Tal\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n"));
    /// // A duplicate's tag goes after the last tag.
    /// assert_eq!(&text[copy.marks[0]..], "\n1. e4 e5 *\n\n");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn take_copy(&mut self, at: Place, separator: &str) -> Option<GameCopy> {
        let mut text = self.text.take()?;
        // Within the room the exporter left for it: no copy.
        text.extend_from_slice(separator.as_bytes());
        Some(GameCopy {
            digest: self.digest,
            at,
            score: 0,
            text,
            marks: vec![self.tags_len],
        })
    }
}

impl DigestExporter {
    /// An exporter that digests by `by`, ready for the first game.
    pub fn new(by: DedupBy) -> DigestExporter {
        let mut exporter = Exporter::new();
        // The moves are taken at the end, for less on each move.
        exporter
            .checker_mut()
            .keep_mainline_moves(by == DedupBy::Moves);
        DigestExporter {
            exporter,
            digester: Digester::new(by),
            followed: 0,
        }
    }

    /// Feeds the mainline's last move and the position after it to the digester, when the
    /// move read was a mainline move.
    #[inline]
    fn follow(&mut self) {
        if let Some(main) = self.exporter.checker().mainline()
            && main.plies > self.followed
        {
            self.followed = main.plies;
            self.digester
                .mainline_move(main.plies, main.last, main.position);
        }
    }
}

impl Visitor for DigestExporter {
    type Output = Result<Digested, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.digester.reset();
        self.followed = 0;
        self.exporter.begin_game(start)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.exporter.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        let skip = self.exporter.begin_movetext();
        if let Some(main) = self.exporter.checker().mainline() {
            self.digester.start(main.position);
        }
        skip
    }

    #[inline]
    fn san(&mut self, san: SanPlus, at: Origin) {
        self.exporter.san(san, at);
        if self.digester.follows_positions() {
            self.follow();
        }
    }

    fn skip_rest(&mut self) -> Skip {
        self.exporter.skip_rest()
    }

    fn nag(&mut self, nag: Nag) {
        self.exporter.nag(nag);
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.exporter.partial_comment(comment);
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.exporter.comment(comment);
    }

    fn begin_variation(&mut self) -> Skip {
        self.exporter.begin_variation()
    }

    fn end_variation(&mut self) {
        self.exporter.end_variation();
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.exporter.outcome(outcome);
    }

    fn warning(&mut self, warning: Warning) {
        self.exporter.warning(warning);
    }

    fn end_game(&mut self) -> Result<Digested, ReplayError> {
        let checked = self.exporter.end_game()?;
        let checker = self.exporter.checker();
        self.digester.mainline_moves(checker.mainline_moves());
        let digest = match checker.mainline() {
            Some(main) => self.digester.take(main.position, main.plies),
            // A game that passed its checks has a mainline: not reached.
            None => self
                .digester
                .take(&tabia_position::Position::new(), checked.plies),
        };
        Ok(Digested {
            checked,
            digest,
            text: self.exporter.bytes().map(|bytes| {
                // Room for the separator the writer adds.
                let mut text = Vec::with_capacity(bytes.len() + 2);
                text.extend_from_slice(bytes);
                text
            }),
            tags_len: self.exporter.tags_len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::{Game, PgnReader};
    use tabia_position::repair_game;

    use super::*;
    use crate::Form;

    /// Games with null moves, a FEN start, variations, comments in every place, a repaired
    /// check mark, a game shorter than the fuzzy depth, and bad games between.
    const GAMES: &str = "\
[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n\n\
1. e4 {c} e5 $1 (1... c5 {d} 2. Nf3 (2. c3) d6) 2. Nf3 -- 3. Bc4 *\n\n\
[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. e5 Ke6 *\n\n\
1. f3 e5 2. g4 Qh4 0-1\n\n\
1. e4 e5 2. Ke3 *\n\n\
{before} 1. d4 d5 $2 {after} (1... Nf6) 2. c4 {x} $1 e6 *\n\n\
1. e4 e5 2. Nf3 (2. Nc3 Nf6 (2... Nc6 3. f4) 3. Bc4) Nc6 3. Bb5 *\n\n\
[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n\
9. g3 Nd7 *\n";

    #[test]
    fn the_digest_and_text_are_the_trees() {
        for by in [
            DedupBy::Moves,
            DedupBy::Position,
            DedupBy::FuzzyDepth(3),
            DedupBy::FuzzyDepth(40),
        ] {
            let mut reader = PgnReader::new(GAMES.as_bytes());
            let mut exporter = DigestExporter::new(by);
            let (mut good, mut bad, mut written) = (0, 0, 0);
            while let Some(raw) = reader.read_raw_game().expect("readable") {
                let streamed = raw.visit(&mut exporter).expect("well-formed");
                let mut game: Game = raw.parse().expect("well-formed");
                let tree = repair_game(&mut game).and_then(|_| Digester::digest(&game, by));
                match (streamed, tree) {
                    (Ok(streamed), Ok(digest)) => {
                        good += 1;
                        assert_eq!(streamed.digest, digest, "{by}: {game}");

                        if let Some(text) = streamed.text {
                            written += 1;
                            let (mut tree, mut marks) = (Vec::new(), Vec::new());
                            Form::default()
                                .write_marked(game, &mut tree, &mut marks)
                                .unwrap();
                            // The same text, and a duplicate's tag in the same place.
                            assert_eq!(text, tree[..tree.len() - 2]);
                            assert_eq!(marks, [streamed.tags_len]);
                        }
                    }
                    (Err(a), Err(b)) => {
                        bad += 1;
                        assert_eq!(a.to_string(), b.to_string());
                    }
                    (a, b) => panic!("{by}: streamed {a:?}, tree {b:?}"),
                }
            }
            assert_eq!((good, bad), (7, 1), "{by}");
            // The game with a NAG after a comment is written from its tree.
            assert_eq!(written, 6, "{by}");
        }
    }

    #[test]
    fn a_copy_is_what_the_form_writes_from_the_tree() {
        let mut reader = PgnReader::new(GAMES.as_bytes());
        let mut exporter = DigestExporter::new(DedupBy::Moves);
        let mut copies = 0;
        while let Some(raw) = reader.read_raw_game().expect("readable") {
            let Ok(mut streamed) = raw.visit(&mut exporter).expect("well-formed") else {
                continue;
            };
            let at = Place::new(0, copies + 1);
            let form = Form::default();
            let had_text = streamed.text.is_some();
            match streamed.take_copy(at, form.separator()) {
                Some(copy) => {
                    copies += 1;
                    let mut game: Game = raw.parse().expect("well-formed");
                    repair_game(&mut game).expect("legal");
                    let (mut tree, mut marks) = (Vec::new(), Vec::new());
                    form.write_marked(game, &mut tree, &mut marks).unwrap();
                    assert_eq!((copy.text, copy.marks), (tree, marks));
                    assert_eq!((copy.digest, copy.at, copy.score), (streamed.digest, at, 0));
                    assert!(streamed.text.is_none());
                }
                None => assert!(!had_text),
            }
        }
        assert_eq!(copies, 6);
    }
}
