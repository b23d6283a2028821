//! A game as the index keeps it: [`GameInfo`] (players, ratings, result, date, speed and the
//! indexed moves, what the explorer shows and filters by) beside its PGN in the export form,
//! and [`Prepared`], a game read, checked and keyed on a worker, ready for the writer.

use std::fmt;

use tabia_collect::{DedupBy, Digest, Digester};
use tabia_notation::{
    Located,
    pgn::{Game, Origin, RawGame, ReadError},
};
use tabia_position::{
    Position, ReplayError, ReplayWarning, repair_game_with, shakmaty::Color, start_position,
};

use crate::{
    Month, RatingBand, Speed,
    key::{PosKey, encode_move},
    varint::{self, Cursor},
};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `0-1`.
    BlackWins,
    /// `*` or anything else: counted among the games, in no column.
    Unknown,
}

impl Outcome {
    /// The outcome of a `Result` tag value.
    pub fn from_tag(value: &str) -> Outcome {
        match value {
            "1-0" => Outcome::WhiteWins,
            "1/2-1/2" => Outcome::Draw,
            "0-1" => Outcome::BlackWins,
            _ => Outcome::Unknown,
        }
    }

    /// lichess's `winner`: `white`, `black`, or none for a draw or an unknown result.
    pub fn winner(self) -> Option<&'static str> {
        match self {
            Outcome::WhiteWins => Some("white"),
            Outcome::BlackWins => Some("black"),
            Outcome::Draw | Outcome::Unknown => None,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<Outcome> {
        [
            Outcome::WhiteWins,
            Outcome::Draw,
            Outcome::BlackWins,
            Outcome::Unknown,
        ]
        .get(usize::from(code))
        .copied()
    }
}

/// What the index keeps of a game beside its text: what the explorer shows of it and filters
/// by, and its first moves (the indexed plies) to replay it without parsing the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameInfo {
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `WhiteElo`, when a number from 1 to 4000.
    pub white_elo: Option<u16>,
    /// `BlackElo`, likewise.
    pub black_elo: Option<u16>,
    /// `Result`.
    pub outcome: Outcome,
    /// `Date` (or `UTCDate`), as written.
    pub date: String,
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// From `TimeControl`.
    pub speed: Speed,
    /// The `Variant` tag, as written (empty for standard chess).
    pub variant: String,
    /// The `FEN` tag (empty from the standard start).
    pub fen: String,
    /// The mainline's length in plies.
    pub plies: u32,
    /// The codes of the indexed moves of the mainline, from the start.
    pub(crate) moves: Vec<u16>,
}

impl GameInfo {
    /// The month played, from the date.
    pub fn month(&self) -> Option<Month> {
        Month::from_date(&self.date)
    }

    /// The game's rating band.
    pub fn band(&self) -> RatingBand {
        RatingBand::of(self.white_elo, self.black_elo)
    }

    /// The mean of the players' ratings (the one rating when only one is known).
    pub fn rating(&self) -> Option<u16> {
        match (self.white_elo, self.black_elo) {
            (Some(w), Some(b)) => Some(((u32::from(w) + u32::from(b)) / 2) as u16),
            (one, other) => one.or(other),
        }
    }

    /// The player of `color`.
    pub fn player(&self, color: Color) -> &str {
        color.fold_wb(&self.white, &self.black)
    }

    /// The rating of the player of `color`.
    pub fn elo(&self, color: Color) -> Option<u16> {
        color.fold_wb(self.white_elo, self.black_elo)
    }

    /// The start position (from `FEN` and `Variant`).
    ///
    /// # Errors
    ///
    /// A bad `FEN` or an unknown variant (not for a game the index took in).
    pub fn start(&self) -> Result<Position, ReplayError> {
        let mut game = Game::default();
        if !self.variant.is_empty() {
            game.set_tag("Variant", Some(&self.variant));
        }
        if !self.fen.is_empty() {
            game.set_tag("SetUp", Some("1"));
            game.set_tag("FEN", Some(&self.fen));
        }
        start_position(&game)
    }

    /// Whether the game's position after `ply` plies (0: its start) is the position of
    /// `key`, replaying its indexed moves.
    pub fn reaches_at(&self, ply: u32, key: &PosKey) -> bool {
        let Ok(mut pos) = self.start() else {
            return false;
        };
        let Some(moves) = self.moves.get(..ply as usize) else {
            return false;
        };
        for &code in moves {
            let Some(m) = crate::key::decode_move(&pos, code) else {
                return false;
            };
            pos.play_unchecked(m);
        }
        PosKey::of(&pos) == *key
    }

    /// The move the game played at `ply` (of its indexed moves).
    pub(crate) fn move_at(&self, ply: usize) -> u16 {
        self.moves.get(ply).copied().unwrap_or(crate::key::NO_MOVE)
    }

