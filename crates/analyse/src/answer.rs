//! A game's analysis from asking to writing: [`GameRequest`] (its positions asked of an
//! [`Analyser`](crate::Analyser)), [`GameAnalysis`] (their answers, written into the game or
//! read as [`Evaluation`]s), [`Unanalysed`] (a position the engines gave nothing for, as a
//! message).

use std::{fmt, sync::Arc};

use serde::Serialize;
use tabia_notation::pgn::{Game, Move, Score};
use tabia_position::shakmaty::Color;

use crate::{
    Analysis, AnnotateOptions, EngineScore, Failure, GameFigures, Plan, PlanAnswers, PlanTickets,
    UciErrorKind,
};

/// A game's positions asked of an [`Analyser`](crate::Analyser)
/// ([`Analyser::request_game`](crate::Analyser::request_game)): the engines work on them while
/// the caller asks for more games; [`GameRequest::wait`] gives their answers.
#[derive(Debug)]
pub struct GameRequest {
    plan: Plan,
    tickets: PlanTickets,
}

impl GameRequest {
    pub(crate) fn new(plan: Plan, tickets: PlanTickets) -> GameRequest {
        GameRequest { plan, tickets }
    }

    /// The game's plan: its positions and the moves judged.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Waits for the analyses of every position asked.
    pub fn wait(self) -> GameAnalysis {
        GameAnalysis {
            answers: self.tickets.wait(),
            plan: self.plan,
        }
    }
}

/// The analyses of one game's positions, ready to be written into the game
/// ([`GameAnalysis::annotate`]) or read one position at a time ([`GameAnalysis::evaluations`]).
#[derive(Debug, Clone)]
pub struct GameAnalysis {
    plan: Plan,
    answers: PlanAnswers,
}

impl GameAnalysis {
    /// The analysis of a game made of its plan and its positions' answers (`answers.analyses`
    /// indexed as the plan's positions).
    pub fn new(plan: Plan, answers: PlanAnswers) -> GameAnalysis {
        GameAnalysis { plan, answers }
    }

    /// The game's plan: its positions and the moves judged.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Each position's analysis, and the positions that failed.
    pub fn answers(&self) -> &PlanAnswers {
        &self.answers
    }

    /// Whether the analysis was cut short by [`Analyser::stop`](crate::Analyser::stop) (a
    /// Ctrl-C): some position was not analysed because the engines were stopped. Such an
    /// analysis is best not written: the next run, with the cache, does it whole.
    pub fn stopped(&self) -> bool {
        self.answers
            .failures
            .iter()
            .any(|(_, failure)| matches!(failure.error.kind(), UciErrorKind::Stopped))
    }

    /// The positions of `game` (the game the plan was made of) the engines gave no analysis
    /// of, in order, each with the move that reached it and why.
    pub fn unanalysed<'a>(&'a self, game: &'a Game) -> impl Iterator<Item = Unanalysed<'a>> {
        self.answers
            .failures
            .iter()
            .map(move |(index, failure)| Unanalysed {
                index: *index,
                after: index
                    .checked_sub(1)
                    .and_then(|m| game.mainline.moves.get(m)),
                failure,
            })
    }

    /// Writes the analyses into `game` (the game the plan was made of), as
    /// [`Plan::annotate`] does.
    pub fn annotate(&self, game: &mut Game, options: &AnnotateOptions) -> GameFigures {
        self.plan.annotate(game, &self.answers.refs(), options)
    }

