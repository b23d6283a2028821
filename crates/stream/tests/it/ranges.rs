//! Byte ranges of one file: however the file is cut, the ranges' games are the file's games,
//! each once, byte for byte, with their numbers and places in the file.

use std::{ops::Range, path::Path};

use proptest::prelude::*;
use tabia_stream::{
    Bytes, Input, InputErrorKind, OnRawGames, Pipeline, RawGame, Span, SplitGames, fold, ranges,
};

/// Games that make a cut hard: a comment with lines that look like tags (one after a blank
/// line), a blank line inside a tag section, tagless games, a game on the line of the last
/// one's result, `%` escape lines, a `;` comment with a brace, CRLF line ends, a cut-off
/// comment at the end.
const HOSTILE: &str = concat!(
    "[Event \"one\"]\n[Site \"x\"]\n\n1. e4 {a comment\n[over lines]\n\n[Event \"fake\"]\n",
    "[Site \"y\"]} e5 2. Nf3 (2. f4 {[%eval 0.3]}) 1-0\n\n",
    "[Event \"two\"]\n\n[Site \"after a blank line\"]\n\n1. d4 d5 ; a { in a line comment\n2. c4 *\n",
    "1. c4 e5 0-1 1. Nf3 d5 1/2-1/2\n%escaped [Event \"no\"]\n\n",
    "[Event \"crlf\"]\r\n\r\n1. e4 {x} e5\r\n[Event \"ends the last\"]\r\n\r\n1. d4 *\r\n\r\n",
    "1. e4 e5 {trailing} 1-0 {after the result\n\n[Event \"still\"]} \n\n[Event \"last\"]\n\n1. e4 {open\n",
);

/// The games of the file at `path`, read whole on one thread.
fn whole(path: &Path) -> Vec<RawGame> {
    let input = Input::open(path).unwrap();
    input.games().collect::<Result<_, _>>().unwrap()
}

/// The games of each of `cuts`' ranges of `path`, read one range after the other on this
/// thread; checks each span's count of the games before it.
fn by_ranges(path: &Path, cuts: &[Range<u64>], pipeline: &Pipeline) -> Vec<RawGame> {
    let mut games = Vec::new();
    for range in cuts {
        let span = Span::locate(path, range.clone(), pipeline).unwrap();
        assert_eq!(span.games_before, games.len() as u64, "before {range:?}");
        let mine: Vec<RawGame> = span.games(path).unwrap().collect::<Result<_, _>>().unwrap();
        for game in &mine {
            // (A range that ends in a byte order mark ends after it.)
            let end = if range.end < 3 && game.start.offset == 3 {
                3
            } else {
                range.end
            };
            assert!(
                (range.start..=end).contains(&game.start.offset),
                "{range:?}: {:?}",
                game.start
            );
        }
        if let Some(first) = mine.first() {
            assert_eq!(first.start, span.start);
            assert_eq!(span.bytes.start, first.start.offset);
        } else {
            assert!(span.bytes.is_empty());
        }
        games.extend(mine);
    }
    games
}

/// The games of each range of `cuts` read on two workers in small pieces, with their numbers.
fn by_ranges_on_workers(path: &Path, cuts: &[Range<u64>]) -> Vec<(u64, RawGame)> {
    let pipeline = Pipeline::new().with_jobs(2).with_batch_bytes(64);
    let mut games = Vec::new();
    for range in cuts {
        let span = Span::locate(path, range.clone(), &pipeline).unwrap();
        let outcome = pipeline
            .run_games_from(
                span.open(path).unwrap(),
                &span,
                Bytes::default,
                &OnRawGames(fold(
                    |acc: &mut Vec<(u64, RawGame)>, number, game: &RawGame| {
                        acc.push((number, game.clone()))
                    },
                )),
                |acc, _| {
                    games.extend(acc);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        assert!(outcome.input_error.is_none());
    }
    games
}

/// `0..len` cut at `points` (any order, duplicates allowed).
fn cut(len: u64, points: &[u64]) -> Vec<Range<u64>> {
    let mut points: Vec<u64> = points.iter().map(|&p| p.min(len)).collect();
    points.extend([0, len]);
    points.sort_unstable();
    points.windows(2).map(|w| w[0]..w[1]).collect()
}

fn fixtures() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pgn");
    let mut files = Vec::new();
    for dir in ["ok", "err"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 20, "the fixtures are there");
    files
}

fn hostile_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.pgn");
    std::fs::write(&path, HOSTILE).unwrap();
    (dir, path)
}

