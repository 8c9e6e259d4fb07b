//! Looking positions up: a directory of table files probed in place (a
//! block at a time, in a cache within a memory budget), and the move that
//! keeps a position's value.

use crate::file::{self, BlockFile, FileError};
use crate::index::Layout;
use crate::material::Material;
use crate::table::{Table, TableSet};
use crate::value::Value;
use shuai_board::{Move, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{
    Arc, Mutex, MutexGuard, OnceLock, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};

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

/// The hasher of the table map's keys (materials: a dozen small counts).
/// Every probe looks its ending up; the standard SipHash, out of line
/// there, was a fifth of a cached probe's time. This folds the bytes with
/// a multiply (as FxHash does): the keys are few, fixed and not chosen by
/// an adversary, so flooding resistance buys nothing.
#[derive(Default)]
struct MaterialHasher(u64);

impl Hasher for MaterialHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a step: a side's six counts are one.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    /// The folded words, mixed (SplitMix64's finalizer) so that every
    /// count reaches the low bits the map picks its bucket by: a multiply
    /// alone leaves them depending only on the low bytes, where an
    /// ending's defenders are not.
    #[inline]
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}

/// Tables by their material, hashed by [`MaterialHasher`].
type Slots = HashMap<Material, Slot, BuildHasherDefault<MaterialHasher>>;

/// The memory budget of a [`Tablebase`]'s cached blocks when none is
/// given, MiB.
pub const DEFAULT_CACHE_MB: usize = 256;

/// One block of a table, decoded, in the cache.
struct Block {
    /// The stored codes of the block's entries.
    codes: Box<[u16]>,
    /// The tablebase's clock when this block was last used: the cached
    /// block with the smallest stamp is the least recently used.
    last_used: AtomicU64,
}

impl Block {
    fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.codes)
    }
}

/// A table file opened for probing: its header and block index, and the
/// blocks of it in the cache.
struct Opened {
    file: BlockFile,
    layout: Layout,
    /// Entries per block, a power of two: a probe finds its block by a
    /// shift, not a division (which cost a tenth of a cached probe). A
    /// run-length file's one block is "every index below 2^63".
    block_shift: u32,
    /// The cached blocks by number. Probes take the read side; the write
    /// side is taken only when a block is put in or dropped.
    blocks: RwLock<Vec<Option<Arc<Block>>>>,
    /// A block of the file was refused (reported once): the table is not
    /// read again.
    refused: AtomicBool,
}

impl Opened {
    fn blocks_read(&self) -> RwLockReadGuard<'_, Vec<Option<Arc<Block>>>> {
        self.blocks.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn blocks_write(&self) -> RwLockWriteGuard<'_, Vec<Option<Arc<Block>>>> {
        self.blocks.write().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One table file found in a directory.
struct Slot {
    /// The directory holding the file.
    dir: PathBuf,
    /// The file, opened when a probe first needs it (`None`: refused,
    /// reported once, never opened again). Reading it needs no lock.
    opened: OnceLock<Option<Opened>>,
    /// Held while one of this table's blocks is read, so that threads
    /// missing the same block read it once (the others wait, then find it
    /// cached) while other tables are read and probed meanwhile.
    reading: Mutex<()>,
}

/// The cached blocks' bookkeeping, changed only when a block is put in or
/// dropped (never by a probe of a cached block).
#[derive(Default)]
struct Cache {
    /// The cached blocks: ending, block number, block.
    loaded: Vec<(Material, usize, Arc<Block>)>,
    /// Their total size, bytes.
    bytes: usize,
    /// Blocks read from their files so far.
    loads: u64,
    /// Blocks dropped to stay within the budget so far.
    evictions: u64,
}

/// What a [`Tablebase`] holds in memory, for reports and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// The endings with blocks in the cache, least recently used first
    /// (by their most recently used block).
    pub tables: Vec<Material>,
    /// Blocks in the cache.
    pub blocks: usize,
    /// Their total size, bytes (2 per entry).
    pub bytes: usize,
    /// The budget, bytes.
    pub budget: usize,
    /// Blocks read from their files so far (a block dropped and needed
    /// again counts again).
    pub loads: u64,
    /// Blocks dropped to stay within the budget so far.
    pub evictions: u64,
}

