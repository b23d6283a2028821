//! `tabia book`: Polyglot `.bin` opening books — `build` one from games (through the same tree
//! as `tabia tree`), `probe` a position, `dump` every entry, `merge` two books.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use tabia_book::{Book, BookOptions, TreeOptions, Weight, code_text, polyglot_key};
use tabia_position::{EpRule, Position, shakmaty::Color};

use crate::{
    cli::{RunArgs, Status},
    grow::read_tree,
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
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
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
            Action::Build(args) => Some((&mut args.files, &mut args.run)),
            _ => None,
        }
    }
}

/// Runs `tabia book`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.action {
        Action::Build(args) => build(args),
        Action::Probe(args) => probe(args),
        Action::Dump(args) => dump(args),
        Action::Merge(args) => merge(args),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<Status> {
    // Claimed before the games are read, not after reading them for an hour.
    let file = output::claim_file(&args.output, args.existing.policy(), &args.files)?;
    let mut session = Session::new(&args.run, "games");
    let options = TreeOptions {
        max_ply: args.max_ply,
        max_nodes: args.max_nodes,
    };
    let tree = read_tree(&mut session, &args.files, &args.run, options)?;
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
    Ok(session.finish()?)
}

/// Reads a book; an unreadable or malformed one is an error naming the file (and the byte).
fn read_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = std::fs::read(path)
        .map_err(|err| anyhow::anyhow!("cannot open {}: {err}", path.display()))?;
    Book::from_bytes(&bytes).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))
}

/// Writes `book` into `file`, the output `path` claimed at the start.
fn write_book(path: &Path, mut file: std::fs::File, book: &Book) -> anyhow::Result<()> {
    file.write_all(&book.to_bytes())
        .and_then(|()| file.flush())
        .map_err(|err| anyhow::anyhow!("cannot write {}: {err}", path.display()))
}

/// The `--json` object of `probe`.
#[derive(serde::Serialize)]
struct ProbeRecord<'a> {
    position: String,
    fen: String,
    key: String,
    moves: &'a [tabia_book::BookMove],
}

fn probe(args: &ProbeArgs) -> anyhow::Result<Status> {
    let book = read_book(&args.book)?;
    let mut pos = match Position::from_arg(&args.position) {
        Ok(pos) => pos,
        Err(err) => anyhow::bail!("bad position: {err}"),
    };
    for (ply, text) in args.moves.iter().enumerate() {
        match pos.parse_move(text) {
            Ok(m) => pos.play_unchecked(m),
            Err(err) => anyhow::bail!("move {}: {err}", ply + 1),
        }
    }
    let moves = book.probe(&pos);
    let Some(key) = polyglot_key(&pos).map(|key| format!("{key:016x}")) else {
        anyhow::bail!(
            "Polyglot books are for standard chess and Chess960, not {}",
            pos.variant()
        );
    };
    let mut out = output::stdout();
    if args.json {
        let record = ProbeRecord {
            position: pos.key().to_string(),
            fen: pos.fen(EpRule::Legal),
            key,
            moves: &moves,
        };
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")?;
    } else {
        writeln!(out, "position  {}", pos.key())?;
        writeln!(out, "key       {key}")?;
        if moves.is_empty() {
            writeln!(out, "no moves in the book")?;
        } else {
            let w = moves.iter().map(|m| m.san.len()).max().unwrap_or(0).max(4);
            writeln!(
                out,
                "\n{:<w$}  {:<5}  {:>6}  {:>6}  {:>5}",
                "move", "uci", "weight", "share", "learn"
            )?;
            for m in &moves {
                writeln!(
                    out,
                    "{:<w$}  {:<5}  {:>6}  {:>5.1}%  {:>5}",
                    m.san, m.uci, m.weight, m.percent, m.learn
                )?;
            }
        }
    }
    out.flush()?;
    Ok(Status::Success)
}

/// One `--json` line of `dump`.
#[derive(serde::Serialize)]
struct DumpRecord {
    offset: u64,
    key: String,
    #[serde(rename = "move")]
    uci: String,
    code: u16,
    weight: u16,
    learn: u32,
}

fn dump(args: &DumpArgs) -> anyhow::Result<Status> {
    let book = read_book(&args.book)?;
    let mut out = output::stdout();
    let mut line = Vec::with_capacity(128);
    for (i, entry) in book.entries().iter().enumerate() {
        line.clear();
        let offset = (i * tabia_book::ENTRY_BYTES) as u64;
        if args.json {
            let record = DumpRecord {
                offset,
                key: format!("{:016x}", entry.key),
                uci: code_text(entry.code),
                code: entry.code,
                weight: entry.weight,
                learn: entry.learn,
            };
            output::json_line(&mut line, &record);
        } else {
            writeln!(
                line,
                "{:016x}  {:<5}  {:>5}  {}",
                entry.key,
                code_text(entry.code),
                entry.weight,
                entry.learn
            )?;
        }
        out.write_all(&line)?;
    }
    out.flush()?;
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
