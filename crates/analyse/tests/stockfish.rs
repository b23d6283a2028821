//! The engine client and the pool against a real engine: Stockfish (`stockfish` on `PATH` or
//! in `/usr/games`, or the command in `TABIA_STOCKFISH`). Each test is skipped, with a note,
//! where there is none.
//!
//! One thread and 16 MB of hash at a small depth: with `ucinewgame` before each position the
//! answers are the same whatever came before, which is what makes them cacheable.

use std::{
    sync::mpsc,
    time::{Duration, Instant},
};

use tabia_analyse::{
    Analyser, Analysis, AnnotateOptions, Engine, EngineCommand, EngineScore, Job, Limit, Pool,
    PoolSpec, Selection, UciErrorKind,
};
use tabia_notation::pgn::{Game, Score};
use tabia_position::{EpRule, Position};

const TIMEOUT: Duration = Duration::from_secs(30);

/// Fischer–Spassky, Belgrade 1992, game 29 (`fixtures/position/ok/fischer-spassky.pgn`).
const GAME: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
                    c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 \
                    Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6 Ne5 Rae8 Bxf7+ Rxf7 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 \
                    Qg5 Qxg5 hxg5 b3 Ke6 a3 Kd6 axb4 cxb4 Ra5 Nd5 f3 Bc8 Kf2 Bf5 Ra7 g6 Ra6+ \
                    Kc5 Ke1 Nf4 g3 Nxh3 Kd2 Kb5 Rd6 Kc5 Ra6 Nf2 g4 Bd3 Re6";

fn command() -> EngineCommand {
    let line = std::env::var("TABIA_STOCKFISH").unwrap_or_else(|_| "stockfish".to_owned());
    line.parse().expect("a command")
}

fn options() -> Vec<(String, String)> {
    vec![
        ("Threads".to_owned(), "1".to_owned()),
        ("Hash".to_owned(), "16".to_owned()),
    ]
}

fn depth(depth: u32) -> Limit {
    Limit {
        depth: Some(depth),
        ..Limit::default()
    }
}

/// Stockfish, started; `None` (with a note) when there is none.
fn stockfish() -> Option<Engine> {
    match Engine::start(&command(), &options(), TIMEOUT) {
        Ok(engine) => Some(engine),
        Err(err) if *err.kind() == UciErrorKind::NotFound => {
            eprintln!("note: {err}: the test is skipped");
            None
        }
        Err(err) => panic!("{err}"),
    }
}

/// The positions of the first `plies` plies of [`GAME`], from the start.
fn game(plies: usize) -> Vec<String> {
    let mut position = Position::new();
    let mut fens = vec![position.fen(EpRule::Legal)];
    for san in GAME.split_whitespace().take(plies - 1) {
        position = position.after(san).expect("a legal move");
        fens.push(position.fen(EpRule::Legal));
    }
    fens
}

fn analyse(engine: &mut Engine, fen: &str, limit: &Limit, multipv: u32) -> Analysis {
    engine
        .analyse(fen, false, limit, multipv, TIMEOUT)
        .unwrap_or_else(|err| panic!("{err}"))
}

/// A score as a number to order by: mates beyond every centipawn score, sooner better.
fn order(score: EngineScore) -> i64 {
    match score {
        EngineScore::Cp(cp) => i64::from(cp),
        EngineScore::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        EngineScore::Mate(n) => -1_000_000 - i64::from(n),
    }
}

#[test]
fn mate_in_one() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    assert!(engine.name().starts_with("Stockfish"), "{}", engine.name());
    let analysis = analyse(
        &mut engine,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        &depth(8),
        1,
    );
    assert_eq!(analysis.score(), Some(EngineScore::Mate(1)));
    assert_eq!(analysis.best.as_deref(), Some("a1a8"));
    assert_eq!(analysis.lines[0].pv, ["a1a8"]);
    engine.quit();
}

