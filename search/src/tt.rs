//! The transposition table: lock-free, shared by every search thread.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR the data.
//! A reader accepts an entry only if the two words still XOR to its key, so
//! an entry torn by a concurrent writer is rejected as a miss instead of
//! being believed. Four entries form a 64-byte bucket (one cache line);
//! replacement prefers empty, same-key, then old and shallow entries.
//!
//! The memory comes zeroed from the allocator (which maps fresh pages
//! lazily), so even a table of many gigabytes is ready at once, and
//! clearing it is allocating it afresh.

use crate::score::{from_tt, is_rule_score, to_tt};
use shuai_board::Move;
use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
    /// The score is exact.
    Exact,
}

impl Bound {
    /// What a search result `best` says, given the window it was searched
    /// with: at least `best` when it reached `beta`, exactly `best` when it
    /// rose above `alpha`, at most `best` otherwise.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn to_bits(self) -> u64 {
        match self {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A table hit, with the score already adjusted to the probing ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best or refuting move found, if any (must be validated).
    pub mv: Option<Move>,
    /// The score, relative to the root (mate distances adjusted).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
    /// Whether the search that stored the entry was at a node on a
    /// principal variation, or found the node so marked (the `lmr_tt_pv`
    /// and `lmr_not_tt_pv` rows reduce by it).
    pub pv: bool,
}

impl Hit {
    /// Whether the stored score settles a search with the window
    /// (`alpha`, `beta`) by itself (when deep enough).
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

// Data layout: move 16 | score 16 | eval 16 | depth 7 + pv 1 | bound 2 + age 6.
// Depths stay below MAX_PLY (128): 7 bits hold -1..=126, and the rare 127
// (a table-base score at the deepest ply) is kept as 126.
const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;
const ENTRIES_PER_BUCKET: usize = 4;
/// Depth stored for an entry with only a move (no usable score).
const NO_SCORE_DEPTH: i32 = -1;

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8, pv: bool) -> u64 {
    let depth = (depth.clamp(-1, 126) + 1) as u64;
    u64::from(mv.to_u16())
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | depth << 48
        | u64::from(pv) << 55
        | bound.to_bits() << 56
        | u64::from(age & AGE_MASK) << 58
}

struct Unpacked {
    mv: u16,
    score: i32,
    eval: i32,
    depth: i32,
    bound: u64,
    age: u8,
    pv: bool,
}

fn unpack(data: u64) -> Unpacked {
    Unpacked {
        mv: data as u16,
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0x7F) as i32 - 1,
        bound: (data >> 56) & 3,
        age: (data >> 58) as u8 & AGE_MASK,
        pv: (data >> 55) & 1 != 0,
    }
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: BucketArray,
    age: AtomicU8,
}

