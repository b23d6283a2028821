//! `tabia serve` over loopback: an index of the fixtures, the server on port 0, requests
//! written as raw HTTP/1.1 on `TcpStream`s, the answers compared with the index's own.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
    time::Duration,
};

use proptest::prelude::*;
use serde_json::Value;
use tabia_index::{Filter, Index, IndexOptions, Limits, Request};
use tabia_position::shakmaty::Color;
use tabia_serve::{Handle, ServeOptions, serve_index};

struct Served {
    _dir: tempfile::TempDir,
    index: Arc<Index>,
    addr: SocketAddr,
    _handle: Handle,
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pgn/ok");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

/// One server for the whole test binary.
fn served() -> &'static Served {
    static SERVED: OnceLock<Served> = OnceLock::new();
    SERVED.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        Index::build(dir.path(), &fixtures(), IndexOptions::default(), 1).expect("build");
        let index = Arc::new(Index::open(dir.path()).expect("open"));
        let options = ServeOptions {
            addr: "127.0.0.1:0".parse().expect("addr"),
            threads: 3,
        };
        let handle = serve_index(Arc::clone(&index), options).expect("serve");
        Served {
            addr: handle.addr(),
            _dir: dir,
            index,
            _handle: handle,
        }
    })
}

/// An answer: status, headers (lower-case names), body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// A keep-alive connection.
struct Client {
    out: TcpStream,
    input: BufReader<TcpStream>,
}

impl Client {
    fn new(addr: SocketAddr) -> Client {
        let out = TcpStream::connect(addr).expect("connect");
        out.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let input = BufReader::new(out.try_clone().expect("clone"));
        Client { out, input }
    }

    fn send(&mut self, method: &str, target: &str, extra: &str) -> Answer {
        write!(
            self.out,
            "{method} {target} HTTP/1.1\r\nHost: test\r\n{extra}\r\n"
        )
        .expect("write");
        self.read(method == "HEAD")
    }

    fn get(&mut self, target: &str) -> Answer {
        self.send("GET", target, "")
    }

    fn read(&mut self, head_only: bool) -> Answer {
        let mut line = String::new();
        self.input.read_line(&mut line).expect("status line");
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line {line:?}"));
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.input.read_line(&mut line).expect("header");
            let field = line.trim_end();
            if field.is_empty() {
                break;
            }
            let (name, value) = field.split_once(':').expect("header field");
            headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
        }
        let mut answer = Answer {
            status,
            headers,
            body: String::new(),
        };
        let length: usize = answer
            .header("content-length")
            .and_then(|v| v.parse().ok())
            .expect("content-length");
        if !head_only {
            let mut body = vec![0; length];
            self.input.read_exact(&mut body).expect("body");
            answer.body = String::from_utf8(body).expect("utf-8");
        }
        answer
    }
}

fn get(target: &str) -> Answer {
    Client::new(served().addr).get(target)
}

/// The positions asked about: `fen` and `play` parameters.
const POSITIONS: [(&str, &str); 7] = [
    ("", ""),
    ("", "e2e4"),
    ("", "e2e4,e7e5"),
    ("", "e2e4,e7e5,g1f3"),
    ("", "d2d4"),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "e7e5",
    ),
    ("startpos", "e4,c5"),
];

fn target(route: &str, fen: &str, play: &str, rest: &str) -> String {
    let fen = fen.replace(' ', "+").replace('/', "%2F");
    format!("{route}?fen={fen}&play={play}{rest}")
}

fn expected(route: &str, fen: &str, play: &str, filter: &Filter, limits: Limits) -> Value {
    let index = &served().index;
    let fen = Some(fen).filter(|f| !f.is_empty());
    let request = Request::parse(fen, Some(play), None).expect("request");
    let answer = match route {
        "/player" => serde_json::to_value(
            index
                .player("alice", Color::White, &request, filter, limits)
                .expect("player"),
        ),
        _ => serde_json::to_value(index.explore(&request, filter, limits).expect("explore")),
    };
    answer.expect("json")
}

