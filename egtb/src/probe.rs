//! Looking positions up: a directory of table files loaded on demand, and
//! the move that keeps a position's value.

use crate::file::{self, FileError};
use crate::material::Material;
use crate::table::{Table, TableSet};
use crate::value::Value;
use shuai_board::{Move, Position};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// How a move's result ranks for the side making it: larger is better.
/// Wins sort by shorter distance, losses by longer; among equals a move
/// that does not give check comes first, which a perpetual-check win needs
/// (the winner must not check forever itself).
fn move_rank(child: Value, gives_check: bool) -> (u8, i32, bool) {
    let quiet = !gives_check;
    match child {
        Value::Loss(n) => (4, -i32::from(n), quiet),
        Value::LossByRule(n) => (3, -i32::from(n), quiet),
        Value::Draw => (2, 0, quiet),
        Value::WinByRule(n) => (1, i32::from(n), quiet),
        Value::Win(n) => (0, i32::from(n), quiet),
    }
}

/// The best move of `pos` by the tables behind `probe` and the value it
/// keeps, `None` when `pos` or one of its children is not covered (or no
/// move exists). Ties go to the first move generated.
pub fn best_move_with(
    pos: &Position,
    probe: impl Fn(&Position) -> Option<Value>,
) -> Option<(Move, Value)> {
    let value = probe(pos)?;
    let moves = pos.legal_moves();
    best_move_among(pos, moves.as_slice(), probe).map(|(m, _)| (m, value))
}

/// The best of `moves` (legal moves of `pos`, for example the root moves
/// a search may play) by the tables behind `probe`, with the value of the
/// position it leads to (for the opponent, to move there). `None` when a
/// move's child is not covered or `moves` is empty. Ties go to the first
/// of `moves`.
pub fn best_move_among(
    pos: &Position,
    moves: &[Move],
    probe: impl Fn(&Position) -> Option<Value>,
) -> Option<(Move, Value)> {
    let mut pos = pos.clone();
    let mut best: Option<((u8, i32, bool), Move, Value)> = None;
    for &m in moves {
        pos.make_move(m);
        let child = probe(&pos);
        let check = pos.in_check();
        pos.unmake_move();
        let child = child?;
        let rank = move_rank(child, check);
        if best.is_none_or(|(b, _, _)| rank > b) {
            best = Some((rank, m, child));
        }
    }
    best.map(|(_, m, child)| (m, child))
}

/// The moves of best play from `pos` until mate, a draw value or
/// `max_plies` (draws and rule wins have no end, so they stop at once).
pub fn line_with(
    pos: &Position,
    max_plies: usize,
    probe: impl Fn(&Position) -> Option<Value>,
) -> Vec<Move> {
    let mut line = Vec::new();
    let mut pos = pos.clone();
    while line.len() < max_plies {
        match probe(&pos) {
            Some(Value::Win(_) | Value::Loss(_)) => {}
            _ => break,
        }
        let Some((m, _)) = best_move_with(&pos, &probe) else {
            break;
        };
        pos.make_move(m);
        line.push(m);
    }
    line
}

impl TableSet {
    /// The best move of `pos` by these tables ([`best_move_with`]).
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        best_move_with(pos, |p| self.probe(p))
    }
}

/// One table file found in a directory, read on its first probe.
struct Slot {
    /// The directory holding the file.
    dir: PathBuf,
    /// The table once read (`None`: the file was refused).
    table: OnceLock<Option<Arc<Table>>>,
}

/// The table files of one or more directories, each read on its first
/// probe and kept.
///
/// The directories are listed once, when opened: which endings exist is
/// then known without touching the disk (a search asks about positions
/// whose ending has no table far more often than about ones it has), and
/// probing takes no lock once a table is read, so the threads of a search
/// share one `Tablebase`. A file added later is seen by opening again.
pub struct Tablebase {
    /// Every table file found, by canonical material (the first directory
    /// holding an ending wins).
    slots: HashMap<Material, Slot>,
    /// The most pieces (kings included) of any ending found.
    max_pieces: usize,
    /// Messages about files that exist but were refused, one per file.
    errors: Mutex<Vec<String>>,
}

