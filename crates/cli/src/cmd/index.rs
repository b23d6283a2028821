//! `tabia index`: a position index of games — `build` it, `add` games, `merge` indexes,
//! `query` a position (lichess's explorer answer), list the `games` that reached it, `info`.
//!
//! tabia-index builds and answers ([`Index`], [`IndexWriter`]); reading the games on the
//! pipeline and printing are `ops::index`'s.

use std::{io::Write as _, path::PathBuf};

use anyhow::Context as _;
use serde::Serialize;
use tabia_index::{Filter, Index, IndexOptions, IndexWriter, Limits, Request};
use tabia_position::{EpRule, shakmaty::Color};

use crate::{
    cli::{InputFiles, RunArgs, Status},
    ops::index::{add_files, explorer_text, player_text},
    output,
    session::Session,
};

/// Arguments of `tabia index` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

/// What to do with an index.
#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Build an index of games (a folder; refused when it holds an index).
    Build(BuildArgs),
    /// Add games to an index; games it holds already are counted as duplicates.
    Add(AddArgs),
    /// Join indexes built apart into a new one.
    Merge(MergeArgs),
    /// The explorer's answer for a position: moves, results, ratings, games, opening.
    Query(QueryArgs),
    /// Every game that reached a position, by any move order, as PGN or NDJSON.
    Games(GamesArgs),
    /// What an index holds.
    Info(InfoArgs),
}

/// `tabia index build`.
#[derive(Debug, clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    input: InputFiles,
    /// The index's folder.
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Index the first N plies of each game (lichess's explorer: 50).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 50,
        conflicts_with = "all_plies"
    )]
    max_ply: u32,
    /// Index every ply.
    #[arg(long)]
    all_plies: bool,
    /// Commit every N games (one atomic write each; more uses more memory).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    batch: usize,
    #[command(flatten)]
    run: RunArgs,
}

/// `tabia index add`.
#[derive(Debug, clap::Args)]
struct AddArgs {
    /// The index's folder.
    #[arg(value_name = "DIR")]
    index: PathBuf,
    #[command(flatten)]
    input: InputFiles,
    /// Commit every N games.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    batch: usize,
    #[command(flatten)]
    run: RunArgs,
}

/// `tabia index merge`.
#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The indexes to join.
    #[arg(value_name = "DIR", required = true, num_args = 2..)]
    inputs: Vec<PathBuf>,
    /// The new index's folder.
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
}

/// Where the position is: `--fen`, `--play`, moves.
#[derive(Debug, clap::Args)]
struct PositionArgs {
    /// The index's folder.
    #[arg(value_name = "DIR")]
    index: PathBuf,
    /// Moves (SAN or UCI) played from the start (or from --fen).
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// The position: a FEN, an EPD or `startpos` [default: the start].
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Moves in UCI, comma-separated (lichess's `play`), played from the start or --fen.
    #[arg(long, value_name = "MOVES")]
    play: Option<String>,
    /// The variant (lichess's names: standard, chess960, crazyhouse, ...).
    #[arg(long, value_name = "VARIANT")]
    variant: Option<String>,
    /// Only games of these speeds: ultraBullet, bullet, blitz, rapid, classical,
    /// correspondence (comma-separated).
    #[arg(long, value_name = "LIST")]
    speeds: Option<String>,
    /// Only games of these rating bands: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500
    /// (comma-separated; by the players' mean rating).
    #[arg(long, value_name = "LIST")]
    ratings: Option<String>,
    /// Only games from this month on (YYYY-MM or YYYY).
    #[arg(long, value_name = "MONTH")]
    since: Option<String>,
    /// Only games up to this month (YYYY-MM or YYYY).
    #[arg(long, value_name = "MONTH")]
    until: Option<String>,
    /// JSON (the explorer's answer as lichess's API gives it; NDJSON for games).
    #[arg(long)]
    json: bool,
}

impl PositionArgs {
    fn request(&self) -> anyhow::Result<Request> {
        let mut play: Vec<&str> = self.play.iter().map(String::as_str).collect();
        play.extend(self.moves.iter().map(String::as_str));
        let play = play.join(",");
        Ok(Request::parse(
            self.fen.as_deref(),
            Some(&play),
            self.variant.as_deref(),
        )?)
    }

    fn filter(&self) -> anyhow::Result<Filter> {
        Ok(Filter::parse(
            self.speeds.as_deref(),
            self.ratings.as_deref(),
            self.since.as_deref(),
            self.until.as_deref(),
        )?)
    }

    fn open(&self) -> anyhow::Result<Index> {
        Ok(Index::open(&self.index)?)
    }
}

/// `tabia index query`.
#[derive(Debug, clap::Args)]
struct QueryArgs {
    #[command(flatten)]
    at: PositionArgs,
    /// List at most N moves.
    #[arg(
        long = "moves",
        id = "max_moves",
        value_name = "N",
        default_value_t = 12
    )]
    max_moves: usize,
    /// List the N best rated games.
    #[arg(long, value_name = "N", default_value_t = 4)]
    top_games: usize,
    /// List the N most recent games.
    #[arg(long, value_name = "N", default_value_t = 4)]
    recent_games: usize,
    /// The results month by month (lichess's `history`): the months with a game.
    #[arg(long)]
    history: bool,
    /// One player's view: what they played here and how they scored (with --color).
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// The player's color.
    #[arg(long, value_enum, default_value_t = ColorArg::White, requires = "player")]
    color: ColorArg,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ColorArg {
    White,
    Black,
}

