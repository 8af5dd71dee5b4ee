//! Reading the text files people give salgrade (case files, boards, seed
//! files, rubrics): an editor on Windows (Notepad, Excel's "UTF-8" CSV, a
//! PowerShell redirect) starts them with a UTF-8 byte order mark, which no
//! JSON or TOML parser takes, so it is dropped here, once, for every one of
//! them. This module only reads; each caller says what the text must be.

use std::path::Path;

/// The UTF-8 byte order mark.
const BOM: char = '\u{feff}';

/// `path`'s text without a leading byte order mark.
pub(crate) fn read_text(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// `text` without a leading byte order mark (text given on the command line).
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_dropped_and_only_at_the_start() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("cases.json");
        std::fs::write(&p, "\u{feff}{\"a\": \"\u{feff}\"}").unwrap();
        assert_eq!(read_text(&p).unwrap(), "{\"a\": \"\u{feff}\"}");
        std::fs::write(&p, "42\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "42\n");
        assert_eq!(without_bom("\u{feff}[1]"), "[1]");
    }
}
