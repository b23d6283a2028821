//! The routes: a request's path and query turned into an answer of the index, as
//! lila-openingexplorer's `api/` does (query parsed into typed values, a bad one a 400 with its
//! message, the answer serialised from the index's own types); the store knows nothing of HTTP.

use serde::Serialize;
use tabia_index::{Index, IndexError};
use tabia_notation::pgn::Game;
use tabia_position::{
    EpRule, GameVariant, LastMove, Position, RenderOptions, Replay, render_svg, shakmaty::Move,
    start_position,
};

use crate::{
    cache::Answers,
    http::{JSON, Method, Reply, Request, TEXT},
    page,
    query::{BadRequest, Defaults, Query},
};

const NDJSON: &str = "application/x-ndjson";

/// What a route answers with: a reply, or a bad request.
type Answer = Result<Reply, Failure>;

/// Why a route did not answer 200.
enum Failure {
    Bad(BadRequest),
    NotFound,
    /// The index failed (a storage error, a damaged value): a 500 with its message.
    Internal(String),
}

impl From<BadRequest> for Failure {
    fn from(err: BadRequest) -> Failure {
        Failure::Bad(err)
    }
}

impl From<IndexError> for Failure {
    fn from(err: IndexError) -> Failure {
        Failure::Internal(err.to_string())
    }
}

/// The answer to a request.
pub(crate) fn respond(index: &Index, answers: &Answers, request: &Request) -> Reply {
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let Some(route) = route(path) else {
        return Reply::error(404, "not found");
    };
    match request.method {
        Method::Get | Method::Head => {}
        Method::Options => {
            return Reply {
                status: 204,
                content_type: TEXT,
                body: Vec::new(),
                allow: true,
            };
        }
        Method::Other => {
            let mut reply = Reply::error(405, "method not allowed: GET, HEAD or OPTIONS");
            reply.allow = true;
            return reply;
        }
    }
    let answer = match route {
        Route::Asset(reply) => Ok(reply),
        Route::Masters => Query::parse(query)
            .map_err(Failure::from)
            .and_then(|q| explore(index, answers, &request.target, &q, true)),
        Route::Lichess => Query::parse(query)
            .map_err(Failure::from)
            .and_then(|q| explore(index, answers, &request.target, &q, false)),
        Route::Player => Query::parse(query)
            .map_err(Failure::from)
            .and_then(|q| player(index, &q)),
        Route::Pgn(id) => pgn(index, id),
        Route::Game(id) => game(index, id),
        Route::Position => Query::parse(query)
            .map_err(Failure::from)
            .and_then(|q| position(&q)),
        Route::Info => info(index),
    };
    match answer {
        Ok(reply) => reply,
        Err(Failure::Bad(err)) => Reply::error(400, &err.to_string()),
        Err(Failure::NotFound) => Reply::error(404, "no such game"),
        Err(Failure::Internal(message)) => Reply::error(500, &message),
    }
}

enum Route {
    Asset(Reply),
    Masters,
    Lichess,
    Player,
    /// `/master/pgn/{id}`, `/masters/pgn/{id}`, `/game/{id}.pgn`: `None` for an id that is no
    /// number (a 404, as an unknown one).
    Pgn(Option<u32>),
    /// `/tabia/game/{id}`: a game's moves for the page.
    Game(Option<u32>),
    Position,
    Info,
}

fn route(path: &str) -> Option<Route> {
    let id = |s: &str| s.parse::<u32>().ok();
    Some(match path {
        "/masters" => Route::Masters,
        "/lichess" => Route::Lichess,
        "/player" => Route::Player,
        "/tabia/position" => Route::Position,
        "/tabia/info" => Route::Info,
        _ => {
            if let Some(rest) = path
                .strip_prefix("/master/pgn/")
                .or_else(|| path.strip_prefix("/masters/pgn/"))
            {
                Route::Pgn(id(rest))
            } else if let Some(rest) = path.strip_prefix("/game/") {
                Route::Pgn(id(rest.strip_suffix(".pgn")?))
            } else if let Some(rest) = path.strip_prefix("/tabia/game/") {
                Route::Game(id(rest))
            } else {
                Route::Asset(page::asset(path)?)
            }
        }
    })
}

fn json(value: &impl Serialize, content_type: &'static str) -> Answer {
    let mut body = serde_json::to_vec(value).map_err(|e| Failure::Internal(e.to_string()))?;
    if content_type == NDJSON {
        body.push(b'\n');
    }
    Ok(Reply::ok(content_type, body))
}

