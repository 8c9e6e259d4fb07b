//! The search tree's shape: nodes by the depth left, quiescence nodes, and
//! cutoffs by the first move tried or a later one, counted over every
//! search of the process when the search is built with the `stats`
//! feature (`cargo build --release --features stats`), for comparing how
//! wide the tree is at each depth (docs/strength.md compares it with
//! Pikafish-HCE's). In a normal build the counting functions are empty and
//! [`TreeShape::read`] gives `None`.

/// Deepest remaining depth counted on its own; deeper nodes count here.
const DEPTHS: usize = 64;

#[cfg(feature = "stats")]
mod counters {
    use super::DEPTHS;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[allow(clippy::declare_interior_mutable_const)]
    const ZERO: AtomicU64 = AtomicU64::new(0);
    pub static BY_DEPTH: [AtomicU64; DEPTHS] = [ZERO; DEPTHS];
    pub static QUIESCENCE: AtomicU64 = AtomicU64::new(0);
    pub static FIRST_CUTOFFS: AtomicU64 = AtomicU64::new(0);
    pub static LATER_CUTOFFS: AtomicU64 = AtomicU64::new(0);

    #[inline]
    pub fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn read(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn reset() {
        let all = BY_DEPTH
            .iter()
            .chain([&QUIESCENCE, &FIRST_CUTOFFS, &LATER_CUTOFFS]);
        for counter in all {
            counter.store(0, Ordering::Relaxed);
        }
    }
}

/// A node of the main search with `depth` plies left.
#[inline(always)]
pub(crate) fn count_node(depth: i32) {
    #[cfg(feature = "stats")]
    counters::add(&counters::BY_DEPTH[(depth.max(0) as usize).min(DEPTHS - 1)]);
    #[cfg(not(feature = "stats"))]
    let _ = depth;
}

/// A node of the quiescence search.
#[inline(always)]
pub(crate) fn count_quiescence() {
    #[cfg(feature = "stats")]
    counters::add(&counters::QUIESCENCE);
}

/// A beta cutoff of the main search, by its first move tried or a later one.
#[inline(always)]
pub(crate) fn count_cutoff(first: bool) {
    #[cfg(feature = "stats")]
    counters::add(if first {
        &counters::FIRST_CUTOFFS
    } else {
        &counters::LATER_CUTOFFS
    });
    #[cfg(not(feature = "stats"))]
    let _ = first;
}

/// The counts so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// Main-search nodes below the root by the depth left (index 0
    /// unused: such nodes go to quiescence; the last index holds all
    /// deeper ones).
    pub by_depth: [u64; DEPTHS],
    /// Quiescence nodes.
    pub quiescence: u64,
    /// Beta cutoffs by the first move tried.
    pub first_move_cutoffs: u64,
    /// Beta cutoffs by a later move.
    pub later_cutoffs: u64,
}

impl TreeShape {
    /// The counts of every search since the process started or the last
    /// [`TreeShape::reset`]; `None` unless built with the `stats` feature.
    pub fn read() -> Option<TreeShape> {
        #[cfg(feature = "stats")]
        {
            Some(TreeShape {
                by_depth: std::array::from_fn(|d| counters::read(&counters::BY_DEPTH[d])),
                quiescence: counters::read(&counters::QUIESCENCE),
                first_move_cutoffs: counters::read(&counters::FIRST_CUTOFFS),
                later_cutoffs: counters::read(&counters::LATER_CUTOFFS),
            })
        }
        #[cfg(not(feature = "stats"))]
        None
    }

    /// Starts the counts afresh (nothing without the `stats` feature).
    pub fn reset() {
        #[cfg(feature = "stats")]
        counters::reset();
    }

    /// The counts as lines of text: quiescence, then each depth left with
    /// its share of all nodes, then the share of cutoffs by a first move.
    pub fn report(&self) -> String {
        let total = (self.quiescence + self.by_depth.iter().sum::<u64>()).max(1);
        let share = |n: u64| 100.0 * n as f64 / total as f64;
        let mut out = format!(
            "quiescence: {} nodes ({:.1}%)\n",
            self.quiescence,
            share(self.quiescence)
        );
        for (depth, &n) in self.by_depth.iter().enumerate().filter(|(_, &n)| n > 0) {
            out += &format!("depth {depth}: {n} nodes ({:.1}%)\n", share(n));
        }
        let cutoffs = self.first_move_cutoffs + self.later_cutoffs;
        out += &format!(
            "cutoffs: {cutoffs}, by the first move {:.1}%\n",
            100.0 * self.first_move_cutoffs as f64 / cutoffs.max(1) as f64
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_gives_each_depth_its_share() {
        let mut by_depth = [0; DEPTHS];
        by_depth[1] = 30;
        by_depth[2] = 10;
        let shape = TreeShape {
            by_depth,
            quiescence: 60,
            first_move_cutoffs: 9,
            later_cutoffs: 1,
        };
        assert_eq!(
            shape.report(),
            "quiescence: 60 nodes (60.0%)\n\
             depth 1: 30 nodes (30.0%)\n\
             depth 2: 10 nodes (10.0%)\n\
             cutoffs: 10, by the first move 90.0%\n"
        );
    }

    #[cfg(feature = "stats")]
    #[test]
    fn a_search_is_counted() {
        use shuai_board::Position;
        TreeShape::reset();
        let mut searcher = crate::Searcher::new(1);
        let limits = crate::Limits::depth(5);
        searcher.search(
            &Position::startpos(),
            &limits,
            &crate::Control::new(),
            &|_| {},
        );
        // The root's children have 4 plies left (the root itself is not a
        // node of the counted search); other tests' searches may add theirs.
        let shape = TreeShape::read().unwrap();
        assert!(shape.by_depth[4] >= 1 && shape.by_depth[1] > shape.by_depth[4]);
        assert!(shape.quiescence > 0 && shape.first_move_cutoffs > shape.later_cutoffs);
    }

    #[cfg(not(feature = "stats"))]
    #[test]
    fn nothing_is_counted_without_the_feature() {
        count_node(3);
        count_quiescence();
        count_cutoff(true);
        assert_eq!(TreeShape::read(), None);
    }
}
