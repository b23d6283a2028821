//! lichess's figures of the games whose moves carry evaluations, summed by rating band: what
//! [`Stats`](crate::Stats) keeps of them, in integers, so that parts merge exactly in any order.

use tabia_notation::{Color, pgn::Score};

use crate::{facts::GameFacts, lichess};

/// The lower bounds of lichess's rating bands (its explorer's): under 1000, 1000–1199, …,
/// 2200–2499, 2500 and above.
pub(crate) const BANDS: [u32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The index of the band of the sides without a rating, after the rated bands.
pub(crate) const UNRATED: usize = BANDS.len();

/// A game accuracy is summed as thousandths of a percent, rounded: integers add up the same
/// in any order, where floating-point sums do not.
pub(crate) const ACCURACY_SCALE: f64 = 1000.0;

/// The band of a side's own rating: an index into [`BANDS`], or [`UNRATED`].
pub(crate) fn band(rating: Option<u32>) -> usize {
    rating.map_or(UNRATED, |rating| {
        BANDS
            .iter()
            .rposition(|&bound| bound <= rating)
            .unwrap_or(0)
    })
}

/// The sums of one rating band: the sides of the games judged whose own rating is in it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct BandSums {
    /// Sides with a move judged (a game counts once for each side).
    pub(crate) sides: u64,
    /// Their moves judged.
    pub(crate) moves: u64,
    /// Their game accuracies, in thousandths of a percent ([`ACCURACY_SCALE`]).
    pub(crate) accuracy: u64,
    /// Their moves' centipawn losses.
    pub(crate) loss: u64,
    /// Their moves judged inaccuracies, mistakes, blunders ([`lichess::Judgement`]'s order).
    pub(crate) judgements: [u64; 3],
}

impl BandSums {
    fn merge(&mut self, other: &BandSums) {
        self.sides += other.sides;
        self.moves += other.moves;
        self.accuracy += other.accuracy;
        self.loss += other.loss;
        for (mine, theirs) in self.judgements.iter_mut().zip(other.judgements) {
            *mine += theirs;
        }
    }
}

/// lichess's figures of the games with evaluations, by the rating band of each side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AccuracySums {
    /// Games judged ([`GameFacts::judged_evals`]).
    pub(crate) games: u64,
    /// Games with a score after some mainline move that were not judged.
    pub(crate) left_out: u64,
    /// By band: [`BANDS`]' then the unrated sides'.
    pub(crate) bands: [BandSums; BANDS.len() + 1],
}

impl AccuracySums {
    /// Counts a game read whole, if its moves carry evaluations.
    pub(crate) fn add(&mut self, facts: &GameFacts) {
        match facts.judged_evals() {
            Some(evals) => self.add_judged(
                facts.first_mover(),
                &evals,
                [facts.white_elo, facts.black_elo],
            ),
            None if facts.has_move_evals() => self.left_out += 1,
            None => {}
        }
    }

    /// Counts a game whose scores after each move are `evals` (the first move `start`'s), its
    /// players rated `ratings` (White's, Black's).
    pub(crate) fn add_judged(&mut self, start: Color, evals: &[Score], ratings: [Option<u32>; 2]) {
        self.games += 1;
        let accuracy = lichess::game_accuracy(start, evals);
        let mut sides = [BandSums::default(); 2];
        for (mover, before, after) in lichess::moves(start, evals) {
            let side = &mut sides[usize::from(mover == Color::Black)];
            side.moves += 1;
            side.loss += u64::from(lichess::centipawn_loss(mover, before, after));
            if let Some(advice) = lichess::advice(mover, before, after) {
                side.judgements[advice.judgement as usize] += 1;
            }
        }
        for (color, (mut side, rating)) in
            Color::ALL.into_iter().zip(sides.into_iter().zip(ratings))
        {
            // A side with a move has an accuracy; one without counts nowhere.
            let Some(&accuracy) = accuracy.get(color) else {
                continue;
            };
            side.sides = 1;
            side.accuracy = (accuracy * ACCURACY_SCALE).round() as u64;
            self.bands[band(rating)].merge(&side);
        }
    }

    /// Adds the sums of `other`.
    pub(crate) fn merge(&mut self, other: &AccuracySums) {
        self.games += other.games;
        self.left_out += other.left_out;
        for (mine, theirs) in self.bands.iter_mut().zip(&other.bands) {
            mine.merge(theirs);
        }
    }

