//! The Shuai engine binary's library: the protocol-free [`engine::Engine`],
//! the UCCI/UCI front-ends in [`protocol`], the command line and the
//! commands people run from a terminal (not in WebAssembly builds, which
//! have no terminal: they talk through [`protocol::Session`]).

#![warn(missing_docs)]

pub mod book;
#[cfg(not(target_family = "wasm"))]
pub mod cli;
pub mod engine;
pub mod fen;
pub mod game;
pub mod json;
pub mod opening;
pub mod perft;
pub mod protocol;
pub mod review;
pub mod score;
#[cfg(not(target_family = "wasm"))]
pub mod terminal;
pub mod wdl;
