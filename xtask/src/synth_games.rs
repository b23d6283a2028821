//! `cargo xtask synth-games --games N [--seed S] -o FILE [FILE...]`: N distinct, plausible
//! games for the position index's figures at a million games, where the corpus holds some
//! sixteen thousand.
//!
//! Each game starts with the opening of a game of the corpus (`../shared/corpus` unless files
//! are given; standard games only): its first 8 to 16 plies, so that openings repeat as in a
//! real collection, then goes on with random legal moves to a length of 40 to 120 plies (fewer
//! when it is mate or a draw by the rules first). Tags: players from a pool of 3,000 names,
//! each with a rating of their own (600 to 2,800) give or take 60; dates across the 24 months
//! of 2023 and 2024; a time control of each of lichess's speeds (ultraBullet to
//! correspondence), the event named after it; the result from the final position when it
//! decides one, otherwise drawn at random (white 47 %, black 45 %, draw 8 %). Written as
//! plain PGN; the same seed gives the same file.

use std::{
    fs::File,
    io::{BufWriter, Write as _},
    path::PathBuf,
};

use anyhow::{Context as _, bail};
use tabia_position::{
    Position, Replay,
    shakmaty::{Move, Position as _},
};
use tabia_stream::SplitGames;

use crate::{Rng, project_root};

/// Players in the pool.
const PLAYERS: usize = 3_000;

/// (TimeControl, speed as lichess names it in the event).
const TIME_CONTROLS: &[(&str, &str)] = &[
    ("15+0", "UltraBullet"),
    ("20+0", "UltraBullet"),
    ("60+0", "Bullet"),
    ("120+1", "Bullet"),
    ("180+0", "Blitz"),
    ("180+2", "Blitz"),
    ("300+0", "Blitz"),
    ("300+3", "Blitz"),
    ("600+0", "Rapid"),
    ("600+5", "Rapid"),
    ("900+10", "Rapid"),
    ("1800+0", "Classical"),
    ("1800+20", "Classical"),
    ("-", "Correspondence"),
];

