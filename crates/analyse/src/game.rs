//! A game's analysis: which positions it needs ([`Plan`]) and what is written back into the
//! game from their analyses ([`Plan::annotate`]: `[%eval]`s, advice, the figures' tags).

use std::{fmt, ops::RangeInclusive};

use tabia_notation::pgn::{CommandKind, Comment, Game, Line, Move, Nag, Score};
use tabia_position::{
    EpRule, GameVariant, Position, Replay, ReplayError, Variant,
    shakmaty::{CastlingMode, Color, san::SanPlus, uci::UciMove},
    start_position,
};

use crate::{
    Analysis,
    lichess::{self, ByColor},
};

/// Which moves of a game are judged (`tabia analyse --plies`, `--side`, `--player`); the
/// positions before and after each are analysed.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only the moves of these plies (1 is White's first move in a game from the start).
    pub plies: Option<RangeInclusive<u32>>,
    /// Only this side's moves.
    pub side: Option<Color>,
    /// Only the moves of the side this player has (the `White` or `Black` tag, compared
    /// without case); a game the player is not in has no move judged.
    pub player: Option<String>,
    /// Analyse the positions whose move already carries an `[%eval]` too, and replace those
    /// evaluations (otherwise they are kept, and used as the position's score).
    pub overwrite: bool,
}

/// Why a text is not a range of plies ([`parse_plies`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePliesError(pub String);

impl fmt::Display for ParsePliesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: give plies as A-B, A- or -B (`10-40`)", self.0)
    }
}

impl std::error::Error for ParsePliesError {}

/// The plies of [`Selection::plies`] from their text: `A-B`, `A-` (to the end), `-B` (from
/// the first) or `N` (one ply); 1 is White's first move.
///
/// ```
/// use tabia_analyse::parse_plies;
///
/// assert_eq!(parse_plies("10-40")?, 10..=40);
/// assert_eq!(parse_plies("-8")?, 1..=8);
/// assert_eq!(parse_plies("5-")?, 5..=u32::MAX);
/// assert_eq!(
///     parse_plies("9-2").unwrap_err().to_string(),
///     "`9-2`: give plies as A-B, A- or -B (`10-40`)"
/// );
/// # Ok::<(), tabia_analyse::ParsePliesError>(())
/// ```
///
/// # Errors
///
/// [`ParsePliesError`] for anything else, an empty range and a ply 0.
pub fn parse_plies(text: &str) -> Result<RangeInclusive<u32>, ParsePliesError> {
    let bad = || ParsePliesError(text.to_owned());
    let number = |s: &str, empty: u32| -> Result<u32, ParsePliesError> {
        if s.trim().is_empty() {
            Ok(empty)
        } else {
            s.trim().parse().map_err(|_| bad())
        }
    };
    let (from, to) = match text.split_once('-') {
        Some((a, b)) => (number(a, 1)?, number(b, u32::MAX)?),
        None => {
            let n = number(text, 0)?;
            (n, n)
        }
    };
    if from == 0 || from > to {
        return Err(bad());
    }
    Ok(from..=to)
}

