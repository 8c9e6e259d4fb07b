//! The Shuai engine binary's library: the protocol-free [`engine::Engine`],
//! the UCCI/UCI front-ends in [`protocol`], the command line and the
//! commands people run from a terminal.

#![warn(missing_docs)]

pub mod book;
pub mod cli;
pub mod engine;
pub mod fen;
pub mod perft;
pub mod protocol;
pub mod terminal;
pub mod wdl;
