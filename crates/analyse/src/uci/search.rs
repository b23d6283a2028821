//! One search's answer put together: the `info` lines of a `go` gathered into an
//! [`Analysis`], checked against the position.

use std::collections::BTreeMap;

use tabia_position::{
    Position,
    notation::fen::Fen,
    shakmaty::{Position as _, uci::UciMove, variant::VariantPosition},
};

use super::info::{Bound, Info};
use crate::analysis::{Analysis, EngineScore, Line};

/// What the engine has said so far in answer to one `go`.
pub(crate) struct Search {
    position: VariantPosition,
    /// How many lines a complete iteration has: `MultiPV`, or fewer when the position has
    /// fewer legal moves.
    wanted: usize,
    /// Depth → the lines of that iteration by `multipv` index (from 0).
    depths: BTreeMap<u32, Vec<Option<Slot>>>,
    /// The depth of the last line that gave one, for lines that do not.
    depth: u32,
    seldepth: Option<u32>,
    nodes: u64,
}

/// A line of an iteration, its moves checked only if it is chosen.
struct Slot {
    score: EngineScore,
    pv: Vec<UciMove>,
    exact: bool,
}

impl Search {
    /// A search of `fen` for `multipv` lines.
    ///
    /// # Errors
    ///
    /// Why `fen` is not a legal position, for a person.
    pub(crate) fn new(fen: &str, multipv: u32) -> Result<Search, String> {
        let fen: Fen = fen.parse().map_err(|err| format!("{err}"))?;
        let position = Position::from_fen(&fen).map_err(|err| err.to_string())?;
        let position = position.into_variant_position();
        let legal = position.legal_moves().len();
        let wanted = (multipv.max(1) as usize).min(legal);
        Ok(Search {
            position,
            wanted,
            depths: BTreeMap::new(),
            depth: 0,
            seldepth: None,
            nodes: 0,
        })
    }

    /// Takes in one `info` line.
    pub(crate) fn info(&mut self, info: Info) {
        if let Some(depth) = info.depth {
            self.depth = depth;
        }
        if info.seldepth.is_some() {
            self.seldepth = info.seldepth;
        }
        if let Some(nodes) = info.nodes {
            self.nodes = nodes;
        }
        let Some(score) = info.score else { return };
        let index = info.multipv.unwrap_or(1) as usize;
        // A position without moves has one line, its score; more lines than asked are not
        // kept.
        if index == 0 || index > self.wanted.max(1) {
            return;
        }
        let exact = info.bound == Bound::Exact;
        let slots = self.depths.entry(self.depth).or_default();
        if slots.len() < index {
            slots.resize_with(index, || None);
        }
        let slot = &mut slots[index - 1];
        // The last exact line of an iteration, else its last line.
        if exact || !slot.as_ref().is_some_and(|s| s.exact) {
            *slot = Some(Slot {
                score,
                pv: info.pv,
                exact,
            });
        }
    }

    /// The moves of `pv` up to the first illegal one, in UCI.
    fn legal_prefix(&self, pv: &[UciMove]) -> Vec<String> {
        let mut position = self.position.clone();
        let mut moves = Vec::with_capacity(pv.len());
        for &uci in pv {
            let Ok(m) = uci.to_move(&position) else { break };
            position.play_unchecked(m);
            moves.push(uci.to_string());
        }
        moves
    }

