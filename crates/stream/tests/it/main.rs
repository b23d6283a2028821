//! `tabia-stream` from the outside: every compression from a file and from standard input, the
//! input order kept for every number of jobs, multi-frame zstd, memory that stays flat as the
//! input grows (a counting global allocator), errors in the middle of an input, and a consumer
//! whose output is closed.
//!
//! The tests run one at a time (they share the allocator's peak counter, and some re-run this
//! binary as a child that reads standard input).

// Helpers of a test binary: a failure is a failed test.
#![allow(clippy::unwrap_used)]

use std::{
    alloc::System,
    io::{self, Read, Write},
    process::{Command, Stdio},
    sync::{Mutex, MutexGuard},
};

use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};
use tabia_stream::{
    Bytes, Compression, Input, InputErrorKind, OnRawGames, Pipeline, RawGame, SplitGames, Visited,
    fold,
};

mod archives;
mod ranges;

#[global_allocator]
static ALLOC: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Game `i`: its number in a tag, and a comment that makes some games longer than others.
fn game(i: u64) -> String {
    let comment = "x".repeat((i % 17) as usize * 40);
    format!(
        "[Event \"test\"]\n[Round \"{i}\"]\n\n1. e4 {{{comment}}} e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
    )
}

fn games(n: u64) -> Vec<u8> {
    (1..=n).flat_map(|i| game(i).into_bytes()).collect()
}

/// The number in a raw game's `Round` tag.
fn round(raw: &RawGame) -> u64 {
    let text = std::str::from_utf8(&raw.bytes).expect("ASCII games");
    let start = text.find("[Round \"").expect("a Round tag") + 8;
    let end = start + text[start..].find('"').expect("a closed tag");
    text[start..end].parse().expect("a number")
}

/// `text` compressed, as `pzstd` writes it for zstd frames: `parts` frames, each after a
/// skippable frame holding its size.
fn compress(text: &[u8], compression: Compression, parts: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in text.chunks(text.len().div_ceil(parts).max(1)) {
        match compression {
            Compression::None => out.extend_from_slice(chunk),
            Compression::Zstd => {
                let frame = zstd::encode_all(chunk, 1).unwrap();
                out.extend(0x184D_2A50u32.to_le_bytes());
                out.extend(4u32.to_le_bytes());
                out.extend(u32::try_from(frame.len()).unwrap().to_le_bytes());
                out.extend(frame);
            }
            Compression::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(chunk).unwrap();
                out.extend(e.finish().unwrap());
            }
            Compression::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                e.write_all(chunk).unwrap();
                out.extend(e.finish().unwrap());
            }
            Compression::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
                e.write_all(chunk).unwrap();
                out.extend(e.finish().unwrap());
            }
            other => panic!("no encoder for {other:?}"),
        }
    }
    out
}

const COMPRESSIONS: [(Compression, usize); 7] = [
    (Compression::None, 1),
    (Compression::Zstd, 1),
    (Compression::Zstd, 9),
    (Compression::Gzip, 1),
    (Compression::Gzip, 3),
    (Compression::Bzip2, 2),
    (Compression::Xz, 2),
];

/// Reads every game of `input` on `jobs` workers; checks that each comes back in order with
/// its number; gives how many there were.
fn count_in_order(input: Input, jobs: usize) -> u64 {
    let mut next = 1;
    let outcome = Pipeline::new()
        .with_jobs(jobs)
        .with_batch_bytes(4096)
        .map(
            input.games(),
            |number, raw| (number, round(raw)),
            |number, (seen, round)| {
                assert_eq!((number, seen, round), (next, next, next));
                next += 1;
                Ok::<_, ()>(())
            },
        )
        .unwrap();
    assert!(outcome.input_error.is_none(), "{:?}", outcome.input_error);
    outcome.items
}

#[test]
fn every_compression_from_a_file_in_order_for_every_jobs() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let text = games(1000);
    for (compression, parts) in COMPRESSIONS {
        let path = dir.path().join("games"); // the name says nothing
        std::fs::write(&path, compress(&text, compression, parts)).unwrap();
        for jobs in [1, 2, 3, 8] {
            let input = Input::open_with(&path, jobs).unwrap();
            assert_eq!(input.compression(), compression);
            let read = input.bytes_read();
            assert_eq!(
                count_in_order(input, jobs),
                1000,
                "{compression:?} in {parts}, {jobs} jobs"
            );
            assert_eq!(read.get(), std::fs::metadata(&path).unwrap().len());
        }
    }
}