#[test]
fn every_cut_of_a_hostile_file_reads_every_game_once() {
    let (_dir, path) = hostile_file();
    let expected = whole(&path);
    assert_eq!(
        expected.len(),
        8,
        "the file's games, as one reader sees them"
    );
    let len = HOSTILE.len() as u64;
    let pipeline = Pipeline::new().with_jobs(1);
    // Every cut point: in a tag, in movetext, in a comment that holds `[` lines, at a game's
    // start, in the blank line before it, at 0 and at the end.
    for at in 0..=len {
        let got = by_ranges(&path, &cut(len, &[at]), &pipeline);
        assert_eq!(got, expected, "cut at {at}");
    }
    // Three ranges, one of them empty, and ranges past the end.
    for points in [[10, 10], [150, 151], [0, len], [len, len + 50]] {
        assert_eq!(by_ranges(&path, &cut(len, &points), &pipeline), expected);
    }
}

#[test]
fn ranges_on_workers_keep_numbers_and_places() {
    let (_dir, path) = hostile_file();
    let expected: Vec<(u64, RawGame)> = (1..).zip(whole(&path)).collect();
    let len = HOSTILE.len() as u64;
    for points in [
        vec![],
        vec![40],
        vec![90, 200, 201, 330],
        (0..len).step_by(37).collect(),
    ] {
        assert_eq!(
            by_ranges_on_workers(&path, &cut(len, &points)),
            expected,
            "{points:?}"
        );
    }
}

#[test]
fn a_range_of_an_empty_file_or_past_the_end_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.pgn");
    std::fs::write(&path, "").unwrap();
    assert_eq!(ranges(&path, 100).unwrap(), vec![0..0; 1]);
    let span = Span::locate(&path, 0..100, &Pipeline::new()).unwrap();
    assert_eq!((span.bytes, span.games_before), (0..0, 0));

    let (_dir, path) = hostile_file();
    let span = Span::locate(&path, 5000..6000, &Pipeline::new()).unwrap();
    assert!(span.bytes.is_empty());
    assert_eq!(span.games_before, 8);
}

#[test]
fn a_compressed_file_is_one_range_and_cannot_be_entered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn.zst");
    std::fs::write(&path, zstd::encode_all(HOSTILE.as_bytes(), 1).unwrap()).unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    assert_eq!(ranges(&path, 10).unwrap(), vec![0..len; 1]);
    let err = Span::locate(&path, 0..len, &Pipeline::new()).unwrap_err();
    assert_eq!(err.kind(), InputErrorKind::Range);
    assert_eq!(
        format!("{err}: {}", err.io().unwrap()),
        format!(
            "cannot read {} by byte ranges: it is compressed (zstd): a compressed file is read whole",
            path.display()
        )
    );
    let missing = Span::locate(dir.path().join("nope.pgn"), 0..1, &Pipeline::new()).unwrap_err();
    assert_eq!(missing.kind(), InputErrorKind::Open);
}

#[test]
fn planned_ranges_cover_the_file_evenly() {
    let (_dir, path) = hostile_file();
    let len = HOSTILE.len() as u64;
    for target in [1, 7, 100, len - 1, len, len + 1, u64::MAX] {
        let planned = ranges(&path, target).unwrap();
        assert_eq!(planned.first().unwrap().start, 0);
        assert_eq!(planned.last().unwrap().end, len);
        assert!(planned.windows(2).all(|w| w[0].end == w[1].start));
        assert!(planned.iter().all(|r| r.end - r.start <= target.max(1)));
        assert_eq!(planned.len() as u64, len.div_ceil(target));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random cuts of every fixture: the ranges' games are the file's.
    #[test]
    fn random_cuts_of_the_fixtures_read_every_game_once(
        points in proptest::collection::vec(0u64..20_000, 0..6),
    ) {
        let pipeline = Pipeline::new().with_jobs(1);
        for path in fixtures() {
            let len = std::fs::metadata(&path).unwrap().len();
            let points: Vec<u64> = points.iter().map(|p| p % (len + 1)).collect();
            let expected = whole(&path);
            let got = by_ranges(&path, &cut(len, &points), &pipeline);
            prop_assert_eq!(got, expected, "{} cut at {:?}", path.display(), points);
        }
    }
}

/// `Games` reads the same when the whole file is one range.
#[test]
fn one_range_is_the_whole_file() {
    for path in fixtures() {
        let len = std::fs::metadata(&path).unwrap().len();
        let span = Span::locate(&path, 0..len, &Pipeline::new()).unwrap();
        let games: Vec<RawGame> = span
            .games(&path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let direct: Vec<RawGame> = SplitGames::new(&bytes[..])
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(games, direct, "{}", path.display());
    }
}
