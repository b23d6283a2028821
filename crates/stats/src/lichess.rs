//! lichess's figures of an analysed game, as lila computes them: win percentage
//! (`WinPercent`), move and game accuracy (`AccuracyPercent`), average centipawn loss
//! (`AccuracyCP`) and advice (`Advice`: inaccuracies, mistakes and blunders).
//!
//! Every score here is White's, as `[%eval]` writes it; a game's evaluations are the scores of
//! the positions after each of its moves, in order.

use std::fmt;

use tabia_notation::Color;
use tabia_notation::pgn::Score;

/// The centipawns beyond which a score counts no more (lila's `Cp.CEILING`); a mate counts as
/// this many.
pub const CP_CEILING: i32 = 1000;

/// The score lichess gives the start position (lila's `Cp.initial`): White's first move.
pub const CP_INITIAL: i32 = 15;

/// A score as centipawns for lichess's formulas: centipawns within ±[`CP_CEILING`], a mate as
/// the ceiling (lila's `forceAsCp`, then `ceiled`). `Mate(0)` has no side and counts as 0: a
/// checkmate is given as the mated side's loss (`Mate(-1)` when White is mated).
pub fn ceiled_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) => CP_CEILING * n.signum(),
    }
}

/// White's winning chances in [-1, 1] at `cp` centipawns (ceiled), lichess's logistic curve.
///
/// ```
/// use tabia_stats::lichess::winning_chances;
///
/// assert_eq!(winning_chances(0), 0.0);
/// assert!((winning_chances(300) - 0.50225).abs() < 1e-5);
/// assert_eq!(winning_chances(5000), winning_chances(1000));
/// ```
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
}

/// White's win percentage in [0, 100] for a score (lila's `WinPercent.fromScore`).
pub fn win_percent(score: Score) -> f64 {
    50.0 + 50.0 * winning_chances(ceiled_cp(score))
}

/// The accuracy of one move in [0, 100] from the mover's win percentage before and after it
/// (lila's `AccuracyPercent.fromWinPercents`: a fitted exponential, plus one point for the
/// imperfect analysis).
///
/// ```
/// use tabia_stats::lichess::move_accuracy;
///
/// assert_eq!(move_accuracy(60.0, 70.0), 100.0);
/// assert_eq!(move_accuracy(60.0, 60.0), 100.0);
/// assert!((move_accuracy(60.0, 50.0) - 64.58).abs() < 0.01);
/// assert_eq!(move_accuracy(100.0, 0.0), 0.0);
/// ```
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's figure of a game, `None` for a side that made no move analysed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ByColor<T> {
    /// White's.
    pub white: Option<T>,
    /// Black's.
    pub black: Option<T>,
}

impl<T> ByColor<T> {
    /// The figure of `color`.
    pub fn get(&self, color: Color) -> Option<&T> {
        match color {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }
}

/// The side that makes the `i`-th move (0-based) of a game whose first move is `start`'s: the
/// plies alternate from the first.
///
/// ```
/// use tabia_notation::Color;
/// use tabia_stats::lichess::mover;
///
/// assert_eq!(mover(Color::White, 2), Color::White);
/// assert_eq!(mover(Color::Black, 1), Color::White);
/// ```
pub fn mover(start: Color, i: usize) -> Color {
    if i.is_multiple_of(2) {
        start
    } else {
        start.other()
    }
}

/// Each move of a game as lichess judges it: its mover and White's scores before and after it,
/// the score before the first move being [`CP_INITIAL`] (lila's `Info.start`, whatever the
/// start position); `evals` are White's scores after each move, the first move `start`'s.
///
/// ```
/// use tabia_notation::{Color, pgn::Score};
/// use tabia_stats::lichess::moves;
///
/// let evals = [Score::Cp(20), Score::Cp(-30)];
/// assert_eq!(
///     moves(Color::White, &evals).collect::<Vec<_>>(),
///     [
///         (Color::White, Score::Cp(15), Score::Cp(20)),
///         (Color::Black, Score::Cp(20), Score::Cp(-30)),
///     ]
/// );
/// ```
pub fn moves(start: Color, evals: &[Score]) -> impl Iterator<Item = (Color, Score, Score)> + '_ {
    std::iter::once(Score::Cp(CP_INITIAL))
        .chain(evals.iter().copied())
        .zip(evals)
        .enumerate()
        .map(move |(i, (before, &after))| (mover(start, i), before, after))
}

