//! `tabia analyse`'s command-line work: each batch's games parsed and checked on a worker,
//! every position they want asked of the [`Analyser`] at once, then each game annotated and
//! written (or its positions as NDJSON) in the batch's [`Sink`]; Ctrl-C stops the engines and
//! ends the output after the last whole batch.

use std::{
    io::Write as _,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use serde::Serialize;
use tabia_analyse::{
    Analyser, Analysis, AnnotateOptions, EngineScore, Plan, PlanError, PlanTickets, Selection,
    UciErrorKind,
};
use tabia_collect::Form;
use tabia_notation::pgn::{Game, RawGame, Score};
use tabia_position::shakmaty::Color;

use crate::{
    input,
    parallel::{Sink, Work},
    report::Diagnostic,
};

/// How the games of one input are analysed and written: the command's options.
pub(crate) struct Analyse<'a> {
    /// The input's name.
    pub(crate) name: &'a str,
    pub(crate) analyser: &'a Analyser,
    pub(crate) selection: &'a Selection,
    pub(crate) annotate: &'a AnnotateOptions,
    pub(crate) form: &'a Form,
    /// `--json`: the positions as NDJSON, not the games.
    pub(crate) json: bool,
    /// Set once Ctrl-C stopped the engines.
    pub(crate) interrupted: &'a AtomicBool,
}

/// A game read and waiting for its positions' analyses.
pub(crate) struct Pending {
    number: u64,
    game: Game,
    /// `None` for a game that is written as it is (a variant no engine plays).
    plan: Option<(Plan, PlanTickets)>,
}

impl Work<&RawGame> for Analyse<'_> {
    type Batch = (Sink, Vec<Pending>);
    /// Whether the batch was cut short by Ctrl-C (then it is not written).
    type Done = (Sink, bool);

    fn item(&self, (sink, pending): &mut Self::Batch, number: u64, raw: &RawGame) {
        let mut game = match input::parse_game(raw) {
            Ok(game) => game,
            Err(err) => {
                sink.reject(
                    &Diagnostic::from_game_error(self.name, number, &err),
                    self.json,
                );
                return;
            }
        };
        match tabia_position::repair_game(&mut game) {
            Ok(checked) => {
                sink.replay_warnings(self.name, number, &checked.warnings);
            }
            Err(err) => {
                sink.reject(&Diagnostic::located(self.name, number, &err), self.json);
                return;
            }
        }
        let plan = match Plan::new(&game, self.selection) {
            Ok(plan) => {
                let tickets = self.analyser.request_plan(&plan);
                Some((plan, tickets))
            }
            Err(err @ PlanError::Variant(_)) => {
                sink.warning(&Diagnostic::new(self.name, err.to_string()).game(number));
                None
            }
            Err(err) => {
                sink.reject(
                    &Diagnostic::new(self.name, err.to_string()).game(number),
                    self.json,
                );
                return;
            }
        };
        pending.push(Pending { number, game, plan });
    }

    fn finish(&self, (mut sink, pending): Self::Batch) -> (Sink, bool) {
        for Pending {
            number,
            mut game,
            plan,
        } in pending
        {
            let Some((plan, tickets)) = plan else {
                self.write(&mut sink, number, game);
                continue;
            };
            let answers = tickets.wait();
            let failures = &answers.failures;
            if failures
                .iter()
                .any(|(_, f)| matches!(f.error.kind(), UciErrorKind::Stopped))
                || self.interrupted.load(Ordering::Relaxed)
            {
                return (sink, true);
            }
            for (i, failure) in failures {
                let place = match i.checked_sub(1).and_then(|m| game.mainline.moves.get(m)) {
                    Some(mv) => format!("the position after {}", mv.san),
                    None => "the start position".to_owned(),
                };
                let mut diagnostic =
                    Diagnostic::new(self.name, format!("{place} is not analysed: {failure}"))
                        .game(number);
                if let Some(mv) = i.checked_sub(1).and_then(|m| game.mainline.moves.get(m))
                    && mv.at.line > 0
                {
                    diagnostic = diagnostic.at(mv.at.line, mv.at.column);
                }
                sink.warning(&diagnostic);
            }
            let refs = answers.refs();
            if self.json {
                self.records(&mut sink, number, &plan, &refs, failures);
                input::give_back(game);
            } else {
                plan.annotate(&mut game, &refs, self.annotate);
                self.write(&mut sink, number, game);
            }
        }
        (sink, false)
    }
}

