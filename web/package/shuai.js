/*
 * Shuai (帅) in the browser: the Xiangqi engine compiled to WebAssembly,
 * run in a Web Worker, spoken to in UCI/UCCI text.
 *
 *   const engine = new Shuai();            // starts the worker
 *   engine.onLine(line => console.log(line));
 *   engine.send("uci");
 *   engine.send("position startpos moves h2e2");
 *   const { bestmove } = await engine.go("movetime 1000");
 *
 * A classic script (no modules, no fetch): it works from file:// pages,
 * where Chrome refuses module scripts, workers from files and fetch. The
 * WebAssembly module comes from dist/shuai-wasm.js (the module as base64,
 * built by web/build.sh), loaded by a <script> tag before this one, or
 * from the `wasm` option (bytes or a compiled WebAssembly.Module). No
 * network request is made at run time. GPL-3.0-or-later.
 */
(function (root, factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.Shuai = api.Shuai;
    root.ShuaiRules = api.ShuaiRules;
    root.ShuaiCore = api.core;
  }
})(typeof globalThis !== "undefined" ? globalThis : this, function () {
  "use strict";

  /*
   * The glue to the module's exports, shared by the worker (which gets
   * this function's source) and the page's rules instance. `onLine` gets
   * each output line; `stopPoll()` says whether a search must stop.
   */
  function shuaiCore() {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();

    function clock() {
      return typeof performance !== "undefined" ? performance.now() : Date.now();
    }

    /* Instantiates `module` (a WebAssembly.Module); returns its API. */
    function instantiate(module, onLine, stopPoll, ponderhitPoll) {
      let exports = null;
      const env = {
        shuai_host_output(ptr, len) {
          const bytes = new Uint8Array(exports.memory.buffer, ptr, len);
          onLine(decoder.decode(bytes));
        },
        shuai_host_now() {
          return clock();
        },
        shuai_host_stop() {
          return stopPoll() ? 1 : 0;
        },
        shuai_host_ponderhit() {
          return ponderhitPoll && ponderhitPoll() ? 1 : 0;
        },
      };
      const instance = new WebAssembly.Instance(module, { env });
      exports = instance.exports;
      function put(text) {
        const bytes = typeof text === "string" ? encoder.encode(text) : text;
        const ptr = exports.shuai_buffer(bytes.length);
        new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
        return bytes.length;
      }
      /* Calls export `name` on `input` (text or bytes): its one-line answer. */
      function ask(name, input) {
        let answer = null;
        const keep = onLine;
        onLine = (l) => {
          answer = l;
        };
        try {
          exports[name](put(input));
        } finally {
          onLine = keep;
        }
        return answer;
      }
      return {
        /* A fresh engine seeded by two 32-bit numbers. */
        init(seedLo, seedHi) {
          exports.shuai_init(seedLo >>> 0, seedHi >>> 0);
        },
        /* One protocol line; true after `quit`. */
        line(text) {
          return exports.shuai_line(put(text)) !== 0;
        },
        /* One rules query: its answer (one line, JSON). */
        rules(text) {
          return ask("shuai_rules", text);
        },
        /* A game file's bytes (Uint8Array) read: the games as JSON text. */
        games(bytes) {
          return ask("shuai_games", bytes);
        },
        /* A review query (see ShuaiRules.review): its answer, JSON text. */
        review(text) {
          return ask("shuai_review", text);
        },
      };
    }

    /* The module's bytes from base64 text. */
    function decodeBase64(text) {
      if (typeof atob === "function") {
        const raw = atob(text);
        const bytes = new Uint8Array(raw.length);
        for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
        return bytes;
      }
      return new Uint8Array(Buffer.from(text, "base64"));
    }

    return { instantiate, decodeBase64, clock };
  }

  /*
   * The worker's code (run from a Blob URL, so no worker file is fetched).
   * One engine: each line runs to its end (a `go` searches before the next
   * message is read). `stop` during a search reaches it through a shared
   * flag when the page may share memory; otherwise the page side restarts
   * the worker (see Shuai.stop).
   */
  function workerMain(core) {
    let engine = null;
    // Int32Array over a SharedArrayBuffer: [0] counts stops, [1] ponderhits.
    let flag = null;
    let goGeneration = 0;
    let goPonderhits = 0;
    const queue = [];
    self.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "init") {
        try {
          flag = msg.stopFlag ? new Int32Array(msg.stopFlag) : null;
          const poll = () => flag !== null && Atomics.load(flag, 0) > goGeneration;
          const ponderhit = () => flag !== null && Atomics.load(flag, 1) > goPonderhits;
          engine = core.instantiate(msg.module, (line) => self.postMessage({ type: "line", line }), poll, ponderhit);
          engine.init(msg.seed[0], msg.seed[1]);
          self.postMessage({ type: "ready" });
          while (queue.length) run(queue.shift());
        } catch (e) {
          self.postMessage({ type: "error", message: String(e && e.message ? e.message : e) });
        }
      } else if (msg.type === "line") {
        if (engine === null) queue.push(msg);
        else run(msg);
      }
    };
    function run(msg) {
      if (/^\s*go\b/i.test(msg.line)) {
        goGeneration = msg.generation;
        goPonderhits = msg.ponderhits;
      }
      try {
        if (engine.line(msg.line)) self.postMessage({ type: "quit" });
      } catch (e) {
        // A trap (a bug): the engine instance is unusable from here.
        engine = null;
        self.postMessage({ type: "error", trap: true, message: "the engine failed: " + String(e && e.message ? e.message : e) });
      }
    }
  }

  /* The compiled module, shared by every engine and rules instance. */
  let sharedModule = null;

  function loadModule(wasm) {
    if (wasm instanceof WebAssembly.Module) return wasm;
    if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return new WebAssembly.Module(wasm);
    if (sharedModule) return sharedModule;
    let text = typeof SHUAI_WASM_BASE64 === "string" ? SHUAI_WASM_BASE64 : null;
    if (text === null && typeof require === "function") {
      try {
        text = require("./dist/shuai-wasm.js").SHUAI_WASM_BASE64;
      } catch (e) {
        text = null;
      }
    }
    if (text === null) {
      throw new Error("Shuai: no WebAssembly module: load dist/shuai-wasm.js first (run web/build.sh to make it) or pass { wasm }");
    }
    sharedModule = new WebAssembly.Module(shuaiCore().decodeBase64(text));
    return sharedModule;
  }

  /*
   * Compiles the module off the page's thread (browsers refuse to compile
   * a large module synchronously on it) and keeps it for every engine and
   * rules instance made afterwards.
   */
  async function compile(wasm) {
    if (wasm instanceof WebAssembly.Module) return (sharedModule = wasm);
    if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return (sharedModule = await WebAssembly.compile(wasm));
    if (sharedModule) return sharedModule;
    if (typeof SHUAI_WASM_BASE64 !== "string") return loadModule();
    sharedModule = await WebAssembly.compile(shuaiCore().decodeBase64(SHUAI_WASM_BASE64));
    return sharedModule;
  }

  /* Commands that change no state: not replayed after a restart. */
  const NOT_REPLAYED = /^\s*(go|stop|ponderhit|isready|quit|d|display|probe|bench|perft)\b/i;

  /**
   * The engine in a Web Worker. See shuai.d.ts for the API.
   */
  class Shuai {
    constructor(options) {
      options = options || {};
      if (typeof Worker === "undefined") throw new Error("Shuai needs Web Workers (a browser)");
      this._module = loadModule(options.wasm);
      this._listeners = [];
      this._waiters = [];
      this._history = [];
      this._searching = false;
      this._lastPv = [];
      this._replaying = false;
      this._dead = false;
      this._generation = 0;
      this._recoveries = 0;
      // A shared stop flag needs shared memory, which browsers give only
      // to cross-origin isolated pages (served with COOP and COEP headers).
      const shared = typeof SharedArrayBuffer !== "undefined" && (typeof crossOriginIsolated === "undefined" || crossOriginIsolated);
      this._flag = shared && options.sharedStop !== false ? new Int32Array(new SharedArrayBuffer(8)) : null;
      this._ponderhits = 0;
      /** Resolves when the worker is ready (lines sent before are queued). */
      this.ready = this._start();
    }

    /** Compiles the module once (see compile); resolves with it. */
    static compile(wasm) {
      return compile(wasm);
    }

    /** How `stop` reaches a running search: "shared-flag" or "restart". */
    get stopMethod() {
      return this._flag ? "shared-flag" : "restart";
    }

    _start() {
      const source = "(" + workerMain.toString() + ")((" + shuaiCore.toString() + ")());";
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      this._worker = new Worker(url);
      URL.revokeObjectURL(url);
      const seed = [Math.floor(Math.random() * 2 ** 32), Math.floor(Math.random() * 2 ** 32)];
      const ready = new Promise((resolve, reject) => {
        this._worker.onmessage = (event) => {
          const msg = event.data;
          if (msg.type === "line") this._line(msg.line);
          else if (msg.type === "ready") resolve();
          else if (msg.type === "error" && msg.trap && this._recoveries < 3) {
            // The engine trapped (a bug; natively the search's panic
            // guard would answer): a new worker goes on from the same
            // setup, and a running search is answered.
            this._recoveries += 1;
            this._emit("info string " + msg.message + "; the engine was restarted");
            const searching = this._searching;
            this._searching = false;
            this._replace(searching);
          } else if (msg.type === "error") {
            this._emit("info string " + msg.message);
            reject(new Error(msg.message));
            this._failWaiters(msg.message);
          }
        };
        this._worker.onerror = (e) => {
          const text = "the worker failed: " + (e.message || "unknown error");
          reject(new Error(text));
          this._failWaiters(text);
        };
      });
      this._worker.postMessage({
        type: "init",
        module: this._module,
        seed,
        stopFlag: this._flag ? this._flag.buffer : null,
      });
      ready.catch(() => {});
      return ready;
    }

    _line(line) {
      if (this._replaying) {
        // The replay's own replies (handshake, messages) were said before.
        if (line === "readyok") this._replaying = false;
        return;
      }
      if (this._searching && line.startsWith("info ") && / pv /.test(line) && !/ multipv [2-9]/.test(line)) {
        this._lastPv = line.split(" pv ")[1].trim().split(/\s+/);
      }
      if (/^(bestmove|nobestmove)\b/.test(line)) {
        this._searching = false;
        this._recoveries = 0;
      }
      this._emit(line);
    }

    _emit(line) {
      for (const cb of this._listeners.slice()) {
        try {
          cb(line);
        } catch (e) {
          setTimeout(() => {
            throw e;
          });
        }
      }
      if (/^(bestmove|nobestmove)\b/.test(line)) {
        const words = line.split(/\s+/);
        const result = {
          bestmove: words[0] === "bestmove" && words[1] !== "(none)" ? words[1] : null,
          ponder: words[2] === "ponder" ? words[3] : null,
          line,
        };
        const waiters = this._waiters;
        this._waiters = [];
        for (const w of waiters) w.resolve(result);
      }
    }

    _failWaiters(text) {
      const waiters = this._waiters;
      this._waiters = [];
      for (const w of waiters) w.reject(new Error(text));
    }

    /** Sends one line of UCI/UCCI text (several lines: one call each). */
    send(line) {
      if (this._dead) throw new Error("Shuai: the engine was terminated");
      for (const one of String(line).split(/\r?\n/)) {
        if (one.trim() === "") continue;
        const isStop = /^\s*stop\b/i.test(one);
        const isGo = /^\s*go\b/i.test(one);
        if (/^\s*ponderhit\b/i.test(one) && this._searching) {
          // With shared memory the search reads it from the flag and goes
          // on as a timed search; without, it cannot be told, so it is
          // stopped and answers with what it has (as after `stop`).
          if (this._flag) Atomics.store(this._flag, 1, ++this._ponderhits);
          else this._interrupt();
          continue;
        }
        // A search is running: `stop` (or a `go`, which stops it first)
        // cannot wait in the worker's queue behind it.
        if ((isStop || isGo) && this._searching) {
          this._interrupt();
          if (isStop) continue;
        }
        if (isGo) {
          this._searching = !/^\s*go\s+perft\b/i.test(one);
          this._lastPv = [];
        }
        if (!NOT_REPLAYED.test(one)) this._remember(one);
        this._post(one);
      }
    }

    _post(line) {
      this._worker.postMessage({ type: "line", line, generation: this._generation, ponderhits: this._ponderhits });
    }

    /*
     * Keeps the lines a new worker must be given to reach this state: a
     * new position replaces the last one (and its banned moves), a
     * setoption the earlier one of the same name, a new game the earlier
     * one, so the list stays short over a long game.
     */
    _remember(line) {
      const words = line.trim().split(/\s+/);
      const head = words[0].toLowerCase();
      const key = (l) => {
        const w = l.trim().split(/\s+/);
        const h = w[0].toLowerCase();
        if (h === "position" || h === "fen" || h === "startpos" || h === "banmoves") return "position";
        if (h === "ucinewgame" || h === "uccinewgame") return "newgame";
        if (h === "setoption") {
          const at = w.findIndex((x) => x.toLowerCase() === "value");
          return "setoption " + w.slice(1, at < 0 ? w.length : at).join(" ").toLowerCase();
        }
        return null;
      };
      const k = key(line);
      if (k !== null && head !== "banmoves") this._history = this._history.filter((l) => key(l) !== k);
      this._history.push(line);
    }

    /** Calls `cb(line)` for every line the engine prints; returns a function that stops it. */
    onLine(cb) {
      this._listeners.push(cb);
      return () => {
        this._listeners = this._listeners.filter((c) => c !== cb);
      };
    }

    /** Resolves with the next `bestmove` (or `nobestmove`) line. */
    bestMove() {
      return new Promise((resolve, reject) => this._waiters.push({ resolve, reject }));
    }

    /** Sends `go <args>` and resolves with its best move. */
    go(args) {
      if (this._dead) return Promise.reject(new Error("Shuai: the engine was terminated"));
      const result = this.bestMove();
      this.send(("go " + (args || "")).trim());
      return result;
    }

    /** Stops the running search (its `bestmove` follows). */
    stop() {
      this.send("stop");
    }

    /**
     * Stops the running search. With shared memory (a cross-origin
     * isolated page) a flag the search polls says so, and the engine
     * answers as it would on a terminal. Without it the worker, busy in
     * the search, reads no message until the search ends, so the worker is
     * ended instead: the best move is the last main line's first move (as
     * the engine would have answered), and a new worker gets the same
     * setup lines (its table starts empty); if no line had come yet, a
     * one-ply search answers.
     */
    _interrupt() {
      this._searching = false;
      if (this._flag) {
        // The search polls this every 1024 nodes and answers at once.
        Atomics.store(this._flag, 0, ++this._generation);
        return;
      }
      this._replace(true);
    }

    /*
     * A new worker in the old one's place, given the lines that set the
     * state up; `answer`: a search was running, so its best move is
     * given (the last main line's first move, or a one-ply search's).
     */
    _replace(answer) {
      this._worker.terminate();
      const pv = this._lastPv;
      this._lastPv = [];
      this.ready = this._start();
      this._replaying = true;
      const post = (line) => this._post(line);
      for (const line of this._history) post(line);
      post("isready"); // its readyok ends the replay (see _line)
      if (!answer) return;
      if (pv.length > 0) {
        // Before any line of the new worker (those come as later tasks).
        const answer = "bestmove " + pv[0] + (pv.length > 1 ? " ponder " + pv[1] : "");
        queueMicrotask(() => this._emit(answer));
      } else {
        post("go depth 1"); // stopped before its first line: a quick answer
      }
    }

    /** Ends the worker; the object cannot be used afterwards. */
    terminate() {
      this._dead = true;
      this._worker.terminate();
      this._failWaiters("the engine was terminated");
    }
  }

  /**
   * The rules on the page's own thread (synchronous): legal moves, check,
   * the verdict and Chinese notation, from the engine's own rules code.
   */
  class ShuaiRules {
    constructor(options) {
      options = options || {};
      const module = loadModule(options.wasm);
      this._core = shuaiCore().instantiate(module, () => {}, () => false);
    }

    _ask(text, kind) {
      const answer = JSON.parse(this._core[kind || "rules"](text));
      if (!answer.ok) throw new Error(answer.error);
      return answer;
    }

    /** The position after `moves` from `fen` ("startpos" or a FEN). */
    describe(fen, moves, ruleBook) {
      const setup = !fen || fen === "startpos" ? "startpos" : "fen " + fen;
      const list = moves && moves.length ? " moves " + moves.join(" ") : "";
      return this._ask("describe " + (ruleBook || "chinese") + " " + setup + list);
    }

    /**
     * The games in a game file (XQF, PGN, DhtmlXQ; `bytes` a Uint8Array or
     * ArrayBuffer, or text, which is read as UTF-8), read by the engine's
     * own readers: `{ ok: true, format, games: [{ title, tags, start,
     * comment, moves: [{ iccs, chinese, comment }], variations, problems
     * }] }`, or `{ ok: false, error, place, message }` for a file that
     * cannot be read (never thrown: the message is for the reader).
     */
    games(bytes) {
      const input = typeof bytes === "string" ? bytes : bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
      return JSON.parse(this._core.games(input));
    }

    /**
     * A game judged from its positions' searches as `shuai review` judges
     * it: `fen` ("startpos" or a FEN) and `moves` (ICCS) the game,
     * `searches[i]` the search of the position after `moves[..i]` as
     * `{ cp | mate, best, pv }` (UCI score for the side to move, best move
     * in ICCS or null, the engine's line from it, optional); fewer searches
     * than positions judge what they cover. `tags` ([name, value] pairs,
     * the file's) and `settings` ("depth 8, 1 thread") go into the
     * annotated PGN. Returns `{ thresholds, moves: [{ ply, number, iccs,
     * chinese, mover, mark, loss, cpLoss, score, wdl, best, bestChinese,
     * bestScore }], redChances, summary: { red, black }, opening, svg, pgn
     * }` (losses and chances per mille; `svg` the graph, headed `title`;
     * `opening` `{ code, name }` (ECCO) or null; `pgn` the annotated PGN
     * `shuai review --pgn` writes).
     */
    review(fen, moves, searches, title, tags, settings) {
      const setup = !fen || fen === "startpos" ? "startpos" : "fen " + fen;
      const list = moves && moves.length ? " moves " + moves.join(" ") : "";
      const line = (s) => (s.best && s.pv && s.pv.length && s.pv[0] === s.best ? s.pv.join(",") : s.best || "-");
      const words = searches.map((s) => (s.mate !== undefined && s.mate !== null ? "mate:" + s.mate : "cp:" + (s.cp || 0)) + ":" + line(s));
      const oneLine = (text) => String(text || "").replace(/[\r\n\t]+/g, " ");
      const tagLines = (tags || []).map(([k, v]) => "\n" + oneLine(k) + "\t" + oneLine(v)).join("");
      return this._ask("review " + setup + list + " searches " + words.join(" ") + "\n" + oneLine(title) + "\n" + oneLine(settings) + tagLines, "review");
    }

    /** `pv` (moves from the position) in Chinese notation. */
    chinese(fen, moves, pv) {
      const setup = !fen || fen === "startpos" ? "startpos" : "fen " + fen;
      const list = moves && moves.length ? " moves " + moves.join(" ") : "";
      return this._ask("line " + setup + list + " pv " + pv.join(" ")).chinese;
    }
  }

  return { Shuai, ShuaiRules, compile, core: shuaiCore, loadModule };
});
