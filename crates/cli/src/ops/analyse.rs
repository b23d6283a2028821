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
use tabia_analyse::{Analyser, AnnotateOptions, Evaluation, GameRequest, PlanError, Selection};
use tabia_collect::Form;
use tabia_notation::pgn::{Game, RawGame};

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
    request: Option<GameRequest>,
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
        let request = match self.analyser.request_game(&game, self.selection) {
            Ok(request) => Some(request),
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
        pending.push(Pending {
            number,
            game,
            request,
        });
    }

    fn finish(&self, (mut sink, pending): Self::Batch) -> (Sink, bool) {
        for Pending {
            number,
            mut game,
            request,
        } in pending
        {
            let Some(request) = request else {
                self.write(&mut sink, number, game);
                continue;
            };
            let analysis = request.wait();
            if analysis.stopped() || self.interrupted.load(Ordering::Relaxed) {
                return (sink, true);
            }
            for unanalysed in analysis.unanalysed(&game) {
                let mut diagnostic =
                    Diagnostic::new(self.name, unanalysed.to_string()).game(number);
                if let Some(mv) = unanalysed.after
                    && mv.at.line > 0
                {
                    diagnostic = diagnostic.at(mv.at.line, mv.at.column);
                }
                sink.warning(&diagnostic);
            }
            if self.json {
                for evaluation in analysis.evaluations() {
                    let record = PositionRecord {
                        input: self.name,
                        game: number,
                        evaluation: &evaluation,
                    };
                    if serde_json::to_writer(&mut sink.out, &record).is_ok() {
                        sink.out.push(b'\n');
                    }
                }
                input::give_back(game);
            } else {
                analysis.annotate(&mut game, self.annotate);
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
}

/// One line of `--json`: the input, the game's number and what the engine said of one of its
/// positions ([`Evaluation`]: scores White's, as `[%eval]`; `cp` or `mate`).
#[derive(Serialize)]
struct PositionRecord<'a> {
    input: &'a str,
    game: u64,
    #[serde(flatten)]
    evaluation: &'a Evaluation,
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