/// Run as a child by `every_compression_from_standard_input`: counts the games on standard
/// input, in order, and prints how many.
#[test]
fn child_reading_standard_input() {
    let Ok(jobs) = std::env::var("TABIA_STREAM_CHILD_JOBS") else {
        return;
    };
    let jobs = jobs.parse().unwrap();
    let input = tabia_stream::Source::Stdin.open_with(jobs).unwrap();
    let compression = input.compression();
    let games = count_in_order(input, jobs);
    println!("child: {compression:?} {games} games");
}

#[test]
fn every_compression_from_standard_input() {
    let _one = one_at_a_time();
    let text = games(500);
    for (compression, parts) in COMPRESSIONS {
        for jobs in [1, 3] {
            let mut child = Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "child_reading_standard_input", "--nocapture"])
                .env("TABIA_STREAM_CHILD_JOBS", jobs.to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let bytes = compress(&text, compression, parts);
            let mut stdin = child.stdin.take().unwrap();
            let writer = std::thread::spawn(move || stdin.write_all(&bytes));
            let output = child.wait_with_output().unwrap();
            writer.join().unwrap().unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(output.status.success(), "{stdout}");
            assert!(
                stdout.contains(&format!("child: {compression:?} 500 games")),
                "{compression:?} in {parts}, {jobs} jobs: {stdout}"
            );
        }
    }
}

/// Endless games, made as they are read.
struct Generated {
    next: u64,
    limit: u64,
    pending: Vec<u8>,
    pos: usize,
}

