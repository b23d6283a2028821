//! [`html_page`]: a tree as one self-contained HTML page: the board drawn by
//! `tabia-position`'s SVG renderer, the move table with score bars, and moves that can be
//! clicked to go to the next position. Plain JavaScript over data embedded in the page; no
//! network, no other file.

use std::collections::{HashMap, VecDeque};

use serde::Serialize;
use tabia_eco::Table;
use tabia_position::{EpRule, Position, PositionKey, RenderOptions, render_svg};

use crate::{
    encode::uci,
    report::{Figures, Name},
    stats::Tally,
    tree::Tree,
};

/// The most positions a page holds (the most played first, breadth first from the root).
pub const HTML_POSITIONS: usize = 400;

#[derive(Serialize)]
struct PageNode {
    fen: String,
    key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<Name>,
    total: Figures,
    ended: u64,
    moves: Vec<PageMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    others: Option<(usize, Figures)>,
    /// The SVG after the shared `<defs>` (see `Page::head`).
    board: String,
}

#[derive(Serialize)]
struct PageMove {
    san: String,
    uci: String,
    #[serde(flatten)]
    figures: Figures,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<Name>,
    /// The index of the position it leads to, when the page holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<usize>,
}

#[derive(Serialize)]
struct Page {
    /// The start of every board's SVG, up to and with its `<defs>` (the same for every
    /// position, so it is stored once).
    head: String,
    nodes: Vec<PageNode>,
    games: u64,
    max_ply: u32,
}

/// The page of `tree` from `root`: positions up to `options.depth` plies deep whose moves were
/// played by at least `options.min_games` games, at most [`HTML_POSITIONS`] of them.
///
/// ```
/// use tabia_book::{TreeReportOptions, Tree, TreeOptions, html_page};
/// use tabia_position::Position;
///
/// let mut tree = Tree::new(TreeOptions::default());
/// tree.add_pgn(&b"1. e4 e5 2. Nf3 *\n"[..])?;
/// let page = html_page(&tree, &Position::new(), TreeReportOptions { depth: 3, min_games: 1 }, tabia_eco::Table::embedded());
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(page.contains("\"san\":\"Nf3\""));
/// assert!(!page.contains("http://") || !page.contains("src=\"http"));
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn html_page(
    tree: &Tree,
    root: &Position,
    options: crate::TreeReportOptions,
    table: &Table,
) -> String {
    let render = RenderOptions {
        size: 440,
        ..RenderOptions::default()
    };
    let mut head = String::new();
    let mut index: HashMap<PositionKey, usize> = HashMap::new();
    let mut queue: VecDeque<(Position, u32)> = VecDeque::new();
    let mut nodes: Vec<PageNode> = Vec::new();
    index.insert(root.key(), 0);
    queue.push_back((root.clone(), 0));
    // Breadth first: a position gets its index when first seen, its node when dequeued (the
    // queue order is the index order).
    while let Some((pos, depth)) = queue.pop_front() {
        let node = tree.node(&pos);
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
            let key = next_pos.key();
            let next = match index.get(&key) {
                Some(&i) => Some(i),
                None if depth < options.depth && index.len() < HTML_POSITIONS => {
                    let i = index.len();
                    index.insert(key, i);
                    queue.push_back((next_pos.clone(), depth + 1));
                    Some(i)
                }
                None => None,
            };
            moves.push(PageMove {
                san: pos.san(ms.m).to_string(),
                uci: uci(&pos, ms.m),
                figures: Figures::new(&ms.stats, mover, Some(games)),
                opening: crate::report::name_of(table, &next_pos),
                next,
            });
        }
        let svg = render_svg(&pos.setup(EpRule::Legal), &render);
        let (svg_head, body) = split_defs(&svg);
        if head.is_empty() {
            head = svg_head.to_owned();
        }
        let board = if svg_head == head {
            body.to_owned()
        } else {
            svg
        };
        nodes.push(PageNode {
            fen: pos.fen(EpRule::Legal),
            key: node.key.to_string(),
            opening: crate::report::name_of(table, &pos),
            total: Figures::new(&node.total(), mover, None),
            ended: u64::from(node.ended.games),
            moves,
            others: (other_moves > 0)
                .then(|| (other_moves, Figures::new(&others, mover, Some(games)))),
            board,
        });
    }
    let page = Page {
        head,
        nodes,
        games: tree.games(),
        max_ply: tree.options().max_ply,
    };
    let data = serde_json::to_string(&page)
        .unwrap_or_else(|_| "{}".to_owned())
        .replace("</", "<\\/");
    TEMPLATE.replace("/*DATA*/null", &data)
}

/// The SVG up to and with `</defs>`, and the rest.
fn split_defs(svg: &str) -> (&str, &str) {
    match svg.find("</defs>") {
        Some(at) => svg.split_at(at + "</defs>".len()),
        None => ("", svg),
    }
}

const TEMPLATE: &str = include_str!("page.html");
