//! `--json` of every subcommand, checked against the schema documented in `docs/schema.md`.

use serde_json::json;

use crate::{
    schema::{self, check_all},
    support::{Codec, compress, fixture, numbered_games, tabia},
};

#[test]
fn pgn_json_matches_the_schema_and_keeps_order_with_two_jobs() {
    let input = numbered_games(500);
    let out = tabia()
        .args(["pgn", "--json", "-q", "-j", "2"])
        .write_stdin(compress(Codec::Xz, input.as_bytes()))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::PGN);
    assert_eq!(lines.len(), 500, "one line per game, bad ones too");
    for (i, line) in lines.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(line["game"], n);
        assert_eq!(line["file"], "<stdin>");
        if n.is_multiple_of(10) {
            assert_eq!(line["error"]["message"], "invalid SAN move `Zz9`");
            assert_eq!(line["error"]["line"], 4 * n - 1);
        } else {
            assert_eq!(line["tags"][0][1], n.to_string());
            assert_eq!(line["line"], 4 * n - 3);
        }
    }
}

#[test]
fn pgn_json_of_the_sample() {
    let out = tabia()
        .args(["pgn", "--json"])
        .arg(fixture("pgn/ok/sample.pgn"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::PGN);
    assert_eq!(lines.len(), 1);
    let game = &lines[0];
    assert_eq!(
        game["tags"][4],
        serde_json::json!(["White", "Fischer, Robert J."])
    );
    assert_eq!(game["moves"].as_array().unwrap().len(), 85);
    assert_eq!(game["moves"][46], "Bxf7+");
    assert_eq!(game["result"], "1/2-1/2");
    let export = std::fs::read_to_string(fixture("pgn/ok/sample.out")).unwrap();
    assert_eq!(format!("{}\n\n", game["pgn"].as_str().unwrap()), export);
}

#[test]
fn pgn_json_clocks_emts_evals() {
    let out = tabia()
        .args(["pgn", "--json"])
        .arg(fixture("pgn/ok/clocks-evals.pgn"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::PGN);
    assert_eq!(lines.len(), 2);

    for line in &lines {
        let n = line["moves"].as_array().unwrap().len();
        for field in ["clocks", "emts", "evals"] {
            assert_eq!(line[field].as_array().unwrap().len(), n, "{field}: {line}");
        }
    }
    assert_eq!(
        lines[0]["clocks"],
        json!([180000, 180000, 178300, 179000, 177000, 175000, 176000])
    );
    assert_eq!(
        lines[0]["emts"],
        json!([null, null, null, null, null, null, null])
    );
    assert_eq!(
        lines[0]["evals"],
        json!([{"cp": 17}, {"cp": 20}, {"cp": -50}, {"cp": -40}, {"cp": -30, "depth": 20}, {"mate": 1}, null])
    );
    assert_eq!(lines[1]["emts"], json!([null, null, 5000, 10000]));
    assert_eq!(lines[1]["evals"], json!([null, null, null, {"mate": -3}]));
    // The export keeps the commands byte for byte.
    let pgn = lines[0]["pgn"].as_str().unwrap();
    assert!(pgn.contains("{ [%eval -0.3,20] [%clk 0:02:57] }"), "{pgn}");
    assert!(
        pgn.contains("{ Checkmate. [%clk 0:02:56] [%csl Re8] }"),
        "{pgn}"
    );

    let out = tabia()
        .args(["epd", "--json", "--start"])
        .arg(fixture("pgn/ok/clocks-evals.pgn"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::EPD);
    assert_eq!(lines.len(), 8 + 5);
    assert!(lines[0].get("clock").is_none(), "no move led to ply 0");
    assert_eq!(lines[3]["clock"], 178300);
    assert_eq!(lines[3]["eval"], json!({"cp": -50}));
    assert_eq!(lines[7]["clock"], 176000);
    assert!(lines[7].get("eval").is_none());
    assert_eq!(lines[12]["eval"], json!({"mate": -3}));
}

#[test]
fn epd_json_one_object_per_position() {
    let out = tabia()
        .args(["epd", "--json", "--start", "-j", "2"])
        .write_stdin(numbered_games(30))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::EPD);
    // Per good game: ply 0, then its plies (4 for "1. d4 d5", 10 for the longer ones).
    let games: Vec<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert!(games.windows(2).all(|w| w[0] <= w[1]), "input order");
    let first: Vec<&serde_json::Value> = lines.iter().filter(|l| l["game"] == 1).collect();
    assert_eq!(first.len(), 3);
    assert_eq!(first[0]["ply"], 0);
    assert!(first[0].get("san").is_none());
    assert_eq!(first[1]["san"], "d4");
    assert_eq!(
        first[2]["epd"],
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6"
    );
    let bad: Vec<&serde_json::Value> = lines.iter().filter(|l| l["game"] == 10).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["error"]["message"], "invalid SAN move `Zz9`");
    let fen = tabia()
        .args(["epd", "--json", "--fen"])
        .write_stdin("1. e4 *")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&fen, schema::EPD);
    assert_eq!(
        lines[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn eco_json_of_games_and_positions() {
    let out = tabia()
        .args(["eco", "--json", "-q"])
        .write_stdin(compress(Codec::Bzip2, numbered_games(30).as_bytes()))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::ECO);
    assert_eq!(lines.len(), 30);
    assert_eq!(lines[2]["eco"], "C84", "{}", lines[2]);
    assert_eq!(lines[9]["error"]["game"], 10);
    let out = tabia()
        .args(["eco", "--json", "--position", "startpos", "--position"])
        .arg("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::ECO_POSITION);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["status"], "named");
}

#[test]
fn fen_json() {
    let out = tabia()
        .args(["fen", "--json", "startpos", "e4"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::FEN);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["key"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    );
    assert_eq!(lines[0]["zobrist"], "823c9b50fd114196");
}

#[test]
fn validate_json_of_arguments_and_files() {
    let out = tabia()
        .args(["validate", "--json", "startpos", "8/8/8/8"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::VALIDATE);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(
        lines[1]["problems"][0],
        "piece placement does not have exactly 8 ranks `8/8/8/8` (expected 8 ranks, found 4)"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("positions.epd");
    std::fs::write(
        &path,
        compress(Codec::Zstd, b"startpos\n\n4k3/8/8/8/8/8/8/4K3 b\n"),
    )
    .unwrap();
    let out = tabia()
        .args(["validate", "--json", "-f"])
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = check_all(&out, schema::VALIDATE);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["line"], 3);
    assert_eq!(lines[1]["file"], path.display().to_string());
}
