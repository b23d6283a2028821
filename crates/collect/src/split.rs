//! Splitting a collection into files: the key of each game ([`SplitBy`]), keys made safe as
//! file names ([`file_stem`]), and the files themselves with a bounded number open at once
//! ([`Files`]).

use std::{
    collections::{HashMap, HashSet, VecDeque},
    fmt,
    fs::{self, File, OpenOptions},
    hash::Hasher as _,
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    str::FromStr,
};

use siphasher::sip::SipHasher13;
use tabia_eco::Table;
use tabia_notation::{UnknownValue, pgn::Game};

/// How games are grouped into files.
///
/// ```
/// use tabia_collect::SplitBy;
///
/// assert_eq!("eco".parse(), Ok(SplitBy::Eco));
/// assert_eq!("tag:Annotator".parse(), Ok(SplitBy::Tag("Annotator".into())));
/// assert_eq!(SplitBy::Month.to_string(), "month");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SplitBy {
    /// The `ECO` tag (or the ECO code by position, see [`SplitBy::key`]).
    Eco,
    /// The year of the `Date` tag (`1959`).
    Year,
    /// The year and month of the `Date` tag (`1959-04`).
    Month,
    /// The `Event` tag.
    Event,
    /// The `White` tag.
    White,
    /// The `Black` tag.
    Black,
    /// Any tag.
    Tag(String),
}

impl fmt::Display for SplitBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitBy::Eco => f.write_str("eco"),
            SplitBy::Year => f.write_str("year"),
            SplitBy::Month => f.write_str("month"),
            SplitBy::Event => f.write_str("event"),
            SplitBy::White => f.write_str("white"),
            SplitBy::Black => f.write_str("black"),
            SplitBy::Tag(name) => write!(f, "tag:{name}"),
        }
    }
}

impl FromStr for SplitBy {
    type Err = UnknownValue;

    /// `eco`, `year`, `month`, `event`, `white`, `black` or `tag:NAME`.
    fn from_str(s: &str) -> Result<SplitBy, UnknownValue> {
        Ok(match s {
            "eco" => SplitBy::Eco,
            "year" => SplitBy::Year,
            "month" => SplitBy::Month,
            "event" => SplitBy::Event,
            "white" => SplitBy::White,
            "black" => SplitBy::Black,
            _ => match s.strip_prefix("tag:") {
                Some(name) if !name.is_empty() => SplitBy::Tag(name.to_owned()),
                _ => {
                    return Err(UnknownValue::new(
                        "split key",
                        s,
                        "eco, year, month, event, white, black or tag:NAME",
                    ));
                }
            },
        })
    }
}

impl SplitBy {
    /// The key of `game`, or `None` when it has none (a missing or unknown value: no tag,
    /// an empty value, `?`, or a date without a year or month). With `table`, `eco` is the
    /// ECO code of the game's opening by position instead of its tag.
    ///
    /// ```
    /// use tabia_collect::{SplitBy, eco::Table};
    /// use tabia_notation::pgn::Game;
    ///
    /// let game: Game = "[Date \"1959.04.??\"]\n[ECO \"A00\"]\n\n1. e4 c5 *".parse()?;
    /// assert_eq!(SplitBy::Year.key(&game, None).as_deref(), Some("1959"));
    /// assert_eq!(SplitBy::Month.key(&game, None).as_deref(), Some("1959-04"));
    /// assert_eq!(SplitBy::White.key(&game, None), None);
    /// assert_eq!(SplitBy::Eco.key(&game, None).as_deref(), Some("A00"));
    /// assert_eq!(SplitBy::Eco.key(&game, Some(Table::embedded())).as_deref(), Some("B20"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn key(&self, game: &Game, table: Option<&Table>) -> Option<String> {
        let known = |v: Option<&str>| {
            v.map(str::trim)
                .filter(|v| !v.is_empty() && !v.chars().all(|c| c == '?'))
                .map(str::to_owned)
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match self {
            SplitBy::Eco => match table {
                Some(table) => table
                    .classify_game(game)
                    .ok()?
                    .matched()
                    .map(|m| m.opening.eco().to_owned()),
                None => known(game.tag("ECO")),
            },
            SplitBy::Year | SplitBy::Month => {
                let date = game.tag("Date")?;
                let mut parts = date.trim().split('.');
                let year = parts.next().filter(|y| y.len() == 4 && digits(y))?;
                if *self == SplitBy::Year {
                    return Some(year.to_owned());
                }
                let month = parts.next().filter(|m| m.len() == 2 && digits(m))?;
                Some(format!("{year}-{month}"))
            }
            SplitBy::Event => known(game.tag("Event")),
            SplitBy::White => known(game.tag("White")),
            SplitBy::Black => known(game.tag("Black")),
            SplitBy::Tag(name) => known(game.tag(name)),
        }
    }
}

