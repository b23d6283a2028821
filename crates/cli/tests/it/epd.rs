//! `tabia epd`.

use super::tabia;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/position");

#[test]
fn every_ply_of_every_game_with_a_blank_line_after_each() {
    let input = format!("{FIXTURES}/ok/chess960-and-setup.pgn");
    let expected =
        std::fs::read_to_string(format!("{FIXTURES}/ok/chess960-and-setup.out")).expect("fixture");
    // The fixture's `.out` holds the EPD blocks, then the final FEN of each game.
    let blocks: String = expected
        .split_inclusive('\n')
        .take(4 + 1 + 6 + 1 + 4 + 1)
        .collect();
    tabia()
        .args(["epd", "--quiet", &input])
        .assert()
        .success()
        .stdout(blocks);
}

#[test]
fn start_and_full_fen_from_stdin() {
    tabia()
        .args(["epd", "--quiet", "--start", "--fen"])
        .write_stdin("1. e4 c5 2. Nf3 *\n")
        .assert()
        .success()
        .stdout(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
             rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\n\
             rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n\n",
        );
}

#[test]
fn en_passant_rule() {
    tabia()
        .args(["epd", "--quiet", "--ep", "legal"])
        .write_stdin("1. e4 *\n")
        .assert()
        .success()
        .stdout("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\n");
}

#[test]
fn bad_games_are_reported_and_the_rest_goes_on() {
    let input = format!("{FIXTURES}/err/illegal.pgn");
    // -q lists errors only; --warnings some lists the warnings too.
    let quiet = tabia().args(["epd", "--quiet", &input]).output().unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("warning"));
    let out = tabia()
        .args(["epd", "--quiet", "--warnings", "some", &input])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let lines: Vec<&str> = stderr
        .lines()
        .map(|l| l.rsplit("illegal.pgn:").next().unwrap_or(l))
        .collect();
    assert_eq!(
        lines,
        [
            "4:39: game 1: illegal move 4... Nc6 (ply 8): no black knight can go to c6",
            "19:24: game 4: illegal move 3. Nd2 (ply 5): ambiguous, could be Nbd2 or Nfd2",
            "21:1: game 5: bad FEN tag: black has 2 kings",
            "31:16: game 6: warning: result 1-0 but the game ends in black mates (0-1)",
            "33:1: game 7: variant `Seirawan` is not supported (tabia plays Standard, Chess960, \
             From Position, Antichess, Atomic, Crazyhouse, Horde, King of the Hill, Racing Kings \
             and Three-check)",
            "44:4: game 8: warning: result 1-0 but the game ends in stalemate (1/2-1/2)",
            "46:1: game 9: variant `Shogi` is not supported (tabia plays Standard, Chess960, \
             From Position, Antichess, Atomic, Crazyhouse, Horde, King of the Hill, Racing Kings \
             and Three-check)",
            "56:26: game 10: illegal move 3. N@f3 (ply 5): cannot drop a white knight on f3: \
             there is none in the pocket",
            "61:26: game 11: illegal move 3. N@f3 (ply 5): cannot drop a white knight on f3: \
             pieces are dropped only in Crazyhouse",
            "67:13: game 12: illegal move 2. Nf3 (ply 3): a capture is compulsory in Antichess",
            "73:50: game 13: warning: result 0-1 but the game ends in a white win by the rules \
             of Three-check (1-0)",
            "79:40: game 14: warning: result 1-0 but the game ends in a black win by the rules \
             of King of the Hill (0-1)",
        ]
    );
    // Games 2, 3, 6, 8, 13 and 14 are written (their mainlines are legal).
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(stdout.matches("\n\n").count(), 6);
    assert!(stdout.starts_with("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3\n"));
}

#[test]
fn from_a_given_position() {
    tabia()
        .args([
            "epd",
            "--quiet",
            "--start",
            "--from",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ])
        .write_stdin("1. e4 Kd7 *\n")
        .assert()
        .success()
        .stdout(
            "4k3/8/8/8/8/8/4P3/4K3 w - -\n\
             4k3/8/8/8/4P3/8/8/4K3 b - e3\n\
             8/3k4/8/8/4P3/8/8/4K3 w - -\n\n",
        );
    tabia()
        .args(["epd", "--from", "8/8/8/8/8/8/8/8"])
        .write_stdin("1. e4 *\n")
        .assert()
        .code(2)
        .stderr(predicates::str::starts_with(
            "tabia: bad --from position: illegal position: white has no king",
        ));
}
