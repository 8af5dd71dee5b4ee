//! Which salgrade build is running, for the report's settings: the build
//! ID the linker writes into the binary (a hash of it, in its
//! `NT_GNU_BUILD_ID` note), else a hash of the whole binary. Two shards
//! graded by different builds (another commit, another compiler, local
//! changes) may judge differently, and `merge` refuses them; the crate
//! version alone does not tell them apart.

use std::io::Read;
use std::os::unix::fs::FileExt;
use std::sync::OnceLock;

/// `build-id HEX`, `binary FNV`, or `unknown`; computed once per run.
pub(crate) fn build() -> &'static str {
    static BUILD: OnceLock<String> = OnceLock::new();
    BUILD.get_or_init(|| {
        let Ok(file) = std::fs::File::open("/proc/self/exe") else {
            return "unknown".to_owned();
        };
        if let Some(id) = build_id(&file) {
            return format!("build-id {id}");
        }
        let mut bytes = Vec::new();
        match (&file).read_to_end(&mut bytes) {
            Ok(_) => format!("binary {}", crate::fingerprint::fingerprint(&[&bytes])),
            Err(_) => "unknown".to_owned(),
        }
    })
}

fn read_at(file: &impl FileExt, offset: u64, len: usize) -> Option<Vec<u8>> {
    let mut buf = vec![0; len];
    file.read_exact_at(&mut buf, offset).ok()?;
    Some(buf)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The GNU build ID of a 64-bit little-endian ELF file, from its `PT_NOTE`
/// segments, as hex.
fn build_id(file: &impl FileExt) -> Option<String> {
    let header = read_at(file, 0, 64)?;
    if header.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let phoff = u64_at(&header, 0x20)?;
    let phentsize = usize::from(u16_at(&header, 0x36)?);
    let phnum = u64::from(u16_at(&header, 0x38)?);
    for i in 0..phnum.min(256) {
        let ph = read_at(file, phoff + i * phentsize as u64, phentsize.max(56))?;
        const PT_NOTE: u32 = 4;
        if u32_at(&ph, 0)? != PT_NOTE {
            continue;
        }
        let size = usize::try_from(u64_at(&ph, 32)?).ok()?.min(1 << 16);
        let notes = read_at(file, u64_at(&ph, 8)?, size)?;
        if let Some(id) = gnu_build_id(&notes) {
            return Some(id);
        }
    }
    None
}

/// The `NT_GNU_BUILD_ID` note among `notes` (each a name size, a
/// description size, a type, then the name and the description, each
/// padded to 4 bytes).
fn gnu_build_id(notes: &[u8]) -> Option<String> {
    let pad = |n: usize| n.div_ceil(4) * 4;
    let mut at = 0;
    while at + 12 <= notes.len() {
        let namesz = u32_at(notes, at)? as usize;
        let descsz = u32_at(notes, at + 4)? as usize;
        let kind = u32_at(notes, at + 8)?;
        let name = notes.get(at + 12..at + 12 + namesz)?;
        let desc_at = at + 12 + pad(namesz);
        let desc = notes.get(desc_at..desc_at + descsz)?;
        const NT_GNU_BUILD_ID: u32 = 3;
        if kind == NT_GNU_BUILD_ID && name == b"GNU\0" && !desc.is_empty() {
            return Some(desc.iter().map(|b| format!("{b:02x}")).collect());
        }
        at = desc_at + pad(descsz);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_id_note_is_found_among_others() {
        let mut notes = Vec::new();
        // An ABI tag note first, then the build ID.
        for (name, kind, desc) in [
            (&b"GNU\0"[..], 1u32, &[0u8, 0, 0, 0, 3, 0, 0, 0][..]),
            (&b"GNU\0"[..], 3, &[0xab, 0xcd, 0x01][..]),
        ] {
            notes.extend((name.len() as u32).to_le_bytes());
            notes.extend((desc.len() as u32).to_le_bytes());
            notes.extend(kind.to_le_bytes());
            notes.extend(name);
            notes.extend(desc);
            notes.resize(notes.len().div_ceil(4) * 4, 0);
        }
        assert_eq!(gnu_build_id(&notes).as_deref(), Some("abcd01"));
        assert_eq!(gnu_build_id(&notes[..20]), None);
        assert_eq!(gnu_build_id(b""), None);
    }

    #[test]
    fn this_test_binary_has_a_build() {
        let build = build();
        assert!(
            build.starts_with("build-id ") || build.starts_with("binary "),
            "{build}"
        );
    }
}
