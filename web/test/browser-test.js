#!/usr/bin/env node
/*
 * The page in a real browser: headless Chromium (Debian's `chromium`)
 * opens web/page/index.html from file:// on a phone-sized screen, and
 * through the page's own controls (pointer clicks and a drag on the board,
 * the buttons, the FEN box) plays a short game against Shuai, takes a move
 * back, flips the board, sets a FEN and runs the analysis. It checks that
 * every move of the game was legal (replayed on a separate rules
 * instance), that the engine answered each move, that the analysis line
 * appears in Chinese notation with a score and WDL, and that the page
 * threw no error; it saves screenshots (browser.png on the phone,
 * browser-desktop.png on a desktop screen). On the desktop screen it
 * reads a pasted PGN, opens a real XQF through the file button, steps
 * through it, reviews it at depth 8, downloads the annotated PGN (the
 * review code's text exactly, with the opening), clicks the graph and
 * checks the position shown, and refuses a cut file with the reader's message
 * (screenshots browser-game.png, browser-game-phone.png). Then it serves
 * the same page from a local server with the headers that allow shared memory
 * (cross-origin isolation) and checks that `stop` ends an infinite search
 * there through the shared flag, the worker kept.
 *
 *   node web/test/browser-test.js [--out DIR]    (default web/test/out)
 *   node web/test/browser-test.js --bench        (only `bench` in the
 *                                                 page's worker: its nps)
 *
 * Chromium is driven over --remote-debugging-pipe (the DevTools protocol
 * on file descriptors 3 and 4), so nothing beyond Node and Chromium is
 * needed and no port is opened; the browser runs with networking features
 * off and a fresh profile.
 */
"use strict";
const { spawn } = require("child_process");
const http = require("http");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { core, loadModule } = require("../package/shuai.js");

const here = __dirname;
const outDir = process.argv.includes("--out") ? process.argv[process.argv.indexOf("--out") + 1] : path.join(here, "out");
const page = "file://" + path.resolve(here, "..", "page", "index.html");
const chromium = process.env.CHROMIUM || "chromium";
const TOTAL_MS = 420000;

function log(text) {
  console.log("browser-test: " + text);
}

function fail(text) {
  console.error("browser-test: FAILED: " + text);
  cleanup();
  process.exit(1);
}

fs.mkdirSync(outDir, { recursive: true });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "shuai-chromium-"));
const browser = spawn(
  chromium,
  [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-pipe",
    "--user-data-dir=" + profile,
    "about:blank",
  ],
  { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
);
let stderr = "";
browser.stderr.on("data", (d) => {
  stderr = (stderr + d).slice(-4000);
});
browser.on("exit", (code) => {
  if (!finished) fail(`chromium exited (${code}) early; its last words: ${stderr}`);
});
let finished = false;

function cleanup() {
  finished = true;
  try {
    browser.kill("SIGKILL");
  } catch (e) {
    /* gone */
  }
  try {
    fs.rmSync(profile, { recursive: true, force: true });
  } catch (e) {
    /* leave it */
  }
}

const timer = setTimeout(() => fail(`not done within ${TOTAL_MS / 1000} s`), TOTAL_MS);

/* --- the DevTools protocol over the pipe ------------------------------ */

const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];
let nextId = 1;
const calls = new Map();
const events = [];
let buffered = "";
fromBrowser.on("data", (chunk) => {
  buffered += chunk.toString("utf8");
  let end;
  while ((end = buffered.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id && calls.has(msg.id)) {
      const { resolve, reject, method } = calls.get(msg.id);
      calls.delete(msg.id);
      if (msg.error) reject(new Error(method + ": " + msg.error.message));
      else resolve(msg.result);
    } else if (msg.method) {
      events.push(msg);
    }
  }
});

