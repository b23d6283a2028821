//! `tabia fen`: apply moves to a position and print its FEN, EPD or key.

use std::io::Write;

use tabia_position::{EpRule, GameVariant, Position};

use crate::cli::{EpArg, Status};

/// Arguments of `tabia fen`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The position: a FEN, a partial FEN (missing fields are `w - - 0 1`), an EPD, or
    /// `startpos`.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Moves to play in order: SAN (`Nf3`), UCI (`g1f3`) or long algebraic (`Ng1-f3`);
    /// Crazyhouse drops as `N@f3`.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// The rules: a lichess variant (`crazyhouse`, `atomic`, `three-check`, `horde`,
    /// `racing-kings`, `king-of-the-hill`, `antichess`) or `chess960`. Default: standard
    /// chess, or Crazyhouse / Three-check when the FEN has pockets / check counters.
    #[arg(long, value_name = "NAME", value_parser = tabia_position::parse_variant)]
    variant: Option<GameVariant>,
    /// Print the position key (placement, side, castling, en passant only if a capture is
    /// legal; no clocks).
    #[arg(long, conflicts_with_all = ["epd", "zobrist"])]
    key: bool,
    /// Print the EPD (the four position fields).
    #[arg(long, conflicts_with = "zobrist")]
    epd: bool,
    /// Print the 64-bit Polyglot Zobrist hash, in hexadecimal.
    #[arg(long)]
    zobrist: bool,
    /// Which en-passant square to write.
    #[arg(long, value_enum, default_value_t = EpArg::Always)]
    ep: EpArg,
    /// Print one JSON object with the FEN, EPD, key and Zobrist hash.
    #[arg(long, conflicts_with_all = ["key", "epd", "zobrist"])]
    json: bool,
}

/// The `--json` object (`docs/schema.md`).
#[derive(Debug, serde::Serialize)]
struct Record<'a> {
    position: &'a str,
    fen: String,
    epd: String,
    key: String,
    zobrist: String,
}

/// Runs `tabia fen`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let mut pos = match Position::from_arg_variant(&args.position, args.variant) {
        Ok(pos) => pos,
        Err(err) => {
            eprintln!("tabia: {err}");
            return Ok(Status::SomeBad);
        }
    };
    for (ply, text) in args.moves.iter().enumerate() {
        match pos.parse_move(text) {
            Ok(m) => pos.play_unchecked(m),
            Err(err) => {
                eprintln!("tabia: move {}: {err}", ply + 1);
                return Ok(Status::SomeBad);
            }
        }
    }
    let ep = EpRule::from(args.ep);
    let line = if args.json {
        let record = Record {
            position: &args.position,
            fen: pos.fen(ep),
            epd: pos.epd(ep),
            key: pos.key().to_string(),
            zobrist: format!("{:016x}", pos.zobrist()),
        };
        serde_json::to_string(&record)?
    } else if args.key {
        pos.key().to_string()
    } else if args.zobrist {
        format!("{:016x}", pos.zobrist())
    } else if args.epd {
        pos.epd(ep)
    } else {
        pos.fen(ep)
    };
    writeln!(std::io::stdout().lock(), "{line}")?;
    Ok(Status::Success)
}