impl Analyse<'_> {
    /// Writes a game in the output form.
    fn write(&self, sink: &mut Sink, number: u64, game: Game) {
        if self.json {
            input::give_back(game);
        } else if self.form.is_export() {
            let _ = write!(sink.out, "{game}\n\n");
            input::give_back(game);
        } else if let Err(err) = self.form.write(game, &mut sink.out) {
            sink.reject(&Diagnostic::located(self.name, number, &err), false);
        }
    }

    /// One NDJSON record per position of the game the engine was asked about.
    fn records(
        &self,
        sink: &mut Sink,
        number: u64,
        plan: &Plan,
        analyses: &[Option<&Analysis>],
        failures: &[(usize, Arc<tabia_analyse::Failure>)],
    ) {
        for (ply, position) in plan.positions().iter().enumerate() {
            let turn = position.position.turn();
            let record = match analyses.get(ply).copied().flatten() {
                Some(analysis) => {
                    PositionRecord::of(self.name, number, ply, &position.fen, turn, analysis)
                }
                None => match failures.iter().find(|(i, _)| *i == ply) {
                    Some((_, failure)) => PositionRecord {
                        error: Some(failure.to_string()),
                        ..PositionRecord::empty(self.name, number, ply, &position.fen)
                    },
                    None => continue,
                },
            };
            if serde_json::to_writer(&mut sink.out, &record).is_ok() {
                sink.out.push(b'\n');
            }
        }
    }
}

/// One line of `--json`: a position of a game and what the engine said of it (scores White's,
/// as `[%eval]`; `cp` or `mate`).
#[derive(Serialize)]
struct PositionRecord<'a> {
    input: &'a str,
    game: u64,
    /// 0 for the start position, then the ply after which the position arose.
    ply: usize,
    fen: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seldepth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv: Option<&'a [String]>,
    /// With `--multipv` above 1: every line, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lines: Vec<LineRecord<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct LineRecord<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<i32>,
    pv: &'a [String],
}

/// White's score as `cp` and `mate`.
fn white(score: EngineScore, turn: Color) -> (Option<i32>, Option<i32>) {
    match score.white(turn) {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    }
}

impl<'a> PositionRecord<'a> {
    fn empty(input: &'a str, game: u64, ply: usize, fen: &'a str) -> PositionRecord<'a> {
        PositionRecord {
            input,
            game,
            ply,
            fen,
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

    fn of(
        input: &'a str,
        game: u64,
        ply: usize,
        fen: &'a str,
        turn: Color,
        analysis: &'a Analysis,
    ) -> PositionRecord<'a> {
        let (cp, mate) = analysis.score().map_or((None, None), |s| white(s, turn));
        let lines = if analysis.lines.len() > 1 {
            analysis
                .lines
                .iter()
                .map(|line| {
                    let (cp, mate) = white(line.score, turn);
                    LineRecord {
                        cp,
                        mate,
                        pv: &line.pv,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        PositionRecord {
            depth: Some(analysis.depth),
            seldepth: analysis.seldepth,
            nodes: Some(analysis.nodes),
            cp,
            mate,
            best: analysis.best.as_deref(),
            pv: analysis.lines.first().map(|l| l.pv.as_slice()),
            lines,
            ..PositionRecord::empty(input, game, ply, fen)
        }
    }
}

/// Ctrl-C: the first stops the engines (the run then ends after the last whole batch, the
/// cache committed), a second ends the process at once (exit status 130). Gives the flag the
/// first sets; a watcher thread calls `stop` when it is set.
pub(crate) fn on_interrupt(stop: impl Fn() + Send + 'static) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    {
        use signal_hook::{consts::SIGINT, flag as signal_flag};
        // The order matters: the shutdown is armed by the flag the second handler sets.
        let _ = signal_flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag));
        let _ = signal_flag::register(SIGINT, Arc::clone(&flag));
        let watched = Arc::clone(&flag);
        let _ = std::thread::Builder::new()
            .name("tabia-interrupt".to_owned())
            .spawn(move || {
                while !watched.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                stop();
            });
    }
    #[cfg(not(unix))]
    let _ = stop;
    flag
}
