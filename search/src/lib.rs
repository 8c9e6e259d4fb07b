//! The search for Shuai: iterative deepening alpha-beta over the board crate.