    pub(crate) fn facts(&self) -> Facts {
        Facts {
            month: self.month().map_or(0, Month::code),
            group: group(self.speed, self.band()),
            outcome: self.outcome,
            rating: self.rating(),
        }
    }

    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        for s in [
            &self.white,
            &self.black,
            &self.date,
            &self.event,
            &self.site,
            &self.variant,
            &self.fen,
        ] {
            varint::put_str(out, s);
        }
        varint::put(out, self.white_elo.map_or(0, u64::from));
        varint::put(out, self.black_elo.map_or(0, u64::from));
        out.push(self.outcome.code());
        out.push(self.speed.code());
        varint::put(out, u64::from(self.plies));
        varint::put(out, self.moves.len() as u64);
        for &m in &self.moves {
            varint::put(out, u64::from(m));
        }
    }

    pub(crate) fn decode(bytes: &[u8]) -> Option<GameInfo> {
        let mut c = Cursor::new(bytes);
        let mut strings = Vec::with_capacity(7);
        for _ in 0..7 {
            strings.push(c.str()?.to_owned());
        }
        let elo = |n: u16| (n > 0).then_some(n);
        let white_elo = elo(c.u16()?);
        let black_elo = elo(c.u16()?);
        let outcome = Outcome::from_code(c.u8()?)?;
        let speed = Speed::from_code(c.u8()?)?;
        let plies = c.u32()?;
        let n = c.u32()?;
        let mut moves = Vec::with_capacity(n.min(1024) as usize);
        for _ in 0..n {
            moves.push(c.u16()?);
        }
        let mut strings = strings.into_iter();
        let mut next = || strings.next().unwrap_or_default();
        Some(GameInfo {
            white: next(),
            black: next(),
            date: next(),
            event: next(),
            site: next(),
            variant: next(),
            fen: next(),
            white_elo,
            black_elo,
            outcome,
            speed,
            plies,
            moves,
        })
        .filter(|_| c.is_empty())
    }
}

/// The group of a game in a position's figures: its speed and rating band.
pub(crate) fn group(speed: Speed, band: RatingBand) -> u8 {
    speed.code() * 16 + band.code()
}

/// The speed and band of a group code.
pub(crate) fn ungroup(code: u8) -> Option<(Speed, RatingBand)> {
    Some((
        Speed::from_code(code / 16)?,
        RatingBand::from_code(code % 16)?,
    ))
}

/// What one game adds to a position's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    pub(crate) month: u16,
    pub(crate) group: u8,
    pub(crate) outcome: Outcome,
    pub(crate) rating: Option<u16>,
}

/// A game read, checked and keyed, ready for [`IndexWriter::push`](crate::IndexWriter::push):
/// made by [`prepare`] on any thread.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub(crate) digest: Digest,
    pub(crate) info: GameInfo,
    pub(crate) text: String,
    /// The positions of the indexed plies, from the start.
    pub(crate) keys: Vec<PosKey>,
    /// What was repaired or looks wrong in the game (it is indexed all the same).
    pub warnings: Vec<ReplayWarning>,
}

impl Prepared {
    /// What the index keeps of the game.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// The game in the export form, as the index stores it.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Why a game could not be indexed.
#[derive(Debug)]
#[non_exhaustive]
pub enum PrepareError {
    /// The game is not valid PGN.
    Syntax(ReadError),
    /// A move is illegal, the `FEN` tag is bad or the variant unsupported.
    Replay(ReplayError),
}

impl Located for PrepareError {
    fn message(&self) -> String {
        match self {
            PrepareError::Syntax(err) => err.message(),
            PrepareError::Replay(err) => err.message(),
        }
    }

