//! One module per subcommand: each has its `Args` and a `run` that calls the libraries.

pub(crate) mod analyse;
pub(crate) mod book;
pub(crate) mod dedup;
pub(crate) mod eco;
pub(crate) mod epd;
pub(crate) mod fen;
pub(crate) mod filter;
pub(crate) mod index;
pub(crate) mod pgn;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod split;
pub(crate) mod stats;
#[cfg(feature = "table")]
pub(crate) mod table;
pub(crate) mod tree;
pub(crate) mod validate;

use std::path::PathBuf;

use crate::cli::{Cli, Command, RunArgs, Status};

/// Runs the chosen subcommand, its folders of PGN files named file by file first.
pub(crate) fn run(mut cli: Cli) -> anyhow::Result<Status> {
    if let Some((files, run)) = pgn_inputs(&mut cli.command) {
        // Before any output is made: a file the command is about to write in a folder it
        // reads is no input, and one already there is refused as any input would be.
        *files = tabia_stream::expand_folders(files);
        // Their sizes, for one progress meter over all of them.
        run.whole = crate::progress::Whole::of(files);
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
        #[cfg(feature = "table")]
        Command::Table(args) => table::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Filter(args) => filter::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Index(args) => index::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Analyse(args) => analyse::run(&args),
    }
}

/// The PGN files a subcommand reads and its run's options, when it reads PGN files.
fn pgn_inputs(command: &mut Command) -> Option<(&mut Vec<PathBuf>, &mut RunArgs)> {
    match command {
        Command::Pgn(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Dedup(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Split(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Epd(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Eco(args) => Some((&mut args.input.files, &mut args.run)),
        #[cfg(feature = "table")]
        Command::Table(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Tree(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Book(args) => args.inputs_mut(),
        Command::Filter(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Stats(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Index(args) => args.inputs_mut(),
        Command::Analyse(args) => Some((&mut args.input.files, &mut args.run)),
        Command::Fen(_) | Command::Validate(_) | Command::Show(_) | Command::Serve(_) => None,
    }
}