    /// Every band's sums together.
    pub(crate) fn all(&self) -> BandSums {
        let mut all = BandSums::default();
        for band in &self.bands {
            all.merge(band);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::Outcome;

    use super::*;

    /// The facts of one game's PGN.
    fn facts(pgn: &str) -> GameFacts {
        let mut facts = GameFacts::default();
        tabia_notation::pgn::PgnReader::new(pgn.as_bytes())
            .read_game(&mut facts)
            .expect("a game");
        facts
    }

    fn sums(pgns: &[&str]) -> AccuracySums {
        let mut sums = AccuracySums::default();
        for pgn in pgns {
            sums.add(&facts(pgn));
        }
        sums
    }

    /// Thousandths of a percent, as summed.
    fn milli(accuracy: Option<f64>) -> u64 {
        (accuracy.expect("an accuracy") * ACCURACY_SCALE).round() as u64
    }

    #[test]
    fn bands_are_lichess_s_by_the_side_s_own_rating() {
        assert_eq!(band(Some(1)), 0);
        assert_eq!(band(Some(999)), 0);
        assert_eq!(band(Some(1000)), 1);
        assert_eq!(band(Some(1799)), 4);
        assert_eq!(band(Some(2499)), 7);
        assert_eq!(band(Some(2500)), 8);
        assert_eq!(band(Some(3200)), 8);
        assert_eq!(band(None), UNRATED);
    }

    #[test]
    fn a_game_with_an_eval_after_every_move_is_lichess_s() {
        let pgn = "[WhiteElo \"1850\"]\n[BlackElo \"1420\"]\n\n\
                   1. e4 { [%eval 0.2] [%clk 0:03:00] } e5 { [%eval 0.25] } \
                   2. Nf3 { [%eval 0.2] } Qh4 { [%eval 3.5] } 3. Nxh4 { [%eval 3.4] } 1-0";
        let facts = facts(pgn);
        let evals = [20, 25, 20, 350, 340].map(Score::Cp);
        assert_eq!(facts.evals(), evals);
        assert_eq!(facts.judged_evals().as_deref(), Some(&evals[..]));
        let sums = sums(&[pgn]);
        let accuracy = lichess::game_accuracy(Color::White, &evals);
        let acpl = lichess::average_centipawn_loss(Color::White, &evals);
        assert_eq!((sums.games, sums.left_out), (1, 0));
        let white = sums.bands[band(Some(1850))];
        assert_eq!(
            white,
            BandSums {
                sides: 1,
                moves: 3,
                accuracy: milli(accuracy.white),
                // 15 → 20, 25 → 20, 350 → 340.
                loss: 5 + 10,
                judgements: [0, 0, 0],
            }
        );
        assert_eq!(
            acpl.white,
            Some(5),
            "the same losses as lichess's ACPL: 15 / 3"
        );
        let black = sums.bands[band(Some(1420))];
        assert_eq!(
            black,
            BandSums {
                sides: 1,
                moves: 2,
                accuracy: milli(accuracy.black),
                // 20 → 25 (5), 20 → 350 (330): Qh4 hangs the queen.
                loss: 5 + 330,
                judgements: [0, 0, 1],
            }
        );
        assert!(accuracy.black.unwrap() < 50.0 && accuracy.white.unwrap() > 95.0);
        assert_eq!(sums.all().sides, 2);
        assert_eq!(sums.all().moves, 5);
    }

    #[test]
    fn a_missing_last_eval_is_a_mate_for_the_winner_or_left_out() {
        let moves = "1. f3 { [%eval -0.3] } e5 { [%eval -0.4] } 2. g4 { [%eval #-1] } Qh4#";
        // Black mated: the last move is scored as Black's mate, and judged.
        let mated = facts(&format!("{moves} 0-1"));
        let evals = mated.judged_evals().expect("judged");
        assert_eq!(evals[3], Score::Mate(-1));
        let with_mate = [
            Score::Cp(-30),
            Score::Cp(-40),
            Score::Mate(-1),
            Score::Mate(-1),
        ];
        assert_eq!(&*evals, with_mate);
        let sums = sums(&[&format!("{moves} 0-1")]);
        let accuracy = lichess::game_accuracy(Color::White, &with_mate);
        assert_eq!(sums.bands[UNRATED].moves, 4);
        assert_eq!(
            sums.bands[UNRATED].accuracy,
            milli(accuracy.white) + milli(accuracy.black)
        );
        // g4 walks into the mate: White's mate advice, a blunder; Qh4# keeps the mate.
        assert_eq!(sums.bands[UNRATED].judgements, [0, 0, 1]);
        // A draw, a loss for the last mover, an unknown result: the last move is left out.
        for result in ["1/2-1/2", "1-0", "*"] {
            let facts = facts(&format!("{moves} {result}"));
            assert_eq!(
                facts.judged_evals().as_deref(),
                Some(&with_mate[..3]),
                "{result}"
            );
        }
        // Two moves without: not judged, left out.
        let gap = "1. f3 { [%eval -0.3] } e5 { [%eval -0.4] } 2. g4 Qh4# 0-1";
        let sums = super::tests::sums(&[gap]);
        assert_eq!((sums.games, sums.left_out), (0, 1));
        assert_eq!(sums.all(), BandSums::default());
    }

    #[test]
    fn a_move_without_an_eval_before_others_leaves_the_game_out() {
        let pgn = "1. e4 { [%eval 0.2] } e5 2. Nf3 { [%eval 0.3] } Nc6 { [%eval 0.3] } *";
        let facts = facts(pgn);
        assert_eq!(facts.evals(), [Score::Cp(20)]);
        assert!(facts.judged_evals().is_none() && facts.has_move_evals());
        let sums = sums(&[pgn, "1. e4 e5 *", "{ [%eval 0.1] } 1. e4 *"]);
        assert_eq!(
            (sums.games, sums.left_out),
            (0, 1),
            "games without evals count nowhere"
        );
    }

    #[test]
    fn the_first_eval_after_a_move_counts_and_variations_are_not_read() {
        let pgn = "1. e4 { [%eval soon] [%eval 0.2] } { [%eval 9.9] } \
                   ( 1. d4 { [%eval -5.0] } ) e5 { [%eval 0.3] } 1/2-1/2";
        let facts = facts(pgn);
        assert_eq!(facts.evals(), [Score::Cp(20), Score::Cp(30)]);
        assert_eq!(facts.outcome(), Outcome::Draw);
    }

    #[test]
    fn black_moves_first_from_a_fen() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n[BlackElo \"2600\"]\n\n\
                   1... Kd7 { [%eval 5.0] } 2. Kd2 { [%eval 1.0] } Ke6 { [%eval 6.0] } *";
        let facts = facts(pgn);
        assert_eq!(facts.first_mover(), Color::Black);
        let evals = [500, 100, 600].map(Score::Cp);
        let sums = sums(&[pgn]);
        let accuracy = lichess::game_accuracy(Color::Black, &evals);
        let black = sums.bands[band(Some(2600))];
        // Black: 15 → 500 (485: lichess's start score, whatever the position), 100 → 600.
        assert_eq!((black.sides, black.moves, black.loss), (1, 2, 485 + 500));
        assert_eq!(black.accuracy, milli(accuracy.black));
        // White: 500 → 100.
        let white = sums.bands[UNRATED];
        assert_eq!((white.sides, white.moves, white.loss), (1, 1, 400));
        assert_eq!(white.accuracy, milli(accuracy.white));
        assert_eq!(fen_side("8/8/8/8/8/8/8/8 w - - 0 1"), Color::White);
        assert_eq!(fen_side("nonsense"), Color::White);
    }

    fn fen_side(fen: &str) -> Color {
        facts(&format!("[FEN \"{fen}\"]\n\n*")).first_mover()
    }

    #[test]
    fn sums_merge_in_any_order() {
        let games = [
            "[WhiteElo \"1500\"]\n\n1. e4 { [%eval 0.3] } e5 { [%eval 0.9] } 1-0",
            "[BlackElo \"1510\"]\n\n1. d4 { [%eval 0.1] } d5 { [%eval 2.1] } 2. c4 { [%eval -1.0] } *",
            "1. c4 { [%eval -3.1] } 0-1",
        ];
        let all = sums(&games);
        let mut parts: Vec<AccuracySums> = games.iter().map(|g| sums(&[g])).collect();
        let mut forth = AccuracySums::default();
        for part in &parts {
            forth.merge(part);
        }
        parts.reverse();
        let mut back = AccuracySums::default();
        for part in &parts {
            back.merge(part);
        }
        assert_eq!(forth, all);
        assert_eq!(back, all);
        assert_eq!(all.bands[band(Some(1500))].sides, 2);
        // Black made no move in the third game: it counts nowhere.
        assert_eq!(all.bands[UNRATED].sides, 3);
    }
}