/// Why a game cannot be analysed.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlanError {
    /// Its moves do not replay (an illegal move, a bad `FEN` tag).
    Replay(ReplayError),
    /// Its variant is not standard chess or Chess960, which UCI engines such as Stockfish play.
    Variant(Variant),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Replay(err) => err.fmt(f),
            PlanError::Variant(variant) => write!(
                f,
                "not analysed: {} is not standard chess or Chess960",
                GameVariant {
                    variant: *variant,
                    chess960: false
                }
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// One position of a game's mainline.
#[derive(Debug, Clone)]
pub struct PlanPosition {
    /// The position.
    pub position: Position,
    /// Its EPD: the cache's key, the same for every move order that reaches it.
    pub epd: String,
    /// Its FEN, as the engine is given it (clocks as the game has them).
    pub fen: String,
    /// Whether it has no legal move (checkmate or stalemate): no engine is asked.
    pub ended: bool,
    /// The `[%eval]` the game gives after the move that reached it, White's.
    pub given: Option<Score>,
}

/// What analysing one game needs: its mainline's positions (the start and after each move),
/// which moves are judged and which positions the engine is asked about.
#[derive(Debug, Clone)]
pub struct Plan {
    positions: Vec<PlanPosition>,
    /// Per move (index `i` is the move from position `i` to `i + 1`): whether it is judged.
    judged: Vec<bool>,
    chess960: bool,
    from_start: bool,
    overwrite: bool,
}

/// The figures of one analysed game, for the tags and the summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameFigures {
    /// Each side's accuracy (lichess's game accuracy), when every move has a score.
    pub accuracy: ByColor<f64>,
    /// Each side's average centipawn loss over its judged moves.
    pub acpl: ByColor<u32>,
    /// Each side's inaccuracies, mistakes and blunders among its judged moves.
    pub judgements: ByColor<[u32; 3]>,
    /// White's score after each move, where known.
    pub evals: Vec<Option<Score>>,
}

/// How [`Plan::annotate`] writes.
#[derive(Debug, Clone, Default)]
pub struct AnnotateOptions {
    /// Add the engine's line as a variation to each inaccuracy, mistake and blunder.
    pub variations: bool,
    /// The `Annotator` tag's value (none when `None`).
    pub annotator: Option<String>,
}

