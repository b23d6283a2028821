//! `tabia validate`: explain every problem of positions, given as arguments or read from files
//! (one position per line: FEN, partial FEN or EPD; empty lines are skipped).

use std::{io::Write, path::PathBuf};

use serde::Serialize;
use tabia_position::{Editor, GameVariant};

use crate::{
    cli::{RunArgs, Status},
    input::{Source, TextLine, TextLines},
    output,
    parallel::{Sink, each},
    session::Session,
};

/// Arguments of `tabia validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Positions: FEN, partial FEN, EPD or `startpos`. With several, each problem line starts
    /// with its position.
    #[arg(value_name = "POSITION", required_unless_present = "file")]
    positions: Vec<String>,
    /// Also read positions from FILE, one per line (`-`: standard input; compressed files are
    /// recognised); each problem line starts with `FILE:LINE:`.
    #[arg(short, long, value_name = "FILE")]
    file: Vec<PathBuf>,
    /// One JSON object per position (NDJSON): `valid` and the list of `problems`.
    #[arg(long)]
    json: bool,
    /// Validate under the rules of a lichess variant (`crazyhouse`, `atomic`, `horde`, …) or
    /// `chess960`. Default: standard chess, or Crazyhouse / Three-check for a FEN with
    /// pockets / check counters.
    #[arg(long, value_name = "NAME", value_parser = tabia_position::parse_variant)]
    variant: Option<GameVariant>,
    #[command(flatten)]
    run: RunArgs,
}

/// One `--json` line (`docs/schema.md`).
#[derive(Debug, Serialize)]
struct Record<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    position: &'a str,
    valid: bool,
    problems: Vec<String>,
}

/// Runs `tabia validate`: every problem on its own line on stdout; exit 1 if any.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let mut session = Session::new(&args.run, "positions");
    let many = args.positions.len() > 1;
    for text in &args.positions {
        let problems = problems(text, args.variant, !args.json);
        let bad = !problems.is_empty();
        let mut out = Vec::new();
        if args.json {
            output::json_line(
                &mut out,
                &Record {
                    file: None,
                    line: None,
                    position: text,
                    valid: !bad,
                    problems: messages(problems),
                },
            );
        } else {
            let prefix = if many {
                format!("{}: ", text.trim())
            } else {
                String::new()
            };
            for (_, problem) in &problems {
                writeln!(out, "{prefix}{problem}")?;
            }
        }
        session.out().write_all(&out)?;
        session.count(1, u64::from(bad));
    }
    if args.file.is_empty() {
        return Ok(session.finish_without_summary()?);
    }
    for source in Source::from_args(&args.file) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let positions = |reader| {
            TextLines::new(reader).filter(|line| {
                line.as_ref()
                    .map_or(true, |line| !line.bytes.trim_ascii().is_empty())
            })
        };
        let work = each(|sink: &mut Sink, _, line: &TextLine| {
            position_line(&name, args.json, args.variant, sink, line);
        });
        session.items(input, positions, &work, |()| Ok(()))?;
    }
    Ok(session.finish()?)
}

/// Every problem of one position, or its syntax error: with `snippet`, its whole message (line,
/// column, caret) for a terminal; else on one line, with the column it is at.
fn problems(text: &str, variant: Option<GameVariant>, snippet: bool) -> Vec<(Option<u64>, String)> {
    match Editor::from_arg_variant(text, variant) {
        Ok(editor) => editor
            .problems_variant(variant.unwrap_or_else(|| editor.implied_variant().into()))
            .iter()
            .map(|problem| (None, problem.to_string()))
            .collect(),
        Err(err) if snippet => vec![(None, err.to_string())],
        Err(err) => vec![(err.column(), err.brief())],
    }
}

fn messages(problems: Vec<(Option<u64>, String)>) -> Vec<String> {
    problems.into_iter().map(|(_, message)| message).collect()
}

/// One line of a file of positions.
fn position_line(
    name: &str,
    json: bool,
    variant: Option<GameVariant>,
    sink: &mut Sink,
    line: &TextLine,
) {
    let text = tabia_notation::decode(&line.bytes);
    let problems = problems(&text, variant, false);
    if !problems.is_empty() {
        sink.mark_bad();
    }
    if json {
        output::json_line(
            &mut sink.out,
            &Record {
                file: Some(name),
                line: Some(line.number),
                position: &text,
                valid: problems.is_empty(),
                problems: messages(problems),
            },
        );
    } else {
        for (column, problem) in &problems {
            // Writing to a Vec cannot fail.
            let _ = match column {
                Some(column) => writeln!(sink.out, "{name}:{}:{column}: {problem}", line.number),
                None => writeln!(sink.out, "{name}:{}: {problem}", line.number),
            };
        }
    }
}