    /// What the engines said of each position asked, in the game's order: one
    /// [`Evaluation`] for each position analysed, and one with its `error` for each that
    /// failed (what `tabia analyse --json` writes, a line each).
    pub fn evaluations(&self) -> Vec<Evaluation> {
        let mut evaluations = Vec::new();
        for (ply, position) in self.plan.positions().iter().enumerate() {
            let turn = position.position.turn();
            match self.answers.analyses.get(ply).and_then(Option::as_deref) {
                Some(analysis) => {
                    evaluations.push(Evaluation::of(ply, &position.fen, turn, analysis));
                }
                None => {
                    if let Some((_, failure)) =
                        self.answers.failures.iter().find(|(i, _)| *i == ply)
                    {
                        evaluations.push(Evaluation {
                            error: Some(failure.to_string()),
                            ..Evaluation::empty(ply, &position.fen)
                        });
                    }
                }
            }
        }
        evaluations
    }
}

/// A position of a game that has no analysis ([`GameAnalysis::unanalysed`]). Its `Display`
/// is the message: `the position after Nf3 is not analysed: engine `stockfish`: exited …`.
#[derive(Debug, Clone, Copy)]
pub struct Unanalysed<'a> {
    /// The position's index in the plan (0: the start).
    pub index: usize,
    /// The move that reached it (`None` for the start position).
    pub after: Option<&'a Move>,
    /// Why it has no analysis.
    pub failure: &'a Arc<Failure>,
}

impl fmt::Display for Unanalysed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.after {
            Some(mv) => write!(f, "the position after {}", mv.san)?,
            None => f.write_str("the start position")?,
        }
        write!(f, " is not analysed: {}", self.failure)
    }
}

/// What an engine said of one position of a game, scores from White's point of view (as
/// `[%eval]` gives them): one line of `tabia analyse --json` (which adds the input and the
/// game's number before these fields), one row of the Python package's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// 0 for the start position, then the ply after which the position arose.
    pub ply: usize,
    /// The position, as the engine was given it.
    pub fen: String,
    /// The depth reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The selective depth, when the engine gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// The nodes searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// White's score in centipawns (`None` for a mate score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in so many moves, positive when White mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The best move, in UCI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The best line, in UCI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    /// With `MultiPV` above 1: every line, best first (empty with one line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<EvaluationLine>,
    /// Why the position has no analysis (the other fields are then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One of an [`Evaluation`]'s lines, White's score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvaluationLine {
    /// White's score in centipawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in so many moves, positive when White mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The moves, in UCI.
    pub pv: Vec<String>,
}

/// White's score as `cp` and `mate`.
fn white(score: EngineScore, turn: Color) -> (Option<i32>, Option<i32>) {
    match score.white(turn) {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    }
}

impl Evaluation {
    fn empty(ply: usize, fen: &str) -> Evaluation {
        Evaluation {
            ply,
            fen: fen.to_owned(),
            depth: None,
            seldepth: None,
            nodes: None,
            cp: None,
            mate: None,
            best: None,
            pv: None,
            lines: Vec::new(),
            error: None,
        }
    }

