//! Looking positions up: a directory of table files loaded on demand, and
//! the move that keeps a position's value.

use crate::file::{self, FileError};
use crate::material::Material;
use crate::table::{Table, TableSet};
use crate::value::Value;
use shuai_board::{Move, Position};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

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

/// The memory budget of a [`Tablebase`]'s loaded tables when none is
/// given, MiB: room for seven of the largest stage-1 tables (36 MB each),
/// or for the tables of dozens of smaller endings.
pub const DEFAULT_CACHE_MB: usize = 256;

/// What a slot holds.
enum Held {
    /// Not read yet, or dropped from the cache (read again when needed).
    Unread,
    /// Read and in the cache.
    Loaded(Arc<Table>),
    /// The file was refused (reported once); never read again.
    Refused,
}

/// One table file found in a directory.
struct Slot {
    /// The directory holding the file.
    dir: PathBuf,
    /// The table, if loaded. Probes take the read side for the lookup;
    /// the write side is taken only when the table is loaded or dropped.
    held: RwLock<Held>,
    /// Held while this slot's file is read, so that threads meeting the
    /// same unread table read it once (the others wait, then find it
    /// loaded) while other tables are read and probed meanwhile.
    reading: Mutex<()>,
    /// The tablebase's clock when this table was last used: the loaded
    /// table with the smallest stamp is the least recently used.
    last_used: AtomicU64,
}

/// The loaded tables' bookkeeping, changed only when a table is loaded or
/// dropped (never by a probe of a loaded table).
#[derive(Default)]
struct Cache {
    /// The loaded tables and their sizes in bytes.
    loaded: Vec<(Material, usize)>,
    /// Their total size, bytes.
    bytes: usize,
    /// Tables read from their files so far.
    loads: u64,
    /// Tables dropped to stay within the budget so far.
    evictions: u64,
}

/// What a [`Tablebase`] holds in memory, for reports and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// The loaded tables, least recently used first.
    pub tables: Vec<Material>,
    /// Their total size, bytes ([`Table::bytes`]).
    pub bytes: usize,
    /// The budget, bytes.
    pub budget: usize,
    /// Tables read from their files so far (a table dropped and needed
    /// again counts again).
    pub loads: u64,
    /// Tables dropped to stay within the budget so far.
    pub evictions: u64,
}

/// The table files of one or more directories, each read when a probe
/// first needs it and kept within a memory budget.
///
/// The directories are listed once, when opened: which endings exist is
/// then known without touching the disk (a search asks about positions
/// whose ending has no table far more often than about ones it has). A
/// file added later is seen by opening again.
///
/// **Memory**: the loaded tables (2 bytes per index entry, up to 36 MB for
/// a stage-1 table) are kept while their total stays within the budget
/// ([`DEFAULT_CACHE_MB`] until [`Tablebase::set_budget`]). Loading one
/// more first drops the least recently used tables until it fits. A table
/// larger than the whole budget is still loaded when a probe needs it,
/// alone: every other table is dropped for it, and the next load drops
/// it. Dropping removes only the cache's reference: a caller (or a probe
/// on another thread) holding the table's `Arc` keeps it valid, so memory
/// exceeds the budget by the tables callers still hold. A dropped table
/// needed again is read again.
///
/// **Threads**: the threads of a search share one `Tablebase`. A probe of
/// a loaded table takes only its own slot's read lock, for the lookup,
/// and stamps the slot for the least-recently-used order, writing shared
/// memory only when the table is not already the most recently used one.
/// Loading and dropping take a lock of their own, which probes of loaded
/// tables never wait for.
pub struct Tablebase {
    /// Every table file found, by canonical material (the first directory
    /// holding an ending wins).
    slots: HashMap<Material, Slot>,
    /// The most pieces (kings included) of any ending found.
    max_pieces: usize,
    /// Messages about files that exist but were refused, one per file.
    errors: Mutex<Vec<String>>,
    /// The memory budget of the loaded tables, bytes.
    budget: AtomicUsize,
    /// Advanced each time a table other than the most recently used one
    /// is used; slots are stamped with it.
    clock: AtomicU64,
    /// Which tables are loaded (loads and drops only).
    cache: Mutex<Cache>,
}

