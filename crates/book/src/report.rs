//! [`TreeReport`]: a position of a [`Tree`] and the moves played from it, some plies deep, with
//! their figures and opening names; written as text or JSON.

use std::fmt::Write as _;

use serde::Serialize;
use tabia_eco::Table;
use tabia_position::{EpRule, Position, shakmaty::Color};

use crate::{
    encode::uci,
    stats::Tally,
    tree::{Node, Tree},
};

/// What a [`TreeReport`] shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeReportOptions {
    /// How many plies deep the moves are shown (1: the moves of the position only).
    pub depth: u32,
    /// Moves played by fewer games are folded into "others" (and not expanded).
    pub min_games: u32,
}

impl Default for TreeReportOptions {
    /// One ply, every move.
    fn default() -> TreeReportOptions {
        TreeReportOptions {
            depth: 1,
            min_games: 1,
        }
    }
}

/// An opening name from `tabia-eco`'s embedded table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Name {
    /// The ECO code (`B20`).
    pub eco: String,
    /// The name (`Sicilian Defense`).
    pub name: String,
}

impl Name {
    pub(crate) fn of(table: &Table, pos: &Position) -> Option<Name> {
        table.lookup(&pos.key()).map(|o| Name {
            eco: o.eco().to_owned(),
            name: o.name().to_owned(),
        })
    }
}

/// The figures of a move (or of several, or of a position), for printing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Games.
    pub games: u64,
    /// The share of the position's games, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// White wins in percent of the games with a known result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_pct: Option<f64>,
    /// Draws in percent of the games with a known result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws_pct: Option<f64>,
    /// Black wins in percent of the games with a known result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_pct: Option<f64>,
    /// The score of the side to move, in percent (a win 1, a draw ½).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The average rating of the players who made the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// The first year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_year: Option<u16>,
    /// The last year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_year: Option<u16>,
}

/// A percentage rounded to one decimal.
fn pct(part: u32, whole: u32) -> Option<f64> {
    (whole > 0).then(|| round1(100.0 * f64::from(part) / f64::from(whole)))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Figures {
    /// The figures of `stats` for a move of `mover` in a position of `total` games.
    pub fn new(stats: &Tally, mover: Color, total: Option<u64>) -> Figures {
        let decided = stats.decided();
        Figures {
            games: u64::from(stats.games),
            share: total
                .filter(|&t| t > 0)
                .map(|t| round1(100.0 * stats.games as f64 / t as f64)),
            white: u64::from(stats.white),
            draws: u64::from(stats.draws),
            black: u64::from(stats.black),
            white_pct: pct(stats.white, decided),
            draws_pct: pct(stats.draws, decided),
            black_pct: pct(stats.black, decided),
            score: stats.score(mover).map(|s| round1(100.0 * s)),
            rating: stats.average_rating(),
            first_year: stats.years().map(|y| y.0),
            last_year: stats.years().map(|y| y.1),
        }
    }
}

/// A position of the tree and the moves played from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeReport {
    /// The position's key (its EPD's four fields).
    pub position: String,
    /// Its FEN (clocks from the position given, or from the moves that led here).
    pub fen: String,
    /// Its opening name, when the ECO table has the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<Name>,
    /// The figures of every game that reached it.
    #[serde(flatten)]
    pub total: Figures,
    /// Games that ended here.
    pub ended: u64,
    /// The moves played by at least `min_games` games, most played first.
    pub moves: Vec<MoveReport>,
    /// The other moves together, when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub others: Option<Others>,
}

/// The moves under `min_games`, folded together.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Others {
    /// How many different moves.
    pub moves: usize,
    /// Their figures together.
    #[serde(flatten)]
    pub figures: Figures,
}

/// One move of a [`TreeReport`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReport {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI (castling as the king's move in standard chess).
    pub uci: String,
    /// Its figures; the score is the score of the side that made it.
    #[serde(flatten)]
    pub figures: Figures,
    /// The opening name of the position it leads to, when the ECO table has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<Name>,
    /// The position it leads to, when the report goes deeper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Box<TreeReport>>,
    /// The fullmove number and the side that made it, for numbering (`1.`, `1...`).
    #[serde(skip)]
    number: (u32, Color),
}

