//! The one width rule for text laid out for a person (the score table, its
//! common-mistake and warning lines, `salgrade assignments`; the progress
//! line is cut to the terminal's width by its bar): wrap only for a real
//! terminal narrower than the text.
//! Output into a pipe or a file is never wrapped, whatever `COLUMNS` says,
//! so `grep`, `sort` and `awk` see one line per row.
//!
//! This module only measures; what wraps, and where, is the caller's.

use std::io::IsTerminal;

/// The width assumed for a terminal that does not say its own.
const FALLBACK: usize = 80;

/// The narrowest width text is wrapped to, however narrow the terminal.
const NARROWEST: usize = 40;

/// The columns of the terminal standard output is, or `None` when it is
/// not a terminal (a pipe, a file): then nothing is wrapped.
pub(crate) fn stdout_width() -> Option<usize> {
    let out = std::io::stdout();
    out.is_terminal()
        .then(|| of(terminal_size::terminal_size_of(&out)))
}

/// A terminal's width: what it says, else `COLUMNS`, else 80; never less
/// than [`NARROWEST`].
fn of(size: Option<(terminal_size::Width, terminal_size::Height)>) -> usize {
    let said = size.map(|(w, _)| usize::from(w.0)).filter(|w| *w > 0);
    let columns = || {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|w| *w > 0)
    };
    said.or_else(columns).unwrap_or(FALLBACK).max(NARROWEST)
}
