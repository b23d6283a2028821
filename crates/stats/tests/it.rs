//! tabia-stats: figures of concatenated inputs, parallel against sequential, merges.

use proptest::prelude::*;
use tabia_stats::{Report, Stats};
use tabia_stream::{Pipeline, SplitGames};

/// One generated game: tags drawn from small pools (so that players, events and ECO codes
/// repeat), `plies` moves, maybe a comment with a clock or an evaluation (or an evaluation
/// after every move, the last one sometimes missing), a variation, a missing result (a
/// warning) or a bad move (an error).
#[derive(Debug, Clone)]
struct Spec {
    white: u8,
    black: u8,
    event: u8,
    eco: u8,
    elo: u16,
    date: (u16, u8),
    tc: u8,
    plies: u8,
    comment: u8,
    variation: bool,
    ending: u8,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        (0u8..6, 0u8..6, 0u8..4, 0u8..5, 0u16..3000),
        (
            (1950u16..2030),
            0u8..13,
            0u8..8,
            0u8..40,
            0u8..5,
            any::<bool>(),
            0u8..6,
        ),
    )
        .prop_map(
            |(
                (white, black, event, eco, elo),
                (year, month, tc, plies, comment, variation, ending),
            )| Spec {
                white,
                black,
                event,
                eco,
                elo,
                date: (year, month),
                tc,
                plies,
                comment,
                variation,
                ending,
            },
        )
}

const MOVES: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
const TCS: [&str; 8] = ["15+0", "60+0", "180+2", "600+5", "1800+20", "-", "?", "x"];

fn pgn(spec: &Spec) -> String {
    let mut s = String::new();
    s += &format!("[Event \"E{}\"]\n", spec.event);
    s += &format!("[White \"P{}\"]\n[Black \"P{}\"]\n", spec.white, spec.black);
    if spec.eco < 4 {
        s += &format!("[ECO \"A0{}\"]\n", spec.eco);
    }
    if spec.elo > 0 {
        s += &format!("[WhiteElo \"{}\"]\n", spec.elo);
    }
    let month = if spec.date.1 == 0 {
        "??".to_owned()
    } else {
        format!("{:02}", spec.date.1)
    };
    s += &format!("[Date \"{}.{month}.01\"]\n", spec.date.0);
    s += &format!("[TimeControl \"{}\"]\n\n", TCS[spec.tc as usize]);
    // A game without moves nor result would run into the tags of the next one (they would be
    // read as more tags of the same game): a game without a result has a move.
    let plies = if spec.ending == 5 {
        spec.plies.max(1)
    } else {
        spec.plies
    };
    for ply in 0..plies as usize {
        if ply % 2 == 0 {
            s += &format!("{}. ", ply / 2 + 1);
        }
        s += MOVES[ply % 4];
        s += " ";
        // An evaluation after every move; after the last one only without a variation.
        if spec.comment == 4 && (ply + 1 < plies as usize || !spec.variation) {
            let cp = (i64::from(spec.elo) * 31 + ply as i64 * 97) % 900 - 450;
            let sign = if cp < 0 { "-" } else { "" };
            if ply % 11 == 5 {
                s += &format!("{{ [%eval #{sign}2] }} ");
            } else {
                let cp = cp.abs();
                s += &format!("{{ [%eval {sign}{}.{:02}] }} ", cp / 100, cp % 100);
            }
        }
        if ply == 0 {
            match spec.comment {
                1 => s += "{ nice } ",
                2 => s += "{ [%clk 0:01:00] } ",
                3 => s += "{ [%eval 0.1] [%clk 0:01:00] } ",
                _ => {}
            }
            if spec.variation {
                s += "( 1. e4 e5 ) ";
            }
        }
    }
    s += match spec.ending {
        0 => "1-0",
        1 => "0-1",
        2 => "1/2-1/2",
        3 => "*",
        4 => "Zz9 *", // a syntax error
        _ => "",      // no result: a warning
    };
    s += "\n\n";
    s
}

