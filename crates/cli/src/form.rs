//! The output forms of every subcommand that writes games (`pgn`, `filter`, `dedup`, `split`):
//! one flattened clap struct, turned into a [`tabia_collect::Form`].
//!
//! A subcommand flattens it and asks for the form once, before work starts:
//!
//! ```text
//! #[command(flatten)]
//! form: FormArgs,
//! ...
//! let form = args.form.form()?;           // a usage error for bad letters
//! form.write(game, &mut sink.out)?;       // each game, followed by its separator
//! ```

use std::num::NonZeroUsize;

use anyhow::bail;
use clap::ValueEnum;
use tabia_collect::{
    Form,
    notation::{
        UnknownValue,
        pgn::{CommandKind, Strip},
        san::Pieces,
    },
    position::{Notation, ReplayTags},
};

/// Options for how games are written (`docs/output.md`, "Output forms").
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Output form")]
pub(crate) struct FormArgs {
    /// How moves are written: `san` (as in the input), `lan` (long algebraic, `Ng1-f3`,
    /// `e7xd8=Q+`, `O-O`) or `uci` (`g1f3`, `e7d8q`; Chess960 castling as king takes rook).
    #[arg(long, value_name = "FORM", default_value = "san")]
    pub(crate) notation: NotationArg,
    /// Figurines (♘f3) instead of piece letters.
    #[arg(long, conflicts_with = "lang")]
    pub(crate) figurine: bool,
    /// Piece letters of a language (`de`, `fr`, `es`, `nl`, `it`, `pt`, `sv`, `da`, `no`,
    /// `fi`, `pl`, `cs`, `hu`, `is`, `ro`, `en`), or six letters for pawn, knight, bishop,
    /// rook, queen, king as pgn-extract's `-Wsan<letters>` takes them (`BSLTDK`).
    #[arg(long, value_name = "LANG")]
    pub(crate) lang: Option<String>,
    /// Remove these from every game (comma-separated): `comments`, `nags`, `variations`,
    /// `tags` (all but the Seven Tag Roster and FEN, SetUp, Variant), or commands inside
    /// comments: `clocks` ([%clk], [%emt]), `evals` ([%eval]), `arrows` ([%cal], [%csl]),
    /// `commands` (every [%...]); a comment left empty is dropped.
    #[arg(long, value_name = "KIND,...", value_delimiter = ',')]
    pub(crate) strip: Vec<StripKind>,
    /// Leave out the tags (only the movetext is written).
    #[arg(long)]
    pub(crate) no_tags: bool,
    /// Leave out move numbers.
    #[arg(long)]
    pub(crate) no_move_numbers: bool,
    /// Leave out the result at the end of the movetext.
    #[arg(long)]
    pub(crate) no_results: bool,
    /// The longest line, in characters; 0 writes each game on one line (tags included).
    #[arg(long, value_name = "N", default_value_t = 79)]
    pub(crate) line_length: usize,
    /// Add to every game (comma-separated): `plycount` (PlyCount tag), `zobrist` (Zobrist
    /// tag: Polyglot hash of the final position), `final-fen` (FinalFEN tag), `eco` (ECO,
    /// Opening, Variation tags by position), `fen-comments` (a FEN comment after every move).
    #[arg(long, value_name = "WHAT,...", value_delimiter = ',')]
    pub(crate) add: Vec<AddKind>,
    /// Also write every variation as a game of its own (the moves up to the branch, then
    /// the variation), down to DEPTH levels of nesting if given.
    #[arg(
        long,
        value_name = "DEPTH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    pub(crate) split_variations: Option<DepthArg>,
}

/// `--notation`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum NotationArg {
    /// Standard algebraic notation, as in the input.
    #[default]
    San,
    /// Long algebraic notation.
    Lan,
    /// UCI.
    Uci,
}

/// One kind of `--strip`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StripKind {
    /// Every comment.
    Comments,
    /// Every NAG.
    Nags,
    /// Every variation.
    Variations,
    /// Every tag but the Seven Tag Roster (and FEN, SetUp, Variant).
    Tags,
    /// `[%clk]` and `[%emt]` commands.
    Clocks,
    /// `[%eval]` commands.
    Evals,
    /// `[%cal]` and `[%csl]` commands.
    Arrows,
    /// Every `[%...]` command.
    Commands,
}

/// One kind of `--add`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AddKind {
    /// A PlyCount tag.
    Plycount,
    /// A Zobrist tag.
    Zobrist,
    /// A FinalFEN tag.
    FinalFen,
    /// ECO, Opening and Variation tags.
    Eco,
    /// A FEN comment after every move.
    FenComments,
}

/// `--split-variations [DEPTH]`: every level, or down to DEPTH.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DepthArg(pub(crate) Option<NonZeroUsize>);

impl std::str::FromStr for DepthArg {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<DepthArg, UnknownValue> {
        if s == "all" {
            return Ok(DepthArg(None));
        }
        s.parse::<NonZeroUsize>()
            .map(|n| DepthArg(Some(n)))
            .map_err(|_| UnknownValue::new("depth", s, "a positive number"))
    }
}

