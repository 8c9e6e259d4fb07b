//! The generator: retrograde analysis by mate distance, then the
//! perpetual-check rule (see the crate documentation for the method).

use crate::children::{for_each_child, predecessors, Child};
use crate::index::Layout;
use crate::material::Material;
use crate::progress::GenProgress;
use crate::table::{Table, TableSet};
use crate::value::{code, Value};
use rayon::prelude::*;
use shuai_board::{Color, Position, PositionBuffer};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};
use std::sync::Mutex;

/// Indices handed to one rayon task at a time: large enough to amortise
/// the task, small enough to balance two cores.
const CHUNK: usize = 4096;
// Init decodes a placement at each even index for the odd one after it.
const _: () = assert!(CHUNK % 2 == 0);

/// Why a table could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenError {
    /// A capture leads to this ending, whose table is not in the set.
    MissingSubTable(Material),
    /// A mate is longer than the format stores.
    TooLong(Material),
    /// The ending has more indices than the generator's 32-bit work lists
    /// hold (about 4.3 billion; with 3 bytes of working memory an entry,
    /// more than 12 GB as well).
    TooLarge(Material, usize),
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenError::MissingSubTable(m) => write!(f, "the table {m} is needed first"),
            GenError::TooLong(m) => write!(f, "{m}: a mate is longer than the format holds"),
            GenError::TooLarge(m, n) => write!(
                f,
                "{m}: {n} entries, more than the generator indexes ({})",
                u32::MAX
            ),
        }
    }
}

impl std::error::Error for GenError {}

/// A value decided ahead of its level: (plies, index, code).
type Deferred = (u16, u32, u16);

/// The plies of a lost position whose every move has been found to lose:
/// `1 +` the longest of its children's wins. A child that is not a won
/// mate after all would be a bug in the generator (checked in debug
/// builds; a release build passes over it).
fn loss_plies(pos: &mut Position, layout: &Layout, subs: &TableSet, values: &[AtomicU16]) -> u16 {
    let mut longest = 0u16;
    for_each_child(pos, layout, subs, |child| {
        let c = match child {
            Child::Here(i) => values[i].load(Ordering::Relaxed),
            Child::Other(c) => c,
        };
        match code::decode(c) {
            Some(Value::Win(n)) => longest = longest.max(n),
            other => debug_assert!(false, "a lost position's child is {other:?}"),
        }
    });
    longest + 1
}

