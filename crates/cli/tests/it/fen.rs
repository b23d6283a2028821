//! `tabia fen`.

use predicates::{prelude::PredicateBooleanExt as _, str::contains};

use super::tabia;

#[test]
fn moves_from_the_seed_examples() {
    // The examples of the FEN standard quoted by Chess::PGN::EPD.
    tabia()
        .args(["fen", "startpos", "e4"])
        .assert()
        .success()
        .stdout("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n");
    tabia()
        .args(["fen", "startpos", "e4", "c5", "Nf3"])
        .assert()
        .success()
        .stdout("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n");
    // chess-fen's fenstr_move example.
    tabia()
        .args([
            "fen",
            "rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3",
            "Nc3",
        ])
        .assert()
        .success()
        .stdout("rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/2N5/PPP2PPP/R1BQKBNR b KQkq - 1 3\n");
}

#[test]
fn en_passant_rules_and_outputs() {
    let run = |extra: &[&str]| {
        let out = tabia()
            .args(["fen", "startpos", "e4"])
            .args(extra)
            .output()
            .expect("runs");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert_eq!(
        run(&["--ep", "legal"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
    assert_eq!(
        run(&["--ep", "pseudo", "--epd"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
    );
    assert_eq!(
        run(&["--epd"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\n"
    );
    assert_eq!(
        run(&["--key"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
    );
    assert_eq!(run(&["--zobrist"]), "823c9b50fd114196\n");
}

#[test]
fn partial_fen_and_epd_arguments() {
    tabia()
        .args(["fen", "4k3/8/8/8/8/8/4P3/4K3", "e4"])
        .assert()
        .success()
        .stdout("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1\n");
    tabia()
        .args(["fen", "4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 5; fmvn 39;", "Kd2"])
        .assert()
        .success()
        .stdout("4k3/8/8/8/8/8/3KP3/8 b - - 6 39\n");
}

#[test]
fn illegal_move_is_explained() {
    tabia()
        .args(["fen", "startpos", "e4", "e5", "Ke3"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("tabia: move 3: illegal move `Ke3`: no white king can go to e3\n");
    tabia()
        .args(["fen", "4k3/8/8/8/8/1N3N2/8/4K3 w - - 0 1", "Nd4"])
        .assert()
        .code(1)
        .stderr("tabia: move 1: illegal move `Nd4`: ambiguous, could be Nbd4 or Nfd4\n");
}

#[test]
fn bad_position_is_explained() {
    tabia()
        .args(["fen", "4k3/8/8/8/8/8/8/4K3 w KQxq - 0 1"])
        .assert()
        .code(1)
        .stderr(contains("invalid castling field").and(contains(
            "  | 4k3/8/8/8/8/8/8/4K3 w KQxq - 0 1\n  |                         ^^",
        )));
    tabia()
        .args(["fen", "4k3/8/8/8/8/8/8/4K2k w - - 0 1"])
        .assert()
        .code(1)
        .stderr("tabia: illegal position: black has 2 kings\n");
}
