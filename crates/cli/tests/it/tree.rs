//! `tabia tree`: the same tree whatever `-j`, text and JSON in step, the HTML page, errors.

use crate::support::{dedup_and_index, fixture, index_inputs, tabia};

fn stdout(args: &[&str]) -> String {
    let out = tabia().args(args).output().expect("runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn one_job_or_two_give_the_same_tree() {
    let games = fixture("book/games.pgn").display().to_string();
    let sample = fixture("pgn/ok/sample.pgn").display().to_string();
    for extra in [
        &["--depth", "4"][..],
        &["--json", "--depth", "3"],
        &["--min-games", "2", "--depth", "6"],
    ] {
        let mut one = vec!["tree", "-j", "1", &games, &sample, &games];
        one.extend_from_slice(extra);
        let mut two = one.clone();
        two[2] = "2";
        let a = stdout(&one);
        assert!(a.contains("e4"), "{a}");
        assert_eq!(a, stdout(&two), "{extra:?}");
    }
}

#[test]
fn figures_summary_and_status() {
    let games = fixture("book/games.pgn").display().to_string();
    tabia()
        .args(["tree", "--position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -", &games])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("position  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nopening   B00 King's Pawn Game\ngames     4 (white 33.3%, draws 33.3%, black 33.3%)\n"))
        .stdout(predicates::str::contains("1... c5      2  50.0%   0 0.0%   0 0.0%  1 100.0%  100.0%    1950       2024  B20 Sicilian Defense\n"))
        .stderr(predicates::str::ends_with(format!(
            "{games}:89:13: game 11: illegal move 2. Ke3 (ply 3): no white king can go to e3\ngames 11, errors 1, warnings 0\n"
        )));
}

#[test]
fn json_has_counts_percentages_and_nested_moves() {
    let games = fixture("book/games.pgn").display().to_string();
    let out = stdout(&["tree", "--json", "--depth", "2", &games]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["games"], 9);
    assert_eq!(v["ended"], 1);
    let e4 = &v["moves"][0];
    assert_eq!(
        (e4["san"].as_str(), e4["uci"].as_str()),
        (Some("e4"), Some("e2e4"))
    );
    assert_eq!(
        (
            e4["games"].as_u64(),
            e4["white"].as_u64(),
            e4["draws"].as_u64(),
            e4["black"].as_u64()
        ),
        (Some(4), Some(1), Some(1), Some(1))
    );
    assert_eq!(e4["rating"], 2000);
    assert_eq!(
        (e4["first_year"].as_u64(), e4["last_year"].as_u64()),
        (Some(1975), Some(2024))
    );
    assert_eq!(e4["next"]["moves"][0]["opening"]["eco"], "B20");
}

#[test]
fn html_page_is_written_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("tree.html");
    let games = fixture("book/games.pgn").display().to_string();
    tabia()
        .args(["tree", "-q", "--html", &page.display().to_string(), &games])
        .assert()
        .code(1)
        .stdout("");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.contains("<svg xmlns="),
        "the board is the SVG renderer's"
    );
    assert!(html.contains("\"san\":\"Bb4\""), "4 plies deep and more");
    for remote in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!html.contains(remote), "no network: {remote}");
    }
}

#[test]
fn a_bad_position_is_a_usage_error() {
    tabia()
        .args(["tree", "--position", "not a fen"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad --position"));
}

/// The positions are named by lichess's table, or with `--openings scid` by Scid's.
#[test]
fn openings_name_the_positions_by_the_table_asked_for() {
    let games = fixture("eco/ok/games.pgn").display().to_string();
    let open_game = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    let lichess = stdout(&["tree", "-q", "--position", open_game, &games]);
    assert_eq!(
        lichess.lines().nth(1),
        Some("opening   C20 King's Pawn Game")
    );
    let scid = stdout(&[
        "tree",
        "-q",
        "--openings",
        "scid",
        "--position",
        open_game,
        &games,
    ]);
    assert_eq!(scid.lines().nth(1), Some("opening   C20 Open Game"));
}

#[test]
fn a_bare_placement_means_what_it_means_to_filter() {
    // After 1. e4, Black to move with every castling right: given as a placement alone it is
    // found as `filter --position` finds it.
    let games = fixture("book/games.pgn").display().to_string();
    let placement = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
    let tree = stdout(&["tree", "--position", placement, &games]);
    assert!(
        tree.starts_with(
            "position  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
             opening   B00 King's Pawn Game\ngames     4 "
        ),
        "{tree}"
    );
    let filter = stdout(&["filter", "--position", placement, &games]);
    assert_eq!(filter.matches("[Event ").count(), 4, "{filter}");
    tabia()
        .args(["tree", "--position", "8/8/8/8/8/8/8/8", &games])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "bad --position: no legal position has this placement",
        ));
}

/// The rating column blanked: the index keeps each game's mean rating, not the mover's.
fn without_ratings(text: &str) -> String {
    if text.starts_with('{') {
        let mut value: serde_json::Value = serde_json::from_str(text).expect("JSON");
        fn strip(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(map) => {
                    map.remove("rating");
                    map.values_mut().for_each(strip);
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut value);
        return value.to_string();
    }
    let Some(end) = text
        .lines()
        .find_map(|l| l.find("  rating").map(|at| at + 8))
    else {
        return text.to_owned();
    };
    text.lines()
        .map(|line| match line.get(..end) {
            Some(head) if line.len() > end && head.len() >= 8 => {
                format!("{}{}", &head[..end - 8], &line[end..])
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_tree_from_an_index_is_the_tree_of_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let (index, dedup) = dedup_and_index(dir.path(), &index_inputs());
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    for extra in [
        &["--depth", "1"][..],
        &["--depth", "3"],
        &["--json", "--depth", "3"],
        &["--position", after_e4, "--depth", "3", "--min-games", "2"],
    ] {
        let mut from_games = vec!["tree", &dedup];
        from_games.extend_from_slice(extra);
        let mut from_index = vec!["tree", "--index", &index];
        from_index.extend_from_slice(extra);
        let (a, b) = (stdout(&from_games), stdout(&from_index));
        assert!(a.contains("Nf3"), "{a}");
        assert_eq!(
            without_ratings(&a),
            without_ratings(&b),
            "{extra:?}\n{a}\n{b}"
        );
    }
    // A FILE and --index are exclusive.
    tabia()
        .args(["tree", "--index", &index, &dedup])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with"));
}
