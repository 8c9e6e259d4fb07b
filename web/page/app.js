/*
 * The page: a board, a game against Shuai or an analysis, and the engine's
 * thoughts. The rules (legal moves, check, the game's end, Chinese
 * notation) come from the engine's own rules code on this thread
 * (ShuaiRules); the engine searches in a Web Worker (Shuai). A game file
 * (XQF, PGN, DhtmlXQ) is read by the engine's own readers, stepped through,
 * and reviewed by a second engine worker, judged and drawn by the code of
 * `shuai review` (ShuaiRules.games, ShuaiRules.review). GPL-3.0-or-later.
 */
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 60;
  const MARGIN = 40;
  const NAMES = {
    K: "帅", A: "仕", B: "相", R: "俥", N: "傌", C: "炮", P: "兵",
    k: "将", a: "士", b: "象", r: "車", n: "馬", c: "砲", p: "卒",
  };
  const FILES = "abcdefghi";

  const state = {
    startFen: "startpos",
    moves: [], // ICCS
    desc: null, // the rules' description of the current position
    flipped: false,
    selected: null, // "h2"
    drag: null,
    pending: [], // searches in flight, oldest first: { kind, token }
    token: 0,
    analysing: false,
    lastInfo: null,
    engineReady: false,
    file: null, // a game file read: { name, format, games }
    game: null, // the game shown: { index, title, start, moves, comment, problems, review, searches }
    review: null, // the review running: { token, engine, done, total, started }
  };
  let reviewToken = 0;
  let engine = null;
  let rules = null;

  function status(text) {
    $("status").textContent = text;
  }

  /* --- rules ---------------------------------------------------------- */

  function ruleBook() {
    return $("rules").value;
  }

  function describe() {
    state.desc = rules.describe(state.startFen, state.moves, ruleBook());
    return state.desc;
  }

  function positionCommand() {
    const setup = state.startFen === "startpos" ? "startpos" : "fen " + state.startFen;
    return "position " + setup + (state.moves.length ? " moves " + state.moves.join(" ") : "");
  }

  function humanSide() {
    const mode = $("mode").value;
    return mode === "analyse" ? "both" : mode;
  }

  function enginesTurn() {
    const side = humanSide();
    return side !== "both" && state.desc && !state.desc.end && state.desc.turn !== side;
  }

  /* --- board ---------------------------------------------------------- */

  function pointXY(file, rank) {
    const f = state.flipped ? 8 - file : file;
    const r = state.flipped ? rank : 9 - rank;
    return [MARGIN + f * CELL, MARGIN + r * CELL];
  }

  function squareName(file, rank) {
    return FILES[file] + rank;
  }

  function parseSquare(name) {
    return [FILES.indexOf(name[0]), Number(name.slice(1))];
  }

  /* The pieces of a FEN's board field: { "e0": "K", … }. */
  function piecesOf(fen) {
    const rows = fen.split(" ")[0].split("/");
    const out = {};
    rows.forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else {
          out[squareName(file, 9 - i)] = ch;
          file += 1;
        }
      }
    });
    return out;
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function drawGrid(svg) {
    el("rect", { class: "board-bg", x: 0, y: 0, width: 560, height: 620, rx: 8 }, svg);
    const g = el("g", { class: "grid" }, svg);
    const [x0, y0] = [MARGIN, MARGIN];
    const [x1, y1] = [MARGIN + 8 * CELL, MARGIN + 9 * CELL];
    for (let r = 0; r < 10; r++) el("line", { x1: x0, y1: y0 + r * CELL, x2: x1, y2: y0 + r * CELL }, g);
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) el("line", { x1: x0 + f * CELL, y1: y0, x2: x0 + f * CELL, y2: y1 }, g);
      else {
        el("line", { x1: x0 + f * CELL, y1: y0, x2: x0 + f * CELL, y2: y0 + 4 * CELL }, g);
        el("line", { x1: x0 + f * CELL, y1: y0 + 5 * CELL, x2: x0 + f * CELL, y2: y1 }, g);
      }
    }
    // The palaces' diagonals.
    for (const top of [0, 7]) {
      const ya = y0 + top * CELL;
      el("line", { x1: x0 + 3 * CELL, y1: ya, x2: x0 + 5 * CELL, y2: ya + 2 * CELL }, g);
      el("line", { x1: x0 + 5 * CELL, y1: ya, x2: x0 + 3 * CELL, y2: ya + 2 * CELL }, g);
    }
    el("rect", { x: x0 - 5, y: y0 - 5, width: 8 * CELL + 10, height: 9 * CELL + 10, fill: "none", stroke: "#5a3a1a", "stroke-width": 3 }, svg);
    const left = el("text", { class: "river", x: x0 + 1.5 * CELL, y: y0 + 4.5 * CELL + 10, "text-anchor": "middle" }, svg);
    left.textContent = "楚 河";
    const right = el("text", { class: "river", x: x0 + 6.5 * CELL, y: y0 + 4.5 * CELL + 10, "text-anchor": "middle" }, svg);
    right.textContent = "漢 界";
    for (let f = 0; f < 9; f++) {
      const [x] = pointXY(f, 0);
      const bottom = el("text", { class: "coord", x, y: 620 - 3, "text-anchor": "middle" }, svg);
      bottom.textContent = FILES[f];
    }
    for (let r = 0; r < 10; r++) {
      const [, y] = pointXY(0, r);
      const t = el("text", { class: "coord", x: 2, y: y + 4 }, svg);
      t.textContent = String(r);
    }
  }

  function render() {
    const svg = $("board");
    svg.textContent = "";
    drawGrid(svg);
    const desc = state.desc;
    if (!desc) return;
    const last = state.moves.length ? desc.moves[desc.moves.length - 1] : null;
    if (last) {
      for (const sq of [last.iccs.slice(0, 2), last.iccs.slice(2, 4)]) {
        const [x, y] = pointXY(...parseSquare(sq));
        el("rect", { class: "last", x: x - 28, y: y - 28, width: 56, height: 56, rx: 6 }, svg);
      }
    }
    const pieces = piecesOf(desc.fen);
    const kingInCheck = desc.check ? (desc.turn === "red" ? "K" : "k") : null;
    for (const [sq, ch] of Object.entries(pieces)) {
      const [x, y] = pointXY(...parseSquare(sq));
      const red = ch === ch.toUpperCase();
      const cls = ["piece", red ? "red" : "black"];
      if (state.selected === sq) cls.push("selected");
      if (ch === kingInCheck) cls.push("check");
      if (state.drag && state.drag.from === sq) cls.push("dragging");
      const g = el("g", { class: cls.join(" "), "data-square": sq, transform: `translate(${x},${y})` }, svg);
      el("circle", { class: "disc", r: 26 }, g);
      el("circle", { class: "ring", r: 21 }, g);
      const t = el("text", { y: 1 }, g);
      t.textContent = NAMES[ch];
      if (state.drag && state.drag.from === sq) state.drag.node = g;
    }
    if (state.selected) {
      for (const m of desc.legal) {
        if (m.slice(0, 2) !== state.selected) continue;
        const [x, y] = pointXY(...parseSquare(m.slice(2, 4)));
        el("circle", { class: "target", cx: x, cy: y, r: 9 }, svg);
      }
    }
    if (state.drag && state.drag.node) {
      svg.appendChild(state.drag.node); // on top
      state.drag.node.setAttribute("transform", `translate(${state.drag.x},${state.drag.y})`);
    }
    renderMoves();
    renderGameView();
  }

  function renderMoves() {
    const list = $("moves");
    list.textContent = "";
    list.classList.toggle("game", onGameLine());
    if (onGameLine()) {
      renderGameMoves(list);
      return;
    }
    const moves = state.desc ? state.desc.moves : [];
    const blackFirst = state.desc && state.startFen !== "startpos" && state.startFen.split(" ")[1] === "b";
    let item = null;
    moves.forEach((m, i) => {
      const redMove = blackFirst ? i % 2 === 1 : i % 2 === 0;
      if (redMove || item === null) {
        item = document.createElement("li");
        list.appendChild(item);
        if (!redMove) item.append("… ");
      }
      const span = document.createElement("span");
      span.textContent = m.chinese + " ";
      span.title = m.iccs;
      item.appendChild(span);
    });
    list.scrollTop = list.scrollHeight;
  }

  /* The board point under a pointer event, or null. */
  function pointAt(event) {
    const svg = $("board");
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const f = Math.round((p.x - MARGIN) / CELL);
    const r = Math.round((p.y - MARGIN) / CELL);
    if (f < 0 || f > 8 || r < 0 || r > 9) return null;
    const file = state.flipped ? 8 - f : f;
    const rank = state.flipped ? r : 9 - r;
    return { sq: squareName(file, rank), x: p.x, y: p.y };
  }

  function mayMovePieceOn(sq) {
    const desc = state.desc;
    if (!desc || desc.end || enginesTurnBusy()) return false;
    const side = humanSide();
    if (side !== "both" && desc.turn !== side) return false;
    return desc.legal.some((m) => m.slice(0, 2) === sq);
  }

  function enginesTurnBusy() {
    return enginesTurn() || state.pending.some((p) => p.kind === "play");
  }

  function tryMove(from, to) {
    const move = from + to;
    if (!state.desc.legal.includes(move)) return false;
    play(move);
    return true;
  }

  function onPointerDown(event) {
    const at = pointAt(event);
    if (!at) return;
    if (state.selected && state.selected !== at.sq && tryMove(state.selected, at.sq)) return;
    if (mayMovePieceOn(at.sq)) {
      state.selected = at.sq;
      state.drag = { from: at.sq, x: at.x, y: at.y, moved: false, pointer: event.pointerId };
      $("board").setPointerCapture(event.pointerId);
    } else {
      state.selected = null;
    }
    render();
  }

  function onPointerMove(event) {
    if (!state.drag || event.pointerId !== state.drag.pointer) return;
    const at = pointAt(event) || {};
    const svg = $("board");
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    state.drag.x = p.x;
    state.drag.y = p.y;
    state.drag.moved = state.drag.moved || at.sq !== state.drag.from;
    if (state.drag.node) state.drag.node.setAttribute("transform", `translate(${p.x},${p.y})`);
  }

  function onPointerUp(event) {
    if (!state.drag || event.pointerId !== state.drag.pointer) return;
    const drag = state.drag;
    state.drag = null;
    const at = pointAt(event);
    if (drag.moved && at && at.sq !== drag.from) {
      if (!tryMove(drag.from, at.sq)) render();
      return;
    }
    render(); // a click: the piece stays selected
  }

  /* --- game ----------------------------------------------------------- */

  function play(move) {
    state.moves.push(move);
    state.selected = null;
    afterChange();
  }

  function afterChange() {
    const desc = describe();
    $("fen").value = desc.fen;
    render();
    showEnd();
    cancelSearches();
    if (desc.end) return;
    if (enginesTurn()) startEngineMove();
    else if (state.analysing) startAnalysis();
  }

  function showEnd() {
    const desc = state.desc;
    if (desc.end) {
      const who = desc.end.winner === "red" ? "Red wins" : desc.end.winner === "black" ? "Black wins" : "Draw";
      status(`${who}: ${desc.end.reason}`);
    } else if (state.engineReady) {
      const turn = desc.turn === "red" ? "Red (红)" : "Black (黑)";
      status(`${turn} to move${desc.check ? ", in check" : ""}.`);
    }
  }

  /* Stops what the engine is doing; its answers will be ignored. */
  function cancelSearches() {
    const running = state.pending.some((p) => !p.cancelled);
    for (const p of state.pending) p.cancelled = true;
    if (running && engine) engine.stop();
  }

  function search(kind, goArgs) {
    if (!engine) return;
    const job = { kind, token: ++state.token, cancelled: false, setup: positionCommand() };
    state.pending.push(job);
    state.lastInfo = null;
    engine.send("setoption name Skill Level value " + (kind === "play" ? $("level").value : "20"));
    engine.send(job.setup);
    engine.send("go " + goArgs);
  }

  function startEngineMove() {
    status("Shuai is thinking…");
    search("play", "movetime " + $("movetime").value);
  }

  function startAnalysis() {
    search("analysis", "infinite");
  }

  function onBestMove(line) {
    const job = state.pending.shift();
    if (!job || job.cancelled || job.kind !== "play") return;
    const move = line.split(/\s+/)[1];
    if (job.setup !== positionCommand() || !state.desc.legal.includes(move)) return;
    play(move);
  }

  /* --- analysis panel ------------------------------------------------- */

  function onInfo(line) {
    const job = state.pending[0];
    if (!job || job.cancelled) return;
    const words = line.split(/\s+/);
    const get = (key) => {
      const i = words.indexOf(key);
      return i >= 0 ? words[i + 1] : undefined;
    };
    if (get("multipv") && get("multipv") !== "1") return;
    const pvAt = words.indexOf("pv");
    if (pvAt < 0 || get("score") === undefined) return;
    const pv = words.slice(pvAt + 1);
    // Scores are the side to move's; the panel shows Red's view.
    const sign = state.desc.turn === "red" ? 1 : -1;
    let scoreText;
    if (get("score") === "mate") {
      const n = Number(get("mate")) * sign;
      scoreText = (n > 0 ? "Red mates in " : "Black mates in ") + Math.abs(n);
    } else {
      const cp = Number(get("cp")) * sign;
      scoreText = (cp > 0 ? "+" : "") + (cp / 100).toFixed(2);
    }
    $("score").textContent = scoreText;
    $("depth").textContent = "depth " + get("depth") + "/" + (get("seldepth") || "?");
    const nps = Number(get("nps") || 0);
    $("nps").textContent = (nps / 1000).toFixed(0) + " kN/s";
    const wdlAt = words.indexOf("wdl");
    if (wdlAt >= 0) {
      let [w, d, l] = words.slice(wdlAt + 1, wdlAt + 4).map(Number);
      if (sign < 0) [w, l] = [l, w];
      $("wdl").querySelector(".w").style.width = w / 10 + "%";
      $("wdl").querySelector(".d").style.width = d / 10 + "%";
      $("wdl").querySelector(".l").style.width = l / 10 + "%";
      $("wdl-text").textContent = `Red: win ${(w / 10).toFixed(1)}%, draw ${(d / 10).toFixed(1)}%, loss ${(l / 10).toFixed(1)}%`;
    }
    let chinese;
    try {
      chinese = rules.chinese(state.startFen, state.moves, pv);
    } catch (e) {
      chinese = pv;
    }
    $("pv").textContent = chinese.join(" ");
    $("pv").title = pv.join(" ");
    state.lastInfo = { line, pv, chinese };
  }


  /* --- a game from a file --------------------------------------------- */

  /* How many of the shown moves follow the game's main line. */
  function commonPlies() {
    const g = state.game;
    let n = 0;
    while (g && n < state.moves.length && n < g.moves.length && state.moves[n] === g.moves[n].iccs) n += 1;
    return n;
  }

  /* Whether the board shows a position of the game's main line. */
  function onGameLine() {
    return state.game !== null && commonPlies() === state.moves.length;
  }

  /* The move number of ply `ply` (from 1) of the game: "12." or "12…". */
  function moveNumber(ply) {
    const [, side, , , , full] = state.game.start.split(" ");
    const blackFirst = side === "b";
    const n = Number(full || 1) + Math.floor((ply - 1 + (blackFirst ? 1 : 0)) / 2);
    const redMove = (ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0;
    return n + (redMove ? "." : "…");
  }

  function markClass(mark) {
    return { "?!": "mark-inaccuracy", "?": "mark-mistake", "??": "mark-blunder" }[mark] || "";
  }

  function renderGameMoves(list) {
    const g = state.game;
    const current = state.moves.length;
    const judged = g.review ? g.review.moves : [];
    let item = null;
    g.moves.forEach((m, i) => {
      const number = moveNumber(i + 1);
      if (number.endsWith(".") || item === null) {
        item = document.createElement("li");
        item.value = parseInt(number, 10);
        list.appendChild(item);
        if (!number.endsWith(".")) item.append("… ");
      }
      const span = document.createElement("span");
      span.className = "ply" + (current === i + 1 ? " current" : "");
      span.dataset.ply = String(i + 1);
      span.textContent = m.chinese;
      span.title = m.iccs + (m.comment ? ": " + m.comment : "");
      const mark = judged[i] && judged[i].mark;
      if (mark) {
        const b = document.createElement("span");
        b.className = "mark " + markClass(mark);
        b.textContent = mark;
        span.appendChild(b);
      }
      item.appendChild(span);
      item.append(" ");
    });
    const cur = list.querySelector(".current");
    if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
    else list.scrollTop = 0;
  }

  function scoreText(score) {
    if (score.mate !== undefined) return score.mate > 0 ? "Red mates in " + score.mate : score.mate < 0 ? "Black mates in " + -score.mate : "mate";
    return (score.cp > 0 ? "+" : "") + (score.cp / 100).toFixed(2);
  }

  /* The step buttons' label, the move's comments and the graph's cursor. */
  function renderGameView() {
    const g = state.game;
    $("game-view").hidden = !g;
    if (!g) return;
    const on = onGameLine();
    const ply = state.moves.length;
    const label = $("ply-label");
    if (!on) label.textContent = "off the game";
    else if (ply === 0) label.textContent = `start (${g.moves.length} moves)`;
    else label.textContent = `${moveNumber(ply)} ${g.moves[ply - 1].chinese} (${ply}/${g.moves.length})`;
    $("first").disabled = on && ply === 0;
    $("prev").disabled = on && ply === 0;
    $("next").disabled = on && ply === g.moves.length;
    $("last").disabled = on && ply === g.moves.length;
    const box = $("comment");
    box.textContent = "";
    if (on) {
      const text = ply === 0 ? g.comment : g.moves[ply - 1].comment;
      if (text) box.append(text);
      const r = g.review && ply > 0 ? g.review.moves[ply - 1] : null;
      if (r) {
        const line = document.createElement("div");
        line.className = "engine";
        let t = `${r.number} ${r.chinese}${r.mark}: ${scoreText(r.score)}, Red W/D/L ${r.wdl.map((x) => Math.round(x / 10) + "%").join("/")}`;
        if (r.loss > 0) t += `, loses ${(r.loss / 10).toFixed(1)} points of winning chance`;
        if (r.bestChinese) t += `; Shuai prefers ${r.bestChinese} (${scoreText(r.bestScore)})`;
        line.textContent = t;
        if (r.mark) line.classList.add(markClass(r.mark));
        box.appendChild(line);
      }
    }
    updateGraphCursor(on ? ply : null);
  }

  /* The graph's plot: where it lies in the drawing, and how many plies. */
  function graphPlot() {
    const svg = $("graph").querySelector("svg");
    if (!svg) return null;
    const num = (name) => Number(svg.getAttribute("data-" + name));
    return { svg, left: num("left"), width: num("plot-width"), top: num("top"), height: num("plot-height"), plies: num("plies") };
  }

  function updateGraphCursor(ply) {
    const plot = graphPlot();
    if (!plot) return;
    const old = plot.svg.querySelector(".cursor");
    if (old) old.remove();
    if (ply === null || ply > plot.plies || !state.game.review || ply >= state.game.review.redChances.length) return;
    const x = plot.left + (plot.width * ply) / Math.max(1, plot.plies);
    el("line", { class: "cursor", x1: x, y1: plot.top, x2: x, y2: plot.top + plot.height }, plot.svg);
  }

  function renderGraph() {
    const g = state.game;
    $("graph").innerHTML = g && g.review ? g.review.svg : "";
    updateGraphCursor(onGameLine() ? state.moves.length : null);
  }

  function onGraphClick(event) {
    const plot = graphPlot();
    if (!plot || !state.game) return;
    const mark = event.target.closest ? event.target.closest("circle.mark") : null;
    let ply;
    if (mark) ply = Number(mark.getAttribute("data-ply"));
    else {
      const pt = plot.svg.createSVGPoint();
      pt.x = event.clientX;
      pt.y = event.clientY;
      const p = pt.matrixTransform(plot.svg.getScreenCTM().inverse());
      ply = Math.round(((p.x - plot.left) / plot.width) * plot.plies);
    }
    goTo(Math.max(0, Math.min(plot.plies, ply)));
  }

  function showGameError(text) {
    $("game-error").textContent = text || "";
  }

  /* Reads a game file (bytes, or pasted text) with the engine's readers. */
  function readGameFile(input, name) {
    if (!rules) return false;
    let file;
    try {
      file = rules.games(input);
    } catch (e) {
      file = { ok: false, error: String(e && e.message ? e.message : e) };
    }
    if (!file.ok) {
      showGameError(`${name}: ${file.error}`);
      status(`${name} could not be read.`);
      return false;
    }
    if (file.games.length === 0) {
      showGameError(`${name}: no game found in it`);
      return false;
    }
    state.file = { name, format: file.format, games: file.games };
    const choice = $("game-choice");
    choice.textContent = "";
    file.games.forEach((g, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      option.textContent = `${i + 1}. ${g.title} (${g.moves.length} moves)`;
      choice.appendChild(option);
    });
    choice.hidden = file.games.length < 2;
    openGame(0);
    return true;
  }

  function openGame(index) {
    stopReview();
    const g = state.file.games[index];
    state.game = {
      index,
      title: g.title,
      tags: g.tags,
      start: g.start,
      comment: g.comment,
      moves: g.moves,
      problems: g.problems,
      variations: g.variations,
      review: null,
      searches: [],
    };
    $("game-choice").value = String(index);
    showGameError(g.problems.length ? "The game stops early: " + g.problems.join("; ") : "");
    const info = $("game-info");
    info.textContent = "";
    const head = document.createElement("div");
    head.textContent = `${state.file.name} (${state.file.format}, game ${index + 1} of ${state.file.games.length}): ${g.title}`;
    info.appendChild(head);
    const extra = [];
    for (const [k, v] of g.tags) if (!/^(Red|Black|Event|Date|FEN|Format|Game|SetUp)$/i.test(k)) extra.push(`${k}: ${v}`);
    extra.push(`${g.moves.length} moves` + (g.variations ? `, ${g.variations} more in variations (not shown)` : ""));
    const more = document.createElement("div");
    more.textContent = extra.join(" · ");
    info.appendChild(more);
    $("review-summary").textContent = "";
    $("download-pgn").disabled = true;
    $("review-controls").hidden = false;
    state.startFen = g.start;
    state.flipped = false;
    $("mode").value = "analyse";
    cancelSearches();
    if (engine) engine.send("ucinewgame");
    renderGraph();
    goTo(0);
  }

  /* Leaves the game: the board is the player's again. */
  function leaveGame() {
    stopReview();
    state.game = null;
    $("review-controls").hidden = true;
    $("game-info").textContent = "";
    $("review-summary").textContent = "";
    $("download-pgn").disabled = true;
    showGameError("");
    $("graph").textContent = "";
  }

  /* Shows ply `ply` of the game's main line. */
  function goTo(ply) {
    const g = state.game;
    if (!g) return;
    const to = Math.max(0, Math.min(g.moves.length, ply));
    state.moves = g.moves.slice(0, to).map((m) => m.iccs);
    state.selected = null;
    afterChange();
  }

  /* --- the review ------------------------------------------------------ */

  function secondsText(ms) {
    const s = Math.round(ms / 1000);
    return s < 60 ? s + " s" : Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function showReviewProgress() {
    const r = state.review;
    $("review-progress-row").hidden = !r;
    if (!r) return;
    const elapsed = performance.now() - r.started;
    const left = r.done ? (elapsed * (r.total - r.done)) / r.done : 0;
    $("review-progress").max = r.total;
    $("review-progress").value = r.done;
    $("review-progress-text").textContent = `${r.done}/${r.total} positions, ${secondsText(elapsed)}` + (r.done ? `, about ${secondsText(left)} left` : "");
  }

  function showSummary() {
    const g = state.game;
    const box = $("review-summary");
    box.textContent = "";
    $("download-pgn").disabled = !g || !g.review || !g.review.moves.length;
    if (!g || !g.review || !g.review.moves.length) return;
    const t = g.review.thresholds;
    if (g.review.opening) {
      const opening = document.createElement("div");
      opening.id = "review-opening";
      opening.textContent = `Opening (ECCO): ${g.review.opening.code} ${g.review.opening.name}`;
      box.appendChild(opening);
    }
    const name = (side) => {
      const tag = g.tags.find(([k]) => k.toLowerCase() === side);
      return tag ? ` (${tag[1]})` : "";
    };
    for (const side of ["red", "black"]) {
      const s = g.review.summary[side];
      const line = document.createElement("div");
      line.textContent = `${side === "red" ? "Red" : "Black"}${name(side)}: ${s.moves} moves, average loss ${s.averageLoss.toFixed(1)} points of winning chance (${s.averageCpLoss} centipawns); ?! ${s.inaccuracies}, ? ${s.mistakes}, ?? ${s.blunders}`;
      box.appendChild(line);
    }
    const key = document.createElement("div");
    key.className = "engine";
    key.textContent = `Marks by the winning chance (win + half a draw) a move gave away: ?! from ${t.inaccuracy / 10} points, ? from ${t.mistake / 10}, ?? from ${t.blunder / 10}.`;
    box.appendChild(key);
  }

  /* The review's settings as `shuai review` writes them in the PGN's Annotator. */
  function reviewSettings(limit) {
    const [kind, n] = limit.split(" ");
    return (kind === "movetime" ? `${n} ms a position` : `depth ${n}`) + ", 1 thread";
  }

  /* The annotated PGN of the review, saved as a file (the page's download). */
  function downloadPgn() {
    const g = state.game;
    if (!g || !g.review) return;
    const blob = new Blob([g.review.pgn], { type: "application/x-chess-pgn;charset=utf-8" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = (g.title.replace(/[\\/:*?"<>|\s]+/g, "_").replace(/^_+|_+$/g, "") || "game") + "-review.pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  function setReviewButton() {
    $("review").textContent = state.review ? "Stop the review" : state.game && state.game.review ? "Review again" : "Review the game";
    $("review").setAttribute("aria-pressed", String(!!state.review));
  }

  /* Stops a running review; what it judged so far stays shown. */
  function stopReview() {
    const r = state.review;
    if (!r) return;
    reviewToken += 1;
    state.review = null;
    try {
      r.engine.terminate();
    } catch (e) {
      /* gone */
    }
    showReviewProgress();
    setReviewButton();
  }

  /*
   * Searches every position of the game in a second worker (so the board,
   * the steps and the analysis stay free), each as the user chose (a
   * depth or a time), and after each has the game judged again by the
   * engine's review code: marks, the summary and the graph grow as it goes.
   */
  async function startReview() {
    const g = state.game;
    if (!g || typeof Shuai === "undefined") return;
    stopReview();
    const token = ++reviewToken;
    const limit = $("review-limit").value;
    const reviewer = new Shuai();
    const moves = g.moves.map((m) => m.iccs);
    state.review = { token, engine: reviewer, done: 0, total: moves.length + 1, started: performance.now() };
    g.review = null;
    g.searches = [];
    setReviewButton();
    showReviewProgress();
    renderGraph();
    let exact = null;
    let bound = null;
    let pv = [];
    reviewer.onLine((line) => {
      if (!line.startsWith("info ") || !/ score /.test(line) || / multipv [2-9]/.test(line)) return;
      const w = line.split(/\s+/);
      const at = w.indexOf("score");
      const score = w[at + 1] === "mate" ? { mate: Number(w[at + 2]) } : { cp: Number(w[at + 2]) };
      if (/ (lower|upper)bound\b/.test(line)) bound = score;
      else exact = score;
      // The line of the last full-depth result (the annotated PGN's variation).
      const from = w.indexOf("pv");
      if (from >= 0 && !/ (lower|upper)bound\b/.test(line)) pv = w.slice(from + 1).filter(Boolean);
    });
    reviewer.send("uci");
    reviewer.send("setoption name Repetition Rules value " + ruleBook());
    reviewer.send("ucinewgame");
    status(`Reviewing ${g.title}: ${moves.length + 1} positions, ${limit.replace("movetime ", "").replace(/^(\d+)$/, "$1 ms")} each.`);
    try {
      for (let i = 0; i <= moves.length; i++) {
        exact = bound = null;
        pv = [];
        reviewer.send("position fen " + g.start + (i ? " moves " + moves.slice(0, i).join(" ") : ""));
        const best = await reviewer.go(limit);
        if (token !== reviewToken) return;
        const line = best.bestmove && pv[0] === best.bestmove ? pv : best.bestmove ? [best.bestmove] : [];
        g.searches.push(Object.assign({}, exact || bound || { cp: 0 }, { best: best.bestmove, pv: line }));
        state.review.done = i + 1;
        g.review = rules.review(g.start, moves, g.searches, g.title, g.tags, reviewSettings(limit));
        showReviewProgress();
        renderGraph();
        renderMoves();
        renderGameView();
        showSummary();
      }
    } catch (e) {
      if (token !== reviewToken) return;
      stopReview();
      showGameError("The review failed: " + (e && e.message ? e.message : e));
      status("The review failed.");
      return;
    }
    if (token !== reviewToken) return;
    const took = performance.now() - state.review.started;
    stopReview();
    status(`Reviewed ${g.title} in ${secondsText(took)}: click the graph or a move to go there.`);
  }

  /* --- controls ------------------------------------------------------- */

  function bind() {
    const svg = $("board");
    svg.addEventListener("pointerdown", onPointerDown);
    svg.addEventListener("pointermove", onPointerMove);
    svg.addEventListener("pointerup", onPointerUp);
    svg.addEventListener("pointercancel", () => {
      state.drag = null;
      render();
    });
    $("new").onclick = () => {
      leaveGame();
      state.startFen = "startpos";
      state.moves = [];
      cancelSearches();
      if (engine) engine.send("ucinewgame");
      afterChange();
    };
    $("undo").onclick = () => {
      if (!state.moves.length) return;
      cancelSearches();
      state.moves.pop();
      // Against the engine, back to a position where it is your move.
      if (humanSide() !== "both" && state.moves.length && describe().turn !== humanSide()) state.moves.pop();
      state.selected = null;
      afterChange();
    };
    $("flip").onclick = () => {
      state.flipped = !state.flipped;
      render();
    };
    $("move-now").onclick = () => {
      if (!state.desc || state.desc.end || enginesTurn()) return;
      const side = humanSide();
      if (side !== "both") {
        // Against the engine: it takes over your side, you get the other.
        $("mode").value = side === "red" ? "black" : "red";
        state.flipped = $("mode").value === "black";
        state.selected = null;
        afterChange();
        return;
      }
      cancelSearches();
      startEngineMove();
    };
    $("analyse-toggle").onclick = () => {
      state.analysing = !state.analysing;
      $("analyse-toggle").setAttribute("aria-pressed", String(state.analysing));
      $("analyse-toggle").textContent = "Analysis: " + (state.analysing ? "on" : "off");
      if (!state.analysing) cancelSearches();
      else if (!enginesTurn() && !state.desc.end) {
        cancelSearches();
        startAnalysis();
      }
    };
    $("mode").onchange = () => {
      state.selected = null;
      if ($("mode").value === "black" && !state.flipped) state.flipped = true;
      if ($("mode").value === "red" && state.flipped) state.flipped = false;
      afterChange();
    };
    $("rules").onchange = () => {
      if (engine) engine.send("setoption name Repetition Rules value " + ruleBook());
      afterChange();
    };
    $("fen-form").onsubmit = (event) => {
      event.preventDefault();
      const fen = $("fen").value.trim();
      let desc;
      try {
        desc = rules.describe(fen, [], ruleBook());
      } catch (e) {
        status("That FEN cannot be used (" + e.message + "); the position is unchanged.");
        return;
      }
      leaveGame();
      state.startFen = desc.fen;
      state.moves = [];
      state.selected = null;
      if (engine) engine.send("ucinewgame");
      afterChange();
    };
  }

  function bindGame() {
    $("first").onclick = () => goTo(0);
    $("prev").onclick = () => goTo(onGameLine() ? state.moves.length - 1 : commonPlies());
    $("next").onclick = () => goTo(onGameLine() ? state.moves.length + 1 : commonPlies());
    $("last").onclick = () => goTo(state.game ? state.game.moves.length : 0);
    $("moves").addEventListener("click", (event) => {
      const span = event.target.closest ? event.target.closest(".ply") : null;
      if (span && state.game) goTo(Number(span.dataset.ply));
    });
    $("graph").addEventListener("click", onGraphClick);
    $("game-file").onchange = async () => {
      const file = $("game-file").files[0];
      if (!file) return;
      readGameFile(new Uint8Array(await file.arrayBuffer()), file.name);
    };
    $("game-read").onclick = () => {
      const text = $("game-text").value;
      if (!text.trim()) {
        showGameError("Paste a game (PGN or DhtmlXQ text) into the box first.");
        return;
      }
      readGameFile(text, "the pasted text");
    };
    $("game-choice").onchange = () => openGame(Number($("game-choice").value));
    $("download-pgn").onclick = downloadPgn;
    $("review").onclick = () => {
      if (state.review) {
        const r = state.review;
        stopReview();
        status(`Review stopped after ${r.done} of ${r.total} positions.`);
      } else startReview();
    };
    // A file dropped on the page opens as from the file button.
    document.addEventListener("dragover", (event) => event.preventDefault());
    document.addEventListener("drop", async (event) => {
      const file = event.dataTransfer && event.dataTransfer.files[0];
      if (!file) return;
      event.preventDefault();
      readGameFile(new Uint8Array(await file.arrayBuffer()), file.name);
    });
    // The arrow keys, Home and End step through the game.
    document.addEventListener("keydown", (event) => {
      if (!state.game || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
      const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
      if (!keys[event.key]) return;
      event.preventDefault();
      $(keys[event.key]).click();
    });
  }

  /* For tests and the curious: the page's state and where a point is. */
  window.shuaiPage = {
    state: () => ({
      moves: state.moves.slice(),
      fen: state.desc && state.desc.fen,
      turn: state.desc && state.desc.turn,
      legal: state.desc ? state.desc.legal.slice() : [],
      end: state.desc && state.desc.end,
      thinking: state.pending.filter((p) => !p.cancelled).map((p) => p.kind),
      engineReady: state.engineReady,
      stopMethod: engine && engine.stopMethod,
      pv: $("pv").textContent,
      score: $("score").textContent,
      game: state.game && {
        title: state.game.title,
        start: state.game.start,
        length: state.game.moves.length,
        ply: onGameLine() ? state.moves.length : null,
        label: $("ply-label").textContent,
        comment: $("comment").textContent,
        reviewed: state.game.review ? state.game.review.moves.length : 0,
        marks: state.game.review ? state.game.review.moves.filter((m) => m.mark).map((m) => ({ ply: m.ply, mark: m.mark, chinese: m.chinese })) : [],
        redChances: state.game.review ? state.game.review.redChances.slice() : [],
        opening: state.game.review && state.game.review.opening,
        pgn: state.game.review ? state.game.review.pgn : null,
        graph: !!$("graph").querySelector("svg"),
        current: ($("moves").querySelector(".current") || { textContent: "" }).textContent,
      },
      reviewing: state.review && { done: state.review.done, total: state.review.total },
      gameError: $("game-error").textContent,
    }),
    /* The review's searches so far: [{ cp | mate, best, pv }], one a position. */
    searches: () => (state.game ? state.game.searches.map((x) => Object.assign({}, x)) : []),
    /* The client coordinates of ply `ply` on the review's graph (halfway up the plot). */
    graphPointOf(ply) {
      const plot = graphPlot();
      if (!plot) return null;
      const pt = plot.svg.createSVGPoint();
      pt.x = plot.left + (plot.width * ply) / Math.max(1, plot.plies);
      pt.y = plot.top + plot.height / 2;
      const p = pt.matrixTransform(plot.svg.getScreenCTM());
      return { x: p.x, y: p.y };
    },
    /* The client (viewport) coordinates of an ICCS point. */
    pointOf(sq) {
      const [x, y] = pointXY(...parseSquare(sq));
      const svg = $("board");
      const pt = svg.createSVGPoint();
      pt.x = x;
      pt.y = y;
      const p = pt.matrixTransform(svg.getScreenCTM());
      return { x: p.x, y: p.y };
    },
  };

  async function start() {
    bind();
    bindGame();
    if (typeof Shuai === "undefined" || typeof SHUAI_WASM_BASE64 === "undefined") {
      status("The engine is not built: run web/build.sh, then reload.");
      return;
    }
    try {
      await Shuai.compile();
      rules = new ShuaiRules();
      afterChange();
      engine = new Shuai();
      engine.onLine((line) => {
        if (line.startsWith("bestmove") || line.startsWith("nobestmove")) onBestMove(line);
        else if (line.startsWith("info ")) onInfo(line);
      });
      engine.send("uci");
      engine.send("setoption name UCI_ShowWDL value true");
      engine.send("setoption name Repetition Rules value " + ruleBook());
      await engine.ready;
      state.engineReady = true;
      showEnd();
      if (enginesTurn()) startEngineMove();
    } catch (e) {
      status("The engine could not start: " + e.message);
    }
  }

  start();
})();
