//! `tabia dedup`: keep one copy of each game, across inputs.
//!
//! Workers parse, check and digest each game and write it in the output form (on all cores);
//! the ordered stage ([`crate::frames`]) looks each digest up in the order of the input and
//! sends the game to the output or to `--duplicates`. Memory: one fixed-size entry per
//! distinct game ([`Seen`]), whatever the input size.

use std::{
    cell::RefCell,
    collections::HashMap,
    io::{self, Write},
    path::PathBuf,
};

use anyhow::bail;
use tabia_collect::{Best, DedupBy, Digest, Digester, Form, Location, Seen, annotations};
use tabia_notation::pgn::RawGame;

use crate::{
    check::{ReadGame, read_game},
    cli::{RunArgs, Status},
    form::FormArgs,
    frames::{self, Frames},
    input::Source,
    output,
    parallel::{Sink, each},
    record,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia dedup` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Write the kept games to FILE instead of standard output (`-`: standard output); not one
    /// of the inputs, which would be emptied before it is read.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Write the duplicates to FILE, each with a `DuplicateOf` tag naming the kept game
    /// (`FILE#N`: its input and its number there).
    #[arg(long, value_name = "FILE")]
    pub(crate) duplicates: Option<PathBuf>,
    /// What makes games duplicates: `moves` (same start position and mainline moves) or
    /// `position` (same final position and number of plies; pgn-extract -D also compares the
    /// positions on the way, so it keeps transpositions apart).
    #[arg(long, value_enum, default_value = "moves")]
    pub(crate) by: By,
    /// Duplicates are games with the same position after N plies (overrides --by).
    #[arg(long, value_name = "N")]
    pub(crate) fuzzy_depth: Option<u32>,
    /// Which copy is kept: the `first`, or the `most-annotated` (most comments, NAGs and
    /// tags; written at the first copy's place; reads the inputs twice, so files only).
    #[arg(long, value_enum, default_value = "first")]
    pub(crate) keep: Keep,
    /// One JSON object per game (NDJSON), as `tabia pgn --json` writes it in the output form;
    /// the duplicates (`--duplicates`) carry `duplicate_of` (`FILE#N`); a bad game gets an
    /// `error` object in the output.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// `--by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum By {
    /// Same start position and mainline moves.
    Moves,
    /// Same final position and ply count.
    Position,
}

/// `--keep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Keep {
    /// The first copy in input order.
    First,
    /// The copy with the most comments, NAGs and tags.
    MostAnnotated,
}

/// What a worker tells the ordered stage about one good game.
struct Header {
    digest: Digest,
    at: Location,
    score: u64,
    marks: Vec<usize>,
}

impl Header {
    fn encode(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(42 + 8 * self.marks.len());
        h.extend_from_slice(&self.digest.0[0].to_le_bytes());
        h.extend_from_slice(&self.digest.0[1].to_le_bytes());
        h.extend_from_slice(&self.at.input.to_le_bytes());
        h.extend_from_slice(&self.at.game.to_le_bytes());
        h.extend_from_slice(&self.score.to_le_bytes());
        for &m in &self.marks {
            h.extend_from_slice(&(m as u64).to_le_bytes());
        }
        h
    }

    fn decode(h: &[u8]) -> io::Result<Header> {
        let word = |i: usize| -> io::Result<u64> {
            h.get(i..i + 8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_le_bytes)
                .ok_or_else(|| io::Error::other("short dedup frame"))
        };
        let input = h
            .get(16..18)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| io::Error::other("short dedup frame"))?;
        let marks = (34..h.len())
            .step_by(8)
            .map(|i| word(i).map(|m| m as usize))
            .collect::<io::Result<_>>()?;
        Ok(Header {
            digest: Digest([word(0)?, word(8)?]),
            at: Location {
                input,
                game: word(18)?,
            },
            score: word(26)?,
            marks,
        })
    }
}

