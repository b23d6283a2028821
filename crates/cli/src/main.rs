//! `tabia`: the command-line tool. `main` only wires things: everything is in the library
//! (`tabia_cli::run` parses the arguments, runs the subcommand, maps the outcome to an exit code).

use std::process::ExitCode;

fn main() -> ExitCode {
    tabia_cli::run(std::env::args_os())
}
