//! The facade against the layers under it: `tabia::read` on all cores gives the games that
//! reading the same bytes on one thread gives, whatever the compression, job count or batch,
//! and every game read is a game or an error.

use std::{fs, path::PathBuf};

use proptest::prelude::*;
use tabia::{
    GameErrorKind, InputArg, Reader,
    notation::pgn::PgnReader,
    select::{Criterion, Options, Query, TagCriterion},
};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The games of the fixture files in one text, with some bad ones among them.
fn corpus() -> Vec<u8> {
    let mut text = Vec::new();
    for dir in ["pgn/ok", "pgn/err", "select", "stats"] {
        let mut paths: Vec<_> = fs::read_dir(fixtures().join(dir))
            .expect("a fixture folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        paths.sort();
        for path in paths {
            text.extend(fs::read(path).expect("a fixture"));
            text.extend(b"\n\n");
        }
    }
    text
}

/// Each game as its export text, or the error's line and message, read on one thread.
fn expected(bytes: &[u8]) -> Vec<Result<String, String>> {
    PgnReader::new(bytes)
        .games()
        .map(|game| match game {
            Ok(game) => Ok(game.to_string()),
            Err(error) => Err(error.syntax().map_or(String::new(), |e| e.brief())),
        })
        .collect()
}

fn actual(reader: &Reader) -> Vec<Result<String, String>> {
    reader
        .games()
        .map(|game| match game {
            Ok(game) => Ok(game.to_string()),
            Err(error) => match error.kind() {
                GameErrorKind::Syntax(e) => Err(e.brief()),
                other => panic!("not a syntax error: {other:?}"),
            },
        })
        .collect()
}

#[test]
fn all_cores_read_what_one_thread_reads_in_every_container() {
    let text = corpus();
    let want = expected(&text);
    assert!(want.len() > 50, "{} games", want.len());
    assert!(want.iter().filter(|g| g.is_err()).count() >= 5);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let plain = dir.path().join("games.pgn");
    fs::write(&plain, &text).expect("written");
    let zst = dir.path().join("sub/games.pgn.zst");
    fs::create_dir_all(zst.parent().expect("a parent")).expect("created");
    fs::write(&zst, zstd::encode_all(&text[..], 3).expect("compressed")).expect("written");
    for jobs in [1, 2, 3] {
        assert_eq!(
            actual(&Reader::new([&plain]).jobs(jobs)),
            want,
            "plain, {jobs} jobs"
        );
        assert_eq!(
            actual(&Reader::new([&zst]).jobs(jobs)),
            want,
            "zstd, {jobs} jobs"
        );
    }
    // A folder is its PGN files, in the order of their paths: the plain one, then the other.
    let twice: Vec<_> = want.iter().chain(&want).cloned().collect();
    assert_eq!(actual(&Reader::new([dir.path()])), twice);
}

#[test]
fn a_missing_file_is_an_error_item_and_the_next_input_is_read() {
    let sample = fixtures().join("pgn/ok/sample.pgn");
    let items: Vec<_> = tabia::read([PathBuf::from("no/such.pgn"), sample]).collect();
    assert_eq!(items.len(), 2);
    let error = items[0].as_ref().expect_err("no such file");
    assert!(error.ends_input());
    assert_eq!((error.input(), error.number()), ("no/such.pgn", None));
    assert_eq!(
        error.to_string(),
        "cannot open no/such.pgn: No such file or directory (os error 2)"
    );
    assert!(items[1].is_ok());
}

#[test]
fn a_truncated_input_ends_with_an_error_after_its_whole_games() {
    // Several zstd blocks (of 128 KiB), so that half the file holds whole games.
    let text: Vec<u8> = (0..20_000)
        .flat_map(|i| {
            format!("[Event \"{i}\"]\n\n1. e4 e5 {{ {} }} 1-0\n\n", i * 7919).into_bytes()
        })
        .collect();
    let compressed = zstd::encode_all(&text[..], 3).expect("compressed");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cut = dir.path().join("cut.pgn.zst");
    fs::write(&cut, &compressed[..compressed.len() / 2]).expect("written");
    let items: Vec<_> = tabia::read([&cut]).collect();
    let (last, games) = items.split_last().expect("items");
    assert!(games.iter().all(Result::is_ok));
    assert!(
        !games.is_empty() && games.len() < 20_000,
        "{} games",
        games.len()
    );
    let error = last.as_ref().expect_err("a read error");
    assert!(error.ends_input(), "{error}");
    assert_eq!(error.number(), Some(games.len() as u64 + 1));
    assert_eq!(
        error.to_string(),
        format!("{}: read error: incomplete frame", cut.display())
    );
}

#[test]
fn stats_of_a_truncated_input_count_the_games_before_the_cut() {
    let text: Vec<u8> = (0..20_000)
        .flat_map(|i| {
            format!("[Event \"{i}\"]\n\n1. e4 e5 {{ {} }} 1-0\n\n", i * 7919).into_bytes()
        })
        .collect();
    let compressed = zstd::encode_all(&text[..], 3).expect("compressed");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cut = dir.path().join("cut.pgn.zst");
    fs::write(&cut, &compressed[..compressed.len() / 2]).expect("written");
    let games = tabia::read([&cut]).filter(Result::is_ok).count() as u64;
    let stats = Reader::new([&cut]).stats();
    assert_eq!(stats.value.report(None).games, games);
    assert_eq!(stats.errors.len(), 1);
    assert!(stats.errors[0].ends_input());
}

#[test]
fn bytes_in_memory_are_inputs_in_their_place() {
    let sample = fixtures().join("pgn/ok/sample.pgn");
    let text = b"[White \"A\"]\n\n1. e4 *\n".as_slice();
    let compressed = zstd::encode_all(text, 3).expect("compressed");
    let reader = Reader::of([
        InputArg::memory("<string>", text),
        InputArg::from(sample.as_path()),
        InputArg::memory("<bytes>", compressed),
    ]);
    let games: Vec<_> = reader
        .map(|item| {
            Ok((
                item.input().to_owned(),
                item.parse()?.tag("White").map(str::to_owned),
            ))
        })
        .collect::<Result<_, _>>()
        .expect("games");
    let a = Some("A".to_owned());
    assert_eq!(
        games,
        [
            ("<string>".to_owned(), a.clone()),
            (
                sample.display().to_string(),
                Some("Fischer, Robert J.".to_owned())
            ),
            ("<bytes>".to_owned(), a),
        ]
    );
    assert_eq!(reader.stats().value.report(None).games, 3);
}

#[test]
fn dropping_the_iterator_stops_the_reading() {
    let text = b"1. e4 e5 2. Nf3 Nc6 1-0\n\n".repeat(200_000);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("big.pgn");
    fs::write(&file, &text).expect("written");
    let first: Vec<_> = Reader::new([&file]).jobs(2).games().take(3).collect();
    assert_eq!(first.len(), 3);
    // Dropped after three games: the reading thread stops at its next batch rather than
    // reading the 5 MB to the end (a hang here would time the test out).
}

#[test]
fn select_gives_the_games_a_filter_of_all_games_gives() {
    let file = fixtures().join("select/games.pgn");
    let query = Query::new(
        vec![Criterion::Tag(
            "Result=1-0".parse::<TagCriterion>().expect("a criterion"),
        )],
        Options::default(),
    );
    let selected: Vec<String> = Reader::new([&file])
        .select(query)
        .filter_map(Result::ok)
        .map(|g| g.to_string())
        .collect();
    let filtered: Vec<String> = tabia::read([&file])
        .filter_map(Result::ok)
        .filter(|g| g.tag("Result") == Some("1-0"))
        .map(|g| g.to_string())
        .collect();
    assert!(!filtered.is_empty());
    assert_eq!(selected, filtered);
}

#[test]
fn stats_and_tree_say_what_they_left_out() {
    let sample = fixtures().join("pgn/ok/sample.pgn");
    let missing = PathBuf::from("missing.pgn");
    let stats = Reader::new([&sample, &missing]).stats();
    assert_eq!(stats.value.report(None).games, 1);
    assert_eq!(stats.errors.len(), 1);
    assert_eq!(stats.errors[0].input(), "missing.pgn");
    let bad = fixtures().join("pgn/err/garbage.pgn");
    let tree = Reader::new([&sample, &bad]).tree(Default::default());
    let games_read = tabia::read([&sample, &bad]).count() as u64;
    assert_eq!(tree.value.games() + tree.errors.len() as u64, games_read);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Any number of jobs gives the same items as one.
    #[test]
    fn jobs_do_not_change_the_items(jobs in 1usize..5, copies in 1usize..40) {
        let text = fs::read(fixtures().join("select/games.pgn")).expect("a fixture").repeat(copies);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("g.pgn");
        fs::write(&file, &text).expect("written");
        prop_assert_eq!(actual(&Reader::new([&file]).jobs(jobs)), expected(&text));
    }
}

/// Every error of a reader as `FILE:LINE:COL: game N: message`.
fn errors(reader: &Reader) -> Vec<String> {
    reader
        .games()
        .filter_map(Result::err)
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn ranges_of_a_file_give_its_games_numbers_lines_and_rows_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("corpus.pgn");
    fs::write(&path, corpus()).expect("written");
    let whole = Reader::new([&path]).jobs(2);
    let (games, bad) = (actual(&whole), errors(&whole));
    assert!(bad.len() > 5, "the corpus has bad games: {bad:?}");
    let numbers = |reader: &Reader| -> Vec<(u64, u64)> {
        reader
            .map(|item| Ok((item.number(), item.raw().start.line)))
            .collect::<Result<_, _>>()
            .expect("no input error")
    };
    let all_numbers = numbers(&whole);
    let len = fs::metadata(&path).expect("a file").len();
    for target in [len, len / 3, 997, 300] {
        let ranges = tabia::stream::ranges(&path, target).expect("planned");
        let readers: Vec<Reader> = ranges
            .into_iter()
            .map(|range| Reader::range(&path, range).jobs(2))
            .collect();
        let parts: Vec<_> = readers.iter().flat_map(actual).collect();
        assert_eq!(parts, games, "target {target}");
        let parts: Vec<_> = readers.iter().flat_map(errors).collect();
        assert_eq!(parts, bad, "target {target}");
        let parts: Vec<_> = readers.iter().flat_map(numbers).collect();
        assert_eq!(parts, all_numbers, "target {target}");
        let rows: usize = readers
            .iter()
            .flat_map(|r| r.table(tabia::table::ReadOptions::default(), Default::default()))
            .map(|t| t.expect("a table").games.num_rows())
            .sum();
        assert_eq!(rows, games.len());
        let stats: u64 = readers
            .iter()
            .map(|r| r.stats().value.report(None).games)
            .sum();
        assert_eq!(stats, games.len() as u64);
    }
}

#[test]
fn a_compressed_file_is_read_whole_by_its_one_range_and_not_by_a_part() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("corpus.pgn.zst");
    let text = corpus();
    fs::write(&path, zstd::encode_all(&text[..], 1).expect("compressed")).expect("written");
    let ranges = tabia::stream::ranges(&path, 100).expect("planned");
    assert_eq!(ranges.len(), 1);
    assert_eq!(
        actual(&Reader::range(&path, ranges[0].clone())),
        expected(&text)
    );
    let part: Vec<String> = Reader::range(&path, 0..100)
        .games()
        .map(|g| {
            g.expect_err("no game from part of a compressed file")
                .to_string()
        })
        .collect();
    assert_eq!(
        part,
        [format!(
            "cannot read {} by byte ranges: it is compressed (zstd): a compressed file is read whole",
            path.display()
        )]
    );
}

