//! A table in memory and a set of tables to look positions up in.

use crate::index::Layout;
use crate::material::Material;
use crate::value::{code, Value};
use shuai_board::Position;
use std::collections::HashMap;
use std::sync::Arc;

/// The values of every index of one ending.
pub struct Table {
    pub(crate) layout: Layout,
    pub(crate) values: Vec<u16>,
    /// Whether the entries that are not positions hold any value rather
    /// than "not a position": so in a table read from a block file, whose
    /// coder fills them with what costs least. Then whether an index is a
    /// position is asked of the layout.
    pub(crate) dont_care: bool,
}

impl Table {
    /// The ending (in the stored orientation).
    pub fn material(&self) -> Material {
        self.layout.material()
    }

    /// The index layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Number of indices.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table has no indices (never, for a real ending).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Memory the table's values take, bytes (2 per index): what a
    /// [`Tablebase`](crate::Tablebase)'s memory budget counts.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.values.as_slice())
    }

    /// The value stored at `index` (`None`: not a position).
    pub fn value_at(&self, index: usize) -> Option<Value> {
        if self.dont_care && !self.is_position(index) {
            return None;
        }
        self.values.get(index).and_then(|&c| code::decode(c))
    }

    /// Whether `index` stands for a legal position (one with a value).
    pub fn is_position(&self, index: usize) -> bool {
        if self.dont_care {
            self.layout.position(index).is_some()
        } else {
            self.values.get(index).is_some_and(|&c| c != code::NONE)
        }
    }

    /// The stored codes, with "not a position" at every index that is not
    /// one, whatever the table was read from (slow for a table read from a
    /// block file: each index is checked against the layout).
    pub(crate) fn exact_codes(&self) -> std::borrow::Cow<'_, [u16]> {
        if !self.dont_care {
            return std::borrow::Cow::Borrowed(&self.values);
        }
        let mut codes = self.values.clone();
        for (i, c) in codes.iter_mut().enumerate() {
            if self.layout.position(i).is_none() {
                *c = code::NONE;
            }
        }
        std::borrow::Cow::Owned(codes)
    }

    /// The stored code of `pos` (its colours swapped first when `swap`).
    pub(crate) fn code(&self, pos: &Position, swap: bool) -> Option<u16> {
        let i = self.layout.encode(pos, swap)?;
        self.values.get(i).copied()
    }

    /// Whether any position is decided by the perpetual-check rule.
    pub fn has_rule_results(&self) -> bool {
        self.values
            .iter()
            .any(|&v| v != code::UNKNOWN && v & code::RULE != 0)
    }

    /// Counts of the values: (positions, wins, draws, losses, wins by
    /// rule, losses by rule, longest mate in plies).
    pub fn census(&self) -> Census {
        let mut c = Census::default();
        for &v in self.exact_codes().iter() {
            match code::decode(v) {
                None => {}
                Some(value) => {
                    c.positions += 1;
                    match value {
                        Value::Draw => c.draws += 1,
                        Value::Win(n) => {
                            c.wins += 1;
                            c.longest = c.longest.max(n);
                        }
                        Value::Loss(n) => {
                            c.losses += 1;
                            c.longest = c.longest.max(n);
                        }
                        Value::WinByRule(_) => c.rule_wins += 1,
                        Value::LossByRule(_) => c.rule_losses += 1,
                    }
                }
            }
        }
        c
    }
}

/// What a table holds, by kind of value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Legal positions (canonical indices).
    pub positions: u64,
    /// Side to move mates.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Side to move is mated.
    pub losses: u64,
    /// Side to move wins by the perpetual-check rule.
    pub rule_wins: u64,
    /// Side to move loses by the perpetual-check rule.
    pub rule_losses: u64,
    /// Longest mate, plies.
    pub longest: u16,
}

/// Tables by ending, for lookups across captures.
#[derive(Default, Clone)]
pub struct TableSet {
    tables: HashMap<Material, Arc<Table>>,
}

impl TableSet {
    /// An empty set.
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Arc<Table>) {
        self.tables.insert(table.material(), table);
    }

    /// The table of `material` (canonical orientation), if held.
    pub fn get(&self, material: &Material) -> Option<&Arc<Table>> {
        self.tables.get(material)
    }

    /// Whether the table of `material` (canonical) is held.
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(material)
    }

    /// The stored code of `pos`, from the table of its material.
    pub(crate) fn code(&self, pos: &Position) -> Option<u16> {
        let (material, swap) = Material::of(pos).canonical();
        self.tables.get(&material)?.code(pos, swap)
    }

    /// The value of `pos` (history ignored), if its ending is held.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        self.code(pos).and_then(code::decode)
    }
}