#[test]
fn positions_without_moves() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let mated = analyse(
        &mut engine,
        "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
        &depth(8),
        1,
    );
    assert_eq!(mated.best, None);
    assert_eq!(mated.score(), Some(EngineScore::Mate(0)));
    assert!(mated.lines[0].pv.is_empty());
    let stalemate = analyse(&mut engine, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &depth(8), 1);
    assert_eq!(stalemate.best, None);
    assert_eq!(stalemate.score(), Some(EngineScore::Cp(0)));
    engine.quit();
}

#[test]
fn the_same_position_gets_the_same_analysis() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let fens = game(24);
    let limit = depth(10);
    let first = analyse(&mut engine, &fens[23], &limit, 1);
    for fen in &fens[10..16] {
        analyse(&mut engine, fen, &limit, 1);
    }
    assert_eq!(analyse(&mut engine, &fens[23], &limit, 1), first);
    assert_eq!(first.depth, 10);
    assert!(first.nodes > 0);
    engine.quit();
}

#[test]
fn multipv_gives_lines_best_first() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let fens = game(12);
    let analysis = analyse(&mut engine, &fens[11], &depth(8), 3);
    assert_eq!(analysis.lines.len(), 3);
    let scores: Vec<i64> = analysis
        .lines
        .iter()
        .map(|line| order(line.score))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let firsts: Vec<&str> = analysis
        .lines
        .iter()
        .map(|line| line.pv[0].as_str())
        .collect();
    assert_eq!(Some(firsts[0]), analysis.best.as_deref());
    assert!(firsts[1] != firsts[0] && firsts[2] != firsts[1]);
    // Back to one line.
    assert_eq!(analyse(&mut engine, &fens[11], &depth(8), 1).lines.len(), 1);
    engine.quit();
}

#[test]
fn chess960_castling() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    // Kings on e1 and e8, rooks on b and g: castling long is the king taking its b-rook.
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    let legal = fen.parse::<Position>().expect("legal").legal_moves().len();
    let analysis = engine
        .analyse(fen, true, &depth(6), 500, TIMEOUT)
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(analysis.lines.len(), legal);
    let firsts: Vec<&str> = analysis
        .lines
        .iter()
        .map(|line| line.pv[0].as_str())
        .collect();
    assert!(firsts.contains(&"e1b1"), "{firsts:?}");
    // A well-known Chess960 position, with its castling rights in Shredder-FEN.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let analysis = engine
        .analyse(fen, true, &depth(8), 1, TIMEOUT)
        .unwrap_or_else(|err| panic!("{err}"));
    assert!(analysis.best.is_some() && !analysis.lines[0].pv.is_empty());
    engine.quit();
}

#[test]
fn a_search_past_its_time_is_stopped_and_the_engine_goes_on() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let fen = &game(30)[29];
    let late = engine
        .analyse(fen, false, &depth(60), 1, Duration::from_millis(300))
        .expect_err("too deep for 300 ms");
    assert_eq!(
        late.to_string(),
        format!(
            "engine `{}`: no answer to `go depth 60` within 300 ms while analysing {fen}",
            command()
        )
    );
    // It answered `stop`: it is still there, in step.
    let analysis = analyse(&mut engine, fen, &depth(6), 1);
    assert_eq!(analysis.depth, 6);
    engine.quit();
}

fn spec(limit: Limit) -> PoolSpec {
    PoolSpec {
        command: command(),
        options: options(),
        limit,
        multipv: 1,
        timeout: TIMEOUT,
        retries: 1,
    }
}

/// Analyses `fens` on a pool of `engines`: the analyses in the order of `fens`, and the time
/// from the first job submitted to the pool finished.
fn pool_analyses(fens: &[String], limit: Limit, engines: usize) -> (Vec<Analysis>, Duration) {
    let pool = Pool::start(spec(limit), engines).unwrap_or_else(|err| panic!("{err}"));
    let started = Instant::now();
    let (sender, receiver) = mpsc::channel();
    for (index, fen) in fens.iter().enumerate() {
        let sender = sender.clone();
        pool.submit(Job::new(fen.clone(), false, move |result| {
            let _ = sender.send((index, result));
        }));
    }
    drop(sender);
    let report = pool.finish();
    let elapsed = started.elapsed();
    assert_eq!((report.analysed, report.failed), (fens.len() as u64, 0));
    let mut answers: Vec<_> = receiver.iter().collect();
    answers.sort_by_key(|(index, _)| *index);
    let analyses = answers
        .into_iter()
        .map(|(_, result)| result.unwrap_or_else(|failure| panic!("{failure}")))
        .collect();
    (analyses, elapsed)
}

