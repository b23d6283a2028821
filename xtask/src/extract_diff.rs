//! The `extract-diff` task: differential checks of `tabia dedup`, `tabia pgn --notation` and
//! `tabia split` against pgn-extract, on the benchmark corpus and on the corpus followed by
//! a shuffled copy of itself (every game of the copy a duplicate).
//!
//! `cargo xtask extract-diff [--tabia PATH] [--corpus DIR] [--pgn-extract PATH] [--keep DIR]
//! [--show N]`
//!
//! 1. Takes the `tabia` binary given, or builds it (release). Writes `all.pgn`: every file of
//!    the corpus (default `../shared/corpus`, compressed or not) through `tabia pgn -q`, so
//!    both tools read the same well-formed games, each game with a `Seq` tag (its number),
//!    which names it in both tools' outputs; `twice.pgn`: `all.pgn` then its games shuffled
//!    (fixed seed, each copy keeping its `Seq`); and `stripped.pgn`: `all.pgn` without
//!    comments (see below why).
//! 2. On each: `pgn-extract -D` against `tabia dedup --by position`: the kept games, by
//!    `Seq`, in order; then `A ++ shuffle(A)` keeps what `A` keeps (both tools).
//! 3. `pgn-extract -Wuci` against `tabia pgn --notation uci`, and `-Wlalg` against
//!    `--notation lan` (each LAN move replayed to UCI), game by game (by `Seq`), move by move.
//!    pgn-extract writes promotions in upper case (`a7a8Q`), lalg with check marks: both are
//!    normalised.
//! 4. `pgn-extract -#500` against `tabia split --games 500`: the same files, each with the
//!    same games.
//!
//! Each difference is put down to a cause, counted, and the first `--show` games of each
//! cause are listed. The causes found on the corpus:
//! - *`;` comment*: a comment that holds a `}` can only be written as a `;` comment (to the
//!   end of the line, PGN §5), which tabia does; pgn-extract (v19) does not read `;`
//!   comments: it drops the moves before, reads the rest as a game of its own, and with `-D`
//!   every such game (now without moves) is a duplicate of the first game without moves.
//!   `stripped.pgn` (the same games without comments) shows the checks without this cause.
//! - *transposition*: `--by position` compares the final position and the ply count (as the
//!   issue defines it); pgn-extract also adds up a hash of every position on the way, so
//!   the same final position reached by another move order is not a duplicate for it.
//!
//! Fails when a difference has no known cause.