/// Locks `m`, carrying on through poisoning: every update under these
/// locks is a single assignment or push, so a panic elsewhere cannot
/// leave one half done.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Slot {
    fn read(&self) -> RwLockReadGuard<'_, Held> {
        self.held.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Held> {
        self.held.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// The table if it is loaded; `Err(true)` if it was refused,
    /// `Err(false)` if it is not loaded.
    fn loaded(&self) -> Result<Arc<Table>, bool> {
        match &*self.read() {
            Held::Loaded(t) => Ok(Arc::clone(t)),
            Held::Refused => Err(true),
            Held::Unread => Err(false),
        }
    }
}

impl Tablebase {
    /// The tables in `dir` (nothing is read until a probe needs it). A
    /// directory that cannot be listed gives a tablebase with no tables;
    /// [`Tablebase::open_dirs`] says why instead.
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase::open_dirs(&[dir]).unwrap_or_else(|_| Tablebase::from_slots(HashMap::new()))
    }

    /// The tables in `dirs`, in order (an ending in two directories is
    /// read from the first), with a budget of [`DEFAULT_CACHE_MB`]. Fails,
    /// saying which and why, when a directory cannot be listed; files
    /// whose names are not those of tables are ignored.
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
                    held: RwLock::new(Held::Unread),
                    reading: Mutex::new(()),
                    last_used: AtomicU64::new(0),
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
            budget: AtomicUsize::new(DEFAULT_CACHE_MB << 20),
            // Ahead of every slot's stamp (0): a slot not yet used is not
            // taken for the most recently used one.
            clock: AtomicU64::new(1),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Sets the memory budget of the loaded tables to `bytes`, dropping
    /// the least recently used ones now if they exceed it.
    pub fn set_budget(&self, bytes: usize) {
        let mut cache = lock(&self.cache);
        self.budget.store(bytes, Ordering::Relaxed);
        self.evict_down_to(&mut cache, bytes);
    }

    /// The memory budget of the loaded tables, bytes.
    pub fn budget(&self) -> usize {
        self.budget.load(Ordering::Relaxed)
    }

    /// The loaded tables, least recently used first, with the cache's
    /// counts.
    pub fn cache_stats(&self) -> CacheStats {
        let cache = lock(&self.cache);
        let mut tables: Vec<(u64, Material)> = cache
            .loaded
            .iter()
            .map(|&(m, _)| (self.stamp(m), m))
            .collect();
        tables.sort();
        CacheStats {
            tables: tables.into_iter().map(|(_, m)| m).collect(),
            bytes: cache.bytes,
            budget: self.budget(),
            loads: cache.loads,
            evictions: cache.evictions,
        }
    }

    /// The last-used stamp of a table's slot.
    fn stamp(&self, material: Material) -> u64 {
        self.slots
            .get(&material)
            .map_or(0, |s| s.last_used.load(Ordering::Relaxed))
    }

    /// Marks `slot` as the most recently used. When it already is (its
    /// stamp is the clock's value) nothing is written, so probing one
    /// table again and again does not touch shared memory. Two threads
    /// stamping at once may leave a stamp a step older than it should
    /// be: the order is exact for one thread and close for several.
    #[inline]
    fn touch(&self, slot: &Slot) {
        let now = self.clock.load(Ordering::Relaxed);
        if slot.last_used.load(Ordering::Relaxed) != now {
            let next = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
            slot.last_used.store(next, Ordering::Relaxed);
        }
    }

    /// Drops the least recently used tables until the loaded ones take at
    /// most `limit` bytes (or none is left).
    fn evict_down_to(&self, cache: &mut Cache, limit: usize) {
        while cache.bytes > limit {
            let Some(oldest) =
                (0..cache.loaded.len()).min_by_key(|&i| self.stamp(cache.loaded[i].0))
            else {
                break;
            };
            let (material, size) = cache.loaded.swap_remove(oldest);
            if let Some(slot) = self.slots.get(&material) {
                *slot.write() = Held::Unread;
            }
            cache.bytes -= size;
            cache.evictions += 1;
        }
    }

    /// Reads the table of `slot` (canonical `material`) unless another
    /// thread has just done so, and puts it in the cache. A refused file
    /// is reported once (kept for [`Tablebase::take_errors`]) and never
    /// read again.
    fn read_slot(&self, material: Material, slot: &Slot) -> Option<Arc<Table>> {
        let _reading = lock(&slot.reading);
        match slot.loaded() {
            Ok(t) => return Some(t),
            Err(true) => return None,
            Err(false) => {}
        }
        match file::load(&slot.dir, material) {
            Ok(t) => {
                let t = Arc::new(t);
                self.admit(material, slot, Arc::clone(&t));
                Some(t)
            }
            Err(e) => {
                lock(&self.errors).push(e.to_string());
                *slot.write() = Held::Refused;
                None
            }
        }
    }

    /// Puts a table just read into the cache, first dropping the least
    /// recently used ones to make room (all of them when it is larger
    /// than the budget). The caller holds the slot's `reading` lock, so
    /// the slot is not loaded.
    fn admit(&self, material: Material, slot: &Slot, table: Arc<Table>) {
        let size = table.bytes();
        let mut cache = lock(&self.cache);
        self.evict_down_to(&mut cache, self.budget().saturating_sub(size));
        *slot.write() = Held::Loaded(table);
        cache.loaded.push((material, size));
        cache.bytes += size;
        cache.loads += 1;
        self.touch(slot);
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

    /// The table of a canonical material, read now if it is not loaded
    /// (and counted as used). A missing file is quietly `None`; a damaged
    /// one is `None` with a message kept for [`Tablebase::take_errors`].
    /// The `Arc` stays valid after the cache drops the table.
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        let slot = self.slots.get(&material)?;
        self.touch(slot);
        match slot.loaded() {
            Ok(t) => Some(t),
            Err(true) => None,
            Err(false) => self.read_slot(material, slot),
        }
    }

    /// Loads one table eagerly, reporting why it could not be read (a
    /// file refused before is read again, to say why).
    pub fn load(&self, material: Material) -> Result<Arc<Table>, FileError> {
        let (material, _) = material.canonical();
        let Some(slot) = self.slots.get(&material) else {
            return Err(FileError::Io(format!(
                "no file {} was found when the tables were opened",
                file::file_name(&material)
            )));
        };
        self.touch(slot);
        let _reading = lock(&slot.reading);
        if let Ok(t) = slot.loaded() {
            return Ok(t);
        }
        let t = Arc::new(file::load(&slot.dir, material)?);
        self.admit(material, slot, Arc::clone(&t));
        Ok(t)
    }

    /// The messages of refused files since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.errors))
    }

    /// The value of `pos` for its side to move, if its ending's table is
    /// in the directory (read now if it is not loaded). The position's
    /// history is not looked at: the value is that of the position played
    /// from here with no earlier repetitions.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let (material, swap) = Material::of(pos).canonical();
        let slot = self.slots.get(&material)?;
        self.touch(slot);
        // A loaded table is looked up under the read lock: no reference
        // count to change. (The guard is gone before an unread table is
        // read: loading takes the write side.)
        let code = match &*slot.read() {
            Held::Loaded(t) => Some(t.code(pos, swap)),
            Held::Refused => return None,
            Held::Unread => None,
        };
        let code = match code {
            Some(code) => code,
            None => self.read_slot(material, slot)?.code(pos, swap),
        };
        code.and_then(crate::value::code::decode)
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
