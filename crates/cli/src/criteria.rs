//! The selection criteria as command-line options: [`CriteriaArgs`], flattened by `tabia
//! filter` (as `FormArgs` is by the commands that write games), and the
//! [`Selection`] they make — the criteria of the options in their
//! order, then those of each `--criteria-file`, with the query's options, `--invert` and
//! `--game`. The criteria themselves are `tabia-select`'s types, read by clap with their
//! `FromStr`.

use std::path::PathBuf;

use tabia_position::shakmaty::Color;
use tabia_select::{
    Bounds, Criterion, DateRange, EcoRange, EloRange, Feature, FenPattern, GameNumbers, Material,
    MoveSequence, NamePattern, Options, PositionTarget, Query, ResultCriterion, Selection, Side,
    TagCriterion, VariantName, Zobrist,
};

/// The criteria of `tabia filter`, with where they look, `--game`, `--criteria-file` and
/// `--invert`.
///
/// Different criteria must all hold (AND); the same criterion given several times holds when
/// any of its values does (OR), as in pgn-extract. `--tag` criteria group by tag name.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Criteria on tags")]
pub(crate) struct CriteriaArgs {
    /// A tag compared with a value: `NAME OP VALUE`, OP one of `= != < <= > >= ~ !~` (`~`: a
    /// regular expression). Numbers compare as numbers, Date/UTCDate/EventDate as dates with
    /// `??` parts, TimeControl by its base time; a missing tag only matches `!=` and `!~`. A
    /// value that starts with an operator's character goes in double quotes (`Event="=x"`).
    #[arg(long, value_name = "NAME OP VALUE")]
    tag: Vec<TagCriterion>,
    /// White or Black contains NAME (case and accents ignored); `~REGEX` for a regular
    /// expression.
    #[arg(long, value_name = "NAME")]
    player: Vec<NamePattern>,
    /// White contains NAME (as --player).
    #[arg(long, value_name = "NAME")]
    white: Vec<NamePattern>,
    /// Black contains NAME (as --player).
    #[arg(long, value_name = "NAME")]
    black: Vec<NamePattern>,
    /// The Result tag: 1-0, 0-1, 1/2-1/2 (or draw), *, or decisive.
    #[arg(long, value_name = "RESULT")]
    result: Vec<ResultCriterion>,
    /// Both players' ratings (WhiteElo, BlackElo) at least MIN (and at most MAX).
    #[arg(long, value_name = "MIN[..MAX]")]
    elo: Vec<EloRange>,
    /// The Date tag within FROM..TO (YYYY, YYYY.MM or YYYY.MM.DD; either end may be left out).
    #[arg(long, value_name = "FROM..TO")]
    date: Vec<DateRange>,
    /// The variant: standard (also no Variant tag), chess960, or a Variant tag's name.
    #[arg(long, value_name = "NAME")]
    variant: Vec<VariantName>,
    /// ECO codes: one (B90), a prefix (B9, B) or a range (A00-B19); from the ECO tag, or by
    /// position with --eco-by-position.
    #[arg(long, value_name = "CODES")]
    eco: Vec<EcoRange>,
    /// --eco classifies each game by its positions (the embedded opening table, transpositions
    /// included) instead of reading its ECO tag.
    #[arg(long, requires = "eco")]
    eco_by_position: bool,
    /// The player with the higher rating won.
    #[arg(long)]
    higher_rated_won: bool,
    /// The player with the lower rating won.
    #[arg(long)]
    lower_rated_won: bool,