use std::{
    collections::{BTreeMap, HashMap},
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::{Context, bail};
use tabia_position::{Position, shakmaty::CastlingMode};

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut corpus = root.join("../shared/corpus");
    let mut extract = PathBuf::from("/usr/games/pgn-extract");
    let mut keep = None;
    let mut tabia = None;
    let mut show = 10;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--corpus" => corpus = it.next().context("--corpus DIR")?.into(),
            "--pgn-extract" => extract = it.next().context("--pgn-extract PATH")?.into(),
            "--keep" => keep = Some(PathBuf::from(it.next().context("--keep DIR")?)),
            "--tabia" => tabia = Some(PathBuf::from(it.next().context("--tabia PATH")?)),
            "--show" => show = it.next().context("--show N")?.parse()?,
            other => bail!("unknown argument `{other}`"),
        }
    }
    let tabia = crate::tabia_binary(tabia)?;
    let tmp = std::env::temp_dir().join(format!("tabia-extract-diff-{}", std::process::id()));
    let dir = keep.unwrap_or(tmp);
    fs::create_dir_all(&dir)?;
    let mut files: Vec<PathBuf> = fs::read_dir(&corpus)
        .with_context(|| format!("cannot read {}", corpus.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    let mut text = String::new();
    for file in &files {
        let out = Command::new(&tabia)
            .args(["pgn", "-q"])
            .arg(file)
            .stderr(Stdio::null())
            .output()?;
        text.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    let all = dir.join("all.pgn");
    let numbered = with_seq(&text);
    fs::write(&all, &numbered)?;
    let twice = dir.join("twice.pgn");
    fs::write(&twice, twice_shuffled(&numbered))?;
    let stripped = dir.join("stripped.pgn");
    let out = Command::new(&tabia)
        .args(["pgn", "-q", "--strip", "comments"])
        .arg(&all)
        .output()?;
    fs::write(&stripped, &out.stdout)?;
    let games = Games::read(&numbered);
    println!(
        "corpus: {} files, {} games; work in {}",
        files.len(),
        games.label.len(),
        dir.display()
    );
    let tools = Tools {
        tabia: &tabia,
        extract: &extract,
        dir: &dir,
        show,
    };
    let mut unexplained = 0;
    let mut kept_all = None;
    for input in [&all, &twice, &stripped] {
        let label = input.file_name().map(|n| n.to_string_lossy().into_owned());
        let label = label.unwrap_or_default();
        println!("\n== {label}");
        let kept = tools.dedup(input, &games, &mut unexplained)?;
        if input == &all {
            kept_all = Some(kept);
        } else if input == &twice {
            let (a, b) = kept_all.as_ref().context("all.pgn first")?;
            for (tool, ours, theirs) in [("tabia", a, &kept.0), ("pgn-extract", b, &kept.1)] {
                let same = ours == theirs;
                println!(
                    "  {tool}: dedup of A ++ shuffle(A) keeps what dedup of A keeps: {}",
                    if same { "yes" } else { "NO" }
                );
                if !same {
                    unexplained += 1;
                }
            }
        }
        tools.notation(input, "uci", &games, &mut unexplained)?;
        tools.notation(input, "lan", &games, &mut unexplained)?;
        tools.split(input, &games, &mut unexplained)?;
    }
    if unexplained > 0 {
        bail!("{unexplained} differences without a known cause");
    }
    println!("\nevery difference has a known cause");
    Ok(())
}

/// What the checks know of each game of `all.pgn`, by `Seq` (1-based).
struct Games {
    /// `White - Black, Event, Date` of each game.
    label: Vec<String>,
    /// Whether each game holds a `;` comment.
    semicolons: Vec<bool>,
    /// Whether each game is a Chess960 game.
    chess960: Vec<bool>,
}

impl Games {
    fn read(text: &str) -> Games {
        let mut label = Vec::new();
        let mut semicolons = Vec::new();
        let mut chess960 = Vec::new();
        for game in games(text) {
            label.push(format!(
                "{} - {}, {}, {}",
                tag(game, "White").unwrap_or("?"),
                tag(game, "Black").unwrap_or("?"),
                tag(game, "Event").unwrap_or("?"),
                tag(game, "Date").unwrap_or("?")
            ));
            semicolons.push(has_semicolon_comment(game));
            let variant = tag(game, "Variant").unwrap_or("").to_ascii_lowercase();
            chess960.push(
                ["960", "fischer", "frc"]
                    .iter()
                    .any(|v| variant.contains(v)),
            );
        }
        Games {
            label,
            semicolons,
            chess960,
        }
    }

    fn semicolon(&self, seq: u64) -> bool {
        (seq as usize)
            .checked_sub(1)
            .and_then(|i| self.semicolons.get(i))
            .is_some_and(|&b| b)
    }

    fn chess960(&self, seq: u64) -> bool {
        (seq as usize)
            .checked_sub(1)
            .and_then(|i| self.chess960.get(i))
            .is_some_and(|&b| b)
    }

    fn label(&self, seq: u64) -> &str {
        (seq as usize)
            .checked_sub(1)
            .and_then(|i| self.label.get(i))
            .map_or("?", String::as_str)
    }
}

/// Whether the movetext of `game` holds a `;` comment (outside braces and tags).
fn has_semicolon_comment(game: &str) -> bool {
    let mut depth = 0;
    for line in game.lines().filter(|l| !l.starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = 0,
                ';' if depth == 0 => return true,
                _ => {}
            }
        }
    }
    false
}

