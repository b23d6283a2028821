//! `tabia analyse`: a UCI engine on every position of every game, each position once (a
//! cache keeps what was analysed for the next run), and the games written back with lichess's
//! `[%eval]`s, advice and accuracy (or the positions as NDJSON).
//!
//! The engines are a [`Pool`] of `-j` processes behind an [`Analyser`] (cache, one analysis
//! per position per run); the games go through the pipeline as every command's do, a batch's
//! positions asked at once on its worker and its games annotated there (`ops::analyse`).

use std::{
    path::{Path, PathBuf},
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use anyhow::Context as _;
use tabia_analyse::{
    Analyser, AnnotateOptions, Cache, EngineCommand, Limit, Pool, PoolSpec, Selection, parse_plies,
};
use tabia_position::shakmaty::Color;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    form::FormArgs,
    input::Source,
    ops::analyse::{Analyse, on_interrupt},
    output::OutputArg,
    session::Session,
};

/// The cache's file name, in the output's folder (the current folder for standard output).
pub(crate) const CACHE_FILE: &str = "tabia-analysis.redb";

/// Which side's moves are judged.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Side {
    White,
    Black,
}

/// Arguments of `tabia analyse` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// The UCI engine: a path, or a command with its arguments (`"sf --threads 1"`); a name
    /// alone is looked for on PATH (and in /usr/games).
    #[arg(long, value_name = "CMD", default_value = "stockfish")]
    engine: String,
    /// Search each position to this depth [default: 18 unless --nodes or --movetime].
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search each position this many milliseconds (not deterministic: its results differ
    /// from run to run and machine to machine).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Lines per position (UCI's MultiPV): --json writes them all.
    #[arg(long, value_name = "K", default_value_t = 1)]
    multipv: u32,
    /// An engine option, set with `setoption` [default: Threads=1 and Hash=16, so that a
    /// position's result does not depend on what was analysed before it].
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Judge only the moves of these plies: `A-B`, `A-` or `-B` (1 is White's first move).
    #[arg(long, value_name = "A-B")]
    plies: Option<String>,
    /// Judge only this side's moves.
    #[arg(long, value_enum)]
    side: Option<Side>,
    /// Judge only this player's moves (the White or Black tag, any case); other games are
    /// written without analysis.
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// Analyse the positions whose move has an `[%eval]` already, and replace it (otherwise it
    /// is kept and used).
    #[arg(long)]
    overwrite: bool,
    /// Add the engine's line as a variation to each inaccuracy, mistake and blunder.
    #[arg(long)]
    variations: bool,
    /// One JSON object per position analysed (NDJSON: game, ply, FEN, depth, White's `cp` or
    /// `mate`, best move, PV, nodes), not the games.
    #[arg(long)]
    json: bool,
    /// The cache of analyses [default: tabia-analysis.redb beside the output]; a position it
    /// has under the same engine and settings is not analysed again.
    #[arg(long, value_name = "FILE", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// No cache: every position is analysed (once per run).
    #[arg(long)]
    no_cache: bool,
    /// Seconds an engine has for one position before it counts as hung (it is then
    /// restarted and the position tried again).
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    timeout: u64,
    /// How many times a position is tried again after its engine crashed, hung or answered
    /// garbage.
    #[arg(long, value_name = "N", default_value_t = 2)]
    retries: u32,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) out: OutputArg,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

impl Args {
    fn selection(&self) -> anyhow::Result<Selection> {
        Ok(Selection {
            plies: self
                .plies
                .as_deref()
                .map(parse_plies)
                .transpose()
                .context("--plies")?,
            side: self.side.map(|side| match side {
                Side::White => Color::White,
                Side::Black => Color::Black,
            }),
            player: self.player.clone(),
            overwrite: self.overwrite,
        })
    }

    fn options(&self) -> anyhow::Result<Vec<(String, String)>> {
        let mut options: Vec<(String, String)> = Vec::new();
        for option in &self.options {
            let (name, value) = option.split_once('=').with_context(|| {
                format!("--option `{option}`: give it as NAME=VALUE (`Hash=64`)")
            })?;
            options.push((name.trim().to_owned(), value.trim().to_owned()));
        }
        Ok(PoolSpec::options_with_defaults(options))
    }

    /// The cache's file: `--cache`, or beside the output.
    fn cache_file(&self) -> Option<PathBuf> {
        if self.no_cache {
            return None;
        }
        if let Some(file) = &self.cache {
            return Some(file.clone());
        }
        let dir = self
            .out
            .output
            .as_deref()
            .filter(|p| *p != Path::new("-"))
            .and_then(Path::parent)
            .map_or_else(PathBuf::new, Path::to_owned);
        Some(dir.join(CACHE_FILE))
    }
}

/// Runs `tabia analyse`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let selection = args.selection()?;
    let limit = Limit {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime,
    };
    let command: EngineCommand = args.engine.parse().context("--engine")?;
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    // Small batches: each is a few hundred positions for the engines, and Ctrl-C keeps every
    // batch written before it.
    session.prefer_batch_bytes(1 << 14);
    let spec = PoolSpec {
        command,
        options: args.options()?,
        limit,
        multipv: args.multipv.max(1),
        timeout: Duration::from_secs(args.timeout.max(1)),
        retries: args.retries,
    };
    let pool = Pool::start(spec, session.jobs()).map_err(anyhow::Error::new)?;
    let settings = pool.settings();
    let cache = match args.cache_file() {
        Some(file) => Some(Cache::open(&file, &settings.fingerprint())?),
        None => None,
    };
    let analyser = Arc::new(Analyser::new(pool, cache));
    let watched = Arc::downgrade(&analyser);
    let interrupted = on_interrupt(move || {
        if let Some(analyser) = watched.upgrade() {
            analyser.stop();
        }
    });
    let counts = Arc::downgrade(&analyser);
    let start = std::time::Instant::now();
    session.set_progress_extra(Box::new(move || {
        let Some(counts) = counts.upgrade() else {
            return String::new();
        };
        let (analysed, cached, repeated, failed) = counts.counts();
        let rate = analysed as f64 / start.elapsed().as_secs_f64().max(1e-3);
        let mut extra = format!(
            "{analysed} positions analysed ({rate:.1}/s), {} from the cache",
            cached + repeated
        );
        if failed > 0 {
            extra += &format!(", {failed} failed");
        }
        extra
    }));
    let annotate = AnnotateOptions {
        variations: args.variations,
        annotator: Some(settings.annotator()),
    };
    let mut stopped = false;
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = Analyse {
            name: &name,
            analyser: &analyser,
            selection: &selection,
            annotate: &annotate,
            form: &form,
            json: args.json,
            interrupted: &interrupted,
        };
        let run = session.games(input, &work, |cut: bool| {
            if cut {
                anyhow::bail!(Interrupted);
            }
            Ok(())
        });
        if interrupted.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        run?;
    }
    let analyser =
        Arc::try_unwrap(analyser).map_err(|_| anyhow::anyhow!("the analyser is still in use"))?;
    let report = analyser.finish()?;
    let positions = session.counter("positions analysed");
    let cached = session.counter("from the cache");
    let failed = session.counter("failed");
    session.add(positions, report.analysed);
    session.add(cached, report.cached + report.repeated);
    session.add(failed, report.failed);
    if stopped {
        session.fail(&anyhow::anyhow!(
            "interrupted: the output ends with the last game analysed in full; the cache keeps \
             every position analysed, so the same command goes on where this one stopped"
        ));
    }
    Ok(session.finish()?)
}

/// The error that ends a run cut short by Ctrl-C.
#[derive(Debug)]
struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}
