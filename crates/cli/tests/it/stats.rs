//! `tabia stats`: exact text and JSON on a fixture, the same figures for every `-j` and every
//! compression, errors and warnings reported and counted, counts that add up.

use crate::support::{CODECS, compress, fixture, numbered_games, tabia};

/// Runs `tabia stats ARGS` with `stdin`: exit code, stdout without the `time` line (text) or
/// field (JSON), stderr.
fn run(args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String, String) {
    let out = tabia()
        .arg("stats")
        .args(args)
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
