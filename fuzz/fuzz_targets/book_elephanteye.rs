//! ElephantEye `BOOK.DAT`: any bytes (that are not a SQLite file) opened as
//! a book, then probed. An error is fine; a panic, a hang or a huge
//! allocation is a bug in `engine/src/book/elephanteye.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_engine::book::Book;
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    static POSITIONS: OnceLock<Vec<shuai_board::Position>> = OnceLock::new();
    // The SQLite formats have their own target.
    if data.starts_with(b"SQLite format 3\0") {
        return;
    }
    let path = shuai_fuzz::scratch_file("BOOK.DAT");
    std::fs::write(&path, data).expect("write the scratch book");
    if let Ok(book) = Book::open(&path) {
        for pos in POSITIONS.get_or_init(shuai_fuzz::book_positions) {
            for m in book.probe(pos).unwrap_or_default() {
                assert!(pos.is_legal(m.mv), "the book gave an illegal move");
            }
        }
    }
});
