//! A `Position` as other things and back: its pickled state (the root FEN, the rules, the moves
//! in UCI, so that `pop()` and repetitions work after a round-trip) and python-chess's boards
//! (python-chess imported only when asked for).

use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::{PyDict, PyTuple},
};
use tabia::position::{EpRule, GameVariant, MoveStack, Variant};

use crate::{
    board::{self, Move},
    position::parse_variant,
};

/// The rules of `pos`: its variant and whether castling is Chess960's.
fn rules(pos: &tabia::Position) -> GameVariant {
    GameVariant {
        variant: pos.variant(),
        chess960: pos.castling_mode().is_chess960(),
    }
}

/// The moves of `stack` in UCI (`0000` for a null move).
fn ucis(stack: &MoveStack) -> Vec<String> {
    let mode = stack.root().castling_mode();
    stack
        .moves()
        .map(|m| Move::of_option(m, mode).uci_string())
        .collect()
}

/// Plays `moves` (each a `Move`, a python-chess `Move` or a UCI string) from `start`.
fn replay<'py>(
    start: tabia::Position,
    moves: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<MoveStack> {
    let mut stack = MoveStack::new(start);
    for (ply, m) in moves.enumerate() {
        let m = m?;
        let Some(m) = Move::extract_any(&m)? else {
            return Err(PyTypeError::new_err(format!(
                "move {}: expected a move, not {}",
                ply + 1,
                m.get_type().name()?
            )));
        };
        let fen = stack.position().fen(EpRule::Legal);
        let bad = |why: String| {
            PyValueError::new_err(format!(
                "move {} ({}) in {fen}: {why}",
                ply + 1,
                m.uci_string(),
            ))
        };
        if m.is_null() {
            if !stack.push_null() {
                return Err(bad("a null move is not possible in check".to_owned()));
            }
            continue;
        }
        let m = stack
            .position()
            .resolve_uci(m.to_uci_move()?)
            .map_err(|e| bad(e.to_string()))?;
        stack.push(m);
    }
    Ok(stack)
}

/// What pickle keeps of a position: `(root FEN, variant, chess960, [UCI moves])`.
pub(crate) fn state<'py>(py: Python<'py>, stack: &MoveStack) -> PyResult<Bound<'py, PyTuple>> {
    let root = stack.root();
    let rules = rules(root);
    (
        root.fen(EpRule::Always),
        GameVariant::from(rules.variant).to_string(),
        rules.chess960,
        ucis(stack),
    )
        .into_pyobject(py)
}

/// The position of a pickled state.
pub(crate) fn from_state(state: &Bound<'_, PyTuple>) -> PyResult<MoveStack> {
    let (fen, variant, chess960, moves): (String, String, bool, Bound<'_, PyAny>) =
        state.extract()?;
    let variant = tabia::position::parse_variant(&variant)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let rules = GameVariant {
        chess960,
        ..variant
    };
    replay(parse_variant(&fen, Some(rules))?, moves.try_iter()?)
}

/// The position of a python-chess board, with its move stack.
pub(crate) fn from_board(board: &Bound<'_, PyAny>) -> PyResult<MoveStack> {
    if !board.hasattr("move_stack")? || !board.hasattr("root")? {
        return Err(PyTypeError::new_err(format!(
            "expected a python-chess Board, not {}",
            board.get_type().name()?
        )));
    }
    let kwargs = PyDict::new(board.py());
    kwargs.set_item("en_passant", "fen")?;
    let fen: String = board
        .call_method0("root")?
        .call_method("fen", (), Some(&kwargs))?
        .extract()?;
    let chess960: bool = board.getattr("chess960")?.is_truthy()?;
    let name: String = board.getattr("uci_variant")?.extract()?;
    let variant = match name.as_str() {
        "chess" => Variant::Chess,
        // python-chess's suicide chess is not lichess's antichess (its stalemate differs).
        "suicide" => {
            return Err(PyValueError::new_err(
                "python-chess's suicide chess is not a variant tabia plays (antichess is)",
            ));
        }
        other => {
            tabia::position::parse_variant(other)
                .map_err(|e| PyValueError::new_err(e.to_string()))?
                .variant
        }
    };
    let start = parse_variant(&fen, Some(GameVariant { variant, chess960 }))?;
    replay(start, board.getattr("move_stack")?.try_iter()?)
}

/// The python-chess board of a position, with its move stack.
pub(crate) fn to_board<'py>(py: Python<'py>, stack: &MoveStack) -> PyResult<Bound<'py, PyAny>> {
    let chess = board::import_chess(py)?;
    let root = stack.root();
    let rules = rules(root);
    let class = if rules.variant == Variant::Chess {
        chess.getattr("Board")?
    } else {
        py.import("chess.variant")?.call_method1(
            "find_variant",
            (GameVariant::from(rules.variant).to_string(),),
        )?
    };
    let kwargs = PyDict::new(py);
    kwargs.set_item("chess960", rules.chess960)?;
    let board = class.call((root.fen(EpRule::Always),), Some(&kwargs))?;
    let from_uci = chess.getattr("Move")?.getattr("from_uci")?;
    for uci in ucis(stack) {
        board.call_method1("push", (from_uci.call1((uci,))?,))?;
    }
    Ok(board)
}
