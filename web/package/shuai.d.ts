// Types for shuai.js: Shuai (帅), a Xiangqi engine, in a Web Worker.

/** A `bestmove` (or UCCI `nobestmove`) line, read. */
export interface BestMove {
  /** The move in ICCS (`h2e2`), or null for `bestmove (none)` / `nobestmove`. */
  bestmove: string | null;
  /** The expected reply, if the engine gave one. */
  ponder: string | null;
  /** The line as printed. */
  line: string;
}

/** Where the WebAssembly module comes from (default: dist/shuai-wasm.js). */
export type WasmSource = ArrayBuffer | ArrayBufferView | WebAssembly.Module;

export interface ShuaiOptions {
  /** The module's bytes or a compiled module; default: the base64 of dist/shuai-wasm.js. */
  wasm?: WasmSource;
  /** false: never use a shared stop flag even where shared memory is allowed. */
  sharedStop?: boolean;
}

/** The engine, running in a Web Worker; it speaks UCI (and UCCI) text. */
export class Shuai {
  constructor(options?: ShuaiOptions);
  /** Compiles the module once, off the page's thread (call it before the constructor in a page). */
  static compile(wasm?: WasmSource): Promise<WebAssembly.Module>;
  /** Resolves once the worker has started the engine (lines sent before wait). */
  ready: Promise<void>;
  /**
   * How `stop` reaches a running search: "shared-flag" on cross-origin
   * isolated pages (shared memory), else "restart" (the worker is replaced
   * and the last main line's first move answers).
   */
  readonly stopMethod: "shared-flag" | "restart";
  /**
   * Sends a line (or several, separated by newlines) of UCI/UCCI text.
   * `stop` and `ponderhit` during a search travel as `stopMethod` says.
   */
  send(line: string): void;
  /** Calls `cb` with every line the engine prints; returns a function that removes it. */
  onLine(cb: (line: string) => void): () => void;
  /** Resolves with the next best move the engine prints. */
  bestMove(): Promise<BestMove>;
  /** Sends `go <args>` (e.g. "movetime 1000", "depth 10") and resolves with its best move. */
  go(args?: string): Promise<BestMove>;
  /** Stops the running search; its best move follows. */
  stop(): void;
  /** Ends the worker; pending promises are rejected. */
  terminate(): void;
}

/** A move of a described game: ICCS and Chinese notation. */
export interface DescribedMove {
  iccs: string;
  chinese: string;
}

/** The end of the game by the rules, from the side to move's view. */
export interface GameEnd {
  result: "win" | "loss" | "draw";
  winner: "red" | "black" | null;
  /** Why (mate, no move, perpetual check or chase, the natural-move limit, ...). */
  reason: string;
}

/** A position described by the engine's rules code. */
export interface Description {
  ok: true;
  fen: string;
  turn: "red" | "black";
  check: boolean;
  /** The legal moves in ICCS. */
  legal: string[];
  /** The moves played, up to the first illegal one. */
  moves: DescribedMove[];
  /** null while the game goes on. */
  end: GameEnd | null;
  /** The first illegal move, if any. */
  problem: string | null;
}

/** The engine's rules on the page's own thread (synchronous). */
export class ShuaiRules {
  constructor(options?: { wasm?: WasmSource });
  /** The position after `moves` from `fen` ("startpos" or a FEN); throws on a bad FEN. */
  describe(fen: string, moves: string[], ruleBook?: "chinese" | "asian"): Description;
  /** `pv` from the position after `moves`, in Chinese notation (up to its first illegal move). */
  chinese(fen: string, moves: string[], pv: string[]): string[];
}

/** Compiles the module once, off the page's thread; later constructors reuse it. */
export function compile(wasm?: WasmSource): Promise<WebAssembly.Module>;
