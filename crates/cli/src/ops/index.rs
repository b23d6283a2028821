//! `tabia index`'s command-line work: games read on the workers into the writer (bad games
//! and warnings reported on the session, the summary's counts), and the explorer answer as
//! text.

use std::{cell::Cell, fmt::Write as _, path::PathBuf};

use tabia_index::{Explorer, IndexWriter, PlayerExplorer, Prepared, Pushed, prepare};
use tabia_notation::pgn::RawGame;

use crate::{
    input::Source,
    parallel::{Sink, fold},
    report::Diagnostic,
    session::Session,
};

/// Reads every game of `files` into `writer` (committing each full batch and at the end);
/// the summary counts `indexed` and `duplicates` beside the games read and the errors.
pub(crate) fn add_files(
    session: &mut Session<'_>,
    writer: &mut IndexWriter,
    files: &[PathBuf],
) -> anyhow::Result<()> {
    let indexed = session.counter("indexed");
    let duplicates = session.counter("duplicates");
    let max_ply = writer.options().max_ply;
    for source in Source::from_args(files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = fold(
            |sink: &mut Sink, made: &mut Vec<Prepared>, number, raw: &RawGame| match prepare(
                raw, max_ply,
            ) {
                Ok(Some(game)) => {
                    sink.replay_warnings(&name, number, &game.warnings);
                    made.push(game);
                }
                Ok(None) => {}
                Err(err) => sink.error(&Diagnostic::located(&name, number, &err)),
            },
        );
        let (new, same) = (Cell::new(0), Cell::new(0));
        session.games(input, &work, |made| {
            for game in made {
                match writer.push(game)? {
                    Pushed::Indexed(_) => new.set(new.get() + 1),
                    Pushed::Duplicate(_) => same.set(same.get() + 1),
                }
                if writer.is_full() {
                    writer.commit()?;
                }
            }
            Ok(())
        })?;
        session.add(indexed, new.get());
        session.add(duplicates, same.get());
    }
    writer.commit()?;
    Ok(())
}

/// A share of games, `41.2%`.
fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", n as f64 * 100.0 / total as f64)
    }
}

/// The explorer answer as a table: the opening, the totals, a line a move, the games.
pub(crate) fn explorer_text(answer: &Explorer, epd: &str) -> String {
    let mut out = String::new();
    if let Some(opening) = &answer.opening {
        let _ = writeln!(out, "{} {}", opening.eco, opening.name);
    }
    let total = answer.white + answer.draws + answer.black;
    let _ = writeln!(out, "{epd}");
    let _ = writeln!(
        out,
        "games {}  white {}  draws {}  black {}",
        answer.games,
        percent(answer.white, total),
        percent(answer.draws, total),
        percent(answer.black, total)
    );
    if !answer.moves.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<8} {:>8} {:>7} {:>7} {:>7} {:>7}",
            "move", "games", "white", "draws", "black", "rating"
        );
    }
    for m in &answer.moves {
        let n = m.total();
        let _ = writeln!(
            out,
            "{:<8} {:>8} {:>7} {:>7} {:>7} {:>7}",
            m.san,
            n,
            percent(m.white, n),
            percent(m.draws, n),
            percent(m.black, n),
            m.average_rating
        );
    }
    games_text(&mut out, "top games", &answer.top_games);
    games_text(&mut out, "recent games", &answer.recent_games);
    if let Some(history) = &answer.history {
        let _ = writeln!(
            out,
            "\nhistory\n{:<8} {:>8} {:>8} {:>8}",
            "month", "white", "draws", "black"
        );
        for month in history {
            let _ = writeln!(
                out,
                "{:<8} {:>8} {:>8} {:>8}",
                month.month, month.white, month.draws, month.black
            );
        }
    }
    out
}

/// The player's view as a table.
pub(crate) fn player_text(answer: &PlayerExplorer, epd: &str) -> String {
    let mut out = String::new();
    if let Some(opening) = &answer.opening {
        let _ = writeln!(out, "{} {}", opening.eco, opening.name);
    }
    let total = answer.white + answer.draws + answer.black;
    let _ = writeln!(out, "{epd}");
    let _ = writeln!(
        out,
        "games {total}  white {}  draws {}  black {}",
        percent(answer.white, total),
        percent(answer.draws, total),
        percent(answer.black, total)
    );
    if !answer.moves.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<8} {:>8} {:>7} {:>7} {:>7} {:>9} {:>11}",
            "move", "games", "white", "draws", "black", "opponents", "performance"
        );
    }
    for m in &answer.moves {
        let n = m.white + m.draws + m.black;
        let _ = writeln!(
            out,
            "{:<8} {:>8} {:>7} {:>7} {:>7} {:>9} {:>11}",
            m.san,
            n,
            percent(m.white, n),
            percent(m.draws, n),
            percent(m.black, n),
            m.average_opponent_rating,
            m.performance
        );
    }
    games_text(&mut out, "recent games", &answer.recent_games);
    out
}

fn games_text(out: &mut String, title: &str, games: &[tabia_index::GameSummary]) {
    if games.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}");
    for g in games {
        let rating = |r: Option<u16>| r.map_or(String::new(), |r| format!(" ({r})"));
        let result = match g.winner.as_deref() {
            Some("white") => "1-0",
            Some("black") => "0-1",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  #{:<8} {:<6} {}{} - {}{} {} {}",
            g.id,
            g.uci.as_deref().unwrap_or(""),
            g.white.name,
            rating(g.white.rating),
            g.black.name,
            rating(g.black.rating),
            result,
            g.month.as_deref().unwrap_or("")
        );
    }
}
