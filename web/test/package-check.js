#!/usr/bin/env node
/*
 * The package's own logic under Node, with a stand-in for the Web Worker
 * (it records what it is sent and answers what the test tells it to):
 * `stop` by replacing the worker (the best move from the last main line,
 * or a one-ply search when no line came), the setup replayed to the new
 * worker and its replies hidden, a trapped engine restarted and its
 * search answered, `ponderhit` without shared memory, and promises of best
 * moves.
 *
 *   node web/test/package-check.js
 */
"use strict";
const assert = require("assert");

const workers = [];
class FakeWorker {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.terminated = false;
    workers.push(this);
  }
  postMessage(msg) {
    this.sent.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  /* The worker says something to the page. */
  say(msg) {
    this.onmessage({ data: msg });
  }
  lines() {
    return this.sent.filter((m) => m.type === "line").map((m) => m.line);
  }
}
global.Worker = FakeWorker;
global.Blob = class {};
global.URL.createObjectURL = () => "blob:fake";
global.URL.revokeObjectURL = () => {};

const { Shuai } = require("../package/shuai.js");
// Any module will do: the fake worker never runs it.
const wasm = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));

async function main() {
  const tick = () => new Promise((r) => setImmediate(r));
  const engine = new Shuai({ wasm, sharedStop: false });
  assert.strictEqual(engine.stopMethod, "restart");
  const heard = [];
  engine.onLine((l) => heard.push(l));
  const first = workers[0];
  assert.strictEqual(first.sent[0].type, "init");
  first.say({ type: "ready" });
  await engine.ready;

  // A search, stopped after two main lines: the last one's first move.
  engine.send("uci");
  engine.send("setoption name Skill Level value 3");
  engine.send("setoption name Skill Level value 20");
  engine.send("position startpos moves h2e2");
  let best = engine.go("infinite");
  first.say({ type: "line", line: "info depth 1 score cp 10 pv h9g7" });
  first.say({ type: "line", line: "info depth 2 score cp 12 pv b9c7 h0g2" });
  engine.stop();
  assert.ok(first.terminated, "the busy worker is ended");
  const second = workers[1];
  assert.deepStrictEqual(second.lines(), [
    "uci",
    "setoption name Skill Level value 20",
    "position startpos moves h2e2",
    "isready",
  ]);
  assert.deepStrictEqual(await best, { bestmove: "b9c7", ponder: "h0g2", line: "bestmove b9c7 ponder h0g2" });
  // The replay's replies are not heard; what follows is.
  second.say({ type: "ready" });
  second.say({ type: "line", line: "id name Shuai 0.1.0" });
  second.say({ type: "line", line: "uciok" });
  second.say({ type: "line", line: "readyok" });
  engine.send("isready");
  second.say({ type: "line", line: "readyok" });
  assert.deepStrictEqual(heard.slice(-2), ["bestmove b9c7 ponder h0g2", "readyok"]);

  // Stopped before any line: a one-ply search answers.
  best = engine.go("infinite");
  engine.stop();
  const third = workers[2];
  assert.deepStrictEqual(third.lines().slice(-2), ["isready", "go depth 1"]);
  third.say({ type: "line", line: "readyok" });
  third.say({ type: "line", line: "bestmove h9g7" });
  assert.strictEqual((await best).bestmove, "h9g7");

  // The engine traps during a search: restarted, the search answered.
  best = engine.go("depth 20");
  third.say({ type: "line", line: "info depth 5 score cp 3 pv c6c5" });
  third.say({ type: "error", trap: true, message: "the engine failed: unreachable" });
  const fourth = workers[3];
  assert.ok(third.terminated);
  assert.strictEqual((await best).bestmove, "c6c5");
  assert.ok(heard.includes("info string the engine failed: unreachable; the engine was restarted"));
  assert.strictEqual(fourth.lines().pop(), "isready");

  // ponderhit cannot reach a search without shared memory: it answers
  // with what it has, as after stop.
  fourth.say({ type: "line", line: "readyok" });
  best = engine.go("ponder movetime 1000");
  fourth.say({ type: "line", line: "info depth 3 score cp 1 pv g6g5 c3c4" });
  engine.send("ponderhit");
  assert.ok(fourth.terminated);
  const fifth = workers[4];
  assert.deepStrictEqual(await best, { bestmove: "g6g5", ponder: "c3c4", line: "bestmove g6g5 ponder c3c4" });
  assert.ok(!fifth.lines().includes("ponderhit"));

  // Idle stop is passed on (UCCI answers it); a perft is not a search.
  engine.send("stop");
  assert.strictEqual(fifth.lines().pop(), "stop");
  engine.send("go perft 3");
  engine.send("stop");
  assert.strictEqual(workers.length, 5, "a perft is not replaced");
  await tick();
  engine.terminate();
  await assert.rejects(engine.go("depth 1"), /terminated/);
  console.log(`package-check: stop by replacement, replay, trap recovery and promises behave (${workers.length} workers)`);
}

main().catch((e) => {
  console.error("package-check: FAILED: " + (e.stack || e));
  process.exit(1);
});