/// `tabia index games`.
#[derive(Debug, clap::Args)]
struct GamesArgs {
    #[command(flatten)]
    at: PositionArgs,
    /// At most N games.
    #[arg(long, value_name = "N", default_value_t = 100)]
    limit: usize,
    /// Skip the first N games (for the next page).
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

/// `tabia index info`.
#[derive(Debug, clap::Args)]
struct InfoArgs {
    /// The index's folder.
    #[arg(value_name = "DIR")]
    index: PathBuf,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

impl Args {
    /// The PGN files read and the run's options, for the commands that read games.
    pub(crate) fn inputs_mut(&mut self) -> Option<(&mut Vec<PathBuf>, &mut RunArgs)> {
        match &mut self.action {
            Action::Build(args) => Some((&mut args.input.files, &mut args.run)),
            Action::Add(args) => Some((&mut args.input.files, &mut args.run)),
            _ => None,
        }
    }
}

/// Runs `tabia index`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.action {
        Action::Build(args) => {
            let options = IndexOptions {
                max_ply: (!args.all_plies).then_some(args.max_ply),
                batch_games: args.batch,
                ..IndexOptions::default()
            };
            let mut writer = IndexWriter::create(&args.output, options)?;
            let mut session = Session::new(&args.run, "games");
            add_files(&mut session, &mut writer, &args.input.files)?;
            writer.finish()?;
            Ok(session.finish()?)
        }
        Action::Add(args) => {
            let mut writer = IndexWriter::open(&args.index, args.batch)?;
            let mut session = Session::new(&args.run, "games");
            add_files(&mut session, &mut writer, &args.input.files)?;
            writer.finish()?;
            Ok(session.finish()?)
        }
        Action::Merge(args) => {
            let summary = Index::merge(&args.inputs, &args.output)?;
            for error in &summary.errors {
                eprintln!("tabia: {error}");
            }
            eprintln!(
                "games {}, indexed {}, duplicates {}, errors {}",
                summary.read, summary.indexed, summary.duplicates, summary.bad
            );
            Ok(if summary.bad > 0 {
                Status::SomeBad
            } else {
                Status::Success
            })
        }
        Action::Query(args) => query(args),
        Action::Games(args) => games(args),
        Action::Info(args) => {
            let info = Index::open(&args.index)?.info()?;
            let mut out = output::stdout();
            if args.json {
                print_json(&mut out, &info)?;
            } else {
                let plies = info.max_ply.map_or("all".to_owned(), |n| n.to_string());
                writeln!(out, "index      {}", info.path.display())?;
                writeln!(out, "format     {}", info.format)?;
                writeln!(out, "plies      {plies}")?;
                writeln!(out, "games      {}", info.games)?;
                writeln!(out, "positions  {}", info.positions)?;
                writeln!(out, "bytes      {}", info.bytes)?;
                writeln!(
                    out,
                    "\n{:<10} {:>10} {:>12} {:>12} {:>12}",
                    "table", "entries", "stored", "metadata", "fragmented"
                )?;
                for t in &info.tables {
                    writeln!(
                        out,
                        "{:<10} {:>10} {:>12} {:>12} {:>12}",
                        t.name, t.entries, t.stored, t.metadata, t.fragmented
                    )?;
                }
            }
            out.flush()?;
            Ok(Status::Success)
        }
    }
}

fn query(args: &QueryArgs) -> anyhow::Result<Status> {
    let index = args.at.open()?;
    let request = args.at.request()?;
    let filter = args.at.filter()?;
    let limits = Limits {
        moves: args.max_moves,
        top_games: args.top_games,
        recent_games: args.recent_games,
        history: args.history,
    };
    let epd = request.position.epd(EpRule::Legal);
    let mut out = output::stdout();
    if let Some(player) = &args.player {
        let color = match args.color {
            ColorArg::White => Color::White,
            ColorArg::Black => Color::Black,
        };
        let answer = index.player(player, color, &request, &filter, limits)?;
        if args.at.json {
            print_json(&mut out, &answer)?;
        } else {
            out.write_all(player_text(&answer, &epd).as_bytes())?;
        }
    } else {
        let answer = index.explore(&request, &filter, limits)?;
        if args.at.json {
            print_json(&mut out, &answer)?;
        } else {
            out.write_all(explorer_text(&answer, &epd).as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Status::Success)
}

fn games(args: &GamesArgs) -> anyhow::Result<Status> {
    let index = args.at.open()?;
    let request = args.at.request()?;
    let filter = args.at.filter()?;
    let page = index.games(&request.position, &filter, args.offset, args.limit)?;
    let mut out = output::stdout();
    if args.at.json {
        for (id, info) in &page.games {
            print_json(&mut out, &tabia_index::GameRecord::new(*id, info))?;
        }
    } else {
        let ids: Vec<u32> = page.games.iter().map(|(id, _)| *id).collect();
        for (id, text) in ids.iter().zip(index.pgns(&ids)?) {
            let text = text.with_context(|| format!("game {id} has no text in the index"))?;
            // As `tabia pgn` writes games: each followed by a blank line.
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n\n")?;
        }
    }
    out.flush()?;
    let shown = page.games.len();
    if page.total > args.offset + shown {
        eprintln!(
            "tabia: games {}-{} of {}: --offset {} for the next page",
            args.offset + 1,
            args.offset + shown,
            page.total,
            args.offset + shown
        );
    }
    Ok(Status::Success)
}

fn print_json(out: &mut impl std::io::Write, value: &impl Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}
