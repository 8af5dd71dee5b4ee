//! `--format table`: the score table for a terminal.
//!
//! Laid out for the width it is given: `None` (a pipe, a file) keeps every
//! row, legend, mistake and warning on one line, so `grep`, `sort` and
//! `awk` work; a terminal's width (see [`crate::terminal`]) wraps what is
//! wider: the fixed columns (functions, rules, total) keep their width, and
//! a student column that would overflow wraps, at `_`, `-`, `.` or a space
//! where it can. A legend line says what `12/43 6.98` means, and the
//! warnings follow the table.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Report, all_warnings, cell, function_cells, header, legend, points, rules_cell};

/// The width tests and examples lay a terminal's table out for.
#[cfg(test)]
pub(crate) const WIDTH: usize = 80;

const GAP: &str = "  ";

/// The narrowest the student column is made before the table overflows.
const MIN_STUDENT: usize = 8;

/// The table, wrapped to `width` columns when one is given.
pub(crate) fn render(report: &Report, width: Option<usize>) -> String {
    let has_rule = report.rule.is_some();
    let head = header(
        report,
        if has_rule {
            &["rules", "total"]
        } else {
            &["total"]
        },
    );
    // The maximum is said once in the legend when every student shares it
    // (one rubric), which keeps the total column narrow.
    let max = report.students.first().map(|s| s.max_score);
    let shared_max = max.filter(|m| report.students.iter().all(|s| s.max_score == *m));
    let rows: Vec<Vec<String>> = report
        .students
        .iter()
        .map(|s| {
            let mut row = vec![s.student.clone()];
            row.extend(function_cells(report, s, cell));
            if has_rule {
                row.push(rules_cell(s));
            }
            row.push(match shared_max {
                Some(_) => points(s.score),
                None => format!("{}/{}", points(s.score), points(s.max_score)),
            });
            row
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.width());
        }
    }
    if let Some(width) = width {
        let fixed: usize = widths[1..].iter().sum::<usize>() + GAP.len() * (widths.len() - 1);
        widths[0] = widths[0].min(width.saturating_sub(fixed).max(MIN_STUDENT));
    }

    let mut out = String::new();
    push_row(&mut out, &widths, &head);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    push_row(&mut out, &widths, &rule);
    for row in &rows {
        push_row(&mut out, &widths, row);
    }
    out.push('\n');
    let legend = match shared_max {
        Some(m) => format!("{} total: points out of {}.", legend(report), points(m)),
        None => legend(report),
    };
    out.push_str(&item(&legend, "", width));
    out.push_str(&super::top_mistakes(report, width));
    let warnings = all_warnings(report);
    if !warnings.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in &warnings {
            out.push_str(&item(w, "- ", width));
        }
    }
    out
}

/// `text` after `bullet` (`- `, or nothing), on one line, or wrapped to
/// `width` with the lines after the first indented under the text.
pub(crate) fn item(text: &str, bullet: &str, width: Option<usize>) -> String {
    let indent = " ".repeat(bullet.width());
    let Some(width) = width else {
        return format!("{bullet}{text}\n");
    };
    let mut out = String::new();
    for (i, line) in wrap(text, width.saturating_sub(indent.len()))
        .into_iter()
        .enumerate()
    {
        out.push_str(if i == 0 { bullet } else { &indent });
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One row; the first cell may take several lines.
fn push_row(out: &mut String, widths: &[usize], cells: &[String]) {
    let first = wrap(&cells[0], widths[0]);
    for (i, part) in first.iter().enumerate() {
        let mut line = String::new();
        line.push_str(&pad(part, widths[0]));
        if i == 0 {
            for (w, c) in widths[1..].iter().zip(&cells[1..]) {
                line.push_str(GAP);
                line.push_str(&pad(c, *w));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// `s` padded with spaces to `width` terminal columns: measured as a
/// terminal shows it (a CJK character takes two, a combining accent none),
/// so names in any script line up.
fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(s.width())))
}

/// How many of `chars` fit in `width` terminal columns.
fn fitting(chars: &[char], width: usize) -> usize {
    let mut used = 0;
    for (i, c) in chars.iter().enumerate() {
        used += c.width().unwrap_or(0);
        if used > width {
            return i;
        }
    }
    chars.len()
}

/// Breaks `text` into lines of at most `width` terminal columns, after a
/// space, `_`, `-` or `.` where one falls in the line, else mid-word.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while fitting(&rest, width) < rest.len() {
        let width = fitting(&rest, width).max(1);
        let cut = rest[..=width]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&i| i > 0)
            .or_else(|| {
                rest[..width]
                    .iter()
                    .rposition(|c| "_-.".contains(*c))
                    .map(|i| i + 1)
            })
            .unwrap_or(width);
        let line: String = rest[..cut].iter().collect();
        lines.push(line.trim_end().to_owned());
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    if !rest.is_empty() || lines.is_empty() {
        lines.push(rest.into_iter().collect());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_prefers_word_breaks() {
        assert_eq!(
            wrap("correct_separate_reading", 12),
            ["correct_", "separate_", "reading"]
        );
        assert_eq!(wrap("a b c", 3), ["a b", "c"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 3), [""]);
        for line in wrap(
            &format!("{} {}", crate::report::LEGEND, crate::report::RULES_LEGEND),
            WIDTH,
        ) {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        // Wide characters take two columns each.
        assert_eq!(wrap("张伟张伟", 5), ["张伟", "张伟"]);
    }

    #[test]
    fn a_table_wraps_for_a_narrow_terminal_only() {
        let mut report =
            crate::report::whole_file::tests::one_student(&crate::verdict::Verdict::pass());
        let name = "alexandra_konstantinopoulou_the_third";
        report.students[0].student = name.to_owned();
        report.warnings = vec![format!("{} words of a long warning", "many ".repeat(30))];
        // A pipe or a file (no width), or a wide terminal: one line each.
        for width in [None, Some(300)] {
            let table = render(&report, width);
            let row = table.lines().nth(2).unwrap();
            assert!(row.starts_with(name), "{table}");
            assert!(
                table
                    .lines()
                    .any(|l| l.starts_with("- many many") && l.ends_with("warning")),
                "{table}"
            );
        }
        // A narrow terminal: the name and the warning wrap to fit.
        let table = render(&report, Some(50));
        assert!(!table.contains(name), "{table}");
        assert!(table.lines().all(|l| l.width() <= 50), "{table}");
    }

    #[test]
    fn names_in_any_script_line_up() {
        for name in ["Zoe\u{0308}", "张伟", "alice"] {
            assert_eq!(pad(name, 8).width(), 8, "{name}");
        }
    }
}