impl Plan {
    /// The plan of `game` for the moves `selection` judges.
    ///
    /// # Errors
    ///
    /// [`PlanError`] when its moves do not replay, or its variant is not one UCI engines
    /// play.
    pub fn new(game: &Game, selection: &Selection) -> Result<Plan, PlanError> {
        let start = start_position(game).map_err(PlanError::Replay)?;
        if start.variant() != Variant::Chess {
            return Err(PlanError::Variant(start.variant()));
        }
        let chess960 = start.castling_mode() == CastlingMode::Chess960;
        let from_start = game.tag("FEN").is_none();
        let mut positions = vec![plan_position(start, None)];
        for played in Replay::new(game) {
            let played = played.map_err(PlanError::Replay)?;
            let given = played.node.eval().map(|e| e.score);
            positions.push(plan_position(played.position, given));
        }
        // The player's side: `Some(None)` when the player is not in the game.
        let player_side = selection.player.as_deref().map(|name| {
            let is = |tag: &str| {
                game.tag(tag)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case(name.trim()))
            };
            match (is("White"), is("Black")) {
                // A game against themself: every move is theirs.
                (true, true) => Some(None),
                (true, false) => Some(Some(Color::White)),
                (false, true) => Some(Some(Color::Black)),
                (false, false) => None,
            }
        });
        let judged = (0..positions.len() - 1)
            .map(|i| {
                let mover = positions[i].position.turn();
                let ply = i as u32 + 1;
                selection.plies.as_ref().is_none_or(|r| r.contains(&ply))
                    && selection.side.is_none_or(|side| side == mover)
                    && match player_side {
                        None => true,
                        Some(None) => false,
                        Some(Some(None)) => true,
                        Some(Some(Some(side))) => side == mover,
                    }
            })
            .collect();
        Ok(Plan {
            positions,
            judged,
            chess960,
            from_start,
            overwrite: selection.overwrite,
        })
    }

    /// The positions: the start, then the position after each move.
    pub fn positions(&self) -> &[PlanPosition] {
        &self.positions
    }

    /// Whether the game is Chess960 (the engine's `UCI_Chess960`).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// How many moves are judged.
    pub fn judged(&self) -> usize {
        self.judged.iter().filter(|&&j| j).count()
    }

    /// The indices of the positions the engine is asked about: before and after each judged
    /// move, except positions with no legal move and (without `overwrite`) those whose score
    /// the game gives.
    pub fn wanted(&self) -> Vec<usize> {
        let mut want = vec![false; self.positions.len()];
        for (i, &judged) in self.judged.iter().enumerate() {
            if judged {
                want[i] = true;
                want[i + 1] = true;
            }
        }
        want.iter()
            .enumerate()
            .filter(|&(i, &w)| {
                let p = &self.positions[i];
                w && !p.ended && (self.overwrite || p.given.is_none())
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// White's score of position `i`: the engine's, the game's, or the rules' for a position
    /// with no legal move (a checkmate is the mated side's loss, a stalemate 0).
    fn score(&self, i: usize, analyses: &[Option<&Analysis>]) -> Option<Score> {
        let p = &self.positions[i];
        let turn = p.position.turn();
        if p.ended {
            return Some(if p.position.is_checkmate() {
                Score::Mate(if turn == Color::White { -1 } else { 1 })
            } else {
                Score::Cp(0)
            });
        }
        let engine = analyses
            .get(i)
            .copied()
            .flatten()
            .and_then(|a| a.score())
            .map(|s| s.white(turn));
        if self.overwrite {
            engine.or(p.given)
        } else {
            p.given.or(engine)
        }
    }

    /// Writes the analyses into `game` (the game the plan was made of; `analyses[i]` is
    /// position `i`'s, `None` where there is none): `[%eval]` after each move whose position
    /// the engine scored (in the move's first comment with commands, as lichess writes it
    /// beside `[%clk]`), each judged move's advice (its NAG, lichess's comment naming the best
    /// move, with `variations` the engine's line), and the figures' tags for the sides with a
    /// judged move (`WhiteAccuracy`, `WhiteACPL`, `WhiteInaccuracies`, `WhiteMistakes`,
    /// `WhiteBlunders` and Black's).
    pub fn annotate(
        &self,
        game: &mut Game,
        analyses: &[Option<&Analysis>],
        options: &AnnotateOptions,
    ) -> GameFigures {
        let n = self.judged.len();
        let scores: Vec<Option<Score>> = (0..=n).map(|i| self.score(i, analyses)).collect();
        let mut figures = GameFigures {
            evals: scores[1..].to_vec(),
            ..GameFigures::default()
        };
        let mut losses: [Vec<Score>; 2] = Default::default();
        for (i, mv) in game.mainline.moves.iter_mut().enumerate().take(n) {
            let after = &self.positions[i + 1];
            let engine_scored = !after.ended && analyses.get(i + 1).copied().flatten().is_some();
            if engine_scored
                && (self.overwrite || after.given.is_none())
                && let Some(score) = scores[i + 1]
            {
                set_eval(mv, score);
            }
            if !self.judged[i] {
                continue;
            }
            let before = &self.positions[i];
            let mover = before.position.turn();
            let side = usize::from(mover == Color::Black);
            let prior = if i == 0 && self.from_start {
                scores[0].or(Some(Score::Cp(lichess::CP_INITIAL)))
            } else {
                scores[i]
            };
            let (Some(prior), Some(next)) = (prior, scores[i + 1]) else {
                continue;
            };
            losses[side].push(prior);
            losses[side].push(next);
            let Some(advice) = lichess::advice(notation_color(mover), prior, next) else {
                continue;
            };
            let analysis = analyses.get(i).copied().flatten();
            let best = analysis
                .and_then(|a| a.best.as_deref())
                .and_then(|uci| san(&before.position, uci));
            // A move the engine finds best is no mistake to name (it can be judged one when
            // the engine's two searches disagree).
            if best
                .as_ref()
                .is_some_and(|b| b.to_string() == mv.san.to_string())
            {
                continue;
            }
            let counts = match mover {
                Color::White => figures.judgements.white.get_or_insert([0; 3]),
                Color::Black => figures.judgements.black.get_or_insert([0; 3]),
            };
            counts[advice.judgement as usize] += 1;
            let keep = !self.overwrite && mv.nags.iter().any(|nag| (1..=6).contains(&nag.0));
            if !keep {
                mv.nags.retain(|nag| !(1..=6).contains(&nag.0));
                mv.nags.push(Nag(advice.judgement.nag()));
            }
            mv.comments
                .push(advice.comment(best.as_ref().map(ToString::to_string).as_deref()));
            if options.variations
                && let Some(line) = analysis.and_then(|a| a.lines.first())
            {
                let moves = pv_moves(&before.position, &line.pv);
                if !moves.is_empty() {
                    mv.variations.push(Line {
                        comments: Vec::new(),
                        moves,
                    });
                }
            }
        }
        for (side, color) in [(0, Color::White), (1, Color::Black)] {
            if !self
                .judged
                .iter()
                .enumerate()
                .any(|(i, &j)| j && self.positions[i].position.turn() == color)
            {
                continue;
            }
            let pairs = &losses[side];
            let loss: Vec<u32> = pairs
                .chunks(2)
                .map(|p| {
                    let (b, a) = (lichess::ceiled_cp(p[0]), lichess::ceiled_cp(p[1]));
                    let fall = if color == Color::White { b - a } else { a - b };
                    fall.max(0) as u32
                })
                .collect();
            if !loss.is_empty() {
                let mean = (loss.iter().map(|&l| f64::from(l)).sum::<f64>() / loss.len() as f64)
                    .round() as u32;
                match color {
                    Color::White => figures.acpl.white = Some(mean),
                    Color::Black => figures.acpl.black = Some(mean),
                }
            }
        }
        if let Some(evals) = scores[1..].iter().copied().collect::<Option<Vec<Score>>>()
            && !evals.is_empty()
        {
            let start = self.positions[0].position.turn();
            let accuracy = lichess::game_accuracy(notation_color(start), &evals);
            figures.accuracy = ByColor {
                white: accuracy.white.filter(|_| figures.acpl.white.is_some()),
                black: accuracy.black.filter(|_| figures.acpl.black.is_some()),
            };
        }
        write_tags(game, &figures, options);
        figures
    }
}

/// shakmaty's colour as tabia-notation's, the side [`lichess`]'s formulas take.
fn notation_color(color: Color) -> tabia_notation::Color {
    tabia_notation::Color::from_white(color.is_white())
}

fn plan_position(position: Position, given: Option<Score>) -> PlanPosition {
    PlanPosition {
        epd: position.epd(EpRule::Legal),
        fen: position.fen(EpRule::Legal),
        ended: position.legal_moves().is_empty(),
        given,
        position,
    }
}

/// `uci` played in `position`, in SAN, if it is legal there.
fn san(position: &Position, uci: &str) -> Option<SanPlus> {
    let chess = position.as_chess()?;
    let m = UciMove::from_ascii(uci.as_bytes())
        .ok()?
        .to_move(chess)
        .ok()?;
    Some(position.san(m))
}

/// A principal variation as moves of a game, up to its first illegal move.
fn pv_moves(position: &Position, pv: &[String]) -> Vec<Move> {
    let mut pos = position.clone();
    let mut moves = Vec::new();
    for uci in pv {
        let Some(chess) = pos.as_chess() else { break };
        let Some(m) = UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|u| u.to_move(chess).ok())
        else {
            break;
        };
        let Ok(san) = pos.san(m).to_string().parse() else {
            break;
        };
        moves.push(Move::new(san));
        pos.play_unchecked(m);
    }
    moves
}

/// Puts `[%eval]` into the move's first comment with commands (replacing an `[%eval]` there),
/// or into a comment of its own before the others.
fn set_eval(mv: &mut Move, score: Score) {
    let eval = format!("[%eval {}]", lichess::eval_text(score));
    for comment in &mut mv.comments {
        if comment.contains("[%") {
            let rest = Comment::parse(comment).without(&[CommandKind::Eval]);
            *comment = format!("{eval} {}", rest.trim_start());
            *comment = comment.trim_end().to_owned();
            return;
        }
    }
    mv.comments.insert(0, eval);
}

/// The figures as tags (values with one decimal for accuracies).
fn write_tags(game: &mut Game, figures: &GameFigures, options: &AnnotateOptions) {
    for (color, name) in [
        (tabia_notation::Color::White, "White"),
        (tabia_notation::Color::Black, "Black"),
    ] {
        let Some(acpl) = figures.acpl.get(color) else {
            continue;
        };
        let accuracy = figures.accuracy.get(color).map(|a| format!("{a:.1}"));
        game.set_tag(&format!("{name}Accuracy"), accuracy.as_deref());
        game.set_tag(&format!("{name}ACPL"), Some(&acpl.to_string()));
        let counts = figures.judgements.get(color).copied().unwrap_or_default();
        for (what, count) in ["Inaccuracies", "Mistakes", "Blunders"].iter().zip(counts) {
            game.set_tag(&format!("{name}{what}"), Some(&count.to_string()));
        }
    }
    if let Some(annotator) = &options.annotator {
        game.set_tag("Annotator", Some(annotator));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineScore, Line as PvLine};

    fn analysis(score: EngineScore, pv: &[&str]) -> Analysis {
        Analysis {
            depth: 10,
            seldepth: None,
            nodes: 1000,
            lines: vec![PvLine {
                score,
                pv: pv.iter().map(|m| (*m).to_owned()).collect(),
            }],
            best: pv.first().map(|m| (*m).to_owned()),
        }
    }

    /// The scholar's mate, with the engine's word on each position before the mate.
    fn scholar() -> (Game, Vec<Option<Analysis>>) {
        let game: Game =
            "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
                .parse()
                .expect("game");
        let cp = EngineScore::Cp;
        let analyses = vec![
            Some(analysis(cp(25), &["e2e4", "e7e5"])),
            Some(analysis(cp(-30), &["e7e5"])),
            Some(analysis(cp(30), &["g1f3"])),
            Some(analysis(cp(-20), &["b8c6"])),
            Some(analysis(cp(10), &["f1c4"])),
            Some(analysis(cp(-40), &["g7g6", "h5f3", "g8f6"])),
            Some(analysis(EngineScore::Mate(1), &["h5f7"])),
            None,
        ];
        (game, analyses)
    }

    #[test]
    fn a_plan_wants_every_position_with_moves() {
        let (game, _) = scholar();
        let plan = Plan::new(&game, &Selection::default()).expect("plan");
        assert_eq!(plan.positions().len(), 8);
        assert_eq!(plan.wanted(), (0..7).collect::<Vec<_>>());
        assert!(plan.positions()[7].ended);
        assert_eq!(
            plan.positions()[0].epd,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
        let black = Selection {
            side: Some(Color::Black),
            ..Selection::default()
        };
        let plan = Plan::new(&game, &black).expect("plan");
        assert_eq!(plan.judged(), 3);
        assert_eq!(plan.wanted(), (1..7).collect::<Vec<_>>());
        let bob = Selection {
            player: Some("bob".to_owned()),
            plies: Some(5..=7),
            ..Selection::default()
        };
        assert_eq!(Plan::new(&game, &bob).expect("plan").wanted(), [5, 6]);
        let nobody = Selection {
            player: Some("Carl".to_owned()),
            ..Selection::default()
        };
        let plan = Plan::new(&game, &nobody).expect("plan");
        assert_eq!((plan.judged(), plan.wanted().len()), (0, 0));
    }

    #[test]
    fn annotate_writes_evals_advice_and_figures() {
        let (mut game, analyses) = scholar();
        let plan = Plan::new(&game, &Selection::default()).expect("plan");
        let refs: Vec<Option<&Analysis>> = analyses.iter().map(Option::as_ref).collect();
        let options = AnnotateOptions {
            variations: true,
            annotator: Some("Stockfish".to_owned()),
        };
        let figures = plan.annotate(&mut game, &refs, &options);
        assert_eq!(
            game.to_string(),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]\n\
             [Black \"Bob\"]\n[Result \"1-0\"]\n[WhiteAccuracy \"99.4\"]\n[WhiteACPL \"3\"]\n\
             [WhiteInaccuracies \"0\"]\n[WhiteMistakes \"0\"]\n[WhiteBlunders \"0\"]\n\
             [BlackAccuracy \"25.5\"]\n[BlackACPL \"320\"]\n[BlackInaccuracies \"0\"]\n\
             [BlackMistakes \"0\"]\n[BlackBlunders \"1\"]\n[Annotator \"Stockfish\"]\n\n\
             1. e4 {[%eval 0.3]} 1... e5 {[%eval 0.3]} 2. Qh5 {[%eval 0.2]} 2... Nc6\n\
             {[%eval 0.1]} 3. Bc4 {[%eval 0.4]} 3... Nf6 $4 {[%eval #1]}\n\
             {Checkmate is now unavoidable. g6 was best.} (3... g6 4. Qf3 Nf6) 4. Qxf7# 1-0"
        );
        assert_eq!(figures.judgements.black, Some([0, 0, 1]));
        assert_eq!(figures.evals.len(), 7);
        assert_eq!(figures.evals[6], Some(Score::Mate(1)));
    }

    #[test]
    fn given_evals_are_kept_and_used_unless_overwritten() {
        let text = "1. e4 { [%eval 0.5] [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } *";
        let game: Game = text.parse().expect("game");
        let plan = Plan::new(&game, &Selection::default()).expect("plan");
        assert_eq!(plan.wanted(), [0, 2]);
        let analyses = [
            Some(analysis(EngineScore::Cp(25), &["e2e4"])),
            None,
            Some(analysis(EngineScore::Cp(35), &["g1f3"])),
        ];
        let refs: Vec<Option<&Analysis>> = analyses.iter().map(Option::as_ref).collect();
        let mut kept = game.clone();
        plan.annotate(&mut kept, &refs, &AnnotateOptions::default());
        assert!(
            kept.to_string().contains(
                "1. e4 { [%eval 0.5] [%clk 0:05:00] } 1... e5 {[%eval 0.35] [%clk 0:05:00]} *"
            ),
            "{kept}"
        );
        let overwrite = Selection {
            overwrite: true,
            ..Selection::default()
        };
        let plan = Plan::new(&game, &overwrite).expect("plan");
        assert_eq!(plan.wanted(), [0, 1, 2]);
        let analyses = [
            Some(analysis(EngineScore::Cp(25), &["e2e4"])),
            Some(analysis(EngineScore::Cp(-20), &["e7e5"])),
            Some(analysis(EngineScore::Cp(35), &["g1f3"])),
        ];
        let refs: Vec<Option<&Analysis>> = analyses.iter().map(Option::as_ref).collect();
        let mut replaced = game.clone();
        plan.annotate(&mut replaced, &refs, &AnnotateOptions::default());
        assert!(
            replaced
                .to_string()
                .contains("1. e4 {[%eval 0.2] [%clk 0:05:00]}"),
            "{replaced}"
        );
    }

    #[test]
    fn variants_and_bad_games_are_refused_with_messages() {
        let zh: Game = "[Variant \"Crazyhouse\"]\n\n1. e4 *".parse().expect("game");
        assert_eq!(
            Plan::new(&zh, &Selection::default())
                .expect_err("variant")
                .to_string(),
            "not analysed: Crazyhouse is not standard chess or Chess960"
        );
        let bad: Game = "1. e4 e5 2. Ke3 *".parse().expect("game");
        assert_eq!(
            Plan::new(&bad, &Selection::default())
                .expect_err("illegal")
                .to_string(),
            "illegal move 2. Ke3 (ply 3): no white king can go to e3"
        );
    }
}
