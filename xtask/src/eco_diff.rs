//! `cargo xtask eco-diff [--tabia PATH] [--pgn FILE] [--show N]`: the openings tabia names,
//! against independent peers (issue 31). Not part of `cargo test`: it needs python-chess,
//! pgn-extract and `../shared`.
//!
//! 1. *The rule*: python-chess (`eco_diff.py`) names every game of `--pgn` (default the
//!    lichess file of `../shared/corpus`) by lichess's rule over the lichess TSVs of
//!    `../shared/eco/lichess`; `tabia eco --json` must give the same code and name.
//! 2. *Lichess's own tags*: how often the `ECO` and `Opening` tags lichess wrote agree with the
//!    rule over today's table, and why the others do not: the game passed today's row that
//!    the tag names, so a deeper row was added since (*row not in the table of the game's
//!    day*); the tag's code and name are no row of today's table (*row renamed since*); or
//!    anything else (a bug: the task fails).
//! 3. *The table's rows*: every row's moves, as a game, named by that row.
//! 4. *pgn-extract*: the ECO codes of `pgn-extract -e` on the corpus files (opening tags taken
//!    out first), game by game, with the same table on both sides: `eco.pgn` (tabia `--table
//!    eco.pgn`) and Scid's (tabia `--openings scid`; pgn-extract reads it written as PGN).
//!    Games with a `Variant` tag are left out: pgn-extract names none, not even "normal" ones.
//!
//! Prints the figures; fails when the rule agrees on less than 99.9% of games, a difference
//! with lichess's tags has no known cause, a row is not named by itself, or pgn-extract's codes
//! agree on less than 99.9% of games.

use std::{
    collections::{HashMap, HashSet},
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail};
use serde_json::Value;

use crate::project_root;

const SCRIPT: &str = include_str!("eco_diff.py");

/// A game's opening: code and name, or `None` when unnamed (or not classified).
type Named = Option<(String, String)>;

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = project_root();
    let shared = root.join("../shared");
    let mut tabia = None;
    let mut pgn = shared.join("corpus/lichess_db_1000k.pgn");
    let mut show = 10;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--tabia" => tabia = Some(PathBuf::from(rest.next().context("--tabia PATH")?)),
            "--pgn" => pgn = PathBuf::from(rest.next().context("--pgn FILE")?),
            "--show" => show = rest.next().context("--show N")?.parse()?,
            other => bail!("eco-diff: unknown argument `{other}`"),
        }
    }
    let tabia = crate::tabia_binary(tabia)?;
    let work = root.join("target/eco-diff");
    fs::create_dir_all(&work)?;
    let tsv_dir = shared.join("eco/lichess");
    let rows = lichess_rows(&tsv_dir)?;
    let mut failures = Vec::new();

    // 1 and 2: the rule, and lichess's tags.
    let peer = python(&tsv_dir, &pgn)?;
    let ours = tabia_eco(&tabia, &pgn, &[])?;
    if ours.len() != peer.len() {
        bail!(
            "{}: tabia read {} games, python-chess {}",
            pgn.display(),
            ours.len(),
            peer.len()
        );
    }
    let (mut same, mut shown) = (0, 0);
    for (i, (a, b)) in ours.iter().zip(&peer).enumerate() {
        if *a == b.named {
            same += 1;
        } else if shown < show {
            shown += 1;
            println!("game {}: tabia {a:?}, python-chess {:?}", i + 1, b.named);
        }
    }
    let games = ours.len();
    println!(
        "the rule, {}: {games} games, tabia = python-chess on {same} ({})",
        pgn.display(),
        percent(same, games)
    );
    if same * 1000 < games * 999 {
        failures.push(format!("the rule agrees on {}", percent(same, games)));
    }
    tags(&peer, &rows, show, &mut failures);

    // 3: every row named by itself.
    let mut text = String::new();
    for (eco, name, moves) in &rows.list {
        let _ = write!(
            text,
            "[ECO \"{eco}\"]\n[Opening \"{name}\"]\n\n{moves} *\n\n"
        );
    }
    let rows_pgn = work.join("rows.pgn");
    fs::write(&rows_pgn, text)?;
    let named = tabia_eco(&tabia, &rows_pgn, &[])?;
    let own = rows
        .list
        .iter()
        .zip(&named)
        .filter(|((eco, name, _), got)| got.as_ref().is_some_and(|(e, n)| e == eco && n == name))
        .count();
    println!(
        "the table's rows: {} named by themselves of {} ({})",
        own,
        rows.list.len(),
        percent(own, rows.list.len())
    );
    if own != rows.list.len() {
        failures.push(format!(
            "{} rows not named by themselves",
            rows.list.len() - own
        ));
    }

    // 4: pgn-extract.
    extract(&tabia, &shared, &work, &mut failures)?;

    if !failures.is_empty() {
        bail!("{}", failures.join("; "));
    }
    Ok(())
}

