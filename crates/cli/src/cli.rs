//! Command-line arguments and exit statuses.

use std::{num::NonZeroUsize, path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use tabia_position::EpRule;

use crate::{cmd, report::Warnings};

/// Chess notation at speed: PGN, FEN, EPD, ECO.
#[derive(Debug, Parser)]
#[command(
    name = "tabia",
    version,
    propagate_version = true,
    after_help = EXAMPLES,
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands, one module of `cmd` each.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Re-emit games in PGN export format, or check them.
    #[command(after_help = PGN_EXAMPLES)]
    Pgn(cmd::pgn::Args),
    /// Keep one copy of each game: by mainline moves, final position or position at a depth.
    #[command(after_help = DEDUP_EXAMPLES)]
    Dedup(cmd::dedup::Args),
    /// Split games into files: N games each, or one file per ECO, year, month, player, tag.
    #[command(after_help = SPLIT_EXAMPLES)]
    Split(cmd::split::Args),
    /// Apply moves to a position and print its FEN, EPD or key.
    #[command(after_help = FEN_EXAMPLES)]
    Fen(cmd::fen::Args),
    /// Print the EPD (or FEN) after every ply of every game.
    #[command(after_help = EPD_EXAMPLES)]
    Epd(cmd::epd::Args),
    /// Name the opening (ECO code) of games or positions.
    #[command(after_help = ECO_EXAMPLES)]
    Eco(cmd::eco::Args),
    /// Explain every problem of positions.
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(cmd::validate::Args),
    /// Render a position: ASCII, Unicode, SVG, PNG, LaTeX, HTML.
    #[command(after_help = SHOW_EXAMPLES)]
    Show(cmd::show::Args),
    /// Games (and moves) as Parquet or CSV tables for DuckDB, Polars, pandas, Spark.
    #[cfg(feature = "table")]
    #[command(after_help = TABLE_EXAMPLES)]
    Table(cmd::table::Args),
    /// The opening tree of games: every move from a position, how often, how it scored.
    #[command(after_help = TREE_EXAMPLES)]
    Tree(cmd::tree::Args),
    /// Polyglot opening books: build from games, probe, dump, merge.
    #[command(after_help = BOOK_EXAMPLES)]
    Book(cmd::book::Args),
    /// Select games by tags, players, ratings, openings, positions, patterns, material, moves.
    #[command(after_help = FILTER_EXAMPLES)]
    Filter(Box<cmd::filter::Args>),
    /// What is in the files: games, plies, results, dates, time controls, ratings, players.
    #[command(after_help = STATS_EXAMPLES)]
    Stats(cmd::stats::Args),
    /// A position index: build it, add games, ask what was played from a position, list games.
    #[command(after_help = INDEX_EXAMPLES)]
    Index(cmd::index::Args),
    /// Serve an index: lichess's opening explorer API and an explorer page.
    #[command(after_help = cmd::serve::EXAMPLES)]
    Serve(cmd::serve::Args),
    /// Analyse games with a UCI engine: evals, mistakes and accuracy, each position once.
    #[command(after_help = ANALYSE_EXAMPLES)]
    Analyse(cmd::analyse::Args),
}

/// `-j N`: a number of worker threads, 1 or more.
fn parse_jobs(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("at least one worker thread is needed (leave -j out to use all cores)".into()),
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "no worker thread".into()),
        Err(_) => Err("expected a number of worker threads, such as 4".into()),
    }
}

/// The PGN inputs of a subcommand that reads them: flatten into its `Args` with
/// `#[command(flatten)] input: InputFiles`.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct InputFiles {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
}

/// The en-passant rule of the FEN and EPD writers, as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum EpArg {
    /// The square behind every double pawn push (the FEN standard).
    #[default]
    Always,
    /// Only when an en-passant capture is legal (as position keys and lichess).
    Legal,
    /// Only when an enemy pawn stands next to the pushed pawn (X-FEN).
    Pseudo,
}

impl From<EpArg> for EpRule {
    fn from(arg: EpArg) -> EpRule {
        match arg {
            EpArg::Always => EpRule::Always,
            EpArg::Legal => EpRule::Legal,
            EpArg::Pseudo => EpRule::PseudoLegal,
        }
    }
}