/// The stem of the file of games without a key.
pub const UNKNOWN_STEM: &str = "_unknown";

/// The longest stem made from a key, in bytes (a longer one is cut and given a hash).
const MAX_STEM: usize = 160;

/// A key made safe as a file name (without its extension); the mapping is injective, so two
/// keys never share a file, and no key can name a path:
///
/// - ASCII letters, digits and `-` are kept; a space becomes `+`;
/// - every other byte of the key's UTF-8 (`/`, `\`, `.`, `_`, `+`, control bytes, non-ASCII)
///   becomes `_` and two upper-case hex digits (`_2F` for `/`);
/// - a stem longer than 160 bytes is cut at 140 and ends with `_~` and 16 hex digits of a
///   hash of the whole key;
/// - `errors` (the file of games in error) becomes `_65rrors`.
///
/// So `Carlsen, Magnus` is `Carlsen_2C+Magnus`, `../etc` is `_2E_2E_2Fetc`, and no stem
/// produced from a key starts with `_u`, which leaves [`UNKNOWN_STEM`] for games without one.
///
/// ```
/// use tabia_collect::file_stem;
///
/// assert_eq!(file_stem("B90"), "B90");
/// assert_eq!(file_stem("Carlsen, Magnus"), "Carlsen_2C+Magnus");
/// assert_eq!(file_stem("../../etc/passwd"), "_2E_2E_2F_2E_2E_2Fetc_2Fpasswd");
/// assert_eq!(file_stem("Müller"), "M_C3_BCller");
/// assert_eq!(file_stem(""), "_");
/// assert_ne!(file_stem("a b"), file_stem("a+b"));
/// ```
pub fn file_stem(key: &str) -> String {
    if key == "errors" {
        return "_65rrors".to_owned();
    }
    if key.is_empty() {
        return "_".to_owned();
    }
    let mut stem = String::with_capacity(key.len());
    for &b in key.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' => stem.push(char::from(b)),
            b' ' => stem.push('+'),
            _ => {
                stem.push('_');
                stem.push_str(&format!("{b:02X}"));
            }
        }
    }
    if stem.len() > MAX_STEM {
        let mut cut = 140;
        while !stem.is_char_boundary(cut) {
            cut -= 1;
        }
        // Do not leave half an escape before the hash.
        if let Some(i) = stem[cut.saturating_sub(2)..cut].find('_') {
            cut = cut - 2 + i;
        }
        let mut hasher = SipHasher13::new_with_keys(0x7370_6c69_7420_6b65, 0x7973_2020_2020_2020);
        hasher.write(key.as_bytes());
        stem.truncate(cut);
        stem.push_str(&format!("_~{:016x}", hasher.finish()));
    }
    stem
}

/// How split files are compressed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FileCompression {
    /// Plain `.pgn`.
    #[default]
    None,
    /// `.pgn.zst` (zstd level 3).
    Zstd,
    /// `.pgn.gz` (gzip, default level).
    Gzip,
}

impl FileCompression {
    /// The file name extension of PGN files, with its dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileCompression::None => ".pgn",
            FileCompression::Zstd => ".pgn.zst",
            FileCompression::Gzip => ".pgn.gz",
        }
    }

    /// What compression adds after the extension of the content (`.zst`, `.gz`).
    fn suffix(self) -> Option<&'static str> {
        match self {
            FileCompression::None => None,
            FileCompression::Zstd => Some(".zst"),
            FileCompression::Gzip => Some(".gz"),
        }
    }
}

