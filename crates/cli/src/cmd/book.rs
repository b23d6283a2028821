//! `tabia book`: Polyglot `.bin` opening books — `build` one from games (through the same tree
//! as `tabia tree`), `probe` a position, `dump` every entry, `merge` two books.
//!
//! tabia-book builds, probes and merges ([`Book`]); reading and writing the files and `dump`'s
//! lines are `ops::book`'s.

use std::path::PathBuf;

use tabia_book::{Book, BookOptions, TreeOptions, Weight};
use tabia_index::Index;
use tabia_position::{Position, shakmaty::Color};

use crate::{
    cli::{InputFiles, RunArgs, Status},
    grow::{index_starts, index_tree, read_tree},
    ops::book::{dump, read_book, write_book, write_probe},
    output::{self, ForceArg},
    session::Session,
};

/// Arguments of `tabia book` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

/// What to do with books.
#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Build a book from games.
    Build(BuildArgs),
    /// The book's moves in a position, with weights and percentages.
    Probe(ProbeArgs),
    /// Every entry of a book.
    Dump(DumpArgs),
    /// Merge two books: moves in both get the sum of their weights.
    Merge(MergeArgs),
}

/// `tabia book build`.
#[derive(Debug, clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// Build the book from a position index (`tabia index build`) instead of reading games:
    /// its figures, --max-ply plies deep (at most the plies it indexed).
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    index: Option<PathBuf>,
    /// The book to write.
    #[arg(short, long, value_name = "BOOK")]
    output: PathBuf,
    #[command(flatten)]
    existing: ForceArg,
    /// Use the first N plies of each game.
    #[arg(long, value_name = "N", default_value_t = 30)]
    max_ply: u32,
    /// Leave out moves played by fewer games (Polyglot's default too).
    #[arg(long, value_name = "N", default_value_t = 3)]
    min_games: u32,
    /// Only the moves of one side.
    #[arg(long, value_enum, value_name = "SIDE")]
    only: Option<Side>,
    /// How moves are weighted: games that played them, Polyglot's score (2 × wins + draws
    /// of the side that played them), or wins.
    #[arg(long, value_enum, default_value_t = WeightArg::Games)]
    weight: WeightArg,
    /// Hold at most N moves-from-positions while reading (see `tabia tree --max-nodes`).
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    #[command(flatten)]
    run: RunArgs,
}

/// `tabia book probe`.
#[derive(Debug, clap::Args)]
struct ProbeArgs {
    /// The book.
    #[arg(value_name = "BOOK")]
    book: PathBuf,
    /// A FEN, a partial FEN, an EPD or `startpos`.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Moves (SAN or UCI) played from POSITION first.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// One JSON object: the position, its key and its moves.
    #[arg(long)]
    json: bool,
}

/// `tabia book dump`.
#[derive(Debug, clap::Args)]
struct DumpArgs {
    /// The book.
    #[arg(value_name = "BOOK")]
    book: PathBuf,
    /// One JSON object per entry (NDJSON).
    #[arg(long)]
    json: bool,
}

/// `tabia book merge`.
#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The first book (its learn fields are kept).
    #[arg(value_name = "A")]
    first: PathBuf,
    /// The second book.
    #[arg(value_name = "B")]
    second: PathBuf,
    /// The book to write.
    #[arg(short, long, value_name = "BOOK")]
    output: PathBuf,
    #[command(flatten)]
    existing: ForceArg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum WeightArg {
    Games,
    Score,
    Wins,
}

impl Args {
    /// The PGN files named and the run's options, for `tabia book build`.
    pub(crate) fn inputs_mut(&mut self) -> Option<(&mut Vec<PathBuf>, &mut RunArgs)> {
        match &mut self.action {
            Action::Build(args) => Some((&mut args.input.files, &mut args.run)),
            _ => None,
        }
    }
}

/// Runs `tabia book`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.action {
        Action::Build(args) => build(args),
        Action::Probe(args) => probe(args),
        Action::Dump(args) => dump(&read_book(&args.book)?, args.json).map(|()| Status::Success),
        Action::Merge(args) => merge(args),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<Status> {
    // Claimed before the games are read, not after reading them for an hour.
    let file = output::claim_file(&args.output, args.existing.policy(), &args.input.files)?;
    let mut session = Session::new(&args.run, "games");
    let options = TreeOptions {
        max_ply: args.max_ply,
        max_nodes: args.max_nodes,
    };
    let tree = match &args.index {
        Some(dir) => {
            let index = Index::open(dir)?;
            let plies = index
                .max_ply()
                .map_or(args.max_ply, |n| n.min(args.max_ply));
            index_tree(&index, &index_starts(&index)?, plies, options)?
        }
        None => read_tree(&mut session, &args.input.files, &args.run, options)?,
    };
    let book = Book::from_tree(
        &tree,
        BookOptions {
            min_games: args.min_games,
            only: args.only.map(|side| match side {
                Side::White => Color::White,
                Side::Black => Color::Black,
            }),
            weight: match args.weight {
                WeightArg::Games => Weight::Games,
                WeightArg::Score => Weight::Score,
                WeightArg::Wins => Weight::Wins,
            },
        },
    );
    write_book(&args.output, file, &book)?;
    if !args.run.quiet {
        eprintln!("tabia: {}: {} entries", args.output.display(), book.len());
    }
    if args.index.is_some() {
        return Ok(session.finish_without_summary()?);
    }
    Ok(session.finish()?)
}

fn probe(args: &ProbeArgs) -> anyhow::Result<Status> {
    let book = read_book(&args.book)?;
    let start =
        Position::from_arg(&args.position).map_err(|err| anyhow::anyhow!("bad position: {err}"))?;
    // The error's message says it all (no cause to repeat).
    let probe = book
        .probe_after(&start, &args.moves)
        .map_err(|err| anyhow::anyhow!("{err}"))?;
    write_probe(&probe, args.json)?;
    Ok(Status::Success)
}

fn merge(args: &MergeArgs) -> anyhow::Result<Status> {
    let inputs = [args.first.clone(), args.second.clone()];
    let file = output::claim_file(&args.output, args.existing.policy(), &inputs)?;
    let first = read_book(&args.first)?;
    let second = read_book(&args.second)?;
    write_book(&args.output, file, &first.merge(&second))?;
    Ok(Status::Success)
}