    fn origin(&self) -> Option<Origin> {
        match self {
            PrepareError::Syntax(err) => err.origin(),
            PrepareError::Replay(err) => Located::origin(err),
        }
    }
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::Syntax(err) => err.fmt(f),
            PrepareError::Replay(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for PrepareError {}

/// Reads one game as the index takes it: parsed, checked and repaired as `tabia pgn` writes it
/// (its text is that export), digested as `tabia dedup` digests it (same moves from the same
/// start), and keyed: the positions of its first `max_ply` plies (all with `None`); a null
/// move ends what is indexed. `Ok(None)` when `raw` holds no game.
///
/// ```
/// use tabia_index::prepare;
/// use tabia_notation::pgn::RawGame;
///
/// let raw = RawGame { bytes: b"[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n".to_vec(), start: Default::default() };
/// let game = prepare(&raw, Some(50))?.expect("a game");
/// assert_eq!(game.info().white, "A");
/// assert_eq!(game.info().plies, 7);
/// assert!(game.text().contains("4. Qxf7# 1-0"));
/// # Ok::<_, tabia_index::PrepareError>(())
/// ```
///
/// # Errors
///
/// A syntax error, an illegal move, a bad `FEN` tag or an unsupported variant.
pub fn prepare(raw: &RawGame, max_ply: Option<u32>) -> Result<Option<Prepared>, PrepareError> {
    if raw.bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let mut game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            return Err(match tabia_position::unsupported_variant(raw) {
                Some(variant) => PrepareError::Replay(variant),
                None => PrepareError::Syntax(err),
            });
        }
    };
    let limit = max_ply.unwrap_or(u32::MAX);
    let mut digester = Digester::new(DedupBy::Moves);
    let mut keys = Vec::new();
    let mut moves = Vec::new();
    let mut stopped = false;
    let replayed = repair_game_with(&mut game, |ply| {
        if ply.depth != 0 {
            return;
        }
        digester.ply(ply);
        if stopped || ply.ply > limit {
            return;
        }
        match ply.mv {
            Some(m) => {
                moves.push(encode_move(m));
                keys.push(PosKey::of(ply.position));
            }
            None => stopped = true,
        }
    })
    .map_err(PrepareError::Replay)?;
    keys.insert(0, PosKey::of(&replayed.start));
    let digest = digester.finish(&replayed);
    let tag = |name: &str| game.tag(name).unwrap_or("").to_owned();
    // The Seven Tag Roster as the export writes it (a missing one is `?`), so that what the
    // index shows of a game is what its stored text says.
    let roster = |name: &str| game.tag(name).unwrap_or("?").to_owned();
    let elo = |name: &str| {
        game.tag(name)
            .and_then(|v| v.trim().parse::<u16>().ok())
            .filter(|n| (1..=4000).contains(n))
    };
    let date = match game.tag("Date") {
        Some(date) if Month::from_date(date).is_some() => date.to_owned(),
        _ => game
            .tag("UTCDate")
            .or(game.tag("Date"))
            .unwrap_or("")
            .to_owned(),
    };
    let info = GameInfo {
        white: roster("White"),
        black: roster("Black"),
        white_elo: elo("WhiteElo"),
        black_elo: elo("BlackElo"),
        // As the export writes it: the tag, else the result after the moves.
        outcome: Outcome::from_tag(game.tag("Result").unwrap_or(game.result.as_str())),
        date,
        event: roster("Event"),
        site: roster("Site"),
        speed: Speed::from_time_control(game.tag("TimeControl")),
        variant: tag("Variant"),
        fen: tag("FEN"),
        plies: replayed.plies,
        moves,
    };
    Ok(Some(Prepared {
        digest,
        info,
        text: game.to_string(),
        keys,
        warnings: replayed.warnings,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawGame {
        RawGame {
            bytes: text.as_bytes().to_vec(),
            start: Origin::default(),
        }
    }

    #[test]
    fn info_round_trips() {
        let text = "[Event \"Rated Blitz game\"]\n[Site \"x\"]\n[Date \"2024.03.05\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n[WhiteElo \"1650\"]\n[BlackElo \"?\"]\n[TimeControl \"180+2\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let game = prepare(&raw(text), Some(3))
            .expect("good")
            .expect("one game");
        let info = game.info();
        assert_eq!((info.white.as_str(), info.black.as_str()), ("Ann", "Bob"));
        assert_eq!((info.white_elo, info.black_elo), (Some(1650), None));
        assert_eq!(info.outcome, Outcome::BlackWins);
        assert_eq!(info.speed, Speed::Blitz);
        assert_eq!(info.month(), Month::new(2024, 3));
        assert_eq!((info.plies, info.moves.len(), game.keys.len()), (4, 3, 4));
        let mut bytes = Vec::new();
        info.encode(&mut bytes);
        assert_eq!(GameInfo::decode(&bytes).as_ref(), Some(info));
        assert_eq!(GameInfo::decode(&bytes[..bytes.len() - 1]), None);
    }

    #[test]
    fn a_bad_game_says_where() {
        let err = prepare(&raw("1. e4 e5 2. Ke3 *\n"), None).unwrap_err();
        assert_eq!(
            format!(
                "{}: {}",
                err.origin().map_or(0, |o| o.column),
                err.message()
            ),
            "13: illegal move 2. Ke3 (ply 3): no white king can go to e3"
        );
        assert!(prepare(&raw("\n\n"), None).expect("nothing").is_none());
    }

    #[test]
    fn the_same_moves_digest_alike() {
        let a = prepare(&raw("[White \"A\"]\n\n1. e4 e5 *\n"), None)
            .expect("ok")
            .expect("game");
        let b = prepare(&raw("[White \"B\"]\n\n1. e4 {x} e5 1-0\n"), None)
            .expect("ok")
            .expect("game");
        let c = prepare(&raw("1. e4 c5 *\n"), None)
            .expect("ok")
            .expect("game");
        assert_eq!(a.digest, b.digest);
        assert_ne!(a.digest, c.digest);
    }
}
