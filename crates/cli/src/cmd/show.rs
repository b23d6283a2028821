//! `tabia show`: render one position as ASCII, Unicode, SVG, PNG, LaTeX or HTML.

use std::{
    io::{self, IsTerminal, Write},
    path::PathBuf,
};

use anyhow::{Context, bail};
use tabia_position::{
    Editor, EpRule, GameVariant, LastMove, Position, RenderFormat, RenderOptions, Variant, render,
    shakmaty::{Setup, uci::UciMove},
};

use crate::{
    cli::Status,
    output::{self, ForceArg},
};

/// Arguments of `tabia show`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The position: a full FEN, a partial FEN, an EPD, or `startpos`.
    #[arg(value_name = "POSITION")]
    position: String,
    /// The rendering.
    #[arg(short, long, value_enum, default_value_t = FormatArg::Ascii)]
    format: FormatArg,
    /// Write to this file instead of standard output (refused when it exists already,
    /// unless --force).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    existing: ForceArg,
    /// Draw the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Highlight the last move, in UCI (`e2e4`, `e1g1`).
    #[arg(long, value_name = "UCI")]
    last_move: Option<String>,
    /// Width and height of the SVG or PNG image in pixels.
    #[arg(long, default_value_t = 400, value_name = "PIXELS",
          value_parser = clap::value_parser!(u32).range(16..=4096))]
    size: u32,
    /// Draw rank and file labels (the default for all formats but ascii).
    #[arg(long, overrides_with = "no_coordinates")]
    coordinates: bool,
    /// Draw no rank and file labels.
    #[arg(long)]
    no_coordinates: bool,
    /// A complete document (LaTeX `standalone` class, HTML page) instead of a fragment.
    #[arg(long)]
    standalone: bool,
    /// The rules of the position (`crazyhouse`, `horde`, `racing-kings`, …): `startpos` is
    /// then the variant's start. A Crazyhouse position (a FEN with pockets, `[QPpp]`) is
    /// drawn with its pockets.
    #[arg(long, value_name = "NAME", value_parser = tabia_position::parse_variant)]
    variant: Option<GameVariant>,
}

/// The formats as command-line values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    /// ASCII diagram (Games::Chess `to_text`).
    Ascii,
    /// Unicode figurines.
    Unicode,
    /// SVG image.
    Svg,
    /// PNG image.
    Png,
    /// LaTeX for the chessboard/xskak packages.
    Latex,
    /// Self-contained HTML.
    Html,
}

impl From<FormatArg> for RenderFormat {
    fn from(format: FormatArg) -> RenderFormat {
        match format {
            FormatArg::Ascii => RenderFormat::Ascii,
            FormatArg::Unicode => RenderFormat::Unicode,
            FormatArg::Svg => RenderFormat::Svg,
            FormatArg::Png => RenderFormat::Png,
            FormatArg::Latex => RenderFormat::Latex,
            FormatArg::Html => RenderFormat::Html,
        }
    }
}

/// Runs `tabia show`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let format = RenderFormat::from(args.format);
    let to_stdout = args
        .output
        .as_ref()
        .is_none_or(|path| path.as_os_str() == "-");
    check_destination(format, to_stdout && io::stdout().is_terminal())?;
    let file = match &args.output {
        Some(path) if !to_stdout => Some(output::claim_file(path, args.existing.policy(), &[])?),
        _ => None,
    };

    let setup = parse_position(&args.position, args.variant)?;
    let last_move = args.last_move.as_deref().map(parse_last_move).transpose()?;
    let options = RenderOptions {
        flip: args.flip,
        coordinates: if args.no_coordinates {
            Some(false)
        } else if args.coordinates {
            Some(true)
        } else {
            None
        },
        last_move,
        size: args.size,
        standalone: args.standalone,
    };
    let bytes = render(&setup, format, &options)?;

    match (&args.output, file) {
        (Some(path), Some(mut file)) => {
            file.write_all(&bytes)
                .and_then(|()| file.flush())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        _ => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
        }
    }
    Ok(Status::Success)
}

/// Refuses to write binary output (PNG) to a terminal.
fn check_destination(format: RenderFormat, to_terminal: bool) -> anyhow::Result<()> {
    if format.is_binary() && to_terminal {
        bail!("refusing to write a {format} image to a terminal: use `-o FILE` or redirect stdout");
    }
    Ok(())
}

/// The position argument, read by the shared position-argument parser. Any placement is
/// drawn, legal or not (a composed diagram needs no kings).
fn parse_position(text: &str, variant: Option<GameVariant>) -> anyhow::Result<Setup> {
    if let Some(variant) = variant
        && text.trim() == "startpos"
    {
        return Ok(Position::new_variant(variant.variant).setup(EpRule::Always));
    }
    let editor = Editor::from_arg(text).with_context(|| format!("invalid position `{text}`"))?;
    let mut setup = editor.setup();
    if variant.is_some_and(|v| v.variant == Variant::Crazyhouse) && setup.pockets.is_none() {
        setup.pockets = Some(Default::default());
    }
    Ok(setup)
}

/// The `--last-move` argument: a UCI move.
fn parse_last_move(text: &str) -> anyhow::Result<LastMove> {
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

    #[test]
    fn startpos_and_fen() {
        assert_eq!(parse_position("startpos", None).unwrap(), Setup::initial());
        assert_eq!(
            parse_position(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                None
            )
            .unwrap(),
            Setup::initial()
        );
        assert!(parse_position("rnbqkbnr/ppp", None).is_err());
        // Illegal positions are drawn too.
        assert_eq!(
            parse_position("8/8/8/8/8/8/8/8", None)
                .unwrap()
                .board
                .occupied()
                .count(),
            0
        );
    }
}
