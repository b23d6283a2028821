//! `tabia filter`: the games that match criteria on their tags, players, ratings, openings,
//! positions, board patterns, material and moves (the library is `tabia-select`).
//!
//! Each game is matched by a [`Matcher`] as it is read: tag criteria decide before the
//! movetext (skipped unread when they decide), position criteria replay the moves, and a game
//! is read no further once decided. Every game is matched in the one pass that reads it,
//! keeping the bytes of the selected ones only: with one job or with `--limit` (so that reading
//! stops right after the N-th match) on the one thread, with several jobs by each worker on the
//! games of its piece of the input. A selected game is then checked like `tabia pgn` checks it
//! and written, in export format by the [`Exporter`](tabia_position::Exporter) as it is read
//! again, else from its tree (other output forms, `--json`, `--mark`) — or written as it was
//! read with `--raw`.

use std::{
    io::{BufRead, Write},
    mem,
    num::NonZeroU64,
    path::PathBuf,
    sync::atomic::{AtomicU64, Ordering},
};

use serde::Serialize;
use tabia_collect::Form;
use tabia_notation::pgn::{Game, Origin, PgnReader, RawGame, ReadError};
use tabia_position::{ReplayError, shakmaty::Color};
use tabia_select::{
    Bounds, Criterion, DateRange, EcoRange, EloRange, FenPattern, GameNumbers, Hit, Matcher,
    Material, MoveSequence, NamePattern, Options, PositionTarget, Query, ResultCriterion, Side,
    TagCriterion, VariantName, Verdict, Zobrist,
};
use tabia_stream::Visited;

use crate::{
    cli::{RunArgs, Status},
    form::FormArgs,
    input::Source,
    output::OutputArg,
    parallel::{Counter, Sink, Weigh, each},
    record,
    report::Diagnostic,
    session::Session,
};

/// The pieces of input the workers take, 1 MiB: a query that its tags decide spends most of
/// its time finding where each game ends, and every piece costs a hand-over between threads
/// (with the pipeline's 256 KiB, a tag query that writes nothing took 10% longer on 100 MB on
/// two cores). Memory stays bounded: `2 × jobs + 2` pieces and their output at a time.
const BATCH_BYTES: usize = 1 << 20;

/// Arguments of `tabia filter` (its examples are in `cli.rs`).
///
/// Different criteria must all hold (AND); the same criterion given several times holds when
/// any of its values does (OR), as in pgn-extract. `--tag` criteria group by tag name.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Criteria on tags")]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE", help_heading = "Input and progress")]
    pub(crate) files: Vec<PathBuf>,

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
    /// Stop after N matches (and stop reading).
    #[arg(long, value_name = "N", help_heading = "Output")]
    limit: Option<NonZeroU64>,
    /// Add a {match: CRITERION} comment after the move where the game matched, and a MatchPly
    /// tag.
    #[arg(long, conflicts_with = "invert", help_heading = "Output")]
    mark: bool,
    /// One JSON object per game (NDJSON): as `tabia pgn --json` (in the output form), plus a
    /// `match` object.
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// Write each selected game byte for byte as it was read instead of in export format: the
    /// fastest output, as the game is neither parsed again nor checked (moves the criteria did
    /// not replay are not looked at).
    #[arg(long, conflicts_with_all = ["json", "mark"], help_heading = "Output")]
    raw: bool,
    #[command(flatten, next_help_heading = "Output")]
    out: OutputArg,
    #[command(flatten, next_help_heading = "Input and progress")]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    form: FormArgs,
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(format!("expected w or b, not `{text}`")),
    }
}