/// What to do with files that exist before the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to start when the folder holds PGN files ([`Files::new`] fails).
    #[default]
    Refuse,
    /// Add to them.
    Append,
    /// Overwrite each one when this run first writes to it (others are left alone).
    Overwrite,
}

/// An open file, compressed or not.
enum Sink {
    Plain(BufWriter<File>),
    Zstd(zstd::Encoder<'static, BufWriter<File>>),
    Gzip(flate2::write::GzEncoder<BufWriter<File>>),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Plain(w) => w,
            Sink::Zstd(w) => w,
            Sink::Gzip(w) => w,
        }
    }

    /// Ends the compressed frame or member and flushes.
    fn close(self) -> io::Result<()> {
        match self {
            Sink::Plain(mut w) => w.flush(),
            Sink::Zstd(w) => w.finish()?.flush(),
            Sink::Gzip(w) => w.finish()?.flush(),
        }
    }
}

/// The files of a split, by stem, at most `capacity` of them open at once (the least
/// recently written is closed first and reopened to append when needed: a compressed file
/// then holds several frames or members, which every reader takes as one stream).
///
/// ```
/// use tabia_collect::{FileCompression, Existing, Files};
///
/// let dir = std::env::temp_dir().join(format!("tabia-files-doc-{}", std::process::id()));
/// let mut files = Files::new(&dir, FileCompression::None, Existing::Refuse, 1)?;
/// files.write("a", b"1. e4 *\n\n")?;
/// files.write("b", b"1. d4 *\n\n")?;
/// files.write("a", b"1. c4 *\n\n")?;
/// files.finish()?;
/// assert_eq!(std::fs::read_to_string(dir.join("a.pgn"))?, "1. e4 *\n\n1. c4 *\n\n");
/// assert!(Files::new(&dir, FileCompression::None, Existing::Refuse, 1).is_err());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct Files {
    dir: PathBuf,
    /// The extension of the content, with its dot: `.pgn` or `.ndjson`.
    content: &'static str,
    compression: FileCompression,
    existing: Existing,
    capacity: usize,
    open: HashMap<String, Sink>,
    /// Open stems, least recently used first.
    order: VecDeque<String>,
    /// Stems written in this run (reopened to append).
    touched: HashSet<String>,
    /// Lower-cased stems, for file systems that ignore case: the first stem of each.
    folded: HashMap<String, String>,
}

impl fmt::Debug for Files {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Files")
            .field("dir", &self.dir)
            .field("open", &self.order)
            .field("files", &self.touched.len())
            .finish()
    }
}

impl Files {
    /// Files in `dir` (created if needed).
    ///
    /// # Errors
    ///
    /// `dir` cannot be created, or (with [`Existing::Refuse`]) it already holds PGN files.
    pub fn new(
        dir: &Path,
        compression: FileCompression,
        existing: Existing,
        capacity: usize,
    ) -> io::Result<Files> {
        Files::with_content(dir, ".pgn", compression, existing, capacity)
    }