/// The centipawns a move of `mover` lost (lila's `AccuracyCP`): how far the mover's score fell
/// from `before` to `after` (White's scores, ceiled: [`ceiled_cp`]), never below 0.
///
/// ```
/// use tabia_notation::{Color, pgn::Score};
/// use tabia_stats::lichess::centipawn_loss;
///
/// assert_eq!(centipawn_loss(Color::White, Score::Cp(300), Score::Cp(-270)), 570);
/// assert_eq!(centipawn_loss(Color::Black, Score::Cp(300), Score::Cp(-270)), 0);
/// assert_eq!(centipawn_loss(Color::Black, Score::Cp(-200), Score::Mate(3)), 1200);
/// ```
pub fn centipawn_loss(mover: Color, before: Score, after: Score) -> u32 {
    let (before, after) = (ceiled_cp(before), ceiled_cp(after));
    let loss = match mover {
        Color::White => before - after,
        Color::Black => after - before,
    };
    loss.max(0).unsigned_abs()
}

/// The population standard deviation of `xs`.
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The harmonic mean of `xs`, each taken as at least 1 (scalalib's `Maths.harmonicMean`).
fn harmonic_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.len() as f64 / xs.iter().map(|x| 1.0 / x.max(1.0)).sum::<f64>())
}

/// The mean of values weighted by weights, `None` when the weights sum to nothing.
fn weighted_mean(pairs: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = pairs.iter().fold((0.0, 0.0), |(s, w), (value, weight)| {
        (s + value * weight, w + weight)
    });
    (weights > 0.0).then(|| sum / weights)
}

/// Each side's game accuracy (lila's `AccuracyPercent.gameAccuracy`): the mean of two means of
/// the side's move accuracies, one weighted by how volatile the game was around each move (the
/// standard deviation of the win percentages in a window of plies, 2 to 8 long), the other
/// harmonic, so that a few bad moves weigh more than in a plain mean.
///
/// `evals` are White's scores after each move, in order; the first move is `start`'s; the start
/// position counts as [`CP_INITIAL`].
///
/// ```
/// use tabia_stats::lichess::game_accuracy;
/// use tabia_notation::pgn::Score;
/// use tabia_notation::Color;
///
/// // Both sides keep the balance: perfect play.
/// let calm = [Score::Cp(20), Score::Cp(15), Score::Cp(25), Score::Cp(15)];
/// let accuracy = game_accuracy(Color::White, &calm);
/// assert_eq!(accuracy.white.map(f64::round), Some(100.0));
/// // Black throws a piece away on its second move.
/// let blunder = [Score::Cp(20), Score::Cp(15), Score::Cp(25), Score::Cp(320)];
/// let accuracy = game_accuracy(Color::White, &blunder);
/// assert!(accuracy.black.unwrap() < 70.0 && accuracy.white.unwrap() > 99.0);
/// ```
pub fn game_accuracy(start: Color, evals: &[Score]) -> ByColor<f64> {
    let wins: Vec<f64> = std::iter::once(win_percent(Score::Cp(CP_INITIAL)))
        .chain(evals.iter().map(|&s| win_percent(s)))
        .collect();
    if wins.len() < 2 {
        return ByColor::default();
    }
    let window = (evals.len() / 10).clamp(2, 8);
    // As lila: the first window repeated so that each move has one, then every window.
    let mut windows: Vec<&[f64]> = Vec::with_capacity(wins.len());
    let first = &wins[..window.min(wins.len())];
    for _ in 0..window.min(wins.len()).saturating_sub(2) {
        windows.push(first);
    }
    if wins.len() < window {
        windows.push(&wins);
    } else {
        windows.extend(wins.windows(window));
    }
    let mut moves: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, window)) in wins.windows(2).zip(&windows).enumerate() {
        let weight = standard_deviation(window).clamp(0.5, 12.0);
        let color = mover(start, i);
        let accuracy = match color {
            Color::White => move_accuracy(pair[0], pair[1]),
            Color::Black => move_accuracy(100.0 - pair[0], 100.0 - pair[1]),
        };
        moves[usize::from(color == Color::Black)].push((accuracy, weight));
    }
    let side = |moves: &[(f64, f64)]| {
        let accuracies: Vec<f64> = moves.iter().map(|m| m.0).collect();
        Some((weighted_mean(moves)? + harmonic_mean(&accuracies)?) / 2.0)
    };
    ByColor {
        white: side(&moves[0]),
        black: side(&moves[1]),
    }
}