fn percent(part: usize, whole: usize) -> String {
    format!("{:.2}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// The rows of today's lichess table.
struct Rows {
    /// Code, name, moves, in the files' order.
    list: Vec<(String, String, String)>,
    /// The (code, name) pairs.
    pairs: HashSet<(String, String)>,
}

fn lichess_rows(dir: &Path) -> anyhow::Result<Rows> {
    let mut list = Vec::new();
    for file in ["a", "b", "c", "d", "e"] {
        let path = dir.join(format!("{file}.tsv"));
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let mut fields = line.split('\t').map(str::to_owned);
            if let (Some(eco), Some(name), Some(pgn)) =
                (fields.next(), fields.next(), fields.next())
            {
                list.push((eco, name, pgn));
            }
        }
    }
    let pairs = list
        .iter()
        .map(|(e, n, _)| (e.clone(), n.clone()))
        .collect();
    Ok(Rows { list, pairs })
}

/// What python-chess made of one game.
struct Peer {
    named: Named,
    own: Named,
    date: String,
    passed: Vec<String>,
}

fn python(tsv_dir: &Path, pgn: &Path) -> anyhow::Result<Vec<Peer>> {
    let out = crate::python_output(SCRIPT, &[tsv_dir.as_os_str(), pgn.as_os_str()])?;
    if !out.status.success() {
        bail!("python-chess failed on {}", pgn.display());
    }
    let pair = |eco: &str, name: &str| (eco != "-").then(|| (eco.to_owned(), name.to_owned()));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let [_, eco, name, own_eco, own_name, date, passed] = f[..] else {
                bail!("python-chess wrote `{line}`");
            };
            Ok(Peer {
                named: pair(eco, name),
                own: (own_eco != "-" || own_name != "-")
                    .then(|| (own_eco.to_owned(), own_name.to_owned())),
                date: date.to_owned(),
                passed: passed
                    .split('|')
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect(),
            })
        })
        .collect()
}

/// The opening of every game of `pgn` by `tabia eco --json ARGS` (errors are unnamed).
fn tabia_eco(tabia: &Path, pgn: &Path, args: &[&str]) -> anyhow::Result<Vec<Named>> {
    Ok(tabia_eco_plies(tabia, pgn, args)?
        .into_iter()
        .map(|(named, _)| named)
        .collect())
}

/// Like [`tabia_eco()`], with whether the game reached its named position at another ply than
/// the table's line has (by a transposition that gained or lost tempi).
fn tabia_eco_plies(tabia: &Path, pgn: &Path, args: &[&str]) -> anyhow::Result<Vec<(Named, bool)>> {
    let out = Command::new(tabia)
        .args(["eco", "--json", "-q"])
        .args(args)
        .arg(pgn)
        .output()
        .with_context(|| format!("cannot run {}", tabia.display()))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).context("tabia's JSON")?;
            let field = |k: &str| v[k].as_str().map(str::to_owned);
            let line_plies = field("moves").map_or(0, |m| {
                m.split_whitespace().filter(|t| !t.ends_with('.')).count()
            });
            let other_ply = v["ply"].as_u64().is_some_and(|p| p as usize != line_plies);
            Ok((field("eco").zip(field("name")), other_ply))
        })
        .collect()
}

