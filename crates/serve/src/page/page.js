"use strict";
// The explorer page: the position is a start (`fen`, `variant`) and a line of moves (UCI) of
// which the first `ply` are played; the server gives the board and legal moves
// (/tabia/position) and the explorer's answer (/lichess or /masters). The URL holds the
// position (?fen=..&play=..) so that it can be shared.

const SPEEDS = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"];
const RATINGS = ["0", "1000", "1200", "1400", "1600", "1800", "2000", "2200", "2500"];
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const state = {
  fen: null, variant: null, line: [], san: [], ply: 0, flip: false,
  db: "lichess", speeds: [], ratings: [], selected: null, legal: [], game: null,
};
let generation = 0;

function $(id) { return document.getElementById(id); }
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function list(value) { return value ? value.split(",").filter((x) => x) : []; }

function readUrl() {
  const q = new URLSearchParams(location.search);
  state.fen = q.get("fen") || null;
  state.variant = q.get("variant") || null;
  state.line = list(q.get("play"));
  state.san = [];
  state.ply = state.line.length;
  state.db = q.get("db") === "masters" ? "masters" : "lichess";
  state.speeds = list(q.get("speeds")).filter((s) => SPEEDS.includes(s));
  state.ratings = list(q.get("ratings")).filter((r) => RATINGS.includes(r));
}

function positionQuery(ply) {
  const q = new URLSearchParams();
  if (state.fen) q.set("fen", state.fen);
  if (state.variant) q.set("variant", state.variant);
  const play = state.line.slice(0, ply).join(",");
  if (play) q.set("play", play);
  return q;
}

function writeUrl() {
  const q = positionQuery(state.ply);
  if (state.db === "masters") q.set("db", "masters");
  if (state.speeds.length) q.set("speeds", state.speeds.join(","));
  if (state.ratings.length) q.set("ratings", state.ratings.join(","));
  const search = q.toString().replace(/%2C/g, ",").replace(/%2F/g, "/");
  history.replaceState(null, "", search ? "?" + search : location.pathname);
}

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// Draws the position shown and asks the explorer about it; answers to older requests are
// dropped.
async function update() {
  const mine = ++generation;
  writeUrl();
  state.selected = null;
  const q = positionQuery(state.ply);
  const explorer = new URLSearchParams(q);
  if (state.db === "lichess") {
    if (state.speeds.length) explorer.set("speeds", state.speeds.join(","));
    if (state.ratings.length) explorer.set("ratings", state.ratings.join(","));
  }
  q.set("flip", state.flip ? "1" : "0");
  try {
    const [pos, answer] = await Promise.all([
      getJson("/tabia/position?" + q),
      getJson("/" + state.db + "?" + explorer),
    ]);
    if (mine !== generation) return;
    $("error").textContent = "";
    pos.played.forEach((m, i) => { state.san[i] = m.san; });
    state.legal = pos.legal;
    drawBoard(pos);
    drawExplorer(answer);
  } catch (err) {
    if (mine !== generation) return;
    $("error").textContent = err.message;
  }
  drawMoveList();
  document.body.dataset.ready = String(mine);
}

function squareName(index) {
  // index 0 is the top left corner.
  const row = Math.floor(index / 8), col = index % 8;
  const file = state.flip ? 7 - col : col, rank = state.flip ? row : 7 - row;
  return "abcdefgh"[file] + (rank + 1);
}

function drawBoard(pos) {
  $("svg").innerHTML = pos.board;
  $("fen-input").value = pos.fen;
  const squares = $("squares");
  if (!squares.children.length) {
    for (let i = 0; i < 64; i++) {
      const sq = el("div", "sq");
      sq.addEventListener("pointerdown", (e) => { e.preventDefault(); press(sq.dataset.square); });
      sq.addEventListener("pointerup", () => release(sq.dataset.square));
      squares.appendChild(sq);
    }
  }
  [...squares.children].forEach((sq, i) => { sq.dataset.square = squareName(i); });
  drawSelection();
}

