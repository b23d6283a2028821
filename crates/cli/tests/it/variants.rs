//! Every lichess variant through the commands that replay: `fen --variant`, `validate
//! --variant`, `show` with pockets, `epd` and `pgn --check` on variant games, `eco`.

use super::tabia;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/variants/games.pgn"
);

#[test]
fn fen_plays_drops_explosions_and_checks() {
    let fen = |args: &[&str]| {
        let out = tabia().arg("fen").args(args).output().expect("runs");
        assert!(out.status.success(), "{args:?}: {:?}", out);
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert_eq!(
        fen(&[
            "--variant",
            "crazyhouse",
            "startpos",
            "e4",
            "d5",
            "exd5",
            "Qxd5",
            "Nc3",
            "Qxa2",
            "Rxa2",
            "@b4"
        ]),
        "rnb1kbnr/ppp1pppp/8/8/1p6/2N5/RPPP1PPP/2BQKBNR[QPp] w Kkq - 0 5\n"
    );
    // A UCI drop, and the pockets of a FEN argument imply Crazyhouse.
    assert_eq!(
        fen(&[
            "--epd",
            "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] w Kkq - 0 5",
            "Q@d5"
        ]),
        "rnb1kbnr/ppp1pppp/8/3Q4/8/2N5/RPPP1PPP/2BQKBNR[Ppp] b Kkq -\n"
    );
    assert_eq!(
        fen(&["--variant", "Atomic", "startpos", "e4", "d5", "exd5"]),
        "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2\n"
    );
    assert_eq!(
        fen(&[
            "--variant",
            "three-check",
            "startpos",
            "e4",
            "e5",
            "Bc4",
            "Nc6",
            "Bxf7+"
        ]),
        "r1bqkbnr/pppp1Bpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 2+3 0 3\n"
    );
    // The `+0+0` form (checks given) is read and written as remaining checks.
    assert_eq!(
        fen(&["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+2"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1\n"
    );
    assert_eq!(
        fen(&["--variant", "Racing Kings", "startpos", "Kh3"]),
        "8/8/8/8/8/7K/krbnNBR1/qrbnNBRQ b - - 1 1\n"
    );
    assert_eq!(
        fen(&["--variant", "horde", "--key", "startpos"]),
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -\n"
    );
    assert_eq!(
        fen(&["--variant", "giveaway", "startpos", "e3", "b5", "Bxb5"]),
        "rnbqkbnr/p1pppppp/8/1B6/8/4P3/PPPP1PPP/RNBQK1NR b - - 0 2\n"
    );
}

#[test]
fn illegal_variant_moves_are_explained() {
    tabia()
        .args([
            "fen",
            "--variant",
            "antichess",
            "startpos",
            "e3",
            "b5",
            "Nf3",
        ])
        .assert()
        .code(1)
        .stderr("tabia: move 3: illegal move `Nf3`: a capture is compulsory in Antichess\n");
    tabia()
        .args(["fen", "--variant", "crazyhouse", "startpos", "N@f3"])
        .assert()
        .code(1)
        .stderr(
            "tabia: move 1: illegal move `N@f3`: cannot drop a white knight on f3: there is none \
             in the pocket\n",
        );
}

#[test]
fn unsupported_variants_are_named() {
    tabia()
        .args(["fen", "--variant", "Seirawan", "startpos"])
        .assert()
        .code(2)
        .stderr(
            "error: invalid value 'Seirawan' for '--variant <NAME>': variant `Seirawan` is not \
             supported (tabia plays Standard, Chess960, From Position, Antichess, Atomic, \
             Crazyhouse, Horde, King of the Hill, Racing Kings and Three-check)\n\n\
             For more information, try '--help'.\n",
        );
    let out = tabia()
        .args(["pgn", "--check", "--quiet", "-"])
        .write_stdin("[Variant \"Sittuyin\"]\n\n1. e4 *\n")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).expect("utf-8"),
        "<stdin>:1:1: game 1: variant `Sittuyin` is not supported (tabia plays Standard, \
         Chess960, From Position, Antichess, Atomic, Crazyhouse, Horde, King of the Hill, Racing \
         Kings and Three-check)\n"
    );
}

#[test]
fn validate_under_a_variant() {
    tabia()
        .args([
            "validate",
            "--variant",
            "horde",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ])
        .assert()
        .code(1)
        .stdout("too many kings (Horde)\n");
    tabia()
        .args([
            "validate",
            "--variant",
            "horde",
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        ])
        .assert()
        .success()
        .stdout("");
    tabia()
        .args([
            "validate",
            "4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 1",
            "--variant",
            "standard",
        ])
        .assert()
        .code(1)
        .stdout("pockets or promoted pieces, which Standard does not have\n");
}

#[test]
fn show_draws_the_pockets() {
    tabia()
        .args([
            "show",
            "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] b Kkq - 0 4",
        ])
        .assert()
        .success()
        .stdout(
            "[p p]\n\
             r n b . k b n r\n\
             p p p   p p p p\n\
             \x20 .   .   .   .\n\
             .   .   .   .  \n\
             \x20 .   .   .   .\n\
             .   N   .   .  \n\
             R P P P   P P P\n\
             .   B Q K B N R\n\
             [Q P]\n",
        );
}

#[test]
fn every_command_replays_the_variant_games() {
    let out = tabia()
        .args(["pgn", "--check", GAMES])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stderr).expect("utf-8"),
        "games 28, errors 0, warnings 0\n"
    );
    let out = tabia()
        .args(["epd", "--quiet", "--fen", "--ep", "legal", GAMES])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.matches("\n\n").count(), 28);
    assert!(
        text.contains("[") && text.contains(" 3+3 "),
        "pockets and check counters"
    );
    // `tabia pgn` re-exports every game, and its output replays the same.
    let out = tabia()
        .args(["pgn", "--quiet", GAMES])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let again = tabia()
        .args(["epd", "--quiet", "--fen", "--ep", "legal", "-"])
        .write_stdin(out.stdout)
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8(again.stdout).expect("utf-8"), text);
    // Variant games are not classified.
    let out = tabia()
        .args(["eco", "--quiet", GAMES])
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 28);
    assert!(text.lines().all(|l| l.contains("unclassified")), "{text}");
}