fn report(pgn: &str) -> Report {
    Stats::from_reader(pgn.as_bytes())
        .expect("in memory")
        .report(None)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn doubling_the_input_doubles_the_counts_and_keeps_the_rest(
        specs in proptest::collection::vec(spec(), 0..40)
    ) {
        let a: String = specs.iter().map(pgn).collect();
        let once = report(&a);
        let twice = report(&a.repeat(2));
        let d = |n: u64| 2 * n;
        prop_assert_eq!(twice.games, d(once.games));
        prop_assert_eq!(twice.read, d(once.read));
        prop_assert_eq!(twice.errors, d(once.errors));
        prop_assert_eq!(twice.warnings, d(once.warnings));
        prop_assert_eq!(twice.bytes, d(once.bytes));
        prop_assert_eq!(twice.plies, once.plies, "min, median, max and mean stay");
        prop_assert_eq!(twice.results.white_wins, d(once.results.white_wins));
        prop_assert_eq!(twice.results.unknown, d(once.results.unknown));
        prop_assert_eq!(twice.dates.games, d(once.dates.games));
        prop_assert_eq!(&twice.dates.first, &once.dates.first);
        prop_assert_eq!(&twice.dates.last, &once.dates.last);
        prop_assert_eq!(twice.time_controls.blitz, d(once.time_controls.blitz));
        prop_assert_eq!(twice.time_controls.unknown, d(once.time_controls.unknown));
        prop_assert_eq!(twice.ratings.count, d(once.ratings.count));
        prop_assert_eq!((twice.ratings.min, twice.ratings.max, twice.ratings.mean),
                        (once.ratings.min, once.ratings.max, once.ratings.mean));
        prop_assert_eq!(twice.players, once.players, "the same players");
        prop_assert_eq!(twice.distinct_events, once.distinct_events);
        prop_assert_eq!(twice.distinct_eco, once.distinct_eco);
        let doubled = |counts: &[tabia_stats::Count]| -> Vec<(String, u64)> {
            counts.iter().map(|c| (c.name.clone(), 2 * c.games)).collect()
        };
        let plain = |counts: &[tabia_stats::Count]| -> Vec<(String, u64)> {
            counts.iter().map(|c| (c.name.clone(), c.games)).collect()
        };
        prop_assert_eq!(plain(&twice.events), doubled(&once.events));
        prop_assert_eq!(plain(&twice.eco), doubled(&once.eco));
        prop_assert_eq!(plain(&twice.variants), doubled(&once.variants));
        prop_assert_eq!(twice.annotations.comments, d(once.annotations.comments));
        prop_assert_eq!(twice.annotations.variations, d(once.annotations.variations));
        prop_assert_eq!(twice.annotations.clocks, d(once.annotations.clocks));
        prop_assert_eq!(twice.annotations.evals, d(once.annotations.evals));
        prop_assert_eq!(twice.accuracy.is_some(), once.accuracy.is_some());
        if let (Some(twice), Some(once)) = (&twice.accuracy, &once.accuracy) {
            prop_assert_eq!((twice.games, twice.left_out), (d(once.games), d(once.left_out)));
            for (twice, once) in twice.bands.iter().chain([&twice.all]).zip(once.bands.iter().chain([&once.all])) {
                prop_assert_eq!(&twice.band, &once.band);
                prop_assert_eq!((twice.sides, twice.moves), (d(once.sides), d(once.moves)));
                prop_assert_eq!((twice.accuracy, twice.acpl), (once.accuracy, once.acpl), "means stay");
                prop_assert_eq!(twice.per_100_moves, once.per_100_moves, "rates stay");
            }
        }
        // And the counts add up.
        let r = &once.results;
        prop_assert_eq!(r.white_wins + r.black_wins + r.draws + r.unknown, once.read);
        prop_assert_eq!(once.games, once.read + once.errors);
        let expected_errors = specs.iter().filter(|s| s.ending == 4).count() as u64;
        prop_assert_eq!(once.errors, expected_errors);
        // A game read with an evaluation after every move (but maybe the last) is judged.
        let judged = specs.iter().filter(|s| s.comment == 4 && s.ending != 4 && s.plies >= 2).count();
        prop_assert!(once.accuracy.map_or(0, |a| a.games) >= judged as u64);
    }

    #[test]
    fn parallel_and_merged_figures_are_the_sequential_ones(
        specs in proptest::collection::vec(spec(), 1..60),
        jobs in 1usize..4,
        cut in 0usize..60,
    ) {
        let a: String = specs.iter().map(pgn).collect();
        let sequential = report(&a);
        let pipeline = Pipeline::new().with_jobs(jobs).with_batch_bytes(200);
        let parallel = Stats::from_games(SplitGames::new(a.as_bytes()), &pipeline).unwrap();
        prop_assert_eq!(parallel.report(None), sequential.clone());
        // Read in place where the workers find the games, in pieces of every size.
        for bytes in [1, 64, 200, 5000] {
            let pipeline = Pipeline::new().with_jobs(jobs).with_batch_bytes(bytes);
            let in_place = Stats::from_input(a.as_bytes(), &pipeline).unwrap();
            prop_assert_eq!(in_place.report(None), sequential.clone(), "pieces of {}", bytes);
        }
        let (owned, given_back) = Stats::from_bytes(a.clone().into_bytes());
        prop_assert_eq!(given_back, a.as_bytes());
        prop_assert_eq!(owned.report(None), sequential.clone());
        // Two parts merged either way round.
        let cut = cut.min(specs.len());
        let (x, y): (String, String) =
            (specs[..cut].iter().map(pgn).collect(), specs[cut..].iter().map(pgn).collect());
        let (sx, sy) = (Stats::from_reader(x.as_bytes()).unwrap(), Stats::from_reader(y.as_bytes()).unwrap());
        let mut xy = sx.clone();
        xy.merge(sy.clone());
        let mut yx = sy;
        yx.merge(sx);
        prop_assert_eq!(xy.report(None), sequential.clone());
        prop_assert_eq!(yx.report(None), sequential);
    }
}

