//! Running a search for a person: Ctrl-C routed to it, and a live line on
//! standard error (when that is a terminal) saying which depth runs, which
//! root move is being searched and about how many nodes were searched.

use super::{interrupt, notation, score, Style};
use shuai_board::{Move, Position};
use shuai_search::{Control, Event, Info, Limits, SearchResult, Searcher};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the live line is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Set when Enter was pressed at the terminal: its echo moved the cursor
/// below the live line, which must then be erased one line up.
static ENTER_ECHOED: AtomicBool = AtomicBool::new(false);

/// Tells the live line that Enter was typed at the terminal (whose echo
/// started a new line under it).
pub fn enter_echoed() {
    ENTER_ECHOED.store(true, Ordering::SeqCst);
}

#[derive(Default)]
struct State {
    /// Whether the live line is on the screen now.
    shown: bool,
    /// The depth being searched.
    depth: u32,
    /// The root move being searched at that depth, and its number.
    current: Option<(Move, usize)>,
    /// Nodes, time and speed at the last report.
    nodes: u64,
    time: Duration,
    nps: u64,
}

/// The live line of one search.
struct Live<'a> {
    pos: &'a Position,
    style: Style,
    root_moves: usize,
    start: Instant,
    note: &'a str,
    state: Mutex<State>,
}

impl Live<'_> {
    /// Removes the live line (before other output, and at the end).
    fn clear(&self, state: &mut State) {
        if state.shown {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r\x1b[K");
            if ENTER_ECHOED.swap(false, Ordering::SeqCst) {
                let _ = write!(err, "\x1b[1A\r\x1b[K");
            }
            let _ = err.flush();
            state.shown = false;
        }
    }

    /// Redraws the live line.
    fn tick(&self) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let elapsed = self.start.elapsed();
        // The search reports nodes with each completed line and about once
        // a second on a long search: in between, estimate them from the
        // last speed.
        let since = elapsed.saturating_sub(state.time).as_secs_f64();
        let nodes = state.nodes + (state.nps as f64 * since) as u64;
        let mut line = format!("  depth {}", state.depth.max(1));
        if let Some((m, number)) = state.current {
            line.push_str(&format!(
                "  move {number}/{} {}",
                self.root_moves,
                notation::move_text(self.pos, m, self.style)
            ));
        }
        line.push_str(&format!(
            "  ~{} nodes  {}  {}",
            score::count_text(nodes),
            score::time_text(elapsed),
            self.note
        ));
        // Longer than the terminal is wide, the line would wrap and could
        // no longer be erased: cut it.
        let columns = super::terminal_columns().unwrap_or(80).max(20);
        while super::display_width(&line) >= columns {
            line.pop();
        }
        let mut err = std::io::stderr();
        let _ = write!(err, "\r\x1b[K{line}");
        let _ = err.flush();
        state.shown = true;
    }

    /// Takes an event of the search; `print` writes a completed line.
    fn event(&self, event: &Event, print: &(dyn Fn(&Info) + Sync)) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        match event {
            Event::Iteration(info) => {
                self.clear(&mut state);
                print(info);
                let _ = std::io::stdout().flush();
                state.nodes = info.nodes;
                state.time = info.time;
                state.nps = info.nps;
                if info.depth >= state.depth {
                    state.depth = info.depth + 1;
                    state.current = None;
                }
            }
            Event::CurrMove { depth, mv, number } => {
                state.depth = *depth;
                state.current = Some((*mv, *number));
            }
            Event::Status(status) => {
                state.nodes = status.nodes;
                state.time = status.time;
                state.nps = status.nps;
            }
        }
    }
}

/// How a search shows its progress.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// How moves are written.
    pub style: Style,
    /// Whether to draw the live line (only ever on a terminal).
    pub live: bool,
    /// Text at the end of the live line (what stops the search).
    pub note: &'a str,
}

/// Searches `pos` within `limits`, calling `print` for every completed
/// line. Ctrl-C stops the search (through `control`, which other threads
/// may also stop). With `progress.live` and standard error a terminal, a
/// live line shows the search's progress on standard error.
pub fn search(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    control: &Arc<Control>,
    progress: Progress,
    print: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let Progress { style, live, note } = progress;
    interrupt::install();
    let _guard = interrupt::SearchGuard::new(Arc::clone(control));
    let live_line = Live {
        pos,
        style,
        root_moves: pos.legal_moves().len(),
        start: Instant::now(),
        note,
        state: Mutex::new(State::default()),
    };
    let live = live && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        if live {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK);
                    if !done.load(Ordering::Relaxed) {
                        live_line.tick();
                    }
                }
            });
        }
        let result = searcher.search(pos, limits, control, &|e| live_line.event(e, print));
        done.store(true, Ordering::Relaxed);
        result
    });
    if let Ok(mut state) = live_line.state.lock() {
        live_line.clear(&mut state);
    }
    result
}