/// Each side's average centipawn loss (lila's `AccuracyCP`): for each of its moves, how many
/// centipawns (ceiled) its evaluation fell, never below 0, averaged and rounded.
///
/// ```
/// use tabia_stats::lichess::average_centipawn_loss;
/// use tabia_notation::pgn::Score;
/// use tabia_notation::Color;
///
/// let evals = [Score::Cp(20), Score::Cp(300), Score::Cp(-270), Score::Mate(-2)];
/// let acpl = average_centipawn_loss(Color::White, &evals);
/// // White: 15 → 20 (0), 300 → −270 (570); Black: 20 → 300 (280), −270 → mate (0).
/// assert_eq!((acpl.white, acpl.black), (Some(285), Some(140)));
/// ```
pub fn average_centipawn_loss(start: Color, evals: &[Score]) -> ByColor<u32> {
    // Each side's sum of losses and number of moves.
    let mut losses = [(0u64, 0u64); 2];
    for (mover, before, after) in moves(start, evals) {
        let side = &mut losses[usize::from(mover == Color::Black)];
        side.0 += u64::from(centipawn_loss(mover, before, after));
        side.1 += 1;
    }
    let mean = |(sum, n): (u64, u64)| (n > 0).then(|| (sum as f64 / n as f64).round() as u32);
    ByColor {
        white: mean(losses[0]),
        black: mean(losses[1]),
    }
}

/// How bad a move was, by lichess's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!`: the mover's winning chances fell by 0.1 or more (of [-1, 1]).
    Inaccuracy,
    /// `?`: by 0.2 or more.
    Mistake,
    /// `??`: by 0.3 or more.
    Blunder,
}

impl Judgement {
    /// The move's NAG: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a move did to a forced mate (lila's `MateSequence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MateSequence {
    /// The mover can now be mated by force.
    Created,
    /// The mover had a forced mate and lost it.
    Lost,
}

impl MateSequence {
    /// lichess's words for it.
    pub fn describe(self) -> &'static str {
        match self {
            MateSequence::Created => "Checkmate is now unavoidable",
            MateSequence::Lost => "Lost forced checkmate sequence",
        }
    }
}

/// lichess's verdict on a move that lost ground ([`advice`]): a [`Judgement`], and whether it
/// was about a forced mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Advice {
    /// How bad the move was.
    pub judgement: Judgement,
    /// `Some` when the move created or lost a forced mate.
    pub mate: Option<MateSequence>,
}

impl Advice {
    /// The comment lichess writes after the move: `Mistake. Nf3 was best.`, `Checkmate is now
    /// unavoidable. Qxf7+ was best.`; without the sentence on the best move when it is not
    /// known.
    pub fn comment(&self, best: Option<&str>) -> String {
        let mut text = match self.mate {
            Some(sequence) => sequence.describe().to_owned(),
            None => self.judgement.name().to_owned(),
        };
        text.push('.');
        if let Some(best) = best {
            text.push_str(&format!(" {best} was best."));
        }
        text
    }
}

