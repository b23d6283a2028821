//! What every streaming subcommand shares, tried on `tabia pgn`: compressed inputs, standard
//! input, order with several jobs, bad inputs, exit codes, a closed standard output.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
};

use predicates::prelude::*;

use crate::support::{CODECS, compress, fixture, numbered_games, tabia};

fn sample() -> Vec<u8> {
    std::fs::read(fixture("pgn/ok/sample.pgn")).expect("fixture")
}

fn sample_out() -> String {
    std::fs::read_to_string(fixture("pgn/ok/sample.out")).expect("fixture")
}

#[test]
fn each_compression_from_a_file_whatever_its_name() {
    let dir = tempfile::tempdir().unwrap();
    for codec in CODECS {
        // The name says nothing of the compression: the magic bytes do.
        let path = dir.path().join(format!("{codec:?}.pgn"));
        std::fs::write(&path, compress(codec, &sample())).unwrap();
        tabia()
            .args(["pgn", "-q"])
            .arg(&path)
            .assert()
            .success()
            .stdout(sample_out());
    }
}

#[test]
fn a_zip_archive_is_an_input_per_pgn_entry_named_in_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twic1599g.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("readme.txt", deflated).unwrap();
    zip.write_all(b"Not games").unwrap();
    zip.start_file("twic1599.pgn", deflated).unwrap();
    zip.write_all(&sample()).unwrap();
    zip.start_file("bad.pgn", deflated).unwrap();
    zip.write_all(b"1. e4 e5\n2. Kxe8 *\n").unwrap();
    zip.finish().unwrap();
    let games = sample_out().matches("[Event ").count();
    tabia()
        .arg("pgn")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(sample_out())
        .stderr(format!(
            "{}/bad.pgn:2:4: game 1: illegal move 2. Kxe8 (ply 3): no white king can go to e8\n\
             games {}, errors 1, warnings 0\n",
            path.display(),
            games + 1
        ));
    // On standard input there is no directory to read: the message says to name the file.
    tabia()
        .args(["pgn", "-q"])
        .write_stdin(std::fs::read(&path).unwrap())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a zip archive is read from a file, not a stream (its directory is at its end): \
             name the file",
        ));
}

#[test]
fn a_folder_is_its_pgn_files_and_zip_archives_in_the_order_of_their_paths() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("2024/02")).unwrap();
    std::fs::write(root.join("b.pgn"), sample()).unwrap();
    std::fs::write(
        root.join("2024/02/a.PGN.zst"),
        compress(crate::support::Codec::Zstd, &sample()),
    )
    .unwrap();
    std::fs::write(root.join("2024/readme.txt"), "not games").unwrap();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(root.join("c.zip")).unwrap());
    zip.start_file("bad.pgn", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"1. e4 e5\n2. Kxe8 *\n").unwrap();
    zip.finish().unwrap();
    let out = sample_out();
    let games = out.matches("[Event ").count();
    tabia()
        .arg("pgn")
        .arg(root)
        .assert()
        .code(1)
        .stdout(format!("{out}{out}"))
        .stderr(format!(
            "{}/bad.pgn:2:4: game 1: illegal move 2. Kxe8 (ply 3): no white king can go to e8\n\
             games {}, errors 1, warnings 0\n",
            root.join("c.zip").display(),
            2 * games + 1
        ));
    // An output written into the folder is no input of the run that writes it; the next run
    // refuses it, as any input.
    let written = root.join("out.pgn");
    tabia()
        .args(["pgn", "-q", "-o"])
        .arg(&written)
        .arg(root)
        .assert()
        .code(1);
    assert_eq!(
        std::fs::read_to_string(&written).unwrap(),
        format!("{out}{out}")
    );
    tabia()
        .args(["pgn", "-q", "-o"])
        .arg(&written)
        .arg(root)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "will not write to {}: it is the input {}",
            written.display(),
            written.display()
        )));
    // A folder with nothing to read says so.
    let empty = root.join("2024/02/empty");
    std::fs::create_dir_all(&empty).unwrap();
    tabia()
        .arg("pgn")
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "cannot read {}: a folder with no PGN files (.pgn, compressed or not, or .zip)\n",
            empty.display()
        )));
}

