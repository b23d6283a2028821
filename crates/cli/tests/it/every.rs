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
        // (`eco --tag` counts its tags between the games and the errors.)
        let summary = reference.2.lines().last().unwrap_or_default();
        assert!(
            summary.starts_with("games 400, ") && summary.ends_with(", errors 40, warnings 0"),
            "{command:?}: {summary}"
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
        &["filter", "--plies", "5.."],
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
         <stdin>:3:1: piece placement does not have exactly 8 ranks `8/8/8/8` (expected 8 ranks, found 4)\n"
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

/// The commands that write text, with `-o FILE` as with standard output.
const WRITERS: [&[&str]; 10] = [
    &["pgn"],
    &["pgn", "--json"],
    &["epd"],
    &["eco"],
    &["eco", "--json"],
    &["stats"],
    &["tree", "--depth", "2"],
    &["filter", "--plies", "5.."],
    &["dedup"],
    &["filter", "--raw", "--commented"],
];

/// `text` without the line of `tabia stats` that says how long it took.
fn steady(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with("time "))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn output_file_holds_what_standard_output_would() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pgn");
    std::fs::write(&input, numbered_games(60)).unwrap();
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.txt");
    for command in WRITERS {
        // Every tenth game is bad: reported on standard error, whatever the output.
        let (code, stdout, stderr) = run(&[command, &["-q", input]].concat(), Vec::new());
        assert!(matches!(code, Some(0 | 1)), "{command:?}: {stderr}");
        assert!(!stdout.is_empty(), "{command:?}");
        // A file that is there is replaced with --force.
        std::fs::write(&out, "old text that is longer than nothing".repeat(1000)).unwrap();
        let args = [
            command,
            &["--force", "-q", input, "-o", out.to_str().unwrap()],
        ]
        .concat();
        assert_eq!(
            run(&args, Vec::new()),
            (code, String::new(), stderr),
            "{command:?}"
        );
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(steady(&written), steady(&stdout), "{command:?}");
        // `-o -` is standard output.
        let args = [command, &["-q", input, "-o", "-"]].concat();
        assert_eq!(
            steady(&run(&args, Vec::new()).1),
            steady(&stdout),
            "{command:?}"
        );
    }
}

#[test]
fn an_input_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let games = numbered_games(5);
    let input = dir.path().join("games.pgn");
    std::fs::write(&input, &games).unwrap();
    let name = input.to_str().unwrap();
    // The same file by another name (`./` inside the folder) is the same file.
    let other = dir.path().join(".").join("games.pgn");
    let other = other.to_str().unwrap();
    let mut cases: Vec<Vec<&str>> = WRITERS
        .iter()
        .map(|command| [*command, &[name, "-o", other]].concat())
        .collect();
    cases.push(vec!["dedup", name, "--duplicates", other]);
    cases.push(vec!["table", name, "-o", other]);
    cases.push(vec!["book", "build", name, "-o", other]);
    for args in cases {
        let (code, stdout, stderr) = run(&args, Vec::new());
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(
            stderr,
            format!(
                "tabia: will not write to {other}: it is the input {name}, which would be \
                 emptied before it is read\n"
            ),
            "{args:?}"
        );
        assert_eq!(std::fs::read_to_string(&input).unwrap(), games, "{args:?}");
    }
    // The moves table next to the games table is checked too.
    let moves = dir.path().join("t.moves");
    std::fs::write(&moves, &games).unwrap();
    let t = dir.path().join("t");
    let args = [
        "table",
        moves.to_str().unwrap(),
        "--moves",
        "-o",
        t.to_str().unwrap(),
    ];
    let (code, _, stderr) = run(&args, Vec::new());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("it is the input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&moves).unwrap(), games);
}