/// lichess's advice on a move of `mover` that took White's score from `before` to `after`
/// (lila's `Advice`: the fall of the mover's winning chances when both are centipawns; else
/// whether a forced mate was created or lost, judged by the centipawns on the other side).
///
/// ```
/// use tabia_stats::lichess::{Judgement, advice};
/// use tabia_notation::pgn::Score;
/// use tabia_notation::Color;
///
/// let blunder = advice(Color::Black, Score::Cp(-71), Score::Cp(528)).unwrap();
/// assert_eq!(blunder.judgement, Judgement::Blunder);
/// assert_eq!(advice(Color::White, Score::Cp(20), Score::Cp(5)), None);
/// let mated = advice(Color::White, Score::Cp(-300), Score::Mate(-4)).unwrap();
/// assert_eq!(mated.comment(Some("Kh1")), "Checkmate is now unavoidable. Kh1 was best.");
/// ```
pub fn advice(mover: Color, before: Score, after: Score) -> Option<Advice> {
    let sign = if mover == Color::White { 1 } else { -1 };
    if let (Score::Cp(b), Score::Cp(a)) = (before, after) {
        let fall = f64::from(sign) * (winning_chances(b) - winning_chances(a));
        let judgement = if fall >= 0.3 {
            Judgement::Blunder
        } else if fall >= 0.2 {
            Judgement::Mistake
        } else if fall >= 0.1 {
            Judgement::Inaccuracy
        } else {
            return None;
        };
        return Some(Advice {
            judgement,
            mate: None,
        });
    }
    // The mover's view of the mates and centipawns.
    let mate = |s: Score| match s {
        Score::Mate(n) => Some(sign * n),
        Score::Cp(_) => None,
    };
    let cp = |s: Score| match s {
        Score::Cp(cp) => sign * cp,
        Score::Mate(_) => 0,
    };
    let sequence = match (mate(before), mate(after)) {
        (None, Some(n)) if n < 0 => MateSequence::Created,
        (Some(p), None) if p > 0 => MateSequence::Lost,
        (Some(p), Some(n)) if p > 0 && n < 0 => MateSequence::Lost,
        _ => return None,
    };
    let judgement = match sequence {
        MateSequence::Created if cp(before) < -999 => Judgement::Inaccuracy,
        MateSequence::Created if cp(before) < -700 => Judgement::Mistake,
        MateSequence::Created => Judgement::Blunder,
        MateSequence::Lost if cp(after) > 999 => Judgement::Inaccuracy,
        MateSequence::Lost if cp(after) > 700 => Judgement::Mistake,
        MateSequence::Lost => Judgement::Blunder,
    };
    Some(Advice {
        judgement,
        mate: Some(sequence),
    })
}