    /// Files in `dir` holding NDJSON (`STEM.ndjson`, `.ndjson.zst`, `.ndjson.gz`): one JSON
    /// object per line, as `--json` writes games.
    ///
    /// ```
    /// use tabia_collect::{FileCompression, Existing, Files};
    ///
    /// let dir = std::env::temp_dir().join(format!("tabia-files-json-{}", std::process::id()));
    /// let mut files = Files::ndjson(&dir, FileCompression::None, Existing::Refuse, 4)?;
    /// files.write("a", b"{}\n")?;
    /// files.finish()?;
    /// assert_eq!(std::fs::read_to_string(dir.join("a.ndjson"))?, "{}\n");
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<_, std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Files::new`], for NDJSON files.
    pub fn ndjson(
        dir: &Path,
        compression: FileCompression,
        existing: Existing,
        capacity: usize,
    ) -> io::Result<Files> {
        Files::with_content(dir, ".ndjson", compression, existing, capacity)
    }

    fn with_content(
        dir: &Path,
        content: &'static str,
        compression: FileCompression,
        existing: Existing,
        capacity: usize,
    ) -> io::Result<Files> {
        if dir.exists() && !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{} is a file: split writes a folder of files (-o names the folder)",
                    dir.display()
                ),
            ));
        }
        fs::create_dir_all(dir).map_err(|err| {
            io::Error::new(
                err.kind(),
                format!("cannot create the folder {}: {err}", dir.display()),
            )
        })?;
        if existing == Existing::Refuse {
            for entry in fs::read_dir(dir)? {
                let name = entry?.file_name();
                let name = name.to_string_lossy();
                let plain = [".zst", ".gz"]
                    .iter()
                    .find_map(|z| name.strip_suffix(z))
                    .unwrap_or(&name);
                if plain.ends_with(content) {
                    let kind = if content == ".pgn" { "PGN" } else { "NDJSON" };
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "{} already holds {kind} files ({name}): --append adds to them, \
                             --force overwrites them",
                            dir.display()
                        ),
                    ));
                }
            }
        }
        Ok(Files {
            dir: dir.to_owned(),
            content,
            compression,
            existing,
            capacity: capacity.max(1),
            open: HashMap::new(),
            order: VecDeque::new(),
            touched: HashSet::new(),
            folded: HashMap::new(),
        })
    }

    /// The path of the file of `stem`.
    pub fn path(&self, stem: &str) -> PathBuf {
        let suffix = self.compression.suffix().unwrap_or_default();
        self.dir.join(format!("{stem}{}{suffix}", self.content))
    }

    /// Whether the files hold NDJSON ([`Files::ndjson`]).
    pub fn is_ndjson(&self) -> bool {
        self.content == ".ndjson"
    }

    /// How many files this run has written to.
    pub fn count(&self) -> usize {
        self.touched.len()
    }

    /// Appends `bytes` to the file of `stem`. Two stems that differ only in case get
    /// different files on every file system: the later one is written as `STEM_~2` (then
    /// `_~3`, …).
    ///
    /// # Errors
    ///
    /// The file cannot be opened or written.
    pub fn write(&mut self, stem: &str, bytes: &[u8]) -> io::Result<()> {
        let stem = self.case_safe(stem);
        if !self.open.contains_key(&stem) {
            if self.open.len() >= self.capacity
                && let Some(old) = self.order.pop_front()
                && let Some(sink) = self.open.remove(&old)
            {
                sink.close()?;
            }
            let sink = self.open_sink(&stem)?;
            self.open.insert(stem.clone(), sink);
            self.order.push_back(stem.clone());
        } else if self.order.back() != Some(&stem)
            && let Some(i) = self.order.iter().position(|s| *s == stem)
        {
            self.order.remove(i);
            self.order.push_back(stem.clone());
        }
        match self.open.get_mut(&stem) {
            Some(sink) => sink.writer().write_all(bytes),
            None => Err(io::Error::other("split file not open")),
        }
    }

    /// The stem to use for `stem`, unique case-insensitively.
    fn case_safe(&mut self, stem: &str) -> String {
        let folded = stem.to_ascii_lowercase();
        match self.folded.get(&folded) {
            Some(first) if first == stem => stem.to_owned(),
            Some(_) => {
                let mut n = 2;
                loop {
                    let candidate = format!("{stem}_~{n}");
                    let folded = candidate.to_ascii_lowercase();
                    match self.folded.get(&folded) {
                        Some(first) if *first == candidate => return candidate,
                        Some(_) => n += 1,
                        None => {
                            self.folded.insert(folded, candidate.clone());
                            return candidate;
                        }
                    }
                }
            }
            None => {
                self.folded.insert(folded, stem.to_owned());
                stem.to_owned()
            }
        }
    }

    fn open_sink(&mut self, stem: &str) -> io::Result<Sink> {
        let path = self.path(stem);
        let append = self.touched.contains(stem) || self.existing == Existing::Append;
        let file = if append {
            OpenOptions::new().create(true).append(true).open(&path)?
        } else {
            File::create(&path)?
        };
        self.touched.insert(stem.to_owned());
        let file = BufWriter::with_capacity(64 << 10, file);
        Ok(match self.compression {
            FileCompression::None => Sink::Plain(file),
            FileCompression::Zstd => Sink::Zstd(zstd::Encoder::new(file, 3)?),
            FileCompression::Gzip => Sink::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::default(),
            )),
        })
    }

    /// Closes every file (ending compressed streams).
    ///
    /// # Errors
    ///
    /// A file cannot be written.
    pub fn finish(mut self) -> io::Result<()> {
        for stem in std::mem::take(&mut self.order) {
            if let Some(sink) = self.open.remove(&stem) {
                sink.close()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_by_round_trips_and_says_what_it_takes() {
        for by in [
            SplitBy::Eco,
            SplitBy::Year,
            SplitBy::Month,
            SplitBy::Event,
            SplitBy::White,
            SplitBy::Black,
            SplitBy::Tag("Annotator".into()),
        ] {
            assert_eq!(by.to_string().parse(), Ok(by));
        }
        for bad in ["tag:", "day"] {
            assert_eq!(
                bad.parse::<SplitBy>().unwrap_err().to_string(),
                format!(
                    "unknown split key `{bad}` (expected eco, year, month, event, white, black \
                     or tag:NAME)"
                )
            );
        }
    }

    #[test]
    fn stems_are_injective_and_safe() {
        let keys = [
            "", "a", "A", "a b", "a+b", "a_b", "a_5Fb", "a/b", "a.b", "..", ".", "errors",
            "_65rrors", "unknown", "_unknown", "x\0y", "é", "Ã©", "CON",
        ];
        let mut seen = HashMap::new();
        for key in keys {
            let stem = file_stem(key);
            assert!(
                stem.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-+_~".contains(&b)),
                "{stem}"
            );
            assert_ne!(stem, "errors");
            assert_ne!(stem, UNKNOWN_STEM);
            assert!(!stem.starts_with('.'));
            if let Some(other) = seen.insert(stem.clone(), key) {
                panic!("{key:?} and {other:?} both give {stem}");
            }
        }
    }

    #[test]
    fn long_keys_are_cut_with_a_hash() {
        let a = "x".repeat(300);
        let b = format!("{}y", "x".repeat(299));
        assert!(file_stem(&a).len() <= MAX_STEM);
        assert_ne!(file_stem(&a), file_stem(&b));
        let escaped = "é".repeat(100);
        let stem = file_stem(&escaped);
        assert!(stem.len() <= MAX_STEM, "{stem}");
        assert!(stem.contains("_~"));
    }

    #[test]
    fn handle_cache_reopens_compressed_files_to_append() {
        let dir = tempfile_dir("cache");
        let mut files = Files::new(&dir, FileCompression::Zstd, Existing::Refuse, 2).unwrap();
        for i in 0..30 {
            let stem = ["a", "b", "c", "d"][i % 4];
            files.write(stem, format!("{i}\n").as_bytes()).unwrap();
        }
        assert!(files.open.len() <= 2);
        files.finish().unwrap();
        let a = zstd::decode_all(File::open(dir.join("a.pgn.zst")).unwrap()).unwrap();
        assert_eq!(
            String::from_utf8(a).unwrap(),
            "0\n4\n8\n12\n16\n20\n24\n28\n"
        );
        let refused = Files::new(&dir, FileCompression::None, Existing::Refuse, 2).unwrap_err();
        assert!(refused.to_string().contains("--append"), "{refused}");
        let mut files = Files::new(&dir, FileCompression::Zstd, Existing::Append, 2).unwrap();
        files.write("a", b"more\n").unwrap();
        files.finish().unwrap();
        let a = zstd::decode_all(File::open(dir.join("a.pgn.zst")).unwrap()).unwrap();
        assert!(String::from_utf8(a).unwrap().ends_with("28\nmore\n"));
        let mut files = Files::new(&dir, FileCompression::Zstd, Existing::Overwrite, 2).unwrap();
        files.write("a", b"new\n").unwrap();
        files.write("A", b"upper\n").unwrap();
        files.finish().unwrap();
        let a = zstd::decode_all(File::open(dir.join("a.pgn.zst")).unwrap()).unwrap();
        assert_eq!(a, b"new\n");
        assert!(dir.join("A_~2.pgn.zst").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabia-split-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }
}
