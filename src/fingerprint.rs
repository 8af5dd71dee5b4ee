//! A leaf: the stable hash salgrade writes into files that outlive a run
//! (the journal's settings and checksums, `merge`'s settings, the report's
//! anonymised ids, the HTML page's nonce). It imports nothing of the crate,
//! so every module that fingerprints can use it without depending on
//! another.

/// FNV-1a, 64 bits, as 16 hex digits: stable across Rust versions, unlike
/// `DefaultHasher`. Each part is closed by a separator byte, so `["ab", "c"]`
/// and `["a", "bc"]` differ.
pub(crate) fn fingerprint(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::fingerprint;

    #[test]
    fn parts_are_separated_and_the_hash_is_stable() {
        assert_ne!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"a", b"bc"]));
        // Written into journals and reports: a change would orphan them.
        assert_eq!(fingerprint(&[]), "cbf29ce484222325");
        assert_eq!(fingerprint(&[b""]).len(), 16);
    }
}
