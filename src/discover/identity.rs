//! Identities: every entry keeps its row, under an identifier unique once
//! made safe for a file name on a case-insensitive filesystem; colliding
//! entries get a suffix from their own name, so the identifiers do not
//! depend on the order the filesystem lists them in.

use std::collections::BTreeMap;

use super::{Entry, file_stem};

/// What two names must differ in to be told apart by every consumer: the
/// table, and a case-insensitive filesystem holding feedback files.
pub(super) fn identity_key(name: &str) -> String {
    file_stem(name).to_lowercase()
}

/// FNV-1a of an entry name: a short, stable, order-independent suffix.
fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// For a name that is not plain ASCII, its characters beyond ASCII as code
/// points and whether it is composed (NFC) or decomposed (NFD), so two
/// names that look the same (`zoë` typed on macOS and on Linux) are told
/// apart in a warning: ` (decomposed: zoe\u{308})`. Nothing for ASCII.
fn code_points(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    if name.is_ascii() {
        return String::new();
    }
    let form = if name.nfc().eq(name.chars()) {
        "composed"
    } else {
        "decomposed"
    };
    let escaped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                format!("\\u{{{:x}}}", u32::from(c))
            }
        })
        .collect();
    format!(" ({form}: {escaped})")
}

/// Gives every entry an identifier unique under [`identity_key`]; entries
/// that collide get `-` and a suffix from their own name, and a warning.
pub(super) fn assign_identities(entries: &mut [Entry]) -> Vec<String> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        groups.entry(identity_key(&e.stem)).or_default().push(i);
    }
    let mut warnings = Vec::new();
    for members in groups.values().filter(|m| m.len() > 1) {
        let mut members = members.clone();
        members.sort_by(|&a, &b| entries[a].name.cmp(&entries[b].name));
        for &i in &members {
            let e = &mut entries[i];
            e.sub.student = format!("{}-{:06x}", e.stem, name_hash(&e.name) & 0xff_ffff);
        }
        let named: Vec<String> = members
            .iter()
            .map(|&i| {
                format!(
                    "`{}`{} as `{}`",
                    entries[i].name,
                    code_points(&entries[i].name),
                    entries[i].sub.student
                )
            })
            .collect();
        let warning = format!(
            "{} entries map to the same student `{}`; each is graded on its own row: {}",
            members.len(),
            entries[members[0]].stem,
            named.join(", ")
        );
        for &i in &members {
            entries[i].sub.warnings.push(warning.clone());
        }
        warnings.push(warning);
    }
    // A suffixed name can, in a pathological folder, equal another entry's
    // own name; the full hash then separates them.
    // Entries are taken in name order, so which one is renamed does not
    // depend on the order the filesystem lists them in.
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen = std::collections::BTreeSet::new();
    for e in entries.iter_mut() {
        if !seen.insert(identity_key(&e.sub.student)) {
            e.sub.student = format!("{}-{:016x}", e.stem, name_hash(&e.name));
            seen.insert(identity_key(&e.sub.student));
        }
    }
    warnings
}