#[test]
fn split_refuses_a_folder_that_holds_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts");
    std::fs::create_dir_all(&parts).unwrap();
    let input = parts.join("all.pgn");
    std::fs::write(&input, sample()).unwrap();
    tabia()
        .args(["split", "--games", "1", "--append", "-o"])
        .arg(&parts)
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "will not write into {}: it holds the input {}",
            parts.display(),
            input.display()
        )));
    assert_eq!(std::fs::read(&input).unwrap(), sample());
}

/// A pipe named as a file is read from its first byte: looking for a zip archive's first
/// bytes reads regular files only.
#[cfg(target_os = "linux")]
#[test]
fn a_pipe_named_as_a_file_loses_no_byte() {
    for codec in CODECS {
        tabia()
            .args(["pgn", "-q", "/dev/stdin"])
            .write_stdin(compress(codec, &sample()))
            .assert()
            .success()
            .stdout(sample_out());
    }
}

#[test]
fn each_compression_on_standard_input() {
    for codec in CODECS {
        tabia()
            .args(["pgn", "-q", "-j", "2"])
            .write_stdin(compress(codec, &sample()))
            .assert()
            .success()
            .stdout(sample_out());
    }
}

#[test]
fn several_inputs_are_read_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("a.zst");
    std::fs::write(&zst, compress(crate::support::Codec::Zstd, &sample())).unwrap();
    tabia()
        .args(["pgn", "-q"])
        .arg(&zst)
        .arg("-")
        .arg(fixture("pgn/ok/sample.pgn"))
        .write_stdin("1. e4 *\n")
        .assert()
        .success()
        .stdout(format!(
            "{0}{1}1. e4 *\n\n{0}",
            sample_out(),
            super::unknown_roster("*")
        ));
}

#[test]
fn output_and_diagnostics_keep_the_input_order_with_two_jobs() {
    let pgn = numbered_games(3000);
    let one = tabia()
        .args(["pgn", "-j", "1"])
        .write_stdin(pgn.clone())
        .assert()
        .code(1)
        .get_output()
        .clone();
    let two = tabia()
        .args(["pgn", "-j", "2"])
        .write_stdin(pgn)
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stderr, two.stderr);
    let stdout = String::from_utf8(two.stdout).unwrap();
    let events: Vec<usize> = stdout
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Event \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    let expected: Vec<usize> = (1..=3000).filter(|i| i % 10 != 0).collect();
    assert_eq!(events, expected);
    let stderr = String::from_utf8(two.stderr).unwrap();
    let games: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.split(": game ").nth(1)?.split(':').next())
        .collect();
    let bad: Vec<String> = (1..=300).map(|i| (i * 10).to_string()).collect();
    assert_eq!(games, bad);
    assert!(
        stderr.ends_with("games 3000, errors 300, warnings 0\n"),
        "{stderr}"
    );
}

#[test]
fn bad_games_are_reported_with_file_line_column_and_status_1() {
    tabia()
        .args(["pgn", "--check"])
        .write_stdin(numbered_games(20))
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "<stdin>:39:7: game 10: invalid SAN move `Zz9`\n\
             <stdin>:79:7: game 20: invalid SAN move `Zz9`\n\
             games 20, errors 2, warnings 0\n",
        );
}

#[test]
fn quiet_leaves_out_the_summary_but_not_the_errors() {
    tabia()
        .args(["pgn", "--check", "--quiet"])
        .write_stdin(numbered_games(10))
        .assert()
        .code(1)
        .stderr("<stdin>:39:7: game 10: invalid SAN move `Zz9`\n");
    tabia()
        .args(["pgn", "--check", "-q"])
        .write_stdin(numbered_games(9))
        .assert()
        .success()
        .stderr("");
}

