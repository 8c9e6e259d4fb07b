//! `shuai play`: a game against the engine at the terminal. Moves are typed
//! in ICCS (`h2e2`) or Chinese notation (`炮二平五`); the board is redrawn
//! after every move; checks, mates, stalemates and the repetition and
//! natural-move-limit verdicts are announced with their reasons.

use super::live::{self, Progress};
use super::{board, emit, notation, parse_position, say, score, side_name, Style, StyleArgs};
use crate::engine::{IterationLines, Skill, FULL_SKILL};
use clap::{Args, ValueEnum};
use shuai_board::rules::{GameResult, RuleBook, Verdict};
use shuai_board::{Color, Move, Position, Rng};
use shuai_search::{Control, Limits, SearchResult, Searcher};
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A side to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Red (moves first from the start position).
    Red,
    /// Black.
    Black,
}

/// Arguments of `shuai play`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
While playing, type a move in ICCS (h2e2) or Chinese notation (炮二平五,
马8进7, 前车进一), or a command:
  undo    take back your last move (and the engine's reply)
  hint    ask the engine for a move for you
  fen     print the position as a FEN
  board   draw the board again
  moves   list your legal moves
  help    this list
  quit    leave (so do Ctrl-D and Ctrl-C; Ctrl-C while the engine thinks makes it move now)

Examples:
  shuai play
  shuai play --side black --movetime 3000
  shuai play --level 6
  shuai play --elo 1500
  shuai play --fen '3k5/9/9/9/9/9/9/9/4A4/3AK1R2 w'")]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::Red)]
    pub side: Side,
    /// The engine's thinking time per move, milliseconds (at most: it moves
    /// sooner when another depth would not finish in time).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub movetime: u64,
    /// Also stop the engine's search at this depth (for weaker, faster play).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// The engine's playing level: 0 (weakest) to 20 (full strength, the
    /// default). Lower levels search less and choose among their best
    /// moves with a growing error; the level table of docs/strength.md
    /// gives each level's measured Elo.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=FULL_SKILL as i64),
          conflicts_with = "elo")]
    pub level: Option<u8>,
    /// Play at about this Elo instead (the level table's scale; values
    /// outside its range use its weakest or strongest level).
    #[arg(long, value_name = "ELO")]
    pub elo: Option<i32>,
    /// The position to start from: a FEN (quoted) or `startpos`.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from that position before the game starts (ICCS or
    /// Chinese notation, separated by spaces).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// The engine's search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// The repetition rules: chinese (the default) or asian.
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    pub rules: RuleBook,
    /// The engine's transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Board and move display.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Endgame tables the engine probes.
    #[command(flatten)]
    pub egtb: super::egtb::EgtbArgs,
}

/// The commands understood at the prompt.
const COMMANDS: &str = "undo, hint, fen, board, moves, help, quit";

/// A game in progress.
struct Game {
    pos: Position,
    human: Color,
    /// Plies played before the game started (`--moves`), never undone.
    setup_plies: usize,
    searcher: Searcher,
    /// The limits of a hint (full strength).
    limits: Limits,
    /// The engine's level, when weakened.
    skill: Option<Skill>,
    /// Draws the level's choices.
    rng: Rng,
    /// The repetition rules the game is judged by.
    rules: RuleBook,
    style: Style,
    /// Whether the end of the game has been announced (and not undone).
    over: bool,
}

impl Game {
    fn draw_board(&self) {
        emit(&board::render(&self.pos, self.style, self.pos.last_move()));
    }

    /// Runs the engine on the current position with `limits`; returns the
    /// result and the lines of the deepest iteration.
    fn think(&mut self, note: &str, limits: &Limits) -> (SearchResult, Vec<shuai_search::Info>) {
        let control = Arc::new(Control::new());
        let progress = Progress {
            style: self.style,
            live: true,
            note,
        };
        let lines = Mutex::new(IterationLines::default());
        let result = live::search(
            &mut self.searcher,
            &self.pos,
            limits,
            &control,
            progress,
            &|info| {
                if let Ok(mut l) = lines.lock() {
                    l.record(info);
                }
            },
        );
        let lines = lines
            .into_inner()
            .map(|l| l.best_first())
            .unwrap_or_default();
        (result, lines)
    }

