//! Long text cut for showing: one line clipped to a number of characters,
//! a many-line text (a traceback, compiler errors) kept at its ends. Every
//! cut says how much it left out. Pure, and a leaf of `report`.

/// Characters of an input, an answer or a line of detail shown before it
/// is cut.
pub(crate) const MAX_INPUT_CHARS: usize = 300;

/// `text` cut to `max` characters, saying how much was left out.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!(
        "{head} [... {} more characters; the whole case is in the JSON report]",
        n - max
    )
}

/// `text` cut to `max` characters, saying how many were left out (for a
/// whole message, where [`clip`]'s pointer to the case does not fit).
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}\n[... {} more characters]", n - max)
}

/// The first lines and the last (a traceback's error is at its end), each
/// line clipped, with the count of lines left out between them.
pub(crate) fn ends(text: &str, max_lines: usize) -> String {
    let lines: Vec<String> = text.lines().map(|l| clip(l, MAX_INPUT_CHARS)).collect();
    if lines.len() <= max_lines {
        return lines.join("\n");
    }
    let head = 3.min(max_lines);
    let tail = max_lines - head;
    format!(
        "{}\n[... {} more lines]\n{}",
        lines[..head].join("\n"),
        lines.len() - head - tail,
        lines[lines.len() - tail..].join("\n")
    )
}
