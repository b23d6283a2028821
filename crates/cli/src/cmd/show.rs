//! `tabia show`: render one position as ASCII, Unicode, SVG, PNG, LaTeX or HTML.
//!
//! `tabia-position` reads the position ([`diagram_setup`]) and renders it ([`render`]);
//! where the rendering goes and `--last-move` are `ops::show`'s.

use std::path::PathBuf;

use anyhow::Context;
use tabia_position::{GameVariant, RenderFormat, RenderOptions, diagram_setup, render};

use crate::{
    cli::Status,
    ops::show::{Destination, parse_last_move},
    output::ForceArg,
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
    let policy = args.existing.policy();
    let destination = Destination::open(args.output.as_deref(), policy, format)?;
    let text = &args.position;
    // Any placement is drawn, legal or not (a composed diagram needs no kings).
    let setup =
        diagram_setup(text, args.variant).with_context(|| format!("invalid position `{text}`"))?;
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
    destination.write(&render(&setup, format, &options)?)?;
    Ok(Status::Success)
}