/// `[%eval]`'s text as lichess writes it: pawns with as few decimals as needed but one
/// (`0.17`, `0.1`, `-2.0`), or `#N` for a mate.
///
/// ```
/// use tabia_stats::lichess::eval_text;
/// use tabia_notation::pgn::Score;
///
/// assert_eq!(eval_text(Score::Cp(17)), "0.17");
/// assert_eq!(eval_text(Score::Cp(10)), "0.1");
/// assert_eq!(eval_text(Score::Cp(-200)), "-2.0");
/// assert_eq!(eval_text(Score::Cp(-5)), "-0.05");
/// assert_eq!(eval_text(Score::Mate(-3)), "#-3");
/// ```
pub fn eval_text(score: Score) -> String {
    match score {
        Score::Mate(n) => format!("#{n}"),
        Score::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let (pawns, rest) = (cp.unsigned_abs() / 100, cp.unsigned_abs() % 100);
            if rest.is_multiple_of(10) {
                format!("{sign}{pawns}.{}", rest / 10)
            } else {
                format!("{sign}{pawns}.{rest:02}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White's scores from centipawns.
    fn cps(values: &[i32]) -> Vec<Score> {
        values.iter().map(|&cp| Score::Cp(cp)).collect()
    }

    fn close(got: Option<f64>, want: f64) {
        let got = got.expect("a figure");
        assert!((got - want).abs() < 1e-9, "{got} is not {want}");
    }

    /// The figures an independent implementation of lila's formulas gives (a Python script
    /// written from lila's `AccuracyPercent.scala` and scalalib's `Maths`, run by hand).
    #[test]
    fn game_accuracy_is_lilas() {
        let accuracy = game_accuracy(Color::White, &cps(&[20, 15, 25, 320]));
        close(accuracy.white, 100.0);
        close(accuracy.black, 43.543_540_340_725_87);
        let swings = [
            30, 25, -150, -140, -160, 300, 280, 290, -500, -480, -470, 1000, 900, 950,
        ];
        let accuracy = game_accuracy(Color::White, &cps(&swings));
        close(accuracy.white, 29.826_547_642_411_77);
        close(accuracy.black, 11.633_374_576_985_071);
        // Black moves first (a game from a position): the plies alternate from Black.
        let accuracy = game_accuracy(Color::Black, &cps(&swings[..7]));
        close(accuracy.white, 99.805_086_772_557_67);
        close(accuracy.black, 99.178_860_935_328_16);
    }

    #[test]
    fn a_game_without_moves_has_no_accuracy() {
        assert_eq!(game_accuracy(Color::White, &[]), ByColor::default());
        let one = game_accuracy(Color::White, &cps(&[40]));
        assert!(one.white.is_some() && one.black.is_none());
    }

    #[test]
    fn mates_count_as_the_ceiling() {
        assert_eq!(ceiled_cp(Score::Mate(3)), 1000);
        assert_eq!(ceiled_cp(Score::Mate(-1)), -1000);
        assert_eq!(ceiled_cp(Score::Cp(-4000)), -1000);
        assert_eq!(win_percent(Score::Mate(2)), win_percent(Score::Cp(1000)));
    }

    #[test]
    fn advice_follows_the_winning_chances_thresholds() {
        // From 0.0: the fall in winning chances that each threshold needs, by bisection.
        let fall = |cp: i32| winning_chances(0) - winning_chances(cp);
        let judged =
            |cp: i32| advice(Color::White, Score::Cp(0), Score::Cp(cp)).map(|a| a.judgement);
        for cp in (-1000..=0).rev() {
            let want = match fall(cp) {
                f if f >= 0.3 => Some(Judgement::Blunder),
                f if f >= 0.2 => Some(Judgement::Mistake),
                f if f >= 0.1 => Some(Judgement::Inaccuracy),
                _ => None,
            };
            assert_eq!(judged(cp), want, "{cp}");
        }
        // The thresholds fall between these centipawns (0.1 at 54.5, 0.2 at 110.1, 0.3 at 168.1).
        assert_eq!(judged(-54), None);
        assert_eq!(judged(-55), Some(Judgement::Inaccuracy));
        assert_eq!(judged(-110), Some(Judgement::Inaccuracy));
        assert_eq!(judged(-111), Some(Judgement::Mistake));
        assert_eq!(judged(-168), Some(Judgement::Mistake));
        assert_eq!(judged(-169), Some(Judgement::Blunder));
        // Black's fall is White's rise.
        assert_eq!(
            advice(Color::Black, Score::Cp(0), Score::Cp(169)).map(|a| a.judgement),
            Some(Judgement::Blunder)
        );
        assert_eq!(advice(Color::Black, Score::Cp(0), Score::Cp(-500)), None);
    }

    #[test]
    fn mate_advice_is_judged_by_the_other_side_s_centipawns() {
        let created = |before: i32| advice(Color::White, Score::Cp(before), Score::Mate(-3));
        assert_eq!(
            created(-1200).map(|a| a.judgement),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(created(-800).map(|a| a.judgement), Some(Judgement::Mistake));
        assert_eq!(created(-100).map(|a| a.judgement), Some(Judgement::Blunder));
        let lost = |after: i32| advice(Color::Black, Score::Mate(-2), Score::Cp(after));
        assert_eq!(
            lost(-1200).map(|a| a.judgement),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(lost(-800).map(|a| a.judgement), Some(Judgement::Mistake));
        assert_eq!(lost(-100).map(|a| a.judgement), Some(Judgement::Blunder));
        // Mating faster or slower, or a mate kept, is no advice.
        assert_eq!(advice(Color::White, Score::Mate(5), Score::Mate(3)), None);
        assert_eq!(advice(Color::White, Score::Mate(2), Score::Mate(6)), None);
        // From mating to being mated: lost.
        let flipped = advice(Color::White, Score::Mate(2), Score::Mate(-1)).expect("advice");
        assert_eq!(flipped.mate, Some(MateSequence::Lost));
        assert_eq!(flipped.comment(None), "Lost forced checkmate sequence.");
        assert_eq!(
            Advice {
                judgement: Judgement::Mistake,
                mate: None
            }
            .comment(Some("Nf3")),
            "Mistake. Nf3 was best."
        );
    }

    #[test]
    fn judgements_have_lichess_s_nags() {
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [6, 2, 4]
        );
    }
}
