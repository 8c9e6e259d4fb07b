#!/usr/bin/env node
/*
 * Checks the WebAssembly engine under Node (no browser, no worker): the
 * bench node total against README.md's signature, a UCI session with a
 * search and bad input, a search ended by the host's clock, `stop` and
 * `ponderhit` through the host's polls, the rules queries, and a game
 * file read and a review judged (shuai_games, shuai_review). Prints the
 * bench's nodes per second.
 *
 *   node web/test/node-check.js [--bench-only]
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { core, loadModule } = require("../package/shuai.js");

const root = path.join(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const expected = (readme.match(/^Bench signature \(checked by `\.ci\/run`\): `bench (\d+)`$/m) || [])[1];
if (!expected) throw new Error("README.md states no bench signature");

const module_ = loadModule();
const lines = [];
let stopNow = () => false;
let ponderhitNow = () => false;
const engine = core().instantiate(module_, (l) => lines.push(l), () => stopNow(), () => ponderhitNow());
engine.init(12345, 678);

function fail(text) {
  console.error("node-check: " + text);
  console.error("last lines: " + JSON.stringify(lines.slice(-5)));
  process.exit(1);
}

// The bench: the same node total as the native `shuai bench`.
const start = Date.now();
engine.line("bench");
const last = lines[lines.length - 1];
const nodes = last.split(" ")[0];
if (nodes !== expected) fail(`bench gave '${last}', README.md states ${expected}`);
console.log(`node-check: bench ${last} (README.md: ${expected}) in ${((Date.now() - start) / 1000).toFixed(1)} s`);
if (process.argv.includes("--bench-only")) process.exit(0);

// A UCI session.
lines.length = 0;
engine.line("uci");
if (lines[lines.length - 1] !== "uciok") fail("no uciok");
engine.line("setoption name UCI_ShowWDL value true");
engine.line("position startpos moves h2e2 h9g7");
engine.line("go depth 8");
const best = lines.find((l) => l.startsWith("bestmove "));
if (!best) fail("no bestmove after go depth 8");
if (!lines.some((l) => /^info depth 8 .* wdl \d+ \d+ \d+ .* pv /.test(l))) fail("no depth-8 info line with wdl and pv");
lines.length = 0;
engine.line("position fen this is no fen");
if (!/^info string invalid FEN/.test(lines[0] || "")) fail("a bad FEN was not answered");
engine.line("frobnicate");
if (lines[1] !== "info string unknown command: frobnicate") fail("a bad command was not answered");
engine.line("isready");
if (lines[2] !== "readyok") fail("no readyok after bad input");
console.log(`node-check: session: ${best}; bad FEN and command answered; readyok`);

// A search bounded by time ends by the host's clock (std's clock panics
// on this target; the search reads performance.now() through the host).
lines.length = 0;
engine.line("go movetime 200");
const timed = lines.find((l) => l.startsWith("bestmove "));
const lastInfo = lines.filter((l) => / time \d+ /.test(l)).pop() || "";
const reported = Number((lastInfo.match(/ time (\d+) /) || [])[1]);
if (!timed || !(reported > 0)) fail("go movetime 200: no bestmove, or no time in its info lines");
console.log(`node-check: go movetime 200 answered ${timed} (last info at ${reported} ms)`);

// `stop` during an infinite search: the host's poll says stop 300 ms in.
lines.length = 0;
const t0 = Date.now();
stopNow = () => Date.now() - t0 > 300;
engine.line("go infinite");
stopNow = () => false;
const stopped = lines.find((l) => l.startsWith("bestmove "));
if (!stopped) fail("no bestmove after a stopped infinite search");
console.log(`node-check: go infinite stopped by the host after ${Date.now() - t0} ms: ${stopped}`);

// A ponder search goes on as a timed one after the host's ponderhit.
lines.length = 0;
const t1 = Date.now();
ponderhitNow = () => Date.now() - t1 > 200;
engine.line("go ponder movetime 300");
ponderhitNow = () => false;
const pondered = lines.find((l) => l.startsWith("bestmove "));
if (!pondered) fail("no bestmove after go ponder and the host's ponderhit");
console.log(`node-check: go ponder, ponderhit from the host: ${pondered}`);

// Rules queries.
// After 炮二平五 Black has the start's 44 moves, less 砲8进7 (h7h0, whose
// screen left) and plus 砲8进5, 砲8进6 (h7h2, h7h1): 45.
const d = JSON.parse(engine.rules("describe chinese startpos moves h2e2"));
if (!d.ok || d.legal.length !== 45 || d.moves[0].chinese !== "炮二平五") fail("describe: " + JSON.stringify(d).slice(0, 200));
console.log("node-check: rules queries answered");

// Game files and reviews through the module: the DhtmlXQ page of the
// readers' tests (85 moves), a PGN comment never closed, a review.
const gamesDir = path.join(__dirname, "..", "..", "engine", "tests", "data", "games");
const page = JSON.parse(engine.games(new Uint8Array(fs.readFileSync(path.join(gamesDir, "dhtmlxq-wxf-116.html")))));
if (!page.ok || page.format !== "DhtmlXQ" || page.games.length !== 1 || page.games[0].moves.length !== 85) fail("games: " + JSON.stringify(page).slice(0, 300));
const bad = JSON.parse(engine.games(new TextEncoder().encode("1. h2e2 {never closed\n")));
if (bad.ok || bad.place.line !== 1) fail("a bad file: " + JSON.stringify(bad));
const rv = JSON.parse(engine.review("review startpos moves h2e2 a6a5 searches cp:30:h2e2 cp:-30:h9g7 cp:480:-\nA – B"));
if (!rv.ok || rv.moves[1].mark !== "??" || rv.moves[1].loss !== 332 || !rv.svg.startsWith("<svg")) fail("review: " + JSON.stringify(rv).slice(0, 300));
console.log(`node-check: games read (${page.games[0].title}, ${page.games[0].moves.length} moves), a bad file refused (${bad.error}), a review judged`);
engine.line("quit");