/// The table's buckets, in memory that comes zeroed from the allocator.
///
/// Asked for zeroed memory with at most 16-byte alignment, the system
/// allocator uses `calloc`, which takes a large block straight from fresh
/// pages that the kernel maps (already zero) only when first touched: a
/// table of many gigabytes is ready at once. Asked for the buckets' own
/// 64-byte alignment, it would write every byte itself (24 s for 8 GiB).
/// So the block is allocated 16-aligned with one bucket to spare, and the
/// first bucket starts at the first 64-byte boundary inside it.
struct BucketArray {
    /// The first bucket (64-byte aligned, inside the allocation).
    first: NonNull<Bucket>,
    len: usize,
    /// The allocation as made, to free it.
    raw: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a `BucketArray` owns its buckets as a `Box<[Bucket]>` would, and
// `Bucket` (atomics only) is `Send` and `Sync`.
unsafe impl Send for BucketArray {}
// SAFETY: as above; shared access only hands out `&[Bucket]`.
unsafe impl Sync for BucketArray {}

impl BucketArray {
    /// `len` (at least one) empty buckets.
    fn zeroed(len: usize) -> BucketArray {
        let len = len.max(1);
        let size = (len + 1)
            .checked_mul(std::mem::size_of::<Bucket>())
            .expect("table size fits in memory");
        let layout = Layout::from_size_align(size, 16).expect("table size fits in memory");
        // SAFETY: the layout's size is non-zero (at least two buckets).
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let raw = NonNull::new(raw).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        assert!(offset < std::mem::size_of::<Bucket>());
        // SAFETY: `offset` is less than one bucket and the block holds one
        // bucket more than `len`, so the aligned start and the `len`
        // buckets after it lie inside the allocation.
        let first = unsafe { NonNull::new_unchecked(raw.as_ptr().add(offset).cast::<Bucket>()) };
        let array = BucketArray {
            first,
            len,
            raw,
            layout,
        };
        #[cfg(target_os = "linux")]
        array.advise_huge_pages();
        array
    }
}

#[cfg(target_os = "linux")]
impl BucketArray {
    /// Asks Linux to back the block with 2 MiB pages where it can
    /// (`madvise(MADV_HUGEPAGE)`; transparent huge pages in their
    /// `madvise` mode, the usual default, give them only to memory that
    /// asks). A probe lands on a random bucket, so with 4 KiB pages nearly
    /// every probe of a large table also misses the processor's address
    /// cache (TLB); with 2 MiB pages it mostly hits.
    fn advise_huge_pages(&self) {
        const HUGE: usize = 2 << 20;
        let start = self.raw.as_ptr() as usize;
        let end = start + self.layout.size();
        // Only the whole 2 MiB stretches inside the block: the advice
        // applies to whole pages, and the allocator's header page before
        // `raw` is not ours.
        let from = (start + HUGE - 1) & !(HUGE - 1);
        let to = end & !(HUGE - 1);
        if to > from {
            // SAFETY: [from, to) lies inside this block, which we own;
            // MADV_HUGEPAGE is a hint about how to map the pages and never
            // changes their contents (zero until written).
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
}

impl std::ops::Deref for BucketArray {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is aligned and points at `len` buckets inside our
        // allocation, all initialised (zero bytes are an empty bucket), and
        // they live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for BucketArray {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for BucketArray {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated by the global allocator with
        // `layout` and is freed exactly once, here.
        unsafe { alloc::dealloc(self.raw.as_ptr(), self.layout) }
    }
}

/// Tables from this size up are freed on a thread of their own (on Unix;
/// elsewhere every table is dropped in place, but the tests still name it).
#[cfg(any(unix, test))]
const BACKGROUND_FREE_BYTES: usize = 64 << 20;

/// Gives a table's memory back to the system. Unmapping the pages a
/// search has touched takes a while (60–400 ms for the 470 MB touched in
/// 3 seconds of a 1 GiB table on the 2-core test machine), and `Clear
/// Hash`, a new game or a new `Hash` must not make the next `go` wait for
/// it: in the issue 50 soak a GUI's `Clear Hash` just before a move at
/// 37 ms left cost the game on time. Freeing on another thread is not
/// enough by itself: one `munmap` holds the process's memory-map lock for
/// its whole length, and the next search's threads wait for that lock to
/// map their stacks. So a big table is handed to a thread that returns
/// its pages a slice at a time ([`BucketArray::return_pages`], each slice
/// holding the lock about a millisecond), and the empty block it then
/// frees unmaps at once. Unix only: elsewhere it is freed here. Returns
/// that thread, if any.
fn release(old: BucketArray) -> Option<std::thread::JoinHandle<()>> {
    #[cfg(unix)]
    {
        if old.len * std::mem::size_of::<Bucket>() >= BACKGROUND_FREE_BYTES {
            // If no thread can be started, the table is dropped with the
            // closure, here.
            return std::thread::Builder::new()
                .name("tt-free".into())
                .spawn(move || {
                    old.return_pages();
                    drop(old);
                })
                .ok();
        }
    }
    drop(old);
    None
}

#[cfg(unix)]
impl BucketArray {
    /// Hands the block's whole pages back to the system 4 MiB at a time
    /// (`madvise(MADV_DONTNEED)`); they read as zeros afterwards, and the
    /// block is only freed after this.
    fn return_pages(&self) {
        const SLICE: usize = 4 << 20;
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let Ok(page) = usize::try_from(page) else {
            return;
        };
        if !page.is_power_of_two() {
            return;
        }
        let start = self.raw.as_ptr() as usize;
        let end = start + self.layout.size();
        // Whole pages inside the block only: the allocator's own header
        // just before `raw` shares the first page and must stay.
        let mut at = (start + page - 1) & !(page - 1);
        while at + page <= end {
            let len = SLICE.min((end - at) & !(page - 1));
            // SAFETY: [at, at + len) is page-aligned and lies inside this
            // block, which the caller owns and nothing else reads or writes
            // any more; MADV_DONTNEED only drops its pages (they would read
            // as zeros), and nothing reads them before the block is freed.
            unsafe { libc::madvise(at as *mut libc::c_void, len, libc::MADV_DONTNEED) };
            at += len;
        }
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable::with_buckets(count)
    }

    fn with_buckets(count: usize) -> TranspositionTable {
        TranspositionTable {
            buckets: BucketArray::zeroed(count),
            age: AtomicU8::new(0),
        }
    }

    /// Reallocates to about `megabytes` MiB, forgetting every entry.
    pub fn resize(&mut self, megabytes: usize) {
        release(std::mem::replace(&mut self.buckets, BucketArray::zeroed(1)));
        *self = TranspositionTable::new(megabytes);
    }