/// The table files of one or more directories, probed in place: a file is
/// opened (its header and block index read) when a probe first needs it,
/// and a probe reads and decodes only the block that holds its position,
/// kept in a cache within a memory budget.
///
/// The directories are listed once, when opened: which endings exist is
/// then known without touching the disk (a search asks about positions
/// whose ending has no table far more often than about ones it has). A
/// file added later is seen by opening again.
///
/// **Memory**: decoded blocks ([`file::BLOCK_ENTRIES`] entries, 2 bytes
/// each: 32 KiB) are kept while their total stays within the budget
/// ([`DEFAULT_CACHE_MB`] until [`Tablebase::set_budget`]), however many
/// tables a search touches; reading one more first drops the least
/// recently used blocks until it fits. A file of the old run-length format
/// (version 1) has no blocks: it is read whole as one block, as before
/// (and one larger than the whole budget is held alone). An opened table
/// also keeps its block index (12 bytes a block) outside the budget. The
/// whole table ([`Tablebase::table`]) is decoded apart from the cache.
///
/// **Threads**: the threads of a search share one `Tablebase`. A probe of
/// a cached block takes only its own table's read lock, for the lookup,
/// and stamps the block for the least-recently-used order, writing shared
/// memory only when the block is not already the most recently used one.
/// Reading and dropping blocks take a lock of their own, which probes of
/// cached blocks never wait for.
pub struct Tablebase {
    /// Every table file found, by canonical material (the first directory
    /// holding an ending wins).
    slots: Slots,
    /// The most pieces (kings included) of any ending found.
    max_pieces: usize,
    /// Messages about files that exist but were refused, one per file.
    errors: Mutex<Vec<String>>,
    /// The memory budget of the cached blocks, bytes.
    budget: AtomicUsize,
    /// Advanced each time a block other than the most recently used one
    /// is used; blocks are stamped with it.
    clock: AtomicU64,
    /// Which blocks are cached (reads and drops only).
    cache: Mutex<Cache>,
}