impl Generated {
    fn new(limit: u64) -> Generated {
        Generated {
            next: 1,
            limit,
            pending: Vec::new(),
            pos: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.pending.len() {
            if self.next > self.limit {
                return Ok(0);
            }
            self.pending = game(self.next).into_bytes();
            self.pos = 0;
            self.next += 1;
        }
        let n = buf.len().min(self.pending.len() - self.pos);
        buf[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The peak of bytes allocated while every game of `input` goes through the pipeline.
fn peak(input: impl FnOnce() -> Input, jobs: usize) -> (u64, usize) {
    ALLOC.reset_peak_memory();
    let input = input();
    let outcome = Pipeline::new()
        .with_jobs(jobs)
        .map(
            input.games(),
            |_, raw| raw.bytes.len(),
            |_, _| Ok::<_, ()>(()),
        )
        .unwrap();
    (outcome.items, ALLOC.get_peak_memory())
}

#[test]
fn memory_stays_flat_as_the_input_grows() {
    let _one = one_at_a_time();
    // About 3 MB and 24 MB of games, read as they are made.
    let (small, large) = (10_000, 80_000);
    for jobs in [1, 3] {
        let (n, at_small) = peak(
            || Input::from_reader("small", Generated::new(small)).unwrap(),
            jobs,
        );
        assert_eq!(n, small);
        let (n, at_large) = peak(
            || Input::from_reader("large", Generated::new(large)).unwrap(),
            jobs,
        );
        assert_eq!(n, large);
        // The batches in flight, (2 × jobs + 2) of about 256 KiB, as many processed ones the
        // reader has yet to free, and the reader's buffers: a bound that does not depend on
        // the size of the input (24 MB here), which both runs stay under.
        let bound = 2 * (2 * jobs + 2) * (300 << 10) + (2 << 20);
        assert!(
            at_small <= bound && at_large <= bound,
            "{jobs} jobs: peak {at_small} B for {small} games, {at_large} B for {large}, bound {bound}"
        );
    }
}

#[test]
fn multi_frame_zstd_memory_stays_flat_as_the_input_grows() {
    let _one = one_at_a_time();
    // Frames of about 330 KB: 10 of them, then 40.
    let text = games(40_000);
    let small = compress(&text[..text.len() / 4], Compression::Zstd, 10);
    let large = compress(&text, Compression::Zstd, 40);
    let (_, at_small) = peak(
        || Input::from_reader_with("small", io::Cursor::new(small.clone()), 2).unwrap(),
        2,
    );
    let (n, at_large) = peak(
        || Input::from_reader_with("large", io::Cursor::new(large.clone()), 2).unwrap(),
        2,
    );
    assert_eq!(n, 40_000);
    // The compressed input itself is in memory before the peak is reset; what the run adds is
    // a few frames in flight (1 MB each here, each with its decompressed bytes) and batches.
    // Frames in flight (the pipeline's slots and the channel, each a compressed frame and its
    // decompressed bytes) and batches of games: a bound that does not depend on the number of
    // frames.
    assert!(
        at_small <= 12 << 20 && at_large <= 12 << 20,
        "peak {at_small} B for 10 frames, {at_large} B for 40 frames"
    );
}

/// Gives `good` bytes, then fails.
struct Failing {
    good: io::Cursor<Vec<u8>>,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.good.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn an_error_mid_stream_comes_after_the_games_before_it() {
    let _one = one_at_a_time();
    let text = games(1000);
    let cut = text.len() / 2;
    for jobs in [1, 2, 4] {
        let input = Input::from_reader(
            "cut.pgn",
            Failing {
                good: io::Cursor::new(text[..cut].to_vec()),
            },
        )
        .unwrap();
        let mut seen = Vec::new();
        let outcome = Pipeline::new()
            .with_jobs(jobs)
            .with_batch_bytes(1000)
            .map(
                input.games(),
                |_, raw| round(raw),
                |_, r| {
                    seen.push(r);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        let err = outcome.input_error.expect("the read error");
        assert_eq!(err.kind(), InputErrorKind::Read);
        assert_eq!(err.to_string(), "cut.pgn: read error");
        assert_eq!(err.io().unwrap().to_string(), "disk on fire");
        // Every game read before the error, in order; the one cut in two is not among them.
        assert!(seen.len() > 400, "{jobs} jobs: {}", seen.len());
        assert!(seen.iter().copied().eq(1..=seen.len() as u64));
    }
}

#[test]
fn a_corrupt_zstd_frame_mid_stream_is_a_read_error_after_the_frames_before_it() {
    let _one = one_at_a_time();
    let text = games(2000);
    let mut bytes = compress(&text[..text.len() / 2], Compression::Zstd, 3);
    let mut bad = zstd::encode_all(&text[text.len() / 2..], 1).unwrap();
    let middle = bad.len() / 2;
    bad[middle..middle + 8].copy_from_slice(b"garbage!");
    bytes.extend(bad);
    for jobs in [1, 2] {
        let input =
            Input::from_reader_with("bad.zst", io::Cursor::new(bytes.clone()), jobs).unwrap();
        let mut seen = 0;
        let outcome = Pipeline::new()
            .with_jobs(jobs)
            .map(
                input.games(),
                |_, raw| round(raw),
                |_, r| {
                    seen += 1;
                    assert_eq!(r, seen);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        let err = outcome.input_error.expect("the corrupt frame");
        assert_eq!(err.kind(), InputErrorKind::Read, "{jobs} jobs");
        assert!(
            seen >= 999,
            "{jobs} jobs: the games of the good frames: {seen}"
        );
    }
}

/// A writer that fails like a closed pipe after `room` bytes.
struct ClosedPipe {
    room: usize,
}

impl Write for ClosedPipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_output_stops_an_endless_input() {
    let _one = one_at_a_time();
    for jobs in [1, 2, 4] {
        let mut out = ClosedPipe { room: 10_000 };
        let result = Pipeline::new().with_jobs(jobs).run(
            SplitGames::new(Generated::new(u64::MAX)),
            &fold(|buffer: &mut Vec<u8>, number, _: &RawGame| {
                buffer.extend(format!("{number}\n").bytes());
            }),
            |buffer, _| out.write_all(&buffer),
        );
        let err = result.expect_err("the closed output ends the run");
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "{jobs} jobs");
    }
}

/// Every game of `input` as `SplitGames` finds them, one thread: (number, origin, bytes).
fn split_whole(input: &[u8]) -> Vec<(u64, tabia_stream::Origin, Vec<u8>)> {
    SplitGames::new(input)
        .zip(1..)
        .map(|(raw, number)| {
            let raw = raw.unwrap();
            (number, raw.start, raw.bytes)
        })
        .collect()
}

/// The same through `Pipeline::run_games`: split on the workers in chunks of about `chunk`
/// bytes.
fn split_by_workers(
    input: &[u8],
    jobs: usize,
    chunk: usize,
) -> Vec<(u64, tabia_stream::Origin, Vec<u8>)> {
    let mut all = Vec::new();
    let outcome = Pipeline::new()
        .with_jobs(jobs)
        .with_batch_bytes(chunk)
        .run_games(
            input,
            Bytes::default,
            &OnRawGames(fold(|games: &mut Vec<_>, number, raw: &RawGame| {
                games.push((number, raw.start, raw.bytes.clone()));
            })),
            |games, numbers| {
                assert_eq!(games.len() as u64, numbers.end - numbers.start);
                assert!(games.iter().map(|g| g.0).eq(numbers));
                all.extend(games);
                Ok::<_, ()>(())
            },
        )
        .unwrap();
    assert!(outcome.input_error.is_none());
    assert_eq!(outcome.items, all.len() as u64);
    all
}

/// A small random number generator, so that the inputs below are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// PGN-like text from pieces that move where a game ends: tags, comments over several lines
/// with lines starting with `[` in them, results, comments after results, `;` and `%` lines,
/// line ends of every kind.
fn hostile(seed: u64, pieces: usize) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"[Event \"a\"]\n",
        b"[Site \"b\"]\n",
        b"[Event \"c\"]\r\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"\n\n",
        b"1. e4 e5 ",
        b"2. Nf3 ",
        b"{ a comment }",
        b"{ a comment\n[Event \"in a comment\"]\n\nstill }",
        b"{\n[",
        b"}",
        b"1-0",
        b"0-1 ",
        b"*",
        b"1/2-1/2",
        b" {after the result\n[Event \"x\"]\n}",
        b"; a line comment [Event\n",
        b"%escaped\n",
        b"(1... d5)",
        b"[",
        b"\"",
        b" ",
    ];
    let mut lcg = Lcg(seed);
    let mut out = Vec::new();
    for _ in 0..pieces {
        out.extend_from_slice(PIECES[lcg.below(PIECES.len())]);
    }
    out
}

#[test]
fn games_split_on_the_workers_are_the_games_split_on_one_thread() {
    let _one = one_at_a_time();
    let mut inputs = vec![
        games(300),
        // No blank lines between games, Windows and old Mac line ends.
        games(200)
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .flat_map(|line| [line, b"\n"].concat())
            .collect(),
        String::from_utf8(games(100))
            .unwrap()
            .replace('\n', "\r\n")
            .into_bytes(),
        String::from_utf8(games(100))
            .unwrap()
            .replace('\n', "\r")
            .into_bytes(),
        // A game far longer than a chunk, its comment full of lines that look like tags.
        [
            games(3),
            b"[Event \"long\"]\n\n1. e4 {".to_vec(),
            b"\n[Event \"no\"]\n\n".repeat(2000),
            b"} 1-0\n\n".to_vec(),
            games(3),
        ]
        .concat(),
        // Tags only, and no movetext at the end.
        b"[Event \"a\"]\n\n[Event \"b\"]\n\n[Event \"c\"]\n".repeat(50),
        // Nothing that starts a line with `[`.
        b"1. e4 e5 2. Nf3 *\n".repeat(300),
        Vec::new(),
        b"\n\n  \n".to_vec(),
    ];
    for seed in 0..40 {
        inputs.push(hostile(seed, 2000));
    }
    for (k, input) in inputs.iter().enumerate() {
        let want = split_whole(input);
        for jobs in [1, 2, 3] {
            for chunk in [1, 50, 700, 4096, 1 << 18] {
                let got = split_by_workers(input, jobs, chunk);
                assert!(
                    got == want,
                    "input {k}, {jobs} jobs, chunks of {chunk}: {} games against {}, first \
                     difference {:?}",
                    got.len(),
                    want.len(),
                    got.iter()
                        .zip(&want)
                        .find(|(a, b)| a != b)
                        .map(|(a, b)| (a.0, a.1, b.1))
                );
            }
        }
    }
}

#[test]
fn games_split_on_the_workers_stop_at_a_read_error_after_the_games_before_it() {
    let _one = one_at_a_time();
    let text = games(1000);
    let cut = text.len() / 2;
    for jobs in [1, 2, 4] {
        let mut seen = Vec::new();
        let outcome = Pipeline::new()
            .with_jobs(jobs)
            .with_batch_bytes(1000)
            .run_games(
                Failing {
                    good: io::Cursor::new(text[..cut].to_vec()),
                },
                Bytes::default,
                &OnRawGames(fold(|rounds: &mut Vec<u64>, _, raw: &RawGame| {
                    rounds.push(round(raw));
                })),
                |rounds, _| {
                    seen.extend(rounds);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        let err = outcome.input_error.expect("the read error");
        assert_eq!(err.kind(), InputErrorKind::Read);
        assert_eq!(err.io().unwrap().to_string(), "disk on fire");
        assert!(seen.len() > 400, "{jobs} jobs: {}", seen.len());
        assert!(seen.iter().copied().eq(1..=seen.len() as u64));
        assert_eq!(outcome.items, seen.len() as u64);
    }
}

#[test]
fn games_split_on_the_workers_keep_memory_flat() {
    let _one = one_at_a_time();
    let peak = |n: u64, jobs: usize| {
        ALLOC.reset_peak_memory();
        let outcome = Pipeline::new()
            .with_jobs(jobs)
            .run_games(
                Generated::new(n),
                Bytes::default,
                &fold(|sum: &mut usize, _, game: Visited<'_, ()>| *sum += game.bytes.len()),
                |_, _| Ok::<_, ()>(()),
            )
            .unwrap();
        assert_eq!(outcome.items, n);
        ALLOC.get_peak_memory()
    };
    for jobs in [1, 3] {
        let (at_small, at_large) = (peak(10_000, jobs), peak(80_000, jobs));
        // Chunks in flight, (2 × jobs + 2) of about 256 KiB, as many the reader has yet to
        // free, and the workers' readers (128 KiB each).
        let bound = 2 * (2 * jobs + 2) * (300 << 10) + (2 << 20);
        assert!(
            at_small <= bound && at_large <= bound,
            "{jobs} jobs: peak {at_small} B for 10,000 games, {at_large} B for 80,000, bound {bound}"
        );
    }
}

/// Everything a game's tags, moves and comments say, as text.
#[derive(Default)]
struct Everything(Vec<String>);

impl tabia_notation::pgn::Visitor for Everything {
    type Output = Vec<String>;

    fn begin_game(&mut self, _: tabia_notation::pgn::Origin) -> tabia_notation::pgn::Skip {
        // What a game with a syntax error left (it gets no `end_game`).
        self.0.clear();
        tabia_notation::pgn::Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: tabia_notation::pgn::RawTag<'_>) {
        self.0.push(format!(
            "{}={}",
            String::from_utf8_lossy(name),
            value.decode()
        ));
    }

    fn san(&mut self, san: tabia_notation::pgn::SanPlus, at: tabia_notation::pgn::Origin) {
        self.0.push(format!("{san}@{at}"));
    }

    fn comment(&mut self, comment: tabia_notation::pgn::RawComment<'_>) {
        self.0.push(format!(
            "{{{}}}",
            String::from_utf8_lossy(comment.as_bytes())
        ));
    }

    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

/// An error's message and location: its first line. (The snippet under it can lack the start
/// of the line when a game starts in the middle of a line and a chunk's end cuts it in two:
/// the game is then read from its own bytes, as `RawGame::visit` reads it.)
fn located(err: &tabia_notation::pgn::ReadError) -> String {
    err.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// What reading `input` on one thread gives for each game: its start and what `Everything`
/// makes of it (or its syntax error, displayed).
fn read_whole(input: &[u8]) -> Vec<(tabia_stream::Origin, Result<Vec<String>, String>)> {
    let mut reader = tabia_notation::pgn::PgnReader::new(input);
    let mut out = Vec::new();
    while let Some(start) = reader.next_game().unwrap() {
        let output = match reader.read_game(&mut Everything::default()) {
            Ok(Some(output)) => Ok(output),
            Ok(None) => break,
            Err(err) => Err(located(&err)),
        };
        out.push((start, output));
    }
    out
}

#[test]
fn games_read_by_a_visitor_on_the_workers_are_those_read_on_one_thread() {
    let _one = one_at_a_time();
    let mut inputs = vec![
        games(200),
        // Syntax errors located in the whole input.
        [
            games(20),
            b"[Event \"bad\"]\n\n1. e4 e5 2. Qxx9 *\n\n".to_vec(),
            games(20),
        ]
        .concat(),
    ];
    for seed in 100..130 {
        inputs.push(hostile(seed, 1500));
    }
    for (k, input) in inputs.iter().enumerate() {
        let want = read_whole(input);
        assert!(want.iter().any(|(_, out)| out.is_ok()));
        for jobs in [1, 2, 3] {
            for chunk in [1, 300, 5000] {
                let mut got = Vec::new();
                let outcome = Pipeline::new()
                    .with_jobs(jobs)
                    .with_batch_bytes(chunk)
                    .run_games(
                        &input[..],
                        Everything::default,
                        &fold(
                            |games: &mut Vec<_>, number, game: Visited<'_, Vec<String>>| {
                                let output = game.output.map_err(|err| located(&err));
                                games.push((number, game.start, output));
                            },
                        ),
                        |games, _| {
                            got.extend(games);
                            Ok::<_, ()>(())
                        },
                    )
                    .unwrap();
                assert_eq!(outcome.items, want.len() as u64);
                assert!(got.iter().map(|g| g.0).eq(1..=want.len() as u64));
                let got: Vec<_> = got
                    .into_iter()
                    .map(|(_, start, out)| (start, out))
                    .collect();
                assert!(
                    got == want,
                    "input {k}, {jobs} jobs, chunks of {chunk}: first difference {:?}",
                    got.iter().zip(&want).find(|(a, b)| a != b)
                );
            }
        }
    }
}