/// `cargo xtask synth-games`.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut games = None;
    let mut seed = 1;
    let mut output = None;
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| rest.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--games" => games = Some(value("--games")?.parse::<u64>()?),
            "--seed" => seed = value("--seed")?.parse()?,
            "-o" | "--output" => output = Some(PathBuf::from(value("-o")?)),
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let (Some(games), Some(output)) = (games, output) else {
        bail!("usage: cargo xtask synth-games --games N [--seed S] -o FILE [FILE...]");
    };
    if files.is_empty() {
        let corpus = project_root().join("../shared/corpus");
        files = std::fs::read_dir(&corpus)
            .with_context(|| format!("no corpus at {}", corpus.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().contains(".pgn"))
            .collect();
        files.sort();
    }
    let openings = openings(&files)?;
    if openings.is_empty() {
        bail!("no standard game of 8 plies or more in the inputs");
    }
    eprintln!(
        "synth-games: {} openings from {} files",
        openings.len(),
        files.len()
    );
    let mut rng = Rng::new(seed);
    let pool = Pool::new(&mut rng);
    let mut out = BufWriter::with_capacity(
        1 << 20,
        File::create(&output).with_context(|| format!("cannot create {}", output.display()))?,
    );
    let mut text = String::new();
    for number in 1..=games {
        text.clear();
        write_game(&mut text, number, &openings, &pool, &mut rng);
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    eprintln!("synth-games: {games} games in {}", output.display());
    Ok(())
}

/// The first 16 mainline plies of every standard game of `files` that has 8 or more.
fn openings(files: &[PathBuf]) -> anyhow::Result<Vec<Vec<Move>>> {
    let mut openings = Vec::new();
    for path in files {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let (_, reader) = tabia_stream::decompress(file)?;
        for raw in SplitGames::new(reader) {
            let Ok(game) = raw?.parse() else { continue };
            if game.tag("FEN").is_some()
                || game
                    .tag("Variant")
                    .is_some_and(|v| !v.eq_ignore_ascii_case("standard"))
            {
                continue;
            }
            let moves: Vec<Move> = Replay::new(&game)
                .take(16)
                .map_while(|ply| ply.ok().and_then(|p| p.mv))
                .collect();
            if moves.len() >= 8 {
                openings.push(moves);
            }
        }
    }
    Ok(openings)
}

/// The players: a name and a rating each.
struct Pool {
    players: Vec<(String, i32)>,
}

impl Pool {
    fn new(rng: &mut Rng) -> Pool {
        const FIRST: &[&str] = &[
            "Ann", "Bo", "Cem", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jin", "Kai", "Lea",
            "Milo", "Nia", "Omar", "Pia", "Quin", "Rui", "Sol", "Tess", "Uma", "Vik", "Wen", "Xia",
            "Yuri", "Zoe",
        ];
        const LAST: &[&str] = &[
            "Stone", "Rivers", "Knight", "Bishop", "Castle", "Field", "Marsh", "Hill", "Brook",
            "Vale", "Frost", "Reed", "Wood", "Lake", "Gale", "North", "West", "Moor", "Ash",
            "Pike",
        ];
        let players = (0..PLAYERS)
            .map(|i| {
                let name = format!(
                    "{}{}{}",
                    FIRST[rng.below(FIRST.len())],
                    LAST[rng.below(LAST.len())],
                    i
                );
                // Three draws averaged: most players near the middle, a few strong or new.
                let rating = (0..3).map(|_| rng.between(600, 2800)).sum::<usize>() / 3;
                (name, rating as i32)
            })
            .collect();
        Pool { players }
    }
}

/// Appends game `number` to `text`.
fn write_game(text: &mut String, number: u64, openings: &[Vec<Move>], pool: &Pool, rng: &mut Rng) {
    use std::fmt::Write as _;

    let opening = &openings[rng.below(openings.len())];
    let start = rng.between(8, 16).min(opening.len());
    let length = rng.between(40, 120);
    let mut pos = Position::new();
    let mut sans = Vec::with_capacity(length);
    let mut ended = None;
    for ply in 0..length {
        let m = if let Some(&m) = opening[..start].get(ply) {
            m
        } else {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ended = Some(if pos.is_check() { "mate" } else { "stalemate" });
                break;
            }
            if pos.chess().is_insufficient_material() || pos.halfmoves() >= 100 {
                ended = Some("draw");
                break;
            }
            legal[rng.below(legal.len())]
        };
        sans.push(pos.san(m).to_string());
        pos.play_unchecked(m);
    }
    if ended.is_none() && pos.legal_moves().is_empty() {
        ended = Some(if pos.is_check() { "mate" } else { "stalemate" });
    }
    let result = match ended {
        // The side to move is mated.
        Some("mate") if pos.turn().is_white() => "0-1",
        Some("mate") => "1-0",
        Some(_) => "1/2-1/2",
        None => match rng.below(100) {
            0..47 => "1-0",
            47..92 => "0-1",
            _ => "1/2-1/2",
        },
    };
    let white = rng.below(PLAYERS);
    let black = (white + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
    let elo = |i: usize, rng: &mut Rng| pool.players[i].1 + rng.between(0, 120) as i32 - 60;
    let (white_elo, black_elo) = (elo(white, rng), elo(black, rng));
    let (time_control, speed) = TIME_CONTROLS[rng.below(TIME_CONTROLS.len())];
    let month = rng.below(24);
    let date = format!(
        "{}.{:02}.{:02}",
        2023 + month / 12,
        month % 12 + 1,
        rng.between(1, 28)
    );
    let _ = write!(
        text,
        "[Event \"Rated {speed} game\"]\n[Site \"https://synth.invalid/{number}\"]\n\
         [Date \"{date}\"]\n[Round \"-\"]\n[White \"{}\"]\n[Black \"{}\"]\n\
         [Result \"{result}\"]\n[WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n\
         [TimeControl \"{time_control}\"]\n\n",
        pool.players[white].0, pool.players[black].0,
    );
    let mut line = 0;
    for (i, san) in sans.iter().enumerate() {
        let before = text.len();
        if i % 2 == 0 {
            let _ = write!(text, "{}. ", i / 2 + 1);
        }
        text.push_str(san);
        line += text.len() - before;
        if line > 72 {
            text.push('\n');
            line = 0;
        } else {
            text.push(' ');
            line += 1;
        }
    }
    text.push_str(result);
    text.push_str("\n\n");
}