/// An explorer answer (`/masters`, `/lichess`); those of the most asked positions are kept
/// by their route and query (`target`) while the index is unchanged.
fn explore(
    index: &Index,
    answers: &Answers,
    target: &str,
    query: &Query<'_>,
    masters: bool,
) -> Answer {
    let request = query.request()?;
    let filter = query.filter(masters)?;
    let defaults = if masters {
        Defaults::MASTERS
    } else {
        Defaults::LICHESS
    };
    let limits = defaults.limits(query)?;
    let body = answers.get_or(target, index.generation()?, || {
        serde_json::to_vec(&index.explore(&request, &filter, limits)?)
            .map_err(|e| Failure::Internal(e.to_string()))
    })?;
    Ok(Reply::ok(JSON, body.to_vec()))
}

fn player(index: &Index, query: &Query<'_>) -> Answer {
    let request = query.request()?;
    let (name, color) = query.player()?;
    let filter = query.filter(false)?;
    let limits = Defaults::PLAYER.limits(query)?;
    json(
        &index.player(name, color, &request, &filter, limits)?,
        NDJSON,
    )
}

fn pgn(index: &Index, id: Option<u32>) -> Answer {
    let text = index.pgn(id.ok_or(Failure::NotFound)?)?;
    Ok(Reply::ok(
        "application/x-chess-pgn; charset=utf-8",
        text.ok_or(Failure::NotFound)?,
    ))
}

fn info(index: &Index) -> Answer {
    json(&index.info()?, JSON)
}

/// A legal move, or a move played.
#[derive(Serialize)]
struct PageMove {
    uci: String,
    san: String,
}

fn page_move(pos: &Position, m: Move) -> PageMove {
    PageMove {
        uci: m.to_uci(pos.castling_mode()).to_string(),
        san: pos.san(m).to_string(),
    }
}

/// What the page needs of a position: the board, the legal moves, the moves played.
#[derive(Serialize)]
struct PositionAnswer {
    fen: String,
    /// The start's FEN.
    start: String,
    variant: String,
    turn: &'static str,
    played: Vec<PageMove>,
    legal: Vec<PageMove>,
    check: bool,
    /// The board as SVG (no coordinates: the page lays the squares over it).
    board: String,
}

fn position(query: &Query<'_>) -> Answer {
    let request = query.request()?;
    let flip = matches!(query.get("flip"), Some("1" | "true"));
    let mut pos = request.start.clone();
    let mut played = Vec::new();
    for &m in &request.moves {
        played.push(page_move(&pos, m));
        pos.play_unchecked(m);
    }
    let pos = &request.position;
    let legal = pos
        .legal_moves()
        .into_iter()
        .map(|m| page_move(pos, m))
        .collect();
    let last_move = request.moves.last().map(|m| LastMove {
        from: m.from().unwrap_or_else(|| m.to()),
        to: m.to(),
    });
    let board = render_svg(
        &pos.setup(EpRule::Legal),
        &RenderOptions {
            flip,
            coordinates: Some(false),
            last_move,
            size: 480,
            standalone: false,
        },
    );
    json(
        &PositionAnswer {
            fen: pos.fen(EpRule::Legal),
            start: request.start.fen(EpRule::Legal),
            variant: GameVariant::from(pos.variant()).to_string(),
            turn: if pos.turn().is_white() {
                "white"
            } else {
                "black"
            },
            played,
            legal,
            check: pos.is_check(),
            board,
        },
        JSON,
    )
}

/// A game's mainline for the page: its start and moves, and the EPD after each, so that the
/// page finds where the game reached the position shown.
#[derive(Serialize)]
struct GameAnswer {
    id: u32,
    white: String,
    black: String,
    result: String,
    date: String,
    event: String,
    start: String,
    variant: String,
    uci: Vec<String>,
    san: Vec<String>,
    epd: Vec<String>,
}

fn game(index: &Index, id: Option<u32>) -> Answer {
    let id = id.ok_or(Failure::NotFound)?;
    let text = index.pgn(id)?.ok_or(Failure::NotFound)?;
    let broken = |what: String| Failure::Internal(what);
    let game: Game = text
        .parse()
        .map_err(|e| broken(format!("game {id}: {e}")))?;
    let start = start_position(&game).map_err(|e| broken(format!("game {id}: {e}")))?;
    let mut answer = GameAnswer {
        id,
        white: game.tag("White").unwrap_or("?").to_owned(),
        black: game.tag("Black").unwrap_or("?").to_owned(),
        result: game.tag("Result").unwrap_or("*").to_owned(),
        date: game.tag("Date").unwrap_or("").to_owned(),
        event: game.tag("Event").unwrap_or("").to_owned(),
        start: start.fen(EpRule::Legal),
        variant: GameVariant::from(start.variant()).to_string(),
        uci: Vec::new(),
        san: Vec::new(),
        epd: vec![start.epd(EpRule::Legal)],
    };
    for ply in Replay::new(&game) {
        let Ok(ply) = ply else { break };
        if ply.mv.is_none() {
            break;
        }
        answer.uci.push(ply.uci());
        answer.san.push(ply.node.san.to_string());
        answer.epd.push(ply.epd());
    }
    json(&answer, JSON)
}
