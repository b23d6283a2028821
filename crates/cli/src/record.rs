//! The `--json` line of a game, shared by every command that writes games (`pgn`, `filter`,
//! `dedup`, `split`): what the output form says is what the line carries (`docs/output.md`,
//! "Output forms"; the fields: `docs/schema.md`).
//!
//! - moves in the form's notation and piece letters (`--notation`, `--lang`, `--figurine`);
//! - the tags after `--strip tags` and `--add` (and no `tags` at all with `--no-tags`);
//! - `clocks`, `emts`, `evals` left out when `--strip` removed what they are read from
//!   (comments, clocks, evals, commands);
//! - `fens` (the FEN after every move) with `--add fen-comments`;
//! - `result` left out with `--no-results`;
//! - `pgn`: the game written in the form;
//! - with `--split-variations`, one line per game made, `part` numbering them (0: the game).

use serde::Serialize;
use tabia_collect::{
    Form, FormError,
    notation::pgn::{CommandKind, Game, Move},
};

use crate::{output::JsonEval, report::Diagnostic};

/// One `--json` line of a game; `M` is what a command adds as `match` (`filter`).
#[derive(Debug, Serialize)]
struct GameRecord<'a, M> {
    file: &'a str,
    game: u64,
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tags: Option<&'a [(String, String)]>,
    moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fens: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clocks: Option<Vec<Option<u64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    emts: Option<Vec<Option<u64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    evals: Option<Vec<Option<JsonEval>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'static str>,
    pgn: String,
    #[serde(skip_serializing_if = "<[Diagnostic]>::is_empty")]
    warnings: &'a [Diagnostic],
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    hit: Option<&'a M>,
}

/// Which of the annotation arrays the form keeps.
struct Kept {
    clocks: bool,
    emts: bool,
    evals: bool,
}

impl Kept {
    fn of(form: &Form) -> Kept {
        let keeps = |kind| !form.strip.comments && !form.strip.commands.contains(&kind);
        Kept {
            clocks: keeps(CommandKind::Clock),
            emts: keeps(CommandKind::Emt),
            evals: keeps(CommandKind::Eval),
        }
    }
}

/// Appends the `--json` lines of `game` (game `number` of input `file`) in `form` to `out`:
/// one line, or one per game [`Form::prepare`] makes of it. For each line, pushes to `marks`
/// the offset of its closing `}`, where a command can insert fields (`dedup`'s
/// `duplicate_of`). Gives how many lines were written.
///
/// # Errors
///
/// The form needs a replay and the game's moves are not legal (never for a checked game).
#[allow(clippy::too_many_arguments)]
pub(crate) fn game_lines<M: Serialize>(
    out: &mut Vec<u8>,
    marks: &mut Vec<usize>,
    file: &str,
    number: u64,
    game: Game,
    form: &Form,
    warnings: &[Diagnostic],
    hit: Option<&M>,
) -> Result<usize, FormError> {
    let games = form.prepare(game)?;
    let kept = Kept::of(form);
    let split = form.split_variations.is_some();
    for (part, game) in games.iter().enumerate() {
        let moves = &game.mainline.moves;
        let mut pgn = String::new();
        form.write_text(game, &mut pgn)?;
        let record = GameRecord {
            file,
            game: number,
            line: game.start.line,
            part: split.then_some(part),
            tags: form.options.tags.then_some(&game.tags[..]),
            moves: form.moves(game)?,
            fens: form.fens(game)?,
            clocks: kept.clocks.then(|| moves.iter().map(Move::clock).collect()),
            emts: kept.emts.then(|| moves.iter().map(Move::emt).collect()),
            evals: kept
                .evals
                .then(|| moves.iter().map(|m| m.eval().map(JsonEval::from)).collect()),
            result: form.options.result.then(|| game.result.as_str()),
            pgn,
            warnings,
            hit,
        };
        crate::output::json_line(out, &record);
        // The line ends with `}\n`.
        marks.push(out.len() - 2);
    }
    Ok(games.len())
}

/// [`game_lines`] for a command that marks nothing and adds no `match`.
pub(crate) fn game_json(
    out: &mut Vec<u8>,
    file: &str,
    number: u64,
    game: Game,
    form: &Form,
    warnings: &[Diagnostic],
) -> Result<usize, FormError> {
    game_lines::<()>(
        out,
        &mut Vec::new(),
        file,
        number,
        game,
        form,
        warnings,
        None,
    )
}