/// Every command that reads games, as arguments before the inputs; `{out}` is a folder of the
/// run's own, whose files are compared too; `&&` runs the next command after it (the inputs
/// and `-j` go to the first).
const READERS: &[&[&str]] = &[
    &["pgn"],
    &["pgn", "--json", "--check"],
    &["epd", "--json"],
    &["epd", "--start"],
    &["eco", "--json"],
    &["eco", "--tag"],
    &["tree", "--json", "--depth", "3"],
    &["tree", "--json", "--depth", "3", "--max-nodes", "40"],
    &["tree", "--depth", "2", "--max-nodes", "150"],
    &["book", "build", "--min-games", "1", "-o", "{out}/b.bin"],
    &[
        "book",
        "build",
        "--min-games",
        "1",
        "--max-nodes",
        "40",
        "-o",
        "{out}/b.bin",
    ],
    &["dedup"],
    &["dedup", "--json", "--duplicates", "{out}/dups.pgn"],
    &["filter", "--plies", "5.."],
    &["filter", "--position", "startpos", "--json"],
    &["split", "--games", "7", "-o", "{out}/split"],
    &["split", "--by", "eco", "-o", "{out}/eco"],
    &["stats", "--json"],
    &["table", "--moves", "--format", "csv", "-o", "{out}/t.csv"],
    &[
        "index",
        "build",
        "-o",
        "{out}/idx",
        "&&",
        "index",
        "query",
        "{out}/idx",
        "--json",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "&&",
        "index",
        "query",
        "{out}/idx",
        "--json",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
    ],
];

/// Every `.pgn` file under `dir`, sorted.
fn pgn_files(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a fixture folder") {
        let path = entry.expect("a fixture").path();
        if path.is_dir() {
            pgn_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            files.push(path);
        }
    }
    files.sort();
}

/// Every file under `dir` (an index's files excepted: its pages are its own business, what it
/// answers is compared), sorted.
fn written(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the output folder") {
        let path = entry.expect("a file").path();
        if path.is_dir() {
            written(&path, files);
        } else if !path.ends_with("idx") {
            files.push(path);
        }
    }
    files.sort();
}

/// What `command` with `-j jobs` over `inputs` gave: status, standard output and error of
/// each command of its chain, then the files it wrote, with its output folder's name and
/// `stats --json`'s timing put aside.
fn outputs_with_jobs(command: &[&str], jobs: &str, inputs: &[String]) -> Vec<u8> {
    let out = tempfile::tempdir().expect("tempdir");
    let folder = out.path().display().to_string();
    let normalise = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).replace(&folder, "{out}");
        match text.find(",\"time\":{") {
            Some(at) => {
                let end = text[at..].find('}').map_or(text.len(), |e| at + e + 1);
                format!("{}{}", &text[..at], &text[end..])
            }
            None => text,
        }
    };
    let args: Vec<String> = command
        .iter()
        .map(|a| a.replace("{out}", &folder))
        .collect();
    let mut seen = Vec::new();
    for (i, part) in args.split(|a| a == "&&").enumerate() {
        let mut run = tabia();
        run.args(part).env("TABIA_BATCH_BYTES", "1000");
        if i == 0 {
            run.args(["-j", jobs]).args(inputs);
        }
        let done = run.output().expect("runs");
        seen.extend(format!("status {:?}\n", done.status.code()).into_bytes());
        seen.extend(normalise(&done.stdout).into_bytes());
        seen.extend(b"\n--stderr--\n");
        seen.extend(normalise(&done.stderr).into_bytes());
    }
    let mut files = Vec::new();
    written(out.path(), &mut files);
    for file in files {
        let name = file.strip_prefix(out.path()).unwrap_or(&file).display();
        seen.extend(format!("\n--file {name}--\n").into_bytes());
        seen.extend(std::fs::read(&file).expect("a written file"));
    }
    seen
}

/// Issue 41: every command that reads games gives the same bytes with one job, two and four,
/// on every game of the fixtures in small batches, budgeted trees and books included.
#[test]
fn every_command_gives_the_same_bytes_on_one_two_and_four_jobs() {
    let mut files = Vec::new();
    pgn_files(&crate::support::fixture(""), &mut files);
    assert!(files.len() > 20, "the fixtures' games");
    // Twice, so that the budgets prune games the trees have seen.
    let inputs: Vec<String> = files
        .iter()
        .chain(&files)
        .map(|f| f.display().to_string())
        .collect();
    for command in READERS {
        let one = outputs_with_jobs(command, "1", &inputs);
        assert!(
            one.len() > 100,
            "{command:?}: {}",
            String::from_utf8_lossy(&one)
        );
        for jobs in ["2", "4"] {
            let many = outputs_with_jobs(command, jobs, &inputs);
            assert!(
                many == one,
                "{command:?} with -j {jobs}:\n{}\n\nand -j 1:\n{}",
                String::from_utf8_lossy(&many),
                String::from_utf8_lossy(&one)
            );
        }
    }
}