    /// Plays `m` (legal), says who played it (and `detail`) and redraws
    /// the board.
    fn play(&mut self, m: Move, who: &str, detail: &str) {
        let text = notation::move_text(&self.pos, m, self.style);
        let mover = side_name(self.pos.side_to_move());
        self.pos.make_move(m);
        say!("{who} ({mover}) played {text}{detail}");
        self.draw_board();
        // A check that ends the game (mate, a perpetual) is announced as
        // the verdict instead.
        if self.pos.in_check() && super::game_over(&self.pos, self.rules).is_none() {
            say!(
                "Check! (将军) {} must answer.",
                side_name(self.pos.side_to_move())
            );
        }
    }

    /// The engine's move (at its level, if weakened).
    fn engine_move(&mut self) {
        let mut limits = self.limits.clone();
        if let Some(skill) = self.skill {
            skill.limit(&mut limits);
        }
        let (result, lines) = self.think("Ctrl-C: move now", &limits);
        let Some(mut m) = result.best_move else {
            // Unreachable: the end of the game is judged before.
            self.over = true;
            return;
        };
        let mut shown = result.score;
        if let Some(pick) = self.skill.and_then(|s| s.pick(&lines, &mut self.rng)) {
            m = pick.pv[0];
            shown = pick.score;
        }
        let detail = format!(
            "   [depth {}, score {} for Shuai, {:#}]",
            result.depth,
            score::score_text(shown),
            score::wdl(shown, &self.pos)
        );
        self.play(m, "Shuai", &detail);
    }

    /// Announces the end of the game, if it has come.
    fn judge(&mut self) {
        if self.over {
            return;
        }
        if let Some(verdict) = super::game_over(&self.pos, self.rules) {
            say!(
                "{}",
                announcement(&verdict, self.pos.side_to_move(), self.human)
            );
            say!("Type undo to take back your last move, fen for the position, or quit.");
            self.over = true;
        }
    }

    /// Takes back the human's last move and the engine's reply.
    fn undo(&mut self) -> Result<(), String> {
        if self.pos.ply_count() <= self.setup_plies {
            return Err("nothing to undo".to_string());
        }
        let mut taken = Vec::new();
        while let Some(m) = self.pos.last_move() {
            self.pos.unmake_move();
            taken.push(notation::move_text(&self.pos, m, self.style));
            if self.pos.side_to_move() == self.human || self.pos.ply_count() <= self.setup_plies {
                break;
            }
        }
        taken.reverse();
        self.over = false;
        say!("Took back {}.", taken.join(" "));
        self.draw_board();
        Ok(())
    }

    /// Handles one line typed at the prompt; `false` ends the game.
    fn command(&mut self, line: &str) -> bool {
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return false,
            "help" | "?" => say!(
                "Type a move in ICCS (h2e2) or Chinese notation (炮二平五), or one of: {COMMANDS}."
            ),
            "fen" => say!("{}", self.pos.to_fen()),
            "board" | "d" => self.draw_board(),
            "moves" => {
                let moves: Vec<String> = self
                    .pos
                    .legal_moves()
                    .iter()
                    .map(|&m| notation::move_text(&self.pos, m, self.style))
                    .collect();
                say!("{}", moves.join(" "));
            }
            "undo" | "takeback" => {
                if let Err(e) = self.undo() {
                    eprintln!("Cannot undo: {e}.");
                }
            }
            "hint" => {
                if self.over {
                    eprintln!("The game is over: undo, fen or quit.");
                } else {
                    let limits = self.limits.clone();
                    let (result, _) = self.think("Ctrl-C: stop", &limits);
                    if let Some(m) = result.best_move {
                        say!(
                            "Hint: {}   [depth {}, score {} for you, {:#}]   line {}",
                            notation::move_text(&self.pos, m, self.style),
                            result.depth,
                            score::score_text(result.score),
                            score::wdl(result.score, &self.pos),
                            notation::line_text(&self.pos, &result.pv, self.style)
                        );
                    }
                }
            }
            _ => {
                if self.over {
                    eprintln!("The game is over: undo, fen or quit.");
                    return true;
                }
                match notation::parse_user_move(&self.pos, word) {
                    Ok(m) => self.play(m, "You", ""),
                    Err(e) => eprintln!(
                        "Not a legal move or a command: {e}. Type a move like 炮二平五 or \
                         h2e2, or one of: {COMMANDS}."
                    ),
                }
            }
        }
        true
    }
}