#[test]
fn drops_in_long_algebraic_and_uci_output() {
    let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxa2 4. Rxa2 @b4 *\n";
    let out = |notation: &str| {
        let out = tabia()
            .args(["pgn", "--quiet", "--notation", notation, "-"])
            .write_stdin(pgn)
            .output()
            .expect("runs");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        text.lines()
            .rfind(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        out("lan"),
        "1. e2-e4 d7-d5 2. e4xd5 Qd8xd5 3. Nb1-c3 Qd5xa2 4. Ra1xa2 @b4 *"
    );
    assert_eq!(
        out("uci"),
        "1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3 d5a2 4. a1a2 P@b4 *"
    );
}

#[test]
fn moves_of_an_unsupported_variant_are_not_read() {
    // Seirawan's `Nf3/E` and Sittuyin's `F@g3` are no syntax errors to report: the variant is.
    let pgn = "[Variant \"Seirawan\"]\n\n1. Nf3/E e5 *\n\n\
               [Variant \"Sittuyin\"]\n\n1. F@g3 *\n\n1. e4 *\n";
    let message = "variant `{}` is not supported (tabia plays Standard, Chess960, From Position, \
                   Antichess, Atomic, Crazyhouse, Horde, King of the Hill, Racing Kings and \
                   Three-check)";
    let expected = format!(
        "<stdin>:1:1: game 1: {}\n<stdin>:5:1: game 2: {}\n",
        message.replace("{}", "Seirawan"),
        message.replace("{}", "Sittuyin")
    );
    for command in ["pgn", "dedup"] {
        tabia()
            .args([command, "--warnings", "each", "-"])
            .write_stdin(pgn)
            .assert()
            .code(1)
            .stderr(predicates::str::starts_with(expected.clone()));
    }
}
