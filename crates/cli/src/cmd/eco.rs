//! `tabia eco`: name the opening of games (TSV, NDJSON, or re-emitted with tags) or of
//! positions, with an embedded table (lichess's by default, or Scid's) or one loaded at run
//! time.
//!
//! tabia-eco classifies (`GameVisitor`, with `--check` its `CheckingVisitor`, with `--tag`
//! `Table::set_opening_tags`); what is written and reported of each game is `ops::eco`'s.

use std::path::PathBuf;

use tabia_eco::{Openings, Table};
use tabia_notation::pgn::{PgnReader, RawGame};
use tabia_position::Position;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    input::Source,
    ops::eco,
    output::OutputArg,
    parallel::{Sink, each},
    session::Session,
};

/// Arguments of `tabia eco`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// One JSON object per game (or position) instead of TSV.
    #[arg(long, conflicts_with = "tag")]
    json: bool,
    /// Re-emit each game in PGN export format with its `ECO` and `Opening` tags added or
    /// corrected where the table names the game otherwise (with Scid's table or `--table
    /// eco.pgn`/`.eco`, also `Variation`, as pgn-extract writes them); the summary counts the
    /// tags added, changed and removed.
    #[arg(long)]
    tag: bool,
    /// Also check every game to its end as `tabia pgn --check` does, in the same pass, and
    /// report what was read leniently as warnings (without it only the opening is read, and
    /// the rest of the movetext is skipped unchecked: about 2.6 times faster). `--tag` always
    /// checks, since it writes the games repaired.
    #[arg(long)]
    check: bool,
    /// The embedded opening table: `lichess` (lichess's names, as on its games and site) or
    /// `scid` (Scid's finer table and names).
    #[arg(long, value_name = "TABLE", default_value = "lichess")]
    openings: Openings,
    /// Use this opening table instead of an embedded one: pgn-extract's `eco.pgn`, Scid's
    /// `.eco` or a TSV with columns eco, name, pgn (by extension, else by content).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    table: Option<PathBuf>,
    /// Name this position instead of reading games (a FEN, EPD, partial FEN or `startpos`);
    /// may be given several times.
    #[arg(long, value_name = "FEN", conflicts_with_all = ["files", "tag"])]
    position: Vec<String>,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    out: OutputArg,
}

/// Runs `tabia eco`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let loaded = args.table.as_deref().map(eco::load_table).transpose()?;
    let table = loaded
        .as_ref()
        .unwrap_or_else(|| Table::builtin(args.openings));
    if !args.position.is_empty() {
        return positions(args, table);
    }
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    let counters = args.tag.then(|| eco::TagCounters::new(&mut session));
    let (check, json) = (args.check, args.json);
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        if let Some(counters) = counters {
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                let changes = eco::tag_game(&name, table, sink, number, raw);
                counters.add(sink, changes);
            });
            session.games(input, &work, |()| Ok(()))?;
        } else if session.jobs() == 1 {
            // One pass on this thread: the classifier runs on the reader itself, no
            // splitting into raw games first.
            session.one_pass(input, |reader, pass| {
                let mut reader = PgnReader::new(reader);
                let mut games = eco::OnePass::new(table, check);
                let mut sink = Sink::default();
                for number in 1.. {
                    let Some(verdict) = games.read(&mut reader)? else {
                        break;
                    };
                    eco::write_verdict(&name, json, &mut sink, number, &verdict);
                    pass.done(&mut sink)?;
                }
                Ok(())
            })?;
        } else {
            // The input is split into games on the workers; each worker classifies its
            // games (and with `--check` checks them as `tabia pgn --check` does, for the
            // warnings, in the same pass), so `-j` scales.
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                let verdict = eco::classify(table, raw, check);
                eco::write_verdict(&name, json, sink, number, &verdict);
            });
            session.games(input, &work, |()| Ok(()))?;
        }
    }
    Ok(session.finish()?)
}

/// `--position`: names each position given.
fn positions(args: &Args, table: &Table) -> anyhow::Result<Status> {
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "positions")?;
    for (i, text) in args.position.iter().enumerate() {
        let number = i as u64 + 1;
        match Position::from_arg(text) {
            Ok(pos) => {
                let opening = table.classify_position(&pos);
                eco::position_line(&mut session, text, opening, args.json)?;
            }
            Err(err) => eco::bad_position(&mut session, number, text, &err, args.json)?,
        }
    }
    Ok(session.finish_without_summary()?)
}
