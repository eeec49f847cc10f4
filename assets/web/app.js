// kpk explorer: the board, the probe and map views and play against perfect defence.
// Everything shown comes from the JSON API (/api/probe, /api/map) of `kpk serve`.
"use strict";
const S = 40, M = 16;                      // square size and coordinate margin (SVG units)
const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";
const state = { pieces: {}, side: "w", mode: "explore", piece: "K", cursor: 0, sel: null,
  probe: null, map: null, start: null, gameOver: null };
const $ = (id) => document.getElementById(id);
const sqName = (i) => FILES[i % 8] + (Math.floor(i / 8) + 1);
const sqIndex = (n) => FILES.indexOf(n[0]) + 8 * (Number(n[1]) - 1);

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// ---- FEN <-> pieces ----
function toFen() {
  let rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = "", empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = state.pieces[r * 8 + f];
      if (p) { if (empty) row += empty; empty = 0; row += p; } else empty++;
    }
    rows.push(row + (empty ? empty : ""));
  }
  return rows.join("/") + " " + state.side + " - - 0 1";
}
function fromFen(fen) {
  const fields = fen.trim().split(/\s+/);
  const pieces = {};
  const ranks = (fields[0] || "").split("/");
  ranks.forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (/[1-8]/.test(c)) f += Number(c);
      else { if (f < 8 && i < 8) pieces[(7 - i) * 8 + f] = c; f++; }
    }
  });
  state.pieces = pieces;
  state.side = fields[1] === "b" ? "b" : "w";
}

// ---- drawing ----
function drawBoard() {
  const b = $("board");
  b.replaceChildren();
  const tints = mapTints();
  for (let i = 0; i < 64; i++) {
    const f = i % 8, r = Math.floor(i / 8), x = M + f * S, y = (7 - r) * S;
    const dark = (f + r) % 2 === 0;
    el("rect", { x, y, width: S, height: S, fill: SQUARE_COLOURS[dark ? 1 : 0], "data-sq": sqName(i) }, b);
    if (tints[i]) el("rect", { x, y, width: S, height: S, fill: tints[i], "pointer-events": "none" }, b);
    const p = state.pieces[i];
    if (p) {
      const id = "#piece-" + (p === p.toUpperCase() ? "w" : "b") + p.toUpperCase();
      el("use", { href: id, x, y, width: S, height: S, "pointer-events": "none" }, b);
    }
    if (state.sel === i) el("rect", { class: "sel", x: x + 2, y: y + 2, width: S - 4, height: S - 4 }, b);
    if (document.activeElement === b && state.cursor === i)
      el("rect", { class: "cursor", x: x + 1.5, y: y + 1.5, width: S - 3, height: S - 3 }, b);
  }
  for (let i = 0; i < 8; i++) {
    el("text", { x: M + i * S + S / 2, y: 8 * S + 12, "text-anchor": "middle" }, b).textContent = FILES[i];
    el("text", { x: M / 2, y: (7 - i) * S + S / 2 + 4, "text-anchor": "middle" }, b).textContent = i + 1;
  }
}

// ---- map mode: a tint per square ----
function mapTints() {
  const t = {};
  if (state.mode !== "map" || !state.map) return t;
  const by = $("mapby").value;
  for (const e of state.map[$("mapking").value]) {
    if (!e.legal) continue;
    const i = sqIndex(e.square);
    if (by === "result") t[i] = e.result === "win" ? "rgba(30,150,60,0.55)" : "rgba(60,80,170,0.45)";
    else {
      const errs = by === "hybrid" ? e.hybrid && e.hybrid.errs : e.nets[Number(by)].errs;
      t[i] = errs ? "rgba(210,20,20,0.65)" : "rgba(30,150,60,0.25)";
    }
  }
  return t;
}
function mapLegend() {
  const by = $("mapby").value, sw = (c) => `<span class="swatch" style="background:${c}"></span>`;
  $("maplegend").innerHTML = by === "result"
    ? `${sw("rgba(30,150,60,0.55)")}win ${sw("rgba(60,80,170,0.45)")}draw (untinted: illegal)`
    : `${sw("rgba(210,20,20,0.65)")}wrong ${sw("rgba(30,150,60,0.25)")}right (untinted: illegal)`;
}