#[test]
fn median_is_the_lower_one_and_long_games_count() {
    let game = |plies: usize| -> String {
        let mut s = String::new();
        for ply in 0..plies {
            s += MOVES[ply % 4];
            s += " ";
        }
        s + "*\n\n"
    };
    let r = report(&[game(10), game(20)].concat());
    assert_eq!(
        (r.plies.min, r.plies.median, r.plies.max),
        (Some(10), Some(10), Some(20))
    );
    assert_eq!(r.plies.mean, Some(15.0));
    // Past the dense histogram (1024 plies).
    let r = report(&[game(3000), game(2), game(3000), game(1500)].concat());
    assert_eq!(
        (r.plies.min, r.plies.median, r.plies.max),
        (Some(2), Some(1500), Some(3000))
    );
    let r = report("");
    assert_eq!(
        (r.games, r.plies.min, r.plies.median, r.plies.mean),
        (0, None, None, None)
    );
}

#[test]
fn variants_are_counted_by_canonical_name() {
    let pgn = "[Variant \"Standard\"]\n\n*\n\n[Variant \"normal\"]\n\n*\n\n*\n\n\
               [Variant \"fischerandom\"]\n\n*\n\n[Variant \"Chess960\"]\n\n*\n\n\
               [Variant \"Crazyhouse\"]\n\n*\n\n";
    let r = report(pgn);
    let counts: Vec<(&str, u64)> = r
        .variants
        .iter()
        .map(|c| (c.name.as_str(), c.games))
        .collect();
    assert_eq!(
        counts,
        [("standard", 3), ("chess960", 2), ("crazyhouse", 1)]
    );
}