    /// The analysis, given the `bestmove` line's move (`None` for `(none)`).
    ///
    /// # Errors
    ///
    /// Why the answer is not true of the position, for a person: an illegal or missing best
    /// move, no score.
    pub(crate) fn finish(self, best: Option<&str>) -> Result<Analysis, String> {
        let has_moves = self.wanted > 0;
        let best = match best {
            None if has_moves => {
                return Err("no best move for a position with legal moves".to_owned());
            }
            None => None,
            Some(text) => {
                let uci: UciMove = text
                    .parse()
                    .map_err(|_| format!("`{text}` is not a move"))?;
                if uci.to_move(&self.position).is_err() {
                    return Err(format!("`{text}` is not a legal move here"));
                }
                Some(uci.to_string())
            }
        };
        let complete = |slots: &Vec<Option<Slot>>| {
            slots.len() >= self.wanted && slots[..self.wanted].iter().all(Option::is_some)
        };
        // The deepest iteration with all its lines, else the deepest with any.
        let chosen = self
            .depths
            .iter()
            .rev()
            .find(|(_, slots)| complete(slots))
            .or_else(|| self.depths.iter().next_back());
        let (depth, lines) = match chosen {
            Some((&depth, slots)) => (
                depth,
                slots
                    .iter()
                    .flatten()
                    .map(|slot| Line {
                        score: slot.score,
                        pv: self.legal_prefix(&slot.pv),
                    })
                    .collect(),
            ),
            None if has_moves => return Err("no score for a position with legal moves".into()),
            None => (0, Vec::new()),
        };
        Ok(Analysis {
            depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            lines,
            best,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn search(fen: &str, multipv: u32, lines: &[&str]) -> Search {
        let mut search = Search::new(fen, multipv).expect("legal");
        for line in lines {
            search.info(line.parse().expect("an info line"));
        }
        search
    }

    fn line(score: EngineScore, pv: &[&str]) -> Line {
        Line {
            score,
            pv: pv.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    #[test]
    fn the_deepest_complete_iteration_is_kept() {
        let search = search(
            START,
            2,
            &[
                "info depth 1 seldepth 1 multipv 1 score cp 18 nodes 57 pv e2e4",
                "info depth 1 seldepth 1 multipv 2 score cp 12 nodes 57 pv g1f3",
                "info depth 2 seldepth 2 multipv 1 score cp 45 lowerbound nodes 100 pv d2d4",
                "info depth 2 seldepth 3 multipv 1 score cp 30 nodes 156 pv d2d4 d7d5",
                "info depth 2 seldepth 3 multipv 1 score cp 60 upperbound nodes 160 pv c2c4",
                "info depth 2 seldepth 2 multipv 2 score cp 18 nodes 170 pv e2e4",
                // Stopped inside depth 3: its second line is missing.
                "info depth 3 seldepth 4 multipv 1 score cp 20 nodes 300 pv d2d4",
                "info nodes 310 nps 1000",
            ],
        );
        let analysis = search.finish(Some("d2d4")).expect("an analysis");
        assert_eq!(
            analysis,
            Analysis {
                depth: 2,
                seldepth: Some(4),
                nodes: 310,
                lines: vec![
                    line(EngineScore::Cp(30), &["d2d4", "d7d5"]),
                    line(EngineScore::Cp(18), &["e2e4"]),
                ],
                best: Some("d2d4".to_owned()),
            }
        );
    }

    #[test]
    fn bounds_stand_in_when_nothing_is_exact_and_pvs_end_at_an_illegal_move() {
        let search = search(
            START,
            1,
            &["info depth 5 score cp 40 lowerbound pv e2e4 e7e5 e7e5 g1f3"],
        );
        let analysis = search.finish(Some("e2e4")).expect("an analysis");
        assert_eq!(
            analysis.lines,
            [line(EngineScore::Cp(40), &["e2e4", "e7e5"])]
        );
    }

    #[test]
    fn positions_without_moves() {
        let mated = "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1";
        let analysis = search(mated, 3, &["info depth 0 score mate 0"])
            .finish(None)
            .expect("an analysis");
        assert_eq!(analysis.lines, [line(EngineScore::Mate(0), &[])]);
        assert_eq!((analysis.depth, analysis.best), (0, None));
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        let silent = search(stalemate, 1, &[]).finish(None).expect("an analysis");
        assert!(silent.lines.is_empty());
    }

    #[test]
    fn what_is_not_true_of_the_position() {
        let errors: Vec<String> = [
            (
                search(START, 1, &["info depth 1 score cp 1 pv e2e4"]),
                Some("zz99"),
            ),
            (
                search(START, 1, &["info depth 1 score cp 1 pv e2e4"]),
                Some("e2e5"),
            ),
            (search(START, 1, &["info depth 1 score cp 1 pv e2e4"]), None),
            (search(START, 1, &["info depth 1 nodes 20"]), Some("e2e4")),
        ]
        .into_iter()
        .map(|(search, best)| search.finish(best).unwrap_err())
        .collect();
        assert_eq!(
            errors,
            [
                "`zz99` is not a move",
                "`e2e5` is not a legal move here",
                "no best move for a position with legal moves",
                "no score for a position with legal moves",
            ]
        );
        assert_eq!(
            Search::new("8/8/8/8/8/8/8/8 w - - 0 1", 1).err().as_deref(),
            Some("illegal position: white has no king; black has no king")
        );
        // A FEN cannot smuggle a command in.
        assert_eq!(
            Search::new("8/8/8/8/8/8/8/8 w - - 0 1\nquit", 1)
                .err()
                .as_deref(),
            Some("unexpected input after the end at line 2, column 1\n  | quit\n  | ^^^^")
        );
    }

    #[test]
    fn castling_in_either_notation() {
        // Standard notation moves the king two squares (`e1g1`), Chess960's takes its own
        // rook (`e1h1`); the engine says which it was asked for.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for pv in [["e1g1", "e8c8"], ["e1h1", "e8a8"]] {
            let info = format!("info depth 1 score cp 0 pv {} {}", pv[0], pv[1]);
            let analysis = search(fen, 1, &[&info])
                .finish(Some(pv[0]))
                .expect("an analysis");
            assert_eq!(analysis.lines[0].pv, pv, "{pv:?}");
        }
    }
}