#[cfg(test)]
mod tests {
    use tabia_collect::{notation::san::Pieces, position::Notation};

    use super::*;

    fn lines(form: &Form, pgn: &str) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        let mut marks = Vec::new();
        let game: Game = pgn.parse().unwrap();
        let n = game_lines::<()>(&mut out, &mut marks, "g.pgn", 3, game, form, &[], None).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(marks.len(), n);
        for &m in &marks {
            assert_eq!(&text[m..m + 2], "}\n");
        }
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    const GAME: &str = "[Event \"E\"]\n[White \"W\"]\n[Annotator \"A\"]\n\n\
        1. e4 {[%clk 0:03:00] [%eval 0.3] good} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0";

    #[test]
    fn default_form_is_the_pgn_json() {
        let v = &lines(&Form::default(), GAME)[0];
        assert_eq!(v["moves"], serde_json::json!(["e4", "e5", "Nf3", "Nc6"]));
        assert_eq!(v["clocks"], serde_json::json!([180000, null, null, null]));
        assert_eq!(v["evals"][0]["cp"], 30);
        assert_eq!(v["result"], "1-0");
        assert_eq!(v["tags"][2], serde_json::json!(["Annotator", "A"]));
        assert!(v.get("part").is_none() && v.get("fens").is_none());
        let game: Game = GAME.parse().unwrap();
        assert_eq!(v["pgn"], game.to_string());
    }

    #[test]
    fn notation_and_letters_reach_the_moves() {
        let mut form = Form {
            notation: Notation::Uci,
            ..Form::default()
        };
        let v = &lines(&form, GAME)[0];
        assert_eq!(
            v["moves"],
            serde_json::json!(["e2e4", "e7e5", "g1f3", "b8c6"])
        );
        assert!(v["pgn"].as_str().unwrap().contains("1. e2e4 {"));
        form.notation = Notation::Lan;
        form.options.pieces = Pieces::language("de").unwrap();
        let v = &lines(&form, GAME)[0];
        assert_eq!(
            v["moves"],
            serde_json::json!(["e2-e4", "e7-e5", "Sg1-f3", "Sb8-c6"])
        );
    }

    #[test]
    fn stripped_parts_are_absent_and_added_tags_present() {
        let mut form = Form::default();
        form.strip.comments = true;
        form.strip.variations = true;
        form.strip.tags = true;
        form.replay_tags.ply_count = true;
        form.replay_tags.final_fen = true;
        form.options.result = false;
        let v = &lines(&form, GAME)[0];
        for absent in ["clocks", "emts", "evals", "result"] {
            assert!(v.get(absent).is_none(), "{absent}: {v}");
        }
        let tags: Vec<&str> = v["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[0].as_str().unwrap())
            .collect();
        assert!(!tags.contains(&"Annotator"), "{tags:?}");
        assert!(
            tags.contains(&"PlyCount") && tags.contains(&"FinalFEN"),
            "{tags:?}"
        );
        let pgn = v["pgn"].as_str().unwrap();
        assert!(!pgn.contains('{') && !pgn.contains('(') && !pgn.ends_with("1-0"));
        assert!(pgn.contains("[PlyCount \"4\"]"));

        let mut form = Form::default();
        form.strip.commands.push(CommandKind::Clock);
        form.options.tags = false;
        let v = &lines(&form, GAME)[0];
        assert!(v.get("clocks").is_none() && v.get("tags").is_none());
        assert_eq!(v["emts"], serde_json::json!([null, null, null, null]));
        assert_eq!(v["evals"][0]["cp"], 30);
    }

    #[test]
    fn fen_comments_and_split_variations() {
        let form = Form {
            fen_comments: true,
            split_variations: Some(None),
            ..Form::default()
        };
        let v = lines(&form, GAME);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0]["part"], 0);
        assert_eq!(v[1]["part"], 1);
        assert_eq!(v[1]["moves"], serde_json::json!(["e4", "c5", "Nf3"]));
        assert_eq!(
            v[1]["fens"][1],
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
        );
        assert_eq!(v[0]["fens"].as_array().unwrap().len(), 4);
    }
}
