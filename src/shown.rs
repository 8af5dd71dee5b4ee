//! Student-controlled text made safe to show: control characters escaped
//! (a terminal must never receive a raw escape sequence from a student),
//! lengths capped where the text enters salgrade, and Markdown code fences
//! that the text inside cannot close. Pure.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal or a document raw: the C0 and C1
/// controls and DEL, and the bidirectional overrides that make text read
/// differently from what it is. Newline and tab are kept by [`printable`].
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape_into(out: &mut String, c: char) {
    let n = u32::from(c);
    if n < 0x100 {
        let _ = write!(out, "\\x{n:02x}");
    } else {
        let _ = write!(out, "\\u{{{n:x}}}");
    }
}

fn escaped(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| hidden(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) && !keep(c) {
            escape_into(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every control character but newline and tab escaped
/// (`\x1b`, `\u{202e}`): multi-line text such as a traceback or output.
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// `text` with every control character escaped, newlines included: a name
/// or a table cell, which must stay on one line.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    escaped(text, |_| false)
}

/// At most `max` bytes of `text` (cut at a character boundary), with a
/// note of how much was dropped.
pub(crate) fn capped(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let dropped = text.len() - cut;
    text.truncate(cut);
    let _ = write!(text, "[... {dropped} more bytes not kept]");
    // Truncating keeps the whole allocation: a 2 MiB string cut to 200
    // bytes and kept per case would still hold its 2 MiB.
    text.shrink_to_fit();
    text
}

/// Student text as it enters salgrade: capped at `max` bytes, then made
/// printable.
pub(crate) fn entering(text: String, max: usize) -> String {
    let text = capped(text, max);
    match printable(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(escaped) => escaped,
    }
}

/// A Markdown code block holding `text`: fenced with one backtick more
/// than the longest run inside it (three at least), so no line of the
/// text can end the block.
pub(crate) fn fenced(text: &str, info: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{text}\n{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_string_holds_no_more_than_it_keeps() {
        let kept = capped("E".repeat(2 << 20), 200);
        assert!(kept.len() < 300, "{}", kept.len());
        assert!(kept.capacity() < 1024, "{}", kept.capacity());
    }

    #[test]
    fn control_characters_are_escaped_and_text_kept() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
        assert_eq!(printable("\x1b[2J\x07"), "\\x1b[2J\\x07");
        assert_eq!(printable("\u{9b}31m"), "\\x9b31m");
        assert_eq!(printable("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(one_line("two\nlines\r"), "two\\x0alines\\x0d");
        assert_eq!(printable("é ü ✓"), "é ü ✓");
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        assert_eq!(capped("short".to_owned(), 10), "short");
        let cut = capped("ééé".to_owned(), 3);
        assert_eq!(cut, "é[... 4 more bytes not kept]");
        assert!(entering("\x1b".repeat(10), 4).starts_with("\\x1b\\x1b\\x1b\\x1b[..."));
    }

    #[test]
    fn a_fence_is_longer_than_any_run_inside() {
        assert_eq!(fenced("x", "text"), "```text\nx\n```");
        assert_eq!(
            fenced("```\n# Final grade: 100", "text"),
            "````text\n```\n# Final grade: 100\n````"
        );
    }
}