#[test]
fn explorer_answers_are_the_index_answers() {
    let lichess = Limits {
        moves: 12,
        top_games: 4,
        recent_games: 4,
        history: false,
    };
    let masters = Limits {
        moves: 12,
        top_games: 15,
        recent_games: 0,
        history: false,
    };
    let all = Filter::default();
    let blitz = Filter::parse(Some("blitz"), None, None, None).expect("filter");
    let since = Filter::parse(None, None, Some("2000"), None).expect("filter");
    let since_month = Filter::parse(None, None, Some("2000-01"), None).expect("filter");
    let mut moves_seen = 0;
    for (fen, play) in POSITIONS {
        let cases = [
            ("/lichess", "", &all, lichess),
            ("/masters", "", &all, masters),
            ("/lichess", "&speeds=blitz", &blitz, lichess),
            // /masters ignores speeds and ratings; since and until take years.
            ("/masters", "&speeds=blitz&since=2000", &since, masters),
            (
                "/lichess",
                "&moves=1&topGames=1&recentGames=0",
                &all,
                Limits {
                    moves: 1,
                    top_games: 1,
                    recent_games: 0,
                    history: false,
                },
            ),
            (
                "/lichess",
                "&history=true&since=2000-01",
                &since_month,
                Limits {
                    history: true,
                    ..lichess
                },
            ),
            (
                "/player",
                "&player=alice&color=white",
                &all,
                Limits {
                    moves: 12,
                    top_games: 0,
                    recent_games: 8,
                    history: false,
                },
            ),
        ];
        for (route, rest, filter, limits) in cases {
            let url = target(route, fen, play, rest);
            let answer = get(&url);
            assert_eq!(answer.status, 200, "{url}: {}", answer.body);
            assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
            let want = expected(route, fen, play, filter, limits);
            assert_eq!(answer.json(), want, "{url}");
            if route == "/player" {
                assert_eq!(answer.header("content-type"), Some("application/x-ndjson"));
                assert!(answer.body.ends_with("}\n"));
            } else {
                assert_eq!(answer.header("content-type"), Some("application/json"));
                moves_seen += want["moves"].as_array().map_or(0, Vec::len);
            }
        }
    }
    // The positions are not all empty.
    assert!(moves_seen >= 10, "{moves_seen}");
}

#[test]
fn games_are_served_as_pgn() {
    let index = &served().index;
    let pgn = index.pgn(1).expect("pgn").expect("game 1");
    for route in ["/master/pgn/1", "/masters/pgn/1", "/game/1.pgn"] {
        let answer = get(route);
        assert_eq!((answer.status, answer.body.as_str()), (200, pgn.as_str()));
        assert!(answer.header("content-type").expect("type").contains("pgn"));
    }
    for route in [
        "/master/pgn/99999",
        "/master/pgn/x",
        "/game/1",
        "/tabia/game/99999",
    ] {
        assert_eq!(get(route).status, 404, "{route}");
    }
    let game = get("/tabia/game/1").json();
    assert_eq!(
        game["epd"].as_array().map(Vec::len),
        game["uci"].as_array().map(|m| m.len() + 1)
    );
}

#[test]
fn the_page_and_its_position_answers() {
    let page = get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/tabia/page.js\">"));
    assert!(!page.body.contains("http://") && !page.body.contains("https://"));
    for asset in ["/tabia/page.js", "/tabia/page.css"] {
        assert_eq!(get(asset).status, 200, "{asset}");
    }
    let pos = get("/tabia/position?play=e2e4,e7e5,g1f3").json();
    assert_eq!(
        pos["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    let sans: Vec<&str> = pos["played"]
        .as_array()
        .expect("played")
        .iter()
        .map(|m| m["san"].as_str().expect("san"))
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    assert_eq!(pos["legal"].as_array().map(Vec::len), Some(29));
    assert!(pos["board"].as_str().expect("svg").starts_with("<svg"));
    let info = get("/tabia/info").json();
    assert_eq!(
        info["games"].as_u64(),
        Some(served().index.info().expect("info").games)
    );
}

#[test]
fn bad_parameters_are_400_with_the_library_message() {
    let targets = [
        "/lichess?fen=8/8/8+w+-+-+0+1",
        "/lichess?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+x+KQkq+-+0+1",
        "/lichess?play=e2e4,e2e4",
        "/masters?play=e2e5",
        "/lichess?play=e4,zz",
        "/lichess?variant=bughouse",
        "/lichess?speeds=blitz,fast",
        "/lichess?ratings=1300",
        "/lichess?since=2020-13",
        "/masters?until=20x0",
        "/lichess?moves=ten",
        "/lichess?topGames=-1",
        "/masters?recentGames=1.5",
        "/player?color=white",
        "/player?player=alice&color=green",
        "/player?player=alice&play=e2e5",
        "/lichess?fen=%ff",
        "/tabia/position?play=e1e8",
    ];
    let mut lines = Vec::new();
    for target in targets {
        let answer = get(target);
        assert_eq!(answer.status, 400, "{target}: {}", answer.body);
        let message = answer.json()["error"]
            .as_str()
            .expect("error message")
            .to_owned();
        lines.push(format!("{target}\n  {message}"));
    }
    tabia_testkit::expect_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/errors.txt"),
        &(lines.join("\n") + "\n"),
    );
}