function drawSelection() {
  const targets = new Set(state.selected
    ? state.legal.filter((m) => m.uci.startsWith(state.selected)).map((m) => m.uci.slice(2, 4))
    : []);
  for (const sq of $("squares").children) {
    sq.classList.toggle("selected", sq.dataset.square === state.selected);
    sq.classList.toggle("target", targets.has(sq.dataset.square));
  }
}

// A click (or the start of a drag) on a square: select a piece, or move the selected one.
function press(square) {
  if (state.selected && state.selected !== square && tryMove(state.selected, square)) return;
  const movable = state.legal.some((m) => m.uci.startsWith(square));
  state.selected = movable && state.selected !== square ? square : null;
  drawSelection();
}

// The end of a drag on another square.
function release(square) {
  if (state.selected && state.selected !== square) tryMove(state.selected, square);
}

function tryMove(from, to) {
  const uci = from + to;
  // Promotion to a queen unless another piece is the only choice.
  const m = state.legal.find((x) => x.uci === uci) ||
    state.legal.find((x) => x.uci === uci + "q") ||
    state.legal.find((x) => x.uci.startsWith(uci));
  if (!m) return false;
  play(m.uci, m.san);
  return true;
}

function play(uci, san) {
  if (state.line[state.ply] === uci) {
    state.ply++;
  } else {
    state.line = state.line.slice(0, state.ply);
    state.san = state.san.slice(0, state.ply);
    state.line.push(uci);
    state.san.push(san);
    state.ply++;
    state.game = null;
    drawGame();
  }
  update();
}

function go(ply) {
  ply = Math.max(0, Math.min(state.line.length, ply));
  if (ply === state.ply) return;
  state.ply = ply;
  update();
}

function moveNumber(ply) {
  const fields = (state.fen || START).split(" ");
  const black = fields[1] === "b";
  const n = parseInt(fields[5] || "1", 10) || 1;
  const at = ply + (black ? 1 : 0);
  return { number: n + Math.floor(at / 2), white: at % 2 === 0 };
}

function drawMoveList() {
  const box = $("movelist");
  box.textContent = "";
  state.line.forEach((uci, i) => {
    const { number, white } = moveNumber(i);
    if (white || i === 0) box.appendChild(el("span", "num", number + (white ? "." : "...")));
    const cls = "ply" + (i + 1 === state.ply ? " current" : i >= state.ply ? " future" : "");
    const span = el("span", cls, state.san[i] || uci);
    span.dataset.ply = String(i + 1);
    span.onclick = () => go(i + 1);
    box.appendChild(span);
  });
}

function bar(white, draws, black) {
  const total = white + draws + black;
  const b = el("div", "bar");
  if (!total) return b;
  for (const [cls, v] of [["w", white], ["d", draws], ["b", black]]) {
    if (!v) continue;
    const pct = (100 * v) / total;
    const s = el("span", cls, pct >= 12 ? Math.round(pct) + "%" : "");
    s.style.width = pct + "%";
    b.appendChild(s);
  }
  b.title = "white " + white + ", draws " + draws + ", black " + black;
  return b;
}

function row(cells, cls) {
  const tr = el("tr", cls);
  for (const c of cells) {
    const td = el("td", c.cls);
    if (c.node) td.appendChild(c.node); else td.textContent = c.text;
    tr.appendChild(td);
  }
  return tr;
}

function drawExplorer(answer) {
  $("opening").textContent = answer.opening ? answer.opening.eco + " " + answer.opening.name : "\u00a0";
  const total = answer.white + answer.draws + answer.black;
  const body = $("moves");
  body.textContent = "";
  for (const m of answer.moves) {
    const games = m.white + m.draws + m.black;
    const tr = row([
      { cls: "san", text: m.san },
      { text: games.toLocaleString("en") },
      { text: total ? ((100 * games) / total).toFixed(0) + "%" : "-" },
      { cls: "bar-cell", node: bar(m.white, m.draws, m.black) },
      { text: m.averageRating ? String(m.averageRating) : "-" },
    ], "move");
    tr.dataset.uci = m.uci;
    tr.dataset.games = String(games);
    tr.onclick = () => play(m.uci, m.san);
    body.appendChild(tr);
  }
  const foot = $("total");
  foot.textContent = "";
  foot.appendChild(row([
    { cls: "san", text: "\u03a3" },
    { text: total.toLocaleString("en") },
    { text: total ? "100%" : "-" },
    { cls: "bar-cell", node: bar(answer.white, answer.draws, answer.black) },
    { text: answer.games + " reached" },
  ]));
  drawGames($("top-games"), answer.topGames || []);
  drawGames($("recent-games"), answer.recentGames || []);
}