/// The value of tag `name` in a game's text.
fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("[{name} \"");
    game.lines()
        .take_while(|l| l.starts_with('['))
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// The games of an export-format text: each from its first tag to the next game's first tag.
fn games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut in_tags = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let is_tag = line.starts_with('[');
        if is_tag && !in_tags {
            starts.push(at);
        }
        in_tags = is_tag;
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// Every game of `text` with a `Seq` tag first: its number, from 1.
fn with_seq(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    for (i, game) in games(text).into_iter().enumerate() {
        let _ = write!(out, "[Seq \"{}\"]\n{}", i + 1, game.trim_end_matches('\n'));
        out.push_str("\n\n");
    }
    out
}

/// `text` followed by its games in a shuffled order (a fixed linear congruential sequence).
fn twice_shuffled(text: &str) -> String {
    let mut list: Vec<&str> = games(text);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..list.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = (state >> 33) as usize % (i + 1);
        list.swap(i, j);
    }
    let mut out = text.to_owned();
    for game in list {
        out.push_str(game);
    }
    out
}

/// The `Seq` tags of a text, in order.
fn seqs(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("[Seq \"")?.strip_suffix("\"]")?.parse().ok())
        .collect()
}

fn run_out(cmd: &mut Command) -> anyhow::Result<String> {
    let out = cmd.stderr(Stdio::null()).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Differences put down to causes: per cause, the games (`Seq`) and what to say of each.
#[derive(Default)]
struct Causes(BTreeMap<&'static str, Vec<(u64, String)>>);

/// The cause of a difference nothing explains.
const UNKNOWN: &str = "UNEXPLAINED";

impl Causes {
    fn add(&mut self, cause: &'static str, seq: u64, note: String) {
        self.0.entry(cause).or_default().push((seq, note));
    }

    fn print(&self, games: &Games, show: usize, unexplained: &mut usize) {
        for (cause, list) in &self.0 {
            println!("    {}: {cause}", list.len());
            if *cause == UNKNOWN {
                *unexplained += list.len();
            }
            for (seq, note) in list.iter().take(show) {
                println!("      Seq {seq} ({}){note}", games.label(*seq));
            }
            if list.len() > show {
                println!("      … and {} more", list.len() - show);
            }
        }
    }
}

const SEMICOLON: &str = "`;` comment: pgn-extract does not read it, drops the moves before it";
const TRANSPOSITION: &str = "transposition: same final position and ply count as an earlier game \
                             by another move order (a duplicate for tabia, not for pgn-extract, \
                             which also hashes the positions on the way)";

const CASTLING_960: &str = "Chess960 castling: tabia's UCI is the king taking its rook (`e1h1`, \
                            as UCI_Chess960 engines and the issue want), pgn-extract's the \
                            king's square (`e1g1`); every other move the same";

/// Whether two UCI move lists of a Chess960 game differ only in castling moves: the same
/// from-square, a destination on the same rank (the king's square against its rook's).
fn only_castling_differs(a: &[String], b: &[String]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x == y
                || (x.len() == 4
                    && y.len() == 4
                    && x[..2] == y[..2]
                    && x[3..] == y[3..]
                    && x[1..2] == x[3..])
        })
}

struct Tools<'a> {
    tabia: &'a Path,
    extract: &'a Path,
    dir: &'a Path,
    show: usize,
}