#[test]
fn methods_paths_and_limits() {
    let addr = served().addr;
    let mut client = Client::new(addr);
    assert_eq!(client.get("/nowhere").status, 404);
    assert_eq!(client.get("/lichess/x").status, 404);
    let post = client.send("POST", "/lichess", "Content-Length: 2\r\n\r\nab");
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD, OPTIONS"));
    // The body was read: the connection goes on.
    let head = client.send("HEAD", "/lichess?play=e2e4", "");
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    assert!(head.header("content-length").expect("length") != "0");
    let options = client.send("OPTIONS", "/masters", "");
    assert_eq!(options.status, 204);
    assert_eq!(client.get("/masters").status, 200);

    let long = format!("/lichess?play={}", "e2e4,".repeat(2000));
    let answer = Client::new(addr).get(&long);
    assert_eq!(answer.status, 414);
    let big = Client::new(addr).send("GET", "/lichess", "Content-Length: 1000000000000000\r\n");
    assert_eq!(big.status, 413);
    assert_eq!(big.header("connection"), Some("close"));
    // Garbage and unfinished requests do not stop the server.
    for garbage in [
        &b"\x00\x01\x02\r\n\r\n"[..],
        b"GET /\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost",
    ] {
        let mut stream = TcpStream::connect(addr).expect("connect");
        stream.write_all(garbage).expect("write");
    }
    assert_eq!(get("/masters").status, 200);
}

#[test]
fn many_clients_at_once_get_the_right_answers() {
    let addr = served().addr;
    let lichess = Limits::default();
    let wanted: Arc<Vec<(String, Value)>> = Arc::new(
        POSITIONS
            .iter()
            .map(|(fen, play)| {
                (
                    target("/lichess", fen, play, ""),
                    expected("/lichess", fen, play, &Filter::default(), lichess),
                )
            })
            .collect(),
    );
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let wanted = Arc::clone(&wanted);
            std::thread::spawn(move || {
                let mut client = Client::new(addr);
                for i in 0..200 {
                    let (url, want) = &wanted[(t + i) % wanted.len()];
                    let answer = client.get(url);
                    assert_eq!(answer.status, 200);
                    assert_eq!(&answer.json(), want, "{url}");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a client failed");
    }
}

fn query_pair() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "fen",
        "play",
        "variant",
        "speeds",
        "ratings",
        "since",
        "until",
        "moves",
        "topGames",
        "recentGames",
        "player",
        "color",
        "x",
    ]);
    (names, "[a-zA-Z0-9%+,/._=-]{0,24}").prop_map(|(n, v)| format!("{n}={v}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any query is answered 200 or 400, never a 500 or a dead connection.
    #[test]
    fn any_query_is_200_or_400(
        route in prop::sample::select(vec!["/lichess", "/masters", "/player", "/tabia/position"]),
        pairs in prop::collection::vec(query_pair(), 0..5),
        raw in "[ -~&&[^ ]]{0,40}",
    ) {
        let mut client = Client::new(served().addr);
        for query in [pairs.join("&"), raw] {
            let answer = client.get(&format!("{route}?{query}"));
            prop_assert!(answer.status == 200 || answer.status == 400, "{route}?{query}: {answer:?}");
            prop_assert!(answer.json().is_object());
        }
    }
}