/// The options of every subcommand that streams its inputs: flatten into its `Args` with
/// `#[command(flatten)] run: RunArgs`.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct RunArgs {
    /// Worker threads [default: all cores]; the output order is the input order whatever N is.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs)]
    pub(crate) jobs: Option<NonZeroUsize>,
    /// No progress meter, no summary and no warnings on standard error: errors only (warnings
    /// too when --warnings is given).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// How warnings (what was read is a guess: a repaired move, a missing result) and notes
    /// (written another way: a missing check mark, a lowercase letter) are reported: `some`
    /// lists the first 10 warnings of each input and counts the rest and the notes, `each`
    /// lists every warning and note, `count` only counts them [default: some; count with -q].
    #[arg(long, value_enum, value_name = "HOW")]
    pub(crate) warnings: Option<Warnings>,
    /// The files of the run, when their sizes are known before it starts (set once the
    /// folders are listed): the progress meter shows the whole run.
    #[arg(skip)]
    pub(crate) whole: Option<crate::progress::Whole>,
}

/// What `tabia --help` ends with.
const EXAMPLES: &str = "\
Examples:
  tabia pgn --check games.pgn.zst          check a compressed file (zstd, gzip, bzip2, xz)
  tabia filter twic/ --elo 2600 -o top.pgn every PGN file and zip archive in a folder
  zstdcat lichess.pgn.zst | tabia epd -j 4 the EPD of every ply, read from standard input
  tabia eco --json games.pgn | head        the opening of each game as NDJSON
  tabia epd --warnings count engines.pgn   warnings counted in the summary, not listed
  tabia fen startpos e4 e5 Nf3             the FEN after some moves
  tabia show startpos --format unicode     a diagram

Inputs:
  Files, or standard input when there are none and for `-`. Compressed inputs (zstd, gzip,
  bzip2, xz) are recognised by their first bytes, whatever their names. A zip archive (a file,
  as TWIC ships) is an input per PGN entry (`*.pgn`, every file when there is none), named
  ARCHIVE/ENTRY. A folder is its files named `*.pgn[.gz|.zst|.bz2|.xz]` or `*.zip`, and
  those of the folders in it, in the order of their paths.

Exit status:
  0  all input good
  1  some games or positions bad, each reported on standard error as
     FILE:LINE:COL: game N: message
  2  usage or I/O error";

const STATS_EXAMPLES: &str = "\
Examples:
  tabia stats games.pgn.zst                games, plies, results, dates, speeds, ratings, ...
  tabia stats --json twic*.pgn | jq .plies
                                           one JSON object for scripts
  tabia stats -j 1 -q a.pgn b.pgn          one thread, no summary on standard error

Figures: games (read, errors, warnings), bytes, mainline plies (min, exact median, max,
mean), results, date range, variants, time controls in lichess categories (base + 40 x
increment: ultrabullet < 30 s, bullet < 3 min, blitz < 8 min, rapid < 25 min, classical
< 6 h, correspondence; `-` is correspondence), ratings (min, max, mean), distinct players,
the 10 most frequent events and ECO codes, games with comments, variations, clocks, evals,
and time taken; when the moves carry [%eval]s, lichess's accuracy, ACPL and inaccuracies,
mistakes and blunders per 100 moves by rating band (docs/commands/stats.md). No legality
check: errors are syntax errors. The figures are the same for every -j.";

const PGN_EXAMPLES: &str = "\
Examples:
  tabia pgn games.pgn -o clean.pgn         re-emit every game that can be read, in export format
                                           (-o never names an input: that is refused, status 2)
  tabia pgn --check games.pgn.gz           report bad games and warnings, then `games N, errors E, warnings W`
  tabia pgn --strict games.pgn > strict.pgn
                                           warnings are errors: drop games with a warning
  tabia pgn --check --warnings count tcec.pgn
                                           errors a line each, warnings only in the summary
  tabia pgn -j 2 --quiet big.pgn.zst | head
  tabia pgn --notation uci --strip comments,nags,variations --no-tags --line-length 0 games.pgn
  tabia pgn --lang de --add plycount,eco --strip tags games.pgn";

