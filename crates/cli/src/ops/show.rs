//! `tabia show`'s command-line work: where the rendering goes ([`Destination`]: a file claimed
//! before the work starts, or standard output, never a terminal for a binary image) and the
//! `--last-move` argument. Reading the position is `tabia-position`'s
//! ([`diagram_setup`](tabia_position::diagram_setup)).

use std::{
    fs::File,
    io::{self, IsTerminal, Write},
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use tabia_position::{LastMove, RenderFormat, shakmaty::uci::UciMove};

use crate::output::{self, Policy};

/// Where a rendering is written.
pub(crate) enum Destination {
    /// Standard output.
    Stdout,
    /// A file, claimed (created) already.
    File(PathBuf, File),
}

impl Destination {
    /// The destination of `-o PATH` (none, or `-`: standard output), for a rendering in
    /// `format`: the file is claimed now, so that a refusal comes before any work.
    ///
    /// # Errors
    ///
    /// A binary format to a terminal, or a file that cannot be claimed under `policy`.
    pub(crate) fn open(
        path: Option<&Path>,
        policy: Policy,
        format: RenderFormat,
    ) -> anyhow::Result<Destination> {
        let to_stdout = path.is_none_or(|path| path.as_os_str() == "-");
        check_destination(format, to_stdout && io::stdout().is_terminal())?;
        Ok(match path {
            Some(path) if !to_stdout => {
                Destination::File(path.to_owned(), output::claim_file(path, policy, &[])?)
            }
            _ => Destination::Stdout,
        })
    }

    /// Writes the rendering.
    ///
    /// # Errors
    ///
    /// The file or standard output cannot be written (the file named).
    pub(crate) fn write(self, bytes: &[u8]) -> anyhow::Result<()> {
        match self {
            Destination::File(path, mut file) => {
                file.write_all(bytes)
                    .and_then(|()| file.flush())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            Destination::Stdout => {
                let mut stdout = io::stdout().lock();
                stdout.write_all(bytes)?;
                stdout.flush()?;
            }
        }
        Ok(())
    }
}

/// Refuses to write binary output (PNG) to a terminal.
fn check_destination(format: RenderFormat, to_terminal: bool) -> anyhow::Result<()> {
    if format.is_binary() && to_terminal {
        bail!("refusing to write a {format} image to a terminal: use `-o FILE` or redirect stdout");
    }
    Ok(())
}

/// The `--last-move` argument: a UCI move.
pub(crate) fn parse_last_move(text: &str) -> anyhow::Result<LastMove> {
    let uci = UciMove::from_ascii(text.as_bytes())
        .with_context(|| format!("invalid --last-move `{text}` (expected a UCI move like e2e4)"))?;
    LastMove::from_uci(&uci)
        .with_context(|| format!("invalid --last-move `{text}`: a null move has no squares"))
}

#[cfg(test)]
mod tests {
    use tabia_position::shakmaty::Square;

    use super::*;

    #[test]
    fn last_move_is_uci() {
        assert_eq!(
            parse_last_move("e2e4").unwrap(),
            LastMove {
                from: Square::E2,
                to: Square::E4
            }
        );
        assert_eq!(
            format!("{:#}", parse_last_move("Nf3").unwrap_err()),
            "invalid --last-move `Nf3` (expected a UCI move like e2e4): invalid uci"
        );
        assert!(parse_last_move("0000").is_err());
    }

    #[test]
    fn png_is_not_written_to_a_terminal() {
        assert_eq!(
            check_destination(RenderFormat::Png, true)
                .unwrap_err()
                .to_string(),
            "refusing to write a png image to a terminal: use `-o FILE` or redirect stdout"
        );
        assert!(check_destination(RenderFormat::Png, false).is_ok());
        assert!(check_destination(RenderFormat::Svg, true).is_ok());
    }
}