    /// The mainline reaches this position by any move order: a FEN, EPD or `startpos` (the
    /// position key: placement, side to move, castling, en passant when a capture is
    /// possible; no clocks), or a bare placement (either side to move, any castling rights,
    /// as `tree --position` reads it).
    #[arg(long, value_name = "POSITION", help_heading = "Criteria on positions")]
    position: Vec<PositionTarget>,
    /// A position with this 64-bit Polyglot hash (16 hex digits) is reached.
    #[arg(long, value_name = "HEX", help_heading = "Criteria on positions")]
    zobrist: Vec<Zobrist>,
    /// The mainline starts with these moves, e.g. '1. d4 Nf6 2. c4 e6'.
    #[arg(long, value_name = "MOVES", help_heading = "Criteria on positions")]
    moves: Vec<MoveSequence>,
    /// A position matches a pgn-extract FENPattern: `?` any square, `!` occupied, `A`/`a` a
    /// white/black piece, `m` no pawn, `M` a piece but not a pawn, `*` zero or more squares,
    /// `[xyz]`/`[^xyz]` sets, digits empty squares.
    #[arg(long, value_name = "PATTERN", help_heading = "Criteria on positions")]
    fen_pattern: Vec<FenPattern>,
    /// As --fen-pattern, also with the colours swapped.
    #[arg(long, value_name = "PATTERN", help_heading = "Criteria on positions")]
    fen_pattern_either: Vec<FenPattern>,
    /// One side has exactly these pieces and the other those, either colour ('RP NB'; kings
    /// implied; pgn-extract's -z syntax: `*`, `+`, `d`, `d+`, `d-`, `=`, `#`, `<`, `>`).
    #[arg(long, value_name = "SIDE SIDE", help_heading = "Criteria on positions")]
    material: Vec<Material>,
    /// As --material, with the first side White.
    #[arg(
        long,
        value_name = "WHITE BLACK",
        help_heading = "Criteria on positions"
    )]
    material_as_written: Vec<Material>,
    /// A position with N pieces (kings included), or MIN..MAX.
    #[arg(long, value_name = "N", help_heading = "Criteria on positions")]
    piece_count: Vec<Bounds>,
    /// Position criteria also search the variations.
    #[arg(long, help_heading = "Criteria on positions")]
    variations: bool,
    /// Position criteria only match at plies A..B (0 is the start position).
    #[arg(long, value_name = "A..B", help_heading = "Criteria on positions")]
    ply_range: Option<Bounds>,
    /// Position criteria only match with this side to move.
    #[arg(long, value_name = "w|b", value_parser = parse_side, help_heading = "Criteria on positions")]
    to_move: Option<Color>,

    /// The game has MIN..MAX mainline plies (or exactly N).
    #[arg(long, value_name = "MIN..MAX", help_heading = "Criteria on the game")]
    plies: Vec<Bounds>,
    /// The mainline ends in checkmate.
    #[arg(long, help_heading = "Criteria on the game")]
    checkmate: bool,
    /// The mainline ends in stalemate.
    #[arg(long, help_heading = "Criteria on the game")]
    stalemate: bool,
    /// The mainline ends with insufficient material to mate.
    #[arg(long, help_heading = "Criteria on the game")]
    insufficient: bool,
    /// A position occurs three times in the mainline.
    #[arg(long, help_heading = "Criteria on the game")]
    repetition: bool,
    /// Fifty moves each without a capture or pawn move (the halfmove clock reaches 100).
    #[arg(long, help_heading = "Criteria on the game")]
    fifty: bool,
    /// A pawn promotes to a knight, bishop or rook.
    #[arg(long, help_heading = "Criteria on the game")]
    underpromotion: bool,
    /// The game has a comment.
    #[arg(long, help_heading = "Criteria on the game")]
    commented: bool,
    /// The game has a variation.
    #[arg(long, help_heading = "Criteria on the game")]
    has_variations: bool,
    /// The game has clock comments ([%clk ...]).
    #[arg(long, help_heading = "Criteria on the game")]
    has_clocks: bool,

    /// Only games with these numbers in their input (`17`, or a list with ranges:
    /// `5,17-20`), numbered from 1 as errors name them; with other criteria, games that meet
    /// both.
    #[arg(
        long,
        value_name = "N,A-B",
        conflicts_with = "limit",
        help_heading = "Output"
    )]
    game: Option<GameNumbers>,
    /// Criteria read from FILE, one a line as on the command line (`--player Carlsen`, or
    /// `player Carlsen`; `tag Event~^Tata`); blank lines and lines starting with `#` are
    /// skipped. A list of 200 players is one argument (pgn-extract's -t).
    #[arg(long, value_name = "FILE", help_heading = "Criteria from a file")]
    criteria_file: Vec<PathBuf>,
    /// Write the games that do not match instead.
    #[arg(long, help_heading = "Output")]
    invert: bool,
}