// ---- the API ----
async function api(path, fen) {
  const res = await fetch(`/api/${path}?fen=${encodeURIComponent(fen)}`);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

async function refresh() {
  const fen = toFen();
  $("fen").value = fen;
  $("side").value = state.side;
  history.replaceState(null, "", "#fen=" + encodeURIComponent(fen));
  drawBoard();
  try {
    state.probe = await api("probe", fen);
    $("error").textContent = "";
    if (state.mode === "map") state.map = await api("map", fen);
  } catch (e) {
    state.probe = null; state.map = null;
    $("error").textContent = e.message;
  }
  showProbe();
  drawBoard();
  if (state.mode === "play") playReply();
}

function showProbe() {
  const p = state.probe;
  const tbody = $("moves").tBodies[0], nets = $("nets").tBodies[0];
  tbody.replaceChildren(); nets.replaceChildren(); $("features").replaceChildren();
  $("result").className = p ? p.result : "";
  $("result").textContent = p ? p.result : "–";
  $("dtcbox").hidden = !(p && p.dtc !== null);
  $("dtc").textContent = p && p.dtc !== null ? p.dtc : "–";
  $("tomove").textContent = p ? `(${p.side} to move; ${p.pawn_side} has the pawn)` : "";
  if (!p) return;
  if (p.moves.length === 0) tbody.insertRow().insertCell().textContent = "no legal moves: stalemate";
  for (const m of p.moves) {
    const tr = tbody.insertRow();
    tr.className = m.result + (m.best ? " best" : "");
    tr.dataset.san = m.san; tr.dataset.uci = m.uci;
    const b = document.createElement("button");
    b.type = "button"; b.textContent = m.san; b.onclick = () => playMove(m);
    tr.insertCell().appendChild(b);
    tr.insertCell().textContent = m.result;
    const d = tr.insertCell(); d.className = "num"; d.textContent = m.dtc === null ? "–" : m.dtc;
    tr.insertCell().textContent = m.note;
  }
  const row = (name, outputs, answer, right) => {
    const tr = nets.insertRow();
    tr.insertCell().textContent = name;
    tr.insertCell().textContent = outputs;
    tr.insertCell().textContent = answer;
    const c = tr.insertCell(); c.textContent = right ? "right" : "wrong"; c.className = right ? "right" : "wrong";
  };
  if (p.hybrid) row("hybrid (models/kpk.hybrid)", "source: " + p.hybrid.source, p.hybrid.result, p.hybrid.result === p.result);
  for (const n of p.nets) row(n.name, n.outputs.map((y) => y.toFixed(3)).join(", "), n.class, n.right);
  if (!p.hybrid && p.nets.length === 0) nets.insertRow().insertCell().textContent = "none loaded (kpk serve --model FILE --net WEIGHTS.json)";
  let level = -1;
  for (const f of TABLE4) {
    if (f.level !== level) {
      level = f.level;
      const h = document.createElement("h3"); h.textContent = `Level ${level}`; $("features").appendChild(h);
    }
    const d = document.createElement("div");
    d.title = `${f.code}: ${f.description}`;
    d.innerHTML = `<span>x${f.x} ${f.name}</span>`;
    const v = document.createElement("span"); v.className = "v"; v.id = "x" + f.x; v.textContent = p.features["x" + f.x];
    d.appendChild(v); $("features").appendChild(d);
  }
}

// ---- moves and play ----
function playMove(m) {
  if (state.mode === "play" && state.probe && state.probe.side !== state.probe.pawn_side) return;
  if (m.fen === null) { endGame(`${m.san}: ${m.result} (${m.note || "game over"})`); return; }
  fromFen(m.fen); state.sel = null;
  refresh();
}
function endGame(text) {
  state.gameOver = text;
  $("playstatus").textContent = "Game over: " + text;
}
// Perfect defence: the lone king plays the probe's `perfect` move (kpk::play::perfect_move).
function playReply() {
  const p = state.probe;
  if (!p || state.gameOver) return;
  if (p.moves.length === 0) { endGame("stalemate: draw"); return; }
  if (p.side === p.pawn_side) { $("playstatus").textContent = `Your move (${p.side}); ${p.result}` + (p.dtc !== null ? `, DTC ${p.dtc}` : ""); return; }
  const best = p.moves.find((m) => m.uci === p.perfect);
  $("playstatus").textContent = `Defence plays ${best.san}`;
  setTimeout(() => {
    if (best.fen === null) endGame(`${best.san}: ${best.result} (${best.note})`);
    else { fromFen(best.fen); refresh(); }
  }, 400);
}

// ---- board input: click, drag, keyboard ----
function squareAt(ev) {
  const b = $("board"), pt = b.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const q = pt.matrixTransform(b.getScreenCTM().inverse());
  const f = Math.floor((q.x - M) / S), r = 7 - Math.floor(q.y / S);
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : null;
}
function place(i) {
  const p = state.piece;
  if (!p) { delete state.pieces[i]; return; }
  // One of each king; one pawn of either colour.
  for (const k in state.pieces) {
    const q = state.pieces[k];
    if (q === p || (p.toLowerCase() === "p" && q.toLowerCase() === "p")) delete state.pieces[k];
  }
  state.pieces[i] = p;
}
function movePiece(from, to) {
  if (from === to) return false;
  if (state.mode === "play") {
    const p = state.probe, uci = sqName(from) + sqName(to);
    const m = p && p.moves.find((m) => m.uci === uci || m.uci === uci + "q");
    if (m) playMove(m); else $("error").textContent = `${uci} is not a legal move here`;
    return false;
  }
  if (state.mode === "explore" || state.mode === "map") {
    state.pieces[to] = state.pieces[from]; delete state.pieces[from];
    return true;
  }
  return false;
}
function activate(i) {
  if (state.sel !== null) {
    const from = state.sel; state.sel = null;
    if (from !== i && movePiece(from, i)) return refresh();
    return drawBoard();
  }
  if (state.mode === "play") { if (state.pieces[i]) { state.sel = i; drawBoard(); } return; }
  if (state.pieces[i] && state.piece === state.pieces[i]) { state.sel = i; return drawBoard(); }
  place(i); refresh();
}
let drag = null;
function boardEvents() {
  const b = $("board");
  b.addEventListener("pointerdown", (ev) => { const i = squareAt(ev); if (i !== null && state.pieces[i]) drag = i; });
  b.addEventListener("pointerup", (ev) => {
    const i = squareAt(ev);
    if (i === null) { drag = null; return; }
    state.cursor = i;
    if (drag !== null && drag !== i) { const from = drag; drag = null; if (movePiece(from, i)) refresh(); return; }
    drag = null; activate(i);
  });
  b.addEventListener("focus", drawBoard); b.addEventListener("blur", drawBoard);
  b.addEventListener("keydown", (ev) => {
    const c = state.cursor, f = c % 8, r = Math.floor(c / 8);
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[ev.key]) {
      const [df, dr] = moves[ev.key], nf = f + df, nr = r + dr;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) state.cursor = nr * 8 + nf;
      drawBoard();
    } else if (ev.key === "Enter" || ev.key === " ") activate(c);
    else if (ev.key === "Delete" || ev.key === "Backspace") { if (state.mode !== "play") { delete state.pieces[c]; refresh(); } }
    else if ("01234".includes(ev.key)) { choosePiece(["", "K", "P", "k", "p"][Number(ev.key)]); }
    else return;
    ev.preventDefault();
  });
}
function choosePiece(p) {
  state.piece = p;
  for (const b of $("palette").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.piece === p));
}
function setMode(mode) {
  state.mode = mode; state.sel = null; state.gameOver = null;
  for (const b of $("modes").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
  $("maptools").hidden = mode !== "map";
  $("playtools").hidden = mode !== "play";
  $("palette").hidden = mode === "play";
  if (mode === "play") { state.start = toFen(); $("playstatus").textContent = ""; }
  if (mode === "map") {
    const by = $("mapby");
    by.replaceChildren(new Option("result", "result"));
    if (state.probe && state.probe.hybrid) by.add(new Option("hybrid's errors", "hybrid"));
    (state.probe ? state.probe.nets : []).forEach((n, i) => by.add(new Option(`errors of ${n.name}`, String(i))));
    mapLegend();
  }
  refresh();
}

function loadHash() {
  const m = location.hash.match(/fen=([^&]*)/);
  fromFen(m ? decodeURIComponent(m[1]) : "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
}
function init() {
  boardEvents();
  for (const b of $("palette").querySelectorAll("button")) b.onclick = () => choosePiece(b.dataset.piece);
  for (const b of $("modes").querySelectorAll("button")) b.onclick = () => setMode(b.dataset.mode);
  $("fenform").onsubmit = (ev) => { ev.preventDefault(); fromFen($("fen").value); state.gameOver = null; refresh(); };
  $("side").onchange = () => { state.side = $("side").value; refresh(); };
  $("mapking").onchange = drawBoard;
  $("mapby").onchange = () => { mapLegend(); drawBoard(); };
  $("restart").onclick = () => { fromFen(state.start); state.gameOver = null; $("playstatus").textContent = ""; refresh(); };
  window.addEventListener("hashchange", () => { const before = toFen(); loadHash(); if (toFen() !== before) refresh(); });
  loadHash();
  refresh();
}
init();
