//! `tabia`: the command-line tool. `main` only wires things: it parses the arguments, calls the
//! subcommand (which calls the libraries) and maps the outcome to an exit code.

mod cli;
mod cmd;
mod input;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cmd::run(args) {
        Ok(status) => status.into(),
        Err(err) if cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tabia: {err:#}");
            cli::Status::Failure.into()
        }
    }
}
