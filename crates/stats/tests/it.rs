//! tabia-stats: figures of concatenated inputs, parallel against sequential, merges.

use proptest::prelude::*;
use tabia_stats::{Report, Stats};
use tabia_stream::{Pipeline, SplitGames};

/// One generated game: tags drawn from small pools (so that players, events and ECO codes
/// repeat), `plies` moves, maybe a comment with a clock or an evaluation, a variation, a
/// missing result (a warning) or a bad move (an error).
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
            0u8..4,
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
        // And the counts add up.
        let r = &once.results;
        prop_assert_eq!(r.white_wins + r.black_wins + r.draws + r.unknown, once.read);
        prop_assert_eq!(once.games, once.read + once.errors);
        let expected_errors = specs.iter().filter(|s| s.ending == 4).count() as u64;
        prop_assert_eq!(once.errors, expected_errors);
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