/// Stockfish on `PATH` or in `/usr/games`, if this machine has it.
fn stockfish() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("stockfish"));
    let found = on_path
        .chain([PathBuf::from("/usr/games/stockfish")])
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("note: no stockfish on this machine: the test is skipped");
    }
    found
}

#[test]
fn analyse_gives_every_game_in_order_with_its_analysis() {
    use std::{sync::Arc, time::Duration};

    use tabia::analyse::{Analyser, AnnotateOptions, Limit, Pool, PoolSpec, Selection};

    let Some(engine) = stockfish() else { return };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let games = dir.path().join("games.pgn");
    let mut text = fs::read(fixtures().join("analyse/games.pgn")).expect("a fixture");
    text.extend(b"\n\n1. e4 e5 2. Ke3 *\n\n[Variant \"Atomic\"]\n\n1. e4 d5 *\n");
    fs::write(&games, text).expect("written");
    let spec = PoolSpec {
        command: tabia::analyse::EngineCommand::new(engine.to_string_lossy()),
        options: PoolSpec::options_with_defaults(Vec::new()),
        limit: Limit {
            depth: Some(4),
            ..Limit::default()
        },
        multipv: 1,
        timeout: Duration::from_secs(60),
        retries: 1,
    };
    let analyser = Arc::new(Analyser::new(Pool::start(spec, 2).expect("a pool"), None));
    let options = AnnotateOptions::default();
    let mut numbers = Vec::new();
    for item in Reader::new([&games])
        .jobs(2)
        .analyse(Arc::clone(&analyser), Selection::default())
    {
        match item {
            Ok(analysed) => {
                let number = numbers.len() as u64 + 1;
                let variant = analysed.analysis.is_err();
                let game = analysed.annotated(&options);
                // Every move of the games analysed has its eval, but a mating one.
                let evals = game.mainline.moves.iter().filter(|m| m.eval().is_some());
                assert!(
                    if variant {
                        evals.count() == 0
                    } else {
                        evals.count() + 1 >= game.mainline.moves.len()
                    },
                    "game {number}: {game}"
                );
                numbers.push(Ok(number));
            }
            Err(error) => numbers.push(Err(error.number())),
        }
    }
    assert_eq!(
        numbers,
        [
            Ok(1),
            Ok(2),
            Ok(3),
            Ok(4),
            Ok(5),
            Ok(6),
            Err(Some(7)),
            Ok(8)
        ]
    );
    let report = Arc::try_unwrap(analyser)
        .expect("the reader let go")
        .finish()
        .expect("no cache");
    assert!(report.analysed > 250 && report.failed == 0, "{report:?}");
}