function player(p) { return (p.name || "?") + (p.rating ? " (" + p.rating + ")" : ""); }

function drawGames(body, games) {
  body.textContent = "";
  if (!games.length) body.appendChild(row([{ cls: "player", text: "none" }]));
  for (const g of games) {
    const result = g.winner === "white" ? "1-0" : g.winner === "black" ? "0-1" : "\u00bd";
    const tr = row([
      { cls: "player", text: player(g.white) },
      { cls: "player", text: player(g.black) },
      { text: result },
      { text: g.month || (g.year ? String(g.year) : "") },
    ], "game");
    tr.dataset.id = g.id;
    tr.title = "step through this game";
    tr.onclick = () => loadGame(g.id);
    body.appendChild(tr);
  }
}

// Loads a game's moves as the line, at the ply where it reached the position shown.
async function loadGame(id) {
  try {
    const [game, pos] = await Promise.all([
      getJson("/tabia/game/" + encodeURIComponent(id)),
      getJson("/tabia/position?" + positionQuery(state.ply)),
    ]);
    const here = pos.fen.split(" ").slice(0, 4).join(" ");
    const at = game.epd.indexOf(here);
    state.fen = game.start === START ? null : game.start;
    state.variant = game.variant === "Standard" ? null : game.variant;
    state.line = game.uci;
    state.san = game.san;
    state.ply = at < 0 ? 0 : at;
    state.game = game;
    drawGame();
    update();
  } catch (err) {
    $("error").textContent = err.message;
  }
}

function drawGame() {
  const box = $("game");
  box.textContent = "";
  const g = state.game;
  if (!g) return;
  box.appendChild(document.createTextNode(g.white + " \u2013 " + g.black + ", " + g.result +
    (g.event ? ", " + g.event : "") + (g.date ? ", " + g.date : "") + " "));
  const a = el("a", "", "PGN");
  a.href = "/game/" + g.id + ".pgn";
  box.appendChild(a);
}

function drawFilters() {
  for (const [box, values, chosen] of [["speeds", SPEEDS, state.speeds], ["ratings", RATINGS, state.ratings]]) {
    const span = $(box);
    span.textContent = "";
    span.classList.toggle("disabled", state.db === "masters");
    for (const v of values) {
      const label = el("label");
      const input = el("input");
      input.type = "checkbox";
      input.value = v;
      input.checked = chosen.includes(v);
      input.disabled = state.db === "masters";
      input.onchange = () => {
        const now = [...span.querySelectorAll("input:checked")].map((i) => i.value);
        if (box === "speeds") state.speeds = now; else state.ratings = now;
        update();
      };
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + v));
      span.appendChild(label);
    }
  }
  for (const r of document.querySelectorAll("input[name=db]")) r.checked = r.value === state.db;
}

function init() {
  readUrl();
  drawFilters();
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(state.ply - 1);
  $("forward").onclick = () => go(state.ply + 1);
  $("last").onclick = () => go(state.line.length);
  $("flip").onclick = () => { state.flip = !state.flip; update(); };
  $("fen-form").onsubmit = (e) => {
    e.preventDefault();
    const fen = $("fen-input").value.trim();
    state.fen = fen && fen !== START ? fen : null;
    state.line = [];
    state.san = [];
    state.ply = 0;
    state.game = null;
    drawGame();
    update();
  };
  for (const r of document.querySelectorAll("input[name=db]")) {
    r.onchange = () => { state.db = r.value; drawFilters(); update(); };
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.line.length };
    if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  });
  getJson("/tabia/info").then((info) => {
    $("info").textContent = info.games.toLocaleString("en") + " games, " +
      info.positions.toLocaleString("en") + " positions";
  }).catch(() => {});
  update();
}

init();