/// The words announcing the end of a game: the rule and its reason, the
/// result, and who won from the human's point of view.
pub fn announcement(verdict: &Verdict, side_to_move: Color, human: Color) -> String {
    let result = match verdict.winner(side_to_move) {
        Some(winner) if winner == human => format!("{} wins — you win!", side_name(winner)),
        Some(winner) => format!("{} wins — Shuai wins.", side_name(winner)),
        None => "Draw.".to_string(),
    };
    let score = match (verdict.result, side_to_move) {
        (GameResult::Draw, _) => "½-½",
        (GameResult::Win, Color::Red) | (GameResult::Loss, Color::Black) => "1-0",
        _ => "0-1",
    };
    format!(
        "Game over: {}. {verdict}\n{result} ({score})",
        verdict.reason
    )
}

/// Runs `shuai play`.
pub fn run(args: &PlayArgs) -> ExitCode {
    let words: Vec<String> = args.fen.iter().cloned().collect();
    let pos = match parse_position(&words, &args.moves) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("shuai play: {msg}");
            return ExitCode::from(2);
        }
    };
    let tablebase = match args.egtb.open() {
        Ok(tb) => tb,
        Err(msg) => {
            eprintln!("shuai play: {msg}");
            return ExitCode::from(2);
        }
    };
    super::interrupt::install();
    let human = match args.side {
        Side::Red => Color::Red,
        Side::Black => Color::Black,
    };
    let mut searcher = Searcher::new(args.hash as usize);
    searcher.set_threads(args.threads as usize);
    searcher.set_rule_book(args.rules);
    searcher.set_tablebase(tablebase);
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        depth: args.depth,
        ..Limits::default()
    };
    let skill = match (args.elo, args.level) {
        (Some(elo), _) => Some(Skill::from_elo(elo)),
        (None, Some(level)) => Skill::from_level(level),
        (None, None) => None,
    };
    let mut game = Game {
        setup_plies: pos.ply_count(),
        pos,
        human,
        searcher,
        limits,
        skill,
        rng: Rng::from_clock(),
        rules: args.rules,
        style: args.style.style(),
        over: false,
    };
    let strength = match skill {
        Some(s) => format!(" at level {:.1} (about {} Elo)", s.level(), s.elo()),
        None => String::new(),
    };
    say!(
        "Shuai (帅) plays {}{strength}, you play {}; {} a move. Type moves as 炮二平五 or h2e2; \
         commands: {COMMANDS}.",
        side_name(!human),
        side_name(human),
        score::time_text(Duration::from_millis(args.movetime)),
    );
    game.draw_board();

    let interactive = std::io::stdin().is_terminal();
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        game.judge();
        if !game.over && game.pos.side_to_move() != human {
            game.engine_move();
            continue;
        }
        emit(&format!("{}> ", side_name(human)));
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => {
                say!("");
                break;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("shuai play: cannot read the input: {e}");
                return ExitCode::FAILURE;
            }
        }
        let Ok(line) = String::from_utf8(std::mem::take(&mut bytes)) else {
            eprintln!(
                "The input is not UTF-8 text (is the terminal set to another encoding?); \
                 type the move again, or in ICCS (h2e2)."
            );
            continue;
        };
        if !interactive {
            // Piped input: echo it so the transcript reads like a session.
            say!("{}", line.trim_end());
        }
        if !game.command(&line) {
            break;
        }
    }
    say!("Bye.");
    ExitCode::SUCCESS
}