#[test]
fn text_of_an_empty_input() {
    let text = report("").to_string();
    assert_eq!(
        text,
        "games           0 (read 0, errors 0, warnings 0)\n\
         bytes           0 (0 B)\n\
         plies           min -, median -, max -, mean -\n\
         results         1-0      0\n\
         \x20               0-1      0\n\
         \x20               1/2-1/2  0\n\
         \x20               *        0\n\
         dates           - (0 games dated)\n\
         variants        -\n\
         time controls   ultrabullet     0\n\
         \x20               bullet          0\n\
         \x20               blitz           0\n\
         \x20               rapid           0\n\
         \x20               classical       0\n\
         \x20               correspondence  0\n\
         \x20               unknown         0\n\
         ratings         min -, max -, mean - (0 ratings)\n\
         players         0 distinct\n\
         events (0)      -\n\
         eco (0)         -\n\
         games with      comments    0\n\
         \x20               variations  0\n\
         \x20               clocks      0\n\
         \x20               evals       0\n"
    );
}

#[test]
fn accuracy_report_of_a_game_with_evals() {
    use tabia_notation::{Color, pgn::Score};
    use tabia_stats::lichess;

    let pgn = "[WhiteElo \"2210\"]\n[BlackElo \"950\"]\n\n\
               1. e4 { [%eval 0.3] } e5 { [%eval 0.35] } 2. Qh5 { [%eval -0.2] } \
               Ke7 { [%eval 2.5] } 3. Qxe5# 1-0\n\n\
               [WhiteElo \"2230\"]\n\n1. d4 e5 { [%eval 0.9] } *\n\n1. c4 c5 *\n";
    let r = report(pgn);
    let accuracy = r.accuracy.as_ref().expect("a game with evals");
    assert_eq!((accuracy.games, accuracy.left_out), (1, 1));
    // The last move, without an eval, is White's mate: scored `#1`.
    let evals = [
        Score::Cp(30),
        Score::Cp(35),
        Score::Cp(-20),
        Score::Cp(250),
        Score::Mate(1),
    ];
    let game = lichess::game_accuracy(Color::White, &evals);
    let acpl = lichess::average_centipawn_loss(Color::White, &evals);
    let two = |x: f64| (x * 100.0).round() / 100.0;
    let [low, high] = &accuracy.bands[..] else {
        panic!("two bands: {:?}", accuracy.bands);
    };
    assert_eq!(
        (low.band.as_str(), low.min, low.max),
        ("under 1000", Some(0), Some(999))
    );
    assert_eq!(
        (high.band.as_str(), high.min, high.max),
        ("2200-2499", Some(2200), Some(2499))
    );
    assert_eq!((high.sides, high.moves, low.sides, low.moves), (1, 3, 1, 2));
    assert_eq!(
        high.accuracy,
        Some(two((game.white.unwrap() * 1000.0).round() / 1000.0))
    );
    assert_eq!(
        low.accuracy,
        Some(two((game.black.unwrap() * 1000.0).round() / 1000.0))
    );
    // ACPL over the band's moves; one game here: lichess's, before rounding.
    assert_eq!(high.acpl.map(f64::round), acpl.white.map(f64::from));
    assert_eq!(low.acpl.map(f64::round), acpl.black.map(f64::from));
    // Qh5 drops 0.55 (an inaccuracy), Ke7 2.7 (a blunder).
    assert_eq!(
        (high.judgements.inaccuracies, high.judgements.blunders),
        (1, 0)
    );
    assert_eq!(
        (low.judgements.inaccuracies, low.judgements.blunders),
        (0, 1)
    );
    assert_eq!(low.per_100_moves.map(|p| p.blunders), Some(50.0));
    assert_eq!((accuracy.all.sides, accuracy.all.moves), (2, 5));
    let text = r.to_string();
    assert!(
        text.contains(
            "accuracy        1 game judged, 1 left out (a move before the last without an eval)\n\
             \x20               rating      sides  moves  accuracy"
        ),
        "{text}"
    );
}
