//! The engine client and the pool against `tabia-fake-uci`, an engine that knows no chess and
//! misbehaves on request: crashes, hangs, garbage, restarts, stops.

use std::{
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use tabia_analyse::{
    Analyser, Analysis, AnnotateOptions, Engine, EngineCommand, EngineScore, Failure, Job, Limit,
    Line, Pool, PoolReport, PoolSpec, Selection, UciErrorKind,
};
use tabia_notation::pgn::Game;

const FAKE: &str = env!("CARGO_BIN_EXE_tabia-fake-uci");
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The position the fake engine is told to crash on (`--crash-on Kkq`).
const POISON: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1";

fn fake(args: &str) -> EngineCommand {
    format!("{FAKE} {args}").parse().expect("a command")
}

fn spec(args: &str) -> PoolSpec {
    PoolSpec {
        command: fake(args),
        options: vec![("Hash".to_owned(), "16".to_owned())],
        limit: Limit {
            depth: Some(1),
            ..Limit::default()
        },
        multipv: 1,
        timeout: Duration::from_secs(5),
        retries: 1,
    }
}

/// Positions where `e2e4` is legal, each written differently (the move counter).
fn positions(count: usize) -> Vec<String> {
    (1..=count)
        .map(|n| format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {n}"))
        .collect()
}

/// The fake engine's answer.
fn fake_analysis() -> Analysis {
    Analysis {
        depth: 1,
        seldepth: Some(1),
        nodes: 20,
        lines: vec![Line {
            score: EngineScore::Cp(13),
            pv: vec!["e2e4".to_owned()],
        }],
        best: Some("e2e4".to_owned()),
    }
}

/// Analyses `fens` on `pool`: the answers in the order of `fens`, and the report.
fn run(pool: Pool, fens: &[String]) -> (Vec<Result<Analysis, Failure>>, PoolReport) {
    let (sender, receiver) = mpsc::channel();
    for (index, fen) in fens.iter().enumerate() {
        let sender = sender.clone();
        pool.submit(Job::new(fen.clone(), false, move |result| {
            let _ = sender.send((index, result));
        }));
    }
    drop(sender);
    let report = pool.finish();
    let mut answers: Vec<_> = receiver.iter().collect();
    assert_eq!(answers.len(), fens.len(), "every job is answered once");
    answers.sort_by_key(|(index, _)| *index);
    (
        answers.into_iter().map(|(_, result)| result).collect(),
        report,
    )
}

/// A failure's message, the fake engine's path shortened to `fake`.
fn message(failure: &Failure) -> String {
    failure.to_string().replace(FAKE, "fake")
}

fn failures(answers: &[Result<Analysis, Failure>]) -> Vec<(usize, String, u32)> {
    answers
        .iter()
        .enumerate()
        .filter_map(|(index, answer)| {
            let failure = answer.as_ref().err()?;
            Some((index, message(failure), failure.attempts))
        })
        .collect()
}

fn counts(report: &PoolReport) -> (u64, u64, u64, u64) {
    (
        report.analysed,
        report.failed,
        report.stopped,
        report.restarts,
    )
}

#[test]
fn every_position_is_analysed_once() {
    let pool = Pool::start(spec(""), 2).expect("a pool");
    assert_eq!(pool.name(), "Fake UCI");
    assert_eq!(
        pool.settings().fingerprint(),
        "Fake UCI | Hash=16 | go depth 1 | multipv 1"
    );
    let fens = positions(20);
    let (answers, report) = run(pool, &fens);
    for answer in &answers {
        assert_eq!(answer, &Ok(fake_analysis()));
    }
    assert_eq!(counts(&report), (20, 0, 0, 0));
    assert_eq!(report.engines.len(), 2);
    let positions: u64 = report.engines.iter().map(|engine| engine.positions).sum();
    assert_eq!(positions, 20);
}

#[test]
fn crashed_engines_are_replaced_and_the_position_tried_again() {
    // Each engine analyses 3 positions and crashes in its 4th.
    let pool = Pool::start(spec("--crash-after 3"), 1).expect("a pool");
    let (answers, report) = run(pool, &positions(10));
    assert!(answers.iter().all(Result::is_ok));
    assert_eq!(counts(&report), (10, 0, 0, 3));
}

#[test]
fn a_position_that_always_crashes_fails_after_its_retries() {
    let pool = Pool::start(
        PoolSpec {
            retries: 2,
            ..spec("--crash-on Kkq")
        },
        1,
    )
    .expect("a pool");
    let mut fens = positions(6);
    fens.insert(3, POISON.to_owned());
    let (answers, report) = run(pool, &fens);
    assert_eq!(
        failures(&answers),
        [(
            3,
            format!(
                "engine `fake --crash-on Kkq`: exited (exit status: 3) while analysing {POISON} \
                 (tried 3 times)"
            ),
            3
        )]
    );
    // Two restarts for the retries, one for the position after.
    assert_eq!(counts(&report), (6, 1, 0, 3));
}

#[test]
fn hung_engines_are_killed_and_replaced() {
    let spec = PoolSpec {
        timeout: Duration::from_millis(300),
        retries: 0,
        ..spec("--hang-after 1")
    };
    let pool = Pool::start(spec, 1).expect("a pool");
    let fens = positions(3);
    let started = Instant::now();
    let (answers, report) = run(pool, &fens);
    assert_eq!(
        failures(&answers),
        [(
            1,
            format!(
                "engine `fake --hang-after 1`: no answer to `go depth 1` within 300 ms while \
                 analysing {}",
                fens[1]
            ),
            1
        )]
    );
    assert_eq!(counts(&report), (2, 1, 0, 1));
    // 300 ms to search, 300 ms more after `stop`, then the kill.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn garbage_fails_with_the_line_said() {
    let pool = Pool::start(
        PoolSpec {
            retries: 0,
            ..spec("--garbage-after 1")
        },
        1,
    )
    .expect("a pool");
    let fens = positions(3);
    let (answers, report) = run(pool, &fens);
    assert_eq!(
        failures(&answers),
        [(
            1,
            format!(
                "engine `fake --garbage-after 1`: answered `bestmove zz99` while analysing {}: \
                 `zz99` is not a move",
                fens[1]
            ),
            1
        )]
    );
    assert_eq!(counts(&report), (2, 1, 0, 1));
}

#[test]
fn an_engine_that_cannot_start_again_leaves_the_work_to_the_others() {
    let state = tempfile::tempdir().expect("a folder");
    // Two engines start; the one given the poison crashes, and no engine starts after.
    let args = format!(
        "--crash-on Kkq --state {} --fail-start-from 2",
        state.path().display()
    );
    let pool = Pool::start(spec(&args), 2).expect("a pool");
    let mut fens = positions(9);
    fens.insert(2, POISON.to_owned());
    let (answers, report) = run(pool, &fens);
    assert_eq!(
        failures(&answers),
        [(
            2,
            format!("engine `fake {args}`: exited (exit status: 2) while starting"),
            1
        )]
    );
    assert_eq!(counts(&report), (9, 1, 0, 0));
}

#[test]
fn when_no_engine_is_left_every_job_fails_at_once() {
    let state = tempfile::tempdir().expect("a folder");
    let args = format!(
        "--crash-after 0 --state {} --fail-start-from 1",
        state.path().display()
    );
    let pool = Pool::start(
        PoolSpec {
            retries: 0,
            ..spec(&args)
        },
        1,
    )
    .expect("a pool");
    let fens = positions(3);
    let (answers, report) = run(pool, &fens);
    let cannot_start = format!("engine `fake {args}`: exited (exit status: 2) while starting");
    assert_eq!(
        failures(&answers),
        [
            (
                0,
                format!(
                    "engine `fake {args}`: exited (exit status: 3) while analysing {}",
                    fens[0]
                ),
                1
            ),
            (1, cannot_start.clone(), 0),
            (2, cannot_start, 0),
        ]
    );
    assert_eq!(counts(&report), (0, 3, 0, 0));
}

#[test]
fn stop_answers_the_queue_at_once_and_stops_the_searches() {
    let pool = Pool::start(spec("--slow 400"), 1).expect("a pool");
    let (sender, receiver) = mpsc::channel();
    let fens = positions(5);
    for fen in &fens {
        let sender = sender.clone();
        pool.submit(Job::new(fen.clone(), false, move |result| {
            let _ = sender.send(result);
        }));
    }
    thread::sleep(Duration::from_millis(150));
    pool.stop();
    // The queued jobs were answered before `stop` returned; the running one was not.
    let queued: Vec<_> = receiver.try_iter().collect();
    assert_eq!(queued.len(), 4);
    let report = pool.finish();
    let mut answers = queued;
    answers.extend(receiver.try_iter());
    assert_eq!(answers.len(), 5);
    for answer in &answers {
        let failure = answer.as_ref().expect_err("stopped");
        assert_eq!(*failure.error.kind(), UciErrorKind::Stopped);
    }
    let running = answers[4].as_ref().expect_err("stopped");
    assert_eq!(
        message(running),
        format!(
            "engine `fake --slow 400`: stopped before its analysis of {} ended",
            fens[0]
        )
    );
    assert_eq!(counts(&report), (0, 0, 5, 0));
    // After a stop, jobs are answered at once.
    let pool = Pool::start(spec(""), 1).expect("a pool");
    pool.stop();
    let (answers, report) = run(pool, &fens[..1]);
    assert_eq!(failures(&answers)[0].2, 0);
    assert_eq!(counts(&report), (0, 0, 1, 0));
}

#[test]
fn dropping_a_pool_kills_a_hung_engine() {
    let pool = Pool::start(spec("--hang-after 0"), 1).expect("a pool");
    let (sender, receiver) = mpsc::channel();
    pool.submit(Job::new(START, false, move |result| {
        let _ = sender.send(result);
    }));
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    drop(pool);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let answer = receiver.try_recv().expect("answered");
    assert_eq!(
        *answer.expect_err("stopped").error.kind(),
        UciErrorKind::Stopped
    );
}

#[test]
fn engines_that_do_not_start() {
    let start = |spec: PoolSpec| {
        Pool::start(spec, 2)
            .expect_err("no pool")
            .to_string()
            .replace(FAKE, "fake")
    };
    assert_eq!(
        start(PoolSpec {
            timeout: Duration::from_millis(200),
            ..spec("--no-uciok")
        }),
        "engine `fake --no-uciok`: no answer to `uci` within 200 ms"
    );
    assert_eq!(
        start(PoolSpec {
            options: vec![("Thread".to_owned(), "1".to_owned())],
            ..spec("")
        }),
        "engine `fake`: has no option `Thread` (it has Hash, Threads, MultiPV, UCI_Chess960, \
         Move Overhead)"
    );
}

fn engine(command: &EngineCommand) -> Engine {
    Engine::start(command, &[], Duration::from_secs(5)).expect("an engine")
}

fn analyse(engine: &mut Engine, fen: &str) -> Result<Analysis, String> {
    let limit = Limit {
        depth: Some(1),
        ..Limit::default()
    };
    engine
        .analyse(fen, false, &limit, 1, Duration::from_millis(300))
        .map_err(|err| err.to_string().replace(FAKE, "fake"))
}

#[test]
fn what_the_engine_is_told() {
    let log = tempfile::NamedTempFile::new().expect("a file");
    let command = EngineCommand::new(FAKE)
        .arg("--log")
        .arg(log.path().display().to_string());
    let options = [("Move Overhead".to_owned(), "0".to_owned())];
    let mut engine = Engine::start(&command, &options, Duration::from_secs(5)).expect("an engine");
    assert_eq!(engine.name(), "Fake UCI");
    let limit = Limit {
        nodes: Some(1000),
        ..Limit::default()
    };
    let timeout = Duration::from_secs(5);
    for (chess960, multipv) in [(false, 1), (true, 3), (true, 3), (false, 3)] {
        engine
            .analyse(START, chess960, &limit, multipv, timeout)
            .expect("an analysis");
    }
    engine.quit();
    let told = std::fs::read_to_string(log.path()).expect("the log");
    let go = format!("position fen {START}\ngo nodes 1000\n");
    assert_eq!(
        told,
        [
            "uci\nsetoption name Move Overhead value 0\nisready\n",
            "ucinewgame\nisready\n",
            &go,
            "setoption name UCI_Chess960 value true\nsetoption name MultiPV value 3\n",
            "ucinewgame\nisready\n",
            &go,
            "ucinewgame\nisready\n",
            &go,
            "setoption name UCI_Chess960 value false\n",
            "ucinewgame\nisready\n",
            &go,
            "quit\n",
        ]
        .concat()
    );
}

#[test]
fn answers_are_checked_against_the_position() {
    let mut cut = engine(
        &EngineCommand::new(FAKE)
            .arg("--pv")
            .arg("e2e4 e7e5 e7e5 g1f3"),
    );
    let analysis = analyse(&mut cut, START).expect("an analysis");
    assert_eq!(analysis.lines[0].pv, ["e2e4", "e7e5"]);
    let mut illegal = engine(&fake("--move e2e5"));
    assert_eq!(
        analyse(&mut illegal, START),
        Err(format!(
            "engine `fake --move e2e5`: answered `bestmove e2e5` while analysing {START}: \
             `e2e5` is not a legal move here"
        ))
    );
    // No engine is asked about a position that is not legal.
    assert_eq!(
        analyse(&mut illegal, "8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(
            "engine `fake --move e2e5`: cannot analyse `8/8/8/8/8/8/8/8 w - - 0 1`: illegal \
             position: white has no king; black has no king"
                .to_owned()
        )
    );
}

#[test]
fn an_engine_that_dies_or_hangs() {
    let mut crashing = engine(&fake("--crash-after 1"));
    assert!(analyse(&mut crashing, START).is_ok());
    assert_eq!(
        analyse(&mut crashing, START),
        Err(format!(
            "engine `fake --crash-after 1`: exited (exit status: 3) while analysing {START}"
        ))
    );
    let mut hanging = engine(&fake("--hang-after 0"));
    assert_eq!(
        analyse(&mut hanging, START),
        Err(format!(
            "engine `fake --hang-after 0`: no answer to `go depth 1` within 300 ms while \
             analysing {START}"
        ))
    );
    // It was killed.
    assert_eq!(
        analyse(&mut hanging, START),
        Err(format!(
            "engine `fake --hang-after 0`: exited (signal: 9 (SIGKILL)) while analysing {START}"
        ))
    );
}

#[test]
fn a_handle_stops_a_search_from_another_thread() {
    let mut slow = engine(&fake("--slow 300"));
    let handle = slow.handle();
    let stopper = thread::spawn(move || {
        thread::sleep(Duration::from_millis(100));
        handle.stop();
    });
    let limit = Limit::default();
    let stopped = slow
        .analyse(START, false, &limit, 1, Duration::from_secs(5))
        .expect_err("stopped");
    assert_eq!(*stopped.kind(), UciErrorKind::Stopped);
    stopper.join().expect("the stopper");
    // Stopped for good.
    let again = slow.analyse(START, false, &limit, 1, Duration::from_secs(5));
    assert_eq!(*again.expect_err("stopped").kind(), UciErrorKind::Stopped);
}

/// What the pool's machinery costs a position, measured with an engine that takes no time
/// to search: `cargo test -p tabia-analyse --test pool -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement"]
fn overhead() {
    let fens = positions(5000);
    for engines in [1, 2] {
        let pool = Pool::start(spec(""), engines).expect("a pool");
        let started = Instant::now();
        let (answers, _) = run(pool, &fens);
        let elapsed = started.elapsed();
        assert!(answers.iter().all(Result::is_ok));
        println!(
            "{engines} fake engine(s): {:.0} positions/s, {:.0} µs a position",
            fens.len() as f64 / elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e6 / fens.len() as f64
        );
    }
}

#[test]
fn a_game_whose_positions_fail_is_left_without_evals_and_says_why() {
    let analyser = Analyser::new(
        Pool::start(spec("--crash-after 0"), 1).expect("a pool"),
        None,
    );
    let mut game: Game = "1. e4 e5 *".parse().expect("a game");
    let before = game.to_string();
    let analysis = analyser
        .annotate_game(
            &mut game,
            &Selection::default(),
            &AnnotateOptions::default(),
        )
        .expect("a plan");
    assert!(!analysis.stopped());
    assert_eq!(game.to_string(), before);
    let messages: Vec<String> = analysis
        .unanalysed(&game)
        .map(|u| u.to_string().replace(FAKE, "fake"))
        .collect();
    let crashed = |fen: &str| {
        format!(
            "engine `fake --crash-after 0`: exited (exit status: 3) while analysing {fen} \
             (tried 2 times)"
        )
    };
    assert_eq!(
        messages,
        [
            format!("the start position is not analysed: {}", crashed(START)),
            format!(
                "the position after e4 is not analysed: {}",
                crashed("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            ),
            format!(
                "the position after e5 is not analysed: {}",
                crashed("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
            ),
        ]
    );
    let evaluations = analysis.evaluations();
    assert_eq!(evaluations.len(), 3);
    assert!(
        evaluations
            .iter()
            .all(|e| e.error.is_some() && e.cp.is_none())
    );
    let report = analyser.finish().expect("no cache");
    assert_eq!((report.analysed, report.failed), (0, 3));
}

#[test]
fn a_stopped_analyser_leaves_games_as_they_were() {
    let analyser = Analyser::new(Pool::start(spec(""), 1).expect("a pool"), None);
    analyser.stop();
    let mut game: Game = "1. e4 e5 2. Nf3 *".parse().expect("a game");
    let before = game.to_string();
    let options = AnnotateOptions {
        annotator: Some("tabia".to_owned()),
        ..AnnotateOptions::default()
    };
    let analysis = analyser
        .annotate_game(&mut game, &Selection::default(), &options)
        .expect("a plan");
    assert!(analysis.stopped());
    assert_eq!(game.to_string(), before);
}