impl FormArgs {
    /// The form these options ask for.
    ///
    /// # Errors
    ///
    /// `--lang` is neither a known language nor six usable letters.
    pub(crate) fn form(&self) -> anyhow::Result<Form> {
        let mut form = Form {
            notation: match self.notation {
                NotationArg::San => Notation::San,
                NotationArg::Lan => Notation::Lan,
                NotationArg::Uci => Notation::Uci,
            },
            ..Form::default()
        };
        if self.figurine {
            form.options.pieces = Pieces::FIGURINE;
        } else if let Some(lang) = &self.lang {
            form.options.pieces = match Pieces::language(lang) {
                Some(pieces) => pieces,
                None => match lang.parse::<Pieces>() {
                    Ok(pieces) => pieces,
                    Err(_) => bail!(
                        "--lang {lang}: not a known language nor six letters for pawn, \
                         knight, bishop, rook, queen, king (such as BSLTDK)"
                    ),
                },
            };
        }
        let mut strip = Strip::default();
        for kind in &self.strip {
            match kind {
                StripKind::Comments => strip.comments = true,
                StripKind::Nags => strip.nags = true,
                StripKind::Variations => strip.variations = true,
                StripKind::Tags => strip.tags = true,
                StripKind::Clocks => strip
                    .commands
                    .extend([CommandKind::Clock, CommandKind::Emt]),
                StripKind::Evals => strip.commands.push(CommandKind::Eval),
                StripKind::Arrows => {
                    strip
                        .commands
                        .extend([CommandKind::Arrows, CommandKind::Squares]);
                }
                StripKind::Commands => strip.commands.extend([
                    CommandKind::Clock,
                    CommandKind::Emt,
                    CommandKind::Eval,
                    CommandKind::Arrows,
                    CommandKind::Squares,
                    CommandKind::Other,
                ]),
            }
        }
        form.strip = strip;
        let mut replay = ReplayTags::default();
        for kind in &self.add {
            match kind {
                AddKind::Plycount => replay.ply_count = true,
                AddKind::Zobrist => replay.zobrist = true,
                AddKind::FinalFen => replay.final_fen = true,
                AddKind::Eco => form.eco = true,
                AddKind::FenComments => form.fen_comments = true,
            }
        }
        form.replay_tags = replay;
        form.options.tags = !self.no_tags;
        form.options.move_numbers = !self.no_move_numbers;
        form.options.result = !self.no_results;
        form.options.line_length = self.line_length;
        form.split_variations = self
            .split_variations
            .map(|depth| depth.0.map(NonZeroUsize::get));
        Ok(form)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Probe {
        #[command(flatten)]
        form: FormArgs,
    }

    fn form(args: &[&str]) -> anyhow::Result<Form> {
        let mut all = vec!["probe"];
        all.extend_from_slice(args);
        Probe::try_parse_from(all)?.form.form()
    }

    #[test]
    fn defaults_are_the_export_format() {
        assert!(form(&[]).unwrap().is_export());
    }

    #[test]
    fn every_option_reaches_the_form() {
        let f = form(&[
            "--notation=uci",
            "--lang=de",
            "--strip=comments,nags,variations,tags,clocks,evals,arrows",
            "--no-tags",
            "--no-move-numbers",
            "--no-results",
            "--line-length=0",
            "--add=plycount,zobrist,final-fen,eco,fen-comments",
            "--split-variations=2",
        ])
        .unwrap();
        assert_eq!(f.notation, Notation::Uci);
        assert_eq!(f.options.pieces, Pieces::language("de").unwrap());
        assert!(f.strip.comments && f.strip.nags && f.strip.variations && f.strip.tags);
        assert!(!f.options.tags && !f.options.move_numbers && !f.options.result);
        assert_eq!(f.options.line_length, 0);
        assert!(f.replay_tags.ply_count && f.replay_tags.zobrist && f.replay_tags.final_fen);
        assert!(f.eco && f.fen_comments);
        assert_eq!(f.split_variations, Some(Some(2)));
        assert_eq!(
            form(&["--split-variations"]).unwrap().split_variations,
            Some(None)
        );
        assert_eq!(
            form(&["--lang", "PCFTDR"]).unwrap().options.pieces,
            Pieces::language("fr").unwrap()
        );
        assert_eq!(
            form(&["--figurine"]).unwrap().options.pieces,
            Pieces::FIGURINE
        );
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let err = form(&["--lang", "xx"]).unwrap_err().to_string();
        assert_eq!(
            err,
            "--lang xx: not a known language nor six letters for pawn, knight, bishop, rook, \
             queen, king (such as BSLTDK)"
        );
        assert!(form(&["--strip", "bogus"]).is_err());
        assert!(form(&["--figurine", "--lang", "de"]).is_err());
        assert!(form(&["--split-variations=0"]).is_err());
    }
}
