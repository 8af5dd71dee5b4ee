//! `--format markdown`: the score table as a Markdown table.
//!
//! Every text a student controls (a folder name, an answer, a warning that
//! quotes one) goes through [`escape`]: Markdown renders raw HTML, so a
//! folder named `<img src=x onerror=alert(1)>` would run in a wiki page or
//! a pull request comment.

use super::{Report, all_warnings, cell, function_cells, legend, points, rules_cell};

/// `s` as literal text inside a Markdown table: HTML's `&`, `<` and `>`
/// as entities, Markdown's emphasis, link, code and table characters
/// backslash-escaped, and line breaks as spaces.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn render(report: &Report) -> String {
    // The rules column only where the assignment has a rule to check.
    let has_rule = report.rule.is_some();
    let mut out = String::new();
    out.push_str(&format!(
        "| student | {} |{} total |\n",
        report.functions.join(" | "),
        if has_rule { " rules |" } else { "" }
    ));
    out.push_str(&format!(
        "|---|{}{}---|\n",
        "---|".repeat(report.functions.len()),
        if has_rule { "---|" } else { "" }
    ));
    for s in &report.students {
        let cells = function_cells(report, s, cell);
        let rules = if has_rule {
            format!(" {} |", rules_cell(s))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "| {} | {} |{rules} {}/{} |\n",
            escape(&s.student),
            cells.join(" | "),
            points(s.score),
            points(s.max_score)
        ));
    }
    out.push_str(&format!("\n{}\n", legend(report)));
    if !report.clusters.is_empty() {
        out.push_str("\n**Common mistakes**, largest first\n\n");
        out.push_str("| students | function | board | expected | given | why | hint | who |\n");
        out.push_str("|---|---|---|---|---|---|---|---|\n");
        for c in &report.clusters {
            let cells = [
                c.students.len().to_string(),
                c.input.clone(),
                c.expected.clone().unwrap_or_default(),
                c.got
                    .clone()
                    .unwrap_or_else(|| c.verdict.as_str().to_owned()),
                c.explanation.clone().unwrap_or_default(),
                c.hint.clone().unwrap_or_default(),
                c.students.join(", "),
            ];
            let mut cells: Vec<String> = cells.iter().map(|t| escape(t)).collect();
            let function = if c.function.is_empty() {
                "(the file)".to_owned()
            } else {
                format!("`{}`", c.function)
            };
            cells.insert(1, function);
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
    }
    let warnings = all_warnings(report);
    if !warnings.is_empty() {
        out.push_str("\n**Warnings**\n\n");
        for w in &warnings {
            out.push_str(&format!("- {}\n", escape(w)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_student_cannot_write_html_or_markdown_into_the_page() {
        let mut report =
            crate::report::whole_file::tests::one_student(&crate::verdict::Verdict::pass());
        report.students[0].student = "<img src=x onerror=alert(1)>".into();
        report.students[0].warnings = vec!["[click](javascript:x) | *".into()];
        let md = render(&report);
        assert!(!md.contains("<img"), "{md}");
        assert!(
            md.contains("| &lt;img src=x onerror=alert(1)&gt; |"),
            "{md}"
        );
        assert!(md.contains("\\[click\\](javascript:x) \\| \\*"), "{md}");
    }
}