impl Tablebase {
    /// The tables in `dir` (nothing is read until a probe needs it). A
    /// directory that cannot be listed gives a tablebase with no tables;
    /// [`Tablebase::open_dirs`] says why instead.
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase::open_dirs(&[dir]).unwrap_or_else(|_| Tablebase::from_slots(HashMap::new()))
    }

    /// The tables in `dirs`, in order (an ending in two directories is
    /// read from the first). Fails, saying which and why, when a
    /// directory cannot be listed; files whose names are not those of
    /// tables are ignored.
    pub fn open_dirs<P: AsRef<Path>>(dirs: &[P]) -> Result<Tablebase, String> {
        let mut slots = HashMap::new();
        for dir in dirs {
            let dir = dir.as_ref();
            let entries = std::fs::read_dir(dir)
                .map_err(|e| format!("cannot read the directory {}: {e}", dir.display()))?;
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(material) = name
                    .to_str()
                    .and_then(|n| n.strip_suffix(&format!(".{}", file::EXTENSION)))
                    .and_then(|n| Material::parse(n).ok())
                    .filter(Material::is_canonical)
                else {
                    continue;
                };
                // Only the exact name a table is saved under: `krk.egtb`
                // parses too, but `file::load` would look for `KRK.egtb`.
                if name.to_str() != Some(file::file_name(&material).as_str()) {
                    continue;
                }
                slots.entry(material).or_insert_with(|| Slot {
                    dir: dir.to_path_buf(),
                    table: OnceLock::new(),
                });
            }
        }
        Ok(Tablebase::from_slots(slots))
    }

    fn from_slots(slots: HashMap<Material, Slot>) -> Tablebase {
        Tablebase {
            max_pieces: slots.keys().map(Material::piece_count).max().unwrap_or(0),
            slots,
            errors: Mutex::new(Vec::new()),
        }
    }

    /// How many endings have a table file.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no table file was found.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The most pieces (kings included) of an ending with a table; 0 when
    /// there is none. A position with more pieces is not covered, which a
    /// search checks before anything else.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The endings with a table file, smallest first.
    pub fn endings(&self) -> Vec<Material> {
        let mut all: Vec<Material> = self.slots.keys().copied().collect();
        all.sort_by_key(|m| (m.piece_count(), *m));
        all
    }

    /// Whether `material` (either orientation) has a table file.
    pub fn covers(&self, material: &Material) -> bool {
        self.slots.contains_key(&material.canonical().0)
    }

    /// The table of a canonical material, read now if not yet tried. A
    /// missing file is quietly `None`; a damaged one is `None` with a
    /// message kept for [`Tablebase::take_errors`].
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        let slot = self.slots.get(&material)?;
        slot.table
            .get_or_init(|| match file::load(&slot.dir, material) {
                Ok(t) => Some(Arc::new(t)),
                Err(e) => {
                    let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
                    errors.push(e.to_string());
                    None
                }
            })
            .clone()
    }

    /// Loads one table eagerly, reporting why it could not be read.
    pub fn load(&self, material: Material) -> Result<Arc<Table>, FileError> {
        let (material, _) = material.canonical();
        match self.slots.get(&material) {
            Some(slot) => {
                let read = || file::load(&slot.dir, material).map(Arc::new);
                match slot.table.get() {
                    Some(Some(t)) => Ok(t.clone()),
                    _ => {
                        let t = read()?;
                        // Kept unless a probe has just set the slot.
                        let _ = slot.table.set(Some(t.clone()));
                        Ok(t)
                    }
                }
            }
            None => Err(FileError::Io(format!(
                "no file {} was found when the tables were opened",
                file::file_name(&material)
            ))),
        }
    }

    /// The messages of refused files since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The value of `pos` for its side to move, if its ending's table is
    /// in the directory. The position's history is not looked at: the
    /// value is that of the position played from here with no earlier
    /// repetitions.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let (material, swap) = Material::of(pos).canonical();
        let table = self.table(material)?;
        table.code(pos, swap).and_then(crate::value::code::decode)
    }

    /// The move that keeps the value of `pos` with the best distance.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Value)> {
        best_move_with(pos, |p| self.probe(p))
    }

    /// Best play from `pos` to mate ([`line_with`]).
    pub fn line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        line_with(pos, max_plies, |p| self.probe(p))
    }
}