/// Part 2: the rule against the tags lichess wrote.
fn tags(peer: &[Peer], rows: &Rows, show: usize, failures: &mut Vec<String>) {
    let (mut tagged, mut codes, mut names) = (0, 0, 0);
    let mut causes: HashMap<&str, Vec<String>> = HashMap::new();
    let (mut first, mut last) = (String::from("9999"), String::new());
    for (i, game) in peer.iter().enumerate() {
        let Some((own_eco, own_name)) = &game.own else {
            continue;
        };
        tagged += 1;
        first = first.min(game.date.clone());
        last = last.max(game.date.clone());
        let (eco, name) = game
            .named
            .clone()
            .unwrap_or_else(|| ("?".to_owned(), "?".to_owned()));
        codes += usize::from(*own_eco == eco);
        names += usize::from(*own_name == name);
        if *own_eco == eco && *own_name == name {
            continue;
        }
        let cause = if !rows.pairs.contains(&(own_eco.clone(), own_name.clone())) {
            "row renamed since"
        } else if game.passed.iter().any(|p| p == own_name) {
            "row not in the table of the game's day"
        } else {
            "other"
        };
        causes.entry(cause).or_default().push(format!(
            "game {} ({}): lichess {own_eco} {own_name}; today {eco} {name}",
            i + 1,
            game.date
        ));
    }
    println!(
        "lichess's tags ({tagged} games, {first} to {last}): the same code {} ({}), the same \
         name {} ({})",
        codes,
        percent(codes, tagged),
        names,
        percent(names, tagged)
    );
    let mut sorted: Vec<_> = causes.into_iter().collect();
    sorted.sort();
    for (cause, games) in &sorted {
        println!("  {cause}: {} games", games.len());
        let mut seen = HashSet::new();
        for line in games
            .iter()
            .filter(|g| seen.insert(g.split_once("; ").map(|x| x.1.to_owned())))
            .take(show)
        {
            println!("    {line}");
        }
    }
    if let Some((_, games)) = sorted.iter().find(|(c, _)| *c == "other") {
        failures.push(format!(
            "{} differences with lichess's tags have no cause",
            games.len()
        ));
    }
}

/// Part 4: ECO codes against `pgn-extract -e` on each corpus file, with the same table on
/// both sides: pgn-extract's `eco.pgn` (tabia `--table eco.pgn`), and Scid's table written as
/// pgn-extract reads a table (tabia `--openings scid`).
fn extract(
    tabia: &Path,
    shared: &Path,
    work: &Path,
    failures: &mut Vec<String>,
) -> anyhow::Result<()> {
    let eco_pgn = shared.join("eco/eco.pgn");
    let scid_pgn = work.join("scid.pgn");
    fs::write(&scid_pgn, scid_as_pgn()?)?;
    let mut files: Vec<PathBuf> = fs::read_dir(shared.join("corpus"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".pgn"))
        .collect();
    files.sort();
    let table_arg = eco_pgn.to_string_lossy().into_owned();
    let configs: [(&str, &Path, Vec<&str>); 2] = [
        ("--table eco.pgn", &eco_pgn, vec!["--table", &table_arg]),
        ("--openings scid", &scid_pgn, vec!["--openings", "scid"]),
    ];
    let mut totals = [(0usize, 0usize); 2];
    let mut variant_tagged = 0;
    for file in files {
        let (plain, variants) = numbered_copy(tabia, &file, work)?;
        let stem = plain
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        variant_tagged += variants.len();
        let mut line = String::new();
        for (i, (label, table, args)) in configs.iter().enumerate() {
            let theirs = extract_codes(table, &plain)?;
            let ours = tabia_eco_plies(tabia, &plain, args)?;
            let (mut games, mut same, mut tempo) = (0, 0, 0);
            for (n, (named, other_ply)) in ours.iter().enumerate().map(|(i, x)| (i + 1, x)) {
                // pgn-extract names no game with a `Variant` tag, even "normal" (standard
                // chess, which tabia names).
                if variants.contains(&n) {
                    continue;
                }
                games += 1;
                let code = named.as_ref().map(|(e, _)| e.clone());
                if code == theirs.get(&n).cloned() {
                    same += 1;
                    continue;
                }
                tempo += usize::from(*other_ply);
                if totals[i].0 - totals[i].1 + games - same <= 5 {
                    println!(
                        "  {stem}: game {n}: {label}: tabia {code:?}, pgn-extract {:?}",
                        theirs.get(&n)
                    );
                }
            }
            let _ = write!(
                line,
                "; {label}: {same} of {games} ({}; of the {} others, {tempo} named by tabia \
                 at another ply than its line's)",
                percent(same, games),
                games - same
            );
            totals[i].0 += games;
            totals[i].1 += same;
        }
        println!("pgn-extract -e, {stem}: the same ECO code{line}");
    }
    println!(
        "pgn-extract -e, all ({variant_tagged} games with a Variant tag left out: pgn-extract \
         names none)"
    );
    for ((label, _, _), (games, same)) in configs.iter().zip(totals) {
        println!("  {label}: {same} of {games} ({})", percent(same, games));
        if same * 1000 < games * 999 {
            failures.push(format!(
                "{label} agrees with pgn-extract on {}",
                percent(same, games)
            ));
        }
    }
    Ok(())
}