const DEDUP_EXAMPLES: &str = "\
Examples:
  tabia dedup twic*.pgn.gz -o all.pgn      one copy of each game (same start, same moves)
  tabia dedup --by position big.pgn --duplicates dups.pgn > unique.pgn
  tabia dedup --keep most-annotated a.pgn b.pgn -o best.pgn
  tabia dedup --fuzzy-depth 30 games.pgn.zst --notation uci --no-tags --line-length 0

Memory: 24 bytes for each distinct game (a 16-byte digest and where its first copy is),
up to 57 with the hash table's slack: 10 million distinct games in at most 570 MB.
--keep most-annotated also holds 40 bytes a game, and the text of each kept copy that is
not the first one. Summary: games N, kept K, duplicates D, errors E, warnings W.";

const SPLIT_EXAMPLES: &str = "\
Examples:
  tabia split big.pgn.zst -o parts --games 10000        parts/part-00001.pgn, ...
  tabia split twic.pgn -o by-eco --by eco --eco-by-position --compress zst
  tabia split games.pgn -o players --by white --append
                                                      add to the files of an earlier run
  tabia split games.pgn -o events --by tag:Event --force

File names: a key's letters, digits and '-' are kept, a space becomes '+', any other byte
is '_' and two hex digits ('Carlsen, Magnus' -> Carlsen_2C+Magnus.pgn, '../x' ->
_2E_2E_2Fx.pgn); games without the key go to _unknown.pgn, games in error to errors.pgn
(unless --drop-errors). Summary: games N, written W, files F, errors E, warnings W.";

const FEN_EXAMPLES: &str = "\
Examples:
  tabia fen startpos e4 c5 Nf3             the FEN after 1.e4 c5 2.Nf3
  tabia fen --epd startpos e4              the EPD instead of the FEN
  tabia fen --key 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq -'   the position key";

const EPD_EXAMPLES: &str = "\
Examples:
  tabia epd game.pgn                       the EPD after every ply, a blank line between games
  tabia epd big.pgn.zst -o big.epd         the same, into a file
  tabia epd --fen --start game.pgn         full FEN, starting with the initial position
  xzcat games.pgn.xz | tabia epd -j 2 > positions.epd";

const ECO_EXAMPLES: &str = "\
Examples:
  tabia eco games.pgn                      game number, ECO, extended code, name, ply (TSV)
  tabia eco --json games.pgn.zst           the same as NDJSON
  tabia eco --check games.pgn              and check each game to its end, with warnings
  tabia eco --tag games.pgn > tagged.pgn   add or correct the ECO, Opening and Variation tags
  tabia eco --position 'rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq -'";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  tabia validate '8/8/8/8/8/8/8/8 w - - 0 1'   every problem of a position, one per line
  tabia validate startpos                  nothing printed, exit status 0
  tabia validate -f positions.epd.gz       one position per line: FILE:LINE: problem";

const SHOW_EXAMPLES: &str = "\
Examples:
  tabia show startpos                      an ASCII diagram
  tabia show startpos --format unicode --flip
  tabia show startpos --format png --last-move e2e4 -o board.png";

#[cfg(feature = "table")]
const TABLE_EXAMPLES: &str = "\
Examples:
  tabia table games.pgn.zst -o games.parquet          one row per game (lichess columns first)
  tabia table --moves games.pgn -o games.parquet      also games.moves.parquet: one row per ply
  tabia table --partition year,month lichess_2024-01.pgn.zst -o games
                                           games/year=2024/month=01/part-0.parquet, part-1, …
                                           (a million games a part: --part-games N)
  tabia table games.pgn -o games.csv       CSV with a header row, for spreadsheets
  duckdb -c \"SELECT Opening, count(*) FROM 'games.parquet' GROUP BY 1 ORDER BY 2 DESC\"";

const TREE_EXAMPLES: &str = "\
Examples:
  tabia tree games.pgn                     the moves from the start position, with figures
  tabia tree --depth 3 --min-games 50 games.pgn.zst   three plies deep, rare moves folded
  tabia tree --position 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -' games.pgn
  tabia tree --json games.pgn | jq '.moves[0]'
  tabia tree --html tree.html games.pgn    a page to browse: board, moves, score bars";

