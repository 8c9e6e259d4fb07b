//! BHGUI `.obk` and Pengfei `.pfBook` books (SQLite databases): any bytes
//! after the SQLite magic opened as a book, then probed. The seeds are a
//! small book of each format; SQLite itself is C code that this build does
//! not instrument, so the coverage guiding the fuzzer is that of the Rust
//! reader (`engine/src/book/obk.rs`) and of rusqlite.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_engine::book::Book;
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    static POSITIONS: OnceLock<Vec<shuai_board::Position>> = OnceLock::new();
    const MAGIC: &[u8] = b"SQLite format 3\0";
    let path = shuai_fuzz::scratch_file("book.obk");
    // Every input is a SQLite file: mutations of the magic would only
    // test the ElephantEye reader, which has its own target.
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(data.strip_prefix(MAGIC).unwrap_or(data));
    std::fs::write(&path, &bytes).expect("write the scratch book");
    if let Ok(book) = Book::open(&path) {
        for pos in POSITIONS.get_or_init(shuai_fuzz::book_positions) {
            for m in book.probe(pos).unwrap_or_default() {
                assert!(pos.is_legal(m.mv), "the book gave an illegal move");
            }
        }
    }
});