/// Writes `file`'s games (well-formed, through `tabia pgn`) without their opening tags, each
/// numbered by a `Seq` tag that names it in pgn-extract's output; the numbers of the games
/// that have a `Variant` tag.
fn numbered_copy(
    tabia: &Path,
    file: &Path,
    work: &Path,
) -> anyhow::Result<(PathBuf, HashSet<usize>)> {
    let out = Command::new(tabia)
        .args(["pgn", "-q"])
        .arg(file)
        .output()
        .with_context(|| format!("cannot run {}", tabia.display()))?;
    let mut text = String::new();
    let mut seq = 0;
    let mut variants = HashSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if line.starts_with("[Event ") {
            seq += 1;
            let _ = writeln!(text, "[Seq \"{seq}\"]");
        }
        if line.starts_with("[Variant ") {
            variants.insert(seq);
        }
        let opening = ["[ECO ", "[Opening ", "[Variation ", "[SubVariation "];
        if !opening.iter().any(|t| line.starts_with(t)) {
            text.push_str(line);
            text.push('\n');
        }
    }
    let stem = file
        .file_name()
        .map(|n| n.to_string_lossy().replace(".zst", ""))
        .unwrap_or_default();
    let plain = work.join(stem);
    fs::write(&plain, &text)?;
    Ok((plain, variants))
}

/// The ECO code pgn-extract gives each game of `pgn` (by its `Seq` tag), with `table`.
fn extract_codes(table: &Path, pgn: &Path) -> anyhow::Result<HashMap<usize, String>> {
    let theirs = Command::new(pgn_extract())
        .arg(format!("-e{}", table.display()))
        .args(["-s", "--nochecks"])
        .arg(pgn)
        .output()
        .context("cannot run pgn-extract (apt-get install pgn-extract)")?;
    // A game's tags, its `Seq` among them, in any order; a game starts at its `Event`.
    let mut codes = HashMap::new();
    let (mut seq, mut eco) = (0, None);
    for line in String::from_utf8_lossy(&theirs.stdout)
        .lines()
        .chain(["[Event \"end\"]"])
    {
        if line.starts_with("[Event ") {
            if let Some(code) = eco.take() {
                codes.insert(seq, code);
            }
            seq = 0;
        } else if let Some(n) = tag_value(line, "Seq") {
            seq = n.parse().unwrap_or(0);
        } else if let Some(code) = tag_value(line, "ECO") {
            eco = Some(code.to_owned());
        }
    }
    Ok(codes)
}

/// Scid's embedded table (its committed text) as pgn-extract reads a table: a game per
/// opening with its `ECO` and `Opening` tags.
fn scid_as_pgn() -> anyhow::Result<String> {
    let path = project_root().join("crates/eco/data/scid.tsv");
    let text =
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if let [eco, _, name, moves] = f[..] {
            let name = name.replace('"', "'");
            let _ = write!(
                out,
                "[ECO \"{eco}\"]\n[Opening \"{name}\"]\n\n{moves} *\n\n"
            );
        }
    }
    Ok(out)
}

/// pgn-extract: where Debian installs it, else on the `PATH`.
fn pgn_extract() -> PathBuf {
    let debian = PathBuf::from("/usr/games/pgn-extract");
    if debian.is_file() {
        debian
    } else {
        PathBuf::from("pgn-extract")
    }
}

/// The value of `[NAME "value"]`.
fn tag_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.strip_prefix('[')?
        .strip_prefix(name)?
        .strip_prefix(" \"")?
        .strip_suffix("\"]")
}
