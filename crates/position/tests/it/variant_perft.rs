//! Perft of every lichess variant through our own wiring (FEN grammar with pockets and check
//! counters, `Position::from_arg_variant`, `legal_moves`, `play_unchecked`), against the
//! figures in `fixtures/position/perft/*.perft` (shakmaty's published ones; python-chess's for
//! King of the Hill, which shakmaty does not publish).

use std::path::Path;

use tabia_position::{Position, parse_variant};

fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn every_variant_matches_the_published_figures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/position/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("perft fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut variants = Vec::new();
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let mut variant = None;
        let mut pos = None;
        let mut id = String::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "variant" => {
                    let v = parse_variant(value).expect("known variant");
                    variants.push(v.variant);
                    variant = Some(v);
                }
                "id" => id = value.to_owned(),
                "epd" => {
                    pos = Some(
                        Position::from_arg_variant(value, variant)
                            .unwrap_or_else(|e| panic!("{id}: {e}")),
                    );
                }
                "perft" => {
                    let (depth, nodes) = value.split_once(' ').expect("depth and nodes");
                    let depth: u32 = depth.parse().expect("depth");
                    let nodes: u64 = nodes.parse().expect("nodes");
                    let pos = pos.as_ref().expect("an epd before perft");
                    assert_eq!(perft(pos, depth), nodes, "{id} depth {depth}");
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    variants.sort_by_key(|v| v.uci());
    variants.dedup();
    assert_eq!(
        variants.len(),
        7,
        "one file per lichess variant: {variants:?}"
    );
    assert!(checked > 40);
}