/// The ordered stage: the set of digests, the outputs and the counts.
struct Stage {
    form: Form,
    json: bool,
    names: Vec<String>,
    out: Box<dyn Write>,
    duplicates: Option<Box<dyn Write>>,
    seen: Seen,
    best: Best,
    /// `--keep most-annotated`, first pass: the text of each group's best copy so far, when
    /// it is not the first.
    texts: HashMap<Digest, Vec<u8>>,
    kept: u64,
    dups: u64,
}

impl Stage {
    /// `--keep first`: the first copy goes to the output, the others to `--duplicates`.
    fn first(&mut self, header: &[u8], body: &[u8]) -> io::Result<()> {
        if header.is_empty() {
            return self.out.write_all(body);
        }
        let h = Header::decode(header)?;
        match self.seen.first(h.digest, h.at) {
            None => {
                self.kept += 1;
                self.out.write_all(body)
            }
            Some(first) => {
                self.dups += 1;
                self.duplicate(&h, body, first)
            }
        }
    }

    /// `--keep most-annotated`, first pass: find each group's best copy and keep its text.
    fn rank(&mut self, header: &[u8], body: &[u8]) -> io::Result<()> {
        if header.is_empty() {
            return Ok(());
        }
        let h = Header::decode(header)?;
        let is_first = self.best.get(h.digest).is_none();
        if self.best.offer(h.digest, h.at, h.score) && !is_first {
            self.texts.insert(h.digest, body.to_vec());
        }
        Ok(())
    }

    /// `--keep most-annotated`, second pass: the best copy at the first one's place.
    fn most_annotated(&mut self, header: &[u8], body: &[u8]) -> io::Result<()> {
        if header.is_empty() {
            return self.out.write_all(body);
        }
        let h = Header::decode(header)?;
        let Some((first, best)) = self.best.get(h.digest) else {
            return Err(io::Error::other("an input changed between the two passes"));
        };
        if h.at == first {
            self.kept += 1;
            if best == first {
                return self.out.write_all(body);
            }
            let text = self
                .texts
                .remove(&h.digest)
                .ok_or_else(|| io::Error::other("an input changed between the two passes"))?;
            self.out.write_all(&text)?;
            self.dups += 1;
            self.duplicate(&h, body, best)
        } else if h.at == best {
            Ok(())
        } else {
            self.dups += 1;
            self.duplicate(&h, body, best)
        }
    }

    /// Writes a duplicate with its `DuplicateOf` tag.
    fn duplicate(&mut self, h: &Header, body: &[u8], of: Location) -> io::Result<()> {
        let Some(out) = &mut self.duplicates else {
            return Ok(());
        };
        let name = self
            .names
            .get(usize::from(of.input))
            .map_or("?", String::as_str);
        let value = format!("{name}#{}", of.game);
        let tag = if self.json {
            let value = serde_json::to_string(&value).map_err(io::Error::other)?;
            format!(",\"duplicate_of\":{value}")
        } else {
            self.form.tag_text("DuplicateOf", &value)
        };
        let mut from = 0;
        for &mark in &h.marks {
            let mark = mark.min(body.len());
            out.write_all(&body[from..mark])?;
            out.write_all(tag.as_bytes())?;
            from = mark;
        }
        out.write_all(&body[from..])
    }
}