/// Locks `m`, carrying on through poisoning: every update under these
/// locks is a single assignment or push, so a panic elsewhere cannot
/// leave one half done.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Tablebase {
    /// The tables in `dir` (nothing is read until a probe needs it). A
    /// directory that cannot be listed gives a tablebase with no tables;
    /// [`Tablebase::open_dirs`] says why instead.
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase::open_dirs(&[dir]).unwrap_or_else(|_| Tablebase::from_slots(Slots::default()))
    }

    /// The tables in `dirs`, in order (an ending in two directories is
    /// read from the first), with a budget of [`DEFAULT_CACHE_MB`]. Fails,
    /// saying which and why, when a directory cannot be listed; files
    /// whose names are not those of tables are ignored.
    pub fn open_dirs<P: AsRef<Path>>(dirs: &[P]) -> Result<Tablebase, String> {
        let mut slots = Slots::default();
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
                    opened: OnceLock::new(),
                    reading: Mutex::new(()),
                });
            }
        }
        Ok(Tablebase::from_slots(slots))
    }

    fn from_slots(slots: Slots) -> Tablebase {
        Tablebase {
            max_pieces: slots.keys().map(Material::piece_count).max().unwrap_or(0),
            slots,
            errors: Mutex::new(Vec::new()),
            budget: AtomicUsize::new(DEFAULT_CACHE_MB << 20),
            // Ahead of every block's stamp (0): a block not yet used is
            // not taken for the most recently used one.
            clock: AtomicU64::new(1),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Sets the memory budget of the cached blocks to `bytes`, dropping
    /// the least recently used ones now if they exceed it.
    pub fn set_budget(&self, bytes: usize) {
        let mut cache = lock(&self.cache);
        self.budget.store(bytes, Ordering::Relaxed);
        self.evict_down_to(&mut cache, bytes);
    }

    /// The memory budget of the cached blocks, bytes.
    pub fn budget(&self) -> usize {
        self.budget.load(Ordering::Relaxed)
    }

    /// The endings with cached blocks, least recently used first, with the
    /// cache's counts.
    pub fn cache_stats(&self) -> CacheStats {
        let cache = lock(&self.cache);
        let mut newest: HashMap<Material, u64> = HashMap::new();
        for (m, _, block) in &cache.loaded {
            let stamp = block.last_used.load(Ordering::Relaxed);
            let e = newest.entry(*m).or_default();
            *e = (*e).max(stamp);
        }
        let mut tables: Vec<(u64, Material)> = newest.into_iter().map(|(m, s)| (s, m)).collect();
        tables.sort();
        CacheStats {
            tables: tables.into_iter().map(|(_, m)| m).collect(),
            blocks: cache.loaded.len(),
            bytes: cache.bytes,
            budget: self.budget(),
            loads: cache.loads,
            evictions: cache.evictions,
        }
    }

    /// Marks `block` as the most recently used. When it already is (its
    /// stamp is the clock's value) nothing is written, so probing one
    /// block again and again does not touch shared memory. Two threads
    /// stamping at once may leave a stamp a step older than it should
    /// be: the order is exact for one thread and close for several.
    #[inline]
    fn touch(&self, block: &Block) {
        let now = self.clock.load(Ordering::Relaxed);
        if block.last_used.load(Ordering::Relaxed) != now {
            let next = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
            block.last_used.store(next, Ordering::Relaxed);
        }
    }

    /// Drops the least recently used blocks until the cached ones take at
    /// most `limit` bytes (or none is left).
    fn evict_down_to(&self, cache: &mut Cache, limit: usize) {
        while cache.bytes > limit {
            let Some(oldest) = (0..cache.loaded.len())
                .min_by_key(|&i| cache.loaded[i].2.last_used.load(Ordering::Relaxed))
            else {
                break;
            };
            let (material, b, block) = cache.loaded.swap_remove(oldest);
            if let Some(Some(opened)) = self.slots.get(&material).and_then(|s| s.opened.get()) {
                if let Some(entry) = opened.blocks_write().get_mut(b) {
                    *entry = None;
                }
            }
            cache.bytes -= block.bytes();
            cache.evictions += 1;
        }
    }

    /// The opened file of `slot` (canonical `material`), opened now if it
    /// is not; `None` when it was refused (reported once, when opening
    /// failed, and kept for [`Tablebase::take_errors`]).
    fn opened<'a>(&self, material: Material, slot: &'a Slot) -> Option<&'a Opened> {
        slot.opened
            .get_or_init(|| match BlockFile::open(&slot.dir, material) {
                Ok(file) => {
                    let entries = file.block_entries();
                    let block_shift = if file.blocks() == 1 && !entries.is_power_of_two() {
                        usize::BITS - 1
                    } else {
                        entries.trailing_zeros()
                    };
                    Some(Opened {
                        blocks: RwLock::new(vec![None; file.blocks()]),
                        layout: Layout::new(material),
                        block_shift,
                        file,
                        refused: AtomicBool::new(false),
                    })
                }
                Err(e) => {
                    lock(&self.errors).push(e.to_string());
                    None
                }
            })
            .as_ref()
    }

    /// Reads block `b` of `opened` (canonical `material`) unless another
    /// thread has just done so, and puts it in the cache. A refused block
    /// is reported once and its table is not read again.
    fn read_block(
        &self,
        material: Material,
        slot: &Slot,
        opened: &Opened,
        b: usize,
    ) -> Option<Arc<Block>> {
        let _reading = lock(&slot.reading);
        if opened.refused.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(Some(block)) = opened.blocks_read().get(b) {
            return Some(Arc::clone(block));
        }
        match opened.file.read_block(b) {
            Ok(codes) => {
                let block = Arc::new(Block {
                    codes: codes.into_boxed_slice(),
                    last_used: AtomicU64::new(0),
                });
                self.admit(material, opened, b, Arc::clone(&block));
                Some(block)
            }
            Err(e) => {
                lock(&self.errors).push(e.to_string());
                opened.refused.store(true, Ordering::Relaxed);
                None
            }
        }
    }

    /// Puts a block just read into the cache, first dropping the least
    /// recently used ones to make room (all of them when it is larger than
    /// the budget). The caller holds the slot's `reading` lock, so the
    /// block is not cached.
    fn admit(&self, material: Material, opened: &Opened, b: usize, block: Arc<Block>) {
        let size = block.bytes();
        let mut cache = lock(&self.cache);
        self.evict_down_to(&mut cache, self.budget().saturating_sub(size));
        if let Some(entry) = opened.blocks_write().get_mut(b) {
            *entry = Some(Arc::clone(&block));
        }
        self.touch(&block);
        cache.loaded.push((material, b, block));
        cache.bytes += size;
        cache.loads += 1;
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

    /// The whole table of a canonical material, read and decoded now (not
    /// through the block cache, and not counted in its budget: for tools
    /// and tests that walk a whole table); the file is opened for probing
    /// too. A missing file is quietly `None`; a damaged one is `None` with
    /// a message kept for [`Tablebase::take_errors`].
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        let slot = self.slots.get(&material)?;
        self.opened(material, slot)?;
        match file::load(&slot.dir, material) {
            Ok(t) => Some(Arc::new(t)),
            Err(e) => {
                lock(&self.errors).push(e.to_string());
                None
            }
        }
    }

    /// Opens one table for probing and reads it whole
    /// ([`Tablebase::table`]), saying why it could not be read. Once
    /// opened, its file is probed through the open handle: it may be
    /// removed from the directory.
    pub fn load(&self, material: Material) -> Result<Arc<Table>, FileError> {
        let (material, _) = material.canonical();
        self.open_table(material)?;
        let Some(slot) = self.slots.get(&material) else {
            return Err(FileError::Io(format!(
                "no file {} was found when the tables were opened",
                file::file_name(&material)
            )));
        };
        file::load(&slot.dir, material).map(Arc::new)
    }

    /// Opens the file of `material` (either orientation) for probing now
    /// rather than at its first probe, saying why it cannot be; the
    /// milliseconds this takes are a table's opening cost.
    pub fn open_table(&self, material: Material) -> Result<(), FileError> {
        let (material, _) = material.canonical();
        let Some(slot) = self.slots.get(&material) else {
            return Err(FileError::Io(format!(
                "no file {} was found when the tables were opened",
                file::file_name(&material)
            )));
        };
        match self.opened(material, slot) {
            Some(_) => Ok(()),
            None => Err(BlockFile::open(&slot.dir, material)
                .err()
                .unwrap_or_else(|| FileError::Bad(format!("{material}: refused before")))),
        }
    }

    /// The messages of refused files since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.errors))
    }

    /// The value of `pos` for its side to move, if its ending's table is
    /// in the directory (its block read now if it is not cached). The
    /// position's history is not looked at: the value is that of the
    /// position played from here with no earlier repetitions.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let (material, swap) = Material::of(pos).canonical();
        let slot = self.slots.get(&material)?;
        let opened = self.opened(material, slot)?;
        let index = opened.layout.encode(pos, swap)?;
        let (b, at) = (
            index >> opened.block_shift,
            index & ((1 << opened.block_shift) - 1),
        );
        // A cached block is looked up under its table's read lock: no
        // reference count to change. (The guard is gone before a block is
        // read: putting it in takes the write side.)
        let cached = match opened.blocks_read().get(b)? {
            Some(block) => {
                self.touch(block);
                Some(*block.codes.get(at)?)
            }
            None => None,
        };
        let code = match cached {
            Some(code) => code,
            None => *self.read_block(material, slot, opened, b)?.codes.get(at)?,
        };
        crate::value::code::decode(code)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// The stage-1 and stage-2 endings spread over a map's buckets as
    /// random keys would: their hashes' low 11 bits (a map of 2,048
    /// buckets) take about as many values as 1,800 random numbers do
    /// (1,200), and no two endings hash the same.
    #[test]
    fn materials_hash_apart() {
        let all: Vec<Material> = crate::stage1().into_iter().chain(crate::stage2()).collect();
        assert_eq!(all.len(), 1800);
        let build = BuildHasherDefault::<MaterialHasher>::default();
        let hashes: Vec<u64> = all.iter().map(|m| build.hash_one(m)).collect();
        let mut low: Vec<u64> = hashes.iter().map(|h| h & 2047).collect();
        low.sort_unstable();
        low.dedup();
        assert!(low.len() > 1100, "{} bucket values", low.len());
        let mut full = hashes.clone();
        full.sort_unstable();
        full.dedup();
        assert_eq!(full.len(), all.len());
    }
}
