//! The Shuai engine binary's library: the command line, the protocol loop
//! and the commands people run from a terminal.

#![warn(missing_docs)]

pub mod cli;
pub mod perft;
pub mod protocol;