function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  toBrowser.write(JSON.stringify(msg) + "\0");
  return new Promise((resolve, reject) => calls.set(id, { resolve, reject, method }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const cmd = (method, params) => send(method, params, sessionId);
  await cmd("Runtime.enable");
  await cmd("Page.enable");
  await cmd("Network.enable");
  // A phone: 390 × 844 CSS pixels, touch, device pixel ratio 2.
  await cmd("Emulation.setDeviceMetricsOverride", { width: 390, height: 844, deviceScaleFactor: 2, mobile: true });
  await cmd("Page.navigate", { url: page });

  async function evaluate(expression) {
    const r = await cmd("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error("page: " + JSON.stringify(r.exceptionDetails).slice(0, 300));
    return r.result.value;
  }
  const pageState = () => evaluate("window.shuaiPage && window.shuaiPage.state()");

  async function waitFor(what, test, ms) {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await pageState();
      if (s && test(s)) return s;
      if (Date.now() > deadline) fail(`${what}: not within ${ms / 1000} s; page state ${JSON.stringify(s)}; status ${await evaluate("document.getElementById('status').textContent")}`);
      await sleep(100);
    }
  }

  async function mouse(type, x, y) {
    await cmd("Input.dispatchMouseEvent", { type, x, y, button: "left", buttons: type === "mouseReleased" ? 0 : 1, clickCount: 1, pointerType: "mouse" });
  }
  // Input events are placed in the visual viewport; positions read from
  // the page are in the layout viewport.
  async function clickAt({ x, y }) {
    const v = await evaluate("({ x: visualViewport.offsetLeft, y: visualViewport.offsetTop })");
    x -= v.x;
    y -= v.y;
    await mouse("mouseMoved", x, y);
    await mouse("mousePressed", x, y);
    await mouse("mouseReleased", x, y);
  }
  async function clickElement(selector) {
    await evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView({block: "center"})`);
    await settle();
    const box = await evaluate(`(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
    await clickAt(box);
  }
  async function choose(selector, value) {
    // A <select>'s list is drawn by the browser, outside the page: set the
    // value as a choice would, with the change event the page listens to.
    await evaluate(`(() => { const s = document.querySelector(${JSON.stringify(selector)}); s.value = ${JSON.stringify(value)}; s.dispatchEvent(new Event("change")); })()`);
  }
  // Input events land where the compositor has scrolled to: after a
  // scroll, wait for two frames before reading positions.
  const settle = () => evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
  async function pointOf(sq) {
    await evaluate(`document.getElementById("board").scrollIntoView({block: "center"})`);
    await settle();
    return evaluate(`window.shuaiPage.pointOf(${JSON.stringify(sq)})`);
  }
  async function clickMove(move) {
    await clickAt(await pointOf(move.slice(0, 2)));
    await clickAt(await pointOf(move.slice(2, 4)));
  }
  async function dragMove(move) {
    const v = await evaluate("({ x: visualViewport.offsetLeft, y: visualViewport.offsetTop })");
    const shift = (p) => ({ x: p.x - v.x, y: p.y - v.y });
    const a = shift(await pointOf(move.slice(0, 2)));
    const b = shift(await pointOf(move.slice(2, 4)));
    await mouse("mouseMoved", a.x, a.y);
    await mouse("mousePressed", a.x, a.y);
    for (let i = 1; i <= 5; i++) await mouse("mouseMoved", a.x + ((b.x - a.x) * i) / 5, a.y + ((b.y - a.y) * i) / 5);
    await mouse("mouseReleased", b.x, b.y);
  }

  /*
   * A game file on the page: pasted PGN read and a bad paste refused with
   * the reader's message (the game kept); a real XQF opened through the
   * file button, stepped through (buttons, the move list, the arrow key),
   * every position checked against a rules instance of our own; a short
   * review (depth 8) whose marks and chances are what the engine's review
   * code makes of the page's searches; a click on the graph goes to that
   * move; a cut XQF gives the reader's message with its byte.
   */
  async function gameFileCheck() {
    const mine = core().instantiate(loadModule(), () => {}, () => false);
    const ask = (fn, input) => JSON.parse(mine[fn](input));
    const games = path.resolve(here, "..", "..", "engine", "tests", "data", "games");
    const paste = async (text) => {
      await evaluate(`document.getElementById("game-text").value = ""`);
      await clickElement("#game-text");
      await cmd("Input.insertText", { text });
      await clickElement("#game-read");
    };
    await paste('[Red "Pasted Red"]\n[Black "Pasted Black"]\n1. h2e2 h9g7 2. h0g2 *\n');
    let st = await waitFor("the pasted game", (x) => x.game && x.game.length === 3 && x.game.ply === 0, 5000);
    if (!/^Pasted Red – Pasted Black/.test(st.game.title) || st.moves.length !== 0) fail("pasted game: " + JSON.stringify(st.game));
    await clickElement("#last");
    st = await waitFor("the pasted game's end", (x) => x.game.ply === 3, 5000);
    if (st.moves.join(" ") !== "h2e2 h9g7 h0g2" || st.game.current !== "马二进三") fail("pasted game at its end: " + JSON.stringify(st));
    await paste("1. h2e2 {never closed\n");
    await sleep(200);
    st = await pageState();
    const cutComment = "the pasted text: line 1: a comment opened with '{' here is never closed";
    if (st.gameError !== cutComment || st.game.length !== 3) fail(`a bad paste: '${st.gameError}', game ${JSON.stringify(st.game)}`);
    log(`paste: a 3-move PGN read; a bad one refused: '${st.gameError}'`);

    // A real XQF (1.3, encrypted) through the file button.
    const xqfPath = path.join(games, "xqf13-hu-ronghua-tao-hanming-1998.xqf");
    const xqf = ask("games", new Uint8Array(fs.readFileSync(xqfPath))).games[0];
    const setFile = async (file) => {
      const { root } = await cmd("DOM.getDocument", { depth: 0 });
      const { nodeId } = await cmd("DOM.querySelector", { nodeId: root.nodeId, selector: "#game-file" });
      await cmd("DOM.setFileInputFiles", { files: [file], nodeId });
    };
    await setFile(xqfPath);
    st = await waitFor("the XQF game", (x) => x.game && x.game.length === 41 && x.game.ply === 0, 5000);
    if (!st.game.title.startsWith("上海胡荣华 – 吉林陶汉明") || st.fen !== xqf.start || st.gameError !== "") fail("the XQF: " + JSON.stringify(st));
    const fenAt = (ply) => ask("rules", "describe chinese fen " + xqf.start + (ply ? " moves " + xqf.moves.slice(0, ply).map((m) => m.iccs).join(" ") : "")).fen;
    const expectPly = async (what, ply) => {
      const x = await waitFor(what, (y) => y.game && y.game.ply === ply, 5000);
      const iccs = xqf.moves.slice(0, ply).map((m) => m.iccs);
      if (x.moves.join(" ") !== iccs.join(" ") || x.fen !== fenAt(ply)) fail(`${what}: moves ${x.moves.join(" ")}, fen ${x.fen}`);
      if (ply > 0 && (x.game.current !== xqf.moves[ply - 1].chinese && !x.game.current.startsWith(xqf.moves[ply - 1].chinese))) fail(`${what}: the list marks '${x.game.current}'`);
      return x;
    };
    for (let i = 1; i <= 3; i++) {
      await clickElement("#next");
      await expectPly(`next (${i})`, i);
    }
    st = await pageState();
    if (st.game.label !== `2. ${xqf.moves[2].chinese} (3/41)`) fail("the step label: " + st.game.label);
    await clickElement("#prev");
    await expectPly("prev", 2);
    await clickElement("#last");
    await expectPly("last", 41);
    await clickElement("#first");
    await expectPly("first", 0);
    await clickElement('#moves .ply[data-ply="9"]');
    await expectPly("a move in the list", 9);
    await evaluate(`document.activeElement && document.activeElement.blur()`);
    await cmd("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "ArrowRight", code: "ArrowRight", windowsVirtualKeyCode: 39 });
    await cmd("Input.dispatchKeyEvent", { type: "keyUp", key: "ArrowRight", code: "ArrowRight", windowsVirtualKeyCode: 39 });
    await expectPly("the right arrow key", 10);
    log(`XQF opened: ${st.game.title}, 41 moves; next, prev, last, first, the move list and the arrow key each show the right position`);

    // A short review (depth 8: a few seconds). Which moves it marks
    // depends on the search, so the marks are checked against the review
    // code's own judgement of the page's searches, not against a list.
    const limit = "depth 8";
    await choose("#review-limit", limit);
    const reviewStart = Date.now();
    await clickElement("#review");
    await waitFor("the review starts", (x) => x.reviewing !== null, 5000);
    st = await waitFor("the review", (x) => x.reviewing === null && x.game.reviewed === 41, 150000);
    const searches = await evaluate("window.shuaiPage.searches()");
    if (searches.length !== 42) fail(`${searches.length} searches for 42 positions`);
    // The query ShuaiRules.review makes: each search with its line, the
    // title, the settings and the file's tags (for the annotated PGN).
    const line = (x) => (x.best && x.pv && x.pv[0] === x.best ? x.pv.join(",") : x.best || "-");
    const tagLines = xqf.tags.map(([k, v]) => "\n" + k + "\t" + v).join("");
    const judged = JSON.parse(mine.review("review fen " + xqf.start + " moves " + xqf.moves.map((m) => m.iccs).join(" ") + " searches " + searches.map((x) => (x.mate !== undefined ? "mate:" + x.mate : "cp:" + x.cp) + ":" + line(x)).join(" ") + "\n" + xqf.title + "\ndepth 8, 1 thread" + tagLines));
    if (!searches.every((x) => !x.best || (x.pv.length >= 1 && x.pv[0] === x.best))) fail("a search without its line: " + JSON.stringify(searches));
    if (JSON.stringify(judged.redChances) !== JSON.stringify(st.game.redChances)) fail("the page's chances differ from the review code's");
    const marks = judged.moves.filter((m) => m.mark).map((m) => ({ ply: m.ply, mark: m.mark, chinese: m.chinese }));
    if (JSON.stringify(marks) !== JSON.stringify(st.game.marks)) fail(`marks: page ${JSON.stringify(st.game.marks)}, review code ${JSON.stringify(marks)}`);
    for (const m of judged.moves) {
      const want = m.loss >= 300 ? "??" : m.loss >= 200 ? "?" : m.loss >= 100 ? "?!" : "";
      if (m.mark !== want) fail(`ply ${m.ply}: loss ${m.loss} marked '${m.mark}'`);
    }
    const shown = await evaluate(`({ dots: document.querySelectorAll("#graph circle.mark").length, inList: document.querySelectorAll("#moves .mark").length, summary: document.getElementById("review-summary").textContent })`);
    if (!st.game.graph || shown.dots !== marks.length || shown.inList !== marks.length) fail(`graph/list marks: ${JSON.stringify(shown)} for ${marks.length}`);
    if (!/Red \(上海胡荣华\): 21 moves, average loss .*Black \(吉林陶汉明\): 20 moves/.test(shown.summary)) fail("summary: " + shown.summary);
    if (!/Opening \(ECCO\): E02 仙人指路进右马对飞象/.test(shown.summary)) fail("summary without the opening: " + shown.summary);

    // The annotated PGN, downloaded through the page's button: exactly the
    // text the review code (the one of `shuai review --pgn`) makes of the
    // page's searches, with the file's tags and the opening, and Shuai
    // reads it back as the same game.
    const downloads = fs.mkdtempSync(path.join(os.tmpdir(), "shuai-downloads-"));
    await send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
    await clickElement("#download-pgn");
    const saved = () => fs.readdirSync(downloads).filter((f) => f.endsWith(".pgn"));
    for (let t = 0; t < 100 && !saved().length; t++) await new Promise((r) => setTimeout(r, 100));
    if (saved().length !== 1 || !saved()[0].endsWith("-review.pgn")) fail("no download: " + JSON.stringify(fs.readdirSync(downloads)));
    const pgnFile = path.join(downloads, saved()[0]);
    const pgn = fs.readFileSync(pgnFile, "utf8");
    fs.rmSync(downloads, { recursive: true, force: true });
    if (pgn !== judged.pgn) fail("the downloaded PGN differs from the review code's:\n" + pgn + "\n---\n" + judged.pgn);
    const wanted = [
      '[Event "第十八届“五羊杯”象棋冠军赛"]\n',
      '[Red "上海胡荣华"]\n[Black "吉林陶汉明"]\n[Result "1/2-1/2"]\n[Game "Chinese Chess"]\n[Format "ICCS"]\n',
      '[ECCO "E02"]\n[Opening "仙人指路进右马对飞象"]\n[Annotator "Shuai review, depth 8, 1 thread"]\n\n1. c3c4 {兵七进一 ',
    ];
    if (!pgn.startsWith(wanted[0]) || !wanted.every((w) => pgn.includes(w))) fail("the downloaded PGN's head:\n" + pgn.slice(0, 400));
    const back = ask("games", pgn).games[0];
    if (back.moves.map((m) => m.iccs).join(" ") !== xqf.moves.map((m) => m.iccs).join(" ")) fail("the downloaded PGN reads back as another game");
    log(`annotated PGN downloaded (${pgn.length} characters): the review code's text exactly, ${back.variations} moves of the engine's lines as variations`);
    log(`review at ${limit}: 42 positions in ${((Date.now() - reviewStart) / 1000).toFixed(1)} s; marks ${marks.map((m) => m.ply + ":" + m.chinese + m.mark).join(" ") || "none"}; Red's chance from ${st.game.redChances[0]} to ${st.game.redChances[41]} per mille`);

    // A click on the graph goes to that move.
    const target = marks.length ? marks[0].ply : 20;
    await evaluate(`document.getElementById("graph").scrollIntoView({block: "center"})`);
    await settle();
    await clickAt(await evaluate(`window.shuaiPage.graphPointOf(${target})`));
    st = await expectPly("a click on the graph", target);
    const cursor = await evaluate(`(() => { const c = document.querySelector("#graph .cursor"); return c && Number(c.getAttribute("x1")); })()`);
    const plotX = 50 + (830 * target) / 41;
    if (cursor === null || Math.abs(cursor - plotX) > 0.5) fail(`the graph's cursor at ${cursor}, not ${plotX}`);
    const r = judged.moves[target - 1];
    if (!st.game.comment.includes(`${r.number} ${r.chinese}${r.mark}:`)) fail("the move's review line: " + st.game.comment);
    log(`graph clicked at ply ${target}: the board shows ${st.game.label}; '${st.game.comment}'`);
    await evaluate(`window.scrollTo(0, 0)`);
    await settle();
    const shot = await cmd("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
    const file = path.join(outDir, "browser-game.png");
    fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
    log(`screenshot ${file}`);
    // The game view on the phone: no wider than the screen.
    await cmd("Emulation.setDeviceMetricsOverride", { width: 390, height: 844, deviceScaleFactor: 2, mobile: true });
    await settle();
    await sleep(300);
    const phoneWidth = await evaluate("document.documentElement.scrollWidth");
    if (phoneWidth > 390) fail(`with a game the page is ${phoneWidth} CSS pixels wide on a 390-pixel screen`);
    const phone = await cmd("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
    const phoneFile = path.join(outDir, "browser-game-phone.png");
    fs.writeFileSync(phoneFile, Buffer.from(phone.data, "base64"));
    log(`screenshot ${phoneFile}`);
    await cmd("Emulation.setDeviceMetricsOverride", { width: 1100, height: 760, deviceScaleFactor: 1, mobile: false });
    await settle();

    // A cut file: the reader's message with its place, the game kept.
    const cut = path.join(outDir, "cut.xqf");
    fs.writeFileSync(cut, fs.readFileSync(path.join(games, "xqf11-endgame.xqf")).subarray(0, 1030));
    const expected = ask("games", new Uint8Array(fs.readFileSync(cut)));
    await setFile(cut);
    st = await waitFor("the cut file's message", (x) => x.gameError !== "", 5000);
    if (expected.ok || st.gameError !== "cut.xqf: " + expected.error || !/byte \d+/.test(st.gameError) || st.game.length !== 41) fail(`a cut XQF: '${st.gameError}'`);
    fs.rmSync(cut);
    log(`a cut XQF: '${st.gameError}'`);
  }

  const ready = await waitFor("the engine starts", (s) => s.engineReady, 60000);
  log(`page loaded from ${page}; engine ready (stop method: ${ready.stopMethod})`);
  if (process.argv.includes("--bench")) {
    const cpuBefore = cpuSeconds(browser.pid);
    const bench = await evaluate(`(async () => {
      const e = new Shuai();
      const lines = [];
      e.onLine((l) => lines.push(l));
      e.send("bench");
      while (!lines.some((l) => / nodes \\d+ nps$/.test(l))) await new Promise((r) => setTimeout(r, 50));
      e.terminate();
      return lines[lines.length - 1];
    })()`);
    const cpu = cpuSeconds(browser.pid) - cpuBefore;
    const nodes = Number(bench.split(" ")[0]);
    log(`bench in Chromium's worker: ${bench}; Chromium's processes used ${cpu.toFixed(2)} s of CPU meanwhile (${(nodes / cpu / 1e6).toFixed(2)} Mnps of CPU time)`);
    clearTimeout(timer);
    cleanup();
    return;
  }
  const width = await evaluate("document.documentElement.scrollWidth");
  if (width > 390) fail(`the page is ${width} CSS pixels wide on a 390-pixel screen`);

  // A short game: you play Red at level 4, half a second a move.
  await choose("#mode", "red");
  await choose("#level", "4");
  await choose("#movetime", "500");
  const wanted = ["h2e2", "h0g2", "i0h0", "b0c2", "c3c4"];
  const humanMoves = 4;
  for (let i = 0; i < humanMoves; i++) {
    const before = await waitFor(`Red to move (move ${i + 1})`, (s) => s.turn === "red" && s.thinking.length === 0 && s.moves.length === 2 * i, 30000);
    const move = wanted.find((m) => before.legal.includes(m)) || before.legal[0];
    if (i % 2 === 0) await clickMove(move);
    else await dragMove(move);
    // (A low level may answer before the page is looked at again.)
    const after = await waitFor(`the page plays ${move}`, (s) => s.moves.length >= 2 * i + 1, 5000);
    if (after.moves[2 * i] !== move) fail(`played ${after.moves[2 * i]} instead of ${move}`);
    const answered = await waitFor(`Shuai answers move ${i + 1}`, (s) => s.moves.length === 2 * i + 2, 30000);
    log(`Red ${move} (${i % 2 === 0 ? "clicks" : "a drag"}), Shuai ${answered.moves[2 * i + 1]}`);
  }
  let s = await pageState();
  const game = s.moves.slice();

  // Every move legal: replayed on a rules instance of our own.
  const rules = core().instantiate(loadModule(), () => {}, () => false);
  const replay = JSON.parse(rules.rules("describe chinese startpos moves " + game.join(" ")));
  if (!replay.ok || replay.problem !== null || replay.moves.length !== game.length) fail(`the game is not legal: ${JSON.stringify(replay).slice(0, 300)}`);
  log(`game legal: ${replay.moves.map((m) => m.chinese).join(" ")}`);
  const moveList = await evaluate("document.getElementById('moves').textContent");
  if (!moveList.includes(replay.moves[0].chinese)) fail(`the move list shows '${moveList}'`);

  // Take back: your last move and Shuai's answer.
  await clickElement("#undo");
  s = await waitFor("take back", (st) => st.moves.length === game.length - 2, 5000);
  if (s.moves.join(" ") !== game.slice(0, -2).join(" ")) fail("take back left " + s.moves.join(" "));
  log(`take back: ${game.length} -> ${s.moves.length} moves`);

  // "Engine move" on your turn: Shuai takes Red, you get Black.
  await clickElement("#move-now");
  s = await waitFor("Shuai playing Red", (st) => st.moves.length === game.length - 1 && st.thinking.length === 0, 30000);
  const mode = await evaluate("document.getElementById('mode').value");
  if (mode !== "black") fail(`after Engine move the mode is ${mode}`);
  log(`engine move: Shuai took Red and played ${s.moves[s.moves.length - 1]}`);
  await choose("#mode", "red");
  await waitFor("Shuai playing Black again", (st) => st.moves.length === game.length && st.thinking.length === 0, 30000);

  // Flip, then set a FEN through the box.
  await clickElement("#flip");
  const flipped = await pointOf("a0");
  const e9 = await pointOf("e9");
  if (!(flipped.y < e9.y)) fail("flip: a0 is not at the top");
  // After 炮二平五 马8进7 马二进三 车9平8.
  const fen = "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3";
  await evaluate(`document.getElementById("fen").value = ""`);
  await clickElement("#fen");
  await cmd("Input.insertText", { text: fen });
  await clickElement("#fen-form button");
  s = await waitFor("set FEN", (st) => st.fen === fen && st.moves.length === 0, 5000);
  log("FEN set through the box");
  // A mate played on the board ends the game: the rook on b9 mates (the
  // one on a8 covers the king's way out).
  await choose("#mode", "analyse");
  const mateFen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1";
  await evaluate(`document.getElementById("fen").value = ""`);
  await clickElement("#fen");
  await cmd("Input.insertText", { text: mateFen });
  await clickElement("#fen-form button");
  await waitFor("the mate position", (st) => st.fen === mateFen, 5000);
  await clickMove("b1b9");
  s = await waitFor("the game's end", (st) => st.end !== null, 5000);
  const endText = await evaluate("document.getElementById('status').textContent");
  if (s.end.winner !== "red" || !/^Red wins/.test(endText)) fail(`after the mate: ${JSON.stringify(s.end)}, status '${endText}'`);
  log(`mate on the board: '${endText}'`);
  await evaluate(`document.getElementById("fen").value = ""`);
  await clickElement("#fen");
  await cmd("Input.insertText", { text: fen });
  await clickElement("#fen-form button");
  await waitFor("set FEN again", (st) => st.fen === fen && st.moves.length === 0, 5000);

  // A bad FEN is refused and the position kept.
  await evaluate(`document.getElementById("fen").value = ""`);
  await clickElement("#fen");
  await cmd("Input.insertText", { text: "this is no fen" });
  await clickElement("#fen-form button");
  await sleep(200);
  s = await pageState();
  const statusText = await evaluate("document.getElementById('status').textContent");
  if (s.fen !== fen || !/cannot be used/.test(statusText)) fail(`a bad FEN: status '${statusText}', fen ${s.fen}`);

  // Without shared memory (file://) stop replaces the worker.
  const restarted = await evaluate(STOP_CHECK);
  if (!/^bestmove [a-i]\d[a-i]\d/.test(restarted.answer) || restarted.same || restarted.bestLines !== 1) fail("stop by restart: " + JSON.stringify(restarted));
  log(`file://: stop by replacing the worker answered '${restarted.answer}'`);

  // The rules and the analysis: analyse mode, analysis on.
  await choose("#rules", "asian");
  await choose("#mode", "analyse");
  await clickElement("#analyse-toggle");
  s = await waitFor("the analysis line", (st) => /[一二三四五六七八九1-9][进退平]/.test(st.pv) && st.pv.split(" ").length >= 3 && /^[+-]?\d|mates/.test(st.score), 30000);
  const wdl = await evaluate("document.getElementById('wdl-text').textContent");
  if (!/win .*draw .*loss/.test(wdl)) fail("no WDL shown: " + wdl);
  log(`analysis: score ${s.score}, ${wdl}, line ${s.pv}`);
  // A move on the board restarts the analysis from the new position.
  const move = s.legal.includes("i0h0") ? "i0h0" : s.legal[0];
  await clickMove(move);
  s = await waitFor("analysis after a move", (st) => st.moves.length === 1 && st.thinking.includes("analysis"), 5000);
  await waitFor("the analysis of the new position", (st) => st.pv !== s.pv && st.pv.length > 0, 10000);
  await sleep(1500);
  const shot = await cmd("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
  const file = path.join(outDir, "browser.png");
  fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
  log(`screenshot ${file}`);
  // The same page on a desktop screen.
  await cmd("Emulation.setDeviceMetricsOverride", { width: 1100, height: 760, deviceScaleFactor: 1, mobile: false });
  await settle();
  await sleep(500);
  const desktop = await cmd("Page.captureScreenshot", { format: "png" });
  const desktopFile = path.join(outDir, "browser-desktop.png");
  fs.writeFileSync(desktopFile, Buffer.from(desktop.data, "base64"));
  log(`screenshot ${desktopFile}`);
  await clickElement("#analyse-toggle");

  await gameFileCheck();

  // No request left the machine: the page, the scripts, the module (as
  // base64 in a script) and the worker (a Blob) are all local.
  const urls = events.filter((e) => e.method === "Network.requestWillBeSent").map((e) => e.params.request.url);
  const remote = urls.filter((u) => !/^(file|blob|data):/.test(u));
  if (remote.length) fail("requests beyond file://, blob: and data: " + JSON.stringify(remote.slice(0, 5)));
  log(`${urls.length} requests, all file://, blob: or data:`);

  // The page served with cross-origin isolation: stop by the shared flag.
  const server = await serve(path.resolve(here, ".."));
  const { port } = server.address();
  await cmd("Page.navigate", { url: `http://127.0.0.1:${port}/page/index.html` });
  const isolated = await waitFor("the engine starts (served)", (st) => st.engineReady, 60000);
  if (isolated.stopMethod !== "shared-flag") fail(`served with COOP/COEP the stop method is ${isolated.stopMethod}`);
  const stopped = await evaluate(STOP_CHECK);
  if (!/^bestmove [a-i]\d[a-i]\d/.test(stopped.answer) || !stopped.same || stopped.bestLines !== 1) fail("stop by the shared flag: " + JSON.stringify(stopped));
  log(`served cross-origin isolated: stop by the shared flag answered '${stopped.answer}' from the same worker`);
  const pondered = await evaluate(interruptCheck("position startpos moves h2e2", "ponder movetime 500", "ponderhit"));
  if (!/^bestmove [a-i]\d[a-i]\d/.test(pondered.answer) || !pondered.same || pondered.bestLines !== 1) fail("ponderhit by the shared flag: " + JSON.stringify(pondered));
  log(`served cross-origin isolated: go ponder, ponderhit by the shared flag: '${pondered.answer}'`);
  server.close();

  const errors = events.filter((e) => e.method === "Runtime.exceptionThrown" || (e.method === "Runtime.consoleAPICalled" && e.params.type === "error"));
  if (errors.length) fail("the page reported errors: " + JSON.stringify(errors).slice(0, 600));
  log("passed");
  clearTimeout(timer);
  cleanup();
}

/*
 * Through the package on the page: `go <goArgs>` from `position`, then
 * `word` (stop, ponderhit) once the search has reached depth 5, then
 * `isready`: the best move, how many came, and whether the worker is the
 * same one (shared flag) or a new one (restart).
 */
function interruptCheck(position, goArgs, word) {
  return `(async () => {
    const e = new Shuai();
    const lines = [];
    e.onLine((l) => lines.push(l));
    e.send("uci");
    e.send(${JSON.stringify(position)});
    const best = e.go(${JSON.stringify(goArgs)});
    while (!lines.some((l) => l.startsWith("info depth 5 "))) await new Promise((r) => setTimeout(r, 20));
    const worker = e._worker;
    e.send(${JSON.stringify(word)});
    const answer = await best;
    e.send("isready");
    while (!lines.includes("readyok")) await new Promise((r) => setTimeout(r, 20));
    const same = worker === e._worker;
    e.terminate();
    return { answer: answer.line, same, bestLines: lines.filter((l) => l.startsWith("bestmove")).length };
  })()`;
}
const STOP_CHECK = interruptCheck("position startpos", "infinite", "stop");

/* CPU time (user + system, seconds) of process `pid` and its descendants, from /proc. */
function cpuSeconds(pid) {
  const stats = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch (e) {
      /* gone meanwhile */
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of stats) if (!tree.has(p.pid) && tree.has(p.ppid)) grew = tree.add(p.pid) !== null;
  }
  return stats.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0) / 100;
}

/* A static server for `root` with the headers that isolate the page. */
function serve(root) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": types[path.extname(file)] || "application/octet-stream",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

main().catch((e) => fail(e.stack || String(e)));