impl Args {
    /// The criteria of the lines of each `--criteria-file`, in order.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or a line that is not a criterion, named with its line.
    fn file_criteria(&self) -> anyhow::Result<Vec<Criterion>> {
        let mut criteria = Vec::new();
        for path in &self.criteria_file {
            let text = std::fs::read_to_string(path)
                .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?;
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                // As on the command line, the dashes optional: the library reads it
                // (`Criterion::from_option`, what the Python bindings use too).
                let criterion = line
                    .parse::<Criterion>()
                    .map_err(|err| anyhow::anyhow!("{}:{}: {err}", path.display(), i + 1))?;
                criteria.push(criterion);
            }
        }
        Ok(criteria)
    }

    /// The query the arguments ask for, with `more` criteria (from files) after theirs.
    fn query(&self, more: Vec<Criterion>) -> Query {
        let mut criteria = Vec::new();
        criteria.extend(self.tag.iter().cloned().map(Criterion::Tag));
        criteria.extend(
            self.player
                .iter()
                .cloned()
                .map(|p| Criterion::Player(Side::Either, p)),
        );
        criteria.extend(
            self.white
                .iter()
                .cloned()
                .map(|p| Criterion::Player(Side::White, p)),
        );
        criteria.extend(
            self.black
                .iter()
                .cloned()
                .map(|p| Criterion::Player(Side::Black, p)),
        );
        criteria.extend(self.result.iter().copied().map(Criterion::Result));
        criteria.extend(self.elo.iter().copied().map(Criterion::Elo));
        criteria.extend(self.date.iter().copied().map(Criterion::Date));
        criteria.extend(self.variant.iter().cloned().map(Criterion::Variant));
        criteria.extend(self.eco.iter().cloned().map(Criterion::Eco));
        criteria.extend(self.position.iter().cloned().map(Criterion::Position));
        criteria.extend(self.zobrist.iter().copied().map(Criterion::Zobrist));
        criteria.extend(self.moves.iter().cloned().map(Criterion::Moves));
        criteria.extend(self.fen_pattern.iter().cloned().map(Criterion::FenPattern));
        criteria.extend(
            self.fen_pattern_either
                .iter()
                .cloned()
                .map(|p| Criterion::FenPattern(p.either())),
        );
        criteria.extend(self.material.iter().cloned().map(Criterion::Material));
        criteria.extend(
            self.material_as_written
                .iter()
                .cloned()
                .map(|m| Criterion::Material(m.as_written())),
        );
        criteria.extend(self.piece_count.iter().copied().map(Criterion::PieceCount));
        criteria.extend(self.plies.iter().copied().map(Criterion::Plies));
        use tabia_select::Feature;
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
        criteria.extend(more);
        Query::new(
            criteria,
            Options {
                variations: self.variations,
                ply_range: self.ply_range,
                to_move: self.to_move,
                eco_by_position: self.eco_by_position,
            },
        )
    }
}

/// What the run shares with every worker.
struct Context<'a> {
    name: &'a str,
    args: &'a Args,
    form: &'a Form,
    query: &'a Query,
    matched: Counter,
    /// The tags of the query some game had (`Verdict::tags_present`, or'ed), and bit 63
    /// once a game was read.
    tags_seen: &'a AtomicU64,
}

impl Context<'_> {
    /// Notes which of the query's tags a game read has.
    fn saw(&self, verdict: &Verdict) {
        let bits = verdict.tags_present | 1 << 63;
        // A load first: once every tag was seen, no write to the shared line.
        if self.tags_seen.load(Ordering::Relaxed) & bits != bits {
            self.tags_seen.fetch_or(bits, Ordering::Relaxed);
        }
    }
}

/// Runs `tabia filter`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let query = args.query(args.file_criteria()?);
    let form = args.form.form()?;
    if args.raw && !form.is_export() {
        anyhow::bail!("--raw writes the games as they were read: it takes no output form option");
    }
    let mut session = Session::to_output(&args.run, &args.out, &args.files, "games")?;
    session.prefer_batch_bytes(BATCH_BYTES);
    let matched = session.counter("matched");
    let mut left = args.limit.map(NonZeroU64::get);
    let on_reader = session.jobs() == 1 || left.is_some();
    let tags_seen = AtomicU64::new(0);
    for source in Source::from_args(&args.files) {
        if left == Some(0) {
            break;
        }
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let ctx = Context {
            name: &name,
            args,
            form: &form,
            query: &query,
            matched,
            tags_seen: &tags_seen,
        };
        if on_reader {
            let work = each(|sink: &mut Sink, number, item: &_| {
                write_matched(&ctx, sink, number, item);
            });
            session.items(
                input,
                |reader| matched_on_reader(reader, &query, args.invert, left.as_mut()),
                &work,
                |()| Ok(()),
            )?;
        } else {
            // Each worker matches the games of its piece of the input as it reads them: the
            // movetext of a game that its tags rule out is skipped, never copied.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, Matched>| {
                let verdict = match game.output {
                    Ok(out) => out.map_err(|err| Diagnostic::located("", 0, &err)),
                    Err(err) => Err(Diagnostic::from_game_error("", 0, &err)),
                };
                selected(&ctx, sink, number, game.bytes, game.start, verdict);
            });
            session.visit(input, || Matcher::new(&query), &work, |()| Ok(()))?;
        }
    }
    if !args.run.quiet {
        session.out().flush()?;
        for line in missing_tags(&query, tags_seen.into_inner()) {
            eprintln!("tabia: {line}");
        }
    }
    Ok(session.finish()?)
}

