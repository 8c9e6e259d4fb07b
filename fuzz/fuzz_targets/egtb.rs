//! Endgame-table files (`egtb/src/file.rs`): any bytes decoded as a table.
//!
//! The header ends in a CRC-32 of itself, which random mutations almost
//! never keep right, so they would stop at the checksum. When the first
//! input byte is odd, the harness therefore sets the payload length to the
//! bytes that follow and recomputes the header's CRC (as a damaged file
//! made by someone who knew the format could), so the fuzzer reaches the
//! name, the entry count and the run-length decoder behind the checksum.
//! The decoding itself is the reader's, untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_egtb::file;

/// CRC-32 (IEEE), bit by bit: an independent copy of the file's checksum.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Makes the header's payload length and checksum agree with the bytes,
/// when the header is complete.
fn fix_header(bytes: &mut [u8]) {
    let Some(&name_len) = bytes.get(10) else {
        return;
    };
    // magic 8, version 2, name length 1, name, entries 8, values CRC 4,
    // payload length 8, then the header CRC 4.
    let header_end = 11 + usize::from(name_len) + 20;
    if bytes.len() < header_end + 4 {
        return;
    }
    let payload = (bytes.len() - header_end - 4) as u64;
    bytes[header_end - 8..header_end].copy_from_slice(&payload.to_le_bytes());
    let crc = crc32(&bytes[..header_end]);
    bytes[header_end..header_end + 4].copy_from_slice(&crc.to_le_bytes());
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 {
        fix_header(&mut bytes);
    }
    if let Ok(table) = file::decode(&bytes, None, "fuzz") {
        // A table read is a table that can be written back as it was.
        let again = file::encode(&table);
        let back = file::decode(&again, None, "fuzz").expect("a re-encoded table reads");
        assert_eq!(back.material(), table.material());
    }
});