/// The criteria on a side's player names.
fn players(side: Side, names: &[NamePattern]) -> impl Iterator<Item = Criterion> + '_ {
    names
        .iter()
        .map(move |name| Criterion::Player(side, name.clone()))
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(format!("expected w or b, not `{text}`")),
    }
}

impl CriteriaArgs {
    /// The selection the options ask for: their criteria in order, then those of each
    /// `--criteria-file`.
    ///
    /// # Errors
    ///
    /// A criteria file that cannot be read, or a line of one that is not a criterion, named
    /// with its line.
    pub(crate) fn selection(&self) -> anyhow::Result<Selection> {
        let mut criteria = self.criteria();
        for path in &self.criteria_file {
            let text = std::fs::read_to_string(path)
                .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?;
            let more = Criterion::parse_list(&text)
                .map_err(|err| anyhow::anyhow!("{}:{}: {}", path.display(), err.line, err.error))?;
            criteria.extend(more);
        }
        let options = Options {
            variations: self.variations,
            ply_range: self.ply_range,
            to_move: self.to_move,
            eco_by_position: self.eco_by_position,
        };
        Ok(Selection::new(Query::new(criteria, options))
            .invert(self.invert)
            .games(self.game.clone()))
    }

    /// The criteria of the options, in the order of `--help`.
    fn criteria(&self) -> Vec<Criterion> {
        let mut criteria: Vec<Criterion> = (self.tag.iter().cloned().map(Criterion::Tag))
            .chain(players(Side::Either, &self.player))
            .chain(players(Side::White, &self.white))
            .chain(players(Side::Black, &self.black))
            .chain(self.result.iter().copied().map(Criterion::Result))
            .chain(self.elo.iter().copied().map(Criterion::Elo))
            .chain(self.date.iter().copied().map(Criterion::Date))
            .chain(self.variant.iter().cloned().map(Criterion::Variant))
            .chain(self.eco.iter().cloned().map(Criterion::Eco))
            .chain(self.position.iter().cloned().map(Criterion::Position))
            .chain(self.zobrist.iter().copied().map(Criterion::Zobrist))
            .chain(self.moves.iter().cloned().map(Criterion::Moves))
            .chain(self.fen_pattern.iter().cloned().map(Criterion::FenPattern))
            .chain(
                self.fen_pattern_either
                    .iter()
                    .map(|p| Criterion::FenPattern(p.clone().either())),
            )
            .chain(self.material.iter().cloned().map(Criterion::Material))
            .chain(
                self.material_as_written
                    .iter()
                    .map(|m| Criterion::Material(m.clone().as_written())),
            )
            .chain(self.piece_count.iter().copied().map(Criterion::PieceCount))
            .chain(self.plies.iter().copied().map(Criterion::Plies))
            .collect();
        for (on, feature) in [
            (self.checkmate, Feature::Checkmate),
            (self.stalemate, Feature::Stalemate),
            (self.insufficient, Feature::Insufficient),
            (self.repetition, Feature::Repetition),
            (self.fifty, Feature::Fifty),
            (self.underpromotion, Feature::Underpromotion),
            (self.commented, Feature::Commented),
            (self.has_variations, Feature::HasVariations),
            (self.has_clocks, Feature::HasClocks),
            (self.higher_rated_won, Feature::HigherRatedWon),
            (self.lower_rated_won, Feature::LowerRatedWon),
        ] {
            if on {
                criteria.push(Criterion::Feature(feature));
            }
        }
        criteria
    }
}