/// What the matcher makes of a game it read.
type Matched = Result<Verdict, ReplayError>;

/// What to say of each `--tag` criterion's tag that no game read had (`seen`: the or'ed
/// `Verdict::tags_present`, bit 63 once a game was read): a misspelt name matches nothing,
/// which looks like a selection that found nothing.
fn missing_tags(query: &Query, seen: u64) -> Vec<String> {
    if seen & 1 << 63 == 0 {
        return Vec::new();
    }
    let present: Vec<&str> = query
        .tag_names()
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < 63 && seen & 1 << i != 0)
        .map(|(_, name)| name.as_str())
        .collect();
    let mut lines = Vec::new();
    for (i, name) in query.tag_names().iter().enumerate().take(63) {
        let asked = query
            .criteria()
            .iter()
            .any(|c| matches!(c, Criterion::Tag(c) if c.name() == name));
        if seen & 1 << i != 0 || !asked {
            continue;
        }
        let mut line = format!("no game has a tag {name}");
        if let Some(close) = tabia_select::close_tag_name(name, &present) {
            line += &format!(" (did you mean {close}?)");
        }
        lines.push(line);
    }
    lines
}

/// Writes a game whose verdict is known if it is selected, or reports it.
fn selected(
    ctx: &Context<'_>,
    sink: &mut Sink,
    number: u64,
    bytes: &[u8],
    start: Origin,
    verdict: Result<Verdict, Diagnostic>,
) {
    let json = ctx.args.json;
    let verdict = match verdict {
        Ok(verdict) => {
            ctx.saw(&verdict);
            verdict
        }
        Err(mut diagnostic) => {
            diagnostic.file = ctx.name.to_owned();
            sink.reject(&diagnostic.game(number), json);
            return;
        }
    };
    let numbered = ctx.args.game.as_ref().is_none_or(|g| g.contains(number));
    if (verdict.matched && numbered) == ctx.args.invert {
        return;
    }
    if ctx.args.raw {
        sink.bump(ctx.matched);
        sink.out.extend_from_slice(bytes);
        sink.out.extend_from_slice(b"\n\n");
        return;
    }
    let raw = RawGame {
        bytes: bytes.to_vec(),
        start,
    };
    if ctx.form.is_export() && !json && !ctx.args.mark && export(ctx, sink, number, &raw) {
        return;
    }
    let mut game = match crate::input::parse_game(&raw) {
        Ok(game) => game,
        Err(err) => {
            sink.reject(&Diagnostic::from_game_error(ctx.name, number, &err), json);
            return;
        }
    };
    // Checked and repaired as `tabia pgn` does, its warnings reported.
    let warnings: Vec<Diagnostic> = match tabia_position::repair_game(&mut game) {
        Ok(replayed) => replayed
            .warnings
            .iter()
            .map(|w| Diagnostic::from_warning(ctx.name, number, w))
            .collect(),
        Err(err) => {
            sink.reject(&Diagnostic::located(ctx.name, number, &err), json);
            return;
        }
    };
    for warning in &warnings {
        sink.warning(warning);
    }
    let hit = verdict.hit.filter(|_| !ctx.args.invert);
    if ctx.args.mark
        && let Some(hit) = &hit
    {
        mark(&mut game, ctx.query, hit);
    }
    sink.bump(ctx.matched);
    let written = if json {
        let hit = hit.as_ref().map(|hit| MatchRecord::new(ctx.query, hit));
        record::game_lines(
            &mut sink.out,
            &mut Vec::new(),
            ctx.name,
            number,
            game,
            ctx.form,
            &warnings,
            hit.as_ref(),
        )
    } else if ctx.form.is_export() {
        // Writing to a Vec cannot fail.
        let _ = write!(sink.out, "{game}\n\n");
        crate::input::give_back(game);
        Ok(1)
    } else {
        ctx.form.write(game, &mut sink.out)
    };
    if let Err(err) = written {
        sink.reject(&Diagnostic::located(ctx.name, number, &err), json);
    }
}