const BOOK_EXAMPLES: &str = "\
Examples:
  tabia book build games.pgn -o book.bin   moves of at least 3 games, 30 plies, weighted by games
  tabia book build --only white --weight score --min-games 10 games.pgn.zst -o white.bin
  tabia book probe book.bin startpos e4 c5 the book's moves after 1.e4 c5
  tabia book dump --json book.bin | head   every entry (key, move, weight, learn)
  tabia book merge a.bin b.bin -o c.bin    moves in both get the sum of their weights";
/// What `tabia analyse --help` ends with.
const ANALYSE_EXAMPLES: &str = "\
Examples:
  tabia analyse games.pgn --depth 12 -o analysed.pgn     evals, advice and accuracy tags
  tabia analyse games.pgn --player Carlsen --variations  one player's moves, with better lines
  tabia analyse lichess.pgn.zst --json --nodes 100000    NDJSON: one record per position
  tabia analyse games.pgn --engine ./sf --option Hash=64 any UCI engine, any option
  tabia analyse games.pgn -j 8 --depth 20                eight engines; Ctrl-C, then the same
                                                         command goes on where it stopped
";

const INDEX_EXAMPLES: &str = "\
Examples:
  tabia index build games.pgn.zst -o games.idx   index the first 50 plies of every game
  tabia index add games.idx 2024-02.pgn.zst      next month's games (duplicates counted, not added)
  tabia index query games.idx e4 c5 Nf3          the moves after 1.e4 c5 2.Nf3, results, games
  tabia index query games.idx --play e2e4 --speeds blitz --ratings 2000,2200 --json
  tabia index query games.idx --player carlsen --color black e4
  tabia index games games.idx --fen 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -' --limit 20
  tabia serve games.idx                          the explorer in the browser and on lichess's API";
const FILTER_EXAMPLES: &str = "\
Examples:
  tabia filter --player carlsen --result decisive games.pgn
  tabia filter --tag 'Date>=2020' --elo 2600 --eco B90-B99 big.pgn.zst > najdorf.pgn
  tabia filter --position 'rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq -' games.pgn
  tabia filter --moves '1. e4 c5 2. Nf3' --limit 10 --json games.pgn
  tabia filter --material 'R RP' --mark games.pgn      rook endings a pawn up, marked
  tabia filter --fen-pattern-either '*/*/*/*/*/6P1/*PBP/*' games.pgn
  tabia filter --white carlsen --raw twic.pgn > carlsen.pgn   the games as they were read

Criteria:
  Different criteria must all hold; the same criterion given several times holds when any
  of its values does (--tag: by tag name). Summary: games N, matched M, errors E.
  A bad criterion is a usage error (exit status 2) that shows the bad part.";

/// How a run ended, as documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// 0: all input was good.
    Success,
    /// 1: some games or positions were bad (each reported on stderr).
    SomeBad,
    /// 2: usage or I/O error.
    Failure,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::SomeBad => ExitCode::from(1),
            Status::Failure => ExitCode::from(2),
        }
    }
}

/// Whether an error is (caused by) a closed stdout, which ends a run quietly (`tabia … | head`).
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn help_shows_examples_and_exit_codes() {
        let mut cmd = Cli::command();
        let help = cmd.render_help().to_string();
        assert!(help.contains("Examples:\n  tabia pgn --check"), "{help}");
        assert!(help.contains("Exit status:\n  0  all input good"), "{help}");
        for sub in [
            "pgn", "fen", "epd", "eco", "validate", "show", "tree", "book", "filter", "table",
            "stats",
        ] {
            let sub = cmd.find_subcommand_mut(sub).unwrap();
            let help = sub.render_help().to_string();
            assert!(help.contains("Examples:\n  tabia "), "{help}");
        }
    }

    #[test]
    fn status_codes() {
        for (status, code) in [
            (Status::Success, ExitCode::SUCCESS),
            (Status::SomeBad, ExitCode::from(1)),
            (Status::Failure, ExitCode::from(2)),
        ] {
            assert_eq!(ExitCode::from(status), code);
        }
    }
}
