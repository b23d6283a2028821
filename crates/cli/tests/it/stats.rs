//! `tabia stats`: exact text and JSON on a fixture, the same figures for every `-j` and every
//! compression, errors and warnings reported and counted, counts that add up.

use tabia_notation::{Color, pgn::Score};
use tabia_stats::lichess;

use crate::support::{CODECS, compress, fixture, numbered_games, tabia};

/// Runs `tabia stats ARGS` with `stdin`: exit code, stdout without the `time` line (text) or
/// field (JSON), stderr.
fn run(args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String, String) {
    run_env(args, stdin, &[])
}

/// [`run`] with environment variables.
fn run_env(args: &[&str], stdin: Vec<u8>, env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = tabia()
        .arg("stats")
        .args(args)
        .envs(env.iter().copied())
        .write_stdin(stdin)
        .output()
        .expect("runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let stdout = if args.contains(&"--json") {
        // The time is the last field: `..., "time":{...}}`.
        let (figures, time) = stdout.rsplit_once(",\"time\":").expect("a time field");
        let time: serde_json::Value = serde_json::from_str(&time[..time.len() - 2]).expect("JSON");
        assert!(time["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{time}");
        format!("{figures}}}\n")
    } else {
        let (figures, time) = stdout.rsplit_once("time ").expect("a time line");
        assert!(
            time.ends_with(" games/s\n") && time.contains(" MB/s, "),
            "{time}"
        );
        figures.to_owned()
    };
    (
        out.status.code(),
        stdout,
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture")
}

#[test]
fn text_and_json_are_exact_for_one_job_or_two() {
    let games = fixture("stats/games.pgn").display().to_string();
    let err = expected("stats/games.err").replace("FILE", &games);
    for jobs in ["1", "2"] {
        let (code, out, stderr) = run(&["-j", jobs, &games], Vec::new());
        assert_eq!(code, Some(1), "a bad game makes the status 1");
        assert_eq!(out, expected("stats/games.txt"), "-j {jobs}");
        assert_eq!(stderr, err, "-j {jobs}");
        let (_, out, _) = run(&["-j", jobs, "--json", &games], Vec::new());
        assert_eq!(out, expected("stats/games.json"), "-j {jobs}");
    }
    let (code, _, stderr) = run(&["-q", &games], Vec::new());
    assert_eq!(code, Some(1));
    assert!(!stderr.contains("games 9"), "quiet: no summary: {stderr}");
}

#[test]
fn counts_add_up() {
    let games = fixture("stats/games.pgn").display().to_string();
    let (_, out, _) = run(&["--json", &games], Vec::new());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let sum = |v: &serde_json::Value| v.as_object().unwrap().values().map(n).sum::<u64>();
    let read = n(&v["read"]);
    assert_eq!(n(&v["games"]), read + n(&v["errors"]));
    assert_eq!(sum(&v["results"]), read);
    assert_eq!(sum(&v["time_controls"]), read);
    let variants: u64 = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| n(&c["games"]))
        .sum();
    assert_eq!(variants, read);
}

#[test]
fn same_figures_whatever_the_compression_and_the_jobs() {
    // Every 10th game is bad; 750 KB make several batches of about 256 KiB.
    let games = numbered_games(400).repeat(40);
    let reference = run(&["-j", "1", "--json"], games.clone().into_bytes());
    assert_eq!(reference.0, Some(1));
    assert!(reference.1.contains("\"games\":16000,"), "{}", reference.1);
    assert!(reference.1.contains("\"errors\":1600,"), "{}", reference.1);
    assert!(
        reference
            .2
            .ends_with("games 16000, errors 1600, warnings 0\n")
    );
    let text = run(&["-j", "1"], games.clone().into_bytes());
    for codec in CODECS {
        let bytes = compress(codec, games.as_bytes());
        assert_eq!(
            run(&["-j", "2", "--json"], bytes.clone()),
            reference,
            "{codec:?}"
        );
        assert_eq!(run(&["-j", "3"], bytes), text, "{codec:?}");
    }
}

#[test]
fn several_files_add_up_and_a_missing_one_fails() {
    let games = fixture("stats/games.pgn").display().to_string();
    let (code, out, stderr) = run(&["--json", &games, "missing.pgn", &games], Vec::new());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("tabia: cannot open missing.pgn"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("games 18, errors 2, warnings 2, unreadable inputs 1\n"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["players"].as_u64()),
        (Some(18), Some(6))
    );
    assert_eq!(v["plies"]["median"], 3, "the median of A ++ A is that of A");
}

#[test]
fn a_cut_off_input_is_reported_alike_in_one_pass_and_in_parallel() {
    let games = numbered_games(300);
    let mut bytes = zstd::encode_all(games.as_bytes(), 3).expect("zstd");
    bytes.truncate(bytes.len() * 2 / 3);
    let one = run(&["-j", "1", "--json"], bytes.clone());
    let two = run(&["-j", "2", "--json"], bytes);
    assert_eq!(one.0, Some(2), "{}", one.2);
    assert!(one.2.contains("tabia: <stdin>: read error"), "{}", one.2);
    assert_eq!(
        one.2.lines().last(),
        two.2.lines().last(),
        "the same summary"
    );
    assert_eq!(
        one.2.lines().filter(|l| l.starts_with("tabia: ")).count(),
        1,
        "{}",
        one.2
    );
}

/// The accuracy section of a text report (up to the `time` line, which `run` cut).
fn accuracy_section(text: &str) -> &str {
    let at = text.find("\naccuracy ").expect("an accuracy section");
    &text[at + 1..]
}

/// The figures of one side, as `tabia stats` rounds them, from the lichess module's functions:
/// sides, moves, accuracy, ACPL, inaccuracies, mistakes, blunders.
fn side_figures(start: Color, evals: &[Score], color: Color) -> (u64, u64, f64, f64, [u64; 3]) {
    let accuracy = lichess::game_accuracy(start, evals)
        .get(color)
        .copied()
        .expect("an accuracy");
    let (mut moves, mut loss, mut judgements) = (0u64, 0u64, [0u64; 3]);
    for (mover, before, after) in lichess::moves(start, evals).filter(|m| m.0 == color) {
        moves += 1;
        loss += u64::from(lichess::centipawn_loss(mover, before, after));
        if let Some(advice) = lichess::advice(mover, before, after) {
            judgements[advice.judgement as usize] += 1;
        }
    }
    let two_decimals = |x: f64| (x * 100.0).round() / 100.0;
    // Summed in thousandths of a percent.
    let accuracy = two_decimals((accuracy * 1000.0).round() / 1000.0);
    (
        1,
        moves,
        accuracy,
        two_decimals(loss as f64 / moves as f64),
        judgements,
    )
}

/// A band of the JSON report, by name, as `side_figures` gives them.
fn band_figures(json: &serde_json::Value, name: &str) -> (u64, u64, f64, f64, [u64; 3]) {
    let band = json["accuracy"]["bands"]
        .as_array()
        .expect("bands")
        .iter()
        .find(|b| b["band"] == name)
        .unwrap_or_else(|| panic!("no band {name}: {json}"));
    let n = |v: &serde_json::Value| v.as_u64().expect("a count");
    let j = &band["judgements"];
    (
        n(&band["sides"]),
        n(&band["moves"]),
        band["accuracy"].as_f64().expect("an accuracy"),
        band["acpl"].as_f64().expect("an ACPL"),
        [n(&j["inaccuracies"]), n(&j["mistakes"]), n(&j["blunders"])],
    )
}

#[test]
fn accuracy_by_rating_band_when_the_games_carry_evals() {
    let evals = fixture("stats/evals.pgn").display().to_string();
    let (code, text, stderr) = run(&["-j", "1", &evals], Vec::new());
    assert_eq!(code, Some(0), "{stderr}");
    tabia_testkit::expect_file(&fixture("stats/evals.txt"), accuracy_section(&text));
    let (_, json, _) = run(&["-j", "1", "--json", &evals], Vec::new());
    // Small batches on one worker or two: many parts merged, the same figures to the last digit.
    for jobs in ["1", "2"] {
        let small = [("TABIA_BATCH_BYTES", "200")];
        let (_, text_small, _) = run_env(&["-j", jobs, &evals], Vec::new(), &small);
        assert_eq!(text_small, text, "-j {jobs}");
        let (_, json_small, _) = run_env(&["-j", jobs, "--json", &evals], Vec::new(), &small);
        assert_eq!(json_small, json, "-j {jobs}");
    }
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let accuracy = &v["accuracy"];
    // Judged: the mate (its last move scored as mate), the trap, the draw (its last move left
    // out), the game from a FEN; left out: the game with a move without an eval before others.
    assert_eq!(
        (accuracy["games"].as_u64(), accuracy["left_out"].as_u64()),
        (Some(4), Some(1))
    );
    let names: Vec<&str> = accuracy["bands"]
        .as_array()
        .expect("bands")
        .iter()
        .map(|b| b["band"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        [
            "under 1000",
            "1000-1199",
            "1400-1599",
            "1600-1799",
            "1800-1999",
            "2500+",
            "unrated"
        ]
    );
    // The mate: Ada (1850) and Ben (1790), the last move Ada's mate.
    let cp = |cps: &[i32]| cps.iter().map(|&c| Score::Cp(c)).collect::<Vec<_>>();
    let mut mate = cp(&[32, 28, 15, 22, 0]);
    mate.extend([Score::Mate(1), Score::Mate(1)]);
    assert_eq!(
        band_figures(&v, "1800-1999"),
        side_figures(Color::White, &mate, Color::White)
    );
    assert_eq!(
        band_figures(&v, "1600-1799"),
        side_figures(Color::White, &mate, Color::Black)
    );
    // From the FEN, Black (1010) first; White (950).
    let fen = cp(&[0, 0, 150, 20, 30, 0, 0]);
    assert_eq!(
        band_figures(&v, "1000-1199"),
        side_figures(Color::Black, &fen, Color::Black)
    );
    assert_eq!(
        band_figures(&v, "under 1000"),
        side_figures(Color::Black, &fen, Color::White)
    );
    // The draw, its last move (no eval) left out: Eva (2600), Finn (unrated).
    let draw = cp(&[20, 20, 10, 15, 10, 20, 15, 25, 10, 10, 5, 10]);
    assert_eq!(
        band_figures(&v, "2500+"),
        side_figures(Color::White, &draw, Color::White)
    );
    assert_eq!(
        band_figures(&v, "unrated"),
        side_figures(Color::White, &draw, Color::Black)
    );
    // `all` adds up the bands.
    let n = |v: &serde_json::Value| v.as_u64().expect("a count");
    let bands = accuracy["bands"].as_array().expect("bands");
    for field in ["sides", "moves"] {
        let sum: u64 = bands.iter().map(|b| n(&b[field])).sum();
        assert_eq!(sum, n(&accuracy["all"][field]), "{field}");
    }
}

#[test]
fn accuracy_of_lichess_s_export_and_none_without_evals() {
    // lichess writes no eval after the mating move; the second game has an eval on its last
    // move only.
    let lichess = fixture("pgn/ok/clocks-evals.pgn").display().to_string();
    let (_, text, _) = run(&[&lichess], Vec::new());
    assert!(
        accuracy_section(&text).starts_with(
            "accuracy        1 game judged, 1 left out (a move before the last without an eval)\n"
        ),
        "{text}"
    );
    let (_, json, _) = run(&["--json", &lichess], Vec::new());
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let cp = |cps: &[i32]| cps.iter().map(|&c| Score::Cp(c)).collect::<Vec<_>>();
    let mut evals = cp(&[17, 20, -50, -40, -30]);
    evals.extend([Score::Mate(1), Score::Mate(1)]);
    assert_eq!(
        band_figures(&v, "1800-1999"),
        side_figures(Color::White, &evals, Color::White)
    );
    assert_eq!(
        band_figures(&v, "1600-1799"),
        side_figures(Color::White, &evals, Color::Black)
    );
    // No eval anywhere: no section, no field.
    let plain = fixture("pgn/ok/sample.pgn").display().to_string();
    let (_, text, _) = run(&[&plain], Vec::new());
    assert!(!text.contains("\naccuracy "), "{text}");
    let (_, json, _) = run(&["--json", &plain], Vec::new());
    assert!(!json.contains("\"accuracy\""), "{json}");
}