#[test]
fn no_progress_when_standard_error_is_not_a_terminal() {
    // assert_cmd pipes standard error: only the summary appears, no `\r` redraws.
    tabia()
        .args(["pgn", "--check"])
        .write_stdin(numbered_games(9))
        .assert()
        .success()
        .stderr("games 9, errors 0, warnings 0\n");
}

#[test]
fn missing_input_is_status_2_and_the_other_inputs_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pgn");
    tabia()
        .args(["pgn"])
        .arg(&missing)
        .arg(fixture("pgn/ok/sample.pgn"))
        .assert()
        .code(2)
        .stdout(sample_out())
        .stderr(predicate::str::starts_with(format!(
            "tabia: cannot open {}: ",
            missing.display()
        )))
        .stderr(predicate::str::ends_with(
            "games 1, errors 0, warnings 0, unreadable inputs 1\n",
        ));
    tabia()
        .args(["pgn"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a folder with no PGN files"));
}

#[test]
fn corrupt_compressed_input_is_status_2_after_what_could_be_read() {
    let mut bytes = compress(crate::support::Codec::Gzip, numbered_games(500).as_bytes());
    let cut = bytes.len() - 20;
    bytes.truncate(cut);
    tabia()
        .args(["pgn", "-q"])
        .write_stdin(bytes)
        .assert()
        .code(2)
        .stdout(predicate::str::starts_with("[Event \"1\"]"))
        .stderr(predicate::str::contains("tabia: <stdin>: "));
}

#[test]
fn closed_standard_output_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.pgn");
    std::fs::write(&path, numbered_games(20_000)).unwrap();
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabia"))
            .args(["pgn", "-q", "-j", jobs])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one line, then close the pipe, like `| head -1`.
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert_eq!(first, "[Event \"1\"]\n");
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "jobs {jobs}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "jobs {jobs}");
    }
}

#[test]
fn a_pipe_delivering_bytes_slowly_is_read_whole() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabia"))
        .args(["pgn", "-q", "-j", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = compress(crate::support::Codec::Zstd, &sample());
    for chunk in bytes.chunks(7) {
        stdin.write_all(chunk).unwrap();
        stdin.flush().unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), sample_out());
}

/// A file that is not text (an image, a program, random bytes) is said to be so once, not
/// read as thousands of games in error; the other inputs are still read.
#[test]
fn binary_input_is_said_once_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("board.png");
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend((0..4000u32).map(|i| (i * 7919 % 251) as u8));
    std::fs::write(&png, &bytes).unwrap();
    let elf = dir.path().join("ls.pgn.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    std::fs::write(&elf, gz.finish().unwrap()).unwrap();
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, "1. e4 e5 *\n").unwrap();
    for command in [
        &["pgn", "--check"][..],
        &["stats"],
        &["filter", "--plies", "0.."],
    ] {
        let out = tabia()
            .args(command)
            .args(["-j", "2"])
            .arg(&png)
            .arg(&elf)
            .arg(&good)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let stderr: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("time ")).collect();
        assert_eq!(
            stderr[..2],
            [
                format!(
                    "tabia: {} is not PGN or EPD text: binary data at byte 8 (an image, a \
                     program, an archive tabia does not read?)",
                    png.display()
                ),
                format!(
                    "tabia: {} is not PGN or EPD text: binary data at byte 0 (an image, a \
                     program, an archive tabia does not read?)",
                    elf.display()
                ),
            ],
            "{command:?}"
        );
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        if command[0] == "pgn" {
            assert_eq!(
                stderr[2],
                "games 1, errors 0, warnings 0, unreadable inputs 2"
            );
        }
    }
    tabia()
        .arg("pgn")
        .write_stdin(b"\xff\xfe1\x00.\x00 \x00e\x004\x00".to_vec())
        .assert()
        .code(2)
        .stderr(
            "tabia: <stdin> is UTF-16 text: tabia reads UTF-8 (iconv -f UTF-16 -t UTF-8 converts \
             it)\ngames 0, errors 0, warnings 0, unreadable inputs 1\n",
        );
}
