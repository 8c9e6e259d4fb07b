//! Development tools for Shuai: the engine-vs-engine match runner with
//! Xiangqi adjudication and SPRT (`shuai-tools match`), the test-suite
//! runner (`suite`), the balanced-openings builder (`book openings`), the
//! opening-book builder (`book build`, games to `.obk`), self-play data
//! generation (`datagen`) and its files (`data`), weight tuning (`tune`,
//! `weights-rs`), network training (`train`) and SPSA tuning of the search
//! (`spsa`), the hostile-operator soak (`soak`) and the long-analysis check (`analysis`). The `shuai-tools` binary only turns its arguments into these
//! modules' configurations (tools/src/cmd).
//!
//! The runner speaks UCI with ranks 0–9 (Pikafish, Shuai), UCCI
//! (ElephantEye, Shuai) and UCI with ranks 1–10 plus `UCI_Variant xiangqi`
//! (Fairy-Stockfish); it judges every game with the board crate's rules
//! code (`shuai_board::rules`).

#![warn(missing_docs)]

pub mod analysis;
pub mod book;
pub mod book_build;
pub mod data;
pub mod datagen;
pub mod egtb_census;
pub mod engine;
pub mod fake;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod progress;
pub mod runner;
pub mod rustgen;
pub mod soak;
pub mod spec;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod tc;
pub mod train;
pub mod tune;