impl Tools<'_> {
    /// tabia's UCI mainline of every game of `input`, by `Seq`.
    fn tabia_uci(&self, input: &Path) -> anyhow::Result<HashMap<u64, Vec<String>>> {
        Ok(self
            .tabia_lines(input, "uci")?
            .into_iter()
            .map(|(seq, line)| (seq, line.split_whitespace().map(str::to_owned).collect()))
            .collect())
    }

    /// tabia's games of `input`, one line each in `notation` without annotations: `Seq` and
    /// the moves.
    fn tabia_lines(&self, input: &Path, notation: &str) -> anyhow::Result<Vec<(u64, String)>> {
        let out = run_out(
            Command::new(self.tabia)
                .args(["pgn", "-q", "--notation", notation])
                .args([
                    "--strip",
                    "comments,nags,variations",
                    "--no-move-numbers",
                    "--no-results",
                    "--line-length",
                    "0",
                ])
                .arg(input),
        )?;
        Ok(out
            .lines()
            .map(|line| {
                let (tags, moves) = line.rsplit_once(']').unwrap_or(("", line));
                let seq = tags
                    .split("[Seq \"")
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                (seq, format!("{tags}]\t{}", moves.trim()))
            })
            .collect())
    }

    fn dedup(
        &self,
        input: &Path,
        games: &Games,
        unexplained: &mut usize,
    ) -> anyhow::Result<(Vec<u64>, Vec<u64>)> {
        let ours = self.dir.join("dedup-tabia.pgn");
        let dups = self.dir.join("dedup-tabia-duplicates.pgn");
        let theirs = self.dir.join("dedup-extract.pgn");
        Command::new(self.tabia)
            .args(["dedup", "-q", "--by", "position", "-o"])
            .arg(&ours)
            .arg("--duplicates")
            .arg(&dups)
            .arg(input)
            .stderr(Stdio::null())
            .status()?;
        Command::new(self.extract)
            .args(["-s", "-D", "-o"])
            .arg(&theirs)
            .arg(input)
            .stderr(Stdio::null())
            .status()?;
        let a = seqs(&fs::read_to_string(&ours)?);
        let b = seqs(&fs::read_to_string(&theirs)?);
        let (sa, sb): (
            std::collections::HashSet<u64>,
            std::collections::HashSet<u64>,
        ) = (a.iter().copied().collect(), b.iter().copied().collect());
        let common_a: Vec<u64> = a.iter().copied().filter(|s| sb.contains(s)).collect();
        let common_b: Vec<u64> = b.iter().copied().filter(|s| sa.contains(s)).collect();
        println!(
            "  dedup --by position vs -D: tabia keeps {}, pgn-extract {}; both {} (same order: \
             {}), only tabia {}, only pgn-extract {}",
            a.len(),
            b.len(),
            common_a.len(),
            if common_a == common_b { "yes" } else { "NO" },
            a.len() - common_a.len(),
            b.len() - common_b.len()
        );
        if common_a != common_b {
            *unexplained += 1;
        }
        // tabia's first copy of each duplicate, from its DuplicateOf tag (INPUT#N).
        let order = seqs(&fs::read_to_string(input)?);
        let dup_text = fs::read_to_string(&dups)?;
        let mut first_of: HashMap<u64, u64> = HashMap::new();
        for game in self::games(&dup_text) {
            let seq = tag(game, "Seq").and_then(|s| s.parse().ok());
            let of = tag(game, "DuplicateOf")
                .and_then(|v| v.rsplit_once('#'))
                .and_then(|(_, n)| n.parse::<usize>().ok())
                .and_then(|n| order.get(n - 1).copied());
            if let (Some(seq), Some(of)) = (seq, of) {
                first_of.entry(seq).or_insert(of);
            }
        }
        let uci = self.tabia_uci(input)?;
        let mut causes = Causes::default();
        for &seq in a.iter().filter(|s| !sb.contains(s)) {
            if games.semicolon(seq) {
                causes.add(
                    SEMICOLON,
                    seq,
                    ": kept by tabia; for pgn-extract a game without moves".into(),
                );
            } else {
                causes.add(UNKNOWN, seq, ": kept by tabia only".into());
            }
        }
        for &seq in b.iter().filter(|s| !sa.contains(s)) {
            match first_of.get(&seq) {
                Some(&of) if uci.get(&of) != uci.get(&seq) => causes.add(
                    TRANSPOSITION,
                    seq,
                    format!(": kept by pgn-extract; tabia: a duplicate of Seq {of}"),
                ),
                _ => causes.add(UNKNOWN, seq, ": kept by pgn-extract only".into()),
            }
        }
        causes.print(games, self.show, unexplained);
        Ok((a, b))
    }

    /// pgn-extract's games of `input` written with `-W<format>`: `Seq` (0 for a game
    /// pgn-extract made up from what it could not read) and the normalised move tokens.
    fn extract_games(&self, input: &Path, format: &str) -> anyhow::Result<Vec<(u64, Vec<String>)>> {
        let out = run_out(
            Command::new(self.extract)
                .args(["-s", "-C", "-N", "-V", "--noresults", "-w", "100000"])
                .arg(format!("-W{format}"))
                .arg(input),
        )?;
        let mut list = Vec::new();
        for game in self::games(&out) {
            let seq = tag(game, "Seq").and_then(|s| s.parse().ok()).unwrap_or(0);
            let moves = game
                .lines()
                .filter(|l| !l.starts_with('['))
                .flat_map(str::split_whitespace)
                .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
                .map(|t| t.trim_end_matches(['+', '#']).to_ascii_lowercase())
                .collect();
            list.push((seq, moves));
        }
        Ok(list)
    }

    fn notation(
        &self,
        input: &Path,
        notation: &str,
        games: &Games,
        unexplained: &mut usize,
    ) -> anyhow::Result<()> {
        let ours: Vec<(u64, Vec<String>)> = match notation {
            "uci" => self
                .tabia_lines(input, "uci")?
                .into_iter()
                .map(|(seq, line)| {
                    let moves = line.rsplit_once('\t').map_or("", |(_, m)| m);
                    (seq, moves.split_whitespace().map(str::to_owned).collect())
                })
                .collect(),
            _ => self
                .tabia_lines(input, "lan")?
                .into_iter()
                .map(|(seq, line)| lan_to_uci(&line).map(|moves| (seq, moves)))
                .collect::<anyhow::Result<_>>()?,
        };
        let theirs = self.extract_games(input, if notation == "uci" { "uci" } else { "lalg" })?;
        let made_up = theirs.iter().filter(|(seq, _)| *seq == 0).count();
        let theirs: Vec<&(u64, Vec<String>)> = theirs.iter().filter(|(s, _)| *s != 0).collect();
        let mut causes = Causes::default();
        let (mut same, mut moves) = (0, 0);
        if ours.len() != theirs.len() {
            causes.add(
                UNKNOWN,
                0,
                format!(": {} games against {}", ours.len(), theirs.len()),
            );
        }
        for ((seq, a), (seq_b, b)) in ours.iter().zip(theirs) {
            if seq != seq_b {
                causes.add(UNKNOWN, *seq, format!(": out of step with Seq {seq_b}"));
                break;
            }
            if a == b {
                same += 1;
                moves += a.len();
                continue;
            }
            let at = a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            let note = format!(
                ": move {}: tabia {:?}, pgn-extract {:?} ({} against {} moves)",
                at + 1,
                a.get(at),
                b.get(at),
                a.len(),
                b.len()
            );
            if games.semicolon(*seq) && b.len() < a.len() {
                causes.add(SEMICOLON, *seq, note);
            } else if games.chess960(*seq) && only_castling_differs(a, b) {
                causes.add(CASTLING_960, *seq, note);
            } else {
                causes.add(UNKNOWN, *seq, note);
            }
        }
        println!(
            "  --notation {notation} vs -W{}: {} games, {same} identical ({moves} moves); \
             pgn-extract made up {made_up} more games from what it could not read",
            if notation == "uci" { "uci" } else { "lalg" },
            ours.len()
        );
        causes.print(games, self.show, unexplained);
        Ok(())
    }

    fn split(&self, input: &Path, games: &Games, unexplained: &mut usize) -> anyhow::Result<()> {
        let ours = self.dir.join("split-tabia");
        let theirs = self.dir.join("split-extract");
        let _ = fs::remove_dir_all(&ours);
        let _ = fs::remove_dir_all(&theirs);
        fs::create_dir_all(&theirs)?;
        Command::new(self.tabia)
            .args(["split", "-q", "--games", "500", "-o"])
            .arg(&ours)
            .arg(input)
            .stderr(Stdio::null())
            .status()?;
        Command::new(self.extract)
            .args(["-s", "-#500"])
            .arg(fs::canonicalize(input)?)
            .current_dir(&theirs)
            .stderr(Stdio::null())
            .status()?;
        let (mut files, mut identical, mut shifted) = (0, 0, 0);
        let mut causes = Causes::default();
        let mut first_shift = None;
        for n in 1.. {
            let a = ours.join(format!("part-{n:05}.pgn"));
            let b = theirs.join(format!("{n}.pgn"));
            if !a.exists() && !b.exists() {
                break;
            }
            files += 1;
            let read = |p: &Path| fs::read_to_string(p).unwrap_or_default();
            let (text_a, text_b) = (read(&a), read(&b));
            let (sa, sb) = (seqs(&text_a), seqs(&text_b));
            if sa == sb && self::games(&text_b).len() == sb.len() {
                identical += 1;
                continue;
            }
            // pgn-extract counts the games it made up of what it could not read: its files
            // hold fewer of ours from the first of them on.
            let all_b = self::games(&text_b).len();
            if all_b > sb.len() || first_shift.is_some() {
                shifted += 1;
                if first_shift.is_none() {
                    first_shift = Some(n);
                    let seq = sb
                        .iter()
                        .copied()
                        .find(|&s| games.semicolon(s))
                        .unwrap_or(0);
                    causes.add(
                        SEMICOLON,
                        seq,
                        format!(
                            ": file {n}: pgn-extract's holds {all_b} games, {} of them ours; \
                             the files after it are shifted",
                            sb.len()
                        ),
                    );
                }
            } else {
                causes.add(UNKNOWN, 0, format!(": file {n} differs"));
            }
        }
        // Whatever the files, both tools write every game once, in input order.
        let all_a: Vec<u64> = (1..=files)
            .flat_map(|n| {
                seqs(&fs::read_to_string(ours.join(format!("part-{n:05}.pgn"))).unwrap_or_default())
            })
            .collect();
        let all_b: Vec<u64> = (1..=files)
            .flat_map(|n| {
                seqs(&fs::read_to_string(theirs.join(format!("{n}.pgn"))).unwrap_or_default())
            })
            .collect();
        let input_order = seqs(&fs::read_to_string(input)?);
        println!(
            "  split --games 500 vs -#500: {files} files, {identical} identical, {shifted} \
             shifted; every game once in input order: tabia {}, pgn-extract {}",
            if all_a == input_order { "yes" } else { "NO" },
            if all_b == input_order { "yes" } else { "NO" },
        );
        if all_a != input_order {
            causes.add(UNKNOWN, 0, ": tabia's files do not hold the input".into());
        }
        causes.print(games, self.show, unexplained);
        Ok(())
    }
}

/// The UCI moves of a line of `tabia_lines` in LAN (tags, a tab, the moves), each read back
/// from its position.
fn lan_to_uci(line: &str) -> anyhow::Result<Vec<String>> {
    let (tags, moves) = line.rsplit_once('\t').unwrap_or(("", line));
    let fen = tags
        .split("[FEN \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next());
    let mut pos = match fen {
        Some(fen) => Position::from_arg(fen).map_err(|e| anyhow::anyhow!("{e}"))?,
        None => Position::new(),
    };
    let mut game = Vec::new();
    for token in moves.split_whitespace() {
        let m = pos
            .parse_move(token)
            .map_err(|e| anyhow::anyhow!("tabia's LAN `{token}` does not read back: {e}"))?;
        let mode = pos.castling_mode();
        game.push(
            m.to_uci(if mode == CastlingMode::Chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            })
            .to_string(),
        );
        pos.play_unchecked(m);
    }
    Ok(game)
}
