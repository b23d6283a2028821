//! `tabia validate`.

use super::tabia;

#[test]
fn a_legal_position_says_nothing() {
    tabia()
        .args(["validate", "startpos"])
        .assert()
        .success()
        .stdout("");
}

#[test]
fn every_problem_on_its_own_line() {
    tabia()
        .args(["validate", "4k3/8/8/8/8/8/8/4K2P w K e6 120 0"])
        .assert()
        .code(1)
        .stdout(
            "white pawn on h1: no pawn may stand on rank 1\n\
             en-passant square e6 but no black pawn on e5\n\
             white may castle kingside but there is no white rook on h1\n\
             halfmove clock 120 is beyond the 50-move rule (at most 100 plies)\n\
             fullmove number must be 1 or more\n",
        );
}

#[test]
fn several_positions_are_prefixed() {
    tabia()
        .args(["validate", "startpos", "7k/8/8/8/8/8/8/K1r5 b", "8/8/8/8"])
        .assert()
        .code(1)
        .stdout(
            "7k/8/8/8/8/8/8/K1r5 b: white is in check but it is black's move\n\
             8/8/8/8: piece placement does not have exactly 8 ranks (expected 8 ranks, found 4) \
             at line 1, column 1\n  \
             | 8/8/8/8\n  \
             | ^^^^^^^\n",
        );
}

#[test]
fn startpos_is_the_start_of_the_variant() {
    for variant in ["horde", "racingkings", "antichess", "atomic", "chess960"] {
        tabia()
            .args(["validate", "--variant", variant, "startpos"])
            .assert()
            .success()
            .stdout("");
    }
    // Horde's start written out is valid under Horde, and not under standard chess.
    let horde = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
    tabia()
        .args(["validate", "--variant", "horde", horde])
        .assert()
        .success()
        .stdout("");
}
