//! One module per subcommand: each has its `Args` and a `run` that calls the libraries.

pub(crate) mod book;
pub(crate) mod dedup;
pub(crate) mod eco;
pub(crate) mod epd;
pub(crate) mod fen;
pub(crate) mod filter;
pub(crate) mod pgn;
pub(crate) mod show;
pub(crate) mod split;
pub(crate) mod stats;
pub(crate) mod table;
pub(crate) mod tree;
pub(crate) mod validate;

use crate::cli::{Cli, Command, Status};

/// Runs the chosen subcommand, its folders of PGN files named file by file first.
pub(crate) fn run(mut cli: Cli) -> anyhow::Result<Status> {
    if let Some(files) = pgn_files(&mut cli.command) {
        // Before any output is made: a file the command is about to write in a folder it
        // reads is no input, and one already there is refused as any input would be.
        *files = tabia_stream::expand_folders(files);
    }
    match cli.command {
        Command::Pgn(args) => pgn::run(&args),
        Command::Dedup(args) => dedup::run(&args),
        Command::Split(args) => split::run(&args),
        Command::Fen(args) => fen::run(&args),
        Command::Epd(args) => epd::run(&args),
        Command::Eco(args) => eco::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Table(args) => table::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Filter(args) => filter::run(&args),
        Command::Stats(args) => stats::run(&args),
    }
}

/// The PGN files a subcommand reads, when it reads PGN files.
fn pgn_files(command: &mut Command) -> Option<&mut Vec<std::path::PathBuf>> {
    match command {
        Command::Pgn(args) => Some(&mut args.files),
        Command::Dedup(args) => Some(&mut args.files),
        Command::Split(args) => Some(&mut args.files),
        Command::Epd(args) => Some(&mut args.files),
        Command::Eco(args) => Some(&mut args.files),
        Command::Table(args) => Some(&mut args.files),
        Command::Tree(args) => Some(&mut args.files),
        Command::Book(args) => args.files_mut(),
        Command::Filter(args) => Some(&mut args.files),
        Command::Stats(args) => Some(&mut args.files),
        Command::Fen(_) | Command::Validate(_) | Command::Show(_) => None,
    }
}
