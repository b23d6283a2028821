//! `--json` of every subcommand, checked against the schema documented in the README.

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
        if n % 10 == 0 {
            assert_eq!(line["error"]["message"], "invalid SAN move");
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