#[test]
fn a_pool_answers_as_one_engine_does() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let fens = game(20);
    let limit = depth(8);
    let alone: Vec<Analysis> = fens
        .iter()
        .map(|fen| analyse(&mut engine, fen, &limit, 1))
        .collect();
    engine.quit();
    let (pooled, _) = pool_analyses(&fens, limit, 2);
    assert_eq!(pooled, alone);
}

/// Positions a second, one engine against a pool of two, at depth 10 over 50 positions:
/// `cargo test -p tabia-analyse --test stockfish -- --ignored --nocapture` (the engines
/// do nearly all the work: a debug build of tabia will do).
#[test]
#[ignore = "a measurement: it takes seconds and wants idle cores"]
fn throughput() {
    let Some(engine) = stockfish() else { return };
    engine.quit();
    let fens = game(50);
    let limit = depth(10);
    let (one, alone) = pool_analyses(&fens, limit, 1);
    let (two, paired) = pool_analyses(&fens, limit, 2);
    assert_eq!(one, two);
    let rate = |elapsed: Duration| fens.len() as f64 / elapsed.as_secs_f64();
    println!(
        "depth 10, {} positions: 1 engine {:.1} positions/s ({:.2} s), 2 engines {:.1} \
         positions/s ({:.2} s): {:.2} × one",
        fens.len(),
        rate(alone),
        alone.as_secs_f64(),
        rate(paired),
        paired.as_secs_f64(),
        rate(paired) / rate(alone),
    );
}

#[test]
fn annotate_game_writes_the_evaluations_of_its_analysis() {
    let Some(engine) = stockfish() else { return };
    engine.quit();
    let analyser = Analyser::new(Pool::start(spec(depth(6)), 2).expect("a pool"), None);
    let game: Game = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
        .parse()
        .expect("a game");
    let options = AnnotateOptions {
        variations: true,
        annotator: Some(analyser.pool().settings().annotator()),
    };
    let mut annotated = game.clone();
    let analysis = analyser
        .annotate_game(&mut annotated, &Selection::default(), &options)
        .expect("a plan");
    assert!(!analysis.stopped());
    assert_eq!(analysis.unanalysed(&game).count(), 0);
    // Every position but the mate, each with White's score, which the move before it carries.
    let evaluations = analysis.evaluations();
    assert_eq!(
        evaluations.iter().map(|e| e.ply).collect::<Vec<_>>(),
        (0..7).collect::<Vec<_>>()
    );
    for (mv, evaluation) in annotated.mainline.moves.iter().zip(&evaluations[1..]) {
        let score = match (evaluation.cp, evaluation.mate) {
            (Some(cp), None) => Score::Cp(cp),
            (None, Some(mate)) => Score::Mate(mate),
            other => panic!("{other:?}"),
        };
        assert_eq!(mv.eval().map(|e| e.score), Some(score), "{evaluation:?}");
    }
    assert_eq!(evaluations[6].mate, Some(1));
    let text = annotated.to_string();
    assert!(
        text.contains("[Annotator \"tabia analyse: Stockfish"),
        "{text}"
    );
    assert!(text.contains("3... Nf6 $4"), "{text}");
    // Asked again and written by hand: the same text, the analyses this run's.
    let mut by_hand = game.clone();
    analyser
        .request_game(&game, &Selection::default())
        .expect("a plan")
        .wait()
        .annotate(&mut by_hand, &options);
    assert_eq!(by_hand.to_string(), text);
    let report = analyser.finish().expect("no cache");
    assert_eq!((report.analysed, report.repeated, report.failed), (7, 7, 0));
}
