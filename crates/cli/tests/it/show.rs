//! `tabia show`: the renderings of `fixtures/render/` through the command line.

use std::{fs, path::PathBuf};

use predicates::prelude::*;

use super::tabia;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/render")
}

fn fixture(name: &str) -> String {
    let path = fixtures().join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn ascii_is_the_default() {
    tabia()
        .args(["show", "startpos"])
        .assert()
        .success()
        .stdout(fixture("start.txt"));
}

#[test]
fn svg_with_last_move() {
    let fen = fixture("ruy-lopez.fen");
    tabia()
        .args(["show", fen.trim(), "--format", "svg", "--last-move", "f8e7"])
        .assert()
        .success()
        .stdout(fixture("ruy-lopez.svg"));
}

#[test]
fn every_option_of_the_flipped_fixture() {
    let fen = fixture("ruy-lopez-flipped.fen");
    for (format, ext) in [
        ("ascii", "txt"),
        ("unicode", "unicode.txt"),
        ("svg", "svg"),
        ("latex", "tex"),
        ("html", "html"),
    ] {
        tabia()
            .args(["show", fen.trim(), "-f", format, "--flip", "--coordinates"])
            .args(["--last-move", "e1g1", "--size", "256", "--standalone"])
            .assert()
            .success()
            .stdout(fixture(&format!("ruy-lopez-flipped.{ext}")));
    }
}

#[test]
fn no_coordinates() {
    let fen = fixture("endgame-bare.fen");
    tabia()
        .args(["show", fen.trim(), "-f", "unicode", "--no-coordinates"])
        .assert()
        .success()
        .stdout(fixture("endgame-bare.unicode.txt"));
}

#[test]
fn png_to_a_file_and_to_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.png");
    tabia()
        .args(["show", "startpos", "-f", "png", "--size", "120", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let file = fs::read(&path).unwrap();
    assert!(file.starts_with(b"\x89PNG\r\n\x1a\n"));
    // IHDR: width and height, big-endian, at bytes 16..24.
    assert_eq!(file.get(16..24), Some(&[0, 0, 0, 120, 0, 0, 0, 120][..]));

    // Standard output is a pipe here, not a terminal: the same bytes arrive.
    let piped = tabia()
        .args(["show", "startpos", "-f", "png", "--size", "120"])
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(piped.stdout, file);
}

#[test]
fn bad_position_is_reported_with_a_caret() {
    tabia()
        .args(["show", "rnbqkbnr/ppp"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "tabia: invalid position `rnbqkbnr/ppp`: rank does not have exactly 8 squares \
             (expected 8 squares in each rank) at line 1, column 10\n  \
             | rnbqkbnr/ppp\n  \
             |          ^^^\n",
        );
}

#[test]
fn illegal_positions_are_drawn() {
    tabia()
        .args(["show", "8/8/8/8/8/8/8/8 w - - 0 1", "-f", "unicode"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("8   ·   ·   ·   ·\n"));
}

#[test]
fn bad_last_move_and_size() {
    tabia()
        .args(["show", "startpos", "--last-move", "Nf3"])
        .assert()
        .code(2)
        .stderr("tabia: invalid --last-move `Nf3` (expected a UCI move like e2e4): invalid uci\n");
    tabia()
        .args(["show", "startpos", "-f", "png", "--size", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '5' for '--size <PIXELS>': 5 is not in 16..=4096",
        ));
}

/// A Crazyhouse position is drawn with its pockets in every format `show` offers.
#[test]
fn crazyhouse_pockets_in_every_format() {
    let fen = "r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNpp] w KQkq - 0 4";
    let show = |format: &str| {
        let out = tabia()
            .args(["show", fen, "--format", format, "--size", "88"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        out.stdout
    };
    let text = |format: &str| String::from_utf8(show(format)).unwrap();
    assert!(text("ascii").starts_with("[p p]\n"));
    assert!(text("unicode").starts_with("[♟ ♟]\n"));
    assert!(text("ascii").ends_with("[Q N]\n"));
    let svg = text("svg");
    assert!(svg.contains("viewBox=\"0 0 880 1000\""));
    assert!(svg.contains("<use xlink:href=\"#wN\" transform=\"translate(60 945) scale(0.5)\"/>"));
    let tex = text("latex");
    assert!(tex.contains("\\textit{Black's pocket:} \\sympawn{} \\sympawn{}\\\\\n"));
    assert!(tex.contains("\\textit{White's pocket:} \\symqueen{} \\symknight{}\n"));
    let html = text("html");
    // The pocket pieces are the SVG board's drawings, named for screen readers.
    let black = html
        .lines()
        .find(|l| l.contains("title=\"Black's pocket: p p\">"))
        .expect("Black's pocket");
    assert_eq!(
        black.matches("aria-label=\"black pawn\"").count(),
        2,
        "{black}"
    );
    let white = html
        .lines()
        .find(|l| l.contains("title=\"White's pocket: q n\">"))
        .expect("White's pocket");
    assert!(
        white.contains("aria-label=\"white queen\"")
            && white.contains("aria-label=\"white knight\"")
    );
    assert!(!html.contains('♟'));
    // PNG: 88 pixels wide, 100 high (the IHDR chunk's width and height).
    let png = show("png");
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 88);
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 100);
}