    /// Size in MiB.
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets every entry, by giving the table fresh zeroed memory: the
    /// old pages go back to the system and new ones are mapped as the
    /// search touches them. Writing zeros instead touches every page: 22 s
    /// for an 8 GiB table on the 2-core test machine (two threads), most of
    /// it the kernel mapping pages the last game never used.
    pub fn clear(&mut self) {
        let len = self.buckets.len();
        // Let the old block go before taking the new one.
        release(std::mem::replace(&mut self.buckets, BucketArray::zeroed(1)));
        self.buckets = BucketArray::zeroed(len);
        *self.age.get_mut() = 0;
    }

    /// Starts a new search: entries from earlier searches age.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the processor to start loading `key`'s bucket into the cache,
    /// so that the probe a few hundred instructions later (after the move
    /// is made and the node's checks are done) finds it there instead of
    /// waiting on main memory. A hint only: no effect on results.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: the intrinsic needs SSE, which every x86_64 processor
            // has (it is part of the target's baseline); a prefetch only
            // hints the cache and never faults, and the address is a live
            // bucket of this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; `ply` converts mate scores back to root distance.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data != key || data == 0 {
                continue;
            }
            let u = unpack(data);
            let bound = Bound::from_bits(u.bound)?;
            return Some(Hit {
                mv: Move::from_u16(u.mv).filter(|m| !m.is_null()),
                score: from_tt(u.score, ply),
                eval: u.eval,
                depth: u.depth,
                bound,
                pv: u.pv,
            });
        }
        None
    }

    /// Stores a search result. Scores from repetition verdicts depend on the
    /// path that reached the node, so only the move is kept for them.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let (score, depth, bound) = if is_rule_score(score) {
            (0, NO_SCORE_DEPTH, Bound::Upper)
        } else {
            (to_tt(score, ply), depth, bound)
        };
        // Choose the slot: same key, else the least valuable entry.
        let mut slot = 0;
        let mut worst = i32::MAX;
        let mut old_move = 0u16;
        for (i, e) in bucket.entries.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                slot = i;
                if check ^ data == key && data != 0 {
                    old_move = unpack(data).mv;
                    // Keep a deeper exact result of this search.
                    let u = unpack(data);
                    if u.age == age && u.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                }
                break;
            }
            let u = unpack(data);
            let age_gap = i32::from(age.wrapping_sub(u.age) & AGE_MASK);
            let value = u.depth - 8 * age_gap;
            if value < worst {
                worst = value;
                slot = i;
            }
        }
        let mv = mv.map_or(old_move, Move::to_u16);
        let data = pack(
            Move::from_u16(mv).unwrap_or(Move::NULL),
            score,
            eval,
            depth,
            bound,
            age,
            pv,
        );
        let e = &bucket.entries[slot];
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).age == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, RULE_WIN};
    use shuai_board::Square;
    use std::sync::Arc;

    fn mv(a: usize, b: usize) -> Move {
        Move::new(
            Square::from_index(a).unwrap(),
            Square::from_index(b).unwrap(),
        )
    }

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42, 0), None);
        tt.store(42, 0, Some(mv(1, 10)), -150, 33, 7, Bound::Lower, true);
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!(
            hit,
            Hit {
                mv: Some(mv(1, 10)),
                score: -150,
                eval: 33,
                depth: 7,
                bound: Bound::Lower,
                pv: true,
            }
        );
        // The PV flag is a bit of its own: clearing it leaves the rest.
        tt.store(42, 0, Some(mv(1, 10)), -150, 33, 7, Bound::Lower, false);
        assert_eq!(tt.probe(42, 0), Some(Hit { pv: false, ..hit }));
        // A mate found 3 plies from the root, probed again at ply 5.
        tt.store(43, 3, None, mate_in(9), 0, 4, Bound::Exact, false);
        assert_eq!(tt.probe(43, 5).unwrap().score, mate_in(11));
        assert_eq!(tt.probe(43, 5).unwrap().mv, None);
    }

    #[test]
    fn rule_scores_are_not_stored() {
        let tt = TranspositionTable::new(1);
        tt.store(
            7,
            2,
            Some(mv(3, 4)),
            RULE_WIN - 5,
            0,
            9,
            Bound::Exact,
            false,
        );
        let hit = tt.probe(7, 2).unwrap();
        assert_eq!(hit.mv, Some(mv(3, 4)));
        assert_eq!(hit.depth, NO_SCORE_DEPTH);
    }

    #[test]
    fn colliding_keys_in_one_bucket_keep_the_deepest() {
        let tt = TranspositionTable::with_buckets(1); // every key lands in bucket 0
        for k in 1..=4u64 {
            tt.store(k, 0, None, k as i32, 0, k as i32 * 2, Bound::Exact, false);
        }
        for k in 1..=4u64 {
            assert_eq!(tt.probe(k, 0).map(|h| h.score), Some(k as i32));
        }
        // A fifth key evicts the shallowest (key 1, depth 2).
        tt.store(5, 0, None, 5, 0, 9, Bound::Exact, false);
        assert_eq!(tt.probe(1, 0), None);
        assert!(tt.probe(2, 0).is_some() && tt.probe(5, 0).is_some());
        // Entries of an older search are evicted first.
        tt.new_search();
        tt.store(6, 0, None, 6, 0, 1, Bound::Exact, false);
        tt.store(7, 0, None, 7, 0, 1, Bound::Exact, false);
        assert!(tt.probe(6, 0).is_some() && tt.probe(7, 0).is_some());
        assert_eq!(tt.hashfull(), 500);
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        tt.store(99, 0, Some(mv(5, 6)), 10, 0, 3, Bound::Exact, false);
        let b = tt.bucket(99);
        let e = b
            .entries
            .iter()
            .find(|e| e.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        // Simulate a half-finished write by another thread.
        e.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(tt.probe(99, 0), None);
    }

    #[test]
    fn hammered_by_threads_never_returns_a_foreign_entry() {
        let tt = Arc::new(TranspositionTable::new(1));
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = Arc::clone(&tt);
                s.spawn(move || {
                    // Each key's score is derived from the key, so any hit
                    // can be checked for consistency.
                    let mut rng = shuai_board::Rng::new(t + 1);
                    for _ in 0..200_000 {
                        let x = rng.next_u64();
                        let key = x % 5000 + 1;
                        let score = (key % 2000) as i32;
                        if x & 1 == 0 {
                            tt.store(
                                key,
                                0,
                                None,
                                score,
                                -score,
                                (key % 30) as i32,
                                Bound::Exact,
                                false,
                            );
                        } else if let Some(hit) = tt.probe(key, 0) {
                            assert_eq!(hit.score, score);
                            assert_eq!(hit.eval, -score);
                            assert_eq!(hit.depth, (key % 30) as i32);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn big_tables_are_freed_off_the_callers_thread() {
        // Regression (issue 50): a cleared 1 GiB table made the next `go`
        // wait for the old one to be unmapped.
        let small = BucketArray::zeroed(1024);
        assert!(release(small).is_none());
        let big = BucketArray::zeroed(BACKGROUND_FREE_BYTES / std::mem::size_of::<Bucket>());
        let freeing = release(big);
        assert_eq!(freeing.is_some(), cfg!(unix));
        if let Some(t) = freeing {
            t.join().expect("the table is freed");
        }
        // Every whole page is given back (reads as zeros), in slices that
        // cover the block to its end.
        let big = BucketArray::zeroed((9 << 20) / std::mem::size_of::<Bucket>() + 3);
        for b in big.iter() {
            for e in &b.entries {
                e.data.store(7, Ordering::Relaxed);
            }
        }
        #[cfg(unix)]
        {
            big.return_pages();
            let kept = big
                .iter()
                .filter(|b| b.entries[0].data.load(Ordering::Relaxed) != 0)
                .count();
            // Only the buckets on the partial pages at either end remain
            // (at most 64 KiB pages on the systems Shuai runs on).
            assert!(
                kept <= 2 * (64 << 10) / 64,
                "{kept} buckets kept their data"
            );
            let near_end = big.len() - 2 * (64 << 10) / 64 - 1;
            assert_eq!(big[near_end].entries[0].data.load(Ordering::Relaxed), 0);
        }
        let mut tt = TranspositionTable::new(64);
        tt.store(1, 0, None, 1, 0, 1, Bound::Exact, false);
        tt.clear();
        assert_eq!(tt.probe(1, 0), None);
        assert_eq!(tt.megabytes(), 64);
        tt.resize(128);
        assert_eq!(tt.megabytes(), 128);
    }

    #[test]
    fn resize_and_clear() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.megabytes(), 2);
        tt.store(1, 0, None, 1, 0, 1, Bound::Exact, false);
        tt.clear();
        assert_eq!(tt.probe(1, 0), None);
        tt.resize(4);
        assert_eq!(tt.megabytes(), 4);
        for key in 1..=2000u64 {
            tt.store(key, 0, None, 5, 0, 3, Bound::Exact, false);
        }
        tt.clear();
        assert_eq!(tt.megabytes(), 4);
        assert!(tt.buckets.iter().all(|b| b
            .entries
            .iter()
            .all(|e| e.data.load(Ordering::Relaxed) == 0)));
        // The buckets are cache-line aligned.
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
    }
}