    /// The evaluation of `analysis`, made of the position `fen` (`turn` to move) reached
    /// after `ply` plies.
    pub fn of(ply: usize, fen: &str, turn: Color, analysis: &Analysis) -> Evaluation {
        let (cp, mate) = analysis.score().map_or((None, None), |s| white(s, turn));
        let lines = if analysis.lines.len() > 1 {
            analysis
                .lines
                .iter()
                .map(|line| {
                    let (cp, mate) = white(line.score, turn);
                    EvaluationLine {
                        cp,
                        mate,
                        pv: line.pv.clone(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Evaluation {
            depth: Some(analysis.depth),
            seldepth: analysis.seldepth,
            nodes: Some(analysis.nodes),
            cp,
            mate,
            best: analysis.best.clone(),
            pv: analysis.lines.first().map(|l| l.pv.clone()),
            lines,
            ..Evaluation::empty(ply, fen)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Line, Selection, UciError};

    fn analysis(score: EngineScore, pv: &[&str]) -> Arc<Analysis> {
        Arc::new(Analysis {
            depth: 8,
            seldepth: Some(9),
            nodes: 1200,
            lines: vec![Line {
                score,
                pv: pv.iter().map(|m| (*m).to_owned()).collect(),
            }],
            best: pv.first().map(|m| (*m).to_owned()),
        })
    }

    fn failure(kind: UciErrorKind, fen: &str) -> Arc<Failure> {
        Arc::new(Failure {
            fen: fen.to_owned(),
            attempts: 2,
            error: UciError::new(kind, "sf").analysing(fen),
        })
    }

    /// `1. e4 e5 2. Qh5`: the start and 1. e4 analysed, 1... e5 failed, 2. Qh5 stopped.
    fn analysed() -> (Game, GameAnalysis) {
        let game: Game = "1. e4 e5 2. Qh5 *".parse().expect("game");
        let plan = Plan::new(&game, &Selection::default()).expect("plan");
        let fens: Vec<String> = plan.positions().iter().map(|p| p.fen.clone()).collect();
        let answers = PlanAnswers {
            analyses: vec![
                Some(analysis(EngineScore::Cp(20), &["e2e4", "e7e5"])),
                Some(analysis(EngineScore::Cp(-30), &["e7e5"])),
                None,
                None,
            ],
            failures: vec![
                (2, failure(UciErrorKind::Crashed(None), &fens[2])),
                (3, failure(UciErrorKind::Stopped, &fens[3])),
            ],
        };
        (game, GameAnalysis::new(plan, answers))
    }

    #[test]
    fn evaluations_are_whites_and_name_failures() {
        let (_, analysis) = analysed();
        let lines: Vec<String> = analysis
            .evaluations()
            .iter()
            .map(|e| serde_json::to_string(e).expect("json"))
            .collect();
        assert_eq!(
            lines,
            [
                r#"{"ply":0,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","depth":8,"seldepth":9,"nodes":1200,"cp":20,"best":"e2e4","pv":["e2e4","e7e5"]}"#,
                r#"{"ply":1,"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","depth":8,"seldepth":9,"nodes":1200,"cp":30,"best":"e7e5","pv":["e7e5"]}"#,
                r#"{"ply":2,"fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2","error":"engine `sf`: closed its output while analysing rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 (tried 2 times)"}"#,
                r#"{"ply":3,"fen":"rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2","error":"engine `sf`: stopped before its analysis of rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 ended (tried 2 times)"}"#,
            ]
        );
    }

    #[test]
    fn unanalysed_positions_are_named_by_the_move_before() {
        let (game, analysis) = analysed();
        assert!(analysis.stopped());
        let messages: Vec<(usize, String)> = analysis
            .unanalysed(&game)
            .map(|u| (u.index, u.to_string()))
            .collect();
        assert_eq!(messages[0].0, 2);
        assert!(
            messages[0]
                .1
                .starts_with("the position after e5 is not analysed: engine `sf`: closed"),
            "{messages:?}"
        );
        assert!(
            messages[1]
                .1
                .starts_with("the position after Qh5 is not analysed: engine `sf`: stopped"),
            "{messages:?}"
        );
        let whole = GameAnalysis::new(analysis.plan().clone(), PlanAnswers::default());
        assert!(!whole.stopped());
        assert_eq!(whole.unanalysed(&game).count(), 0);
    }

    #[test]
    fn multipv_lines_are_listed_only_when_there_are_several() {
        let mut two = Analysis::clone(&analysis(EngineScore::Cp(15), &["d2d4"]));
        two.lines.push(Line {
            score: EngineScore::Mate(-3),
            pv: vec!["a2a3".to_owned()],
        });
        let evaluation = Evaluation::of(1, "fen", Color::Black, &two);
        assert_eq!((evaluation.cp, evaluation.mate), (Some(-15), None));
        assert_eq!(
            evaluation.lines,
            [
                EvaluationLine {
                    cp: Some(-15),
                    mate: None,
                    pv: vec!["d2d4".to_owned()]
                },
                EvaluationLine {
                    cp: None,
                    mate: Some(3),
                    pv: vec!["a2a3".to_owned()]
                },
            ]
        );
    }
}
