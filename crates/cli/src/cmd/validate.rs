//! `tabia validate`: explain every problem of positions.

use std::io::Write;

use tabia_position::Editor;

use crate::cli::Status;

/// Arguments of `tabia validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Positions: FEN, partial FEN, EPD or `startpos`. With several, each problem line starts
    /// with its position.
    #[arg(value_name = "POSITION", required = true)]
    positions: Vec<String>,
}

/// Runs `tabia validate`: every problem on its own line on stdout; exit 1 if any.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let mut out = std::io::stdout().lock();
    let many = args.positions.len() > 1;
    let mut status = Status::Success;
    for text in &args.positions {
        let prefix = if many {
            format!("{}: ", text.trim())
        } else {
            String::new()
        };
        match Editor::from_arg(text) {
            Ok(editor) => {
                for problem in editor.problems() {
                    writeln!(out, "{prefix}{problem}")?;
                    status = Status::SomeBad;
                }
            }
            Err(err) => {
                writeln!(out, "{prefix}{err}")?;
                status = Status::SomeBad;
            }
        }
    }
    Ok(status)
}
