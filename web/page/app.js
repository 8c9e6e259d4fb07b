/*
 * The page: a board, a game against Shuai or an analysis, and the engine's
 * thoughts. The rules (legal moves, check, the game's end, Chinese
 * notation) come from the engine's own rules code on this thread
 * (ShuaiRules); the engine searches in a Web Worker (Shuai). GPL-3.0-or-later.
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
  };
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
  }

  function renderMoves() {
    const list = $("moves");
    list.textContent = "";
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
      state.startFen = desc.fen;
      state.moves = [];
      state.selected = null;
      if (engine) engine.send("ucinewgame");
      afterChange();
    };
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
    }),
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
