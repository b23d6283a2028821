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

/// Runs the chosen subcommand.
pub(crate) fn run(cli: Cli) -> anyhow::Result<Status> {
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