/// Runs `tabia dedup`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let by = match (args.fuzzy_depth, args.by) {
        (Some(n), _) => DedupBy::FuzzyDepth(n),
        (None, By::Moves) => DedupBy::Moves,
        (None, By::Position) => DedupBy::Position,
    };
    let sources = Source::from_args(&args.files);
    if sources.len() > usize::from(u16::MAX) {
        bail!("at most {} inputs", u16::MAX);
    }
    let most_annotated = args.keep == Keep::MostAnnotated;
    if most_annotated && sources.iter().any(|s| matches!(s, Source::Stdin)) {
        bail!("--keep most-annotated reads its inputs twice: name files, not standard input");
    }
    let out = output::open(args.output.as_deref(), &args.files)?;
    let duplicates = args
        .duplicates
        .as_deref()
        .map(|path| output::create(path, &args.files))
        .transpose()?
        .map(|file| Box::new(file) as Box<dyn Write>);
    let json = args.json;
    let stage = RefCell::new(Stage {
        form: form.clone(),
        json,
        names: Vec::new(),
        out,
        duplicates,
        seen: Seen::default(),
        best: Best::default(),
        texts: HashMap::new(),
        kept: 0,
        dups: 0,
    });
    if most_annotated {
        let quiet = RunArgs {
            quiet: true,
            ..args.run.clone()
        };
        let frames = Frames::new(|h: &[u8], b: &[u8]| stage.borrow_mut().rank(h, b));
        let mut session = Session::with_writers(frames, io::sink(), &quiet, "games", false);
        for (index, source) in sources.iter().enumerate() {
            let Some(input) = session.open(source) else {
                continue;
            };
            let name = input.name.clone();
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                game(&name, index, by, &form, json, sink, number, raw, true);
            });
            session.games(input, &work, |()| Ok(()))?;
        }
        session.finish()?;
    }
    let frames = Frames::new(|h: &[u8], b: &[u8]| {
        let mut stage = stage.borrow_mut();
        if most_annotated {
            stage.most_annotated(h, b)
        } else {
            stage.first(h, b)
        }
    });
    let mut session = Session::with_output(frames, &args.run, "games");
    let kept = session.counter("kept");
    let dups = session.counter("duplicates");
    for (index, source) in sources.iter().enumerate() {
        stage.borrow_mut().names.push(source.name());
        let Some(input) = session.open(source) else {
            continue;
        };
        let name = input.name.clone();
        let work = each(|sink: &mut Sink, number, raw: &RawGame| {
            game(
                &name,
                index,
                by,
                &form,
                json,
                sink,
                number,
                raw,
                most_annotated,
            );
        });
        session.games(input, &work, |()| Ok(()))?;
        let mut stage = stage.borrow_mut();
        session.add(kept, std::mem::take(&mut stage.kept));
        session.add(dups, std::mem::take(&mut stage.dups));
    }
    let status = session.finish()?;
    let mut stage = stage.into_inner();
    stage.out.flush()?;
    if let Some(d) = &mut stage.duplicates {
        d.flush()?;
    }
    Ok(status)
}

/// One game: parse, check, digest, write in the output form, as one frame.
#[allow(clippy::too_many_arguments)]
fn game(
    name: &str,
    index: usize,
    by: DedupBy,
    form: &Form,
    json: bool,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
    score: bool,
) {
    let mut digester = Digester::new(by);
    let ReadGame {
        game,
        replayed,
        warnings,
    } = match read_game(name, number, raw, sink, |ply| digester.ply(ply)) {
        Ok(read) => read,
        Err(diagnostic) => {
            if json {
                error_line(sink, &diagnostic);
            }
            return;
        }
    };
    let digest = digester.finish(&replayed);
    let score = if score { annotations(&game) } else { 0 };
    let mut body = Vec::new();
    let mut marks = Vec::new();
    let written = if json {
        record::game_lines::<()>(
            &mut body, &mut marks, name, number, game, form, &warnings, None,
        )
    } else {
        form.write_marked(game, &mut body, &mut marks)
    };
    if let Err(err) = written {
        let diagnostic = crate::cmd::pgn::form_error(name, number, &err);
        sink.error(&diagnostic);
        if json {
            error_line(sink, &diagnostic);
        }
        return;
    }
    let header = Header {
        digest,
        at: Location {
            input: u16::try_from(index).unwrap_or(u16::MAX),
            game: number,
        },
        score,
        marks,
    };
    frames::push(&mut sink.out, &header.encode(), &body);
}

/// The `--json` line of a bad game, as a frame with no header (written as it is).
fn error_line(sink: &mut Sink, diagnostic: &Diagnostic) {
    let mut line = Vec::new();
    output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
    frames::push(&mut sink.out, &[], &line);
}
