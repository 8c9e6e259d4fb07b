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
  /**
   * The games of a game file (XQF, PGN, DhtmlXQ), read by the engine's own
   * readers; text is taken as UTF-8. A file that cannot be read is an
   * answer with `ok: false` (not thrown).
   */
  games(bytes: Uint8Array | ArrayBuffer | string): GameFile | GameFileError;
  /**
   * A game judged from its positions' searches as `shuai review` judges it
   * (`searches[i]`: the search after `moves[..i]`); `tags` (the file's)
   * and `settings` ("depth 8, 1 thread") go into the annotated PGN.
   * Throws on a bad FEN, an illegal move or a malformed search.
   */
  review(
    fen: string,
    moves: string[],
    searches: PositionSearch[],
    title?: string,
    tags?: [string, string][],
    settings?: string,
  ): Review;
}

/** A game file read. */
export interface GameFile {
  ok: true;
  format: "XQF" | "PGN" | "DhtmlXQ";
  games: FileGame[];
}

/** A game file that cannot be read: the reader's message and its place. */
export interface GameFileError {
  ok: false;
  /** The message with its place, e.g. "byte 1030: the file ends inside …". */
  error: string;
  place: { byte: number } | { line: number };
  message: string;
}

/** One game of a file: its header, start and main line. */
export interface FileGame {
  /** "Red – Black, Event, Date" with what the file gives. */
  title: string;
  /** Header fields under PGN names (Event, Site, Date, Red, Black, Result, …). */
  tags: [string, string][];
  /** The start position's FEN. */
  start: string;
  /** The comment before the first move. */
  comment: string | null;
  /** The main line. */
  moves: { iccs: string; chinese: string; comment: string | null }[];
  /** How many moves of the file lie off the main line. */
  variations: number;
  /** Moves that could not be played, with their place (each ended a line). */
  problems: string[];
}

/** One position's search: the UCI score for the side to move, the best move and the line from it. */
export interface PositionSearch {
  cp?: number;
  mate?: number;
  best: string | null;
  /** The engine's line, `best` first (ICCS); the annotated PGN's variations. */
  pv?: string[];
}

/** A score from Red's view. */
export type RedScore = { cp: number } | { mate: number };

/** A reviewed move. */
export interface ReviewedMove {
  ply: number;
  /** "12." or "12…". */
  number: string;
  iccs: string;
  chinese: string;
  mover: "red" | "black";
  /** "?!", "?", "??" or "". */
  mark: string;
  /** Winning chance given away, per mille. */
  loss: number;
  /** Centipawns given away (0 to 1000). */
  cpLoss: number;
  /** Red's score after the move. */
  score: RedScore;
  /** Red's win, draw and loss after the move, per mille. */
  wdl: [number, number, number];
  /** The engine's move where it differs from the one played. */
  best: string | null;
  bestChinese: string | null;
  /** Red's score with the engine's move. */
  bestScore: RedScore;
}

/** A side's summary. */
export interface ReviewSummary {
  moves: number;
  /** Points (percent) of winning chance. */
  averageLoss: number;
  averageCpLoss: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** A game judged, with its graph. */
export interface Review {
  ok: true;
  /** The marks' limits, per mille: 100, 200, 300. */
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
  moves: ReviewedMove[];
  /** Red's winning chance at every position searched, per mille. */
  redChances: number[];
  summary: { red: ReviewSummary; black: ReviewSummary };
  /** The game's opening (ECCO code and Chinese name), or null. */
  opening: { code: string; name: string } | null;
  /** The graph of `shuai review --graph`, as SVG text. */
  svg: string;
  /** The annotated PGN of `shuai review --pgn`. */
  pgn: string;
}

/** Compiles the module once, off the page's thread; later constructors reuse it. */
export function compile(wasm?: WasmSource): Promise<WebAssembly.Module>;
