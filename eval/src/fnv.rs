//! FNV-1a, 64 bits: the checksum of network files and the fingerprint
//! `shuai-tools datagen` writes of settings too long to print. One copy, so
//! the two cannot drift apart; here because the network format, the lowest
//! crate that needs it, lives in this crate.

/// The 64-bit FNV-1a hash of `bytes`.
///
/// Not cryptographic: it catches damaged files and changed settings, not
/// forgeries. Its values are stored in network files and datagen headers,
/// so it must never change (the test pins the reference values).
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn reference_values() {
        // The published FNV-1a 64 test vectors (offset basis for the empty
        // input).
        assert_eq!(fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(*b"foobar"), 0x8594_4171_f739_67e8);
    }
}
