//! Every streaming subcommand on the same inputs: plain, each compression from a file and on
//! standard input, one job and two; bad input and exit codes.

use crate::support::{CODECS, compress, numbered_games, tabia};

/// The streaming subcommands and the arguments that make them read their inputs.
const COMMANDS: [&[&str]; 8] = [
    &["pgn"],
    &["pgn", "--json"],
    &["epd", "--start"],
    &["epd", "--json"],
    &["eco"],
    &["eco", "--tag"],
    &["tree", "--depth", "3"],
    &["tree", "--json", "--depth", "2"],
];

/// Runs `tabia ARGS` with `stdin`: exit code, stdout, stderr.
fn run(args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String, String) {
    let out = tabia()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn same_output_whatever_the_compression_and_the_jobs() {
    let games = numbered_games(400);
    let dir = tempfile::tempdir().unwrap();
    for command in COMMANDS {
        let reference = run(
            &[command, &["-j", "1"]].concat(),
            games.clone().into_bytes(),
        );
        assert_eq!(reference.0, Some(1), "{command:?}: every 10th game is bad");
        assert!(!reference.1.is_empty(), "{command:?}");
        assert_eq!(
            reference
                .2
                .lines()
                .filter(|l| l.contains(": game "))
                .count(),
            40,
            "{command:?}: {}",
            reference.2
        );
        assert!(
            reference.2.ends_with("games 400, errors 40, warnings 0\n"),
            "{command:?}"
        );
        for codec in CODECS {
            let bytes = compress(codec, games.as_bytes());
            let piped = run(&[command, &["-j", "2"]].concat(), bytes.clone());
            assert!(piped == reference, "{command:?} {codec:?} on stdin, 2 jobs");
            let path = dir.path().join(format!("{codec:?}"));
            std::fs::write(&path, &bytes).unwrap();
            let path = path.display().to_string();
            let from_file = run(&[command, &["-j", "2", &path]].concat(), Vec::new());
            assert!(
                from_file.1 == reference.1.replace("<stdin>", &path),
                "{command:?} {codec:?} from a file"
            );
            assert_eq!(
                from_file.2,
                reference.2.replace("<stdin>", &path),
                "{command:?} {codec:?} from a file"
            );
        }
    }
}

/// Games whose ends only a careful reader finds: comments over several lines with lines that
/// start with `[` in them, comments after results, tag sections without movetext, a game that
/// starts in the middle of a line, a `%` line, Windows line ends.
fn awkward_games() -> String {
    let mut pgn = String::new();
    for i in 1..=60 {
        pgn += &match i % 6 {
            0 => format!(
                "[Event \"{i}\"]\n\n1. e4 {{a comment\n[Event \"not a game\"]\n\n}} e5 1-0\n\n"
            ),
            1 => format!("[Event \"{i}\"]\n\n1. d4 d5 1/2-1/2 {{after\n[the result]\n}}\n\n"),
            2 => format!("[Event \"{i}\"]\n[Site \"tags only\"]\n\n"),
            3 => format!("[Event \"{i}\"]\r\n\r\n1. c4 Zz9 *\r\n\r\n"),
            4 => format!("[Event \"{i}\"]\n\n1. Nf3 *[Event \"{i}b\"]\n\n1. g3 0-1\n%escaped\n\n"),
            _ => format!(
                "[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {{long {}}} a6 *\n\n",
                "x".repeat(i * 7)
            ),
        };
    }
    pgn
}

#[test]
fn games_split_on_the_workers_in_small_pieces_give_the_output_of_one_job() {
    let games = numbered_games(60) + &awkward_games();
    let commands: [&[&str]; 10] = [
        &["pgn"],
        &["pgn", "--json"],
        &["pgn", "--check"],
        &["epd", "--start"],
        &["eco"],
        &["filter", "--result", "1-0"],
        &["filter", "--tag", "Event~5"],
        &["filter", "--position", "startpos", "--raw"],
        &["dedup"],
        &["tree", "--json", "--depth", "2"],
    ];
    for command in commands {
        let one = tabia()
            .args([command, &["-j", "1"]].concat())
            .write_stdin(games.clone())
            .output()
            .unwrap();
        assert!(
            !one.stdout.is_empty() || !one.stderr.is_empty(),
            "{command:?}"
        );
        for bytes in ["1", "200", "3000"] {
            let many = tabia()
                .args([command, &["-j", "3"]].concat())
                .env("TABIA_BATCH_BYTES", bytes)
                .write_stdin(games.clone())
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&many.stdout),
                String::from_utf8_lossy(&one.stdout),
                "{command:?} in pieces of {bytes} bytes"
            );
            assert_eq!(
                String::from_utf8_lossy(&many.stderr),
                String::from_utf8_lossy(&one.stderr),
                "{command:?} in pieces of {bytes} bytes"
            );
            assert_eq!(many.status.code(), one.status.code());
        }
    }
}

#[test]
fn validate_reads_files_like_the_others() {
    let positions = "startpos\n4k3/8/8/8/8/8/8/4K2P w - - 0 1\n8/8/8/8\n";
    let reference = run(&["validate", "-f", "-"], positions.as_bytes().to_vec());
    assert_eq!(reference.0, Some(1));
    assert_eq!(
        reference.1,
        "<stdin>:2: white pawn on h1: no pawn may stand on rank 1\n\
         <stdin>:3:1: piece placement does not have exactly 8 ranks (expected 8 ranks)\n"
    );
    assert_eq!(reference.2, "positions 3, errors 2, warnings 0\n");
    for codec in CODECS {
        let got = run(
            &["validate", "-j", "2", "--file", "-"],
            compress(codec, positions.as_bytes()),
        );
        assert_eq!(got, reference, "{codec:?}");
    }
}

#[test]
fn a_missing_input_is_status_2_for_every_subcommand() {
    for command in COMMANDS {
        let (code, _, err) = run(&[command, &["no/such/file.pgn"]].concat(), Vec::new());
        assert_eq!(code, Some(2), "{command:?}");
        assert!(
            err.starts_with("tabia: cannot open no/such/file.pgn: "),
            "{err}"
        );
    }
    let (code, _, _) = run(&["validate", "-f", "no/such/file"], Vec::new());
    assert_eq!(code, Some(2));
}

#[test]
fn all_good_is_status_0_for_every_subcommand() {
    for command in COMMANDS {
        let (code, out, err) = run(&[command, &["-q"]].concat(), numbered_games(9).into_bytes());
        assert_eq!((code, err.as_str()), (Some(0), ""), "{command:?}");
        assert!(!out.is_empty(), "{command:?}");
    }
}

#[test]
fn epd_text_and_json_give_the_same_positions() {
    // The text output replays as it reads; --json builds the game tree: same positions.
    let games = numbered_games(60).into_bytes();
    let (_, text, _) = run(&["epd", "--start", "-q"], games.clone());
    let (_, json, _) = run(&["epd", "--start", "-q", "--json"], games);
    let from_text: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let from_json: Vec<String> = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter_map(|v| v.get("epd").and_then(|e| e.as_str()).map(str::to_owned))
        .collect();
    // 6 bad games; 18 long good ones (10 plies and the start), 36 short ones (2 and the start).
    assert_eq!(from_text.len(), 18 * 11 + 36 * 3);
    assert_eq!(from_text, from_json);
}
