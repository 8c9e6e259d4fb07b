//! Looking positions up: a directory of table files loaded on demand, and
//! the move that keeps a position's value.

use crate::file::{self, FileError};
use crate::material::Material;
use crate::table::{Table, TableSet};
use crate::value::Value;
use shuai_board::{Move, Position};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    let mut pos = pos.clone();
    let mut best: Option<((u8, i32, bool), Move)> = None;
    for &m in pos.legal_moves().as_slice() {
        pos.make_move(m);
        let child = probe(&pos);
        let check = pos.in_check();
        pos.unmake_move();
        let rank = move_rank(child?, check);
        if best.is_none_or(|(b, _)| rank > b) {
            best = Some((rank, m));
        }
    }
    best.map(|(_, m)| (m, value))
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

/// A directory of table files, each read on its first probe and kept.
pub struct Tablebase {
    dir: PathBuf,
    loaded: Mutex<HashMap<Material, Option<Arc<Table>>>>,
    /// Messages about files that exist but were refused, one per file.
    errors: Mutex<Vec<String>>,
}

impl Tablebase {
    /// The tables in `dir` (nothing is read until a probe needs it).
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            loaded: Mutex::new(HashMap::new()),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// The table of a canonical material, read now if not yet tried. A
    /// missing file is quietly `None`; a damaged one is `None` with a
    /// message kept for [`Tablebase::take_errors`].
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = loaded.get(&material) {
            return t.clone();
        }
        let path = self.dir.join(file::file_name(&material));
        let table = if path.exists() {
            match file::load(&self.dir, material) {
                Ok(t) => Some(Arc::new(t)),
                Err(e) => {
                    let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
                    errors.push(e.to_string());
                    None
                }
            }
        } else {
            None
        };
        loaded.insert(material, table.clone());
        table
    }

    /// Loads one table eagerly, reporting why it could not be read.
    pub fn load(&self, material: Material) -> Result<Arc<Table>, FileError> {
        let (material, _) = material.canonical();
        let t = Arc::new(file::load(&self.dir, material)?);
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded.insert(material, Some(t.clone()));
        Ok(t)
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