impl TreeReport {
    /// The report of `pos` in `tree`, `options.depth` plies deep; names from `table`.
    ///
    /// ```
    /// use tabia_book::{TreeReport, TreeReportOptions, Tree, TreeOptions};
    /// use tabia_position::Position;
    ///
    /// let mut tree = Tree::new(TreeOptions::default());
    /// tree.add_pgn(&b"[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 2. Nc3 0-1\n"[..])?;
    /// let report = TreeReport::new(&tree, &Position::new(), TreeReportOptions { depth: 2, min_games: 1 }, tabia_eco::Table::embedded());
    /// assert_eq!(report.moves[0].san, "e4");
    /// assert_eq!(report.moves[0].figures.score, Some(50.0));
    /// let next = report.moves[0].next.as_ref().expect("depth 2");
    /// assert_eq!(next.opening.as_ref().map(|n| n.eco.as_str()), Some("B00"));
    /// assert_eq!(next.moves[0].opening.as_ref().map(|n| n.name.as_str()), Some("Sicilian Defense"));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn new(
        tree: &Tree,
        pos: &Position,
        options: TreeReportOptions,
        table: &Table,
    ) -> TreeReport {
        let node = tree.node(pos);
        build(tree, pos, &node, options.depth.max(1), options, table)
    }

    /// The report as an indented text table (its columns: `docs/commands/tree.md`).
    pub fn to_text(&self) -> String {
        let mut rows = Vec::new();
        rows.push(Row::header());
        self.rows(&mut rows, 0);
        let mut out = String::new();
        let _ = writeln!(out, "position  {}", self.position);
        if let Some(name) = &self.opening {
            let _ = writeln!(out, "opening   {} {}", name.eco, name.name);
        }
        let t = &self.total;
        let _ = write!(out, "games     {}", t.games);
        if let (Some(w), Some(d), Some(b)) = (t.white_pct, t.draws_pct, t.black_pct) {
            let _ = write!(out, " (white {w:.1}%, draws {d:.1}%, black {b:.1}%)");
        }
        if self.ended > 0 {
            let _ = write!(out, ", {} ended here", self.ended);
        }
        out.push_str("\n\n");
        let mut widths = [0usize; COLUMNS];
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(&row.0) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for row in &rows {
            let mut line = String::new();
            for (i, (cell, w)) in row.0.iter().zip(widths).enumerate() {
                if i == COLUMNS - 1 {
                    line.push_str(cell);
                } else if i == 0 {
                    let _ = write!(line, "{cell:<w$}  ");
                } else {
                    let _ = write!(line, "{cell:>w$}  ");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    fn rows(&self, rows: &mut Vec<Row>, indent: usize) {
        for m in &self.moves {
            let (number, color) = m.number;
            let dots = if color.is_white() { "." } else { "..." };
            let label = format!("{:indent$}{number}{dots} {}", "", m.san, indent = indent);
            rows.push(Row::new(label, &m.figures, m.opening.as_ref()));
            if let Some(next) = &m.next {
                next.rows(rows, indent + 2);
            }
        }
        if let Some(others) = &self.others {
            let label = format!("{:indent$}others ({})", "", others.moves, indent = indent);
            rows.push(Row::new(label, &others.figures, None));
        }
    }
}

const COLUMNS: usize = 10;

/// One line of the text table.
struct Row([String; COLUMNS]);

impl Row {
    fn header() -> Row {
        Row([
            "move", "games", "share", "white", "draws", "black", "score", "rating", "years",
            "opening",
        ]
        .map(str::to_owned))
    }

    fn new(label: String, f: &Figures, name: Option<&Name>) -> Row {
        let cell = |count: u64, pct: Option<f64>| match pct {
            Some(p) => format!("{count} {p:.1}%"),
            None => count.to_string(),
        };
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.1}%"));
        Row([
            label,
            f.games.to_string(),
            opt(f.share),
            cell(f.white, f.white_pct),
            cell(f.draws, f.draws_pct),
            cell(f.black, f.black_pct),
            opt(f.score),
            f.rating.map_or_else(|| "-".to_owned(), |r| r.to_string()),
            match (f.first_year, f.last_year) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a}-{b}"),
                _ => "-".to_owned(),
            },
            name.map_or_else(String::new, |n| format!("{} {}", n.eco, n.name)),
        ])
    }
}

fn build(
    tree: &Tree,
    pos: &Position,
    node: &Node,
    depth: u32,
    options: TreeReportOptions,
    table: &Table,
) -> TreeReport {
    let games = node.games();
    let mover = pos.turn();
    let mut moves = Vec::new();
    let mut others = Tally::default();
    let mut other_moves = 0;
    for ms in &node.moves {
        if ms.stats.games < options.min_games {
            others.merge(&ms.stats);
            other_moves += 1;
            continue;
        }
        let mut next_pos = pos.clone();
        next_pos.play_unchecked(ms.m);
        let next = (depth > 1).then(|| {
            let next_node = tree.node(&next_pos);
            Box::new(build(
                tree,
                &next_pos,
                &next_node,
                depth - 1,
                options,
                table,
            ))
        });
        moves.push(MoveReport {
            san: pos.san(ms.m).to_string(),
            uci: uci(pos, ms.m),
            figures: Figures::new(&ms.stats, mover, Some(games)),
            opening: Name::of(table, &next_pos),
            next,
            number: (pos.fullmoves().get(), mover),
        });
    }
    TreeReport {
        position: node.key.to_string(),
        fen: pos.fen(EpRule::Legal),
        opening: Name::of(table, pos),
        total: Figures::new(&node.total(), mover, None),
        ended: u64::from(node.ended.games),
        moves,
        others: (other_moves > 0).then(|| Others {
            moves: other_moves,
            figures: Figures::new(&others, mover, Some(games)),
        }),
    }
}

/// The opening name of a position, when the table has it.
pub(crate) fn name_of(table: &Table, pos: &Position) -> Option<Name> {
    Name::of(table, pos)
}