/// Generates the table of `material` (canonical orientation). Every
/// ending a capture leads to must be in `subs`.
pub fn generate(
    material: Material,
    subs: &TableSet,
    progress: &mut dyn FnMut(GenProgress),
) -> Result<Table, GenError> {
    let layout = Layout::new(material);
    let n = layout.size();
    // The frontier and the deferred values keep indices as u32.
    if u32::try_from(n).is_err() {
        return Err(GenError::TooLarge(material, n));
    }
    for m in material.captures() {
        if !subs.contains(&m) {
            return Err(GenError::MissingSubTable(m));
        }
    }
    let values: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(code::NONE)).collect();
    let counts: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    // Values decided out of turn: a capture that wins at a distance, or a
    // loss whose longest defence is a capture. Each is assigned when its
    // level comes, unless a shorter win came first.
    let deferred: Mutex<BTreeMap<u16, Vec<(u32, u16)>>> = Mutex::new(BTreeMap::new());
    let too_long = std::sync::atomic::AtomicBool::new(false);
    let defer = |plies: u16, index: usize, c: u16, local: &mut Vec<Deferred>| {
        if plies > code::MAX_PLIES {
            too_long.store(true, Ordering::Relaxed);
        } else {
            local.push((plies, index as u32, c));
        }
    };

    // Init: legality, move counts, captures into smaller tables.
    let chunks: Vec<Vec<Deferred>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut local = Vec::new();
            let mut here = Vec::with_capacity(128);
            let mut buffer = PositionBuffer::new();
            // The two sides to move of a placement are neighbours (the
            // lowest digit), and chunks start at even indices: the
            // placement is decoded once for both.
            let mut placement = None;
            for i in chunk * CHUNK..((chunk + 1) * CHUNK).min(n) {
                if i % 2 == 0 {
                    placement = layout.decode(i);
                }
                let Some(placement) = &placement else {
                    continue;
                };
                let side = if i % 2 == 0 { Color::Red } else { Color::Black };
                let Ok(pos) = buffer.set(placement.pieces(), side) else {
                    continue;
                };
                here.clear();
                let (mut moves, mut others) = (0u32, 0u32);
                let (mut best_win, mut longest_loss) = (u16::MAX, 0u16);
                for_each_child(pos, &layout, subs, |child| {
                    moves += 1;
                    match child {
                        Child::Here(c) => here.push(c),
                        Child::Other(c) => match code::decode(c) {
                            Some(Value::Loss(d)) => {
                                best_win = best_win.min(d + 1);
                                // Counted open, so the position can never
                                // run out of moves and be called lost.
                                others += 1;
                            }
                            Some(Value::Win(d)) => longest_loss = longest_loss.max(d + 1),
                            // Draws and rule results of smaller tables keep
                            // the position open here; the rule phase reads
                            // the rule results.
                            _ => others += 1,
                        },
                    }
                });
                here.sort_unstable();
                here.dedup();
                values[i].store(code::UNKNOWN, Ordering::Relaxed);
                let open = here.len() as u32 + others;
                // At most 128 moves, so the count fits a byte.
                counts[i].store(open.min(255) as u8, Ordering::Relaxed);
                if moves == 0 {
                    defer(0, i, code::mate(0), &mut local);
                } else if best_win != u16::MAX {
                    defer(best_win, i, code::mate(best_win), &mut local);
                } else if open == 0 {
                    defer(longest_loss, i, code::mate(longest_loss), &mut local);
                }
            }
            local
        })
        .collect();
    {
        let mut d = deferred.lock().unwrap_or_else(|e| e.into_inner());
        for (plies, i, c) in chunks.into_iter().flatten() {
            d.entry(plies).or_default().push((i, c));
        }
    }
    progress(GenProgress {
        phase: "init",
        step: 0,
        decided: 0,
    });

    // Retrograde by levels: level L holds the positions decided at L plies.
    let mut frontier: Vec<u32> = Vec::new();
    let mut decided = 0u64;
    let mut level: u16 = 0;
    loop {
        // Propagate level-1 to its predecessors: a lost child (even
        // plies) wins its parents at once, a won child takes one open move
        // off each parent.
        let child_lost = level % 2 == 1;
        let found: Vec<(Vec<u32>, Vec<Deferred>)> = frontier
            .par_chunks(256)
            .map(|part| {
                let mut now = Vec::new();
                let mut later = Vec::new();
                let mut preds = Vec::with_capacity(64);
                let mut buffer = PositionBuffer::new();
                for &p in part {
                    let Some(pos) = layout.position_in(p as usize, &mut buffer) else {
                        continue;
                    };
                    predecessors(pos, &layout, &mut preds);
                    for &q in &preds {
                        if values[q].load(Ordering::Relaxed) != code::UNKNOWN {
                            continue;
                        }
                        if child_lost {
                            if values[q]
                                .compare_exchange(
                                    code::UNKNOWN,
                                    code::mate(level),
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                            {
                                now.push(q as u32);
                            }
                        } else if counts[q].fetch_sub(1, Ordering::Relaxed) == 1 {
                            // Every move of q loses: q is lost, at the
                            // distance of its longest defence.
                            let Some(qpos) = layout.position_in(q, &mut buffer) else {
                                continue;
                            };
                            let d = loss_plies(qpos, &layout, subs, &values);
                            if d == level {
                                values[q].store(code::mate(d), Ordering::Relaxed);
                                now.push(q as u32);
                            } else {
                                defer(d, q, code::mate(d), &mut later);
                            }
                        }
                    }
                }
                (now, later)
            })
            .collect();
        let mut next = Vec::new();
        {
            let mut d = deferred.lock().unwrap_or_else(|e| e.into_inner());
            for (now, later) in found {
                next.extend(now);
                for (plies, i, c) in later {
                    d.entry(plies).or_default().push((i, c));
                }
            }
            if let Some(due) = d.remove(&level) {
                for (i, c) in due {
                    if values[i as usize]
                        .compare_exchange(code::UNKNOWN, c, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        next.push(i);
                    }
                }
            }
            decided += next.len() as u64;
            frontier = next;
            if frontier.is_empty() && d.is_empty() {
                break;
            }
        }
        progress(GenProgress {
            phase: "mate",
            step: level as u32,
            decided,
        });
        if too_long.load(Ordering::Relaxed) || level >= code::MAX_PLIES {
            return Err(GenError::TooLong(material));
        }
        level += 1;
    }
    if too_long.load(Ordering::Relaxed) {
        return Err(GenError::TooLong(material));
    }
    let mut values: Vec<u16> = values.into_iter().map(AtomicU16::into_inner).collect();
    drop(counts);
    values.par_iter_mut().for_each(|v| {
        if *v == code::UNKNOWN {
            *v = code::DRAW;
        }
    });
    crate::rule::perpetual_check(&layout, subs, &mut values, progress);
    Ok(Table {
        layout,
        values,
        dont_care: false,
    })
}