/// Checks and writes a selected game in export format as it is read, with no tree (the same
/// text and diagnostics as from the tree, as `tabia pgn` does); `false` when its export needs
/// its tree, which then writes it.
fn export(ctx: &Context<'_>, sink: &mut Sink, number: u64, raw: &RawGame) -> bool {
    crate::input::with_exporter(|exporter| {
        let checked = match crate::input::visit(raw, exporter) {
            Ok(Ok(checked)) => checked,
            Ok(Err(err)) => {
                sink.reject(&Diagnostic::located(ctx.name, number, &err), false);
                return true;
            }
            Err(err) => {
                sink.reject(&Diagnostic::from_game_error(ctx.name, number, &err), false);
                return true;
            }
        };
        let Some(text) = exporter.bytes() else {
            return false;
        };
        for warning in &checked.warnings {
            sink.warning(&Diagnostic::from_warning(ctx.name, number, warning));
        }
        sink.bump(ctx.matched);
        sink.out.extend_from_slice(text);
        sink.out.extend_from_slice(b"\n\n");
        true
    })
}

/// Adds the `MatchPly` tag and the `{match: …}` comment after the move where the game matched.
fn mark(game: &mut Game, query: &Query, hit: &Hit) {
    let Some(ply) = hit.ply else {
        return;
    };
    game.tags.retain(|(name, _)| name != "MatchPly");
    game.tags.push(("MatchPly".to_owned(), ply.to_string()));
    let comment = format!("match: {}", query.criteria()[hit.criterion]);
    let mut line = &mut game.mainline;
    for &(m, v) in &hit.path {
        let Some(next) = line
            .moves
            .get_mut(m as usize)
            .and_then(|mv| mv.variations.get_mut(v as usize))
        else {
            return;
        };
        line = next;
    }
    match (hit.index as usize).checked_sub(1) {
        None => line.comments.push(comment),
        Some(i) => {
            if let Some(mv) = line.moves.get_mut(i) {
                mv.comments.push(comment);
            }
        }
    }
}

/// What the reading thread makes of a game it matched: its verdict, and its bytes when it is
/// selected (and may have to be written).
struct Item {
    raw: Option<RawGame>,
    verdict: Result<Verdict, Diagnostic>,
}

impl Weigh for Item {
    fn weight(&self) -> usize {
        self.raw.as_ref().map_or(0, |raw| raw.bytes.len()) + mem::size_of::<Item>()
    }
}

/// The games of an input matched on the reading thread, each read once (the bytes of the
/// selected ones kept); ends after `left` selected games when there is a limit.
fn matched_on_reader<'a>(
    reader: Box<dyn BufRead + Send>,
    query: &'a Query,
    invert: bool,
    mut left: Option<&'a mut u64>,
) -> impl Iterator<Item = anyhow::Result<Item>> + Send + 'a {
    let mut games = PgnReader::new(reader);
    let mut matcher = Matcher::new(query);
    std::iter::from_fn(move || {
        if left.as_deref() == Some(&0) {
            return None;
        }
        let keep = |out: &Result<Verdict, ReplayError>| {
            out.as_ref().is_ok_and(|verdict| verdict.matched != invert)
        };
        let (out, raw) = match games.read_game_keeping(&mut matcher, keep) {
            Ok(Some(read)) => read,
            Ok(None) => return None,
            Err(ReadError::Io(io)) => {
                return Some(Err(anyhow::Error::new(io).context("read error")));
            }
            Err(other) => {
                let verdict = Err(Diagnostic::from_game_error("", 0, &other));
                return Some(Ok(Item { raw: None, verdict }));
            }
        };
        if raw.is_some()
            && let Some(left) = left.as_deref_mut()
        {
            // A selected game that turns out bad when written is reported, not counted: the
            // limit counts the games selected, which is what reading has to stop on.
            *left -= 1;
        }
        let verdict = out.map_err(|err| Diagnostic::located("", 0, &err));
        Some(Ok(Item { raw, verdict }))
    })
}

/// Writes or reports a game matched on the reading thread.
fn write_matched(ctx: &Context<'_>, sink: &mut Sink, number: u64, item: &Item) {
    match (&item.raw, &item.verdict) {
        (Some(raw), verdict) => selected(ctx, sink, number, &raw.bytes, raw.start, verdict.clone()),
        (None, Err(diagnostic)) => {
            let mut diagnostic = diagnostic.clone();
            diagnostic.file = ctx.name.to_owned();
            sink.reject(&diagnostic.game(number), ctx.args.json);
        }
        (None, Ok(verdict)) => ctx.saw(verdict),
    }
}

/// The `match` object of a `--json` line.
#[derive(Debug, Serialize)]
struct MatchRecord {
    criterion: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    variation: bool,
}

impl MatchRecord {
    fn new(query: &Query, hit: &Hit) -> MatchRecord {
        MatchRecord {
            criterion: query.criteria()[hit.criterion].to_string(),
            ply: hit.ply,
            fen: hit.fen.clone(),
            variation: !hit.path.is_empty(),
        }
    }
}
