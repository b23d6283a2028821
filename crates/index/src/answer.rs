//! The explorer's answers, shaped as lichess's opening explorer's JSON: [`Explorer`] (its
//! `/masters` and `/lichess`), [`PlayerExplorer`] (its `/player`), [`GameSummary`] (a game in
//! them and in `tabia index games --json`).

use serde::Serialize;

/// A position's figures: the games' results, the moves played from it (most played first),
/// the best rated and most recent games, the opening's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explorer {
    /// Games White won (of those that played a move from here).
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The moves, most played first.
    pub moves: Vec<ExplorerMove>,
    /// The best rated games (by the mean of the players' ratings).
    pub top_games: Vec<GameSummary>,
    /// The most recent games (the last indexed).
    pub recent_games: Vec<GameSummary>,
    /// The opening of the position (lichess's table), when it has a name.
    pub opening: Option<OpeningName>,
    /// Every game that reached the position, the ones that ended here and those with an
    /// unknown result included (tabia's addition to lichess's answer).
    pub games: u64,
    /// The results month by month, when asked ([`Limits::history`](crate::Limits::history)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<HistoryMonth>>,
}

/// One month of an [`Explorer`]'s `history`: lichess's `{"month": "2017-01", "white": …,
/// "draws": …, "black": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HistoryMonth {
    /// `YYYY-MM`.
    pub month: String,
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
}

/// One move of an [`Explorer`] answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplorerMove {
    /// The move in UCI (`e1g1` for castling in standard chess).
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// The mean rating of the games that played it (0 when none is rated).
    pub average_rating: u32,
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The game, when only one played the move.
    pub game: Option<GameSummary>,
}

impl ExplorerMove {
    /// The games that played the move, with a known result.
    pub fn total(&self) -> u64 {
        self.white + self.draws + self.black
    }
}

/// A game in an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameSummary {
    /// The move it played from the position asked for (UCI), when it played one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
    /// Its id: `/master/pgn/{id}`, `tabia index games --id`.
    pub id: String,
    /// `white`, `black`, or none for a draw or an unknown result.
    pub winner: Option<String>,
    /// The speed, from `TimeControl`.
    pub speed: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The year, when known.
    pub year: Option<u16>,
    /// `YYYY-MM`, when the year is known.
    pub month: Option<String>,
}

/// A player of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    /// The name.
    pub name: String,
    /// The rating, when known.
    pub rating: Option<u16>,
}

/// An opening's code and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpeningName {
    /// ECO code.
    pub eco: String,
    /// lichess's name.
    pub name: String,
}

/// What one player played from a position and how they scored (lichess's personal explorer,
/// its `/player`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerExplorer {
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The moves, most played first.
    pub moves: Vec<PlayerMove>,
    /// The player's most recent games at the position.
    pub recent_games: Vec<GameSummary>,
    /// The opening of the position.
    pub opening: Option<OpeningName>,
    /// Always 0: the answer is computed at once (lichess's field, for its clients).
    pub queue_position: u32,
}

/// One move of a [`PlayerExplorer`] answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerMove {
    /// UCI.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// The mean rating of the player's opponents in these games (0 when none is rated).
    pub average_opponent_rating: u32,
    /// The player's performance rating over these games (opponents' mean + 400 × (wins −
    /// losses) / games, lichess's formula).
    pub performance: i32,
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The game, when only one played the move.
    pub game: Option<GameSummary>,
}

/// A game as `tabia index games --json` lists it: its id and what the index keeps of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The id (`index.pgn(id)`, `/master/pgn/{id}`).
    pub id: u32,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `WhiteElo`.
    pub white_elo: Option<u16>,
    /// `BlackElo`.
    pub black_elo: Option<u16>,
    /// `1-0`, `1/2-1/2`, `0-1` or `*`.
    pub result: &'static str,
    /// `Date`.
    pub date: String,
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// The speed, from `TimeControl`.
    pub speed: String,
    /// The mainline's plies.
    pub plies: u32,
}

impl GameRecord {
    /// The record of game `id`.
    pub fn new(id: u32, info: &crate::GameInfo) -> GameRecord {
        GameRecord {
            id,
            white: info.white.clone(),
            black: info.black.clone(),
            white_elo: info.white_elo,
            black_elo: info.black_elo,
            result: match info.outcome {
                crate::Outcome::WhiteWins => "1-0",
                crate::Outcome::Draw => "1/2-1/2",
                crate::Outcome::BlackWins => "0-1",
                crate::Outcome::Unknown => "*",
            },
            date: info.date.clone(),
            event: info.event.clone(),
            site: info.site.clone(),
            speed: info.speed.to_string(),
            plies: info.plies,
        }
    }
}
